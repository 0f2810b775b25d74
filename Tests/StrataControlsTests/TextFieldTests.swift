import StrataGraphics
import StrataLayers
import StrataText
import Testing

@testable import StrataControls

/// A delegate that notes what it is told and can refuse changes.
@MainActor
final class FieldLog: TextFieldDelegate {
    var asked: [(Range<Int>, String)] = []
    var changes = 0
    var selections = 0
    var returns = 0
    var began = 0
    var ended = 0
    var allow: (Range<Int>, String) -> Bool = { _, _ in true }

    func textField(_ field: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString: String) -> Bool {
        asked.append((range, replacementString))
        return allow(range, replacementString)
    }
    func textFieldDidChange(_ field: TextField) { changes += 1 }
    func textFieldDidChangeSelection(_ field: TextField) { selections += 1 }
    func textFieldShouldReturn(_ field: TextField) -> Bool {
        returns += 1
        return true
    }
    func textFieldDidBeginEditing(_ field: TextField) { began += 1 }
    func textFieldDidEndEditing(_ field: TextField) { ended += 1 }
}

@MainActor
@Suite struct TextFieldTests {
    func make(_ text: String = "", width: Double = 240) -> (InputDispatcher, TextField, FieldLog) {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        let d = InputDispatcher(rootView: root)
        let field = TextField(frame: Rect(x: 20, y: 20, width: width, height: 32), text: text)
        let log = FieldLog()
        field.delegate = log
        root.addSubview(field)
        return (d, field, log)
    }

    func type(_ d: InputDispatcher, _ text: String) {
        for c in text {
            d.send(.key(KeyEvent(.down, key: c == " " ? .space : .character(c), characters: String(c), timestamp: 0)))
        }
    }

    func press(_ d: InputDispatcher, _ key: Key, _ modifiers: KeyModifiers = []) {
        d.send(.key(KeyEvent(.down, key: key, modifiers: modifiers, timestamp: 0)))
    }

    @Test func keysTypeMoveAndDelete() {
        let (d, field, log) = make()
        #expect(field.becomeFirstResponder() && log.began == 1)
        type(d, "hello world")
        #expect(field.text == "hello world" && field.selectedRange == 11..<11)
        #expect(log.changes == 11 && log.asked.last! == (10..<10, "d"))
        press(d, .left, .control)
        #expect(field.selectedRange == 6..<6)
        press(d, .right, [.control, .shift])
        #expect(field.selectedRange == 6..<11)
        press(d, .backspace)
        #expect(field.text == "hello ")
        press(d, .backspace, .control)
        #expect(field.text == "")
        // Control-Z takes the deletions back, one at a time.
        press(d, .character("z"), .control)
        #expect(field.text == "hello ")
        press(d, .character("z"), .control)
        #expect(field.text == "hello world")
        press(d, .character("z"), [.control, .shift])
        #expect(field.text == "hello ")
        press(d, .home)
        #expect(field.selectedRange == 0..<0)
        press(d, .end, .shift)
        #expect(field.selectedRange == 0..<6)
        // A key with Control that means nothing here is left to others.
        #expect(!d.send(.key(KeyEvent(.down, key: .character("q"), characters: "q", modifiers: .control, timestamp: 0))))
        // Control characters a key reports are not typed.
        #expect(!d.send(.key(KeyEvent(.down, key: .other(99), characters: "\u{7}", timestamp: 0))))
        #expect(field.text == "hello ")
        field.resignFirstResponder()
        #expect(log.ended == 1)
    }

