import StrataGraphics
import StrataLayers
import Testing

@_spi(Benchmarks) @testable import StrataControls

/// A list operated by the keys and by an assistive tool.
@MainActor
@Suite struct ListKeyboardTests {
    func press(_ h: ListHarness, _ key: Key) {
        h.dispatcher.send(.key(KeyEvent(.down, key: key, timestamp: 0)))
    }

    @Test func keysMoveFromRowToRowAndSelect() throws {
        let h = try ListHarness(rows: 100)
        h.source.heights = Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 40.0) })
        h.list.reloadData()
        #expect(h.list.canBecomeFirstResponder)
        #expect(h.dispatcher.focusOrder.contains { $0 === h.list })
        #expect(h.dispatcher.moveFocus())
        #expect(h.list.isFirstResponder && h.list.focusedRow == 0)
        press(h, .down)
        press(h, .down)
        #expect(h.list.focusedRow == 2 && h.list.focusRingRect == h.list.rectForRow(2).insetBy(dx: 3, dy: 3))
        // The ring goes round the row: blue just outside its edges.
        h.frames(2)
        let image = h.host.makeImage()
        try? image.writePNG(to: "/tmp/strata-list-focus.png")
        let row = h.list.rectForRow(2)
        let y = Int(row.midY), x = 1
        let p = Array(image.pixels[(y * image.bytesPerRow + x * 4)..<(y * image.bytesPerRow + x * 4 + 4)])
        #expect(p[2] > 150 && p[0] < 120, "ring pixel \(p)")
        press(h, .enter)
        press(h, .space)
        #expect(h.source.selected == [2, 2])
        // A page is the visible rows less one; the list follows the row.
        press(h, .pageDown)
        #expect(h.list.focusedRow == 2 + 9)
        press(h, .end)
        #expect(h.list.focusedRow == 99 && h.list.visibleRows.contains(99))
        #expect(h.list.contentOffset.y == h.list.maximumContentOffset.y)
        press(h, .down)
        #expect(h.list.focusedRow == 99)
        press(h, .home)
        #expect(h.list.focusedRow == 0 && h.list.contentOffset.y == 0)
        press(h, .up)
        #expect(h.list.focusedRow == 0)
        // Keys it does not use go on (Tab moves focus on).
        #expect(!h.list.keyEvent(KeyEvent(.down, key: .tab, timestamp: 0)))
        // An empty list takes no focus.
        h.source.count = 0
        h.list.reloadData()
        #expect(!h.list.canBecomeFirstResponder)
        #expect(!h.list.keyEvent(KeyEvent(.down, key: .down, timestamp: 0)))
    }

    @Test func assistiveToolsReadRowsAndScrollByPage() throws {
        let h = try ListHarness(rows: 100)
        h.source.heights = Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 40.0) })
        h.list.reloadData()
        #expect(h.list.accessibilityValue == "Rows 1 to 10 of 100")
        #expect(h.list.accessibilityScrollDirections == [.down])
        var heard: [AccessibilityNotification] = []
        let token = AccessibilityCenter.addListener(for: h.dispatcher.rootView) { n, _ in heard.append(n) }
        defer { AccessibilityCenter.removeListener(token) }
        #expect(h.list.accessibilityScroll(.down))
        #expect(h.list.contentOffset.y == 360 && heard.last == .pageScrolled("Rows 10 to 19 of 100"))
        #expect(!h.list.accessibilityScroll(.left))
        #expect(h.list.accessibilityScroll(.up) && h.list.contentOffset.y == 0)
        #expect(!h.list.accessibilityScroll(.up))
        // Rows are list items with their place; activating one selects it.
        let cell = try #require(h.list.cellsByRow[3])
        #expect(cell.accessibilityRole == .listItem)
        #expect(cell.accessibilityAttributes == ["posinset": "4", "setsize": "100"])
        #expect(cell.accessibilityActivate() && h.source.selected == [3])
        // The row the keys are on is selected and said to be focused.
        #expect(h.dispatcher.moveFocus())
        #expect(h.list.cellsByRow[0]?.accessibilityTraits == .selected && cell.accessibilityTraits == [])
        #expect(heard.last == .focusMoved)
        // A spare cell has no place.
        #expect(ListCell(reuseIdentifier: "x").accessibilityAttributes.isEmpty)
        #expect(!ListCell(reuseIdentifier: "x").activate())
    }

    @Test func aPlainScrollViewSaysItsPage() {
        let s = ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        s.contentSize = Size(width: 100, height: 450)
        #expect(s.accessibilityScrollStatus == "Page 1 of 5")
        #expect(s.accessibilityScroll(.down) && s.contentOffset.y == 90)
        #expect(s.accessibilityScrollStatus == "Page 2 of 5")
        s.contentSize = Size(width: 0, height: 0)
        // The offset stays where it was (as UIKit leaves it), so only up is left.
        #expect(s.accessibilityScrollStatus == "Page 1 of 1" && s.accessibilityScrollDirections == [.up])
    }
}

/// What assistive tools read of editable text, piece by piece.
@MainActor
@Suite struct AccessibleTextTests {
    @Test func piecesAtAnOffset() {
        let t = AccessibilityTextContent(text: "Hello, world. Next one.\nLine two", caret: 3)
        #expect(t.selection == 3..<3 && t.lines == [0..<24, 24..<32])
        #expect(t.range(of: .character, at: 4) == 4..<5)
        // A word runs to the next word's start.
        #expect(t.range(of: .word, at: 1) == 0..<7 && t.range(of: .word, at: 7) == 7..<14)
        #expect(t.range(of: .sentence, at: 2) == 0..<14 && t.range(of: .sentence, at: 15) == 14..<24)
        #expect(t.range(of: .line, at: 30) == 24..<32 && t.range(of: .paragraph, at: 0) == 0..<24)
        // Past the end: the last piece; empty text: nothing.
        #expect(t.range(of: .character, at: 99) == 31..<32 && t.range(of: .word, at: -5) == 0..<7)
        #expect(AccessibilityTextContent(text: "", caret: 0).range(of: .word, at: 0) == 0..<0)
    }

    @Test func fieldsAndTextViewsTakeSelectionsAndSayLines() {
        let view = TextView(frame: Rect(x: 0, y: 0, width: 120, height: 100), text: "one two three four five six\nseven")
        let content = view.accessibilityTextContent!
        #expect(content.lines.count >= 3 && content.lines.last == 28..<33 && content.lines.first?.lowerBound == 0)
        var heard: [AccessibilityNotification] = []
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        root.addSubview(view)
        let token = AccessibilityCenter.addListener(for: root) { n, _ in heard.append(n) }
        defer { AccessibilityCenter.removeListener(token) }
        #expect(view.setAccessibilityTextSelection(4..<7) && view.selectedRange == 4..<7)
        #expect(heard.contains(.textSelectionChanged) && view.accessibilityTextContent?.selection == 4..<7)
        #expect(view.setAccessibilityTextSelection(-4..<900) && view.selectedRange == 0..<33)
        #expect(view.setAccessibilityTextSelection(2..<2) && view.selectedRange == 2..<2)
        let field = TextField(frame: Rect(x: 0, y: 0, width: 50, height: 30), text: "a long line that scrolls")
        #expect(field.accessibilityTextContent?.lines == [0..<24])
        #expect(View().setAccessibilityTextSelection(0..<1) == false)
    }
}
