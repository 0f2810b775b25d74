import StrataGraphics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every animation has (`CAAnimation`): media timing, a timing function,
/// whether it goes when it ends, a completion handler, and how it changes the
/// values on screen.
///
/// Animations are values: `Layer.add(_:forKey:)` takes a copy, as Core
/// Animation copies the animation object, so changing the original afterwards
/// changes nothing on screen.
///
/// Strata's own kinds are `BasicAnimation`, `SpringAnimation`,
/// `KeyframeAnimation` and `AnimationGroup`. Unlike Core Animation, the
/// evaluation is public, so an app can add a kind of its own: implement
/// `animatedKeys` and `apply(at:to:)` (reading where it is with
/// `progress(at:)`), and it composites, fills and completes like the others.
///
/// ```swift
/// struct Blink: Animation {
///     var timing = MediaTiming()
///     var timingFunction: TimingFunction?
///     var isRemovedOnCompletion = true
///     var completion: (@MainActor @Sendable (Bool) -> Void)?
///     var animatedKeys: [String] { ["opacity"] }
///     func apply(at parentTime: Double, to state: inout LayerState) {
///         guard let (_, fraction) = progress(at: parentTime) else { return }
///         state.opacity = fraction < 0.5 ? 0 : 1
///     }
/// }
/// ```
public protocol Animation: Sendable {
    var timing: MediaTiming { get set }
    /// The pace within one iteration; nil is linear.
    var timingFunction: TimingFunction? { get set }
    /// Whether the animation is removed from its layer when its active time
    /// ends (the default). With `false` and a forwards fill mode, its end value
    /// stays on screen.
    var isRemovedOnCompletion: Bool { get set }
    /// Called on the main actor when the animation ends: `true` when it ran its
    /// course, `false` when it was removed or replaced first.
    var completion: (@MainActor @Sendable (_ finished: Bool) -> Void)? { get set }
    /// The key paths whose values the animation changes ("position",
    /// "bounds.size.width", "opacity", …): what the compositor redraws for it.
    var animatedKeys: [String] { get }
    /// Applies the animation's effect at `parentTime` (the layer's time, as
    /// `currentMediaTime` reads it) to `state`: the values under this animation,
    /// with the model values and the animations added before it applied.
    /// Called on the renderer's thread, so it must only read its own values.
    func apply(at parentTime: Double, to state: inout LayerState)
    /// Whether the animation can change the value at `keyPath` (the key
    /// itself, a part of it or a value it is part of). The default compares
    /// `animatedKeys`.
    func affects(keyPath: String) -> Bool
}

extension Animation {
    public var beginTime: Double {
        get { timing.beginTime }
        set { timing.beginTime = newValue }
    }
    public var duration: Double {
        get { timing.duration }
        set { timing.duration = newValue }
    }
    public var speed: Double {
        get { timing.speed }
        set { timing.speed = newValue }
    }
    public var timeOffset: Double {
        get { timing.timeOffset }
        set { timing.timeOffset = newValue }
    }
    public var repeatCount: Double {
        get { timing.repeatCount }
        set { timing.repeatCount = newValue }
    }
    public var repeatDuration: Double {
        get { timing.repeatDuration }
        set { timing.repeatDuration = newValue }
    }
    public var autoreverses: Bool {
        get { timing.autoreverses }
        set { timing.autoreverses = newValue }
    }
    public var fillMode: MediaTiming.FillMode {
        get { timing.fillMode }
        set { timing.fillMode = newValue }
    }
}

extension Animation {
    public func affects(keyPath: String) -> Bool { animatedKeys.contains { LayerState.keysOverlap($0, keyPath) } }
}

extension PropertyAnimation {
    public func affects(keyPath: String) -> Bool { LayerState.keysOverlap(self.keyPath, keyPath) }
}

extension Animation {
    /// The simple duration, with 0 meaning the default.
    var effectiveDuration: Double { timing.duration > 0 && timing.duration.isFinite ? timing.duration : Transaction.defaultDuration }

    /// The parent time the animation's active time ends.
    var endTime: Double { timing.endTime(duration: effectiveDuration) }

    /// Where the animation is at `parentTime` under its media timing: the
    /// iteration (0, 1, …) and the fraction through it (0...1, running back
    /// when it autoreverses; the timing function not applied). Nil when it
    /// has no effect then: before it begins without a backwards fill, after it
    /// ends without a forwards fill. A duration of 0 counts as the default.
    public func progress(at parentTime: Double) -> (iteration: Double, fraction: Double)? {
        timing.progress(at: parentTime, duration: effectiveDuration)
    }
}

