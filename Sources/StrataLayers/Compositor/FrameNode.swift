import StrataGraphics

/// One layer as one frame shows it: its presentation values at the frame's
/// time, the map from its coordinates to device pixels, the boxes its drawing
/// covers, what its special layer prepared, and its sublayers' nodes in
/// drawing order.
///
/// Each frame the compositor's first pass (`FramePass`) builds a tree of these
/// from the render tree, and its second pass draws that tree into each damaged
/// rectangle. A render node can have several frame nodes in one frame (one per
/// replicator copy), told apart by `key`. Used on the renderer's thread only.
final class FrameNode {
    let node: RenderNode
    /// The presentation values.
    let state: LayerState
    /// What its special layer adds (`state.special`), if it is one.
    let special: Boxed<any SpecialLayerState>?
    /// Layer coordinates to device pixels (flattened).
    let transform: Transform3D
    let homography: Homography
    /// What the layer itself covers on screen (with its shadow), clipped.
    private(set) var box: Rect
    /// With all its sublayers.
    var subtreeBox: Rect
    /// Everything its drawing can touch: the subtree and, when it casts
    /// its shadow from its composited sublayers, that shadow.
    var extent: Rect
    var children: [FrameNode] = []
    var mask: FrameNode?
    /// Multiplies every colour the layer draws (a replicator copy's).
    let tint: Color?
    /// The key of the layer's record: its id, combined with the replicator
    /// copies it is in.
    let key: Int
    /// In a transform layer's 3D space: the depth of the layer's centre
    /// (larger is nearer the eye), by which its siblings there are sorted.
    var depth = 0.0
    /// In a transform layer's 3D space: the corners of the bounds after
    /// the projection (x/w, y/w, z/w), where the view is along −z; nil
    /// when a corner is behind the eye.
    var corners3D: [SIMD3<Double>]?
    /// What the special layer's `prepareFrame` made for its drawing this
    /// frame (an emitter's particles, a tiled layer's tiles).
    var specialData: SpecialFrameData?
    /// The opacity of the transform layers between this layer and the one
    /// whose children list holds it (they draw nothing themselves).
    var contextAlpha = 1.0

    init(
        node: RenderNode, state: LayerState, special: Boxed<any SpecialLayerState>?, transform: Transform3D, box: Rect,
        tint: Color?, key: Int
    ) {
        self.node = node
        self.state = state
        self.special = special
        self.transform = transform
        self.homography = transform.planeHomography
        self.box = box
        self.subtreeBox = box
        self.extent = box
        self.tint = tint
        self.key = key
    }

    /// Replaces the layer's own box, before its sublayers are added to it.
    func setBox(_ box: Rect) {
        self.box = box
        subtreeBox = box
        extent = box
    }
}
