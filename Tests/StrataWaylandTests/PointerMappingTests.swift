import CWaylandClient
import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataWaylandTesting
import Testing

@testable import StrataWayland

/// wl_pointer's events, as the compositor's wire gives them, mapped to
/// Strata's input events: driven here without a compositor's input
/// (weston has no virtual pointer), through the window's own handler.
@MainActor
@Suite(.serialized) struct PointerMappingTests {
    /// Feeds `opcode` with `args` to the window's pointer handler.
    func send(_ window: WaylandWindow, _ opcode: UInt32, _ args: [wl_argument]) {
        var a = args + [wl_argument(u: 0)]
        a.withUnsafeMutableBufferPointer { window.pointerEvent(opcode, $0.baseAddress!) }
    }

    func fixed(_ v: Double) -> wl_argument { wl_argument(f: wl_fixed_from_double(v)) }

    @Test func buttonsMotionAndScrollBecomeStrataEvents() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let window = try WaylandWindow(size: Size(width: 100, height: 80), display: weston.socketPath)
        defer { window.close() }
        var seen: [InputEvent] = []
        window.eventObserver = {
            seen.append($0); return true
        }
        // enter at (10.5, 20.25), frame; press left, move, frame; release.
        send(window, 0, [wl_argument(u: 1), wl_argument(o: window.surface.proxy), fixed(10.5), fixed(20.25)])
        send(window, 5, [])
        send(window, 3, [wl_argument(u: 2), wl_argument(u: 0), wl_argument(u: 0x110), wl_argument(u: 1)])
        send(window, 2, [wl_argument(u: 0), fixed(30), fixed(40)])
        send(window, 5, [])
        send(window, 3, [wl_argument(u: 3), wl_argument(u: 0), wl_argument(u: 0x110), wl_argument(u: 0)])
        send(window, 5, [])
        let pointers = seen.compactMap { if case .pointer(let p) = $0 { p } else { nil } }
        #expect(pointers.map(\.phase) == [.down, .moved, .up])
        #expect(pointers[0].location == Point(x: 10.5, y: 20.25) && pointers[1].location == Point(x: 30, y: 40))
        #expect(pointers.allSatisfy { $0.button == .primary })
        // Motion with nothing held is not a drag.
        seen.removeAll()
        send(window, 2, [wl_argument(u: 0), fixed(31), fixed(41)])
        send(window, 5, [])
        #expect(seen.isEmpty)
        // The right button, and one the views do not name.
        send(window, 3, [wl_argument(u: 4), wl_argument(u: 0), wl_argument(u: 0x111), wl_argument(u: 1)])
        send(window, 3, [wl_argument(u: 5), wl_argument(u: 0), wl_argument(u: 0x116), wl_argument(u: 1)])
        send(window, 5, [])
        let buttons: [PointerButton] = seen.compactMap { if case .pointer(let p) = $0 { p.button } else { nil } }
        #expect(buttons == [.secondary, .other(0x116)])

        // A wheel: source wheel, a value and two discrete steps down in one frame.
        seen.removeAll()
        send(window, 6, [wl_argument(u: 0)])
        send(window, 4, [wl_argument(u: 0), wl_argument(u: 0), fixed(30)])
        send(window, 8, [wl_argument(u: 0), wl_argument(i: 2)])
        send(window, 5, [])
        guard case .scroll(let wheel)? = seen.first else {
            Issue.record("no scroll")
            return
        }
        #expect(!wheel.isPrecise && wheel.lines == Size(width: 0, height: 2) && wheel.delta.height == 2 * ScrollEvent.pointsPerLine)
        // A trackpad: began, changed, then ended at the axis_stop.
        seen.removeAll()
        for (i, dy) in [3.0, 5.0].enumerated() {
            send(window, 6, [wl_argument(u: 1)])
            send(window, 4, [wl_argument(u: UInt32(i)), wl_argument(u: 0), fixed(dy)])
            send(window, 5, [])
        }
        send(window, 6, [wl_argument(u: 1)])
        send(window, 7, [wl_argument(u: 9), wl_argument(u: 0)])
        send(window, 5, [])
        let scrolls = seen.compactMap { if case .scroll(let s) = $0 { s } else { nil } }
        #expect(scrolls.map(\.phase) == [.began, .changed, .ended])
        #expect(scrolls.map(\.delta.height) == [3, 5, 0] && scrolls.allSatisfy(\.isPrecise))
        // Leaving with a button held takes the press away.
        seen.removeAll()
        send(window, 3, [wl_argument(u: 6), wl_argument(u: 0), wl_argument(u: 0x110), wl_argument(u: 1)])
        send(window, 1, [wl_argument(u: 7), wl_argument(o: nil)])
        send(window, 5, [])
        let phases: [PointerEvent.Phase] = seen.compactMap { if case .pointer(let p) = $0 { p.phase } else { nil } }
        #expect(phases == [.down, .cancelled])
    }
}

