import StrataGraphics
import StrataLayers

/// A push button: a title on a rounded background that runs its `action`
/// when clicked, or pressed with Space or Return while it has keyboard
/// focus (`UIButton`'s and `NSButton`'s role).
///
/// A pointer going down highlights it; the action runs when the pointer
/// goes up inside it; moving out takes the highlight away, and back in
/// brings it back, as platform buttons behave. A disabled button
/// (`isEnabled` false) is dimmed and takes neither clicks nor focus.
open class Button: View {
    /// What the button does.
    public var action: (@MainActor () -> Void)?

    /// The title, centred.
    public var title: String {
        didSet { titleLayer.string = title }
    }

    /// Whether the button takes clicks and focus. Default true.
    public var isEnabled = true {
        didSet {
            if !isEnabled {
                isHighlighted = false
                resignFirstResponder()
            }
            updateAppearance()
        }
    }

    /// Whether a pointer is down on the button (shown darker).
    public private(set) var isHighlighted = false {
        didSet { if oldValue != isHighlighted { updateAppearance() } }
    }

    /// The background; the highlight darkens it.
    public var tintColor = Color(red: 0.10, green: 0.45, blue: 0.95) {
        didSet { updateAppearance() }
    }

    /// The title's colour.
    public var titleColor = Color.white {
        didSet { titleLayer.foregroundColor = titleColor }
    }

    /// The title's size in points. Default 15; a size that is not a
    /// positive number is 15, one above `Font.sizeRange` its largest.
    public var fontSize = 15.0 {
        didSet {
            fontSize = TextField.heldFontSize(fontSize)
            titleLayer.fontSize = fontSize
            sizeDidChange()
        }
    }

    private let titleLayer = TextLayer()

    public init(title: String, frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), action: (@MainActor () -> Void)? = nil) {
        self.title = title
        self.action = action
        super.init(frame: frame)
        titleLayer.string = title
        titleLayer.fontSize = fontSize
        titleLayer.foregroundColor = titleColor
        titleLayer.alignmentMode = .center
        titleLayer.fontWeight = .semibold
        layer.addSublayer(titleLayer)
        layer.cornerRadius = 8
        updateAppearance()
        sizeDidChange()
    }

    open override func sizeDidChange() {
        // The title's line, centred vertically.
        let line = (fontSize * 1.3).rounded()
        withoutActions {
            titleLayer.frame = Rect(x: 0, y: ((bounds.height - line) / 2).rounded(), width: bounds.width, height: line)
        }
    }

    private func updateAppearance() {
        let base = tintColor
        let shown =
            isHighlighted
            ? Color(red: base.red * 0.75, green: base.green * 0.75, blue: base.blue * 0.75, alpha: base.alpha) : base
        withoutActions {
            layer.backgroundColor = shown
            layer.opacity = isEnabled ? 1 : 0.4
        }
    }

    open override var canBecomeFirstResponder: Bool { isEnabled }

    // MARK: Accessibility

    open override var isAccessibilityElement: Bool {
        get { accessibility.isElement ?? true }
        set { accessibility.isElement = newValue }
    }

    /// The title, unless set.
    open override var accessibilityLabel: String? {
        get { accessibility.label ?? title }
        set { accessibility.label = newValue }
    }

    /// `.button`, and `.notEnabled` while disabled, unless set.
    open override var accessibilityTraits: AccessibilityTraits {
        get { accessibility.traits ?? (isEnabled ? .button : [.button, .notEnabled]) }
        set { accessibility.traits = newValue }
    }

    /// Runs the action, as a click does; false when disabled or without one.
    @discardableResult
    open override func activate() -> Bool {
        guard isEnabled, let action else { return false }
        action()
        return true
    }

    open override func pointerEvent(_ event: PointerEvent) -> Bool {
        guard isEnabled, event.button == .primary else { return false }
        let inside = point(inside: convert(event.location, from: nil))
        switch event.phase {
        case .down:
            isHighlighted = true
        case .moved:
            isHighlighted = inside
        case .up:
            isHighlighted = false
            if inside { activate() }
        case .cancelled:
            isHighlighted = false
        }
        return true
    }
}
