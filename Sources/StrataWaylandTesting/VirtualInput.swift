internal import CWaylandClient
internal import CWaylandProtocols
internal import CXKBCommon
import Foundation

/// A pointer and a keyboard that exist only in software, on a compositor
/// that takes them (sway and other wlroots compositors: the
/// `zwlr_virtual_pointer_v1` and `zwp_virtual_keyboard_v1` protocols). The
/// compositor treats them as real devices: the seat gains a pointer and
/// a keyboard, and their events go to the window under the pointer or with
/// the keyboard focus, with the compositor's own routing. A test's or a
/// benchmark's input, on its own connection.
public final class VirtualInput {
    private let display: OpaquePointer
    private let registry: OpaquePointer
    private let globals = Globals()
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private let start = Date()
    /// The keyboard's keymap and state: a virtual keyboard reports its
    /// modifiers itself, as xkbcommon computes them from its keys.
    private var xkbContext: OpaquePointer?
    private var xkbKeymap: OpaquePointer?
    private var xkbState: OpaquePointer?
    private var sentModifiers: [UInt32] = [0, 0, 0, 0]

    /// The output's size in pixels, which absolute moves are relative to.
    public let extent: (width: Int, height: Int)

    /// Connects to the compositor at `display` (a socket's path or name)
    /// and makes the virtual pointer and keyboard (a US keymap) on its
    /// first seat; `extent` is the output's size in pixels.
    /// - Throws: when there is no compositor, or it offers neither protocol.
    public init(display name: String, extent: (width: Int, height: Int)) throws {
        guard let display = wl_display_connect(name) else { throw WestonError("no Wayland compositor at '\(name)'") }
        self.display = display
        self.extent = extent
        guard let registry = wl_display_get_registry(display) else {
            wl_display_disconnect(display)
            throw WestonError("no registry")
        }
        self.registry = registry
        wl_proxy_add_dispatcher(registry, registryDispatch, Unmanaged.passUnretained(globals).toOpaque(), nil)
        wl_display_roundtrip(display)
        guard let seat = bind("wl_seat", strata_wl_seat_interface(), 1) else {
            throw WestonError("the compositor has no seat")
        }
        if let manager = bind("zwlr_virtual_pointer_manager_v1", strata_zwlr_virtual_pointer_manager_v1_interface(), 1) {
            var args = [wl_argument(o: seat), wl_argument(n: 0)]
            pointer = wl_proxy_marshal_array_flags(
                manager, 0, strata_zwlr_virtual_pointer_v1_interface(), 1, 0, &args)
        }
        if let manager = bind("zwp_virtual_keyboard_manager_v1", strata_zwp_virtual_keyboard_manager_v1_interface(), 1) {
            var args = [wl_argument(o: seat), wl_argument(n: 0)]
            keyboard = wl_proxy_marshal_array_flags(manager, 0, strata_zwp_virtual_keyboard_v1_interface(), 1, 0, &args)
            if let keyboard { try sendKeymap(keyboard) }
        }
        guard pointer != nil || keyboard != nil else {
            throw WestonError("the compositor offers no virtual pointer or keyboard")
        }
        wl_display_roundtrip(display)
    }

    deinit {
        for device in [pointer, keyboard] {
            // Their destroy requests: 8 (pointer), 3 (keyboard).
            if let device {
                wl_proxy_marshal_array_flags(device, device == pointer ? 8 : 3, nil, 1, UInt32(WL_MARSHAL_FLAG_DESTROY), nil)
            }
        }
        wl_display_roundtrip(display)
        wl_display_disconnect(display)
        if let xkbState { xkb_state_unref(xkbState) }
        if let xkbKeymap { xkb_keymap_unref(xkbKeymap) }
        if let xkbContext { xkb_context_unref(xkbContext) }
    }

    /// Whether the compositor gave a pointer and a keyboard.
    public var hasPointer: Bool { pointer != nil }
    public var hasKeyboard: Bool { keyboard != nil }

    private func bind(_ interface: String, _ table: UnsafePointer<wl_interface>, _ version: UInt32) -> OpaquePointer? {
        guard let (name, offered) = globals.offered[interface], offered >= version,
            let raw = wl_registry_bind(registry, name, table, version)
        else { return nil }
        return OpaquePointer(raw)
    }