@MainActor
@Suite(.serialized) struct TouchMappingTests {
    func send(_ window: WaylandWindow, _ opcode: UInt32, _ args: [wl_argument]) {
        var a = args + [wl_argument(u: 0)]
        a.withUnsafeMutableBufferPointer { window.touchEvent(opcode, $0.baseAddress!) }
    }

    func fixed(_ v: Double) -> wl_argument { wl_argument(f: wl_fixed_from_double(v)) }

    @Test func theFirstFingerIsThePointerWithItsID() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let window = try WaylandWindow(size: Size(width: 100, height: 80), display: weston.socketPath)
        defer { window.close() }
        var seen: [PointerEvent] = []
        window.eventObserver = {
            if case .pointer(let p) = $0 { seen.append(p) }
            return true
        }
        // Finger 7 down, finger 9 down (not sent on), both move, 9 up, 7 up.
        send(window, 0, [wl_argument(u: 1), wl_argument(u: 0), wl_argument(o: nil), wl_argument(i: 7), fixed(10), fixed(20)])
        send(window, 0, [wl_argument(u: 2), wl_argument(u: 0), wl_argument(o: nil), wl_argument(i: 9), fixed(50), fixed(50)])
        send(window, 2, [wl_argument(u: 0), wl_argument(i: 9), fixed(55), fixed(55)])
        send(window, 2, [wl_argument(u: 0), wl_argument(i: 7), fixed(12.5), fixed(24)])
        send(window, 1, [wl_argument(u: 3), wl_argument(u: 0), wl_argument(i: 9)])
        send(window, 1, [wl_argument(u: 4), wl_argument(u: 0), wl_argument(i: 7)])
        #expect(seen.map(\.phase) == [.down, .moved, .up])
        #expect(seen.allSatisfy { $0.touchID == 7 && $0.button == .primary })
        #expect(seen[1].location == Point(x: 12.5, y: 24) && seen[2].location == Point(x: 12.5, y: 24))
        // The compositor's cancel takes a touch away.
        seen.removeAll()
        send(window, 0, [wl_argument(u: 5), wl_argument(u: 0), wl_argument(o: nil), wl_argument(i: 1), fixed(1), fixed(1)])
        send(window, 4, [])
        send(window, 1, [wl_argument(u: 6), wl_argument(u: 0), wl_argument(i: 1)])
        #expect(seen.map(\.phase) == [.down, .cancelled])
    }
}

@Suite struct WaylandStringTests {
    @Test func stringArgumentsFitInAMessage() {
        #expect(WaylandArgument.fitting("Strata") == "Strata")
        #expect(WaylandArgument.fitting("") == "")
        #expect(WaylandArgument.fitting("before\0after") == "before")
        let long = WaylandArgument.fitting(String(repeating: "é", count: 10_000))
        #expect(long.utf8.count == WaylandArgument.maximumStringBytes && long.allSatisfy { $0 == "é" })
        // Cut at a whole character: four-byte emoji, 3,072 / 4 of them.
        let emoji = WaylandArgument.fitting(String(repeating: "🙂", count: 1_000))
        #expect(emoji.count == 768 && emoji.utf8.count == 3_072)
        let flags = WaylandArgument.fitting(String(repeating: "🇩🇪", count: 1_000))
        #expect(flags.count == 384 && flags.allSatisfy { $0 == "🇩🇪" })
    }
}
