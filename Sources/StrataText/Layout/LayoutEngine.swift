import StrataGraphics

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

    /// The characters shaped, with their levels and break opportunities.
    func clusters() -> [Cluster] { Itemizer(text: text, style: style).clusters() }

    /// Line ranges (in characters): greedy, breaking at the last UAX #14
    /// opportunity before the width runs out, by character (never inside a
    /// shaped cluster) when a line has none. Spaces hang past the end.
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
            if i > start && c[i].breakBefore { lastBreak = i }
            let w = c[i].advance
            if x + w > width && !c[i].kind.space && i > start {
                var end = i
                if let b = lastBreak, b > start {
                    end = b
                } else {
                    while end > start + 1 && c[end].continuesCluster { end -= 1 }
                    if c[end].continuesCluster {
                        // One shaped cluster wider than the line: keep it whole.
                        end = i + 1
                        while end < c.count && c[end].continuesCluster { end += 1 }
                    }
                }
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

    /// Lays out `items` (cluster indices, in logical order) with an optional
    /// ellipsis inserted before item `ellipsis.at`: reordered for display by
    /// their levels (UAX #9, L2), aligned, and justified when asked.
    private func place(
        _ c: [Cluster], _ items: [Int], ellipsis: (cluster: Cluster, at: Int)?, characters: Range<Int>,
        baseline: Double, ascent: Double, descent: Double, justify: Bool
    ) -> TextLine {
        // The ellipsis is item -1.
        var logical = items
        if let e = ellipsis { logical.insert(-1, at: min(e.at, logical.count)) }
        func cluster(_ k: Int) -> Cluster { k < 0 ? ellipsis!.cluster : c[k] }
        let paragraphLevel =
            characters.lowerBound < c.count
            ? c[characters.lowerBound].paragraphLevel : (style.baseWritingDirection == .rightToLeft ? 1 : 0)
        let visual = LayoutEngine.visualOrder(logical) { cluster($0).level }
        var inkWidth = 0.0
        for k in visual { inkWidth += cluster(k).advance }
        var offset = 0.0, gap = 0.0
        let finite = width.isFinite
        let spaces = items.filter { c[$0].kind.space }.count
        let rtl = paragraphLevel & 1 == 1
        switch style.alignment {
        case .left: break
        case .natural: if finite && rtl { offset = width - inkWidth }
        case .right: if finite { offset = width - inkWidth }
        case .center: if finite { offset = (width - inkWidth) / 2 }
        case .justified:
            if justify && finite && !items.isEmpty {
                let slots = spaces > 0 ? spaces : max(0, items.count - 1)
                if slots > 0 { gap = max(0, width - inkWidth) / Double(slots) }
            } else if finite && rtl {
                offset = width - inkWidth
            }
        }
        var runs: [GlyphRun] = []
        var boxes: [CharacterBox] = []
        boxes.reserveCapacity(visual.count)
        var x = 0.0
        var current: (run: Int, face: FontFace, rtl: Bool, script: UInt32)? = nil
        var glyphs: [UInt32] = [], positions: [Point] = [], advances: [Double] = [], chars: [Int] = []
        var runStart = 0.0, runEnd = 0.0
        func flush() {
            guard let cur = current, !glyphs.isEmpty else { return }
            let attributes = text.runs[cur.run].attributes
            runs.append(
                GlyphRun(
                    face: cur.face, size: attributes.font.size, attributes: attributes, glyphs: glyphs,
                    positions: positions, advances: advances, characters: chars, minX: runStart, maxX: runEnd,
                    isRightToLeft: cur.rtl, script: Itemizer.name(of: cur.script)))
            glyphs = []; positions = []; advances = []; chars = []
        }
        // The character the ellipsis stands for: the next one kept, or the last.
        let ellipsisCharacter = ellipsis.map { e in e.at < items.count ? items[e.at] : (items.last ?? characters.lowerBound) }
        for (n, k) in visual.enumerated() {
            let cl = cluster(k)
            let index = k < 0 ? ellipsisCharacter! : k
            let raise = text.runs[cl.run].attributes.baselineOffset
            let odd = cl.level & 1 == 1
            for g in cl.glyphs {
                if current == nil || current!.run != cl.run || current!.face !== g.face || current!.rtl != odd
                    || current!.script != cl.script
                {
                    flush()
                    current = (cl.run, g.face, odd, cl.script)
                    runStart = x
                }
                glyphs.append(g.glyph)
                positions.append(Point(x: x + g.x, y: g.y - raise))
                advances.append(g.advance)
                chars.append(index)
            }
            boxes.append(CharacterBox(index: index, minX: x, maxX: x + cl.advance, isRightToLeft: odd))
            x += cl.advance
            runEnd = x
            if gap > 0 && n < visual.count - 1 && (spaces > 0 ? (k >= 0 && c[k].kind.space) : true) { x += gap }
        }
        flush()
        return TextLine(
            origin: Point(x: offset, y: baseline), width: x, ascent: ascent, descent: descent,
            characters: characters, runs: runs, baseDirection: rtl ? .rightToLeft : .leftToRight, boxes: boxes)
    }

    /// `items` in display order: from the highest level down to the lowest
    /// odd one, every stretch at that level or above reversed (UAX #9, L2).
    static func visualOrder(_ items: [Int], level: (Int) -> UInt8) -> [Int] {
        var highest: UInt8 = 0, lowestOdd: UInt8 = .max
        for k in items {
            let l = level(k)
            highest = max(highest, l)
            if l & 1 == 1 { lowestOdd = min(lowestOdd, l) }
        }
        guard highest > 0, lowestOdd != .max else { return items }
        var order = items
        var l = highest
        while l >= lowestOdd {
            var i = 0
            while i < order.count {
                guard level(order[i]) >= l else {
                    i += 1
                    continue
                }
                var j = i
                while j < order.count && level(order[j]) >= l { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            l -= 1
        }
        return order
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
        dots.level = range.lowerBound < c.count ? c[range.lowerBound].paragraphLevel : 0
        dots.paragraphLevel = dots.level
        if let (face, glyph) = font.face(for: "…") {
            let a = face.glyphData(glyph).advance * font.size / face.unitsPerEm
            dots.glyphs = [ClusterGlyph(face: face, glyph: glyph, x: 0, y: 0, advance: a)]
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
