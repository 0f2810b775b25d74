import CWaylandClient
import CWaylandProtocols
import CXKBCommon
import Foundation
import StrataControls
import StrataGraphics
import Testing

@testable import StrataWayland

/// wl_keyboard's events mapped through xkbcommon to Strata's key events,
/// driven through the keyboard's own handler with a keymap compiled here
/// as a compositor would send it.
@MainActor
@Suite(.serialized) struct KeyboardMappingTests {
    /// The keymap of `layout` (and `variant`) as text in a shared-memory
    /// file, as `wl_keyboard.keymap` hands it over; its size with the NUL.
    func keymapFile(layout: String, variant: String? = nil) throws -> (fd: Int32, size: UInt32) {
        let context = try #require(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        defer { xkb_context_unref(context) }
        let map = try layout.withCString { l in
            try (variant ?? "").withCString { v in
                var names = xkb_rule_names(rules: nil, model: nil, layout: l, variant: variant == nil ? nil : v, options: nil)
                return try #require(xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS))
            }
        }
        defer { xkb_keymap_unref(map) }
        let text = try #require(xkb_keymap_get_as_string(map, XKB_KEYMAP_FORMAT_TEXT_V1))
        defer { free(text) }
        let size = strlen(text) + 1
        let fd = strata_wl_shm_file(size)
        #expect(fd >= 0)
        #expect(write(fd, text, size) == size)
        return (fd, UInt32(size))
    }

    func keyboard(layout: String, variant: String? = nil) throws -> (WaylandKeyboard, () -> [KeyEvent]) {
        let k = WaylandKeyboard()
        final class Box { var events: [KeyEvent] = [] }
        let box = Box()
        k.deliver = { box.events.append($0) }
        let file = try keymapFile(layout: layout, variant: variant)
        #expect(k.takeKeymap(format: 1, fd: file.fd, size: file.size))
        return (
            k,
            {
                defer { box.events.removeAll() }; return box.events
            }
        )
    }

    /// Evdev codes (input-event-codes.h).
    static let keyA: UInt32 = 30, keyE: UInt32 = 18, keyLeft: UInt32 = 105, keyEnter: UInt32 = 28, keyF5: UInt32 = 63
    static let keyApostrophe: UInt32 = 40

    @Test func keysTypeTheirTextWithTheModifiersTheCompositorReports() throws {
        let (k, events) = try keyboard(layout: "us")
        k.key(Self.keyA, down: true)
        k.key(Self.keyA, down: false)
        var e = events()
        #expect(e.map(\.phase) == [.down, .up] && e[0].key == .character("a") && e[0].characters == "a" && e[1].characters == "")
        // Shift held (the compositor's modifiers event): "A".
        let shift: UInt32 = 1 << 0
        k.updateModifiers(depressed: shift, latched: 0, locked: 0, group: 0)
        k.key(Self.keyA, down: true)
        e = events()
        #expect(e.first?.key == .character("A") && e.first?.modifiers == [.shift])
        // Control: no text, the key still named.
        k.updateModifiers(depressed: 1 << 2, latched: 0, locked: 0, group: 0)
        k.key(Self.keyA, down: true)
        e = events()
        #expect(e.first?.characters == "" && e.first?.key == .character("a") && e.first?.modifiers == [.control])
        k.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 0)
        for (code, key) in [(Self.keyLeft, Key.left), (Self.keyEnter, .enter), (Self.keyF5, .function(5))] {
            k.key(code, down: true)
            k.key(code, down: false)
            #expect(events().first?.key == key)
        }
    }

    @Test func deadKeysCompose() throws {
        // US international: the apostrophe is a dead acute.
        let (k, events) = try keyboard(layout: "us", variant: "intl")
        k.key(Self.keyApostrophe, down: true)
        k.key(Self.keyApostrophe, down: false)
        k.key(Self.keyE, down: true)
        let typed = events().filter { $0.phase == .down }.map(\.characters)
        #expect(typed == ["", "é"])
    }

    @Test func heldKeysRepeatAtTheCompositorsRateUntilReleased() async throws {
        let (k, events) = try keyboard(layout: "us")
        k.setRepeat(rate: 100, delay: 50)
        #expect(k.repeatRate == 100 && k.repeatDelay == 0.05)
        k.key(Self.keyA, down: true)
        // Repeats come on the main queue while the key is held. Other suites
        // run on the main actor too and can hold it for seconds under a
        // parallel run, so the wait is long; it ends at the second repeat.
        var seen: [KeyEvent] = []
        let deadline = Date().addingTimeInterval(60)
        while seen.filter(\.isRepeat).count < 2 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            seen += events()
        }
        k.key(Self.keyA, down: false)
        seen += events()
        #expect(seen.first?.isRepeat == false && seen.last?.phase == .up)
        let repeats = seen.filter(\.isRepeat)
        #expect(repeats.count >= 2 && repeats.allSatisfy { $0.key == .character("a") && $0.phase == .down })
        #expect(k.repeatingKey == nil)
        try await Task.sleep(for: .milliseconds(100))
        #expect(events().isEmpty)
        // Rate 0: no repeat. Values out of range are held.
        k.setRepeat(rate: 0, delay: 10)
        k.key(Self.keyA, down: true)
        #expect(k.repeatingKey == nil)
        k.setRepeat(rate: -5, delay: 1_000_000)
        #expect(k.repeatRate == 0 && k.repeatDelay == 10)
    }

    @Test func badKeymapsAreRefusedAndKeysWithoutOneDoNothing() throws {
        let k = WaylandKeyboard()
        var seen = 0
        k.deliver = { _ in seen += 1 }
        k.key(Self.keyA, down: true)
        #expect(seen == 0 && !k.hasKeymap)
        // Not text v1, no NUL in the size given, garbage, an empty map.
        let garbage = Array("xkb_keymap { nonsense".utf8) + [0]
        let fd = strata_wl_shm_file(garbage.count)
        _ = garbage.withUnsafeBytes { write(fd, $0.baseAddress, garbage.count) }
        #expect(!k.takeKeymap(format: 1, fd: fd, size: UInt32(garbage.count)))
        #expect(!k.takeKeymap(format: 0, fd: strata_wl_shm_file(8), size: 8))
        #expect(!k.takeKeymap(format: 1, fd: strata_wl_shm_file(0), size: 0))
        let noNul = strata_wl_shm_file(4)
        _ = "abcd".withCString { write(noNul, $0, 4) }
        #expect(!k.takeKeymap(format: 1, fd: noNul, size: 4))
        // A size beyond the file's end (reading it would fault), and a huge one.
        let short = try keymapFile(layout: "us")
        #expect(!k.takeKeymap(format: 1, fd: short.fd, size: short.size + 65_536))
        #expect(!k.takeKeymap(format: 1, fd: strata_wl_shm_file(8), size: .max))
        #expect(!k.hasKeymap)
        #expect(Key(keysym: 0xFF9A, text: "") == .pageUp && Key(keysym: 0x0100_20AC, text: "") == .character("€"))
        #expect(Key(keysym: 0xFE51, text: "") == .other(0xFE51))
    }
}