    @Test func theDelegateCanRefuseAChange() {
        let (d, field, log) = make("12")
        // Digits only, at most four.
        log.allow = { [unowned field] range, s in s.allSatisfy(\.isNumber) && field.text.count - range.count + s.count <= 4 }
        _ = field.becomeFirstResponder()
        type(d, "3a4")
        #expect(field.text == "1234")
        type(d, "5")
        #expect(field.text == "1234")
        // A paste is asked about too: it replaces the selection.
        d.clipboard.writeString("99", primary: false)
        press(d, .character("a"), .control)
        press(d, .character("v"), .control)
        #expect(field.text == "99" && log.asked.last! == (0..<4, "99"))
        d.clipboard.writeString("x1", primary: false)
        press(d, .character("v"), .control)
        #expect(field.text == "99")
    }

    @Test func theClipboardTakesAndGivesTheSelection() {
        let (d, field, _) = make("copy me")
        _ = field.becomeFirstResponder()
        field.selectedRange = 0..<4
        press(d, .character("c"), .control)
        var copied: String?
        d.clipboard.readString(primary: false) { copied = $0 }
        #expect(copied == "copy")
        // Selecting offers the primary selection too (X11).
        d.clipboard.readString(primary: true) { copied = $0 }
        #expect(copied == "copy")
        press(d, .end)
        press(d, .character("v"), .control)
        #expect(field.text == "copy mecopy")
        field.selectedRange = 0..<5
        press(d, .character("x"), .control)
        #expect(field.text == "mecopy")
        // Pasted line breaks become spaces: a field is one line.
        d.clipboard.writeString("a\nb", primary: false)
        press(d, .character("v"), .control)
        #expect(field.text == "a bmecopy")
        // Secure entry keeps its text off the clipboard.
        field.isSecureTextEntry = true
        field.selectedRange = 0..<3
        press(d, .character("c"), .control)
        d.clipboard.readString(primary: false) { copied = $0 }
        #expect(copied == "a\nb")
    }