/// An animation of one property (`CAPropertyAnimation`).
public protocol PropertyAnimation: Animation {
    /// The animated property, by its Core Animation key path: "position",
    /// "bounds.size.width", "transform.rotation.z", "opacity", …
    var keyPath: String { get set }
    /// Whether the value is added to the property's own value.
    var isAdditive: Bool { get set }
    /// Whether each iteration continues from where the previous one ended.
    var isCumulative: Bool { get set }
}

/// From one value to another (`CABasicAnimation`).
///
/// Which of `fromValue`, `toValue` and `byValue` are set decides the
/// interpolation, as in Core Animation: from and to; from and from + by;
/// to − by and to; from and the current value; the current value and to; the
/// current value and current + by. The current value is the property's value
/// under the animation, with earlier animations applied.
public struct BasicAnimation: PropertyAnimation {
    public var keyPath: String {
        didSet { accessor = LayerState.accessors[keyPath] }
    }
    /// How to read and write `keyPath`, looked up once.
    private var accessor: LayerState.Accessor?
    public var fromValue: (any AnimatableValue)?
    public var toValue: (any AnimatableValue)?
    public var byValue: (any AnimatableValue)?
    public var isAdditive = false
    public var isCumulative = false
    public var timing = MediaTiming()
    public var timingFunction: TimingFunction?
    public var isRemovedOnCompletion = true
    public var completion: (@MainActor @Sendable (Bool) -> Void)?

    public init(
        keyPath: String, from: (any AnimatableValue)? = nil, to: (any AnimatableValue)? = nil,
        by: (any AnimatableValue)? = nil, duration: Double = 0
    ) {
        self.keyPath = keyPath
        accessor = LayerState.accessors[keyPath]
        fromValue = from
        toValue = to
        byValue = by
        timing.duration = duration
    }

    public var animatedKeys: [String] { [keyPath] }

    public func apply(at parentTime: Double, to state: inout LayerState) {
        guard let accessor, let (iteration, fraction) = timing.progress(at: parentTime, duration: effectiveDuration),
            let current = accessor.get(state)
        else { return }
        let f = timingFunction?.value(at: fraction) ?? fraction
        accessor.set(&state, value(fraction: f, iteration: iteration, current: current))
    }
}

/// From, to and by values and how they combine: what basic and spring
/// animations share.
protocol FromToByAnimation: PropertyAnimation {
    var fromValue: (any AnimatableValue)? { get }
    var toValue: (any AnimatableValue)? { get }
    var byValue: (any AnimatableValue)? { get }
}

extension FromToByAnimation {
    /// The two ends, given the property's current value.
    func ends(current: any AnimatableValue) -> (any AnimatableValue, any AnimatableValue) {
        switch (fromValue, toValue, byValue) {
        case let (from?, to?, _): return (from, to)
        case let (from?, nil, by?): return (from, from.adding(any: by))
        case let (nil, to?, by?): return (to.subtracting(any: by), to)
        case let (from?, nil, nil): return (from, current)
        case let (nil, to?, nil): return (current, to)
        case let (nil, nil, by?): return (current, current.adding(any: by))
        case (nil, nil, nil): return (current, current)
        }
    }

    /// The animated value at a fraction `f` of the way (timing function or
    /// spring applied) in iteration `iteration`.
    func value(fraction f: Double, iteration: Double, current: any AnimatableValue) -> any AnimatableValue {
        let (from, to) = ends(current: current)
        let t = isCumulative ? f + iteration : f
        let v = from.interpolated(toAny: to, fraction: t)
        return isAdditive ? current.adding(any: v) : v
    }
}

extension BasicAnimation: FromToByAnimation {}
extension SpringAnimation: FromToByAnimation {}

/// A damped spring from one value to another (`CASpringAnimation`): the
/// motion of a mass on a spring released from `fromValue` towards `toValue`.
/// The timing function is not used: time is the spring's own.
public struct SpringAnimation: PropertyAnimation {
    public var keyPath: String
    public var fromValue: (any AnimatableValue)?
    public var toValue: (any AnimatableValue)?
    public var byValue: (any AnimatableValue)?
    public var isAdditive = false
    public var isCumulative = false
    public var timing = MediaTiming()
    public var timingFunction: TimingFunction?
    public var isRemovedOnCompletion = true
    public var completion: (@MainActor @Sendable (Bool) -> Void)?
    /// The mass on the spring (default 1). Values that are not positive and
    /// finite are treated as 1.
    public var mass = 1.0
    /// The spring constant (default 100). Values that are not positive and
    /// finite are treated as 100.
    public var stiffness = 100.0
    /// The friction (default 10). Negative or non-finite values are treated as 0.
    public var damping = 10.0
    /// The starting speed towards the target, in whole distances per second
    /// (1 covers the distance from `from` to `to` in one second).
    public var initialVelocity = 0.0

