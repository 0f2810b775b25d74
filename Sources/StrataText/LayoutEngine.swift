import StrataGraphics

/// One character (grapheme cluster) ready for line breaking.
struct Cluster {
    var run: Int
    var glyphs: [(face: FontFace, glyph: UInt32, advance: Double)]
    var advance: Double
    var kind: BreakKind
    var ascent: Double, descent: Double, leading: Double
}

/// What a character means to line breaking: a simplification of UAX #14 that
/// covers spaces, hyphens, ideographs and the CJK rules for punctuation.
struct BreakKind {
    var space = false
    var newline = false
    var ideographic = false
    var hyphen = false
    var digit = false
    /// May not begin a line: closing brackets and quotes, 。、，…, small kana.
    var noStart = false
    /// May not end a line: opening brackets and quotes.
    var noEnd = false

    init(_ c: Character) {
        guard let s = c.unicodeScalars.first else { return }
        let v = s.value
        switch v {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: newline = true
        case 0x20, 0x09, 0x3000: space = true
        default: break
        }
        if c == "\r\n" { newline = true }
        digit = (0x30...0x39).contains(v)
        hyphen = v == 0x2D || v == 0x2010 || v == 0x2013
        ideographic =
            (0x2E80...0x9FFF).contains(v) || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v)
            || (0xFF00...0xFFEF).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFF).contains(v)
        noStart = BreakKind.closing.contains(v)
        noEnd = BreakKind.opening.contains(v)
    }

    static let closing: Set<UInt32> = Set("」』）】〕〉》〗〙〛｝］。、，．：；！？)]},.:;!?%‰℃¢°’”々ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ～‥…・ゝゞヽヾ〜".unicodeScalars.map(\.value))
    static let opening: Set<UInt32> = Set("「『（【〔〈《〖〘〚｛［([{‘“".unicodeScalars.map(\.value))

    /// Whether a line may start at `b` when `a` comes before it.
    static func canBreak(_ a: BreakKind, _ b: BreakKind) -> Bool {
        if b.space || b.newline || b.noStart || a.noEnd { return false }
        if a.space { return true }
        if a.hyphen { return !b.digit }
        return a.ideographic || b.ideographic
    }
}

struct LayoutEngine {
    let text: AttributedText
    let width: Double
    let height: Double?
    let style: ParagraphStyle

    struct Result {
        var lines: [TextLine]
        var size: Size
        var truncated: Bool
    }

