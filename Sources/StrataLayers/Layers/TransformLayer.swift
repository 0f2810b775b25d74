public import Foundation
import StrataGraphics

/// A layer that does not flatten its sublayers (`CATransformLayer`).
///
/// An ordinary layer projects its sublayers into its own plane, so a rotated
/// "cube" of six face layers collapses into a flat picture of them in array
/// order. A transform layer keeps its sublayers in the 3D space of its
/// superlayer: each is placed by its own transform composed with the transform
/// layer's (and those of any transform layers between), all of them are sorted
/// back to front by the depth of their centres, and each is then drawn on its
/// own under the superlayer's `sublayerTransform` (usually the perspective:
/// `m34 = -1 / distance`). Single-sided layers (`isDoubleSided = false`) that
/// face away from the eye are culled.
///
/// A transform layer has no contents of its own: its background, contents,
/// border, corner radius, shadow, `masksToBounds` and `mask` are ignored, as in
/// Core Animation. Its `opacity` multiplies each sublayer's, one by one (there
/// is no group).
open class TransformLayer: Layer {
    public override init() {
        super.init()
        becomeTransformLayer()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeTransformLayer()
    }
}

extension Layer {
    /// Makes the layer a transform layer (its class's initializers, and
    /// QuartzCore's `CATransformLayer`).
    package func becomeTransformLayer() { state.special = TransformLayerState() }
}

/// A transform layer's part of the state: no values, only the kind, whose
/// sublayers keep their depth.
struct TransformLayerState: SpecialLayerState {
    var drawsContent: Bool { false }
    var preservesDepth: Bool { true }
}

extension FramePass {
    /// A transform layer draws nothing itself; its sublayers (and, through
    /// nested transform layers, theirs) join one list in the 3D space of the
    /// transform layer's superlayer, sorted back to front by depth
    /// (`FrameNode.depthSorted`). `m3` maps the layer to that space, `m` to
    /// device pixels.
    mutating func prepareTransformLayer(
        _ node: RenderNode, _ s: LayerState, _ special: Boxed<any SpecialLayerState>?,
        m3: Transform3D, m: Transform3D, _ inherited: Inherited, recordKey: Int
    ) -> FrameNode {
        let p = FrameNode(node: node, state: s, special: special, transform: m, box: .null, tint: inherited.tint, key: recordKey)
        // The members flatten into the plane the transform layer would have.
        let forMembers = Inherited(
            plane: inherited.plane, depthContext: m3, sublayerTransform: s.sublayerTransformAboutAnchor,
            opacity: inherited.opacity * s.opacity, clip: inherited.clip, time: inherited.time,
            tint: inherited.tint, key: inherited.key)
        var members: [FrameNode] = []
        for child in node.sublayers {
            guard let cp = prepare(child, forMembers) else { continue }
            if cp.special?.value.preservesDepth == true {
                for member in cp.children {
                    member.contextAlpha *= cp.state.opacity
                    members.append(member)
                }
            } else {
                members.append(cp)
            }
        }
        p.children = FrameNode.depthSorted(members)
        for c in p.children { p.subtreeBox = p.subtreeBox.union(c.extent) }
        p.extent = p.subtreeBox
        // Its record covers nothing, so damages nothing: its members' do.
        records[recordKey] = Compositor.Record(
            version: inherited.recordVersion(of: node), transform: p.homography, opacity: inherited.opacity,
            clip: inherited.clip, box: .null, animated: node.isAnimating(at: inherited.time),
            tintAndContentVersion: 0)
        return p
    }
}
