import StrataGraphics
import StrataLayers

/// What a text view tells its delegate, and asks it (`UITextViewDelegate`).
/// Every method has a default: allow, do nothing.
@MainActor
public protocol TextViewDelegate: AnyObject {
    /// Whether the characters of `range` (character offsets in the text)
    /// may become `text`: typing, Return, deleting, cutting, pasting, an
    /// input method's commit. Not asked for the input method's pre-edit.
    func textView(_ textView: TextView, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool
    /// The text changed.
    func textViewDidChange(_ textView: TextView)
    /// The selection (or caret) moved.
    func textViewDidChangeSelection(_ textView: TextView)
    /// The view took keyboard focus.
    func textViewDidBeginEditing(_ textView: TextView)
    /// The view lost keyboard focus.
    func textViewDidEndEditing(_ textView: TextView)
}

extension TextViewDelegate {
    public func textView(_ textView: TextView, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool { true }
    public func textViewDidChange(_ textView: TextView) {}
    public func textViewDidChangeSelection(_ textView: TextView) {}
    public func textViewDidBeginEditing(_ textView: TextView) {}
    public func textViewDidEndEditing(_ textView: TextView) {}
}

/// Many lines of editable text (`UITextView`): wrapped to the view's
/// width, scrolled to keep the caret in view and by the wheel, with
/// everything a `TextField` has.
///
/// Keys and the pointer work as `TextInputView` describes; in a text
/// view, Return types a line break (the delegate can refuse it, as
/// UIKit's delegates do, by answering no for `"\n"`), Up and Down move a
/// line keeping the caret's column, Page Up and Page Down a screenful,
/// Home and End go to the line's ends (with Control, the text's), and a
/// triple click selects a paragraph.
///
/// The whole text is laid out on each change, through the shared layout
/// cache: comfortable for notes and messages of a few thousand lines.
open class TextView: TextInputView {
    public weak var delegate: (any TextViewDelegate)?

    public init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), text: String = "") {
        super.init(frame: frame, text: text, multiline: true)
    }

    /// A text view over `layer` (UIKit's `UITextView` draws in its view's layer).
    package init(frame: Rect, text: String, layer: Layer) {
        super.init(frame: frame, text: text, multiline: true, layer: layer)
    }

    override var asksDelegate: Bool { delegate != nil }

    override func notify(_ notice: EditingNotice) -> Bool {
        guard let delegate else { return super.notify(notice) }
        switch notice {
        case .shouldChange(let range, let replacement):
            return delegate.textView(self, shouldChangeTextIn: range, replacementText: replacement)
        case .didChange: delegate.textViewDidChange(self)
        case .didChangeSelection: delegate.textViewDidChangeSelection(self)
        case .didBegin: delegate.textViewDidBeginEditing(self)
        case .didEnd: delegate.textViewDidEndEditing(self)
        case .shouldReturn: return false
        }
        return false
    }

    /// Multi-line text (AT-SPI's `text` role), unless set.
    open override var accessibilityRole: AccessibilityRole {
        get { accessibility.role ?? .text }
        set { accessibility.role = newValue }
    }
}
