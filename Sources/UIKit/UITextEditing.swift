public import Foundation
internal import StrataControls

// What UITextField and UITextView share over Strata's text views: UIKit's
// UTF-16 ranges, and keyboard focus given up only when the delegate agrees.
extension TextInputView {
    /// `range` (characters) as UIKit's UTF-16 `NSRange`.
    func nsRange(_ range: Range<Int>) -> NSRange {
        let units = editableText.utf16Range(range)
        return NSRange(location: units.lowerBound, length: units.count)
    }

    /// The selection as a UTF-16 `NSRange`; set, a range that is not
    /// found or negative is ignored, one inside a character takes it in,
    /// one past the text ends at its end.
    var utf16SelectedRange: NSRange {
        get { nsRange(selectedRange) }
        set {
            guard newValue.location != NSNotFound, newValue.location >= 0, newValue.length >= 0 else { return }
            // A range reaching past Int's end (NSRange's values are unchecked) is held to the text.
            let (end, overflow) = newValue.location.addingReportingOverflow(newValue.length)
            selectedRange = editableText.characterRange(utf16: newValue.location..<(overflow ? Int.max : end))
        }
    }

    /// Gives up keyboard focus when `allowed` says so (asked only while
    /// the view has it); whether the view no longer has it.
    func resignFocus(if allowed: () -> Bool) -> Bool {
        guard isFirstResponder else { return true }
        guard allowed() else { return false }
        resignFirstResponder()
        return true
    }
}
