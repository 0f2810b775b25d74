public import Foundation
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

extension LayerState {
    /// A replicator layer's part of the state; nil for other layers.
    var replicator: ReplicatorState? {
        get { special as? ReplicatorState }
        set { special = newValue }
    }
}

extension ReplicatorState: SpecialLayerState {
    static let animatableKeyPaths: [String: LayerState.Accessor] = [
        "instanceTransform": LayerState.specialProperty(\.replicator, \.instanceTransform),
        "instanceColor": LayerState.specialProperty(\.replicator, \.instanceColor),
        "instanceDelay": LayerState.specialProperty(\.replicator, \.instanceDelay),
        "instanceRedOffset": LayerState.specialProperty(\.replicator, \.instanceRedOffset),
        "instanceGreenOffset": LayerState.specialProperty(\.replicator, \.instanceGreenOffset),
        "instanceBlueOffset": LayerState.specialProperty(\.replicator, \.instanceBlueOffset),
        "instanceAlphaOffset": LayerState.specialProperty(\.replicator, \.instanceAlphaOffset),
    ]

    /// A replicator draws nothing itself.
    var drawsContent: Bool { false }

    /// Copy i: the instance transform applied i times (about the anchor),
    /// i delays earlier, tinted by the instance colour plus i times the
    /// offsets (each component clamped to 0…1). With one copy, unmoved and
    /// undelayed, there are no copies: the sublayers are shown once, as any
    /// layer's are (with the same record keys), tinted only by the colour
    /// the replicator itself inherits.
    func sublayerCopies(of s: LayerState) -> [SublayerCopy]? {
        guard instanceCount != 1 || !instanceTransform.isIdentity || instanceDelay != 0 else { return nil }
        let a = s.anchorInBounds
        let step = Transform3D(translationX: -a.x, y: -a.y).concatenating(instanceTransform)
            .concatenating(Transform3D(translationX: a.x, y: a.y))
        var copies: [SublayerCopy] = []
        copies.reserveCapacity(max(0, instanceCount))
        var instance = Transform3D.identity
        for i in 0..<instanceCount {
            let tint = Color(
                red: clamp01(instanceColor.red + Double(i) * instanceRedOffset),
                green: clamp01(instanceColor.green + Double(i) * instanceGreenOffset),
                blue: clamp01(instanceColor.blue + Double(i) * instanceBlueOffset),
                alpha: clamp01(instanceColor.alpha + Double(i) * instanceAlphaOffset))
            copies.append(SublayerCopy(transform: instance, delay: Double(i) * instanceDelay, tint: tint))
            instance = instance.concatenating(step)
        }
        return copies
    }
}

/// A layer that draws its sublayers `instanceCount` times (`CAReplicatorLayer`).
///
/// Copy i is drawn under `instanceTransform` applied i times (about the
/// replicator's anchor point), with its animations shifted back by
/// i × `instanceDelay`, and tinted by `instanceColor` plus i times the colour
/// offsets (each component clamped to 0…1; the tint multiplies the copy's colours).
open class ReplicatorLayer: Layer, ReplicatorLayerProperties {
    public override init() {
        super.init()
        becomeReplicatorLayer()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeReplicatorLayer()
    }
}

/// What a `ReplicatorLayer` has, in Strata's types: declared here rather than in
/// the class so that QuartzCore's Core Animation class of the same kind,
/// which is a `Layer` of this kind but not a `ReplicatorLayer`, has them too (see
/// `LayerProperties`).
@MainActor
public protocol ReplicatorLayerProperties: Layer {}

extension ReplicatorLayerProperties {
    /// Makes the layer one of this kind: its class's initializers, and the
    /// set-up of the Core Animation layer of the kind.
    package func becomeReplicatorLayer() {
        if state.replicator == nil { state.replicator = ReplicatorState() }
    }

    fileprivate func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<ReplicatorState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, ReplicatorState> = \LayerState.replicator!
        change(key, part.appending(path: kp), v)
    }

    /// How many copies (default 1; at most 10,000, and negative counts are 0).
    @_disfavoredOverload public var instanceCount: Int {
        get { state.replicator!.instanceCount }
        set { set("instanceCount", \.instanceCount, max(0, min(10_000, newValue))) }
    }

    @_disfavoredOverload public var instanceTransform: Transform3D {
        get { state.replicator!.instanceTransform }
        set { set("instanceTransform", \.instanceTransform, newValue.cleaned) }
    }

    /// Seconds between the copies' animations.
    @_disfavoredOverload public var instanceDelay: Double {
        get { state.replicator!.instanceDelay }
        set { set("instanceDelay", \.instanceDelay, newValue.isFinite ? newValue : 0) }
    }

    /// The first copy's tint (default white: no change).
    @_disfavoredOverload public var instanceColor: Color {
        get { state.replicator!.instanceColor }
        set { set("instanceColor", \.instanceColor, newValue) }
    }

    @_disfavoredOverload public var instanceRedOffset: Double {
        get { state.replicator!.instanceRedOffset }
        set { set("instanceRedOffset", \.instanceRedOffset, newValue.isFinite ? newValue : 0) }
    }

    @_disfavoredOverload public var instanceGreenOffset: Double {
        get { state.replicator!.instanceGreenOffset }
        set { set("instanceGreenOffset", \.instanceGreenOffset, newValue.isFinite ? newValue : 0) }
    }

    @_disfavoredOverload public var instanceBlueOffset: Double {
        get { state.replicator!.instanceBlueOffset }
        set { set("instanceBlueOffset", \.instanceBlueOffset, newValue.isFinite ? newValue : 0) }
    }

    @_disfavoredOverload public var instanceAlphaOffset: Double {
        get { state.replicator!.instanceAlphaOffset }
        set { set("instanceAlphaOffset", \.instanceAlphaOffset, newValue.isFinite ? newValue : 0) }
    }
}