    /// Shapes every character: one glyph per scalar from the first face of the
    /// run's font chain that has it, advances scaled to the size, pair kerning.
    func clusters() -> [Cluster] {
        var out: [Cluster] = []
        out.reserveCapacity(text.count)
        var runIndex = 0
        var previous: (face: FontFace, glyph: UInt32, run: Int)? = nil
        var memo: [Unicode.Scalar: (FontFace, UInt32)] = [:]
        var chain: [FontFace] = []
        var offset = 0
        for character in text.string {
            while runIndex < text.runs.count - 1 && offset >= text.runs[runIndex].range.upperBound {
                runIndex += 1
                memo.removeAll(keepingCapacity: true)
                chain = []
            }
            let attributes = text.runs[runIndex].attributes
            let font = attributes.font
            if chain.isEmpty { chain = font.faces }
            var cluster = Cluster(
                run: runIndex, glyphs: [], advance: 0, kind: BreakKind(character),
                ascent: 0, descent: 0, leading: 0)
            if !cluster.kind.newline {
                // A tab draws nothing; it advances four spaces. (Told by its first
                // scalar, once: comparing the Character with "\t" normalises the
                // whole cluster, and doing it for each scalar made a letter with
                // 32 000 combining marks take 35 s.)
                let isTab = cluster.kind.space && character.unicodeScalars.first == "\t"
                let scalars = isTab ? " ".unicodeScalars : character.unicodeScalars
                for scalar in scalars {
                    let (face, glyph): (FontFace, UInt32)
                    if let known = memo[scalar] {
                        (face, glyph) = known
                    } else {
                        var found: (FontFace, UInt32)? = nil
                        for f in chain { if let g = f.glyph(for: scalar) { found = (f, g); break } }
                        guard let primary = chain.first else { continue }
                        (face, glyph) = found ?? (primary, 0)
                        memo[scalar] = (face, glyph)
                    }
                    let scale = font.size / face.unitsPerEm
                    var advance = face.glyphData(glyph).advance * scale
                    if let p = previous, p.run == runIndex, p.face === face, cluster.glyphs.isEmpty {
                        let k = face.kerning(p.glyph, glyph) * scale
                        if k != 0, !out.isEmpty {
                            out[out.count - 1].advance += k; out[out.count - 1].glyphs[out[out.count - 1].glyphs.count - 1].advance += k
                        }
                    }
                    if isTab { advance *= 4 }
                    cluster.glyphs.append((face, glyph, advance))
                    cluster.advance += advance
                    cluster.ascent = max(cluster.ascent, face.ascender * scale)
                    cluster.descent = max(cluster.descent, face.descender * scale)
                    cluster.leading = max(cluster.leading, max(0, face.lineHeight - face.ascender - face.descender) * scale)
                    previous = (face, glyph, runIndex)
                }
                // The kerning attribute widens the character: its last glyph carries
                // the extra advance, so hit testing sees the gap as part of it.
                cluster.advance += attributes.kern
                if !cluster.glyphs.isEmpty { cluster.glyphs[cluster.glyphs.count - 1].advance += attributes.kern }
            } else {
                previous = nil
            }
            if cluster.glyphs.isEmpty, let primary = chain.first {
                let scale = font.size / primary.unitsPerEm
                cluster.ascent = primary.ascender * scale
                cluster.descent = primary.descender * scale
                cluster.leading = max(0, primary.lineHeight - primary.ascender - primary.descender) * scale
            }
            out.append(cluster)
            offset += 1
        }
        return out
    }

