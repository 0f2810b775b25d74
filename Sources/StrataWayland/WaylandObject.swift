internal import CWaylandClient
internal import CWaylandProtocols
import Foundation

/// One object of this client's on a Wayland connection: its proxy, and
/// what its events do.
///
/// Every object's events come through one dispatcher
/// (`wl_proxy_add_dispatcher`) that hands the opcode and the arguments to
/// `onEvent`, so no listener structs are needed; requests go out through
/// `wl_proxy_marshal_array_flags`, or the core protocol's inline functions.
/// Events are read on the main actor only (`WaylandConnection.dispatch`).
@MainActor
final class WaylandObject {
    /// The `struct wl_proxy *`.
    let proxy: OpaquePointer
    /// Called with each event's opcode and arguments.
    var onEvent: ((UInt32, UnsafeMutablePointer<wl_argument>) -> Void)?
    private(set) var isDestroyed = false

    init(_ proxy: OpaquePointer) {
        self.proxy = proxy
        wl_proxy_add_dispatcher(proxy, waylandDispatch, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// The version the object was made with.
    var version: UInt32 { wl_proxy_get_version(proxy) }

    /// Sends request `opcode` with `arguments`; with `creating`, the request
    /// makes a new object of that interface (a `new_id` argument, given as
    /// `.newID`), which is returned.
    @discardableResult
    func send(_ opcode: UInt32, _ arguments: [WaylandArgument] = [], creating interface: UnsafePointer<wl_interface>? = nil)
        -> OpaquePointer?
    {
        guard !isDestroyed else { return nil }
        return WaylandArgument.withArguments(arguments) { args in
            wl_proxy_marshal_array_flags(proxy, opcode, interface, version, 0, args)
        }
    }

    /// Sends the destructor request `opcode` (nil: the interface has none)
    /// and lets the proxy go. Events already queued for it are dropped.
    func destroy(request opcode: UInt32? = 0) {
        guard !isDestroyed else { return }
        isDestroyed = true
        onEvent = nil
        if let opcode {
            wl_proxy_marshal_array_flags(proxy, opcode, nil, version, UInt32(WL_MARSHAL_FLAG_DESTROY), nil)
        } else {
            wl_proxy_destroy(proxy)
        }
    }
}

/// A request's argument.
enum WaylandArgument {
    case int(Int32)
    case uint(UInt32)
    case fixed(Double)
    case string(String)
    case object(OpaquePointer?)
    case newID
    case fd(Int32)

    /// The most UTF-8 bytes a string argument keeps: a Wayland message is
    /// at most 4,096 bytes, and a request with a longer one would end the
    /// connection.
    static let maximumStringBytes = 3_072

    /// `s` cut where a C string ends (its first NUL) and at the last whole
    /// character within `maximumStringBytes`.
    static func fitting(_ s: String) -> String {
        var kept = ""
        var bytes = 0
        for c in s {
            if c.unicodeScalars.contains(where: { $0.value == 0 }) { break }
            let n = c.utf8.count
            if bytes + n > maximumStringBytes { break }
            kept.append(c)
            bytes += n
        }
        return kept
    }

    /// `arguments` as `wl_argument`s, strings alive, for `body`.
    static func withArguments<R>(_ arguments: [WaylandArgument], _ body: (UnsafeMutablePointer<wl_argument>?) -> R) -> R {
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { for s in strings { free(s) } }
        var args = arguments.map { a -> wl_argument in
            switch a {
            case .int(let v): return wl_argument(i: v)
            case .uint(let v): return wl_argument(u: v)
            case .fixed(let v): return wl_argument(f: wl_fixed_from_double(v))
            case .string(let s):
                let c = strdup(Self.fitting(s))!
                strings.append(c)
                return wl_argument(s: c)
            case .object(let o): return wl_argument(o: o)
            case .newID: return wl_argument(n: 0)
            case .fd(let fd): return wl_argument(h: fd)
            }
        }
        if args.isEmpty { return body(nil) }
        return args.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
}

extension UnsafeMutablePointer where Pointee == wl_argument {
    func int(_ i: Int) -> Int32 { self[i].i }
    func uint(_ i: Int) -> UInt32 { self[i].u }
    func fixed(_ i: Int) -> Double { wl_fixed_to_double(self[i].f) }
    func string(_ i: Int) -> String { self[i].s.map { String(cString: $0) } ?? "" }
    func object(_ i: Int) -> OpaquePointer? { self[i].o }
    func fd(_ i: Int) -> Int32 { self[i].h }
    /// An `array` argument's bytes read as `UInt32`s (xdg_toplevel's states).
    func uint32Array(_ i: Int) -> [UInt32] {
        guard let a = self[i].a, let data = a.pointee.data else { return [] }
        let n = a.pointee.size / MemoryLayout<UInt32>.size
        return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: n))
    }
}

/// The dispatcher of every object's events: `implementation` is the
/// `WaylandObject`, not retained (the object outlives its proxy).
private let waylandDispatch: wl_dispatcher_func_t = { implementation, _, opcode, _, args in
    guard let implementation, let args else { return 0 }
    // Events are dispatched only from the main actor (WaylandConnection);
    // the pointers cross into its isolation as plain addresses.
    let object = UInt(bitPattern: implementation), arguments = UInt(bitPattern: args)
    MainActor.assumeIsolated {
        let target = Unmanaged<WaylandObject>.fromOpaque(UnsafeRawPointer(bitPattern: object)!).takeUnretainedValue()
        target.onEvent?(opcode, UnsafeMutablePointer<wl_argument>(bitPattern: arguments)!)
    }
    return 0
}