    /// Milliseconds since this input was made (the events' time stamps).
    private var time: UInt32 { UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince(start) * 1000)) }

    private func send(_ device: OpaquePointer?, _ opcode: UInt32, _ arguments: [wl_argument]) {
        guard let device else { return }
        var args = arguments
        if args.isEmpty {
            wl_proxy_marshal_array_flags(device, opcode, nil, 1, 0, nil)
        } else {
            wl_proxy_marshal_array_flags(device, opcode, nil, 1, 0, &args)
        }
    }

    /// Moves the pointer to (`x`, `y`) on the output, in pixels.
    public func move(toX x: Double, y: Double) {
        let w = UInt32(max(1, extent.width)), h = UInt32(max(1, extent.height))
        let px = UInt32(max(0, min(Double(w), x.rounded()))), py = UInt32(max(0, min(Double(h), y.rounded())))
        send(pointer, 1, [wl_argument(u: time), wl_argument(u: px), wl_argument(u: py), wl_argument(u: w), wl_argument(u: h)])
        send(pointer, 4, [])
        flush()
    }

    /// Presses or releases `button` (Linux's code: 0x110 left, 0x111
    /// right, 0x112 middle).
    public func button(_ button: UInt32 = 0x110, down: Bool) {
        send(pointer, 2, [wl_argument(u: time), wl_argument(u: button), wl_argument(u: down ? 1 : 0)])
        send(pointer, 4, [])
        flush()
    }

    /// Turns a wheel `steps` notches (positive: toward the user, content
    /// down), vertically or horizontally.
    public func wheel(steps: Int, horizontal: Bool = false) {
        let axis: UInt32 = horizontal ? 1 : 0
        send(pointer, 5, [wl_argument(u: 0)])  // axis_source(wheel)
        send(
            pointer, 7,
            [wl_argument(u: time), wl_argument(u: axis), wl_argument(f: wl_fixed_from_double(Double(steps) * 15)), wl_argument(i: Int32(steps))])
        send(pointer, 4, [])
        flush()
    }

    /// Presses or releases the key with Linux's code `code` (30: A).
    /// The modifiers it changes (shift, control, ...) follow, as a
    /// keyboard's would.
    public func key(_ code: UInt32, down: Bool) {
        send(keyboard, 1, [wl_argument(u: time), wl_argument(u: code), wl_argument(u: down ? 1 : 0)])
        if let xkbState {
            // xkbcommon's key codes are evdev's plus 8.
            xkb_state_update_key(xkbState, code + 8, down ? XKB_KEY_DOWN : XKB_KEY_UP)
            let mods = [
                xkb_state_serialize_mods(xkbState, XKB_STATE_MODS_DEPRESSED),
                xkb_state_serialize_mods(xkbState, XKB_STATE_MODS_LATCHED),
                xkb_state_serialize_mods(xkbState, XKB_STATE_MODS_LOCKED),
                xkb_state_serialize_layout(xkbState, XKB_STATE_LAYOUT_EFFECTIVE),
            ]
            if mods != sentModifiers {
                sentModifiers = mods
                send(keyboard, 2, mods.map { wl_argument(u: $0) })
            }
        }
        flush()
    }

    /// Sends what was asked and waits until the compositor has handled it.
    public func roundtrip() { wl_display_roundtrip(display) }

    private func flush() { wl_display_flush(display) }

    /// The default keymap (a US one) for the keyboard, in a file.
    private func sendKeymap(_ keyboard: OpaquePointer) throws {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw WestonError("no xkbcommon context") }
        xkbContext = context
        // xkbcommon's defaults: evdev rules, pc105, us (unless XKB_DEFAULT_* say otherwise).
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS),
            let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1)
        else { throw WestonError("no US keymap (xkb-data)") }
        xkbKeymap = keymap
        xkbState = xkb_state_new(keymap)
        defer { free(text) }
        let size = strlen(text) + 1
        let fd = strata_wl_shm_file(size)
        guard fd >= 0 else { throw WestonError("no file for the keymap") }
        defer { close(fd) }
        guard write(fd, text, size) == size else { throw WestonError("the keymap was not written") }
        send(keyboard, 0, [wl_argument(u: 1), wl_argument(h: fd), wl_argument(u: UInt32(size))])
        wl_display_flush(display)
    }
}

/// The registry's globals: interface name to (name, version).
private final class Globals {
    var offered: [String: (UInt32, UInt32)] = [:]
}

/// The registry's events: only `global` (opcode 0) is kept.
private let registryDispatch: wl_dispatcher_func_t = { implementation, _, opcode, _, args in
    guard opcode == 0, let implementation, let args, let interface = args[1].s else { return 0 }
    let globals = Unmanaged<Globals>.fromOpaque(implementation).takeUnretainedValue()
    let name = String(cString: interface)
    if globals.offered[name] == nil { globals.offered[name] = (args[0].u, args[2].u) }
    return 0
}
