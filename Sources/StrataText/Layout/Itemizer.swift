internal import CHarfBuzz
internal import CICU
import StrataGraphics

/// A glyph of one character, placed relative to the character's pen
/// position (its left edge on the baseline; y grows down).
struct ClusterGlyph {
    var face: FontFace
    var glyph: UInt32
    var x: Double
    var y: Double
    var advance: Double
}

/// One character (grapheme cluster) shaped and ready for line breaking.
struct Cluster {
    /// The attribute run it belongs to.
    var run: Int
    /// Its glyphs, in visual order. A ligature's glyphs belong to the
    /// character that comes first on screen; the others it covers have none.
    var glyphs: [ClusterGlyph]
    var advance: Double
    var kind: BreakKind
    var ascent: Double, descent: Double, leading: Double
    /// The bidirectional embedding level (odd: right to left).
    var level: UInt8 = 0
    /// Its script, as HarfBuzz's tag (common characters take their
    /// neighbours').
    var script: UInt32 = Itemizer.common
    /// The level of its paragraph.
    var paragraphLevel: UInt8 = 0
    /// A line may begin with this character (a UAX #14 opportunity).
    var breakBefore = false
    /// Shares a shaped cluster (a ligature, a conjunct) with the character
    /// before it, so no line may begin with it.
    var continuesCluster = false
}

/// What a character means to line breaking beyond UAX #14's opportunities:
/// spaces hang past the line's end, newlines end the line.
struct BreakKind {
    var space = false
    var newline = false

    init(_ first: Unicode.Scalar) {
        switch first.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: newline = true
        case 0x20, 0x09, 0x3000: space = true
        default: break
        }
    }
}

/// Turns attributed text into shaped characters: the characters' UTF-16
/// offsets, their bidirectional levels (ICU, UAX #9), their scripts
/// (HarfBuzz's Unicode data), a face for each whole character from its
/// font's chain (fallback by cluster), runs split wherever the attributes,
/// level, script or face change, each run shaped by HarfBuzz with the text
/// around it as context, and line-break opportunities (ICU, UAX #14).
struct Itemizer {
    let text: AttributedText
    let style: ParagraphStyle

    /// The most UTF-16 units of one character HarfBuzz shapes in one call. A
    /// longer character (a base with thousands of combining marks, which no
    /// text has: Unicode's stream-safe form keeps runs of marks under 31) is
    /// shaped in pieces of this many units, since HarfBuzz's time on one
    /// cluster grows with the square of its marks (2 s for 32,000).
    static let maxShapedClusterUnits = 256

    /// ISO 15924 tags as HarfBuzz's script values.
    static func tag(_ s: String) -> UInt32 {
        s.utf8.reduce(0) { ($0 << 8) | UInt32($1) }
    }
    /// A HarfBuzz script tag as its four letters.
    static func name(of tag: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }
    static let common = tag("Zyyy"), inherited = tag("Zinh"), unknown = tag("Zzzz"), latin = tag("Latn")
    /// Scripts whose letters join: letter spacing is not added inside them.
    static let cursive: Set<UInt32> = Set(
        ["Arab", "Syrc", "Mong", "Nkoo", "Mand", "Adlm", "Rohg", "Sogd", "Phag", "Mani", "Hmnp"].map(tag))

    /// Whether the text holds anything the bidirectional algorithm could set
    /// right to left: Hebrew, Arabic and the other right-to-left blocks, or
    /// the explicit marks and embeddings.
    static func needsBidi(_ units: [UInt16]) -> Bool {
        for u in units {
            switch u {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C,
                0xD802...0xD803, 0xD83A...0xD83B:
                return true
            default: continue
            }
        }
        return false
    }

    /// Scalars that do not need a glyph of their own for a face to draw the
    /// cluster: joiners, variation selectors, tags.
    static func isIgnorable(_ v: UInt32) -> Bool {
        v == 0x200C || v == 0x200D || (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v)
            || (0xE0020...0xE007F).contains(v)
    }

    /// The presentation a cluster asks for: colour (an emoji variation
    /// selector, a keycap, a skin tone, a flag, or a sequence joined by a
    /// zero-width joiner), text (the text variation selector), or nil for
    /// no preference.
    static func wantsColor(_ scalars: String.UnicodeScalarView) -> Bool? {
        var joined = false
        for s in scalars {
            switch s.value {
            case 0xFE0E: return false
            case 0xFE0F, 0x20E3, 0x1F3FB...0x1F3FF, 0x1F1E6...0x1F1FF: return true
            case 0x200D: joined = true
            default: continue
            }
        }
        return joined && (scalars.first?.value ?? 0) >= 0x2000 ? true : nil
    }

