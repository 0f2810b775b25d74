internal import CWaylandClient
internal import CWaylandProtocols
import Foundation

/// An input method that exists only in software, on a compositor that
/// relays input methods (sway and other wlroots compositors:
/// `zwp_input_method_v2`, which they relay to the focused window's
/// `zwp_text_input_v3`). It composes and commits text as fcitx5 does on
/// such a compositor, so that a test can type "你好" through the same path
/// a real input method's text takes. On its own connection.
public final class TestInputMethod {
    private let display: OpaquePointer
    private let registry: OpaquePointer
    private let state = State()
    private var inputMethod: OpaquePointer?

    /// What the compositor has told the input method.
    final class State {
        var offered: [String: (UInt32, UInt32)] = [:]
        var active = false
        var pendingActive = false
        /// `done` events received: the serial a commit must carry.
        var serial: UInt32 = 0
        var surrounding: (text: String, cursor: UInt32, anchor: UInt32)?
        var contentType: (hint: UInt32, purpose: UInt32)?
        var unavailable = false
    }

    /// Connects to the compositor at `display` (a socket's path or name)
    /// and becomes its seat's input method.
    /// - Throws: when there is no compositor, it relays no input method,
    ///   or another input method is already running.
    public init(display name: String) throws {
        guard let display = wl_display_connect(name) else { throw WestonError("no Wayland compositor at '\(name)'") }
        self.display = display
        guard let registry = wl_display_get_registry(display) else {
            wl_display_disconnect(display)
            throw WestonError("no registry")
        }
        self.registry = registry
        wl_proxy_add_dispatcher(registry, inputMethodRegistryDispatch, Unmanaged.passUnretained(state).toOpaque(), nil)
        wl_display_roundtrip(display)
        guard let seat = bind("wl_seat", strata_wl_seat_interface(), 1),
            let manager = bind("zwp_input_method_manager_v2", strata_zwp_input_method_manager_v2_interface(), 1)
        else { throw WestonError("the compositor relays no input method (zwp_input_method_manager_v2)") }
        var args = [wl_argument(o: seat), wl_argument(n: 0)]
        inputMethod = wl_proxy_marshal_array_flags(manager, 0, strata_zwp_input_method_v2_interface(), 1, 0, &args)
        guard let inputMethod else { throw WestonError("no input method object") }
        wl_proxy_add_dispatcher(inputMethod, inputMethodDispatch, Unmanaged.passUnretained(state).toOpaque(), nil)
        wl_display_roundtrip(display)
        if state.unavailable { throw WestonError("another input method is running on the seat") }
    }

    deinit {
        if let inputMethod { wl_proxy_marshal_array_flags(inputMethod, 6, nil, 1, UInt32(WL_MARSHAL_FLAG_DESTROY), nil) }
        wl_display_roundtrip(display)
        wl_display_disconnect(display)
    }

    private func bind(_ interface: String, _ table: UnsafePointer<wl_interface>, _ version: UInt32) -> OpaquePointer? {
        guard let (name, offered) = state.offered[interface], offered >= version,
            let raw = wl_registry_bind(registry, name, table, version)
        else { return nil }
        return OpaquePointer(raw)
    }

    /// Whether a window's text field has text-input focus and enabled
    /// text input (the compositor activated the input method).
    public var isActive: Bool { state.active }
    /// The text around the focused window's caret, as it last told.
    public var surroundingText: (text: String, cursor: Int, anchor: Int)? {
        state.surrounding.map { ($0.text, Int($0.cursor), Int($0.anchor)) }
    }
    /// The content type the window last gave: hints and purpose.
    public var contentType: (hint: UInt32, purpose: UInt32)? { state.contentType }

    /// Handles what the compositor has sent, without waiting.
    public func dispatch() {
        wl_display_dispatch_pending(display)
        wl_display_flush(display)
        var fds = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&fds, 1, 0) > 0 { wl_display_roundtrip(display) }
    }

    /// Shows `text` as the composition, with its caret at UTF-8 byte
    /// `cursor` (the protocol's unit; nil: its end).
    public func setPreedit(_ text: String, cursor: Int? = nil) {
        let c = Int32(cursor ?? text.utf8.count)
        withString(text) { s in send(1, [wl_argument(s: s), wl_argument(i: c), wl_argument(i: c)]) }
        commit()
    }

    /// Types `text` in place of the composition.
    public func commitString(_ text: String) {
        withString(text) { s in send(0, [wl_argument(s: s)]) }
        commit()
    }

    /// Deletes `before` and `after` bytes around the caret.
    public func deleteSurrounding(before: UInt32, after: UInt32) {
        send(2, [wl_argument(u: before), wl_argument(u: after)])
        commit()
    }

    /// commit(serial): the pending requests take effect.
    private func commit() {
        send(3, [wl_argument(u: state.serial)])
        wl_display_flush(display)
    }

    private func send(_ opcode: UInt32, _ arguments: [wl_argument]) {
        guard let inputMethod else { return }
        var args = arguments
        wl_proxy_marshal_array_flags(inputMethod, opcode, nil, 1, 0, &args)
    }

    private func withString(_ text: String, _ body: (UnsafePointer<CChar>) -> Void) {
        text.withCString { body($0) }
    }

    /// Waits for the compositor's answers (a round trip).
    public func roundtrip() { wl_display_roundtrip(display) }
}

/// The registry's events: `global` (opcode 0) is kept.
private let inputMethodRegistryDispatch: wl_dispatcher_func_t = { implementation, _, opcode, _, args in
    guard opcode == 0, let implementation, let args, let interface = args[1].s else { return 0 }
    let state = Unmanaged<TestInputMethod.State>.fromOpaque(implementation).takeUnretainedValue()
    let name = String(cString: interface)
    if state.offered[name] == nil { state.offered[name] = (args[0].u, args[2].u) }
    return 0
}

/// The input method's events: activate and deactivate take effect at
/// `done`, which also counts the serial.
private let inputMethodDispatch: wl_dispatcher_func_t = { implementation, _, opcode, _, args in
    guard let implementation else { return 0 }
    let state = Unmanaged<TestInputMethod.State>.fromOpaque(implementation).takeUnretainedValue()
    switch opcode {
    case 0: state.pendingActive = true  // activate
    case 1: state.pendingActive = false  // deactivate
    case 2:  // surrounding_text(text, cursor, anchor)
        if let args { state.surrounding = (args[0].s.map { String(cString: $0) } ?? "", args[1].u, args[2].u) }
    case 4:  // content_type(hint, purpose)
        if let args { state.contentType = (args[0].u, args[1].u) }
    case 5:  // done
        state.active = state.pendingActive
        state.serial &+= 1
    case 6: state.unavailable = true
    default: break
    }
    return 0
}
