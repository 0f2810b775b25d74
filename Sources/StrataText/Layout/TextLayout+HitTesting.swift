import StrataGraphics

extension TextLayout {
    /// Each drawn character of line `n`, left to right on screen, with its
    /// horizontal extent relative to the layout's origin and its direction (a
    /// ligature's characters share its width evenly).
    func characterExtents(line n: Int) -> [(index: Int, minX: Double, maxX: Double, isRightToLeft: Bool)] {
        let line = lines[n]
        return line.boxes.map { b in
            (index: b.index, minX: line.origin.x + b.minX, maxX: line.origin.x + b.maxX, isRightToLeft: b.isRightToLeft)
        }
    }

    /// The line nearest to `y` (layout coordinates: origin at the top left).
    func lineIndex(atY y: Double) -> Int? {
        guard !lines.isEmpty else { return nil }
        for (n, line) in lines.enumerated() where y < line.origin.y + line.descent { return n }
        return lines.count - 1
    }

    /// The character index nearest to `point` (layout coordinates), as a caret
    /// would land there (`CTLineGetStringIndexForPosition`): on a character's
    /// leading half, before it; on its trailing half, after it. A character's
    /// leading edge is its left in left-to-right text and its right in
    /// right-to-left text. Indices count characters (grapheme clusters), so a
    /// caret never lands inside an emoji sequence or a letter with its marks.
    /// Points above or below the text land on the first or last line.
    public func characterIndex(at point: Point) -> Int {
        guard let n = lineIndex(atY: point.y), !point.x.isNaN else { return 0 }
        let extents = characterExtents(line: n)
        guard !extents.isEmpty else { return lines[n].characters.lowerBound }
        let e = extents.first { point.x < $0.maxX } ?? extents.last!
        let leftHalf = point.x < (e.minX + e.maxX) / 2
        let after = leftHalf == e.isRightToLeft
        return min(after ? e.index + 1 : e.index, lines[n].characters.upperBound)
    }

    /// Where a caret before character `index` stands: a zero-width rectangle the
    /// height of its line (`CTLineGetOffsetForStringIndex`), at the character's
    /// leading edge (its right edge in right-to-left text). An index past the
    /// end, or of a character not drawn (a trailing space or newline), stands
    /// after the last drawn character before it.
    public func caretRect(forCharacterAt index: Int) -> Rect {
        guard !lines.isEmpty else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let n = index < 0 ? 0 : (lines.firstIndex { $0.characters.contains(index) } ?? (lines.count - 1))
        let line = lines[n]
        let extents = characterExtents(line: n)
        var x = line.baseDirection == .rightToLeft && width.isFinite ? line.origin.x + line.width : line.origin.x
        if let e = extents.first(where: { $0.index == index }) {
            x = e.isRightToLeft ? e.maxX : e.minX
        } else if let before = extents.filter({ $0.index < index }).max(by: { $0.index < $1.index }) {
            x = before.isRightToLeft ? before.minX : before.maxX
        }
        return Rect(x: x, y: line.origin.y - line.ascent, width: 0, height: line.ascent + line.descent)
    }

    /// The rectangles covering the characters of `range` in layout
    /// coordinates: what to highlight, or to hit-test a link that wraps onto
    /// a second line. One per line in left-to-right text; in mixed-direction
    /// text a logical range can be several pieces on screen, and each piece
    /// gets its own rectangle, left to right.
    public func rects(forCharacters range: Range<Int>) -> [Rect] {
        var out: [Rect] = []
        for n in lines.indices {
            let line = lines[n]
            var piece: (Double, Double)? = nil
            func close() {
                if let (x0, x1) = piece {
                    out.append(Rect(x: x0, y: line.origin.y - line.ascent, width: x1 - x0, height: line.ascent + line.descent))
                }
                piece = nil
            }
            for e in characterExtents(line: n) {
                if range.contains(e.index) {
                    piece = piece.map { ($0.0, e.maxX) } ?? (e.minX, e.maxX)
                } else {
                    close()
                }
            }
            close()
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
