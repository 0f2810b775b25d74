internal import CoreGraphics
public import Foundation
internal import StrataGraphics

/// The display (`UIScreen`): `UIScreen.main`. Its size is the X11 screen's
/// when a display is open, 1280 × 800 points otherwise; its scale is the
/// `STRATA_SCALE` environment variable's, else 1.
@MainActor
open class UIScreen {
    public static let main = UIScreen()

    /// The screen's size in points (origin zero).
    open var bounds: CGRect
    /// Pixels a point.
    open var scale: CGFloat
    open var nativeScale: CGFloat { scale }
    open var nativeBounds: CGRect { CGRect(x: 0, y: 0, width: bounds.width * scale, height: bounds.height * scale) }
    /// Frames a second.
    open var maximumFramesPerSecond = 60

    /// `STRATA_SCALE`'s value (held to 0 < scale ≤ 8), else 1.
    nonisolated static let environmentScale: CGFloat =
        ProcessInfo.processInfo.environment["STRATA_SCALE"].flatMap(Double.init).flatMap {
            $0.isFinite && $0 > 0 && $0 <= 8 ? CGFloat($0) : nil
        } ?? 1

    init() {
        scale = UIScreen.environmentScale
        bounds = CGRect(x: 0, y: 0, width: 1280, height: 800)
    }
}

/// How things move between sizes (`UIViewControllerTransitionCoordinator`):
/// changes here happen at once, so the blocks run immediately.
@MainActor
public protocol UIViewControllerTransitionCoordinator: AnyObject {
    @discardableResult
    func animate(
        alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool
}

/// The state of a transition (`UIViewControllerTransitionCoordinatorContext`).
@MainActor
public protocol UIViewControllerTransitionCoordinatorContext: AnyObject {
    var isAnimated: Bool { get }
    var isCancelled: Bool { get }
    var transitionDuration: TimeInterval { get }
}

/// A transition that takes no time (the coordinator a window's resize passes).
@MainActor
final class ImmediateTransition: UIViewControllerTransitionCoordinator, UIViewControllerTransitionCoordinatorContext {
    var isAnimated: Bool { false }
    var isCancelled: Bool { false }
    var transitionDuration: TimeInterval { 0 }

    func animate(
        alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool {
        animation?(self)
        completion?(self)
        return true
    }
}
