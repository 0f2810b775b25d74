internal import CHarfBuzz
import StrataGraphics
import StrataQueues

/// An OpenType feature setting for shaping: a four-letter tag and a value
/// (`FontFeature("liga", 0)` turns standard ligatures off, `("tnum", 1)`
/// asks for tabular figures).
public struct FontFeature: Sendable, Hashable {
    public var tag: String
    public var value: UInt32

    public init(_ tag: String, _ value: UInt32 = 1) {
        self.tag = tag
        self.value = value
    }
}

extension FontFeature {
    /// The setting for the whole buffer, or nil when the tag is not four bytes.
    var harfBuzzFeature: hb_feature_t? {
        let bytes = Array(tag.utf8)
        guard bytes.count == 4 else { return nil }
        return hb_feature_t(tag: Itemizer.tag(tag), value: value, start: 0, end: UInt32.max)
    }
}

/// The direction a run of text is set in.
public enum TextDirection: Sendable, Hashable { case leftToRight, rightToLeft }

/// One glyph of a shaped run, in visual order (left to right, whatever the
/// direction): its glyph, the byte offset in the run's UTF-8 of the first
/// character of its cluster, its advance and its offset from the pen, in
/// font units (y up, as OpenType gives them).
public struct ShapedGlyph: Sendable, Hashable {
    public var glyph: UInt32
    public var cluster: Int
    public var advance: Double
    public var offset: Point
}

/// Shaping with HarfBuzz: a run of text in one face,
/// script and direction becomes glyphs with their positions, with the face's
/// OpenType features applied (kerning, ligatures, marks on their bases,
/// contextual forms).
///
/// HarfBuzz reads the font file itself (its own face and font objects, made
/// once per face and kept, immutable and so safe to share between threads);
/// positions come back in font units.
public enum TextShaper {
    /// Shapes `text` in `face`. `script` is an ISO 15924 tag ("Latn",
    /// "Arab"); nil lets HarfBuzz guess from the text, as it does the
    /// direction when `direction` is nil. `language` is a BCP 47 tag.
    ///
    /// A character (grapheme cluster) of more than 256 Unicode scalars, a
    /// base with hundreds of combining marks that no text has, is shaped in
    /// pieces of 256 scalars, the text around it on its own, all in the
    /// direction and script HarfBuzz takes for the whole run: its time on
    /// one cluster grows with the square of its marks. Every scalar keeps its
    /// glyph, in the character's cluster; the pieces after the first get no
    /// dotted circles. (HarfBuzz sees five characters of context either
    /// side, so letters do not join across such a character.)
    public static func shape(
        _ text: String, face: FontFace, direction: TextDirection? = nil, script: String? = nil, language: String? = nil,
        features: [FontFeature] = []
    ) -> [ShapedGlyph] {
        guard !text.isEmpty, let font = HarfBuzzFonts.shared.font(for: face) else { return [] }
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        var utf8 = Array(text.utf8)
        let pieces = TextShaper.pieces(text)
        var settings = features.compactMap(\.harfBuzzFeature)
        var resolvedDirection = direction.map { $0 == .leftToRight ? HB_DIRECTION_LTR : HB_DIRECTION_RTL }
        var resolvedScript = script.map { hb_script_from_string($0, Int32($0.utf8.count)) }
        if pieces.count > 1 && (resolvedDirection == nil || resolvedScript == nil) {
            // The direction and script HarfBuzz would take for the whole run,
            // for every piece (a piece of marks alone has none of its own).
            utf8.withUnsafeMutableBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                    hb_buffer_add_utf8(buffer, p, Int32(b.count), 0, Int32(b.count))
                }
            }
            if let resolvedDirection { hb_buffer_set_direction(buffer, resolvedDirection) }
            if let resolvedScript { hb_buffer_set_script(buffer, resolvedScript) }
            hb_buffer_guess_segment_properties(buffer)
            resolvedDirection = hb_buffer_get_direction(buffer)
            resolvedScript = hb_buffer_get_script(buffer)
        }
        var shaped: [[ShapedGlyph]] = []
        for piece in pieces {
            hb_buffer_clear_contents(buffer)
            utf8.withUnsafeMutableBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                    hb_buffer_add_utf8(buffer, p, Int32(b.count), UInt32(piece.range.lowerBound), Int32(piece.range.count))
                }
            }
            if let resolvedDirection { hb_buffer_set_direction(buffer, resolvedDirection) }
            if let resolvedScript { hb_buffer_set_script(buffer, resolvedScript) }
            if let language { hb_buffer_set_language(buffer, hb_language_from_string(language, Int32(language.utf8.count))) }
            if piece.continuesCharacter {
                hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE.rawValue))
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(font, buffer, &settings, UInt32(settings.count))
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                let positions = hb_buffer_get_glyph_positions(buffer, &count)
            else { continue }
            shaped.append(
                (0..<Int(count)).map { i in
                    ShapedGlyph(
                        glyph: infos[i].codepoint, cluster: piece.character ?? Int(infos[i].cluster),
                        advance: Double(positions[i].x_advance),
                        offset: Point(x: Double(positions[i].x_offset), y: Double(positions[i].y_offset)))
                })
        }
        // Visual order: a right-to-left run's later pieces are to the left.
        if resolvedDirection == HB_DIRECTION_RTL { shaped.reverse() }
        return shaped.flatMap { $0 }
    }

    /// The most Unicode scalars of one character shaped in one call.
    static let maxShapedClusterScalars = 256

    /// A stretch of the run's UTF-8 shaped in one call; `character`, for one
    /// that begins inside an over-long character, is where that character
    /// begins (its glyphs' cluster).
    struct Piece {
        var range: Range<Int>
        var character: Int? = nil

        var continuesCharacter: Bool { character != nil }
    }

    /// The run as one piece, or, around characters of more than
    /// `maxShapedClusterScalars` scalars, the text between them and each such
    /// character in pieces of that many scalars.
    static func pieces(_ text: String) -> [Piece] {
        let total = text.utf8.count
        // No character can be that long in so few bytes.
        guard total > maxShapedClusterScalars else { return [Piece(range: 0..<total)] }
        var pieces: [Piece] = []
        var start = 0, offset = 0
        for character in text {
            let scalars = character.unicodeScalars
            let length = character.utf8.count
            if scalars.count > maxShapedClusterScalars {
                if offset > start { pieces.append(Piece(range: start..<offset)) }
                let characterStart = offset
                var pieceStart = offset, n = 0
                for scalar in scalars {
                    if n == maxShapedClusterScalars {
                        pieces.append(Piece(range: pieceStart..<offset, character: pieceStart > characterStart ? characterStart : nil))
                        pieceStart = offset
                        n = 0
                    }
                    offset += UTF8.width(scalar)
                    n += 1
                }
                pieces.append(Piece(range: pieceStart..<offset, character: pieceStart > characterStart ? characterStart : nil))
                start = offset
            } else {
                offset += length
            }
        }
        if total > start { pieces.append(Piece(range: start..<total)) }
        return pieces
    }
}

