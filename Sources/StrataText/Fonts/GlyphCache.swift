import StrataGraphics
import StrataQueues

/// Glyph coverage masks by face, glyph, size and sub-pixel offset, bounded in
/// bytes and entries, shared by every thread (a lock guards it; a hit is a hash
/// and a lookup). When full, the oldest masks go first.
public final class GlyphCache: Sendable, CacheBounds {
    /// The cache text drawing uses.
    public static let shared = GlyphCache(maximumEntries: 20_000, maximumBytes: 8 << 20)

    /// Horizontal positions are rounded to this many steps per pixel.
    public static let subpixelSteps = 4

    struct Key: Hashable, Sendable {
        /// Faces are unique objects per file and index (FontLibrary opens each
        /// once), so their identity stands for them: no string hashing per glyph.
        var face: ObjectIdentifier
        var glyph: UInt32
        var size: UInt64  // the size's bit pattern
        var subpixel: Int
    }

    /// The most masks kept (at least 1).
    public var maximumEntries: Int { cache.maximumEntries }
    /// The most bytes of masks kept (at least 1).
    public var maximumBytes: Int { cache.maximumBytes }
    private let cache: BoundedCache<Key, CoverageMask>

    /// An empty cache; bounds below 1 count as 1.
    public init(maximumEntries: Int, maximumBytes: Int) {
        cache = BoundedCache(maximumEntries: maximumEntries, maximumBytes: maximumBytes)
    }

    /// Entries and bytes held now.
    public var usage: (entries: Int, bytes: Int) { cache.usage }

    /// The most pixels a side of a glyph mask may have. A glyph is as large as
    /// its outline scaled to the size, whatever the size: a face whose
    /// `unitsPerEm` is small (16 is legal) makes glyphs dozens of times the point
    /// size, and masks at size 300 of such a face took 1.7 GB. Glyphs over this
    /// are drawn from their outlines.
    public static let maximumMaskSide = 512

    /// The mask of `glyph` of `face` at `size` pixels, shifted right by
    /// `subpixel / subpixelSteps` of a pixel, rendered on first use; nil when
    /// the glyph is larger than `maximumMaskSide` pixels a side (draw its
    /// outline instead).
    public func mask(face: FontFace, glyph: UInt32, size: Double, subpixel: Int) -> CoverageMask? {
        let key = Key(face: ObjectIdentifier(face), glyph: glyph, size: size.bitPattern, subpixel: subpixel)
        if let hit = cache.value(for: key) { return hit }
        let data = face.glyphData(glyph)
        let scale = size / face.unitsPerEm
        let bounds = data.path.boundingBox
        let side = Double(GlyphCache.maximumMaskSide)
        guard scale.isFinite, bounds.isNull || (bounds.width * scale <= side && bounds.height * scale <= side) else { return nil }
        let shift = Double(subpixel) / Double(GlyphCache.subpixelSteps)
        let mask = CoverageMask(path: data.path, transform: Transform(a: scale, b: 0, c: 0, d: scale, tx: shift, ty: 0))
        cache.insert(mask, for: key, bytes: mask.byteCount)
        return mask
    }

    /// The masks of many glyphs of one face and size, with one lock for all the
    /// hits; misses are rendered outside the lock. Nil for glyphs too large for
    /// a mask.
    public func masks(face: FontFace, size: Double, glyphs: [(glyph: UInt32, subpixel: Int)]) -> [CoverageMask?] {
        let id = ObjectIdentifier(face), bits = size.bitPattern
        var found = cache.values(for: glyphs.lazy.map { Key(face: id, glyph: $0.glyph, size: bits, subpixel: $0.subpixel) })
        for i in found.indices where found[i] == nil {
            found[i] = mask(face: face, glyph: glyphs[i].glyph, size: size, subpixel: glyphs[i].subpixel)
        }
        return found
    }

    /// Drops every mask.
    public func removeAll() { cache.removeAll() }
}

/// A colour glyph (an emoji) at a device size: premultiplied pixels, placed
/// with its top left at (`left`, `top`) from the glyph's origin on the
/// baseline, in device pixels.
public struct ColorGlyph: Sendable {
    public let image: Image
    public let left: Int
    public let top: Int
}

/// Colour glyphs scaled to the sizes they are drawn at, by face, glyph, size
/// and sub-pixel offset, bounded in bytes and entries like `GlyphCache`.
/// Each is scaled once from the face's largest strike with the mipmapped
/// bicubic filter (`InterpolationQuality.high`), so a 109-pixel emoji
/// strike drawn at 16 pixels keeps its detail without aliasing.
public final class ColorGlyphCache: Sendable, CacheBounds {
    /// The cache text drawing uses.
    public static let shared = ColorGlyphCache(maximumEntries: 4_000, maximumBytes: 16 << 20)

    private let cache: BoundedCache<GlyphCache.Key, ColorGlyph?>

    /// The most glyphs kept (at least 1).
    public var maximumEntries: Int { cache.maximumEntries }
    /// The most bytes of glyphs kept (at least 1).
    public var maximumBytes: Int { cache.maximumBytes }

    /// An empty cache; bounds below 1 count as 1.
    public init(maximumEntries: Int, maximumBytes: Int) {
        cache = BoundedCache(maximumEntries: maximumEntries, maximumBytes: maximumBytes)
    }

    /// Entries and bytes held now.
    public var usage: (entries: Int, bytes: Int) { cache.usage }

    /// `glyph` of the colour bitmap face `face` at `size` device pixels,
    /// shifted right by `subpixel / GlyphCache.subpixelSteps` of a pixel; nil
    /// when the face has no bitmap for it, or the size is not positive or
    /// over 1024 pixels.
    public func glyph(face: FontFace, glyph: UInt32, size: Double, subpixel: Int) -> ColorGlyph? {
        let key = GlyphCache.Key(face: ObjectIdentifier(face), glyph: glyph, size: size.bitPattern, subpixel: subpixel)
        if let hit = cache.value(for: key) { return hit }
        let made = ColorGlyphCache.make(face: face, glyph: glyph, size: size, subpixel: subpixel)
        cache.insert(made, for: key, bytes: 64 + (made?.image.pixels.count ?? 0))
        return made
    }

    static func make(face: FontFace, glyph: UInt32, size: Double, subpixel: Int) -> ColorGlyph? {
        guard face.hasColorBitmaps, size.isFinite, size > 0, size <= 1024,
            let strike = face.library.colorBitmap(face, glyph), strike.ppem > 0
        else { return nil }
        let scale = size / strike.ppem
        let shift = Double(subpixel) / Double(GlyphCache.subpixelSteps)
        let x0 = shift + strike.left * scale, y0 = -strike.top * scale
        let x1 = x0 + Double(strike.image.width) * scale, y1 = y0 + Double(strike.image.height) * scale
        let left = Int(x0.rounded(.down)), top = Int(y0.rounded(.down))
        let width = Int(x1.rounded(.up)) - left, height = Int(y1.rounded(.up)) - top
        guard width > 0, height > 0, let canvas = try? Canvas(width: width, height: height) else { return nil }
        canvas.interpolationQuality = .high
        canvas.draw(
            strike.image,
            in: Rect(x: x0 - Double(left), y: y0 - Double(top), width: x1 - x0, height: y1 - y0))
        return ColorGlyph(image: canvas.makeImage(), left: left, top: top)
    }

    /// Drops every glyph.
    public func removeAll() { cache.removeAll() }
}
