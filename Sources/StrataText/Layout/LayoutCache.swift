import StrataGraphics
import StrataQueues

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Layouts by text, attributes, width, height and paragraph style, bounded in
/// entries and approximate bytes, shared by every thread: the same text in the
/// same width is laid out once (as a feed caches its `CTFrame`s by the text's
/// hash). A hit costs a hash of the text and a lookup. When full, the oldest
/// layouts go first.
public final class LayoutCache: Sendable, CacheBounds {
    public static let shared = LayoutCache(maximumEntries: 2_000, maximumBytes: 16 << 20)

    struct Key: Hashable, Sendable {
        var text: AttributedText
        var width: UInt64
        var height: UInt64?
        var style: ParagraphStyle

        // The string is hashed and compared as its UTF-8 bytes, not as `String`
        // does (by canonical equivalence, which normalises non-ASCII text first:
        // 5.2 µs for the 1,505-byte benchmark paragraph, against 0.3 µs for the
        // bytes). Strings that are canonically equal but spelled differently
        // (a precomposed "é" and "e" + U+0301) are different keys, which is
        // right for a layout cache: their glyphs differ.
        static func == (a: Key, b: Key) -> Bool {
            a.width == b.width && a.height == b.height && a.style == b.style && a.text.runs == b.text.runs
                && Key.sameBytes(a.text.string, b.text.string)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(width)
            hasher.combine(height)
            hasher.combine(style)
            hasher.combine(text.runs)
            var string = text.string
            string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        static func sameBytes(_ a: String, _ b: String) -> Bool {
            var a = a, b = b
            return a.withUTF8 { x in
                b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
            }
        }
    }

    /// The most layouts kept (at least 1).
    public var maximumEntries: Int { cache.maximumEntries }
    /// The most bytes kept, by `estimate` (at least 1).
    public var maximumBytes: Int { cache.maximumBytes }
    private let cache: BoundedCache<Key, TextLayout>

    /// An empty cache; bounds below 1 count as 1.
    public init(maximumEntries: Int, maximumBytes: Int) {
        cache = BoundedCache(maximumEntries: maximumEntries, maximumBytes: maximumBytes)
    }

    /// Entries and approximate bytes held now.
    public var usage: (entries: Int, bytes: Int) { cache.usage }

    /// The layout of `text` in `width`, from the cache or made (and kept) now.
    public func layout(
        _ text: AttributedText, width: Double, height: Double? = nil,
        style: ParagraphStyle = ParagraphStyle()
    ) -> TextLayout {
        let key = Key(text: text, width: width.bitPattern, height: height?.bitPattern, style: style)
        return cache.value(
            for: key, orMake: { TextLayout(text, width: width, height: height, style: style) },
            bytes: LayoutCache.estimate)
    }

    /// Drops every layout.
    public func removeAll() { cache.removeAll() }

    /// About what a layout holds: its text and, per glyph, an id, a position and
    /// a character index, and the line masks its drawings keep.
    static func estimate(_ layout: TextLayout) -> Int {
        var glyphs = 0
        for line in layout.lines { for run in line.runs { glyphs += run.glyphs.count } }
        // Plus room for the composed line masks a drawing keeps (two phases of
        // about one byte a pixel).
        let masks = layout.size.width.isFinite ? Int(min(4_000_000, layout.size.width * layout.size.height)) * 2 : 0
        return 256 + layout.text.string.utf8.count * 2 + layout.lines.count * 96 + glyphs * 28 + masks
    }
}
