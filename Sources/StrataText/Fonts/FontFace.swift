internal import CFreeType
import StrataGraphics

/// One face of one font file, with everything layout and drawing need read out
/// of FreeType once and kept as Swift values: metrics, and per glyph its outline
/// (in font units, y down) and advance. Immutable apart from its caches, which a
/// lock guards, so a face can be shared by every thread.
public final class FontFace: Sendable {
    /// The file and the face's index in it (collections, `.ttc`, hold several).
    public let path: String
    public let index: Int
    public let familyName: String
    public let styleName: String
    public let unitsPerEm: Double
    /// Above the baseline, in font units (positive).
    public let ascender: Double
    /// Below the baseline, in font units (positive).
    public let descender: Double
    /// Ascender + descender + line gap, in font units.
    public let lineHeight: Double
    public let capHeight: Double
    public let xHeight: Double
    /// Whether the face has a kerning table FreeType reads.
    let hasKerning: Bool
    /// Whether the face's glyphs are colour bitmaps (CBDT or sbix strikes,
    /// as Noto Color Emoji's are) rather than outlines: they draw in their own
    /// colours, scaled from the largest strike to the text's size.
    public let hasColorBitmaps: Bool

    let library: FontLibrary

    init(path: String, index: Int, library: FontLibrary, metrics: FaceMetrics) {
        self.path = path
        self.index = index
        self.library = library
        familyName = metrics.family
        styleName = metrics.style
        unitsPerEm = metrics.unitsPerEm
        ascender = metrics.ascender
        descender = metrics.descender
        lineHeight = metrics.lineHeight
        capHeight = metrics.capHeight
        xHeight = metrics.xHeight
        hasKerning = metrics.hasKerning
        hasColorBitmaps = metrics.hasColorBitmaps
    }

    /// The glyph for `scalar`, or nil when the face has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        library.glyphIndex(self, scalar)
    }

    /// The glyph's outline and advance, in font units with y growing down.
    public func glyphData(_ glyph: UInt32) -> GlyphData {
        library.glyphData(self, glyph)
    }

    /// The kerning between two glyphs, in font units (legacy `kern` table).
    public func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        library.kerning(self, left, right)
    }
}

/// What a face knows of one glyph.
public struct GlyphData: Sendable {
    /// The outline in font units, y growing down, origin on the baseline.
    public let path: Path
    /// The horizontal advance in font units.
    public let advance: Double
}

struct FaceMetrics {
    var family: String
    var style: String
    var unitsPerEm: Double
    var ascender: Double
    var descender: Double
    var lineHeight: Double
    var capHeight: Double
    var xHeight: Double
    var hasKerning: Bool
    var hasColorBitmaps: Bool
}
