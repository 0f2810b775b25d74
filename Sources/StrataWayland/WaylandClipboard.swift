internal import CWaylandClient
internal import CWaylandProtocols
import Dispatch
import Foundation
import StrataControls

/// The Wayland clipboard: the data device's selection (copy and paste)
/// and, where the compositor offers it, the primary selection (what
/// selecting text sets and a middle click pastes), as `Clipboard`.
///
/// Text is offered as `text/plain;charset=utf-8` and its older names,
/// and read in the first of them another program offers. Reading goes
/// through a pipe the other program writes, read on the main queue
/// without blocking; a paste no program answers within a second is nil.
/// The compositor sends the selection only to the window with keyboard
/// focus, and takes a new one only with the serial of a recent input
/// event (`serial`).
@MainActor
final class WaylandClipboard: Clipboard {
    /// One kind of selection: the data device's or the primary one.
    private final class Selection {
        var device: WaylandObject?
        /// Offers made by the compositor, with the types each has.
        var offers: [OpaquePointer: (object: WaylandObject, types: [String])] = [:]
        /// The offer now holding the selection (nil: none, or ours).
        var current: OpaquePointer?
        /// Our source while we hold the selection, and its text.
        var source: WaylandObject?
        var text: String?
    }

    private let connection: WaylandConnection
    private let clipboard = Selection()
    private let primary = Selection()
    /// The serial of the latest input event, which a new selection needs.
    var serial: () -> UInt32 = { 0 }
    /// How long a paste waits for the other program's text, in seconds.
    var readTimeout = 1.0
    /// Pastes this window's selections have answered (tests look).
    private(set) var pastesServed = 0

    /// Text types, best first.
    static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    /// Whether the compositor offers a primary selection.
    var hasPrimarySelection: Bool { primary.device != nil }

    init?(connection: WaylandConnection, seat: WaylandObject) {
        self.connection = connection
        guard let manager = connection.dataDeviceManager,
            let d = manager.send(1, [.newID, .object(seat.proxy)], creating: strata_wl_data_device_interface())
        else { return nil }
        let device = WaylandObject(d)
        clipboard.device = device
        device.onEvent = { [unowned self] opcode, args in
            switch opcode {
            case 0: self.newOffer(args.object(0), in: self.clipboard, typeEvent: 0)  // data_offer
            case 2: self.dropDragOffers()  // leave (a drag's offer)
            case 5: self.selectionChanged(to: args.object(0), in: self.clipboard, destroyRequest: 2)  // selection
            default: break
            }
        }
        if let manager = connection.primarySelectionManager,
            let p = manager.send(1, [.newID, .object(seat.proxy)], creating: strata_zwp_primary_selection_device_v1_interface())
        {
            let device = WaylandObject(p)
            primary.device = device
            device.onEvent = { [unowned self] opcode, args in
                switch opcode {
                case 0: self.newOffer(args.object(0), in: self.primary, typeEvent: 0)  // data_offer
                case 1: self.selectionChanged(to: args.object(0), in: self.primary, destroyRequest: 1)  // selection
                default: break
                }
            }
        }
    }

    func destroy() {
        for (selection, destroyOffer) in [(clipboard, UInt32(2)), (primary, UInt32(1))] {
            for offer in selection.offers.values { offer.object.destroy(request: destroyOffer) }
            selection.offers = [:]
            selection.source?.destroy(request: 1)
            selection.source = nil
        }
        // wl_data_device.release from version 2; the primary device's destroy.
        if let d = clipboard.device { d.destroy(request: d.version >= 2 ? 2 : nil) }
        primary.device?.destroy(request: 1)
    }

    /// The types the selection now offered has (nil: none offered), and
    /// whether this window holds it: what a test looks at.
    func offeredTypes(primary isPrimary: Bool) -> [String]? {
        let selection = isPrimary ? primary : clipboard
        return selection.current.flatMap { selection.offers[$0]?.types }
    }
    func holds(primary isPrimary: Bool) -> Bool { (isPrimary ? primary : clipboard).source != nil }

    // MARK: Offers

    private func newOffer(_ proxy: OpaquePointer?, in selection: Selection, typeEvent: UInt32) {
        guard let proxy else { return }
        let offer = WaylandObject(proxy)
        selection.offers[proxy] = (offer, [])
        offer.onEvent = { [weak selection] opcode, args in
            guard opcode == typeEvent, let selection else { return }
            selection.offers[proxy]?.types.append(args.string(0))
        }
    }

    /// The selection is now `proxy`'s offer (nil: empty); older offers go.
    private func selectionChanged(to proxy: OpaquePointer?, in selection: Selection, destroyRequest: UInt32) {
        for (key, offer) in selection.offers where key != proxy {
            offer.object.destroy(request: destroyRequest)
            selection.offers[key] = nil
        }
        selection.current = proxy
    }

    /// A drag left the window: its offers (not the selection's) go.
    private func dropDragOffers() {
        for (key, offer) in clipboard.offers where key != clipboard.current {
            offer.object.destroy(request: 2)
            clipboard.offers[key] = nil
        }
    }

    // MARK: Clipboard