    /// Line ranges (in characters): greedy, breaking at the last opportunity
    /// before the width runs out, by character when a line has none.
    func breakLines(_ c: [Cluster]) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        var x = 0.0
        var lastBreak: Int? = nil
        var i = 0
        while i < c.count {
            if c[i].kind.newline {
                lines.append(start..<(i + 1))
                start = i + 1; i = start; x = 0; lastBreak = nil
                continue
            }
            if i > start && BreakKind.canBreak(c[i - 1].kind, c[i].kind) { lastBreak = i }
            let w = c[i].advance
            if x + w > width && !c[i].kind.space && i > start {
                let end = (lastBreak.map { $0 > start ? $0 : nil } ?? nil) ?? i
                lines.append(start..<end)
                start = end; i = start; x = 0; lastBreak = nil
                continue
            }
            x += w
            i += 1
        }
        if start < c.count || lines.isEmpty || c.last?.kind.newline == true {
            lines.append(start..<c.count)
        }
        return lines
    }

    func run() -> Result {
        let c = clusters()
        var ranges = breakLines(c)
        var truncated = false
        /// Whether lines from `n` on hold anything but newlines.
        func hidesText(from n: Int) -> Bool {
            ranges[n...].contains { range in range.contains { !c[$0].kind.newline } }
        }
        if style.maximumLines > 0 && ranges.count > style.maximumLines {
            truncated = hidesText(from: style.maximumLines)
            ranges.removeLast(ranges.count - style.maximumLines)
        }
        var lines: [TextLine] = []
        var y = 0.0
        var widest = 0.0
        let fallbackMetrics =
            text.runs.first.map { r -> (Double, Double, Double) in
                let f = r.attributes.font
                return (f.ascent, f.descent, f.leading)
            } ?? (0, 0, 0)
        for (n, range) in ranges.enumerated() {
            var ascent = 0.0, descent = 0.0, leading = 0.0
            for k in range { ascent = max(ascent, c[k].ascent); descent = max(descent, c[k].descent); leading = max(leading, c[k].leading) }
            if range.isEmpty { (ascent, descent, leading) = fallbackMetrics }
            let baseline = y + ascent
            if let height, baseline + descent > height, !lines.isEmpty {
                truncated = truncated || hidesText(from: n)
                break
            }
            let isLast = n == ranges.count - 1 && !truncated
            let endsParagraph = isLast || (range.upperBound > range.lowerBound && c[range.upperBound - 1].kind.newline)
            var line = makeLine(c, range, baseline: baseline, ascent: ascent, descent: descent, justify: !endsParagraph)
            if truncated && n == ranges.count - 1 && style.truncation != .none {
                line = ellipsize(c, range, baseline: baseline, ascent: ascent, descent: descent)
            }
            widest = max(widest, line.width)
            lines.append(line)
            y = baseline + descent + leading + style.lineSpacing
            if range.upperBound > range.lowerBound && c[range.upperBound - 1].kind.newline { y += style.paragraphSpacing }
        }
        if truncated && style.truncation != .none, let last = lines.last, lines.count < ranges.count {
            // Cut by the height: the last line kept gets the ellipsis.
            let range = last.characters
            lines[lines.count - 1] = ellipsize(c, range, baseline: last.origin.y, ascent: last.ascent, descent: last.descent)
            widest = lines.map(\.width).max() ?? 0
        }
        let height = lines.last.map { $0.origin.y + $0.descent } ?? 0
        return Result(lines: lines, size: Size(width: widest, height: height), truncated: truncated)
    }

    /// Positions a line's glyphs, aligned (and justified when asked): the
    /// characters of `range` up to its trailing spaces.
    private func makeLine(
        _ c: [Cluster], _ range: Range<Int>, baseline: Double, ascent: Double, descent: Double,
        justify: Bool
    ) -> TextLine {
        var end = range.upperBound
        while end > range.lowerBound && (c[end - 1].kind.space || c[end - 1].kind.newline) { end -= 1 }
        return place(
            c, Array(range.lowerBound..<end), ellipsis: nil, characters: range,
            baseline: baseline, ascent: ascent, descent: descent, justify: justify)
    }

    /// Lays out `items` (cluster indices, in order) with an optional ellipsis
    /// inserted before item `ellipsis.at`.
    private func place(
        _ c: [Cluster], _ items: [Int], ellipsis: (cluster: Cluster, at: Int)?, characters: Range<Int>,
        baseline: Double, ascent: Double, descent: Double, justify: Bool
    ) -> TextLine {
        var inkWidth = 0.0
        for k in items { inkWidth += c[k].advance }
        if let e = ellipsis { inkWidth += e.cluster.advance }
        var offset = 0.0, gap = 0.0
        let finite = width.isFinite
        let spaces = items.filter { c[$0].kind.space }.count
        switch style.alignment {
        case .left, .natural: break
        case .right: if finite { offset = width - inkWidth }
        case .center: if finite { offset = (width - inkWidth) / 2 }
        case .justified:
            if justify && finite && !items.isEmpty {
                let slots = spaces > 0 ? spaces : max(0, items.count - 1)
                if slots > 0 { gap = max(0, width - inkWidth) / Double(slots) }
            }
        }
        var runs: [GlyphRun] = []
        var x = 0.0
        var current: (run: Int, face: FontFace)? = nil
        var glyphs: [UInt32] = [], positions: [Point] = [], advances: [Double] = [], chars: [Int] = []
        var runStart = 0.0, runEnd = 0.0
        func flush() {
            guard let cur = current, !glyphs.isEmpty else { return }
            let attributes = text.runs[cur.run].attributes
            runs.append(
                GlyphRun(
                    face: cur.face, size: attributes.font.size, attributes: attributes, glyphs: glyphs,
                    positions: positions, advances: advances, characters: chars, minX: runStart, maxX: runEnd))
            glyphs = []; positions = []; advances = []; chars = []
        }
        func put(_ k: Int, _ cluster: Cluster) {
            let raise = text.runs[cluster.run].attributes.baselineOffset
            var gx = x
            for g in cluster.glyphs {
                if current == nil || current!.run != cluster.run || current!.face !== g.face {
                    flush()
                    current = (cluster.run, g.face)
                    runStart = gx
                }
                glyphs.append(g.glyph)
                positions.append(Point(x: gx, y: -raise))
                advances.append(g.advance)
                chars.append(k)
                gx += g.advance
                runEnd = gx
            }
            x += cluster.advance
            runEnd = x
        }
        for (n, k) in items.enumerated() {
            if let e = ellipsis, e.at == n { put(k, e.cluster) }
            put(k, c[k])
            if gap > 0 && n < items.count - 1 && (spaces > 0 ? c[k].kind.space : true) { x += gap }
        }
        if let e = ellipsis, e.at >= items.count { put(items.last ?? characters.lowerBound, e.cluster) }
        flush()
        return TextLine(
            origin: Point(x: offset, y: baseline), width: x, ascent: ascent, descent: descent,
            characters: characters, runs: runs)
    }

    /// The last line of a cut-short layout, holding the rest of the text with an
    /// ellipsis: at its end (tail), its start (head) or in its middle, keeping as
    /// many characters as fit.
    private func ellipsize(_ c: [Cluster], _ range: Range<Int>, baseline: Double, ascent: Double, descent: Double) -> TextLine {
        // Everything from the line's start on, newlines shown as nothing.
        let rest = (range.lowerBound..<c.count).filter { !c[$0].kind.newline }
        let runIndex = rest.last.map { c[$0].run } ?? (range.lowerBound < c.count ? c[range.lowerBound].run : 0)
        guard runIndex < text.runs.count else {
            return makeLine(c, range, baseline: baseline, ascent: ascent, descent: descent, justify: false)
        }
        let font = text.runs[runIndex].attributes.font
        var dots = Cluster(run: runIndex, glyphs: [], advance: 0, kind: BreakKind("…"), ascent: 0, descent: 0, leading: 0)
        if let (face, glyph) = font.face(for: "…") {
            let a = face.glyphData(glyph).advance * font.size / face.unitsPerEm
            dots.glyphs = [(face, glyph, a)]
            dots.advance = a
        }
        var head = 0, tail = 0  // characters kept from the start and from the end of `rest`
        var used = dots.advance
        func fits(_ k: Int) -> Bool { used + c[k].advance <= width }
        switch style.truncation {
        case .none, .tail:
            while head < rest.count && fits(rest[head]) { used += c[rest[head]].advance; head += 1 }
            while head > 0 && c[rest[head - 1]].kind.space { head -= 1 }
        case .head:
            while tail < rest.count && fits(rest[rest.count - 1 - tail]) { used += c[rest[rest.count - 1 - tail]].advance; tail += 1 }
            while tail > 0 && c[rest[rest.count - tail]].kind.space { tail -= 1 }
        case .middle:
            var fromStart = true
            while head + tail < rest.count {
                let k = fromStart ? rest[head] : rest[rest.count - 1 - tail]
                guard fits(k) else { break }
                used += c[k].advance
                if fromStart { head += 1 } else { tail += 1 }
                fromStart.toggle()
            }
        }
        let items = Array(rest[0..<head]) + Array(rest[(rest.count - tail)...])
        let end = rest.last.map { $0 + 1 } ?? range.upperBound
        return place(
            c, items, ellipsis: (dots, head), characters: range.lowerBound..<max(end, range.lowerBound),
            baseline: baseline, ascent: ascent, descent: descent, justify: false)
    }
}