    func clusters() -> [Cluster] {
        let string = text.string
        let units = Array(string.utf16)
        guard !units.isEmpty, !text.runs.isEmpty else { return [] }
        let n = text.count
        var starts = [Int](repeating: 0, count: n + 1)
        var charOfUnit = [Int32](repeating: 0, count: units.count)
        var out: [Cluster] = []
        out.reserveCapacity(n)
        var scripts = [UInt32](repeating: Itemizer.common, count: n)
        var faceOf = [Int](repeating: 0, count: n)
        let unicode = hb_unicode_funcs_get_default()

        // Characters: offsets, kinds, scripts, faces.
        var runIndex = 0
        var chain = text.runs[0].attributes.font.faces
        var chains: [Int: [FontFace]] = [0: chain]
        var single: [UInt32: Int] = [:]
        var multiple: [Character: Int] = [:]
        var unit = 0
        var k = 0
        for ch in string {
            while runIndex < text.runs.count - 1 && k >= text.runs[runIndex].range.upperBound {
                runIndex += 1
                chain = text.runs[runIndex].attributes.font.faces
                chains[runIndex] = chain
                single.removeAll(keepingCapacity: true)
                multiple.removeAll(keepingCapacity: true)
            }
            let scalars = ch.unicodeScalars
            let first = scalars.first!
            let length = ch.utf16.count
            starts[k] = unit
            for u in unit..<(unit + length) { charOfUnit[u] = Int32(k) }
            unit += length
            let kind = BreakKind(first)
            // A tab is drawn as spaces, from the face that has the space.
            let lookup: Unicode.Scalar = first == "\t" ? " " : first
            // Scripts: the first scalar with one of its own.
            if first.value < 0x80 {
                let v = first.value | 0x20
                if v >= 0x61 && v <= 0x7A { scripts[k] = Itemizer.latin }
            } else {
                for s in scalars {
                    let script = hb_unicode_script(unicode, hb_codepoint_t(s.value)).rawValue
                    if script != Itemizer.common && script != Itemizer.inherited && script != Itemizer.unknown {
                        scripts[k] = script
                        break
                    }
                }
            }
            // The face: for a space, the face before it when it has one (runs
            // stay whole), unless that is an emoji face (whose spaces are as
            // wide as its emoji); else the first in the chain that draws the whole
            // cluster (colour faces first when it asks for an emoji), else the
            // first that has its first scalar, else the primary face, whose
            // missing-glyph box then stands in.
            var face = 0
            if kind.space, k > 0, out[k - 1].run == runIndex, !chain.isEmpty, !chain[faceOf[k - 1]].hasColorBitmaps,
                chain[faceOf[k - 1]].glyph(for: lookup) != nil
            {
                face = faceOf[k - 1]
            } else if scalars.count == 1 || length == 1 {
                if let known = single[lookup.value] {
                    face = known
                } else {
                    face = chain.firstIndex { $0.glyph(for: lookup) != nil } ?? 0
                    single[lookup.value] = face
                }
            } else if let known = multiple[ch] {
                face = known
            } else {
                face = Itemizer.face(for: scalars, in: chain)
                multiple[ch] = face
            }
            faceOf[k] = face
            out.append(Cluster(run: runIndex, glyphs: [], advance: 0, kind: kind, ascent: 0, descent: 0, leading: 0))
            k += 1
        }
        starts[n] = units.count

        // Levels.
        let base: Int32 =
            switch style.baseWritingDirection {
            case .leftToRight: 0
            case .rightToLeft: 1
            case .natural: -1
            }
        if base == 1 || Itemizer.needsBidi(units) {
            var levels = [UInt8](repeating: 0, count: units.count)
            var paragraphs = [UInt8](repeating: 0, count: units.count)
            let status = units.withUnsafeBufferPointer { u in
                levels.withUnsafeMutableBufferPointer { l in
                    paragraphs.withUnsafeMutableBufferPointer { p in
                        strata_icu_bidi_levels(u.baseAddress, u.count, base, l.baseAddress, p.baseAddress)
                    }
                }
            }
            if status == 0 {
                for k in 0..<n {
                    out[k].level = levels[starts[k]]
                    out[k].paragraphLevel = paragraphs[starts[k]]
                }
            } else if base == 1 {
                for k in 0..<n { out[k].level = 1; out[k].paragraphLevel = 1 }
            }
        }

        // Scripts of common characters (spaces, digits, punctuation, emoji):
        // those of the character before at the same level, else of the one
        // after (so a closing quote after Arabic in English text is English),
        // else of the one before.
        var resolved = scripts
        var last: (script: UInt32, level: UInt8)? = nil
        for k in 0..<n {
            if scripts[k] != Itemizer.common {
                last = (scripts[k], out[k].level)
            } else if let l = last, l.level == out[k].level {
                resolved[k] = l.script
            }
        }
        var next: UInt32? = nil
        for k in stride(from: n - 1, through: 0, by: -1) {
            if scripts[k] != Itemizer.common {
                next = scripts[k]
            } else if resolved[k] == Itemizer.common, let s = next {
                resolved[k] = s
            }
        }
        last = nil
        for k in 0..<n {
            if resolved[k] == Itemizer.common, let l = last { resolved[k] = l.script } else { last = (resolved[k], 0) }
        }
        scripts = resolved
        for k in 0..<n { out[k].script = scripts[k] }

        // Runs, each shaped.
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        var features: [Int: [hb_feature_t]] = [:]
        var start = 0
        while start < n {
            var end = start + 1
            while end < n && out[end].run == out[start].run && out[end].level == out[start].level && scripts[end] == scripts[start]
                && faceOf[end] == faceOf[start]
            {
                end += 1
            }
            let run = out[start].run
            let attributes = text.runs[run].attributes
            let runChain = chains[run] ?? []
            let runFeatures: [hb_feature_t]
            if let known = features[run] {
                runFeatures = known
            } else {
                runFeatures = Itemizer.features(attributes)
                features[run] = runFeatures
            }
            if let face = runChain.isEmpty ? nil : runChain[faceOf[start]] {
                shape(
                    &out, start..<end, face: face, size: attributes.font.size, script: scripts[start], kern: attributes.kern,
                    features: runFeatures, units: units, starts: starts, charOfUnit: charOfUnit, buffer: buffer)
            }
            start = end
        }

        // Line-break opportunities.
        for b in TextBoundaries.lineBreaks(string, strict: style.lineBreakStrictness == .strict) {
            let o = b.offset
            guard o < units.count else { continue }
            let c = Int(charOfUnit[o])
            if starts[c] == o && !out[c].continuesCluster { out[c].breakBefore = true }
        }
        return out
    }

