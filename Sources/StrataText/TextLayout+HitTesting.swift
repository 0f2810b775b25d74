import StrataGraphics

extension TextLayout {
    /// Each drawn character of line `n`, left to right, with its horizontal extent
    /// relative to the layout's origin (a character of several glyphs spans them
    /// all).
    func characterExtents(line n: Int) -> [(index: Int, minX: Double, maxX: Double)] {
        let line = lines[n]
        var extents: [Int: (Double, Double)] = [:]
        for run in line.runs {
            for i in run.glyphs.indices {
                let x0 = line.origin.x + run.positions[i].x, x1 = x0 + run.advances[i]
                let k = run.characters[i]
                if let e = extents[k] { extents[k] = (min(e.0, x0), max(e.1, x1)) } else { extents[k] = (x0, x1) }
            }
        }
        return extents.map { (index: $0.key, minX: $0.value.0, maxX: $0.value.1) }.sorted { $0.minX < $1.minX }
    }

    /// The line nearest to `y` (layout coordinates: origin at the top left).
    func lineIndex(atY y: Double) -> Int? {
        guard !lines.isEmpty else { return nil }
        for (n, line) in lines.enumerated() where y < line.origin.y + line.descent { return n }
        return lines.count - 1
    }

    /// The character index nearest to `point` (layout coordinates), as a caret
    /// would land there: before a character when the point is on its left half,
    /// after it on its right half (`CTLineGetStringIndexForPosition`). Points above
    /// or below the text land on the first or last line.
    public func characterIndex(at point: Point) -> Int {
        guard let n = lineIndex(atY: point.y), !point.x.isNaN else { return 0 }
        let extents = characterExtents(line: n)
        guard let first = extents.first else { return lines[n].characters.lowerBound }
        if point.x < first.minX { return first.index }
        for e in extents where point.x < (e.minX + e.maxX) / 2 { return e.index }
        // After the last drawn character: before any trailing newline.
        let last = extents.last!.index + 1
        return min(last, lines[n].characters.upperBound)
    }

    /// Where a caret before character `index` stands: a zero-width rectangle the
    /// height of its line (`CTLineGetOffsetForStringIndex`). An index past the end
    /// stands after the last character.
    public func caretRect(forCharacterAt index: Int) -> Rect {
        guard !lines.isEmpty else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let n = index < 0 ? 0 : (lines.firstIndex { $0.characters.contains(index) } ?? (lines.count - 1))
        let line = lines[n]
        let extents = characterExtents(line: n)
        var x = line.origin.x
        if let e = extents.first(where: { $0.index == index }) {
            x = e.minX
        } else if let before = extents.last(where: { $0.index < index }) {
            x = before.maxX
        }
        return Rect(x: x, y: line.origin.y - line.ascent, width: 0, height: line.ascent + line.descent)
    }

    /// The rectangles covering the characters of `range`, one per line it
    /// touches, in layout coordinates: what to highlight, or to hit-test a link
    /// that wraps onto a second line.
    public func rects(forCharacters range: Range<Int>) -> [Rect] {
        var out: [Rect] = []
        for n in lines.indices {
            let inRange = characterExtents(line: n).filter { range.contains($0.index) }
            guard let x0 = inRange.map(\.minX).min(), let x1 = inRange.map(\.maxX).max() else { continue }
            let line = lines[n]
            out.append(Rect(x: x0, y: line.origin.y - line.ascent, width: x1 - x0, height: line.ascent + line.descent))
        }
        return out
    }

    /// The link under `point` (layout coordinates), if any: the character there
    /// must contain the point, not just be nearest to it.
    public func link(at point: Point) -> TextLink? {
        guard let n = lineIndex(atY: point.y) else { return nil }
        let line = lines[n]
        guard point.y >= line.origin.y - line.ascent, point.y <= line.origin.y + line.descent else { return nil }
        guard let e = characterExtents(line: n).first(where: { point.x >= $0.minX && point.x < $0.maxX }) else { return nil }
        return text.attributes(at: e.index)?.link
    }

    /// The character range of each link, in order.
    public var linkRanges: [(range: Range<Int>, link: TextLink)] {
        text.runs.compactMap { run in run.attributes.link.map { (run.range, $0) } }
    }
}
