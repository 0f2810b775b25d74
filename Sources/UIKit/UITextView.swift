public import CoreGraphics
public import Foundation
internal import StrataControls
internal import StrataGraphics
internal import StrataLayers
internal import StrataText

/// What a text view tells its delegate, and asks it (`UITextViewDelegate`).
/// Ranges are UTF-16 `NSRange`s, as in UIKit. Every method has a default.
@MainActor
public protocol UITextViewDelegate: AnyObject {
    func textViewShouldBeginEditing(_ textView: UITextView) -> Bool
    func textViewDidBeginEditing(_ textView: UITextView)
    func textViewShouldEndEditing(_ textView: UITextView) -> Bool
    func textViewDidEndEditing(_ textView: UITextView)
    func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool
    func textViewDidChange(_ textView: UITextView)
    func textViewDidChangeSelection(_ textView: UITextView)
}

extension UITextViewDelegate {
    public func textViewShouldBeginEditing(_ textView: UITextView) -> Bool { true }
    public func textViewDidBeginEditing(_ textView: UITextView) {}
    public func textViewShouldEndEditing(_ textView: UITextView) -> Bool { true }
    public func textViewDidEndEditing(_ textView: UITextView) {}
    public func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool { true }
    public func textViewDidChange(_ textView: UITextView) {}
    public func textViewDidChangeSelection(_ textView: UITextView) {}
}

/// The Strata text view a `UITextView` stands for.
@MainActor
final class TextViewNode: TextView, ViewBacking, TextViewDelegate {
    weak var owner: UIView?

    init(layer: Layer) {
        super.init(frame: Rect(x: 0, y: 0, width: 0, height: 0), text: "", layer: layer)
        delegate = self
    }

    var textView: UITextView? { owner as? UITextView }

    override func sizeDidChange() {
        super.sizeDidChange()
        owner?.boundsSizeDidChange()
    }

    override var canBecomeFirstResponder: Bool {
        guard super.canBecomeFirstResponder, let view = textView, view.isEditable || view.isSelectable else { return false }
        return view.delegate?.textViewShouldBeginEditing(view) ?? true
    }

    override var accessibilityLabel: String? {
        get { owner?.accessibilityLabel ?? super.accessibilityLabel }
        set { owner?.accessibilityLabel = newValue }
    }

    func textView(_ view: TextView, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool {
        guard let owner = textView, owner.isEditable else { return false }
        guard let delegate = owner.delegate else { return true }
        return delegate.textView(owner, shouldChangeTextIn: view.nsRange(range), replacementText: text)
    }
    func textViewDidChange(_ view: TextView) {
        guard let owner = textView else { return }
        owner.delegate?.textViewDidChange(owner)
    }
    func textViewDidChangeSelection(_ view: TextView) {
        guard let owner = textView else { return }
        owner.delegate?.textViewDidChangeSelection(owner)
    }
    func textViewDidBeginEditing(_ view: TextView) {
        guard let owner = textView else { return }
        owner.delegate?.textViewDidBeginEditing(owner)
    }
    func textViewDidEndEditing(_ view: TextView) {
        guard let owner = textView else { return }
        owner.delegate?.textViewDidEndEditing(owner)
    }
}

/// Many lines of editable, scrolling text (`UITextView`), on Strata's
/// `TextView`: wrapped to the view's width, the caret kept in view, the
/// wheel scrolls it. Its delegate is asked about every change with UTF-16
/// ranges.
///
/// Unlike UIKit's, it is a `UIView`, not a `UIScrollView`: `contentOffset`
/// is here, but not the scroll view's delegate calls or insets (see the
/// porting notes). `isEditable` false keeps the text from changing while
/// it can still be selected and copied.
open class UITextView: UIView, UITextInputTraits {
    override class func makeNode(layer: Layer) -> View { TextViewNode(layer: layer) }

    var textNode: TextViewNode { node as! TextViewNode }

    public weak var delegate: (any UITextViewDelegate)?

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = true
    }

    public convenience init(frame: CGRect, textContainer: AnyObject?) { self.init(frame: frame) }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isUserInteractionEnabled = true
    }

    open var text: String! {
        get { textNode.text }
        set { textNode.text = newValue ?? "" }
    }

    /// The text as attributed text (one style: the view's font and colour).
    open var attributedText: NSAttributedString! {
        get { NSAttributedString(string: textNode.text) }
        set { textNode.text = newValue?.string ?? "" }
    }

    open var font: UIFont? {
        didSet { textNode.fontSize = Double(font?.pointSize ?? 12) }
    }

    open var textColor: UIColor? {
        didSet { textNode.textColor = textColor?.cgColor.strata ?? Color(white: 0.1) }
    }

    open override func tintColorDidChange() {
        super.tintColorDidChange()
        if let tintColor { textNode.tintColor = tintColor.cgColor.strata }
    }

    /// Whether the text can be changed by the user (default true).
    open var isEditable = true
    /// Whether the text can be selected (default true).
    open var isSelectable = true

    /// How far the text is scrolled.
    open var contentOffset: CGPoint { CGPoint(textNode.contentOffset) }

    open var isSecureTextEntry: Bool {
        get { textNode.isSecureTextEntry }
        set { textNode.isSecureTextEntry = newValue }
    }
    public var keyboardType: UIKeyboardType = .default
    public var returnKeyType: UIReturnKeyType = .default
    public var autocapitalizationType: UITextAutocapitalizationType = .sentences
    public var autocorrectionType: UITextAutocorrectionType = .default
    public var spellCheckingType: UITextSpellCheckingType = .default
    public var textContentType: UITextContentType! = nil

    open override var canBecomeFirstResponder: Bool { textNode.canBecomeFirstResponder }
    open override var isFirstResponder: Bool { textNode.isFirstResponder }

    @discardableResult
    open override func becomeFirstResponder() -> Bool { textNode.becomeFirstResponder() }

    /// Gives up keyboard focus, unless the delegate says not yet.
    @discardableResult
    open override func resignFirstResponder() -> Bool {
        textNode.resignFocus { delegate?.textViewShouldEndEditing(self) ?? true }
    }

    /// Types `text` as the keyboard does (`UIKeyInput.insertText`).
    open func insertText(_ text: String) { textNode.insertText(text) }
    open func deleteBackward() { textNode.edit { $0.deleteBackward() } }
    open var hasText: Bool { !textNode.text.isEmpty }

    /// The selection as a UTF-16 `NSRange`.
    open var selectedRange: NSRange {
        get { textNode.utf16SelectedRange }
        set { textNode.utf16SelectedRange = newValue }
    }

    /// Scrolls so that `range` (UTF-16) shows: the caret goes to its start.
    open func scrollRangeToVisible(_ range: NSRange) {
        guard range.location != NSNotFound, range.location >= 0 else { return }
        let start = textNode.editableText.characterRange(utf16: range.location..<range.location).lowerBound
        textNode.selectedRange = start..<start
    }
}
