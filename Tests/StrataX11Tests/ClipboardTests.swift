import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataX11Testing
import Testing

@testable import StrataX11

extension X11Tests {
    @MainActor
    @Suite struct ClipboardTests {
        /// A window holding one text field, focused.
        func fieldWindow(_ name: String, text: String) async throws -> (Window, TextField) {
            let root = View(frame: Rect(x: 0, y: 0, width: 240, height: 50))
            let field = TextField(frame: Rect(x: 10, y: 8, width: 220, height: 34), text: text)
            root.addSubview(field)
            let window = try Window(size: Size(width: 240, height: 50), scale: 1, display: name)
            window.rootView = root
            _ = await pump(window) { !window.needsFrame }
            #expect(field.becomeFirstResponder())
            return (window, field)
        }

        func control(_ c: Character) -> InputEvent {
            .key(KeyEvent(.down, key: .character(c), characters: String(c), modifiers: .control, timestamp: .nan))
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement))
        func textCopiedInOneWindowIsPastedInAnotherThroughTheServer() async throws {
            let name = try #require(testDisplay.name)
            let (a, from) = try await fieldWindow(name, text: "copied through X 你好")
            defer { a.close() }
            let (b, to) = try await fieldWindow(name, text: "")
            defer { b.close() }
            // A answers when this task pumps its events, on the main actor,
            // which the suites running beside this one share: in a full run
            // on two busy cores an answer has come after B's second had
            // passed, and the paste gave nothing.
            b.selections?.answerTimeout = 30
            from.selectedRange = 7..<from.editableText.count
            a.dispatcher?.send(control("c"))
            // B pastes: it asks the server, A answers (both windows' events
            // are read), B reads the property.
            b.dispatcher?.send(control("v"))
            #expect(
                await pump(b) {
                    a.processEvents()
                    return to.text == "through X 你好"
                }, "pasted \(to.text)")
            // Selecting in A offers the primary selection; a middle click in B pastes it.
            from.selectedRange = 0..<6
            a.dispatcher?.send(.key(KeyEvent(.down, key: .right, modifiers: .shift, timestamp: .nan)))
            b.dispatcher?.send(.pointer(PointerEvent(.down, at: Point(x: 20, y: 25), button: .middle, timestamp: .nan)))
            b.dispatcher?.send(.pointer(PointerEvent(.up, at: Point(x: 20, y: 25), button: .middle, timestamp: .nan)))
            #expect(
                await pump(b) {
                    a.processEvents()
                    return to.text.hasPrefix("copied ")
                }, "pasted \(to.text)")
            // A paste no one answers gives nothing, and the field is unchanged.
            a.close()
            let before = to.text
            b.dispatcher?.send(control("v"))
            _ = await pump(b, timeout: 1.5) { false }
            #expect(to.text == before)
        }
    }
}
