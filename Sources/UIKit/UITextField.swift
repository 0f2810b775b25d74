public import CoreGraphics
public import Foundation
internal import StrataControls
internal import StrataGraphics
internal import StrataLayers
internal import StrataText

/// What a text field tells its delegate, and asks it (`UITextFieldDelegate`).
/// Ranges are UTF-16 `NSRange`s, as in UIKit. Every method has a default.
@MainActor
public protocol UITextFieldDelegate: AnyObject {
    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool
    func textFieldDidBeginEditing(_ textField: UITextField)
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool
    func textFieldDidEndEditing(_ textField: UITextField)
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool
    func textFieldDidChangeSelection(_ textField: UITextField)
    func textFieldShouldReturn(_ textField: UITextField) -> Bool
}

extension UITextFieldDelegate {
    public func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidBeginEditing(_ textField: UITextField) {}
    public func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidEndEditing(_ textField: UITextField) {}
    public func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool {
        true
    }
    public func textFieldDidChangeSelection(_ textField: UITextField) {}
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
}

/// What kind of text a field or text view takes (`UITextInputTraits`):
/// kept, and told to the input method where the window system passes it
/// on (a secure field is a password to it).
@MainActor
public protocol UITextInputTraits: AnyObject {
    var keyboardType: UIKeyboardType { get set }
    var returnKeyType: UIReturnKeyType { get set }
    var autocapitalizationType: UITextAutocapitalizationType { get set }
    var autocorrectionType: UITextAutocorrectionType { get set }
    var spellCheckingType: UITextSpellCheckingType { get set }
    var textContentType: UITextContentType! { get set }
    var isSecureTextEntry: Bool { get set }
}

public enum UIKeyboardType: Int, Sendable {
    case `default`, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress, decimalPad, twitter,
        webSearch, asciiCapableNumberPad
}
public enum UIReturnKeyType: Int, Sendable {
    case `default`, go, google, join, next, route, search, send, yahoo, done, emergencyCall, `continue`
}
public enum UITextAutocapitalizationType: Int, Sendable { case none, words, sentences, allCharacters }
public enum UITextAutocorrectionType: Int, Sendable { case `default`, no, yes }
public enum UITextSpellCheckingType: Int, Sendable { case `default`, no, yes }
public struct UITextContentType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let username = UITextContentType(rawValue: "username")
    public static let password = UITextContentType(rawValue: "password")
    public static let newPassword = UITextContentType(rawValue: "new-password")
    public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
    public static let emailAddress = UITextContentType(rawValue: "email")
    public static let name = UITextContentType(rawValue: "name")
    public static let telephoneNumber = UITextContentType(rawValue: "tel")
    public static let URL = UITextContentType(rawValue: "url")
}

/// The Strata text field a `UITextField` stands for.
@MainActor
final class TextFieldNode: TextField, ViewBacking, TextFieldDelegate {
    weak var owner: UIView?

    init(layer: Layer) {
        super.init(frame: Rect(x: 0, y: 0, width: 0, height: 0), text: "", layer: layer)
        delegate = self
    }

    var textField: UITextField? { owner as? UITextField }

    override func sizeDidChange() {
        super.sizeDidChange()
        owner?.boundsSizeDidChange()
    }

    override var canBecomeFirstResponder: Bool {
        guard super.canBecomeFirstResponder, let field = textField else { return false }
        return field.isEnabled && (field.delegate?.textFieldShouldBeginEditing(field) ?? true)
    }

    override var accessibilityLabel: String? {
        get { owner?.accessibilityLabel ?? super.accessibilityLabel }
        set { owner?.accessibilityLabel = newValue }
    }

    func textField(_ field: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString: String) -> Bool {
        guard let owner = textField, let delegate = owner.delegate else { return true }
        return delegate.textField(owner, shouldChangeCharactersIn: field.nsRange(range), replacementString: replacementString)
    }
    func textFieldDidChange(_ field: TextField) { textField?.sendActions(for: .editingChanged) }
    func textFieldDidChangeSelection(_ field: TextField) {
        guard let owner = textField else { return }
        owner.delegate?.textFieldDidChangeSelection(owner)
    }
    func textFieldShouldReturn(_ field: TextField) -> Bool {
        guard let owner = textField else { return false }
        let end = owner.delegate?.textFieldShouldReturn(owner) ?? true
        owner.sendActions(for: .editingDidEndOnExit)
        return end
    }
    func textFieldDidBeginEditing(_ field: TextField) {
        guard let owner = textField else { return }
        owner.delegate?.textFieldDidBeginEditing(owner)
        owner.sendActions(for: .editingDidBegin)
    }
    func textFieldDidEndEditing(_ field: TextField) {
        guard let owner = textField else { return }
        owner.delegate?.textFieldDidEndEditing(owner)
        owner.sendActions(for: .editingDidEnd)
    }
}