/// HarfBuzz fonts, one per face, made on first use and kept for the life
/// of the process (as the faces are).
final class HarfBuzzFonts: Sendable {
    static let shared = HarfBuzzFonts()

    /// An `hb_font_t` made immutable, which HarfBuzz shapes with from any
    /// number of threads at once.
    struct Handle: @unchecked Sendable {
        // Safe to share: the font is immutable once made (`hb_font_make_immutable`),
        // and HarfBuzz documents immutable objects as thread-safe.
        let font: OpaquePointer
    }

    private let fonts = Locked<[FontLibrary.FaceKey: Handle?]>([:])

    func font(for face: FontFace) -> OpaquePointer? {
        let key = FontLibrary.FaceKey(path: face.path, index: face.index)
        if let known = fonts.withLock({ $0[key] }) { return known?.font }
        var made: Handle?
        if let blob = hb_blob_create_from_file_or_fail(face.path) {
            let hbFace = hb_face_create(blob, UInt32(face.index))
            hb_blob_destroy(blob)
            if let hbFace, let font = hb_font_create(hbFace) {
                // Positions in font units: the scale is the face's em.
                let upem = Int32(hb_face_get_upem(hbFace))
                hb_font_set_scale(font, upem, upem)
                hb_font_make_immutable(font)
                made = Handle(font: font)
            }
            hb_face_destroy(hbFace)
        }
        return fonts.withLock { table in
            if let existing = table[key] {
                if let made, existing?.font != made.font { hb_font_destroy(made.font) }
                return existing?.font
            }
            table[key] = made
            return made?.font
        }
    }
}
