internal import CHarfBuzzSubset
import Foundation
import StrataText

/// The fonts a PDF document's text uses, each embedded once as a subset of
/// the glyphs drawn: a Type 0 font over a CID font whose CIDs are the
/// face's glyph ids (`Identity-H`, `/CIDToGIDMap /Identity`), with the
/// glyphs' widths, a descriptor with the face's metrics, the subset font
/// file (HarfBuzz's subsetter, glyph ids kept), and a ToUnicode map from
/// each glyph to the characters it shows, so the text can be selected,
/// copied and searched.
final class PDFFonts {
    final class Entry {
        let face: FontFace
        /// Glyph ids drawn, and what each shows (the first text seen).
        var unicode: [UInt32: String] = [:]
        init(face: FontFace) { self.face = face }
    }

    private var indices: [String: Int] = [:]
    private(set) var entries: [Entry] = []

    /// The index of `face` among the document's fonts, added when new, with
    /// `glyphs` and their `texts` recorded.
    func use(_ face: FontFace, glyphs: [UInt32], texts: [String]) -> Int {
        let key = "\(face.path)#\(face.index)"
        let index: Int
        if let i = indices[key] {
            index = i
        } else {
            entries.append(Entry(face: face))
            index = entries.count - 1
            indices[key] = index
        }
        let entry = entries[index]
        for (i, g) in glyphs.enumerated() {
            let text = i < texts.count ? texts[i] : ""
            if let old = entry.unicode[g], !old.isEmpty { continue }
            entry.unicode[g] = text
        }
        return index
    }

    /// The face's file cut to `glyphs` (and .notdef), glyph ids kept; nil
    /// when the file cannot be read or subset.
    static func subset(_ face: FontFace, glyphs: some Sequence<UInt32>) -> [UInt8]? {
        guard let blob = hb_blob_create_from_file_or_fail(face.path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard let hbFace = hb_face_create(blob, UInt32(max(0, face.index))) else { return nil }
        defer { hb_face_destroy(hbFace) }
        guard let input = hb_subset_input_create_or_fail() else { return nil }
        defer { hb_subset_input_destroy(input) }
        let set = hb_subset_input_glyph_set(input)
        hb_set_add(set, 0)
        for g in glyphs { hb_set_add(set, g) }
        // Ids kept (the content stream's CIDs are the face's glyph ids);
        // no hinting, and no layout tables: the glyphs are placed already.
        hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue | HB_SUBSET_FLAGS_NO_HINTING.rawValue)
        let drop = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG)
        for tag in ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "morx", "kerx", "kern", "DSIG"] {
            let b = Array(tag.utf8)
            hb_set_add(drop, UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]))
        }
        guard let subset = hb_subset_or_fail(hbFace, input) else { return nil }
        defer { hb_face_destroy(subset) }
        guard let out = hb_face_reference_blob(subset) else { return nil }
        defer { hb_blob_destroy(out) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(out, &length), length > 0 else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// The ToUnicode CMap of `unicode` (glyph id to the characters it shows).
    static func toUnicode(_ unicode: [UInt32: String]) -> [UInt8] {
        let mapped = unicode.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        var out = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """
        // At most 100 entries a block, as the CMap format asks.
        var i = 0
        while i < mapped.count {
            let block = mapped[i..<min(mapped.count, i + 100)]
            out += "\(block.count) beginbfchar\n"
            for (glyph, text) in block {
                let units = text.utf16.map { String(format: "%04X", $0) }.joined()
                out += String(format: "<%04X> <", glyph) + units + ">\n"
            }
            out += "endbfchar\n"
            i += 100
        }
        out += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
        return Array(out.utf8)
    }

    /// A subset tag for font `index`: six capital letters (`AAAAAB+`).
    static func tag(_ index: Int) -> String {
        var n = index
        var letters: [Character] = []
        for _ in 0..<6 {
            letters.append(Character(Unicode.Scalar(UInt8(65 + n % 26))))
            n /= 26
        }
        return String(letters.reversed())
    }

    /// `name` with only what a PDF name may hold plainly (letters, digits,
    /// hyphens), at most 100 characters.
    static func pdfName(_ name: String) -> String {
        let kept = name.unicodeScalars.filter { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" }
        let text = String(String.UnicodeScalarView(kept.prefix(100)))
        return text.isEmpty ? "Font" : text
    }
}