    /// The index in `chain` of the face for a cluster of several scalars.
    static func face(for scalars: String.UnicodeScalarView, in chain: [FontFace]) -> Int {
        guard !chain.isEmpty else { return 0 }
        let needed = scalars.filter { !isIgnorable($0.value) }
        func covers(_ f: FontFace) -> Bool { needed.allSatisfy { f.glyph(for: $0) != nil } }
        if let color = wantsColor(scalars), let i = chain.firstIndex(where: { $0.hasColorBitmaps == color && covers($0) }) {
            return i
        }
        if let i = chain.firstIndex(where: covers) { return i }
        if let first = needed.first ?? scalars.first, let i = chain.firstIndex(where: { $0.glyph(for: first) != nil }) { return i }
        return 0
    }

    /// The OpenType features a run is shaped with: its own, and with letter
    /// spacing, optional ligatures off (as CSS and Core Text do), unless the
    /// run sets them itself.
    static func features(_ attributes: TextAttributes) -> [hb_feature_t] {
        var list = attributes.features
        if attributes.kern != 0 {
            for tag in ["liga", "clig", "dlig", "hlig"] where !list.contains(where: { $0.tag == tag }) {
                list.append(FontFeature(tag, 0))
            }
        }
        return list.compactMap(\.harfBuzzFeature)
    }

    /// Shapes characters `range` (one face, level, script and attribute run)
    /// and gives each character its glyphs, advance and metrics.
    private func shape(
        _ out: inout [Cluster], _ range: Range<Int>, face: FontFace, size: Double, script: UInt32, kern: Double,
        features: [hb_feature_t], units: [UInt16], starts: [Int], charOfUnit: [Int32], buffer: OpaquePointer?
    ) {
        // An over-long character is shaped in pieces, the stretches between
        // such characters as runs of their own (a loop: text of thousands of
        // them must not take a stack frame each).
        var lower = range.lowerBound
        for k in range where starts[k + 1] - starts[k] > Itemizer.maxShapedClusterUnits {
            if k > lower {
                shapeRun(
                    &out, lower..<k, face: face, size: size, script: script, kern: kern, features: features,
                    units: units, starts: starts, charOfUnit: charOfUnit, buffer: buffer)
            }
            shapeInPieces(
                &out, k, face: face, size: size, script: script, kern: kern, features: features, units: units,
                starts: starts, buffer: buffer)
            lower = k + 1
        }
        if lower < range.upperBound {
            shapeRun(
                &out, lower..<range.upperBound, face: face, size: size, script: script, kern: kern, features: features,
                units: units, starts: starts, charOfUnit: charOfUnit, buffer: buffer)
        }
    }

