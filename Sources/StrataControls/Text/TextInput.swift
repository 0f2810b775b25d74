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
