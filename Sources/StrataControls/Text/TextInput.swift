import StrataGraphics

/// What an input method sends the view with keyboard focus, besides keys:
/// its composition as it changes (the pre-edit, shown underlined at the
/// caret, with the input method's caret in it), and text it commits.
public enum TextInputEvent: Sendable, Hashable {
    /// The composition is now `text` (empty: it ended without a commit),
    /// with the input method's caret before character `caret` of it.
    case preedit(String, caret: Int)
    /// `text` is typed, in place of the composition if there is one.
    case commit(String)
    /// The `before` characters before the selection and the `after`
    /// characters after it are deleted (an input method correcting what
    /// was typed), after the composition is taken away.
    case deleteSurrounding(before: Int, after: Int)
}

/// The text around the caret that an input method reads to predict and
/// correct (Wayland's `set_surrounding_text`): a stretch of the text, the
/// caret's and the selection anchor's character offsets in it.
public struct TextInputSurrounding: Sendable, Hashable {
    public var text: String
    public var caret: Int
    public var anchor: Int

    public init(text: String, caret: Int, anchor: Int) {
        self.text = text
        self.caret = caret
        self.anchor = anchor
    }
}

/// A view that takes text from an input method (`UITextInput`'s core):
/// `TextField` is one. The window hands the focused client the input
/// method's composition and commits (`InputDispatcher.sendTextInput`) and
/// places the input method's candidate window at its `caretRect`.
@MainActor
public protocol TextInputClient: AnyObject {
    /// Shows `text` as the composition, `selectedRange` its caret or
    /// selection within it (characters).
    func setMarkedText(_ text: String, selectedRange: Range<Int>)
    /// Types `text`, in place of the composition if there is one.
    func insertText(_ text: String)
    /// Keeps the composition as typed text.
    func unmarkText()
    /// The caret, in the view's coordinates.
    var caretRect: Rect { get }
    /// The text around the caret, for an input method (nil: none to
    /// give, as for a password). Default nil.
    var surroundingText: TextInputSurrounding? { get }
    /// Deletes `before` characters before the selection and `after`
    /// after it. Default: nothing.
    func deleteSurroundingText(before: Int, after: Int)
    /// Whether the text is a password (an input method then offers no
    /// suggestions and keeps nothing). Default false.
    var isSecureTextEntry: Bool { get }
    /// Whether the text takes line breaks. Default false.
    var acceptsLineBreaks: Bool { get }
}

extension TextInputClient {
    public var surroundingText: TextInputSurrounding? { nil }
    public func deleteSurroundingText(before: Int, after: Int) {}
    public var isSecureTextEntry: Bool { false }
    public var acceptsLineBreaks: Bool { false }
}

extension InputDispatcher {
    /// Hands an input method's composition or commit to the first
    /// responder, if it takes text; returns whether one did.
    @discardableResult
    public func sendTextInput(_ event: TextInputEvent) -> Bool {
        guard let client = firstResponder as? any TextInputClient else { return false }
        switch event {
        case .preedit(let text, let caret):
            client.setMarkedText(text, selectedRange: caret..<caret)
        case .commit(let text):
            client.insertText(text)
        case .deleteSurrounding(let before, let after):
            client.unmarkTextWithoutCommitting()
            client.deleteSurroundingText(before: max(0, before), after: max(0, after))
        }
        return true
    }

    /// The focused text client's caret in the root view's coordinates, or
    /// nil when the first responder takes no text: where a window puts
    /// the input method's candidate window.
    public var textInputCaret: Rect? {
        guard let view = firstResponder, let client = view as? any TextInputClient else { return nil }
        let r = client.caretRect
        let a = view.convert(Point(x: r.minX, y: r.minY), to: nil)
        return Rect(x: a.x, y: a.y, width: r.width, height: r.height)
    }
}

extension TextInputClient {
    /// Takes the composition away without typing it.
    func unmarkTextWithoutCommitting() { setMarkedText("", selectedRange: 0..<0) }
}
