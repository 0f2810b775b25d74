import StrataQueues

/// Where Strata reports a key path it cannot use: a name that is not an
/// animatable property of the layer (`"positon"`, or `"strokeEnd"` on a layer
/// that is not a shape layer), or a value of the wrong type for it (a `Point`
/// for `"opacity"`).
///
/// The result is defined and documented where it happens: `setValue(_:forKeyPath:)`
/// leaves the state as it was and returns false, and `Layer.add(_:forKey:)`
/// adds the animation, which then changes nothing on screen (as Core
/// Animation does). So that the mistake does not pass silently, a debug build
/// also stops at an assertion that names the key and the layer; a release
/// build only returns the result.
enum KeyPathDiagnostics {
    /// Replaces the assertion, for tests that check what is reported.
    static let handler = Locked<(@Sendable (String) -> Void)?>(nil)

    static func report(_ message: String) {
        if let handler = handler.value {
            handler(message)
        } else {
            assertionFailure(message)
        }
    }

    /// The problem with `value` at `key` of `state`, or nil when it fits.
    static func problem(_ value: any AnimatableValue, forKeyPath key: String, in state: LayerState) -> String? {
        guard LayerState.isAnimatable(key) else { return "'\(key)' is not an animatable key path" }
        guard let current = state.value(forKeyPath: key) else {
            return "'\(key)' is not a property of this layer (a property of another kind of layer)"
        }
        guard type(of: value) == type(of: current) else {
            return "'\(key)' holds \(type(of: current)), not \(type(of: value))"
        }
        return nil
    }

    /// Reports what is wrong with an animation about to be added to a layer
    /// whose state is `state`: an unknown key path, or from, to, by or
    /// keyframe values of another type than the property's.
    static func check(_ animation: any Animation, for state: LayerState, layer: @autoclosure () -> String) {
        if let group = animation as? AnimationGroup {
            for a in group.animations { check(a, for: state, layer: layer()) }
            return
        }
        guard let property = animation as? any PropertyAnimation else { return }
        let key = property.keyPath
        var values: [any AnimatableValue] = []
        if let a = animation as? BasicAnimation { values = [a.fromValue, a.toValue, a.byValue].compactMap { $0 } }
        if let a = animation as? SpringAnimation { values = [a.fromValue, a.toValue, a.byValue].compactMap { $0 } }
        if let a = animation as? KeyframeAnimation, a.path == nil { values = a.values ?? [] }
        guard LayerState.isAnimatable(key), state.value(forKeyPath: key) != nil else {
            report("An animation of \(layer()) for \(problem(0.0, forKeyPath: key, in: state) ?? "'\(key)'") changes nothing")
            return
        }
        for v in values {
            if let problem = problem(v, forKeyPath: key, in: state) {
                report("An animation of \(layer()) has a value of the wrong type: \(problem); it changes nothing")
                return
            }
        }
    }
}
