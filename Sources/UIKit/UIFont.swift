public import CoreGraphics
package import CoreText
package import StrataText

/// A font at a size (`UIFont`), found through fontconfig. The system font is
/// the generic sans-serif family; a named font that is not installed falls
/// back to the nearest installed one (UIKit would return nil: here a port's
/// `UIFont(name:size:)!` keeps working).
open class UIFont: @unchecked Sendable, Hashable {
    // @unchecked: every stored property is a `let` of a Sendable type.

    /// The font as Strata's text engine takes it.
    package let font: Font
    /// The name it was asked for.
    public let fontName: String

    package init(font: Font, name: String) {
        self.font = font
        fontName = name
    }

    /// The font named `fontName` (a PostScript name such as
    /// "Helvetica-Bold", or a family name) at `size` points.
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        self.init(font: Font(name: fontName, size: Double(fontSize)), name: fontName)
    }

    public var pointSize: CGFloat { CGFloat(font.size) }
    public var familyName: String { font.primaryFace?.familyName ?? font.family }
    public var ascender: CGFloat { CGFloat(font.ascent) }
    /// Negative, as in UIKit (the distance below the baseline).
    public var descender: CGFloat { -CGFloat(font.descent) }
    public var leading: CGFloat { CGFloat(font.leading) }
    public var lineHeight: CGFloat { CGFloat(font.lineHeight) }
    public var capHeight: CGFloat { CGFloat(font.capHeight) }
    public var xHeight: CGFloat { CGFloat(font.xHeight) }

    /// The same font at `fontSize` points.
    open func withSize(_ fontSize: CGFloat) -> UIFont {
        var f = font
        f.size = Double(fontSize)
        return UIFont(font: f, name: fontName)
    }

    /// The font as Core Text takes it.
    public var ctFont: CTFont { CTFont(font) }

    public static func == (a: UIFont, b: UIFont) -> Bool { a.font == b.font }
    public func hash(into hasher: inout Hasher) { hasher.combine(font) }

    // MARK: System fonts

    /// A font's weight (`UIFont.Weight`), by UIKit's values (-1 to 1).
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)

        var strata: FontWeight {
            switch rawValue {
            case ..<(-0.7): FontWeight(200)
            case ..<(-0.5): .thin
            case ..<(-0.2): .light
            case ..<(0.1): .regular
            case ..<(0.26): .medium
            case ..<(0.35): .semibold
            case ..<(0.5): .bold
            case ..<(0.6): FontWeight(800)
            default: .black
            }
        }
    }

    open class func systemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .regular) }

    open class func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(font: Font(size: Double(fontSize), weight: weight.strata), name: ".SFUI-Regular")
    }

    open class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .bold) }

    open class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(font: Font(size: Double(fontSize), italic: true), name: ".SFUI-Italic")
    }

    /// The monospaced family at `fontSize`.
    open class func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(font: Font(family: "monospace", size: Double(fontSize), weight: weight.strata), name: ".SFMono-Regular")
    }

    /// The system font (its digits are already of equal width in the
    /// fonts Debian installs).
    open class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }

    /// The size UIKit gives labels by default.
    open class var labelFontSize: CGFloat { 17 }
    open class var systemFontSize: CGFloat { 14 }
    open class var smallSystemFontSize: CGFloat { 12 }
    open class var buttonFontSize: CGFloat { 18 }

    /// A text style's font at the default Dynamic Type size (`large`).
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")
    }

    open class func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        switch style {
        case .largeTitle: systemFont(ofSize: 34)
        case .title1: systemFont(ofSize: 28)
        case .title2: systemFont(ofSize: 22)
        case .title3: systemFont(ofSize: 20)
        case .headline: systemFont(ofSize: 17, weight: .semibold)
        case .subheadline: systemFont(ofSize: 15)
        case .callout: systemFont(ofSize: 16)
        case .footnote: systemFont(ofSize: 13)
        case .caption1: systemFont(ofSize: 12)
        case .caption2: systemFont(ofSize: 11)
        default: systemFont(ofSize: 17)
        }
    }
}

extension UIFont: StrataFontConvertible {
    package var strataFont: Font { font }
}
