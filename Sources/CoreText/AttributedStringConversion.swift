package import Foundation
package import StrataGraphics
package import StrataText

/// An `NSAttributedString` as Strata's text engine takes it.
package struct ConvertedText: Sendable {
    package let text: AttributedText
    package var style: ParagraphStyle
    /// The string's first paragraph style's line break mode.
    package var lineBreakMode: NSLineBreakMode
    /// Where each character (Strata's offsets) starts in UTF-16 code units,
    /// and the total at the end: CFRange's units.
    package let utf16Offsets: [Int]
    /// The text's characters, for slicing it by Strata's offsets.
    package let characters: [Character]
    /// The string converted (an immutable copy).
    package var source: NSAttributedString { sourceBox.string }
    private let sourceBox: SourceBox

    /// Helvetica 12, Core Text's and UIKit string drawing's default.
    package static let defaultFont = Font(name: "Helvetica", size: 12)

    package init(_ string: NSAttributedString, defaultFont: Font = ConvertedText.defaultFont, defaultColor: Color = .black) {
        var text = AttributedText()
        var paragraph: NSParagraphStyle?
        let whole = NSRange(location: 0, length: string.length)
        let ns = string.string as NSString
        string.enumerateAttributes(in: whole, options: []) { attributes, range, _ in
            var a = TextAttributes(font: defaultFont, foregroundColor: defaultColor)
            for (key, value) in attributes {
                switch key {
                case .font: if let f = value as? any StrataFontConvertible { a.font = f.strataFont }
                case .foregroundColor, .coreTextForegroundColor: if let c = Self.color(value) { a.foregroundColor = c }
                case .backgroundColor: a.backgroundColor = Self.color(value)
                case .kern: a.kern = Self.number(value) ?? 0
                case .baselineOffset: a.baselineOffset = Self.number(value) ?? 0
                case .underlineStyle:
                    if let n = Self.number(value), n != 0 { a.underline = TextDecoration(Self.decoration(Int(n))) }
                case .strikethroughStyle:
                    if let n = Self.number(value), n != 0 { a.strikethrough = TextDecoration(Self.decoration(Int(n))) }
                case .paragraphStyle:
                    if paragraph == nil {
                        paragraph = (value as? NSParagraphStyle) ?? (value as? CTParagraphStyle)?.paragraphStyle
                    }
                default: break
                }
            }
            if let c = attributes[.underlineColor].flatMap(Self.color) { a.underline?.color = c }
            if let c = attributes[.strikethroughColor].flatMap(Self.color) { a.strikethrough?.color = c }
            text.append(ns.substring(with: range), attributes: a)
        }
        self.text = text
        sourceBox = SourceBox(string.copy() as? NSAttributedString ?? NSAttributedString(attributedString: string))
        let p = paragraph ?? NSParagraphStyle()
        lineBreakMode = p.lineBreakMode
        style = ParagraphStyle(
            alignment: Self.alignment(p.alignment), lineSpacing: Double(p.lineSpacing), paragraphSpacing: Double(p.paragraphSpacing),
            truncation: Self.truncation(p.lineBreakMode),
            baseWritingDirection: p.baseWritingDirection == .rightToLeft
                ? .rightToLeft : p.baseWritingDirection == .leftToRight ? .leftToRight : .natural)
        utf16Offsets = Self.utf16Offsets(of: text.string)
        characters = Array(text.string)
    }

    /// Where each character of `string` starts in UTF-16 code units, and
    /// the total at the end.
    package static func utf16Offsets(of string: String) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(string.count + 1)
        var u = 0
        for c in string {
            offsets.append(u)
            u += c.utf16.count
        }
        offsets.append(u)
        return offsets
    }

    /// The character range (Strata's offsets) of a UTF-16 range, a length of
    /// 0 meaning to the end; held to the text.
    package func characters(_ range: CFRange) -> Range<Int> {
        let total = utf16Offsets.last ?? 0
        let start = Swift.min(Swift.max(0, range.location), total)
        let end = range.length <= 0 ? total : Swift.min(total, start + range.length)
        let lo = utf16Offsets.firstIndex { $0 >= start } ?? text.count
        let hi = utf16Offsets.firstIndex { $0 >= end } ?? text.count
        return Swift.min(lo, text.count)..<Swift.max(Swift.min(hi, text.count), Swift.min(lo, text.count))
    }

    /// The text of `range` (characters) alone.
    package func slice(_ range: Range<Int>) -> AttributedText {
        var out = AttributedText()
        for run in text.runs {
            let lo = Swift.max(run.range.lowerBound, range.lowerBound), hi = Swift.min(run.range.upperBound, range.upperBound)
            if lo < hi { out.append(String(characters[lo..<hi]), attributes: run.attributes) }
        }
        return out
    }

    package func utf16Range(_ characters: Range<Int>) -> CFRange {
        let lo = utf16Offsets[Swift.min(characters.lowerBound, utf16Offsets.count - 1)]
        let hi = utf16Offsets[Swift.min(characters.upperBound, utf16Offsets.count - 1)]
        return CFRange(location: lo, length: hi - lo)
    }

    static func color(_ value: Any) -> Color? {
        (value as? any StrataColorConvertible)?.strataCGColor.strata
    }

    static func number(_ value: Any) -> Double? {
        switch value {
        case let v as Double: v
        case let v as CGFloat: Double(v)
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as Int32: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    static func decoration(_ raw: Int) -> TextDecoration.Style {
        raw & 0x0F == 0x09 ? .double : raw & 0x02 != 0 ? .thick : .single
    }

    static func alignment(_ a: NSTextAlignment) -> TextAlignment {
        switch a {
        case .left: .left
        case .center: .center
        case .right: .right
        case .justified: .justified
        case .natural: .natural
        }
    }

    static func truncation(_ mode: NSLineBreakMode) -> TruncationMode {
        switch mode {
        case .byTruncatingHead: .head
        case .byTruncatingMiddle: .middle
        case .byTruncatingTail: .tail
        default: .none
        }
    }
}

/// An attributed string kept with converted text.
final class SourceBox: @unchecked Sendable {
    // @unchecked: an immutable copy, never changed, only read.
    let string: NSAttributedString
    init(_ string: NSAttributedString) { self.string = string }
}
