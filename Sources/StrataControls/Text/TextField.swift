import Dispatch
import StrataGraphics
import StrataLayers
import StrataText

/// What a text field tells its delegate, and asks it (`UITextFieldDelegate`).
/// Every method has a default: allow, do nothing.
@MainActor
public protocol TextFieldDelegate: AnyObject {
    /// Whether the characters of `range` (character offsets in the text)
    /// may become `replacement`: typing, deleting, cutting, pasting, an
    /// input method's commit. Not asked for the input method's pre-edit.
    func textField(_ field: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString: String) -> Bool
    /// The text changed.
    func textFieldDidChange(_ field: TextField)
    /// The selection (or caret) moved.
    func textFieldDidChangeSelection(_ field: TextField)
    /// Return was pressed; true when the delegate handled it.
    func textFieldShouldReturn(_ field: TextField) -> Bool
    /// The field took keyboard focus.
    func textFieldDidBeginEditing(_ field: TextField)
    /// The field lost keyboard focus.
    func textFieldDidEndEditing(_ field: TextField)
}

extension TextFieldDelegate {
    public func textField(_ field: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString: String) -> Bool { true }
    public func textFieldDidChange(_ field: TextField) {}
    public func textFieldDidChangeSelection(_ field: TextField) {}
    public func textFieldShouldReturn(_ field: TextField) -> Bool { false }
    public func textFieldDidBeginEditing(_ field: TextField) {}
    public func textFieldDidEndEditing(_ field: TextField) {}
}

/// A line of editable text (`UITextField`): a caret that blinks, a
/// selection made with the pointer or the keys, undo, the clipboard, a
/// placeholder, secure entry, and an input method's composition shown
/// underlined at the caret.
///
/// Keys and the pointer work as `TextInputView` describes; in a field, Up
/// and Down go to the text's ends, Return asks the delegate
/// (`textFieldShouldReturn`), Tab moves focus, and text pasted with line
/// breaks has them as spaces.
///
/// The text model is StrataText's `EditableText`; `editableText` exposes
/// it for an input method or an assistive tool.
open class TextField: TextInputView {
    public weak var delegate: (any TextFieldDelegate)?

    public init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), text: String = "") {
        super.init(frame: frame, text: text, multiline: false)
    }

    /// A field over `layer` (UIKit's `UITextField` draws in its view's layer).
    package init(frame: Rect, text: String, layer: Layer) {
        super.init(frame: frame, text: text, multiline: false, layer: layer)
    }

    /// How far the text is scrolled left, to keep the caret in view.
    public var scrollOffset: Double { contentOffset.x }

    override var asksDelegate: Bool { delegate != nil }

    override func notify(_ notice: EditingNotice) -> Bool {
        guard let delegate else { return super.notify(notice) }
        switch notice {
        case .shouldChange(let range, let replacement):
            return delegate.textField(self, shouldChangeCharactersIn: range, replacementString: replacement)
        case .didChange: delegate.textFieldDidChange(self)
        case .didChangeSelection: delegate.textFieldDidChangeSelection(self)
        case .didBegin: delegate.textFieldDidBeginEditing(self)
        case .didEnd: delegate.textFieldDidEndEditing(self)
        case .shouldReturn: return delegate.textFieldShouldReturn(self)
        }
        return false
    }

    /// An entry, or password text for secure entry, unless set.
    open override var accessibilityRole: AccessibilityRole {
        get { accessibility.role ?? (isSecureTextEntry ? .passwordText : .entry) }
        set { accessibility.role = newValue }
    }
}