    @Test func clicksPlaceTheCaretAndSelectWords() throws {
        let (d, field, _) = make("alpha beta gamma")
        let layout = field.textLayout
        // The middle of "beta"'s "t" (character 8), in the root's coordinates.
        let t = layout.caretRect(forCharacterAt: 8).minX
        let u = layout.caretRect(forCharacterAt: 9).minX
        let x = 20 + TextField.padding + (t + u) / 2 - 1
        d.send(.pointer(PointerEvent(.down, at: Point(x: x, y: 36), timestamp: 1)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: x, y: 36), timestamp: 1.05)))
        #expect(field.isFirstResponder && field.selectedRange == 8..<8)
        d.send(.pointer(PointerEvent(.down, at: Point(x: x, y: 36), timestamp: 1.2)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: x, y: 36), timestamp: 1.25)))
        #expect(field.editableText.selectedText == "beta")
        d.send(.pointer(PointerEvent(.down, at: Point(x: x, y: 36), timestamp: 1.4)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: x, y: 36), timestamp: 1.45)))
        #expect(field.selectedRange == 0..<16)
        // Later, a click then a drag to the left end selects from the click.
        d.send(.pointer(PointerEvent(.down, at: Point(x: x, y: 36), timestamp: 5)))
        d.send(.pointer(PointerEvent(.moved, at: Point(x: 22, y: 36), timestamp: 5.1)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: 22, y: 36), timestamp: 5.2)))
        #expect(field.selectedRange == 0..<8 && field.editableText.caret == 0)
        // A shift-click extends from the anchor.
        d.send(.pointer(PointerEvent(.down, at: Point(x: 250, y: 36), modifiers: .shift, timestamp: 9)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: 250, y: 36), timestamp: 9.05)))
        #expect(field.selectedRange == 8..<16)
        // The I-beam over the field.
        #expect(field.rootView.resolvedCursor(at: Point(x: 40, y: 30)) == .iBeam)
    }

    @Test func anInputMethodsCompositionIsUnderlinedThenCommitted() throws {
        let (_, field, log) = make("x")
        _ = field.becomeFirstResponder()
        field.setMarkedText("ni", selectedRange: 2..<2)
        field.setMarkedText("nihao", selectedRange: 5..<5)
        #expect(field.text == "xnihao" && field.editableText.markedRange == 1..<6)
        // The pre-edit is not asked about; it is drawn underlined.
        #expect(log.asked.isEmpty)
        let layout = field.textLayout
        #expect(layout.text.runs.contains { $0.range == 1..<6 && $0.attributes.underline != nil })
        // The caret stands at the end of the composition, where the
        // candidate window goes.
        #expect(abs(field.caretRect.midX - (TextField.padding + layout.caretRect(forCharacterAt: 6).minX)) < 1.01)
        field.insertText("你好")
        #expect(field.text == "x你好" && field.editableText.markedRange == nil && field.selectedRange == 3..<3)
        // The delegate is asked once, for the commit in place of the pre-edit.
        #expect(log.asked.count == 1 && log.asked[0] == (1..<6, "你好"))
    }

    @Test func returnTabAndSecureEntry() {
        let (d, field, log) = make("secret")
        let next = TextField(frame: Rect(x: 20, y: 60, width: 100, height: 30))
        field.superview!.addSubview(next)
        _ = field.becomeFirstResponder()
        press(d, .enter)
        #expect(log.returns == 1)
        press(d, .tab)
        #expect(next.isFirstResponder && log.ended == 1)
        field.isSecureTextEntry = true
        #expect(field.textLayout.text.string == "••••••")
        field.text = "a\nb"
        #expect(field.text == "a b")
        // An empty field with a placeholder keeps a caret the line's height.
        field.text = ""
        field.placeholder = "Search"
        #expect(field.caretRect.height > 10)
    }

    @Test func theCaretStaysInViewInANarrowField() {
        let (d, field, _) = make(width: 80)
        _ = field.becomeFirstResponder()
        type(d, "a long line of text that does not fit")
        #expect(field.scrollOffset > 0)
        let caret = field.caretRect
        #expect(caret.maxX <= 80 - TextField.padding + 2 && caret.minX >= TextField.padding - 2)
        press(d, .home)
        #expect(field.scrollOffset == 0)
    }

    @Test func aFieldIsDrawn() throws {
        let host = try LayerHost(width: 300, height: 100)
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        root.backgroundColor = Color(white: 0.95)
        let d = InputDispatcher(rootView: root, host: host)
        let field = TextField(frame: Rect(x: 20, y: 12, width: 260, height: 32), text: "Hello, 世界")
        let empty = TextField(frame: Rect(x: 20, y: 56, width: 260, height: 32))
        empty.placeholder = "Name"
        root.addSubview(field)
        root.addSubview(empty)
        _ = field.becomeFirstResponder()
        field.selectedRange = 7..<9
        _ = d
        host.renderFrame()
        let image = host.makeImage()
        try? image.writePNG(to: "/tmp/strata-text-field.png")
        // Dark text pixels in the first field, grey placeholder pixels in the second.
        func darkest(_ y0: Int, _ y1: Int) -> Int {
            var m = 255
            for y in y0..<y1 {
                for x in 30..<200 { m = min(m, Int(image.pixels[y * image.bytesPerRow + x * 4])) }
            }
            return m
        }
        #expect(darkest(18, 40) < 80)
        let grey = darkest(62, 84)
        #expect(grey > 90 && grey < 200, "\(grey)")
        // A composition at the end, underlined, and the caret after it.
        field.selectedRange = 9..<9
        field.setMarkedText("nihao", selectedRange: 5..<5)
        host.renderFrame()
        let composing = host.makeImage()
        try? composing.writePNG(to: "/tmp/strata-text-field-composing.png")
        let caret = field.convert(Point(x: field.caretRect.midX, y: field.caretRect.midY), to: nil)
        let i = Int(caret.y) * composing.bytesPerRow + Int(caret.x) * 4
        let p = Array(composing.pixels[i..<(i + 4)])
        #expect(p[2] > 180 && p[0] < 120, "caret \(p)")
    }
}