    func writeString(_ string: String, primary isPrimary: Bool) {
        let selection = isPrimary ? primary : clipboard
        guard let device = selection.device else { return }
        let manager = isPrimary ? connection.primarySelectionManager : connection.dataDeviceManager
        let interface = isPrimary ? strata_zwp_primary_selection_source_v1_interface() : strata_wl_data_source_interface()
        // create_data_source / create_source: opcode 0 on both managers.
        guard let manager, let s = manager.send(0, [.newID], creating: interface) else { return }
        let source = WaylandObject(s)
        for type in Self.textTypes { source.send(0, [.string(type)]) }  // offer(mime)
        // Events: send(mime, fd) and cancelled: 1 and 2 for the data
        // source, 0 and 1 for the primary one.
        let (sendEvent, cancelledEvent): (UInt32, UInt32) = isPrimary ? (0, 1) : (1, 2)
        source.onEvent = { [weak self, weak selection, weak source] opcode, args in
            guard let selection, let source, selection.source === source else {
                if opcode == sendEvent { close(args.fd(1)) }
                return
            }
            if opcode == sendEvent {
                self?.pastesServed += 1
                Self.write(selection.text ?? "", to: args.fd(1))
            } else if opcode == cancelledEvent {
                // Another program took the selection.
                source.destroy(request: 1)
                selection.source = nil
                selection.text = nil
            }
        }
        selection.source?.destroy(request: 1)
        selection.source = source
        selection.text = string
        // set_selection(source, serial): 1 on the data device, 0 on the primary one.
        device.send(isPrimary ? 0 : 1, [.object(source.proxy), .uint(serial())])
        connection.flush()
    }

    func readString(primary isPrimary: Bool, _ done: @escaping @MainActor (String?) -> Void) {
        let selection = isPrimary ? primary : clipboard
        // Ours: no pipe.
        if selection.source != nil, let text = selection.text { return done(text) }
        guard let key = selection.current, let offer = selection.offers[key],
            let type = Self.textTypes.first(where: offer.types.contains)
        else { return done(nil) }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return done(nil) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        // receive(mime, fd): 1 on a data offer, 0 on a primary one.
        offer.object.send(isPrimary ? 0 : 1, [.string(type), .fd(fds[1])])
        connection.flush()
        close(fds[1])
        Self.read(fds[0], timeout: readTimeout, done)
    }

    /// Writes `text` to `fd` and closes it, without blocking: what the pipe
    /// takes at once is written now (all of a usual paste), the rest as the
    /// reader drains it, on the main queue; a reader that stops for ten
    /// seconds is given up on. A reader that went away makes the write
    /// fail, not end the process: SIGPIPE is ignored from the first paste
    /// served, where nothing else handles it.
    private static func write(_ text: String, to fd: Int32) {
        ignoreBrokenPipes
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let state = WriteState(fd: fd, bytes: Array(text.utf8))
        guard !state.writeAvailable() else { return }
        state.watch = DescriptorWatch(fd, for: .writable, queue: .main) { MainActor.assumeIsolated { _ = state.writeAvailable() } }
        if state.watch == nil { state.finish() }
        DispatchQueue.main.asyncAfter(deadline: .now() + 10) {
            MainActor.assumeIsolated { state.finish() }
        }
    }

    /// A write under way: the pipe, the bytes and how far they went.
    @MainActor
    private final class WriteState {
        let fd: Int32
        let bytes: [UInt8]
        var offset = 0
        var finished = false
        /// Set once the pipe was full: writes the rest as it drains.
        var watch: DescriptorWatch?

        init(fd: Int32, bytes: [UInt8]) {
            self.fd = fd
            self.bytes = bytes
        }

        /// Writes what the pipe takes; whether the write is over.
        func writeAvailable() -> Bool {
            while !finished, offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n > 0 {
                    offset += n
                } else if n < 0, errno == EINTR {
                    continue
                } else if n < 0, errno == EAGAIN {
                    return false
                } else {
                    break
                }
            }
            finish()
            return true
        }

        func finish() {
            guard !finished else { return }
            finished = true
            watch?.cancel()
            close(fd)
        }
    }

    /// Ignores SIGPIPE unless the process already handles it (once).
    private static let ignoreBrokenPipes: Void = {
        var old = sigaction()
        if sigaction(SIGPIPE, nil, &old) == 0, old.__sigaction_handler.sa_handler == nil {
            signal(SIGPIPE, SIG_IGN)
        }
    }()

    /// Reads `fd` to its end on the main queue without blocking, then
    /// hands the text on (nil when nothing came within `timeout` seconds or
    /// it is not UTF-8; at most 64 MB are kept).
    private static func read(_ fd: Int32, timeout: Double, _ done: @escaping @MainActor (String?) -> Void) {
        let state = ReadState(fd: fd, done: done)
        state.watch = DescriptorWatch(fd, for: .readable, queue: .main) { MainActor.assumeIsolated { state.readAvailable() } }
        guard state.watch != nil else { return state.finish(nil) }
        DispatchQueue.main.asyncAfter(deadline: .now() + max(0, timeout)) {
            MainActor.assumeIsolated { state.finish(nil) }
        }
    }

    /// A read under way: the pipe, what came so far, and where it goes.
    @MainActor
    private final class ReadState {
        let fd: Int32
        var watch: DescriptorWatch?
        let done: @MainActor (String?) -> Void
        var data: [UInt8] = []
        var finished = false

        init(fd: Int32, done: @escaping @MainActor (String?) -> Void) {
            self.fd = fd
            self.done = done
        }

        func readAvailable() {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !finished {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    data.append(contentsOf: buffer[0..<n])
                    if data.count > 64 << 20 { return finish(nil) }
                    continue
                }
                if n == 0 { return finish(String(validating: data, as: UTF8.self)) }
                if errno == EAGAIN || errno == EINTR { return }
                return finish(nil)
            }
        }

        func finish(_ text: String?) {
            guard !finished else { return }
            finished = true
            watch?.cancel()
            close(fd)
            done(text)
        }
    }
}
