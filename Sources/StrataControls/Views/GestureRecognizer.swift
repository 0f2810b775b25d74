import StrataGraphics

/// Recognizes a gesture in the pointer events that reach a view:
/// `UIGestureRecognizer`, with its state machine and its relations.
///
/// A discrete gesture (a tap) goes from `possible` to `ended` (recognized)
/// or to `failed`. A continuous one (a pan, a long press) goes from
/// `possible` to `began`, `changed` any number of times, and `ended` or
/// `cancelled`, or fails before it begins. The action runs at each of
/// `began`, `changed`, `ended` and `cancelled`. When every pointer is up
/// the recognizer is reset to `possible`.
///
/// Relations: when a recognizer begins (or recognizes), the others
/// watching the same pointers fail (or are cancelled) unless one of them
/// allows both (`shouldRecognizeSimultaneously`). `require(toFail:)` makes
/// a recognizer wait until another fails, and fail when the other
/// succeeds: a single tap that must not fire on a double tap.
/// A recognizer that begins cancels the pointer events of its view
/// (`cancelsPointerEventsInView`): the view that was following the
/// pointer receives `.cancelled`.
@MainActor
open class GestureRecognizer {
    public enum State: Sendable, Hashable {
        case possible, began, changed, ended, cancelled, failed
        /// A discrete gesture's success.
        public static let recognized = State.ended
    }

    public private(set) var state = State.possible
    /// The view it is attached to.
    public internal(set) weak var view: View?
    /// A disabled recognizer sees no events (disabling one mid-gesture
    /// cancels it).
    public var isEnabled = true {
        didSet {
            guard !isEnabled else { return }
            reset(cancelling: true)
            // Out of the pointers it was watching, even if enabled again.
            view?.dispatcher?.forget(self)
        }
    }
    public var cancelsPointerEventsInView = true
    /// Whether this recognizer may succeed alongside `other` (either one
    /// saying yes is enough). Default: no.
    public var shouldRecognizeSimultaneously: ((_ this: GestureRecognizer, _ other: GestureRecognizer) -> Bool)?
    /// Whether it may begin at all now; returning false fails it.
    public var shouldBegin: ((GestureRecognizer) -> Bool)?

    private var actions: [(GestureRecognizer) -> Void] = []
    var requiredToFail: [Weak] = []
    /// A success waiting for the recognizers it requires to fail.
    var pendingState: State?
    /// The last pointer location (the root's coordinates).
    public internal(set) var lastLocation = Point(x: 0, y: 0)
    /// The time of the last event it saw.
    public internal(set) var lastTimestamp = 0.0

    struct Weak {
        weak var recognizer: GestureRecognizer?
    }

    public init(action: ((GestureRecognizer) -> Void)? = nil) {
        if let action { actions.append(action) }
    }

    public func addAction(_ action: @escaping (GestureRecognizer) -> Void) { actions.append(action) }

    /// Makes this recognizer wait for `other` to fail before it succeeds,
    /// and fail if `other` succeeds.
    public func require(toFail other: GestureRecognizer) {
        guard other !== self else { return }
        requiredToFail.append(Weak(recognizer: other))
    }

    /// Where the pointer is, in `view`'s coordinates (the root's when nil).
    public func location(in view: View?) -> Point {
        guard let view else { return lastLocation }
        return view.convert(lastLocation, from: nil)
    }

    // MARK: What subclasses override

    /// A pointer went down over the view (or one of its subviews).
    open func pointerBegan(_ event: PointerEvent) {}
    open func pointerMoved(_ event: PointerEvent) {}
    open func pointerEnded(_ event: PointerEvent) {}
    /// The system took the pointer away: continuous gestures cancel.
    open func pointerCancelled(_ event: PointerEvent) {
        if state == .began || state == .changed { setState(.cancelled) } else if state == .possible { setState(.failed) }
    }

    /// Called at each frame while the recognizer is watching pointers, for
    /// time limits (a long press's duration, a tap's wait for a second tap).
    open func frame(at time: Double) {}

    /// Back to `possible`, forgetting the gesture. Subclasses reset their
    /// own state and call super.
    open func reset() {
        state = .possible
        pendingState = nil
    }

    // MARK: Moving through the states

    /// Moves to `newState`, as a subclass decides. The dispatcher applies
    /// the relations: a success may wait for required failures, or fail;
    /// other recognizers may be failed or cancelled.
    public func setState(_ newState: State) {
        guard newState != state || newState == .changed else { return }
        if let arena = view?.dispatcher {
            arena.transition(self, to: newState)
        } else {
            apply(newState)
        }
    }

    /// Sets the state and runs the actions (called by the dispatcher once
    /// the relations allow it).
    func apply(_ newState: State) {
        if state == .possible, newState == .began || newState == .ended, let shouldBegin, !shouldBegin(self) {
            state = .failed
            return
        }
        state = newState
        pendingState = nil
        switch newState {
        case .began, .changed, .ended, .cancelled: for a in actions { a(self) }
        case .possible, .failed: break
        }
    }

    /// Resets now, cancelling a gesture under way (with its action) first.
    func reset(cancelling: Bool) {
        if cancelling, state == .began || state == .changed {
            state = .cancelled
            for a in actions { a(self) }
        }
        reset()
    }

    /// Whether the recognizer has finished with the current pointers.
    var isFinished: Bool { state == .ended || state == .cancelled || state == .failed }

    /// Whether this and `other` may both succeed.
    func allowsSimultaneous(with other: GestureRecognizer) -> Bool {
        shouldRecognizeSimultaneously?(self, other) == true || other.shouldRecognizeSimultaneously?(other, self) == true
    }
}
