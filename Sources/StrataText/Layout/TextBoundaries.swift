internal import CICU

/// Where text may be divided, by ICU's implementations of the Unicode
/// algorithms: grapheme clusters (UAX #29, what a caret moves
/// over: an emoji sequence, a flag, a letter with its marks), and line-break
/// opportunities (UAX #14, with `strict` for the Japanese rules that keep
/// small kana and prolonged sound marks with what precedes them), and
/// words (UAX #29).
///
/// Offsets are in UTF-16 code units, as `NSString` and Core Text count.
public enum TextBoundaries {
    /// The UTF-16 offsets where grapheme clusters start, and the text's end
    /// (0 … count, in order; just [0] for empty text).
    public static func graphemeBoundaries(_ text: String) -> [Int] {
        boundaries(text, kind: 0, locale: "").map(\.offset)
    }

    /// The grapheme clusters of `text`, as strings.
    public static func graphemeClusters(_ text: String) -> [String] {
        let units = Array(text.utf16), b = graphemeBoundaries(text)
        return zip(b, b.dropFirst()).map { String(decoding: units[$0..<$1], as: UTF16.self) }
    }

    /// Where a line may break: UTF-16 offsets (after the break's last unit;
    /// the text's end included) and whether the break is mandatory (after a
    /// newline). `locale` tailors the rules ("ja"); `strict` applies the
    /// strict CJK rules (small kana, ー and iteration marks never begin a
    /// line), else the normal ones (they may).
    public static func lineBreaks(_ text: String, locale: String = "", strict: Bool = false) -> [(offset: Int, isMandatory: Bool)] {
        let base = locale.filter { $0.isLetter || $0 == "_" || $0 == "-" }
        // ICU's root rules treat small kana as non-starters (UAX #14's default
        // for CJ); CSS's normal line breaking, which `lb=normal` asks for, lets
        // them begin a line, and strict keeps them with what comes before.
        let tailored = "\(base)@lb=\(strict ? "strict" : "normal")"
        return boundaries(text, kind: 1, locale: tailored).filter { $0.offset > 0 }
    }

    /// The text's words and what lies between them (UAX #29 word
    /// boundaries, with ICU's dictionaries for Chinese, Japanese and Thai,
    /// which have no spaces): each segment's UTF-16 range, and whether it
    /// is a word (letters, numbers, kana, ideographs) rather than spaces or
    /// punctuation. The segments cover the text, in order. What a
    /// double-click selects and Option-arrow steps over.
    public static func wordSegments(_ text: String, locale: String = "") -> [(range: Range<Int>, isWord: Bool)] {
        let b = boundaries(text, kind: 2, locale: locale.filter { $0.isLetter || $0 == "_" || $0 == "-" })
        return zip(b, b.dropFirst()).map { ($0.offset..<$1.offset, $1.isMandatory) }
    }

    /// The text's sentences (UAX #29 sentence boundaries): each one's
    /// UTF-16 range, with the spaces after it. They cover the text, in
    /// order. What a screen reader reads sentence by sentence.
    public static func sentenceRanges(_ text: String, locale: String = "") -> [Range<Int>] {
        let b = boundaries(text, kind: 3, locale: locale.filter { $0.isLetter || $0 == "_" || $0 == "-" })
        return zip(b, b.dropFirst()).map { $0.offset..<$1.offset }
    }

    /// The direction of a paragraph by its first strong character (UAX #9,
    /// P2–P3): what `naturalAlignment` follows. nil when there is no strong
    /// character (digits, punctuation, spaces only).
    public static func baseDirection(_ text: String) -> TextDirection? {
        let units = Array(text.utf16)
        let d = units.withUnsafeBufferPointer { strata_icu_base_direction($0.baseAddress, $0.count) }
        return d == 0 ? .leftToRight : d == 1 ? .rightToLeft : nil
    }

    private static func boundaries(_ text: String, kind: Int32, locale: String) -> [(offset: Int, isMandatory: Bool)] {
        let units = Array(text.utf16)
        var capacity = units.count + 2
        while true {
            var offsets = [Int](repeating: 0, count: capacity)
            var mandatory = [UInt8](repeating: 0, count: capacity)
            var error = [CChar](repeating: 0, count: 64)
            let n = units.withUnsafeBufferPointer { u in
                offsets.withUnsafeMutableBufferPointer { o in
                    mandatory.withUnsafeMutableBufferPointer { m in
                        error.withUnsafeMutableBufferPointer { e in
                            strata_icu_boundaries(
                                u.baseAddress, u.count, kind, locale, o.baseAddress, m.baseAddress, capacity, e.baseAddress, e.count)
                        }
                    }
                }
            }
            // ICU failing (no data, say): every unit a boundary, no mandatory breaks.
            guard n >= 0 else { return (0...units.count).map { ($0, false) } }
            if n <= capacity { return (0..<n).map { (offsets[$0], mandatory[$0] != 0) } }
            capacity = n
        }
    }
}
