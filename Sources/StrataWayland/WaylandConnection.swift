internal import CWaylandClient
internal import CWaylandProtocols
import Dispatch
import Foundation
import StrataFoundation

/// Why a Wayland window could not be opened, or stopped.
public enum WaylandError: Error, CustomStringConvertible, Equatable {
    /// No compositor answered at the display named (`WAYLAND_DISPLAY`, a
    /// socket name under `XDG_RUNTIME_DIR`, or an absolute socket path).
    case noCompositor(String)
    /// The compositor lacks an interface a window needs.
    case missingInterface(String)
    /// A size that is not a number, or zero or less, or too large.
    case invalidSize(width: Double, height: Double)
    /// Shared memory for the window's buffers could not be made.
    case sharedMemory(String)
    /// The connection broke (the compositor went away, or a protocol error).
    case connectionLost(String)

    public var description: String {
        switch self {
        case .noCompositor(let name):
            "no Wayland compositor at \(name.isEmpty ? "WAYLAND_DISPLAY (unset)" : "'\(name)'")"
        case .missingInterface(let name): "the Wayland compositor does not offer \(name)"
        case .invalidSize(let w, let h): "invalid window size \(w) × \(h)"
        case .sharedMemory(let why): "no shared memory for the window's buffers: \(why)"
        case .connectionLost(let why): "the Wayland connection was lost: \(why)"
        }
    }
}

/// A connection to a Wayland compositor and the globals a window uses:
/// `wl_compositor`, `wl_shm`, `xdg_wm_base`, and where offered the seat,
/// the outputs, server-side decorations, the viewporter, fractional
/// scale, text input, the data device and primary selections. Events are read on the main queue when the socket has some.
@MainActor
final class WaylandConnection {
    let display: OpaquePointer
    let registry: WaylandObject
    private(set) var compositor: WaylandObject?
    private(set) var shm: WaylandObject?
    private(set) var wmBase: WaylandObject?
    private(set) var decorationManager: WaylandObject?
    private(set) var viewporter: WaylandObject?
    private(set) var fractionalScaleManager: WaylandObject?
    private(set) var seat: WaylandObject?
    /// Where offered: text-input-v3 (input methods), the data device
    /// (the clipboard) and primary selections.
    private(set) var textInputManager: WaylandObject?
    private(set) var dataDeviceManager: WaylandObject?
    private(set) var primarySelectionManager: WaylandObject?
    /// The outputs by their proxies, with the integer scale each reports.
    private(set) var outputs: [OpaquePointer: (object: WaylandObject, name: UInt32, scale: Int)] = [:]
    /// Called when an output's scale changes.
    var outputsChanged: (() -> Void)?
    private var source: DescriptorWatch?
    /// Why the connection broke, once it has.
    private(set) var failure: String?
    /// Whether `disconnect()` has not run yet.
    private var isConnected = true
    /// Called once when the connection breaks.
    var onFailure: ((String) -> Void)?

    /// Connects to `name` (nil: `WAYLAND_DISPLAY`, else `wayland-0`) and
    /// reads the globals.
    init(name: String?) throws {
        let env = ProcessInfo.processInfo.environment
        let requested = name ?? env["WAYLAND_DISPLAY"]
        let connected: OpaquePointer? = requested.map { wl_display_connect($0) } ?? wl_display_connect(nil)
        guard let display = connected else { throw WaylandError.noCompositor(requested ?? "") }
        self.display = display
        guard let reg = wl_display_get_registry(display) else {
            wl_display_disconnect(display)
            throw WaylandError.noCompositor(requested ?? "")
        }
        registry = WaylandObject(reg)
        registry.onEvent = { [unowned self] opcode, args in
            switch opcode {
            case 0: self.global(name: args.uint(0), interface: args.string(1), version: args.uint(2))
            case 1: self.globalRemoved(name: args.uint(0))
            default: break
            }
        }
        // The globals, then what binding them sent (the outputs' scales).
        // (From here on a throw ends the connection in deinit.)
        guard wl_display_roundtrip(display) >= 0, wl_display_roundtrip(display) >= 0 else {
            throw WaylandError.noCompositor(requested ?? "")
        }
        guard compositor != nil else { throw WaylandError.missingInterface("wl_compositor (version 4)") }
        guard shm != nil else { throw WaylandError.missingInterface("wl_shm") }
        guard wmBase != nil else { throw WaylandError.missingInterface("xdg_wm_base") }
        startReading()
    }

    /// Ends the connection if nothing has: a window whose opening failed
    /// after connecting, or one let go without `close()`.
    isolated deinit {
        disconnect()
    }

