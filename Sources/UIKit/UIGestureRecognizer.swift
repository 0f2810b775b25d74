internal import CoreGraphics
public import Foundation
package import StrataControls
internal import StrataGraphics

/// Recognizes a gesture in a view's touches (`UIGestureRecognizer`), over
/// Strata's recognizers.
///
/// Swift on Linux has no Objective-C selectors, so the action is a closure:
/// `UITapGestureRecognizer { recognizer in … }` or `addTarget { … }` where
/// iOS code writes `init(target:action:)` and `#selector`.
@MainActor
open class UIGestureRecognizer {
    public enum State: Int, Sendable {
        case possible, began, changed, ended, cancelled, failed
        public static let recognized = State.ended
    }

    package let strata: GestureRecognizer
    public internal(set) weak var view: UIView?
    public weak var delegate: (any UIGestureRecognizerDelegate)?
    private var handlers: [(UIGestureRecognizer) -> Void] = []

    package init(strata: GestureRecognizer, handler: ((UIGestureRecognizer) -> Void)?, asksDelegate: Bool = true) {
        self.strata = strata
        if let handler { handlers.append(handler) }
        strata.addAction { [weak self] _ in
            guard let self else { return }
            for h in self.handlers { h(self) }
        }
        guard asksDelegate else { return }
        strata.shouldBegin = { [weak self] _ in
            guard let self else { return true }
            return self.delegate?.gestureRecognizerShouldBegin(self) ?? true
        }
        strata.shouldRecognizeSimultaneously = { [weak self] _, other in
            guard let self, let delegate = self.delegate, let view = self.view else { return false }
            let mine = view.allRecognizers.first { $0.strata === other }
            return mine.map { delegate.gestureRecognizer(self, shouldRecognizeSimultaneouslyWith: $0) } ?? false
        }
    }

    /// Adds a closure called at each change of state that the gesture
    /// reports (recognized for discrete gestures; began, changed, ended for
    /// continuous ones).
    open func addTarget(_ handler: @escaping (UIGestureRecognizer) -> Void) { handlers.append(handler) }

    public var state: State {
        switch strata.state {
        case .possible: .possible
        case .began: .began
        case .changed: .changed
        case .ended: .ended
        case .cancelled: .cancelled
        case .failed: .failed
        }
    }

    open var isEnabled: Bool {
        get { strata.isEnabled }
        set { strata.isEnabled = newValue }
    }

    open var cancelsTouchesInView: Bool {
        get { strata.cancelsPointerEventsInView }
        set { strata.cancelsPointerEventsInView = newValue }
    }

    open var delaysTouchesBegan = false
    open var delaysTouchesEnded = true

    /// Where the gesture is, in `view`'s coordinates (the window's when nil).
    open func location(in view: UIView?) -> CGPoint {
        let rootPoint = CGPoint(strata.location(in: nil))
        guard let view else { return rootPoint }
        return view.convert(rootPoint, from: nil)
    }

    open var numberOfTouches: Int { state == .possible || state == .failed ? 0 : 1 }

    /// Makes this recognizer wait for `other` to fail.
    open func require(toFail other: UIGestureRecognizer) { strata.require(toFail: other.strata) }
}

extension UIView {
    var allRecognizers: [UIGestureRecognizer] {
        var out: [UIGestureRecognizer] = []
        var v: UIView? = self
        while let c = v {
            out += c.gestureRecognizers ?? []
            v = c.superview
        }
        return out
    }
}

/// What a recognizer asks of its delegate (every method optional).
@MainActor
public protocol UIGestureRecognizerDelegate: AnyObject {
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
    func gestureRecognizer(
        _ gestureRecognizer: UIGestureRecognizer, shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer
    ) -> Bool
}

extension UIGestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
    public func gestureRecognizer(
        _ gestureRecognizer: UIGestureRecognizer, shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer
    ) -> Bool { false }
}

/// Taps (`UITapGestureRecognizer`): discrete.
@MainActor
open class UITapGestureRecognizer: UIGestureRecognizer {
    private var tap: TapGestureRecognizer { strata as! TapGestureRecognizer }

    public init(_ handler: ((UIGestureRecognizer) -> Void)? = nil) {
        super.init(strata: TapGestureRecognizer(), handler: handler)
    }

    open var numberOfTapsRequired: Int {
        get { tap.numberOfTapsRequired }
        set { tap.numberOfTapsRequired = newValue }
    }

    open var numberOfTouchesRequired = 1
}

/// Drags (`UIPanGestureRecognizer`): continuous.
@MainActor
open class UIPanGestureRecognizer: UIGestureRecognizer {
    private var pan: PanGestureRecognizer { strata as! PanGestureRecognizer }

    public init(_ handler: ((UIGestureRecognizer) -> Void)? = nil) {
        super.init(strata: PanGestureRecognizer(), handler: handler)
    }

    /// Stands for a recognizer Strata made (a scroll view's own pan), whose
    /// rules stay Strata's.
    init(existing: PanGestureRecognizer) {
        super.init(strata: existing, handler: nil, asksDelegate: false)
    }

    /// How far the touch has moved since the gesture began, in `view`'s
    /// coordinates' scale.
    open func translation(in view: UIView?) -> CGPoint { CGPoint(pan.translation(in: view?.node)) }

    open func setTranslation(_ translation: CGPoint, in view: UIView?) { pan.setTranslation(translation.strata) }

    /// Points a second.
    open func velocity(in view: UIView?) -> CGPoint { CGPoint(pan.velocity) }

    open var minimumNumberOfTouches = 1
    open var maximumNumberOfTouches = Int.max
}

/// Long presses (`UILongPressGestureRecognizer`): continuous.
@MainActor
open class UILongPressGestureRecognizer: UIGestureRecognizer {
    private var press: LongPressGestureRecognizer { strata as! LongPressGestureRecognizer }

    public init(_ handler: ((UIGestureRecognizer) -> Void)? = nil) {
        super.init(strata: LongPressGestureRecognizer(), handler: handler)
    }

    open var minimumPressDuration: TimeInterval {
        get { press.minimumPressDuration }
        set { press.minimumPressDuration = newValue }
    }

    open var allowableMovement: CGFloat {
        get { CGFloat(press.allowableMovement) }
        set { press.allowableMovement = Double(newValue) }
    }

    open var numberOfTapsRequired = 0
    open var numberOfTouchesRequired = 1
}
