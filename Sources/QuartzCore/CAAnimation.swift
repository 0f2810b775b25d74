public import CoreGraphics
internal import StrataGraphics
internal import StrataLayers

/// What an animation tells the object it serves (`CAAnimationDelegate`).
@MainActor
public protocol CAAnimationDelegate: AnyObject {
    func animationDidStart(_ anim: CAAnimation)
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The pace of an animation: a cubic Bézier from (0, 0) to (1, 1).
public final class CAMediaTimingFunction: Sendable {
    let function: TimingFunction

    public init(name: CAMediaTimingFunctionName) {
        switch name {
        case .linear: function = .linear
        case .easeIn: function = .easeIn
        case .easeOut: function = .easeOut
        case .easeInEaseOut: function = .easeInEaseOut
        default: function = .default
        }
    }

    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        function = TimingFunction(controlPoints: Double(c1x), Double(c1y), Double(c2x), Double(c2y))
    }
}

/// The named timing functions.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// What an animation shows outside its active time.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    public static let both = CAMediaTimingFillMode(rawValue: "both")
}

/// An animation of layer properties (`CAAnimation`): timing, pace, fill
/// and a delegate. A layer takes a copy when one is added
/// (`CALayer.add(_:forKey:)`), as in Core Animation.
@MainActor
open class CAAnimation {
    public var beginTime: CFTimeInterval = 0
    /// Seconds; 0 takes the transaction's duration (a quarter second).
    public var duration: CFTimeInterval = 0
    public var speed: Float = 1
    public var timeOffset: CFTimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: CFTimeInterval = 0
    public var autoreverses = false
    public var fillMode = CAMediaTimingFillMode.removed
    public var isRemovedOnCompletion = true
    public var timingFunction: CAMediaTimingFunction?
    /// Told when the animation starts and stops (held strongly, as in Core Animation).
    public var delegate: (any CAAnimationDelegate)?

    public required init() {}

    /// A new animation object.
    public class func animation() -> Self { self.init() }

    public required init(copying other: CAAnimation) {
        (beginTime, duration, speed, timeOffset) = (other.beginTime, other.duration, other.speed, other.timeOffset)
        (repeatCount, repeatDuration, autoreverses) = (other.repeatCount, other.repeatDuration, other.autoreverses)
        (fillMode, isRemovedOnCompletion, timingFunction, delegate) = (
            other.fillMode, other.isRemovedOnCompletion, other.timingFunction, other.delegate
        )
    }

    /// The timing as Strata's animations take it.
    var strataTiming: MediaTiming {
        var t = MediaTiming()
        t.beginTime = beginTime
        t.duration = duration > 0 ? duration : Transaction.animationDuration
        t.speed = Double(speed)
        t.timeOffset = timeOffset
        t.repeatCount = Double(repeatCount)
        t.repeatDuration = repeatDuration
        t.autoreverses = autoreverses
        switch fillMode {
        case .forwards: t.fillMode = .forwards
        case .backwards: t.fillMode = .backwards
        case .both: t.fillMode = .both
        default: t.fillMode = .removed
        }
        return t
    }

    /// The Strata animation this one adds (nil: nothing to animate).
    func makeStrata() -> (any StrataLayers.Animation)? { nil }
}

/// An animation of one property, named by its key path (`"position"`,
/// `"transform.rotation.z"`, `"strokeEnd"`, …).
@MainActor
open class CAPropertyAnimation: CAAnimation {
    public var keyPath: String?
    public var isAdditive = false
    public var isCumulative = false

    public required init() { super.init() }

    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        if let p = other as? CAPropertyAnimation { (keyPath, isAdditive, isCumulative) = (p.keyPath, p.isAdditive, p.isCumulative) }
    }

    /// Sets what every property animation shares on Strata's `a`.
    func configure<A: PropertyAnimation>(_ a: inout A) {
        a.timing = strataTiming
        a.timingFunction = timingFunction?.function
        a.isAdditive = isAdditive
        a.isCumulative = isCumulative
        a.isRemovedOnCompletion = isRemovedOnCompletion
    }
}

/// An animation from one value to another (`CABasicAnimation`). Values are
/// numbers (`CGFloat`, `Double`, `Float`, `Int`, `NSNumber`), `CGPoint`,
/// `CGSize`, `CGRect`, `CGColor`, `CGPath` or `CATransform3D`, as the
/// property takes them.
@MainActor
open class CABasicAnimation: CAPropertyAnimation {
    public var fromValue: Any?
    public var toValue: Any?
    public var byValue: Any?

    public required init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        if let b = other as? CABasicAnimation { (fromValue, toValue, byValue) = (b.fromValue, b.toValue, b.byValue) }
    }

    override func makeStrata() -> (any StrataLayers.Animation)? {
        guard let keyPath else { return nil }
        var a = BasicAnimation(keyPath: keyPath, from: animatable(fromValue), to: animatable(toValue), by: animatable(byValue))
        configure(&a)
        return a
    }
}

