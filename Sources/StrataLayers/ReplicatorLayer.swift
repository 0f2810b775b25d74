import StrataGraphics

/// How a replicator layer copies its sublayers.
struct ReplicatorState: Sendable {
    var instanceCount = 1
    var instanceTransform = Transform3D.identity
    var instanceDelay = 0.0
    var instanceColor = Color.white
    var instanceRedOffset = 0.0
    var instanceGreenOffset = 0.0
    var instanceBlueOffset = 0.0
    var instanceAlphaOffset = 0.0
}

/// A layer that draws its sublayers `instanceCount` times (`CAReplicatorLayer`).
///
/// Copy i is drawn under `instanceTransform` applied i times (about the
/// replicator's anchor point), with its animations shifted back by
/// i × `instanceDelay`, and tinted by `instanceColor` plus i times the colour
/// offsets (each component clamped to 0…1; the tint multiplies the copy's colours).
open class ReplicatorLayer: Layer {
    public override init() {
        super.init()
        state.replicator = ReplicatorState()
    }

    public required init(layer: Layer) {
        super.init(layer: layer)
        if state.replicator == nil { state.replicator = ReplicatorState() }
    }

    private func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<ReplicatorState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, ReplicatorState> = \LayerState.replicator!
        change(key, part.appending(path: kp), v)
    }

    /// How many copies (default 1; at most 10,000, and negative counts are 0).
    public var instanceCount: Int {
        get { state.replicator!.instanceCount }
        set { set("instanceCount", \.instanceCount, max(0, min(10_000, newValue))) }
    }
    public var instanceTransform: Transform3D {
        get { state.replicator!.instanceTransform }
        set { set("instanceTransform", \.instanceTransform, newValue.cleaned) }
    }
    /// Seconds between the copies' animations.
    public var instanceDelay: Double {
        get { state.replicator!.instanceDelay }
        set { set("instanceDelay", \.instanceDelay, newValue.isFinite ? newValue : 0) }
    }
    /// The first copy's tint (default white: no change).
    public var instanceColor: Color {
        get { state.replicator!.instanceColor }
        set { set("instanceColor", \.instanceColor, newValue) }
    }
    public var instanceRedOffset: Double {
        get { state.replicator!.instanceRedOffset }
        set { set("instanceRedOffset", \.instanceRedOffset, newValue.isFinite ? newValue : 0) }
    }
    public var instanceGreenOffset: Double {
        get { state.replicator!.instanceGreenOffset }
        set { set("instanceGreenOffset", \.instanceGreenOffset, newValue.isFinite ? newValue : 0) }
    }
    public var instanceBlueOffset: Double {
        get { state.replicator!.instanceBlueOffset }
        set { set("instanceBlueOffset", \.instanceBlueOffset, newValue.isFinite ? newValue : 0) }
    }
    public var instanceAlphaOffset: Double {
        get { state.replicator!.instanceAlphaOffset }
        set { set("instanceAlphaOffset", \.instanceAlphaOffset, newValue.isFinite ? newValue : 0) }
    }
}
