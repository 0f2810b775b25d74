/// A weight on the CSS / OpenType scale, 100 (thin) to 900 (black).
public struct FontWeight: Sendable, Hashable, Comparable {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = min(1000, max(1, rawValue)) }
    public static let thin = FontWeight(100)
    public static let light = FontWeight(300)
    public static let regular = FontWeight(400)
    public static let medium = FontWeight(500)
    public static let semibold = FontWeight(600)
    public static let bold = FontWeight(700)
    public static let black = FontWeight(900)
    public static func < (a: FontWeight, b: FontWeight) -> Bool { a.rawValue < b.rawValue }
}

/// A font at a size (`CTFont`): a family, weight and slant found through
/// fontconfig, with a fallback chain for characters its face lacks.
///
/// `Font` is a small `Sendable` value; the faces behind it are opened once and
/// shared. Metrics are in points (pixels at scale 1), y growing down.
///
/// ### Basic usage
/// ```swift
/// let font = Font(family: "DejaVu Sans", size: 16)
/// print(font.ascent, font.descent, font.lineHeight)
/// ```
public struct Font: Sendable, Hashable {
    public var family: String
    /// The size in points: held within `sizeRange`; a size that is not
    /// positive and finite counts as 12.
    public var size: Double { didSet { size = Self.held(size) } }
    public var weight: FontWeight
    public var italic: Bool
    /// Families tried, in order, for characters the font's own face lacks,
    /// before the fallbacks fontconfig offers (the cascade list of a
    /// `UIFontDescriptor`). Only installed families count: a name fontconfig
    /// does not know is skipped, never replaced by its nearest match. Name the
    /// faces a result depends on, and it no longer changes with whichever
    /// other fonts a machine happens to have.
    public var cascadeList: [String]

    /// A font by family name (any name fontconfig knows, including the generic
    /// `sans-serif`, `serif` and `monospace`). A family that is not installed
    /// resolves to fontconfig's nearest match, as `CTFont` falls back. A size that
    /// is not positive and finite counts as 12; others are held within
    /// `sizeRange`. `cascadeList` names the families to try first for
    /// characters the font lacks.
    public init(
        family: String = "sans-serif", size: Double, weight: FontWeight = .regular, italic: Bool = false,
        cascadeList: [String] = []
    ) {
        self.family = family
        self.size = Self.held(size)
        self.weight = weight
        self.italic = italic
        self.cascadeList = cascadeList
    }

    /// The sizes a font may have, in points: from a hundredth of a point
    /// (nothing smaller draws a pixel at any sensible scale) to 16,384 (the
    /// largest bitmap side; larger glyphs could never be seen whole).
    public static let sizeRange = 0.01...16_384.0

    /// `size` within `sizeRange`; 12 when it is not positive and finite.
    static func held(_ size: Double) -> Double {
        size > 0 && size.isFinite ? Swift.max(sizeRange.lowerBound, Swift.min(sizeRange.upperBound, size)) : 12
    }

    /// The faces for this font, best first: its own, then the cascade list's,
    /// then fontconfig's fallbacks.
    public var faces: [FontFace] {
        FontLibrary.shared.faces(family: family, weight: weight, italic: italic, cascadeList: cascadeList)
    }

    /// The face this font draws with when it has the glyph.
    public var primaryFace: FontFace? { faces.first }

    private var scale: Double {
        guard let face = primaryFace else { return 0 }
        return size / face.unitsPerEm
    }

    public var ascent: Double { (primaryFace?.ascender ?? 0) * scale }
    public var descent: Double { (primaryFace?.descender ?? 0) * scale }
    /// The line gap: line height less ascent and descent.
    public var leading: Double { max(0, lineHeight - ascent - descent) }
    public var lineHeight: Double { (primaryFace?.lineHeight ?? 0) * scale }
    public var capHeight: Double { (primaryFace?.capHeight ?? 0) * scale }
    public var xHeight: Double { (primaryFace?.xHeight ?? 0) * scale }
    public var unitsPerEm: Double { primaryFace?.unitsPerEm ?? 0 }

    /// The face that draws `scalar`: the first in the chain that has it, or the
    /// primary face (whose missing-glyph box then stands in), with its glyph.
    public func face(for scalar: Unicode.Scalar) -> (face: FontFace, glyph: UInt32)? {
        let chain = faces
        for face in chain {
            if let g = face.glyph(for: scalar) { return (face, g) }
        }
        guard let primary = chain.first else { return nil }
        return (primary, 0)
    }
}
