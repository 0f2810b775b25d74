internal import CoreGraphics
public import Foundation
internal import StrataControls

/// An object that takes part in handling events (`UIResponder`): views,
/// view controllers, the application. Each touch method's default hands
/// the touches to the next responder, as in UIKit.
@MainActor
open class UIResponder {
    public init() {}

    /// For subclasses that decode (`NSCoding`): Strata reads no archives.
    /// Required, as in UIKit; Strata also uses it to make an application
    /// delegate from its class (`UIApplicationMain`).
    public required init?(coder: NSCoder) {}

    /// The responder events go to after this one: a view's view controller
    /// or superview, a view controller's view's superview, the window's
    /// application.
    open var next: UIResponder? { nil }

    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesBegan(touches, with: event) }
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesMoved(touches, with: event) }
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesEnded(touches, with: event) }
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesCancelled(touches, with: event) }

    open var canBecomeFirstResponder: Bool { false }
    open var canResignFirstResponder: Bool { true }
    open var isFirstResponder: Bool { false }
    @discardableResult open func becomeFirstResponder() -> Bool { false }
    @discardableResult open func resignFirstResponder() -> Bool { true }
}

/// One finger (here: the pointer with its button down) on the screen (`UITouch`).
@MainActor
public final class UITouch: Hashable {
    public enum Phase: Int, Sendable {
        case began, moved, stationary, ended, cancelled
    }

    public enum TouchType: Int, Sendable {
        case direct, indirect, pencil, indirectPointer
    }

    public internal(set) var phase: Phase
    /// Seconds, on the window's clock.
    public internal(set) var timestamp: TimeInterval
    public internal(set) var tapCount: Int
    public let type: TouchType = .indirectPointer
    /// The view the touch went down in.
    public internal(set) weak var view: UIView?
    public var window: UIWindow? { view?.window }
    /// The gesture recognizers watching the touch.
    public var gestureRecognizers: [UIGestureRecognizer]? { nil }
    /// Where the touch is, in the window's coordinates.
    var windowLocation: CGPoint
    var previousWindowLocation: CGPoint

    init(view: UIView, at location: CGPoint, timestamp: TimeInterval, tapCount: Int) {
        self.view = view
        windowLocation = location
        previousWindowLocation = location
        self.timestamp = timestamp
        self.tapCount = tapCount
        phase = .began
    }

    /// Moves the touch to `location` (window coordinates) at `timestamp`,
    /// in `phase`, keeping where it was as the previous location.
    func move(to location: CGPoint, at timestamp: TimeInterval, phase: Phase) {
        previousWindowLocation = windowLocation
        windowLocation = location
        self.timestamp = timestamp
        self.phase = phase
    }

    /// Where the touch is in `view`'s coordinates (the window's when nil).
    public func location(in view: UIView?) -> CGPoint {
        guard let view else { return windowLocation }
        return view.convert(windowLocation, from: nil)
    }

    /// Where the touch was at the previous event, in `view`'s coordinates.
    public func previousLocation(in view: UIView?) -> CGPoint {
        guard let view else { return previousWindowLocation }
        return view.convert(previousWindowLocation, from: nil)
    }

    public nonisolated static func == (a: UITouch, b: UITouch) -> Bool { a === b }
    public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// An event: the touches of one moment (`UIEvent`).
@MainActor
open class UIEvent {
    public enum EventType: Int, Sendable {
        case touches, motion, remoteControl, presses, scroll, hover, transform
    }

    public let type: EventType
    public let timestamp: TimeInterval
    let touches: Set<UITouch>

    init(type: EventType = .touches, timestamp: TimeInterval, touches: Set<UITouch>) {
        self.type = type
        self.timestamp = timestamp
        self.touches = touches
    }

    open var allTouches: Set<UITouch>? { touches }

    open func touches(for view: UIView) -> Set<UITouch>? { touches.filter { $0.view === view } }
    open func touches(for window: UIWindow) -> Set<UITouch>? { touches.filter { $0.window === window } }
}
