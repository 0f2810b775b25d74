import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataWaylandTesting
import Testing

@testable import StrataWayland

/// A view that keeps what reaches it, with a hand over its left 100 points
/// and an I-beam elsewhere.
@MainActor
final class RecordingView: View {
    var events: [InputEvent] = []
    override func pointerEvent(_ event: PointerEvent) -> Bool {
        events.append(.pointer(event))
        return true
    }
    override func scrollEvent(_ event: ScrollEvent) -> Bool {
        events.append(.scroll(event))
        return true
    }
    override func keyEvent(_ event: KeyEvent) -> Bool {
        events.append(.key(event))
        return true
    }
    override func cursor(at point: Point) -> Cursor? { point.x < 100 ? .pointingHand : .iBeam }
    override var canBecomeFirstResponder: Bool { true }
}

/// Real input through a real compositor: sway, headless, with a virtual
/// pointer and keyboard, routes it to the window as it would a mouse's.
@MainActor
@Suite(.serialized) struct SwayInputTests {
    /// Handles the window's events and frames until `done` or five seconds.
    func pump(_ window: WaylandWindow, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !done() && Date() < deadline {
            window.processEvents()
            window.renderFrameIfNeeded()
            usleep(1000)
        }
    }

    @Test func theCompositorDecoratesAndPointerWheelAndKeysReachTheViews() throws {
        let sway = try HeadlessSway(width: 800, height: 600)
        defer { sway.stop() }
        let window = try WaylandWindow(title: "input", appID: "strata-sway-input", size: Size(width: 300, height: 200), display: sway.socketPath)
        defer { window.close() }
        // sway draws the title bar: it offers xdg-decoration.
        #expect(window.decorationMode == .serverSide)
        let view = RecordingView(frame: Rect(x: 0, y: 0, width: 300, height: 200))
        window.rootView = view
        view.becomeFirstResponder()
        let input = try VirtualInput(display: sway.socketPath, extent: (sway.width, sway.height))
        #expect(input.hasPointer && input.hasKeyboard)
        // The seat now has a pointer and a keyboard, and the window their objects.
        pump(window) { window.pointer != nil && window.keyboardObject != nil }
        #expect(window.pointer != nil && window.keyboardObject != nil)
        // sway tiles the window: it fills the output below sway's title bar.
        var rect = try sway.contentRect(appID: "strata-sway-input")
        pump(window) {
            rect = try? sway.contentRect(appID: "strata-sway-input")
            return rect.map { Double(window.size.width) == $0.width && $0.width > 300 } ?? false
        }
        guard let content = rect else {
            Issue.record("sway does not show the window")
            return
        }
        #expect(window.size == Size(width: content.width, height: content.height))
        #expect(content.y >= 10, "the compositor's title bar is above the content")

        // Over the left of the view the pointer is a hand; pressed, moved and
        // released, the view sees it where it is, in its own points.
        input.move(toX: content.x + 50, y: content.y + 40)
        pump(window) { window.cursor == .pointingHand && window.cursors.shown == .pointingHand }
        #expect(window.cursor == .pointingHand && window.cursors.shown == .pointingHand)
        input.button(down: true)
        input.move(toX: content.x + 60, y: content.y + 55)
        input.button(down: false)
        pump(window) { view.events.count >= 3 }
        let pointers = view.events.compactMap { e -> PointerEvent? in if case .pointer(let p) = e { p } else { nil } }
        #expect(pointers.map(\.phase) == [.down, .moved, .up])
        #expect(pointers.first?.location == Point(x: 50, y: 40) && pointers.last?.location == Point(x: 60, y: 55))
        #expect(pointers.allSatisfy { $0.button == .primary && $0.touchID == nil })
        // Elsewhere, the view's other shape.
        input.move(toX: content.x + 200, y: content.y + 40)
        pump(window) { window.cursor == .iBeam }
        #expect(window.cursor == .iBeam)

        // Two notches of the wheel toward the user: two lines down.
        view.events.removeAll()
        input.wheel(steps: 2)
        pump(window) { !view.events.isEmpty }
        guard case .scroll(let scroll)? = view.events.first else {
            Issue.record("no scroll: \(view.events)")
            return
        }
        #expect(scroll.lines == Size(width: 0, height: 2) && !scroll.isPrecise)
        #expect(scroll.location == Point(x: 200, y: 40))

        // A (evdev 30), with shift (42): the view, first responder, gets
        // the keys and their text.
        view.events.removeAll()
        input.key(30, down: true)
        input.key(30, down: false)
        input.key(42, down: true)
        input.key(30, down: true)
        input.key(30, down: false)
        input.key(42, down: false)
        pump(window) { view.events.filter { if case .key(let k) = $0 { k.phase == .down && k.key == .character("A") } else { false } }.count >= 1 }
        let keys = view.events.compactMap { e -> KeyEvent? in if case .key(let k) = e { k } else { nil } }
        let typed = keys.filter { $0.phase == .down }.map(\.characters).joined()
        #expect(typed.hasSuffix("aA"), "typed \(typed)")
        #expect(keys.contains { $0.phase == .down && $0.characters == "A" && $0.modifiers.contains(.shift) })
        #expect(window.connectionFailure == nil)

        // sway's kill is the title bar's close: the window asks first, and
        // stays open when told to.
        var asked = 0
        var closed = false
        window.shouldClose = {
            asked += 1
            return asked > 1
        }
        window.onClose = { closed = true }
        try sway.command("[app_id=\"strata-sway-input\"] kill")
        pump(window) { asked == 1 }
        #expect(asked == 1 && window.isOpen && !closed)
        try sway.command("[app_id=\"strata-sway-input\"] kill")
        pump(window) { !window.isOpen }
        #expect(asked == 2 && !window.isOpen && closed)
        // And sway no longer shows it.
        var shown = try sway.contentRect(appID: "strata-sway-input") != nil
        let gone = Date().addingTimeInterval(5)
        while shown && Date() < gone {
            usleep(10_000)
            shown = try sway.contentRect(appID: "strata-sway-input") != nil
        }
        #expect(!shown)
    }