    public init(keyPath: String, from: (any AnimatableValue)? = nil, to: (any AnimatableValue)? = nil) {
        self.keyPath = keyPath
        fromValue = from
        toValue = to
    }

    public var animatedKeys: [String] { [keyPath] }

    var parameters: (m: Double, k: Double, c: Double, v0: Double) {
        let m = mass > 0 && mass.isFinite ? mass : 1
        let k = stiffness > 0 && stiffness.isFinite ? stiffness : 100
        let c = damping >= 0 && damping.isFinite ? damping : 0
        return (m, k, c, initialVelocity.isFinite ? initialVelocity : 0)
    }

    /// The fraction of the way from `from` to `to` at `t` seconds: 0 at the
    /// start, tending to 1, overshooting when underdamped.
    public func fraction(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        let (m, k, c, v0) = parameters
        let w0 = (k / m).squareRoot()
        let zeta = c / (2 * (k * m).squareRoot())
        // x is the displacement from the target, from 1 with speed −v0.
        let x: Double
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            x = exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        } else if zeta == 1 {
            x = (1 + (w0 - v0) * t) * exp(-w0 * t)
        } else {
            let s = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - s), r2 = -w0 * (zeta + s)
            // c1 + c2 = 1, r1·c1 + r2·c2 = −v0.
            let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
            x = c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
        return 1 - x
    }

    /// How long the spring takes to come to rest (`settlingDuration`): the
    /// time after which it stays within 0.1 % of the distance of its target,
    /// found by stepping through the motion (at most 60 s).
    public var settlingDuration: Double {
        let step = 1.0 / 240
        var last = 0.0
        var t = 0.0
        while t < 60 {
            if abs(1 - fraction(at: t)) > 0.001 { last = t }
            t += step
        }
        return min(60, last + step)
    }

    public func apply(at parentTime: Double, to state: inout LayerState) {
        let d = effectiveDuration
        guard let (iteration, fraction) = timing.progress(at: parentTime, duration: d),
            let current = state.value(forKeyPath: keyPath)
        else { return }
        state.setAnimatedValue(
            value(fraction: self.fraction(at: fraction * d), iteration: iteration, current: current),
            forKeyPath: keyPath)
    }
}

/// Through a sequence of values (`CAKeyframeAnimation`).
public struct KeyframeAnimation: PropertyAnimation {
    /// How the values between keyframes are found.
    public enum CalculationMode: Hashable, Sendable {
        /// Straight between neighbouring keyframes.
        case linear
        /// No interpolation: each value holds until the next key time. With n
        /// values, `keyTimes` has n + 1 entries (or the n values share the
        /// duration evenly).
        case discrete
        /// Constant speed: key times come from the distances between values;
        /// `keyTimes` and `timingFunctions` are ignored.
        case paced
        /// A smooth Catmull–Rom spline through the values.
        case cubic
    }

    public var keyPath: String
    public var values: [any AnimatableValue]?
    /// A path for point properties: the values are the points along it, met at
    /// constant speed. Takes precedence over `values`.
    public var path: Path? {
        didSet { pathMeasure = path.map { PathMeasure($0) } }
    }
    /// `path` measured once, not at every frame.
    private var pathMeasure: PathMeasure?
    /// When each value is reached, as fractions 0…1 of the duration, in
    /// non-decreasing order. nil (or the wrong count) spaces them evenly.
    public var keyTimes: [Double]?
    /// One per segment between values; nil segments are linear.
    public var timingFunctions: [TimingFunction]?
    public var calculationMode: CalculationMode = .linear
    public var isAdditive = false
    public var isCumulative = false
    public var timing = MediaTiming()
    public var timingFunction: TimingFunction?
    public var isRemovedOnCompletion = true
    public var completion: (@MainActor @Sendable (Bool) -> Void)?

    public init(keyPath: String, values: [any AnimatableValue]? = nil, keyTimes: [Double]? = nil, duration: Double = 0) {
        self.keyPath = keyPath
        self.values = values
        self.keyTimes = keyTimes
        timing.duration = duration
    }

    public var animatedKeys: [String] { [keyPath] }