    /// Shapes characters `range`, none of them over-long, in one call.
    private func shapeRun(
        _ out: inout [Cluster], _ range: Range<Int>, face: FontFace, size: Double, script: UInt32, kern: Double,
        features: [hb_feature_t], units: [UInt16], starts: [Int], charOfUnit: [Int32], buffer: OpaquePointer?
    ) {
        let scale = size / face.unitsPerEm
        setMetrics(&out, range, face: face, scale: scale)
        let rtl = out[range.lowerBound].level & 1 == 1
        guard let font = HarfBuzzFonts.shared.font(for: face), let buffer else { return }
        guard
            let shaped = Itemizer.harfBuzzShape(
                units, starts[range.lowerBound]..<starts[range.upperBound], font: font, buffer: buffer, rtl: rtl,
                script: script, features: features)
        else { return }
        let (infos, positions, glyphCount) = shaped

        // Shaped clusters: a character begins one when a glyph's cluster falls
        // in it; the characters up to the next such one share its glyphs.
        let lower = range.lowerBound
        var begins = [Bool](repeating: false, count: range.count)
        for i in 0..<glyphCount { begins[Int(charOfUnit[Int(infos[i].cluster)]) - lower] = true }
        begins[0] = true
        var segmentOf = [Int](repeating: 0, count: range.count)
        var segmentEnd: [Int: Int] = [:]
        var current = lower
        for k in range {
            if begins[k - lower] {
                if k > lower { segmentEnd[current] = k }
                current = k
            } else {
                out[k].continuesCluster = true
            }
            segmentOf[k - lower] = current
        }
        segmentEnd[current] = range.upperBound

        // Glyphs of one segment are together in visual order.
        var i = 0
        while i < glyphCount {
            let segment = segmentOf[Int(charOfUnit[Int(infos[i].cluster)]) - lower]
            var j = i
            var pen = 0.0
            var glyphs: [ClusterGlyph] = []
            while j < glyphCount && segmentOf[Int(charOfUnit[Int(infos[j].cluster)]) - lower] == segment {
                glyphs.append(Itemizer.placed(infos[j], positions[j], face: face, scale: scale, pen: &pen))
                j += 1
            }
            let end = segmentEnd[segment] ?? segment + 1
            let share = pen / Double(end - segment)
            for k in segment..<end { out[k].advance = share }
            // The glyphs go to the character first on screen.
            out[rtl ? end - 1 : segment].glyphs = glyphs
            i = j
        }

        // Tabs, newlines, letter spacing.
        for k in range {
            if out[k].kind.newline {
                out[k].glyphs = []
                out[k].advance = 0
            } else if out[k].kind.space && units[starts[k]] == 0x09 {
                // A tab draws nothing; it advances four spaces.
                let space = face.glyph(for: " ") ?? 0
                let advance = face.glyphData(space).advance * scale * 4
                out[k].glyphs = [ClusterGlyph(face: face, glyph: space, x: 0, y: 0, advance: advance)]
                out[k].advance = advance
            }
            if kern != 0 && !Itemizer.cursive.contains(script) && !out[k].kind.newline {
                // The kerning attribute widens the character; its last glyph
                // carries the extra advance, so hit testing sees the gap as
                // part of it.
                out[k].advance += kern
                if !out[k].glyphs.isEmpty { out[k].glyphs[out[k].glyphs.count - 1].advance += kern }
            }
        }
    }

    /// Shapes UTF-16 units `range` of `units` (the rest is context) into
    /// `buffer`: in the run's direction and `script` (unless common), with
    /// the flags for the text's start and end, and, for a piece that begins
    /// `insideCharacter`, without dotted circles. Returns the glyphs, their
    /// positions and their count, or nil when HarfBuzz gives none.
    /// The glyph HarfBuzz placed (`info`, `position`, in font units times
    /// `scale`) at the pen, which moves on by its advance.
    @inline(__always)
    private static func placed(
        _ info: hb_glyph_info_t, _ position: hb_glyph_position_t, face: FontFace, scale: Double, pen: inout Double
    ) -> ClusterGlyph {
        let advance = Double(position.x_advance) * scale
        let glyph = ClusterGlyph(
            face: face, glyph: info.codepoint, x: pen + Double(position.x_offset) * scale,
            y: -Double(position.y_offset) * scale, advance: advance)
        pen += advance
        return glyph
    }

