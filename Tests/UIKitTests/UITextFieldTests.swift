import Foundation
import StrataControls
import Testing
import UIKit

/// A delegate that notes what it hears and can refuse.
@MainActor
final class TextDelegateLog: UITextFieldDelegate, UITextViewDelegate {
    var ranges: [(NSRange, String)] = []
    var began = 0, ended = 0, returns = 0, changes = 0, selections = 0
    var allowChange = true, allowEnd = true

    func textFieldDidBeginEditing(_ textField: UITextField) { began += 1 }
    func textFieldDidEndEditing(_ textField: UITextField) { ended += 1 }
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { allowEnd }
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool {
        ranges.append((range, string))
        return allowChange
    }
    func textFieldDidChangeSelection(_ textField: UITextField) { selections += 1 }
    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        returns += 1
        return textField.resignFirstResponder()
    }
    func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool {
        ranges.append((range, text))
        return allowChange
    }
    func textViewDidChange(_ textView: UITextView) { changes += 1 }
}

@MainActor
@Suite struct UITextFieldTests {
    func key(_ d: InputDispatcher, _ key: Key, _ text: String = "") {
        d.send(.key(KeyEvent(.down, key: key, characters: text, timestamp: 0)))
    }

    @Test func aFieldTypesAsksItsDelegateInUTF16AndSendsItsEvents() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
        let d = InputDispatcher(rootView: root.node)
        let field = UITextField(frame: CGRect(x: 10, y: 10, width: 200, height: 32))
        root.addSubview(field)
        let log = TextDelegateLog()
        field.delegate = log
        var changed = 0, endedOnExit = 0, began = 0
        field.addAction(UIAction { _ in changed += 1 }, for: .editingChanged)
        field.addAction(UIAction { _ in endedOnExit += 1 }, for: .editingDidEndOnExit)
        field.addAction(UIAction { _ in began += 1 }, for: .editingDidBegin)
        #expect(field.canBecomeFirstResponder && field.becomeFirstResponder())
        #expect(field.isEditing && field.isFirstResponder && log.began == 1 && began == 1)
        key(d, .character("a"), "a")
        field.insertText("😀")
        key(d, .character("b"), "b")
        #expect(field.text == "a😀b" && changed == 3 && field.hasText)
        // UIKit's ranges count UTF-16: the emoji is two.
        #expect(log.ranges.map(\.0) == [NSRange(location: 0, length: 0), NSRange(location: 1, length: 0), NSRange(location: 3, length: 0)])
        #expect(field.selectedRange == NSRange(location: 4, length: 0))
        field.selectedRange = NSRange(location: 1, length: 2)
        #expect(field.selectedRange == NSRange(location: 1, length: 2) && log.selections > 0)
        log.allowChange = false
        key(d, .character("x"), "x")
        #expect(field.text == "a😀b")
        log.allowChange = true
        field.deleteBackward()
        #expect(field.text == "ab")
        // Return: the delegate ends editing, and the exit event is sent.
        log.allowEnd = false
        key(d, .enter)
        #expect(log.returns == 1 && endedOnExit == 1 && field.isEditing)
        log.allowEnd = true
        key(d, .enter)
        #expect(!field.isEditing && log.ended == 1)
        // Properties reach the field beneath.
        field.placeholder = "Name"
        field.isSecureTextEntry = true
        field.font = UIFont.systemFont(ofSize: 20)
        field.textColor = .red
        field.borderStyle = .roundedRect
        field.keyboardType = .emailAddress
        field.textContentType = .password
        #expect(field.placeholder == "Name" && field.isSecureTextEntry && field.keyboardType == .emailAddress)
        #expect(field.node.accessibilityRole == .passwordText && field.node.accessibilityLabel == "Name")
        field.accessibilityLabel = "Password"
        #expect(field.node.accessibilityLabel == "Password")
        // A disabled field takes no focus; bad ranges are ignored.
        field.isEnabled = false
        #expect(!field.becomeFirstResponder())
        field.text = "ab"
        field.selectedRange = NSRange(location: 1, length: Int.max)
        #expect(field.selectedRange == NSRange(location: 1, length: 1))
        field.selectedRange = NSRange(location: Int.max - 1, length: 5)
        #expect(field.selectedRange == NSRange(location: 2, length: 0))
        field.selectedRange = NSRange(location: NSNotFound, length: 0)
        field.text = nil
        #expect(field.text == "" && !field.hasText)
    }

    @Test func aTextViewTakesLinesAndCanBeReadOnly() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
        let d = InputDispatcher(rootView: root.node)
        let notes = UITextView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        root.addSubview(notes)
        let log = TextDelegateLog()
        notes.delegate = log
        notes.text = "one"
        #expect(notes.becomeFirstResponder())
        key(d, .enter)
        key(d, .character("t"), "t")
        #expect(notes.text == "one\nt" && log.changes == 2)
        #expect(log.ranges.first.map { $0.0 == NSRange(location: 3, length: 0) && $0.1 == "\n" } == true)
        notes.isEditable = false
        key(d, .character("x"), "x")
        #expect(notes.text == "one\nt")
        notes.scrollRangeToVisible(NSRange(location: 0, length: 0))
        #expect(notes.selectedRange == NSRange(location: 0, length: 0) && notes.contentOffset == .zero)
        #expect(notes.node.accessibilityRole == .text)
        #expect(notes.resignFirstResponder() && !notes.isFirstResponder)
    }
}
