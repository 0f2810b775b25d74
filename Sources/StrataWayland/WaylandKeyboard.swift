internal import CXKBCommon
import Dispatch
import Foundation
import StrataControls

/// The keyboard of a Wayland seat through xkbcommon: the compositor's
/// keymap (`wl_keyboard.keymap`), the modifiers it reports, the keys'
/// symbols and text, Compose sequences (dead keys) from the locale's
/// Compose table, and key repeat at the compositor's rate and delay.
///
/// Keys come in evdev codes; xkbcommon's are 8 more.
@MainActor
final class WaylandKeyboard {
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var compose: OpaquePointer?
    /// The compositor's repeat: keys a second (0: no repeat) and the delay
    /// before the first, in seconds.
    private(set) var repeatRate = 25.0
    private(set) var repeatDelay = 0.6
    private var repeatTimer: DispatchSourceTimer?
    /// The key repeating (evdev code), if any.
    private(set) var repeatingKey: UInt32?
    /// Where key events go.
    var deliver: ((KeyEvent) -> Void)?
    /// The clock the events' timestamps are on.
    var now: () -> Double = { ProcessInfo.processInfo.systemUptime }

    init() {
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        if let context {
            let env = ProcessInfo.processInfo.environment
            let locale = env["LC_ALL"] ?? env["LC_CTYPE"] ?? env["LANG"] ?? "C"
            let table =
                xkb_compose_table_new_from_locale(context, locale, XKB_COMPOSE_COMPILE_NO_FLAGS)
                ?? xkb_compose_table_new_from_locale(context, "C", XKB_COMPOSE_COMPILE_NO_FLAGS)
            if let table {
                compose = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS)
                xkb_compose_table_unref(table)
            }
        }
    }

    isolated deinit {
        repeatTimer?.cancel()
        if let compose { xkb_compose_state_unref(compose) }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
    }

    /// Whether a keymap has been read.
    var hasKeymap: Bool { state != nil }

    /// Reads the keymap the compositor sent: `size` bytes of text in `fd`
    /// (format 1, xkb v1), which is closed. A keymap that cannot be read
    /// leaves the one there was; false then.
    @discardableResult
    func takeKeymap(format: UInt32, fd: Int32, size: UInt32) -> Bool {
        defer { close(fd) }
        guard format == 1, size > 0, size < 64 << 20, let context else { return false }
        // A file shorter than the size given would fault when read.
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= off_t(size) else { return false }
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return false }
        defer { munmap(map, Int(size)) }
        // The text ends with a NUL within `size`; a map without one is refused.
        let bytes = map.assumingMemoryBound(to: CChar.self)
        guard UnsafeBufferPointer(start: bytes, count: Int(size)).contains(0),
            let newMap = xkb_keymap_new_from_string(context, bytes, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return false }
        guard let newState = xkb_state_new(newMap) else {
            xkb_keymap_unref(newMap)
            return false
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = newMap
        state = newState
        return true
    }

    /// The modifiers the compositor reports.
    func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// The repeat the compositor asks for (`wl_keyboard.repeat_info`):
    /// `rate` keys a second (0 turns repeat off), after `delay` ms.
    func setRepeat(rate: Int32, delay: Int32) {
        repeatRate = Double(max(0, min(1000, rate)))
        repeatDelay = Double(max(0, min(10_000, delay))) / 1000
        if repeatRate == 0 { stopRepeat() }
    }

    /// The modifiers in effect.
    var modifiers: KeyModifiers {
        guard let state else { return [] }
        var m: KeyModifiers = []
        func active(_ name: String) -> Bool { xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 }
        if active("Shift") { m.insert(.shift) }
        if active("Control") { m.insert(.control) }
        if active("Mod1") { m.insert(.option) }
        if active("Mod4") { m.insert(.command) }
        if active("Lock") { m.insert(.capsLock) }
        return m
    }

    /// A key (evdev `code`) going down or up.
    func key(_ code: UInt32, down: Bool) {
        guard state != nil else { return }
        if down {
            send(code, down: true, isRepeat: false)
            if repeatRate > 0, let keymap, xkb_keymap_key_repeats(keymap, code + 8) != 0 { startRepeat(code) }
        } else {
            if repeatingKey == code { stopRepeat() }
            send(code, down: false, isRepeat: false)
        }
    }

    /// The window lost the keyboard: nothing repeats.
    func leave() { stopRepeat() }

    private func send(_ code: UInt32, down: Bool, isRepeat: Bool) {
        guard let state else { return }
        let keycode = code + 8
        let keysym = xkb_state_key_get_one_sym(state, keycode)
        var text = down ? Self.utf8(state, keycode) : ""
        if down, let compose {
            xkb_compose_state_feed(compose, keysym)
            switch xkb_compose_state_get_status(compose) {
            case XKB_COMPOSE_COMPOSING:
                // A dead key or the start of a sequence types nothing yet.
                text = ""
            case XKB_COMPOSE_COMPOSED:
                var buffer = [CChar](repeating: 0, count: 64)
                let n = xkb_compose_state_get_utf8(compose, &buffer, buffer.count)
                text = n > 0 ? String(decoding: buffer[0..<min(Int(n), 63)].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
                xkb_compose_state_reset(compose)
            case XKB_COMPOSE_CANCELLED:
                text = ""
                xkb_compose_state_reset(compose)
            default:
                break
            }
        }
        // Control characters are not text.
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { text = "" }
        let key = Key(keysym: keysym, text: text)
        deliver?(KeyEvent(down ? .down : .up, key: key, characters: text, modifiers: modifiers, isRepeat: isRepeat, timestamp: now()))
    }

    private static func utf8(_ state: OpaquePointer, _ keycode: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
        guard n > 0 else { return "" }
        return String(decoding: buffer[0..<min(Int(n), 63)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func startRepeat(_ code: UInt32) {
        stopRepeat()
        repeatingKey = code
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + repeatDelay, repeating: 1 / repeatRate)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self, let key = self.repeatingKey else { return }
                self.send(key, down: true, isRepeat: true)
            }
        }
        timer.resume()
        repeatTimer = timer
    }

    private func stopRepeat() {
        repeatTimer?.cancel()
        repeatTimer = nil
        repeatingKey = nil
    }
}