    /// The value at fraction `f` of the duration (after the timing function).
    func value(at f: Double) -> (any AnimatableValue)? {
        if let path, let measure = pathMeasure {
            guard measure.length > 0 else { return path.currentPoint }
            return measure.position(atDistance: min(1, max(0, f)) * measure.length)?.point
        }
        guard let values, !values.isEmpty else { return nil }
        let n = values.count
        if n == 1 { return values[0] }
        switch calculationMode {
        case .discrete:
            let times = validKeyTimes(count: n + 1) ?? (0...n).map { Double($0) / Double(n) }
            var i = 0
            while i + 1 < n && f >= times[i + 1] { i += 1 }
            return values[i]
        case .paced:
            var lengths = [0.0]
            for i in 1..<n { lengths.append(lengths[i - 1] + values[i - 1].distance(toAny: values[i])) }
            let total = lengths[n - 1]
            guard total > 0 else { return values[n - 1] }
            return segmentValue(times: lengths.map { $0 / total }, f: f, timing: false, cubic: false)
        case .linear, .cubic:
            let times = validKeyTimes(count: n) ?? (0..<n).map { Double($0) / Double(n - 1) }
            return segmentValue(times: times, f: f, timing: true, cubic: calculationMode == .cubic)
        }
    }

    private func validKeyTimes(count: Int) -> [Double]? {
        guard let keyTimes, keyTimes.count == count, keyTimes.allSatisfy(\.isFinite),
            zip(keyTimes, keyTimes.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return nil }
        return keyTimes
    }

    private func segmentValue(times: [Double], f: Double, timing useTiming: Bool, cubic: Bool) -> any AnimatableValue {
        let values = self.values!
        let n = values.count
        if f <= times[0] { return values[0] }
        if f >= times[n - 1] { return values[n - 1] }
        var i = 0
        while i + 2 < n && f >= times[i + 1] { i += 1 }
        let span = times[i + 1] - times[i]
        var local = span > 0 ? (f - times[i]) / span : 1
        if useTiming, let fns = timingFunctions, i < fns.count { local = fns[i].value(at: local) }
        guard cubic else { return values[i].interpolated(toAny: values[i + 1], fraction: local) }
        // Catmull–Rom: p(t) = p1 + t·m1 terms written as blends of the four
        // neighbours, which needs only interpolation and sums of the values.
        let p0 = values[max(0, i - 1)], p1 = values[i], p2 = values[i + 1], p3 = values[min(n - 1, i + 2)]
        let t = local, t2 = t * t, t3 = t2 * t
        let w0 = -0.5 * t3 + t2 - 0.5 * t
        let w2 = -1.5 * t3 + 2 * t2 + 0.5 * t
        let w3 = 0.5 * t3 - 0.5 * t2
        // p1 + w0·(p0 − p1) + w2·(p2 − p1) + w3·(p3 − p1), since the weights sum to 1.
        let a = p1.interpolated(toAny: p0, fraction: w0).subtracting(any: p1)
        let b = p1.interpolated(toAny: p2, fraction: w2).subtracting(any: p1)
        let c = p1.interpolated(toAny: p3, fraction: w3).subtracting(any: p1)
        return p1.adding(any: a).adding(any: b).adding(any: c)
    }

    public func apply(at parentTime: Double, to state: inout LayerState) {
        guard let (iteration, fraction) = timing.progress(at: parentTime, duration: effectiveDuration),
            let current = state.value(forKeyPath: keyPath)
        else { return }
        let f = timingFunction?.value(at: fraction) ?? fraction
        guard var v = value(at: f) else { return }
        if isCumulative && iteration > 0, let first = value(at: 0), let last = value(at: 1) {
            let delta = last.subtracting(any: first)
            for _ in 0..<Swift.max(0, Int(saturating: Swift.min(iteration, 10_000))) { v = v.adding(any: delta) }
        }
        if isAdditive { v = current.adding(any: v) }
        state.setAnimatedValue(v, forKeyPath: keyPath)
    }
}

/// Several animations run together (`CAAnimationGroup`). Their times are the
/// group's local time: a child's `beginTime` counts from the group's start, and
/// nothing plays past the group's duration.
public struct AnimationGroup: Animation {
    public var animations: [any Animation]
    public var timing = MediaTiming()
    public var timingFunction: TimingFunction?
    public var isRemovedOnCompletion = true
    public var completion: (@MainActor @Sendable (Bool) -> Void)?

    public init(_ animations: [any Animation], duration: Double = 0) {
        self.animations = animations
        timing.duration = duration
    }

    public var animatedKeys: [String] { animations.flatMap(\.animatedKeys) }

    public func apply(at parentTime: Double, to state: inout LayerState) {
        let d = effectiveDuration
        guard let (_, fraction) = timing.progress(at: parentTime, duration: d) else { return }
        let f = timingFunction?.value(at: fraction) ?? fraction
        let local = f * d
        for animation in animations {
            animation.apply(at: local, to: &state)
        }
    }
}
