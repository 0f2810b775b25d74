public import Foundation

// The attribute names Core Text and UIKit read, by Apple's raw values (one
// definition for both modules: UIKit re-exports this one).
extension NSAttributedString.Key {
    /// A `UIFont` or `CTFont`; Helvetica 12 when absent.
    public static let font = NSAttributedString.Key("NSFont")
    /// A `UIColor` or `CGColor`; black when absent.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// A `UIColor` or `CGColor` filled behind the text (string drawing).
    public static let backgroundColor = NSAttributedString.Key("NSBackgroundColor")
    /// An `NSParagraphStyle`: alignment, line breaking and spacing.
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
    /// Extra space after each character, in points (a number).
    public static let kern = NSAttributedString.Key("NSKern")
    /// Points the baseline is raised by (a number).
    public static let baselineOffset = NSAttributedString.Key("NSBaselineOffset")
    /// An `NSUnderlineStyle` raw value (a number).
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
    /// An `NSUnderlineStyle` raw value (a number).
    public static let strikethroughStyle = NSAttributedString.Key("NSStrikethrough")
    /// The colour of the underline (`UIColor` or `CGColor`).
    public static let underlineColor = NSAttributedString.Key("NSUnderlineColor")
    /// The colour of the strikethrough (`UIColor` or `CGColor`).
    public static let strikethroughColor = NSAttributedString.Key("NSStrikethroughColor")
    /// A link (`URL` or `String`).
    public static let link = NSAttributedString.Key("NSLink")
}

/// How lines are underlined or struck through (`NSUnderlineStyle`).
public struct NSUnderlineStyle: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let single = NSUnderlineStyle(rawValue: 0x01)
    public static let thick = NSUnderlineStyle(rawValue: 0x02)
    public static let double = NSUnderlineStyle(rawValue: 0x09)
}

/// How a paragraph's lines are aligned (`NSTextAlignment`, by UIKit's values).
public enum NSTextAlignment: Int, Sendable {
    case left = 0
    case center = 1
    case right = 2
    case justified = 3
    /// Left for left-to-right text, right for right-to-left.
    case natural = 4
}

/// What happens to text that does not fit (`NSLineBreakMode`).
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0
    case byCharWrapping = 1
    case byClipping = 2
    case byTruncatingHead = 3
    case byTruncatingTail = 4
    case byTruncatingMiddle = 5
}

/// The direction text is written in (`NSWritingDirection`).
public enum NSWritingDirection: Int, Sendable {
    case natural = -1
    case leftToRight = 0
    case rightToLeft = 1
}

/// A paragraph's layout (`NSParagraphStyle`): immutable; make an
/// `NSMutableParagraphStyle` to set values.
open class NSParagraphStyle: @unchecked Sendable {
    // @unchecked: the values of an `NSParagraphStyle` never change; only the
    // `NSMutableParagraphStyle` subclass, which is not `Sendable`, has setters
    // (as in Foundation, where the immutable class is thread-safe).
    public internal(set) var alignment: NSTextAlignment = .natural
    public internal(set) var lineBreakMode: NSLineBreakMode = .byWordWrapping
    /// Extra points between lines.
    public internal(set) var lineSpacing: CGFloat = 0
    /// Extra points after each paragraph.
    public internal(set) var paragraphSpacing: CGFloat = 0
    public internal(set) var paragraphSpacingBefore: CGFloat = 0
    public internal(set) var lineHeightMultiple: CGFloat = 0
    public internal(set) var minimumLineHeight: CGFloat = 0
    public internal(set) var maximumLineHeight: CGFloat = 0
    public internal(set) var firstLineHeadIndent: CGFloat = 0
    public internal(set) var headIndent: CGFloat = 0
    public internal(set) var tailIndent: CGFloat = 0
    public internal(set) var baseWritingDirection: NSWritingDirection = .natural

    public init() {}

    /// The default style: natural alignment, word wrapping, no spacing.
    public static var `default`: NSParagraphStyle { NSParagraphStyle() }

    /// A mutable copy (an `NSMutableParagraphStyle`, as `Any` as in Foundation).
    public func mutableCopy() -> Any {
        let m = NSMutableParagraphStyle()
        m.setParagraphStyle(self)
        return m
    }

    /// A copy (`Any`, as in Foundation).
    public func copy() -> Any { mutableCopy() }
}

/// A paragraph style whose values can be set (`NSMutableParagraphStyle`).
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    // @unchecked: Swift requires a subclass of a Sendable class to say so;
    // this one is mutable and must stay on one thread, as in Foundation.
    public override var alignment: NSTextAlignment {
        get { super.alignment }
        set { super.alignment = newValue }
    }
    public override var lineBreakMode: NSLineBreakMode {
        get { super.lineBreakMode }
        set { super.lineBreakMode = newValue }
    }
    public override var lineSpacing: CGFloat {
        get { super.lineSpacing }
        set { super.lineSpacing = newValue }
    }
    public override var paragraphSpacing: CGFloat {
        get { super.paragraphSpacing }
        set { super.paragraphSpacing = newValue }
    }
    public override var paragraphSpacingBefore: CGFloat {
        get { super.paragraphSpacingBefore }
        set { super.paragraphSpacingBefore = newValue }
    }
    public override var lineHeightMultiple: CGFloat {
        get { super.lineHeightMultiple }
        set { super.lineHeightMultiple = newValue }
    }
    public override var minimumLineHeight: CGFloat {
        get { super.minimumLineHeight }
        set { super.minimumLineHeight = newValue }
    }
    public override var maximumLineHeight: CGFloat {
        get { super.maximumLineHeight }
        set { super.maximumLineHeight = newValue }
    }
    public override var firstLineHeadIndent: CGFloat {
        get { super.firstLineHeadIndent }
        set { super.firstLineHeadIndent = newValue }
    }
    public override var headIndent: CGFloat {
        get { super.headIndent }
        set { super.headIndent = newValue }
    }
    public override var tailIndent: CGFloat {
        get { super.tailIndent }
        set { super.tailIndent = newValue }
    }
    public override var baseWritingDirection: NSWritingDirection {
        get { super.baseWritingDirection }
        set { super.baseWritingDirection = newValue }
    }

    /// Takes every value of `other`.
    public func setParagraphStyle(_ other: NSParagraphStyle) {
        alignment = other.alignment
        lineBreakMode = other.lineBreakMode
        lineSpacing = other.lineSpacing
        paragraphSpacing = other.paragraphSpacing
        paragraphSpacingBefore = other.paragraphSpacingBefore
        lineHeightMultiple = other.lineHeightMultiple
        minimumLineHeight = other.minimumLineHeight
        maximumLineHeight = other.maximumLineHeight
        firstLineHeadIndent = other.firstLineHeadIndent
        headIndent = other.headIndent
        tailIndent = other.tailIndent
        baseWritingDirection = other.baseWritingDirection
    }
}