    private static func harfBuzzShape(
        _ units: [UInt16], _ range: Range<Int>, font: OpaquePointer, buffer: OpaquePointer, rtl: Bool, script: UInt32,
        features: [hb_feature_t], insideCharacter: Bool = false
    ) -> (UnsafeMutablePointer<hb_glyph_info_t>, UnsafeMutablePointer<hb_glyph_position_t>, Int)? {
        hb_buffer_clear_contents(buffer)
        units.withUnsafeBufferPointer { u in
            hb_buffer_add_utf16(buffer, u.baseAddress, Int32(u.count), UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if script != Itemizer.common { hb_buffer_set_script(buffer, hb_script_t(rawValue: script)) }
        var flags = HB_BUFFER_FLAG_DEFAULT.rawValue
        if range.lowerBound == 0 { flags |= HB_BUFFER_FLAG_BOT.rawValue }
        if range.upperBound == units.count { flags |= HB_BUFFER_FLAG_EOT.rawValue }
        if insideCharacter { flags |= HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE.rawValue }
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: flags))
        hb_buffer_guess_segment_properties(buffer)
        features.withUnsafeBufferPointer { f in hb_shape(font, buffer, f.baseAddress, UInt32(f.count)) }
        var count: UInt32 = 0, positionCount: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &positionCount), positionCount == count
        else { return nil }
        return (infos, positions, Int(count))
    }

    /// The face's ascent, descent and leading at `scale` for characters `range`.
    private func setMetrics(_ out: inout [Cluster], _ range: Range<Int>, face: FontFace, scale: Double) {
        let ascent = face.ascender * scale, descent = face.descender * scale
        let leading = max(0, face.lineHeight - face.ascender - face.descender) * scale
        for k in range {
            out[k].ascent = ascent
            out[k].descent = descent
            out[k].leading = leading
        }
    }

    /// Shapes character `k`, longer than `maxShapedClusterUnits`, in pieces of
    /// at most that many units (never splitting a surrogate pair): the first
    /// holds its base and first marks and is shaped as usual; each later piece,
    /// marks with no base, is shaped without the dotted circle HarfBuzz's
    /// complex-script shapers would put under them. The pieces are set one
    /// after another in visual order (right to left, the later pieces first).
    /// Every mark keeps its glyph; the time is linear in the character's
    /// length. HarfBuzz sees five characters of context either side, so the
    /// letters around such a character do not join across it (Arabic takes
    /// its isolated or end forms there).
    private func shapeInPieces(
        _ out: inout [Cluster], _ k: Int, face: FontFace, size: Double, script: UInt32, kern: Double,
        features: [hb_feature_t], units: [UInt16], starts: [Int], buffer: OpaquePointer?
    ) {
        let scale = size / face.unitsPerEm
        setMetrics(&out, k..<(k + 1), face: face, scale: scale)
        guard let font = HarfBuzzFonts.shared.font(for: face), let buffer else { return }
        let rtl = out[k].level & 1 == 1
        // Each piece's glyphs from its own pen, and its advance.
        var pieces: [(glyphs: [ClusterGlyph], advance: Double)] = []
        var u = starts[k]
        let end = starts[k + 1]
        while u < end {
            var v = min(end, u + Itemizer.maxShapedClusterUnits)
            if v < end && UTF16.isLeadSurrogate(units[v - 1]) { v -= 1 }
            var glyphs: [ClusterGlyph] = []
            var pen = 0.0
            if let shaped = Itemizer.harfBuzzShape(
                units, u..<v, font: font, buffer: buffer, rtl: rtl, script: script, features: features,
                insideCharacter: u > starts[k])
            {
                let (infos, positions, count) = shaped
                for i in 0..<count {
                    glyphs.append(Itemizer.placed(infos[i], positions[i], face: face, scale: scale, pen: &pen))
                }
            }
            pieces.append((glyphs, pen))
            u = v
        }
        // In visual order: right to left, the later pieces come first.
        var glyphs: [ClusterGlyph] = []
        var pen = 0.0
        for piece in rtl ? pieces.reversed() : pieces {
            for var g in piece.glyphs {
                g.x += pen
                glyphs.append(g)
            }
            pen += piece.advance
        }
        out[k].glyphs = glyphs
        out[k].advance = pen
        if kern != 0 && !Itemizer.cursive.contains(script) {
            out[k].advance += kern
            if !glyphs.isEmpty { out[k].glyphs[glyphs.count - 1].advance += kern }
        }
    }
}
