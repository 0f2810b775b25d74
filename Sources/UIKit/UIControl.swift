internal import CoreGraphics
public import Foundation

/// An action a control runs (`UIAction`): a closure with a title and image.
@MainActor
open class UIAction {
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    public let title: String
    public let image: UIImage?
    public let identifier: Identifier
    let handler: (UIAction) -> Void
    /// The control that sent the action, while its handler runs.
    public internal(set) var sender: Any?

    public init(
        title: String = "", image: UIImage? = nil, identifier: Identifier? = nil, handler: @escaping (UIAction) -> Void
    ) {
        self.title = title
        self.image = image
        self.identifier = identifier ?? Identifier(UUID().uuidString)
        self.handler = handler
    }
}

/// A view that turns touches into actions (`UIControl`): tracking, states,
/// and actions for events. Actions are `UIAction`s or closures, where iOS
/// code may also use `addTarget(_:action:for:)` with a selector.
@MainActor
open class UIControl: UIView {
    /// What happens to a control (`UIControl.Event`).
    public struct Event: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allTouchEvents = Event(rawValue: 0x0000_0FFF)
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// A control's state (`UIControl.State`).
    public struct State: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
        public static let focused = State(rawValue: 1 << 3)
    }

    private var actionsByEvent: [(action: UIAction, events: Event)] = []
    public private(set) var isTracking = false
    public private(set) var isTouchInside = false

    open var isEnabled = true {
        didSet { isUserInteractionEnabled = isEnabled }
    }
    open var isSelected = false
    open var isHighlighted = false

    open var state: State {
        var s: State = []
        if isHighlighted { s.insert(.highlighted) }
        if !isEnabled { s.insert(.disabled) }
        if isSelected { s.insert(.selected) }
        return s
    }

    public override init(frame: CGRect) { super.init(frame: frame) }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A control that runs `primaryAction` on `.primaryActionTriggered`.
    public convenience init(frame: CGRect, primaryAction: UIAction?) {
        self.init(frame: frame)
        if let primaryAction { addAction(primaryAction, for: .primaryActionTriggered) }
    }

    open func addAction(_ action: UIAction, for controlEvents: Event) { actionsByEvent.append((action, controlEvents)) }

    open func removeAction(_ action: UIAction, for controlEvents: Event) {
        actionsByEvent.removeAll { $0.action === action && !$0.events.isDisjoint(with: controlEvents) }
    }

    open func removeAction(identifiedBy identifier: UIAction.Identifier, for controlEvents: Event) {
        actionsByEvent.removeAll { $0.action.identifier == identifier && !$0.events.isDisjoint(with: controlEvents) }
    }

    /// Runs the actions for `controlEvents`.
    open func sendActions(for controlEvents: Event) {
        for (action, events) in actionsByEvent where !events.isDisjoint(with: controlEvents) { sendAction(action) }
    }

    open func sendAction(_ action: UIAction) {
        action.sender = self
        action.handler(action)
        action.sender = nil
    }

    open var allControlEvents: Event { actionsByEvent.reduce(into: Event()) { $0.formUnion($1.events) } }

    // MARK: Tracking

    open func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }
    open func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }
    open func endTracking(_ touch: UITouch?, with event: UIEvent?) {}
    open func cancelTracking(with event: UIEvent?) {}

    /// The area a touch may leave before it counts as outside.
    private func isInside(_ touch: UITouch) -> Bool { bounds.insetBy(dx: -70, dy: -70).contains(touch.location(in: self)) }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let touch = touches.first else { return }
        isTouchInside = true
        isTracking = beginTracking(touch, with: event)
        isHighlighted = true
        sendActions(for: touch.tapCount > 1 ? [.touchDown, .touchDownRepeat] : .touchDown)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let touch = touches.first else { return }
        let inside = isInside(touch)
        if inside != isTouchInside { sendActions(for: inside ? .touchDragEnter : .touchDragExit) }
        isTouchInside = inside
        isHighlighted = inside
        sendActions(for: inside ? .touchDragInside : .touchDragOutside)
        if isTracking { isTracking = continueTracking(touch, with: event) }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let touch = touches.first else { return }
        let inside = isInside(touch)
        if isTracking { endTracking(touch, with: event) }
        isTracking = false
        isHighlighted = false
        isTouchInside = false
        sendActions(for: inside ? .touchUpInside : .touchUpOutside)
        if inside { sendActions(for: .primaryActionTriggered) }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        if isTracking { cancelTracking(with: event) }
        isTracking = false
        isHighlighted = false
        isTouchInside = false
        sendActions(for: .touchCancel)
    }
}
