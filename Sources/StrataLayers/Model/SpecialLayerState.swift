import StrataGraphics

/// What a special layer adds to the values every layer has, and what the
/// compositor does with it: one conforming value type per kind of layer.
///
/// | Layer             | State                 | What it does in a frame                          |
/// |-------------------|-----------------------|--------------------------------------------------|
/// | `ShapeLayer`      | `ShapeState`          | draws a path; its stroke reaches past the bounds |
/// | `GradientLayer`   | `GradientState`       | draws a gradient                                 |
/// | `TextLayer`       | `TextState`           | draws text                                       |
/// | `TiledLayer`      | `TiledState`          | asks for the tiles on screen, draws those found  |
/// | `EmitterLayer`    | `EmitterState`        | computes its particles, draws them               |
/// | `ReplicatorLayer` | `ReplicatorState`     | shows copies of its sublayers                    |
/// | `TransformLayer`  | `TransformLayerState` | keeps its sublayers in its superlayer's 3D space |
///
/// Each kind lives in its layer's file, next to the public class: its values
/// (which the class's properties read and write), its animatable key paths,
/// and its part in each frame: where it draws beyond its bounds (for damage),
/// what it prepares for the frame, and its drawing. A layer has at most one
/// kind, in `LayerState.special`, so the render tree carries it with the rest
/// of the state and animations write presentation values into copies of it.
///
/// Every requirement has a default that does nothing special, so a kind
/// states only what it does: a layer that draws its own contents from its
/// values (a chart, say) needs its values and `draw(_:in:)`.
///
/// To add a kind, write in one file: the state type, conforming to this
/// protocol; a `LayerState` accessor for it (`var chart: ChartState?`, read
/// and written through `special`); and the layer class, which sets the state
/// in its initializers and whose properties go through `Layer.change` on key
/// paths into that accessor (see `ShapeLayer`). Then list the type in
/// `LayerState.specialKinds`, which puts its animatable key paths in the table
/// animations use.
protocol SpecialLayerState: Sendable {
    /// The properties animations can change, by Core Animation key path
    /// ("strokeEnd"), made with `LayerState.specialProperty(_:_:)`.
    static var animatableKeyPaths: [String: LayerState.Accessor] { get }

    /// Whether the layer draws anything itself (default true). False for the
    /// kinds that only arrange their sublayers (replicators, transform layers):
    /// `masksToBounds` then clips only the sublayers, and a layer without
    /// sublayers casts the shadow of its background shape.
    var drawsContent: Bool { get }

    /// Where the layer draws beyond its bounds, in its own coordinates (a
    /// shape's path, grown by its stroke), or `.null` (the default): it joins
    /// the layer's box, which is what a change damages, unless the layer masks
    /// to its bounds. `s` is the layer's presentation state.
    func drawingBounds(of s: LayerState) -> Rect

    /// The layer's step in a frame's first pass, for kinds whose drawing
    /// changes with time or with work done elsewhere (default: none). `layer`
    /// has the presentation state, the device transform and the layer's own
    /// box, clipped; `time` is the media time its animations are evaluated at.
    /// What it returns grows the box, marks the layer animated, versions its
    /// record, and hands data to `draw(_:in:)` (as `layer.specialData`).
    func prepareFrame(for layer: FrameNode, at time: Double, in pass: FramePass) -> SpecialFrame?

    /// Draws what the layer shows of its own (default: nothing). The canvas is
    /// in the layer's coordinates, with the layer's opacity, and clipped to
    /// its (rounded) bounds when it masks to them; this drawing goes above the
    /// background and contents and below the sublayers and the border. The
    /// layer's colours are multiplied by `layer.tint` (a replicator copy's).
    func draw(_ layer: FrameNode, in canvas: Canvas)

    /// The copies of the sublayers the layer shows, or nil (the default) for
    /// the sublayers once, as they are. `s` is the layer's presentation state.
    func sublayerCopies(of s: LayerState) -> [SublayerCopy]?

    /// Whether the sublayers keep their depth in the superlayer's 3D space
    /// instead of flattening into this layer's plane (default false; true for
    /// transform layers, which the compositor prepares and draws apart:
    /// `FramePass.prepareTransformLayer`).
    var preservesDepth: Bool { get }
}

extension SpecialLayerState {
    static var animatableKeyPaths: [String: LayerState.Accessor] { [:] }
    var drawsContent: Bool { true }
    func drawingBounds(of s: LayerState) -> Rect { .null }
    func prepareFrame(for layer: FrameNode, at time: Double, in pass: FramePass) -> SpecialFrame? { nil }
    func draw(_ layer: FrameNode, in canvas: Canvas) {}
    func sublayerCopies(of s: LayerState) -> [SublayerCopy]? { nil }
    var preservesDepth: Bool { false }
}

/// What a special layer's `prepareFrame` found for one frame.
struct SpecialFrame {
    /// Where the layer draws beyond its own box this frame, in device pixels
    /// (an emitter's particles), or `.null`.
    var box = Rect.null
    /// Whether what it draws changes from frame to frame without an animation
    /// (particles flying, tiles fading in): the layer is then redrawn every frame.
    var isAnimated = false
    /// Changes whenever what it draws changes outside the layer's state (a
    /// tiled layer's tiles arriving); nil for never. Part of the layer's record.
    var contentVersion: Int? = nil
    /// What `draw(_:in:)` is given, as `FrameNode.specialData` (an emitter's
    /// particles, a tiled layer's tiles).
    var data: SpecialFrameData? = nil
}

/// What a special layer's `prepareFrame` makes for its drawing in one frame:
/// each kind that needs it subclasses this (`EmitterFrame`, `TileFrame`), and
/// its `draw(_:in:)` casts `FrameNode.specialData` back. A class, so that a
/// frame node holds one reference whatever the kind.
class SpecialFrameData {}

/// One copy of a layer's sublayers (`SpecialLayerState.sublayerCopies`).
struct SublayerCopy {
    /// Applied to the sublayers before the layer's sublayer transform.
    var transform: Transform3D
    /// How much earlier the copy's animations are evaluated, in seconds.
    var delay: Double
    /// Multiplies every colour the copy draws.
    var tint: Color
}

extension LayerState {
    /// Every kind of special layer, for the table of animatable key paths.
    static let specialKinds: [any SpecialLayerState.Type] = [
        ShapeState.self, GradientState.self, TextState.self, TiledState.self, EmitterState.self,
        ReplicatorState.self, TransformLayerState.self,
    ]

    /// Whether this is a transform layer's state.
    var preservesDepth: Bool { specialBox?.value.preservesDepth == true }
}
