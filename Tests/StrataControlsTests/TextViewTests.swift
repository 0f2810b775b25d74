import StrataGraphics
import StrataLayers
import StrataText
import Testing

@testable import StrataControls

/// A text view's delegate that notes what it is told and can refuse changes.
@MainActor
final class TextViewLog: TextViewDelegate {
    var asked: [(Range<Int>, String)] = []
    var changes = 0, selections = 0, began = 0, ended = 0
    var allow: (Range<Int>, String) -> Bool = { _, _ in true }

    func textView(_ textView: TextView, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool {
        asked.append((range, text))
        return allow(range, text)
    }
    func textViewDidChange(_ textView: TextView) { changes += 1 }
    func textViewDidChangeSelection(_ textView: TextView) { selections += 1 }
    func textViewDidBeginEditing(_ textView: TextView) { began += 1 }
    func textViewDidEndEditing(_ textView: TextView) { ended += 1 }
}

@MainActor
@Suite struct TextViewTests {
    func make(_ text: String = "", width: Double = 240, height: Double = 120) -> (InputDispatcher, TextView, TextViewLog) {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let d = InputDispatcher(rootView: root)
        let view = TextView(frame: Rect(x: 20, y: 20, width: width, height: height), text: text)
        let log = TextViewLog()
        view.delegate = log
        root.addSubview(view)
        _ = view.becomeFirstResponder()
        return (d, view, log)
    }

    func press(_ d: InputDispatcher, _ key: Key, _ modifiers: KeyModifiers = [], _ characters: String = "") {
        d.send(.key(KeyEvent(.down, key: key, characters: characters, modifiers: modifiers, timestamp: 0)))
    }

    @Test func returnTypesALineBreakTheDelegateCanRefuse() {
        let (d, view, log) = make("ab")
        #expect(log.began == 1)
        press(d, .enter)
        press(d, .character("c"), [], "c")
        #expect(view.text == "ab\nc" && view.selectedRange == 4..<4)
        #expect(log.asked.first! == (2..<2, "\n") && log.changes == 2)
        // A delegate that refuses line breaks (a chat box sends on Return).
        log.allow = { $1 != "\n" }
        press(d, .enter)
        #expect(view.text == "ab\nc")
        // Pasted text keeps its line breaks.
        d.clipboard.writeString("x\ny", primary: false)
        log.allow = { _, _ in true }
        press(d, .character("v"), .control)
        #expect(view.text == "ab\ncx\ny")
        #expect(view.accessibilityRole == .text && view.accessibilityTextContent?.text == "ab\ncx\ny")
    }

    @Test func upAndDownKeepTheColumnAndHomeEndTakeTheLine() {
        let (d, view, _) = make("abcdef\nab\nabcdef")
        view.selectedRange = 5..<5
        press(d, .down)
        #expect(view.selectedRange == 9..<9)
        press(d, .down)
        #expect(view.selectedRange == 15..<15)
        press(d, .up, .shift)
        #expect(view.selectedRange == 9..<15)
        press(d, .up)
        #expect(view.selectedRange == 5..<5)
        // Past the first line: the start; past the last: the end.
        press(d, .up)
        #expect(view.selectedRange == 0..<0)
        press(d, .end)
        #expect(view.selectedRange == 6..<6)
        press(d, .down)
        press(d, .home)
        #expect(view.selectedRange == 7..<7)
        press(d, .end, .control)
        #expect(view.selectedRange == 16..<16)
        press(d, .home, [.control, .shift])
        #expect(view.selectedRange == 0..<16)
        press(d, .down)
        press(d, .down)
        press(d, .down)
        #expect(view.selectedRange == 16..<16)
    }

    @Test func textWrapsAndTheCaretStaysInView() {
        let words = (1...60).map { "word\($0)" }.joined(separator: " ")
        let (d, view, _) = make("", width: 160, height: 80)
        view.insertText(words)
        let layout = view.textLayout
        #expect(layout.lines.count > 10)
        #expect(layout.lines.allSatisfy { $0.width <= 160 - 2 * TextView.padding + 0.5 })
        // Typed at the end: scrolled down so the caret shows.
        #expect(view.contentOffset.y > 0)
        #expect(view.caretRect.maxY <= 80 && view.caretRect.minY >= 0, "\(view.caretRect)")
        // Page Up moves several lines at once, and the view follows.
        let before = layout.lineIndex(forCharacterAt: view.selectedRange.lowerBound)
        press(d, .pageUp)
        let after = view.textLayout.lineIndex(forCharacterAt: view.selectedRange.lowerBound)
        #expect(before - after >= 2, "\(before) → \(after)")
        #expect(view.caretRect.minY >= 0)
        press(d, .home, .control)
        #expect(view.contentOffset.y == 0)
        // The wheel scrolls without moving the caret, within the text.
        #expect(d.send(.scroll(.wheel(lines: Size(width: 0, height: 1), at: Point(x: 60, y: 60), timestamp: 1))))
        #expect(view.contentOffset.y == 40 && view.selectedRange == 0..<0)
        _ = d.send(.scroll(.precise(Size(width: 0, height: 1e9), phase: .changed, at: Point(x: 60, y: 60), timestamp: 1)))
        #expect(view.contentOffset.y == layout.size.height - (80 - 2 * TextView.padding))
        _ = d.send(.scroll(.precise(Size(width: 0, height: .nan), phase: .changed, at: Point(x: 60, y: 60), timestamp: 1)))
        #expect(view.contentOffset.y.isFinite)
    }