/// A line of editable text (`UITextField`), on Strata's `TextField`: the
/// caret, selection, keys, clipboard, undo and input methods are its.
/// Its delegate is asked about every change with UTF-16 ranges, and its
/// control events (`.editingDidBegin`, `.editingChanged`, `.editingDidEnd`,
/// `.editingDidEndOnExit`) reach `addAction(_:for:)`'s actions.
///
/// Left and right views, the clear button and `UITextInput`'s position
/// objects are not here (see the porting notes).
open class UITextField: UIControl, UITextInputTraits {
    override class func makeNode(layer: Layer) -> View { TextFieldNode(layer: layer) }

    var field: TextFieldNode { node as! TextFieldNode }

    public weak var delegate: (any UITextFieldDelegate)?

    /// How the field's edge is drawn (`UITextField.BorderStyle`).
    public enum BorderStyle: Int, Sendable { case none, line, bezel, roundedRect }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        fieldDefaults()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        fieldDefaults()
    }

    private func fieldDefaults() {
        borderStyle = .none
        isUserInteractionEnabled = true
    }

    open var text: String? {
        get { field.text }
        set { field.text = newValue ?? "" }
    }

    /// The text as attributed text (one style: the field's font and colour).
    open var attributedText: NSAttributedString? {
        get { NSAttributedString(string: field.text) }
        set { field.text = newValue?.string ?? "" }
    }

    open var placeholder: String? {
        get { field.placeholder }
        set { field.placeholder = newValue }
    }

    open var font: UIFont? {
        didSet { field.fontSize = Double(font?.pointSize ?? 17) }
    }

    open var textColor: UIColor? {
        didSet { field.textColor = textColor?.cgColor.strata ?? Color(white: 0.1) }
    }

    open override func tintColorDidChange() {
        super.tintColorDidChange()
        if let tintColor { field.tintColor = tintColor.cgColor.strata }
    }

    open var borderStyle: BorderStyle = .none {
        didSet {
            let l = field.layer
            switch borderStyle {
            case .none:
                l.borderWidth = 0
                l.cornerRadius = 0
            case .line, .bezel:
                l.borderWidth = 1
                l.cornerRadius = 0
            case .roundedRect:
                l.borderWidth = 1
                l.cornerRadius = 5
            }
        }
    }

    open var isSecureTextEntry: Bool {
        get { field.isSecureTextEntry }
        set { field.isSecureTextEntry = newValue }
    }

    public var keyboardType: UIKeyboardType = .default
    public var returnKeyType: UIReturnKeyType = .default
    public var autocapitalizationType: UITextAutocapitalizationType = .sentences
    public var autocorrectionType: UITextAutocorrectionType = .default
    public var spellCheckingType: UITextSpellCheckingType = .default
    public var textContentType: UITextContentType! = nil

    /// Whether the field has keyboard focus.
    open var isEditing: Bool { field.isFirstResponder }

    open override var canBecomeFirstResponder: Bool { field.canBecomeFirstResponder }
    open override var isFirstResponder: Bool { field.isFirstResponder }

    @discardableResult
    open override func becomeFirstResponder() -> Bool { field.becomeFirstResponder() }

    /// Gives up keyboard focus, unless the delegate says not yet.
    @discardableResult
    open override func resignFirstResponder() -> Bool {
        field.resignFocus { delegate?.textFieldShouldEndEditing(self) ?? true }
    }

    /// Types `text` as the keyboard does (`UIKeyInput.insertText`).
    open func insertText(_ text: String) { field.insertText(text) }

    /// Deletes the selection or the character before the caret (`UIKeyInput.deleteBackward`).
    open func deleteBackward() { field.edit { $0.deleteBackward() } }

    /// Whether there is text (`UIKeyInput.hasText`).
    open var hasText: Bool { !field.text.isEmpty }

    /// The selection as a UTF-16 `NSRange` (UIKit's `selectedTextRange`
    /// reduced to offsets).
    open var selectedRange: NSRange {
        get { field.utf16SelectedRange }
        set { field.utf16SelectedRange = newValue }
    }
}
