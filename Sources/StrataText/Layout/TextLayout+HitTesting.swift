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

    /// The line nearest to `y` (layout coordinates: origin at the top left);
    /// nil when there are no lines.
    public func lineIndex(atY y: Double) -> Int? {
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

    // MARK: Caret navigation

    /// The line a caret before character `index` stands on: the line that
    /// holds the character, or the last line past the end.
    public func lineIndex(forCharacterAt index: Int) -> Int {
        guard !lines.isEmpty else { return 0 }
        return index < 0 ? 0 : (lines.firstIndex { $0.characters.contains(index) } ?? (lines.count - 1))
    }

    /// The caret positions that stand on line `n`: from its first
    /// character to before its last (a wrapped line's trailing space, a
    /// line break), or to the text's end on the last line. Home and End
    /// go to its ends.
    public func caretRange(ofLine n: Int) -> ClosedRange<Int> {
        guard lines.indices.contains(n) else { return 0...0 }
        let c = lines[n].characters
        let last = n == lines.count - 1 ? c.upperBound : max(c.lowerBound, c.upperBound - 1)
        return c.lowerBound...last
    }

    /// The caret position one step left (or right) of the caret before
    /// `index`, on screen: what the arrow keys do. In mixed-direction text
    /// the step follows the glyphs, so the logical index can jump (GTK and
    /// the Mac move visually too). Past a line's end in its paragraph's
    /// direction the caret goes to the next line's start; past its start,
    /// to the previous line's end. Nil at the text's first or last position.
    public func caretIndex(visuallyFrom index: Int, movingRight right: Bool) -> Int? {
        guard !lines.isEmpty else { return nil }
        let n = lineIndex(forCharacterAt: index)
        let stops = caretStops(line: n)
        let x = stops.first { $0.index == index }?.x ?? caretRect(forCharacterAt: index).minX
        // The nearest stop that way; of several there (a direction
        // boundary), the one logically nearest.
        var best: (x: Double, index: Int)? = nil
        for c in stops where c.index != index && (right ? c.x > x + 0.01 : c.x < x - 0.01) {
            if let b = best {
                if abs(c.x - b.x) <= 0.01 {
                    if abs(c.index - index) >= abs(b.index - index) { continue }
                } else if right ? c.x > b.x : c.x < b.x {
                    continue
                }
            }
            best = c
        }
        if let best { return best.index }
        let forward = right == (lines[n].baseDirection == .leftToRight)
        let m = forward ? n + 1 : n - 1
        guard lines.indices.contains(m) else { return nil }
        return forward ? lines[m].characters.lowerBound : caretRange(ofLine: m).upperBound
    }

    /// Each caret position of line `n` with the x its caret is drawn at
    /// (as `caretRect` places it), in logical order. At a direction
    /// boundary two positions can share an x; some x a glyph edge has is
    /// no position's, and the caret never stops there.
    func caretStops(line n: Int) -> [(x: Double, index: Int)] {
        let line = lines[n]
        let range = caretRange(ofLine: n)
        var leading = [Double?](repeating: nil, count: range.count)
        var trailing = [Double?](repeating: nil, count: range.count)
        for e in characterExtents(line: n) where range.contains(e.index) {
            leading[e.index - range.lowerBound] = e.isRightToLeft ? e.maxX : e.minX
            trailing[e.index - range.lowerBound] = e.isRightToLeft ? e.minX : e.maxX
        }
        // A position with no drawn character stands after the last drawn
        // one before it, or at the line's start.
        var after = line.baseDirection == .rightToLeft && width.isFinite ? line.origin.x + line.width : line.origin.x
        var stops: [(x: Double, index: Int)] = []
        stops.reserveCapacity(range.count)
        for i in range {
            let k = i - range.lowerBound
            stops.append((leading[k] ?? after, i))
            if let t = trailing[k] { after = t }
        }
        return stops
    }

    /// The caret position on the line above (or below) the caret before
    /// `index`, nearest to `x` (the column the caret keeps while moving
    /// up and down); nil on the first (or last) line.
    public func caretIndex(verticallyFrom index: Int, down: Bool, x: Double) -> Int? {
        guard !lines.isEmpty else { return nil }
        let m = lineIndex(forCharacterAt: index) + (down ? 1 : -1)
        guard lines.indices.contains(m) else { return nil }
        let i = characterIndex(at: Point(x: x, y: lines[m].origin.y))
        let r = caretRange(ofLine: m)
        return min(max(i, r.lowerBound), r.upperBound)
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
