public import Foundation
package import StrataText

/// What can stand for a font in an attributed string's `.font` or a text
/// layer's `font`: a `CGFont`, a `CTFont`, or UIKit's `UIFont`.
package protocol StrataFontConvertible {
    var strataFont: Font { get }
}

/// What can stand for a colour in `.foregroundColor` and the like: a
/// `CGColor`, or UIKit's `UIColor`.
package protocol StrataColorConvertible {
    var strataCGColor: CGColor { get }
}

extension CGColor: StrataColorConvertible {
    package var strataCGColor: CGColor { self }
}

extension Font {
    /// The font a PostScript or family name means: "Helvetica-Bold",
    /// "Menlo-Italic", "Avenir Next", ".SFUI-Regular" (Apple's system font,
    /// which is the generic sans-serif here). Weight and slant are read from
    /// the name's style suffix.
    package init(name: String, size: Double) {
        var family = name
        var weight = FontWeight.regular
        var italic = false
        if let dash = name.lastIndex(of: "-") {
            let style = name[name.index(after: dash)...].lowercased()
            let styles: [(String, FontWeight)] = [
                ("ultralight", .thin), ("thin", .thin), ("light", .light), ("regular", .regular), ("roman", .regular),
                ("medium", .medium), ("semibold", .semibold), ("demibold", .semibold), ("bold", .bold), ("heavy", .black),
                ("black", .black),
            ]
            var matched = false
            for (word, w) in styles where style.hasPrefix(word) {
                weight = w
                matched = true
                break
            }
            if style.contains("italic") || style.contains("oblique") {
                italic = true
                matched = true
            }
            if matched { family = String(name[..<dash]) }
        }
        if family.hasPrefix(".") || family.lowercased().hasPrefix("systemfont") || family == "SF Pro" || family == "San Francisco" {
            family = "sans-serif"
        }
        self.init(family: family, size: size, weight: weight, italic: italic)
    }
}

/// A font face by name (`CGFont`), without a size: a Strata `Font` at
/// 12 points, found through fontconfig.
public final class CGFont: Sendable {
    package let font: Font

    /// The font named `name` (a PostScript or family name); a name that is
    /// not installed resolves to fontconfig's nearest match, so this is
    /// never nil here.
    public init?(_ name: CFString) {
        font = Font(name: name as String, size: 12)
    }

    /// The family name of the face the name resolved to.
    public var fullName: CFString? { NSString(string: font.primaryFace?.familyName ?? font.family) }
    public var postScriptName: CFString? { NSString(string: font.family) }
    public var unitsPerEm: Int32 { Int32(font.unitsPerEm) }
    /// In glyph units, as Core Graphics gives them.
    public var ascent: Int32 { Int32((font.primaryFace?.ascender ?? 0).rounded()) }
    public var descent: Int32 { -Int32((font.primaryFace?.descender ?? 0).rounded()) }
}

extension CGFont: StrataFontConvertible {
    package var strataFont: Font { font }
}