/// An animation through a list of values (`CAKeyframeAnimation`).
@MainActor
open class CAKeyframeAnimation: CAPropertyAnimation {
    public var values: [Any]?
    /// Where each value falls, 0 to 1 (nil: evenly).
    public var keyTimes: [NSNumber]?
    public var timingFunctions: [CAMediaTimingFunction]?

    public required init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        if let k = other as? CAKeyframeAnimation { (values, keyTimes, timingFunctions) = (k.values, k.keyTimes, k.timingFunctions) }
    }

    override func makeStrata() -> (any StrataLayers.Animation)? {
        guard let keyPath else { return nil }
        var a = KeyframeAnimation(keyPath: keyPath, values: values?.compactMap(animatable), keyTimes: keyTimes?.map(\.doubleValue))
        configure(&a)
        a.timingFunctions = timingFunctions?.map(\.function)
        return a
    }
}

/// A spring from one value to another (`CASpringAnimation`): a mass on a
/// spring with damping, moving at `initialVelocity` at the start. Set
/// `duration` to `settlingDuration` to see it come to rest.
@MainActor
open class CASpringAnimation: CABasicAnimation {
    public var mass: CGFloat = 1
    public var stiffness: CGFloat = 100
    public var damping: CGFloat = 10
    public var initialVelocity: CGFloat = 0

    public required init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        if let s = other as? CASpringAnimation {
            (mass, stiffness, damping, initialVelocity) = (s.mass, s.stiffness, s.damping, s.initialVelocity)
        }
    }

    /// How long the spring takes to come to rest, in seconds.
    public var settlingDuration: CFTimeInterval { spring(keyPath: keyPath ?? "").settlingDuration }

    private func spring(keyPath: String) -> SpringAnimation {
        var a = SpringAnimation(keyPath: keyPath, from: animatable(fromValue), to: animatable(toValue))
        a.byValue = animatable(byValue)
        (a.mass, a.stiffness, a.damping, a.initialVelocity) = (Double(mass), Double(stiffness), Double(damping), Double(initialVelocity))
        return a
    }

    override func makeStrata() -> (any StrataLayers.Animation)? {
        guard let keyPath else { return nil }
        var a = spring(keyPath: keyPath)
        configure(&a)
        return a
    }
}

/// Animations run together (`CAAnimationGroup`).
@MainActor
open class CAAnimationGroup: CAAnimation {
    public var animations: [CAAnimation]?

    public required init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        animations = (other as? CAAnimationGroup)?.animations
    }

    override func makeStrata() -> (any StrataLayers.Animation)? {
        var g = AnimationGroup((animations ?? []).compactMap { $0.makeStrata() })
        g.timing = strataTiming
        g.timingFunction = timingFunction?.function
        g.isRemovedOnCompletion = isRemovedOnCompletion
        return g
    }
}

/// A value as Strata's animations take it, or nil.
func animatable(_ value: Any?) -> (any AnimatableValue)? {
    switch value {
    case let v as Double: v
    case let v as CGFloat: Double(v)
    case let v as Float: Double(v)
    case let v as Int: Double(v)
    case let v as NSNumber: v.doubleValue
    case let v as CGPoint: v.strata
    case let v as CGSize: v.strata
    case let v as CGRect: v.strata
    case let v as CGColor: v.strata
    case let v as CGPath: v.path
    case let v as CATransform3D: v.strata
    default: nil
    }
}

extension CALayer {
    /// Adds a copy of `anim` under `key` (replacing one there), as Core
    /// Animation does; an animation with no key path or values it cannot
    /// read animates nothing.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        let copy = type(of: anim).init(copying: anim)
        guard var strataAnimation = copy.makeStrata() else { return }
        if let delegate = copy.delegate {
            delegate.animationDidStart(copy)
            // The copy is main-actor-isolated, so it may be captured; it holds its delegate.
            strataAnimation.completion = { finished in copy.delegate?.animationDidStop(copy, finished: finished) }
        }
        let name = key ?? "animation-\(ObjectIdentifier(copy).hashValue)"
        extrasForWriting.addedAnimations[name] = copy
        strata.add(strataAnimation, forKey: name)
    }

    /// The animation added under `key` and still running, or nil.
    public func animation(forKey key: String) -> CAAnimation? {
        strata.animation(forKey: key) == nil ? nil : addedAnimations[key]
    }

    /// The keys of the animations running (nil when none).
    public func animationKeys() -> [String]? {
        let keys = strata.animationKeys
        return keys.isEmpty ? nil : keys
    }

    public func removeAnimation(forKey key: String) {
        strata.removeAnimation(forKey: key)
        extras?.addedAnimations[key] = nil
    }

    public func removeAllAnimations() {
        strata.removeAllAnimations()
        extras?.addedAnimations = [:]
    }
}
