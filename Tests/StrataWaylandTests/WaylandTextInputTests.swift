import Foundation
import StrataAccessibility
import StrataControls
import StrataGraphics
import StrataTestSupport
import StrataWaylandTesting
import Testing

@testable import StrataWayland

/// Text through a real compositor: an input method's composition and
/// commits relayed by sway (input-method-v2 to text-input-v3), the
/// clipboard and primary selection between two windows, and the
/// accessibility bridge on a Wayland window.
@MainActor
@Suite(.serialized) struct WaylandTextInputTests {
    /// Handles the window's (and the input method's) events and frames
    /// until `done`, for at most 5,000 turns of 2 ms. Counted in turns, not
    /// on the wall clock: other tests hold the main actor for seconds at a
    /// time (a screen reader's run), and no turn runs meanwhile.
    /// (Asynchronous: awaiting lets the main queue run, where pastes are
    /// read and their time limits kept.)
    func pump(_ windows: [WaylandWindow], _ method: TestInputMethod? = nil, until done: () -> Bool) async {
        for _ in 0..<5000 where !done() {
            for w in windows {
                w.processEvents()
                w.renderFrameIfNeeded()
            }
            method?.dispatch()
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
    }

    func fieldWindow(_ sway: HeadlessSway, _ id: String, text: String = "") throws -> (WaylandWindow, TextField) {
        let window = try WaylandWindow(title: id, appID: id, size: Size(width: 300, height: 120), display: sway.socketPath)
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 120))
        let field = TextField(frame: Rect(x: 10, y: 10, width: 260, height: 32), text: text)
        root.addSubview(field)
        window.rootView = root
        _ = field.becomeFirstResponder()
        return (window, field)
    }

    @Test func anInputMethodComposesAndCommitsThroughTheCompositor() async throws {
        let sway = try HeadlessSway(width: 800, height: 600)
        defer { sway.stop() }
        let method = try TestInputMethod(display: sway.socketPath)
        let (window, field) = try fieldWindow(sway, "strata-ime")
        defer { window.close() }
        #expect(window.hasInputMethodRelay)
        await pump([window], method) { ((try? sway.contentRect(appID: "strata-ime")) ?? nil) != nil }
        // The field has focus and the window text-input focus: the compositor activates the method.
        await pump([window], method) { method.isActive }
        #expect(method.isActive)
        #expect(method.contentType.map { $0.hint == 0 && $0.purpose == 0 } == true)
        // Pinyin as fcitx5 shows it: the composition, then the characters.
        method.setPreedit("ni")
        method.setPreedit("nihao")
        await pump([window], method) { field.editableText.markedRange != nil && field.text == "nihao" }
        #expect(field.text == "nihao" && field.editableText.markedRange == 0..<5)
        method.commitString("你好")
        await pump([window], method) { field.text == "你好" && field.editableText.markedRange == nil }
        #expect(field.text == "你好" && field.editableText.markedRange == nil && field.selectedRange == 2..<2)
        // The method hears the text around the caret (bytes: 6 for two characters).
        await pump([window], method) { method.surroundingText?.text == "你好" }
        #expect(method.surroundingText.map { $0.text == "你好" && $0.cursor == 6 && $0.anchor == 6 } == true)
        // A correction: the last character (3 bytes) deleted, another typed.
        method.deleteSurrounding(before: 3, after: 0)
        await pump([window], method) { field.text == "你" }
        method.commitString("们")
        await pump([window], method) { field.text == "你们" }
        #expect(field.text == "你们")
        // Focus leaves the field: the method is deactivated.
        field.resignFirstResponder()
        await pump([window], method) { !method.isActive }
        #expect(!method.isActive)
        // A password field is told as one.
        field.isSecureTextEntry = true
        _ = field.becomeFirstResponder()
        await pump([window], method) { method.isActive }
        #expect(method.contentType.map { $0.purpose == 8 && $0.hint & 0xC0 == 0xC0 } == true)
        #expect(window.connectionFailure == nil)
    }

    @Test func theClipboardAndPrimarySelectionGoBetweenWindows() async throws {
        let sway = try HeadlessSway(width: 800, height: 600)
        defer { sway.stop() }
        let (a, from) = try fieldWindow(sway, "strata-copy", text: "copied text")
        defer { a.close() }
        let (b, to) = try fieldWindow(sway, "strata-paste")
        defer { b.close() }
        #expect(a.hasSystemClipboard && b.hasSystemClipboard && a.hasPrimarySelection)
        // A keyboard on the seat: the serials of its focus are what a new selection needs.
        let input = try VirtualInput(display: sway.socketPath, extent: (sway.width, sway.height))
        defer { withExtendedLifetime(input) {} }
        await pump([a, b]) { a.hasKeyboard && b.hasKeyboard }
        #expect(input.hasKeyboard && a.hasKeyboard && b.hasKeyboard)
        // Both shown, the first window takes keyboard focus, and copies.
        await pump([a, b]) {
            ((try? sway.contentRect(appID: "strata-copy")) ?? nil) != nil && ((try? sway.contentRect(appID: "strata-paste")) ?? nil) != nil
        }
        _ = try sway.command("[app_id=\"strata-copy\"] focus")
        await pump([a, b]) { a.inputSerial != 0 }
        #expect(a.inputSerial != 0)
        from.selectedRange = 0..<6
        from.copy()
        from.selectedRange = 7..<11
        _ = from.keyEvent(KeyEvent(.down, key: .right, modifiers: .shift, timestamp: 0))
        // (Selecting put "text" on the primary selection.)
        #expect(a.clipboard?.holds(primary: false) == true && a.clipboard?.holds(primary: true) == true)
        _ = try sway.command("[app_id=\"strata-paste\"] focus")
        await pump([a, b]) { b.clipboard?.offeredTypes(primary: false) != nil }
        #expect(
            b.clipboard?.offeredTypes(primary: false)?.contains("text/plain;charset=utf-8") == true,
            "\(String(describing: b.clipboard?.offeredTypes(primary: false)))")
        // Read through pipes the first window writes: each read answers once
        // (the first window answers only when the pump gets to it, which other
        // tests can hold up for seconds: the paste's limit is long here).
        b.clipboard?.readTimeout = 120
        var pasted: String?? = nil
        var primary: String?? = nil
        b.dispatcher?.clipboard.readString(primary: false) { pasted = .some($0) }
        b.dispatcher?.clipboard.readString(primary: true) { primary = .some($0) }
        await pump([a, b]) { pasted != nil && primary != nil }
        #expect(
            pasted == .some("copied") && primary == .some("text"),
            "\(String(describing: pasted)) \(String(describing: primary)), served \(a.clipboard?.pastesServed ?? -1)")
        // A paste into the field goes through the same way.
        to.paste()
        await pump([a, b]) { to.text == "copied" }
        #expect(
            to.text == "copied",
            "served \(a.clipboard?.pastesServed ?? -1), offered \(String(describing: b.clipboard?.offeredTypes(primary: false)))")
        // The copying window gone, the selection is empty: a paste gives nothing.
        a.close()
        await pump([b]) { b.clipboard?.offeredTypes(primary: false) == nil }
        var empty: String?? = nil
        b.dispatcher?.clipboard.readString(primary: false) { empty = .some($0) }
        await pump([b]) { empty != nil }
        #expect(empty == .some(nil) && to.text == "copied")
    }

    @Test func byteOffsetsBecomeCharacters() {
        // "aé你😀" is 1 + 2 + 3 + 4 bytes; the caret after "é" is byte 3.
        let sent = (text: "aé你😀", caret: 3)
        #expect(WaylandTextInput.characters(beforeBytes: 2, afterBytes: 3, in: sent) == (1, 1))
        // A length ending inside a character takes it; lengths past the text stop at its ends.
        #expect(WaylandTextInput.characters(beforeBytes: 1, afterBytes: 4, in: sent) == (1, 2))
        #expect(WaylandTextInput.characters(beforeBytes: 99, afterBytes: 99, in: sent) == (2, 2))
        #expect(WaylandTextInput.characters(beforeBytes: 5, afterBytes: 5, in: nil) == (0, 0))
        #expect(WaylandTextInput.characterOffset(ofByte: 3, in: "你好") == 1)
        #expect(WaylandTextInput.characterOffset(ofByte: 4, in: "你好") == 2)
        #expect(WaylandTextInput.characterOffset(ofByte: -1, in: "你好") == 2)
        #expect(WaylandTextInput.characterOffset(ofByte: 99, in: "你好") == 2)
        // Surrounding text too long for a message keeps the caret's side.
        let long = TextInputSurrounding(text: String(repeating: "你", count: 2000), caret: 1990, anchor: 1990)
        let (text, caret, anchor) = WaylandTextInput.bytes(of: long)
        #expect(text.utf8.count <= WaylandArgument.maximumStringBytes && caret == anchor)
        #expect(Array(text.utf8).count - caret == 10 * 3)
        let short = WaylandTextInput.bytes(of: TextInputSurrounding(text: "aé", caret: 9, anchor: -3))
        #expect(short.0 == "aé" && short.1 == 3 && short.2 == 0)
        #expect(WaylandTextInput.coordinate(.nan) == nil && WaylandTextInput.coordinate(1e300) == 1_000_000)
    }

    @Test func aWaylandWindowIsOnTheAccessibilityBus() throws {
        guard PrivateSessionBus.isInstalled, FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher") else { return }
        let sway = try HeadlessSway(width: 800, height: 600)
        defer { sway.stop() }
        let bus = try PrivateSessionBus("wayland-a11y")
        defer { bus.stop() }
        try AccessibilityBridge.setEnabled(true, sessionBus: bus.address)
        let (window, field) = try fieldWindow(sway, "strata-a11y")
        defer { window.close() }
        window.startAccessibility(sessionBus: bus.address, rootView: try #require(window.rootView))
        let bridge = try #require(window.accessibilityBridge)
        #expect(bridge.name == "strata-a11y")
        // Keyboard focus moves are told to the bridge (no error, and it stays open).
        field.resignFirstResponder()
        _ = field.becomeFirstResponder()
        window.close()
        #expect(window.accessibilityBridge == nil)
    }
}