    private func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, _ version: UInt32) -> WaylandObject? {
        guard let raw = wl_registry_bind(registry.proxy, name, interface, version) else { return nil }
        return WaylandObject(OpaquePointer(raw))
    }

    private func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor" where version >= 4 && compositor == nil:
            compositor = bind(name, strata_wl_compositor_interface(), min(version, 5))
        case "wl_shm" where shm == nil:
            shm = bind(name, strata_wl_shm_interface(), 1)
        case "xdg_wm_base" where wmBase == nil:
            wmBase = bind(name, strata_xdg_wm_base_interface(), min(version, 4))
            wmBase?.onEvent = { [unowned self] opcode, args in
                // ping: answered at once, or the compositor thinks us hung.
                if opcode == 0 { self.wmBase?.send(3, [.uint(args.uint(0))]) }
            }
        case "zxdg_decoration_manager_v1" where decorationManager == nil:
            decorationManager = bind(name, strata_zxdg_decoration_manager_v1_interface(), 1)
        case "wp_viewporter" where viewporter == nil:
            viewporter = bind(name, strata_wp_viewporter_interface(), 1)
        case "wp_fractional_scale_manager_v1" where fractionalScaleManager == nil:
            fractionalScaleManager = bind(name, strata_wp_fractional_scale_manager_v1_interface(), 1)
        case "zwp_text_input_manager_v3" where textInputManager == nil:
            textInputManager = bind(name, strata_zwp_text_input_manager_v3_interface(), 1)
        case "wl_data_device_manager" where dataDeviceManager == nil:
            dataDeviceManager = bind(name, strata_wl_data_device_manager_interface(), min(version, 3))
        case "zwp_primary_selection_device_manager_v1" where primarySelectionManager == nil:
            primarySelectionManager = bind(name, strata_zwp_primary_selection_device_manager_v1_interface(), 1)
        case "wl_seat" where seat == nil:
            seat = bind(name, strata_wl_seat_interface(), min(version, 7))
        case "wl_output" where version >= 2:
            guard let output = bind(name, strata_wl_output_interface(), min(version, 3)) else { return }
            outputs[output.proxy] = (output, name, 1)
            output.onEvent = { [unowned self, weak output] opcode, args in
                // scale (v2): the output's integer scale.
                guard opcode == 3, let output else { return }
                self.outputs[output.proxy]?.scale = max(1, Int(args.int(0)))
                self.outputsChanged?()
            }
        default: break
        }
    }

    private func globalRemoved(name: UInt32) {
        if let entry = outputs.first(where: { $0.value.name == name }) {
            outputs[entry.key] = nil
            // wl_output.release exists from version 3.
            entry.value.object.destroy(request: entry.value.object.version >= 3 ? 0 : nil)
            outputsChanged?()
        }
    }

    /// Reads events whenever the socket has some, on the main queue.
    private func startReading() {
        source = DescriptorWatch(wl_display_get_fd(display), for: .readable, queue: .main) { [weak self] in
            MainActor.assumeIsolated { self?.readAndDispatch() }
        }
        flush()
    }

    /// Reads what the socket has and dispatches it, without blocking.
    func readAndDispatch() {
        guard failure == nil else { return }
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { return fail() }
        }
        if wl_display_read_events(display) < 0 {
            // Nothing to read yet is not a failure (the socket does not block).
            guard errno == EAGAIN, wl_display_get_error(display) == 0 else { return fail() }
        }
        if wl_display_dispatch_pending(display) < 0 { return fail() }
        flush()
    }

    /// Dispatches what has already been read.
    func dispatchPending() {
        guard failure == nil else { return }
        if wl_display_dispatch_pending(display) < 0 { fail() }
    }

    /// Sends the requests made so far.
    func flush() {
        guard failure == nil else { return }
        if wl_display_flush(display) < 0, errno != EAGAIN { fail() }
    }

    /// Sends everything and waits until the compositor has handled it and
    /// sent its answers, which are dispatched; false when the connection broke.
    @discardableResult
    func roundtrip() -> Bool {
        guard failure == nil else { return false }
        if wl_display_roundtrip(display) < 0 {
            fail()
            return false
        }
        return true
    }

    private func fail() {
        guard failure == nil else { return }
        let code = wl_display_get_error(display)
        let why = code == EPROTO ? "a protocol error" : String(cString: strerror(code == 0 ? EPIPE : code))
        failure = why
        source?.cancel()
        source = nil
        onFailure?(why)
    }

    /// Closes the connection (the objects made on it go with it); once.
    func disconnect() {
        guard isConnected else { return }
        isConnected = false
        source?.cancel()
        source = nil
        if failure == nil { wl_display_flush(display) }
        failure = failure ?? "closed"
        wl_display_disconnect(display)
    }
}
