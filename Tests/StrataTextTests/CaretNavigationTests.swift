import StrataGraphics
import Testing

@testable import StrataText

private let body = TextAttributes(font: Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces))

/// Moving the caret on screen: the arrow keys through mixed-direction text,
/// and up and down through wrapped lines.
@Suite struct CaretNavigationTests {
    /// Every step right from the left end, until it stops.
    func walk(_ l: TextLayout, from start: Int, right: Bool) -> [Int] {
        var out = [start], i = start
        while let next = l.caretIndex(visuallyFrom: i, movingRight: right), out.count < 100 {
            out.append(next)
            i = next
        }
        return out
    }

    @Test func leftToRightTextMovesLogically() {
        let l = TextLayout(AttributedText("hello", attributes: body), width: .infinity)
        #expect(walk(l, from: 0, right: true) == [0, 1, 2, 3, 4, 5])
        #expect(walk(l, from: 5, right: false) == [5, 4, 3, 2, 1, 0])
    }

    @Test func mixedTextMovesAsDrawn() {
        // "ab " then three Hebrew letters (drawn right to left) then " cd".
        let s = "ab \u{5D0}\u{5D1}\u{5D2} cd"
        let l = TextLayout(AttributedText(s, attributes: body), width: .infinity)
        let steps = walk(l, from: 0, right: true)
        let xs = steps.map { l.caretRect(forCharacterAt: $0).minX }
        // Each step goes right on screen, and the walk crosses the line.
        for (a, b) in zip(xs, xs.dropFirst()) { #expect(b > a, "\(steps) \(xs)") }
        #expect(steps.last == s.count && steps.count >= 8, "\(steps)")
        // Inside the Hebrew word, going right goes back in logical order.
        let hebrew = steps.filter { (4...5).contains($0) }
        #expect(hebrew == [5, 4], "\(steps)")
        // And left retraces it.
        #expect(walk(l, from: s.count, right: false).last == 0)
    }

    @Test func rightToLeftParagraphStartsOnTheRight() {
        let s = "\u{5E9}\u{5DC}\u{5D5}\u{5DD}"
        let l = TextLayout(AttributedText(s, attributes: body), width: .infinity)
        #expect(l.lines[0].baseDirection == .rightToLeft)
        // Left is forward in a right-to-left line.
        #expect(walk(l, from: 0, right: false) == [0, 1, 2, 3, 4])
        #expect(l.caretIndex(visuallyFrom: 0, movingRight: true) == nil)
    }

    @Test func stepsCrossWrappedAndBrokenLines() {
        let l = TextLayout(AttributedText("one two three\nfour", attributes: body), width: 60)
        #expect(l.lines.count >= 3)
        // Right from the end of every line but the last lands on the next line's start.
        for n in 0..<(l.lines.count - 1) {
            let end = l.caretRange(ofLine: n).upperBound
            #expect(l.caretIndex(visuallyFrom: end, movingRight: true) == l.lines[n + 1].characters.lowerBound, "line \(n)")
            #expect(l.caretIndex(visuallyFrom: l.lines[n + 1].characters.lowerBound, movingRight: false) == end, "line \(n)")
        }
        #expect(l.caretRange(ofLine: l.lines.count - 1).upperBound == 18)
        #expect(l.caretRange(ofLine: 99) == 0...0)
    }

    @Test func upAndDownKeepTheColumn() {
        let l = TextLayout(AttributedText("abcdef\nab\nabcdef", attributes: body), width: .infinity)
        let x = l.caretRect(forCharacterAt: 5).minX
        // Down from column 5: the short line's end, then column 5 again.
        #expect(l.caretIndex(verticallyFrom: 5, down: true, x: x) == 9)
        #expect(l.caretIndex(verticallyFrom: 9, down: true, x: x) == 15)
        #expect(l.caretIndex(verticallyFrom: 15, down: true, x: x) == nil)
        #expect(l.caretIndex(verticallyFrom: 15, down: false, x: x) == 9)
        #expect(l.caretIndex(verticallyFrom: 9, down: false, x: x) == 5)
        #expect(l.caretIndex(verticallyFrom: 5, down: false, x: x) == nil)
        #expect(l.lineIndex(forCharacterAt: 8) == 1 && l.lineIndex(forCharacterAt: 99) == 2 && l.lineIndex(forCharacterAt: -1) == 0)
        // Empty layouts answer without trapping.
        let empty = TextLayout(AttributedText(), width: 100)
        #expect(empty.caretIndex(visuallyFrom: 0, movingRight: true) == nil)
        #expect(empty.caretIndex(verticallyFrom: 0, down: true, x: .nan) == nil)
    }
}