    @Test func theHarnessSaysWhyItCannotStartOrSendInput() throws {
        #expect(throws: WestonError.self) { try HeadlessSway(width: 0, height: 10) }
        #expect(throws: WestonError.self) { try HeadlessSway(width: 10, height: 10, scale: .nan) }
        #expect(throws: WestonError.self) { try VirtualInput(display: "/nonexistent/wayland-socket", extent: (1, 1)) }
        // weston has no virtual pointer or keyboard (headless, no seat either).
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let error = #expect(throws: WestonError.self) { try VirtualInput(display: weston.socketPath, extent: (400, 300)) }
        #expect(error.map { $0.description.contains("virtual") || $0.description.contains("seat") } == true, "\(String(describing: error))")
    }

    @Test func cursorThemesAreSizedFromTheEnvironmentAndEveryShapeHasNames() {
        #expect(WaylandCursor.themeSize([:]) == 24)
        #expect(WaylandCursor.themeSize(["XCURSOR_SIZE": "48"]) == 48)
        #expect(WaylandCursor.themeSize(["XCURSOR_SIZE": "big"]) == 24)
        #expect(WaylandCursor.themeSize(["XCURSOR_SIZE": "100000"]) == 256)
        #expect(WaylandCursor.themeSize(["XCURSOR_SIZE": "-5"]) == 8)
        let shapes: [Cursor] = [.arrow, .pointingHand, .iBeam, .crosshair, .openHand, .closedHand, .resizeLeftRight, .resizeUpDown]
        #expect(shapes.allSatisfy { !WaylandCursor.names($0).isEmpty })
        #expect(Set(shapes.map { WaylandCursor.names($0)[0] }).count == shapes.count)
    }
}
