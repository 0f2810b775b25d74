import StrataGraphics
import StrataLayers
import StrataText
import Testing

@testable import StrataControls

/// What the new controls do with values no one should give them: each
/// gives a documented, held result, quickly, and draws.
@MainActor
@Suite struct ControlHostileValueTests {
    static let numbers: [Double] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0, -5]

    @Test func fontSizesAreHeld() throws {
        let host = try LayerHost(width: 200, height: 80)
        for size in Self.numbers {
            let field = TextField(frame: Rect(x: 0, y: 0, width: 200, height: 40), text: "Ada")
            field.fontSize = size
            let button = Button(title: "Go", frame: Rect(x: 0, y: 40, width: 200, height: 40))
            button.fontSize = size
            // Not a positive number: the default, 15; too large: Font's largest.
            let expected = size > 0 && size.isFinite ? Font.sizeRange.upperBound : 15
            #expect(field.fontSize == expected && button.fontSize == expected, "\(size)")
            #expect(field.caretRect.minX.isFinite && field.caretRect.height.isFinite, "\(size)")
            host.rootLayer.sublayers.forEach { $0.removeFromSuperlayer() }
            host.rootLayer.addSublayer(field.layer)
            host.rootLayer.addSublayer(button.layer)
            host.renderFrame()
        }
    }

    @Test func framesAndColoursThatAreNotNumbersDrawNothingWrong() throws {
        let host = try LayerHost(width: 200, height: 80)
        for v in Self.numbers {
            let field = TextField(frame: Rect(x: v, y: v, width: v, height: v), text: "Ada")
            field.tintColor = Color(red: v, green: v, blue: v, alpha: v)
            field.textColor = Color(red: v, green: 0, blue: 0)
            field.selectedRange = Int.min..<Int.max
            #expect(field.selectedRange == 0..<3)
            #expect(field.caretRect.minX.isFinite && field.caretRect.minY.isFinite, "\(v)")
            let button = Button(title: "Go", frame: Rect(x: v, y: v, width: v, height: v))
            button.tintColor = Color(red: v, green: v, blue: v)
            host.rootLayer.sublayers.forEach { $0.removeFromSuperlayer() }
            host.rootLayer.addSublayer(field.layer)
            host.rootLayer.addSublayer(button.layer)
            host.renderFrame()
            // Clicks and keys at places that are not numbers are refused or held.
            let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 80))
            let d = InputDispatcher(rootView: root)
            root.addSubview(field)
            _ = field.becomeFirstResponder()
            d.send(.pointer(PointerEvent(.down, at: Point(x: v, y: v), timestamp: 0)))
            d.send(.key(KeyEvent(.down, key: .left, modifiers: .control, timestamp: v)))
            #expect(field.text == "Ada")
        }
    }

    @Test func hugeAndEmptyTextIsEditedInBoundedTime() {
        let long = String(repeating: "word ", count: 20_000)
        let clock = ContinuousClock()
        let start = clock.now
        let field = TextField(frame: Rect(x: 0, y: 0, width: 200, height: 32), text: long)
        field.insertText("!")
        field.selectedRange = 0..<0
        var e = field.editableText
        e.moveSelection(backward: false, by: .word)
        e.moveSelection(backward: false, by: .paragraph, extending: true)
        e.selectWord(at: Int.max)
        e.undoLimit = Int.max
        e.undoLimit = Int.min
        #expect(field.text.count == long.count + 1 && !e.canUndo)
        #expect(clock.now - start < .seconds(20))
        // Empty everything.
        let empty = TextField()
        empty.text = ""
        empty.placeholder = ""
        empty.insertText("")
        empty.setMarkedText("", selectedRange: Int.min..<Int.max)
        empty.paste()
        #expect(empty.text.isEmpty && empty.editableText.markedRange == nil && empty.caretRect.height > 0)
        let button = Button(title: "")
        #expect(button.accessibilityLabel == "" && !button.activate())
    }
}