    @Test func aFinalLineBreakHasItsOwnLine() {
        let (_, view, _) = make("ab\n")
        let end = view.caretRect
        view.selectedRange = 0..<0
        #expect(end.minY > view.caretRect.maxY - 1, "\(end) \(view.caretRect)")
        #expect(abs(end.minX - view.caretRect.minX) < 0.5)
    }

    @Test func clicksTakeTheLineUnderThePointer() {
        let (d, view, _) = make("first line\nsecond line\nthird")
        view.selectedRange = 0..<0
        let layout = view.textLayout
        // A click on the middle of the second line, then a triple click on it.
        let y = 20 + TextView.padding + layout.lines[1].origin.y - 3
        d.send(.pointer(PointerEvent(.down, at: Point(x: 20 + TextView.padding + 1, y: y), timestamp: 1)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: 20 + TextView.padding + 1, y: y), timestamp: 1.01)))
        #expect(view.selectedRange == 11..<11)
        // Past the end of a line: before its line break.
        d.send(.pointer(PointerEvent(.down, at: Point(x: 250, y: y), timestamp: 3)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: 250, y: y), timestamp: 3.01)))
        #expect(view.selectedRange == 22..<22)
        for t in [3.1, 3.2] {
            d.send(.pointer(PointerEvent(.down, at: Point(x: 250, y: y), timestamp: t)))
            d.send(.pointer(PointerEvent(.up, at: Point(x: 250, y: y), timestamp: t + 0.01)))
        }
        #expect(view.selectedRange == 11..<23)
    }

    @Test func aTextViewIsDrawn() throws {
        let host = try LayerHost(width: 300, height: 140)
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 140))
        root.backgroundColor = Color(white: 0.95)
        let d = InputDispatcher(rootView: root, host: host)
        let view = TextView(frame: Rect(x: 20, y: 10, width: 260, height: 120), text: "Notes\nשלום עולם and more text that wraps onto a third line")
        root.addSubview(view)
        _ = view.becomeFirstResponder()
        view.selectedRange = 0..<5
        _ = d
        host.renderFrame()
        let image = host.makeImage()
        try? image.writePNG(to: "/tmp/strata-text-view.png")
        // Text on three lines or more: dark pixels in each line's band.
        let layout = view.textLayout
        #expect(layout.lines.count >= 3)
        for line in layout.lines {
            let y0 = Int(10 + TextView.padding + line.origin.y - line.ascent), y1 = Int(10 + TextView.padding + line.origin.y)
            var darkest = 255
            for y in y0..<y1 {
                for x in 30..<270 { darkest = min(darkest, Int(image.pixels[y * image.bytesPerRow + x * 4 + 1])) }
            }
            #expect(darkest < 100, "line at \(line.origin.y)")
        }
    }

    @Test func anInputMethodReadsAroundTheCaretAndDeletesThere() {
        let (_, view, log) = make("hello world")
        view.selectedRange = 6..<8
        let around = view.surroundingText
        #expect(around == TextInputSurrounding(text: "hello world", caret: 8, anchor: 6))
        // Two characters before the selection and one after go; the selection stays.
        view.deleteSurroundingText(before: 2, after: 1)
        #expect(view.text == "hellwold" && view.selectedRange == 4..<6 && log.changes == 1)
        view.deleteSurroundingText(before: 0, after: 0)
        view.deleteSurroundingText(before: -5, after: 99)
        #expect(view.text == "hellwo" && view.selectedRange == 4..<6)
        // A long text gives a thousand characters each side.
        view.text = String(repeating: "x", count: 5000)
        view.selectedRange = 2500..<2500
        #expect(view.surroundingText.map { $0.text.count == 2000 && $0.caret == 1000 } == true)
        // A password gives nothing.
        view.isSecureTextEntry = true
        #expect(view.surroundingText == nil && view.acceptsLineBreaks)
    }
}
