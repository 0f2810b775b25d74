internal import CoreGraphics
public import Foundation
internal import QuartzCore
internal import StrataLayers

extension UIView {
    /// How a block animation runs (`UIView.AnimationOptions`).
    public struct AnimationOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)
    }

    /// One `animate` block being run.
    struct AnimationBlock {
        var duration: Double
        var delay: Double
        var options: AnimationOptions
        /// Damping ratio and initial velocity, for spring blocks.
        var spring: (damping: CGFloat, velocity: CGFloat)?
    }

    /// The blocks being run, innermost last.
    static var animationBlocks: [AnimationBlock] = []

    /// The animation a change of `key` on a view's layer gets inside an
    /// animation block (nil outside one: views do not animate by themselves).
    static func animationAction(for layer: CALayer, forKey key: String) -> (any CAAction)? {
        guard let block = animationBlocks.last, block.duration > 0, LayerState.isAnimatable(key) else { return nil }
        let animation: CABasicAnimation
        if let spring = block.spring {
            // A spring that settles in about the block's duration: stiffness
            // from the undamped period, damping from the ratio (mass 1).
            let s = CASpringAnimation(keyPath: key)
            let omega = 2 * Double.pi / Swift.max(block.duration, 0.01)
            s.stiffness = CGFloat(omega * omega)
            s.damping = CGFloat(2 * omega * Double(Swift.min(Swift.max(spring.damping, 0.01), 1)))
            s.initialVelocity = spring.velocity
            animation = s
        } else {
            animation = CABasicAnimation(keyPath: key)
            let curve = block.options.rawValue >> 16 & 3
            animation.timingFunction = CAMediaTimingFunction(
                name: curve == 1 ? .easeIn : curve == 2 ? .easeOut : curve == 3 ? .linear : .easeInEaseOut)
        }
        animation.duration = block.duration
        if block.delay > 0 {
            animation.beginTime = layer.strata.currentMediaTime + block.delay
            animation.fillMode = .backwards
        }
        if block.options.contains(.repeat) { animation.repeatCount = .infinity }
        animation.autoreverses = block.options.contains(.autoreverse)
        return animation
    }

    private static func run(_ block: AnimationBlock, animations: () -> Void, completion: ((Bool) -> Void)?) {
        CATransaction.begin()
        if let completion { CATransaction.setCompletionBlock { completion(true) } }
        animationBlocks.append(block)
        animations()
        animationBlocks.removeLast()
        CATransaction.commit()
    }

    /// Animates the view changes `animations` makes over `duration`
    /// seconds after `delay`, then calls `completion` (with true).
    public class func animate(
        withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
        animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        run(AnimationBlock(duration: duration, delay: delay, options: options), animations: animations, completion: completion)
    }

    public class func animate(
        withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        run(AnimationBlock(duration: duration, delay: 0, options: []), animations: animations, completion: completion)
    }

    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        run(AnimationBlock(duration: duration, delay: 0, options: []), animations: animations, completion: nil)
    }

    /// Animates with a spring: `dampingRatio` 1 settles without overshoot,
    /// smaller values bounce; `velocity` is the initial speed in
    /// distances a second.
    public class func animate(
        withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping dampingRatio: CGFloat,
        initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [], animations: @escaping () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        run(
            AnimationBlock(duration: duration, delay: delay, options: options, spring: (dampingRatio, velocity)),
            animations: animations, completion: completion)
    }

    /// Runs `actionsWithoutAnimation` with no animation, even inside an animation block.
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        animationBlocks.append(AnimationBlock(duration: 0, delay: 0, options: []))
        actionsWithoutAnimation()
        animationBlocks.removeLast()
    }

    /// Whether changes animate inside animation blocks (always true here).
    public class var areAnimationsEnabled: Bool { true }

    /// The duration of the innermost animation block (0 outside one).
    public class var inheritedAnimationDuration: TimeInterval { animationBlocks.last?.duration ?? 0 }
}
