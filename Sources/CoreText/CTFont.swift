public import CoreGraphics
public import Foundation
package import StrataText

/// A font at a size (`CTFont`): a Strata `Font`, found through fontconfig.
/// A family that is not installed falls back to the nearest one fontconfig
/// knows, as Core Text's fallback does.
public final class CTFont: Sendable, Hashable {
    /// The font as Strata's text engine takes it.
    package let font: Font

    package init(_ font: Font) { self.font = font }

    public static func == (a: CTFont, b: CTFont) -> Bool { a.font == b.font }
    public func hash(into hasher: inout Hasher) { hasher.combine(font) }
}

/// A font by PostScript or family name at `size` points (12 for 0 or less,
/// as in Core Text); `matrix` is ignored.
public func CTFontCreateWithName(_ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    CTFont(Font(name: name as String, size: size > 0 ? Double(size) : 12))
}

/// `font` at another size (its own for 0), and with `attributes` ignored.
public func CTFontCreateCopyWithAttributes(
    _ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?, _ attributes: Any?
) -> CTFont {
    var f = font.font
    if size > 0 { f.size = Double(size) }
    return CTFont(f)
}

public func CTFontGetSize(_ font: CTFont) -> CGFloat { CGFloat(font.font.size) }
public func CTFontGetAscent(_ font: CTFont) -> CGFloat { CGFloat(font.font.ascent) }
public func CTFontGetDescent(_ font: CTFont) -> CGFloat { CGFloat(font.font.descent) }
public func CTFontGetLeading(_ font: CTFont) -> CGFloat { CGFloat(font.font.leading) }
public func CTFontGetCapHeight(_ font: CTFont) -> CGFloat { CGFloat(font.font.capHeight) }
public func CTFontGetXHeight(_ font: CTFont) -> CGFloat { CGFloat(font.font.xHeight) }
public func CTFontGetUnitsPerEm(_ font: CTFont) -> UInt32 { UInt32(font.font.unitsPerEm) }
/// The family name of the face the font resolved to.
public func CTFontCopyFamilyName(_ font: CTFont) -> CFString {
    NSString(string: font.font.primaryFace?.familyName ?? font.font.family)
}

extension CTFont: StrataFontConvertible {
    package var strataFont: Font { font }
}
