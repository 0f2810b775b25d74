internal import CDBus
import Dispatch
import Glibc
import StrataFoundation

/// What went wrong talking to a D-Bus bus.
public enum AccessibilityBusError: Error, Equatable, CustomStringConvertible {
    /// No session bus: `DBUS_SESSION_BUS_ADDRESS` is not set.
    case noSessionBus
    /// The bus at `address` could not be reached, and why.
    case connectionFailed(address: String, reason: String)
    /// A call failed: its name, and D-Bus's error.
    case callFailed(method: String, reason: String)
    /// A reply that did not hold what the call returns.
    case unexpectedReply(method: String)

    public var description: String {
        switch self {
        case .noSessionBus: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
        case .connectionFailed(let address, let reason): "cannot connect to the bus at \(address): \(reason)"
        case .callFailed(let method, let reason): "\(method) failed: \(reason)"
        case .unexpectedReply(let method): "\(method) returned something unexpected"
        }
    }
}

/// A value to write into a D-Bus message.
indirect enum DBusValue {
    case string(String)
    case objectPath(String)
    case int32(Int32)
    case uint32(UInt32)
    case double(Double)
    case boolean(Bool)
    /// A structure of the values.
    case structure([DBusValue])
    /// An array whose elements have `signature`.
    case array(signature: String, [DBusValue])
    /// A dictionary entry (in an array of them).
    case entry(DBusValue, DBusValue)
    /// A variant of `signature`.
    case variant(signature: String, DBusValue)

    /// An object reference, `(so)`: a bus name and a path.
    static func reference(_ bus: String, _ path: String) -> DBusValue { .structure([.string(bus), .objectPath(path)]) }

    func append(to iter: UnsafeMutablePointer<DBusMessageIter>) {
        switch self {
        case .string(let s), .objectPath(let s):
            let type = if case .string = self { strata_dbus_type_string } else { strata_dbus_type_object_path }
            s.withCString { p in
                var pointer: UnsafePointer<CChar>? = p
                _ = dbus_message_iter_append_basic(iter, type, &pointer)
            }
        case .int32(var v):
            _ = dbus_message_iter_append_basic(iter, strata_dbus_type_int32, &v)
        case .uint32(var v):
            _ = dbus_message_iter_append_basic(iter, strata_dbus_type_uint32, &v)
        case .double(var v):
            _ = dbus_message_iter_append_basic(iter, strata_dbus_type_double, &v)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            _ = dbus_message_iter_append_basic(iter, strata_dbus_type_boolean, &v)
        case .structure(let values):
            container(iter, strata_dbus_type_struct, nil) { sub in for v in values { v.append(to: sub) } }
        case .array(let signature, let values):
            container(iter, strata_dbus_type_array, signature) { sub in for v in values { v.append(to: sub) } }
        case .entry(let key, let value):
            container(iter, strata_dbus_type_dict_entry, nil) { sub in
                key.append(to: sub)
                value.append(to: sub)
            }
        case .variant(let signature, let value):
            container(iter, strata_dbus_type_variant, signature) { sub in value.append(to: sub) }
        }
    }

    private func container(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ signature: String?,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) -> Void
    ) {
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { sub.deallocate() }
        let opened: dbus_bool_t =
            if let signature { signature.withCString { dbus_message_iter_open_container(iter, type, $0, sub) } } else {
                dbus_message_iter_open_container(iter, type, nil, sub)
            }
        guard opened != 0 else { return }
        body(sub)
        _ = dbus_message_iter_close_container(iter, sub)
    }
}

/// The arguments of a message, read in order.
struct DBusArguments {
    private(set) var values: [Any] = []

    init(_ message: OpaquePointer) {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return }
        values = Self.read(&iter)
    }

    private static func read(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> [Any] {
        var result: [Any] = []
        while true {
            let type = dbus_message_iter_get_arg_type(iter)
            if type == strata_dbus_type_invalid { break }
            switch type {
            case strata_dbus_type_string, strata_dbus_type_object_path, strata_dbus_type_signature:
                var p: UnsafePointer<CChar>?
                dbus_message_iter_get_basic(iter, &p)
                result.append(p.map { String(cString: $0) } ?? "")
            case strata_dbus_type_int32:
                var v: Int32 = 0
                dbus_message_iter_get_basic(iter, &v)
                result.append(Int(v))
            case strata_dbus_type_uint32:
                var v: UInt32 = 0
                dbus_message_iter_get_basic(iter, &v)
                result.append(Int(v))
            case strata_dbus_type_int16:
                var v: Int16 = 0
                dbus_message_iter_get_basic(iter, &v)
                result.append(Int(v))
            case strata_dbus_type_double:
                var v = 0.0
                dbus_message_iter_get_basic(iter, &v)
                result.append(v)
            case strata_dbus_type_boolean:
                var v: dbus_bool_t = 0
                dbus_message_iter_get_basic(iter, &v)
                result.append(v != 0)
            case strata_dbus_type_array, strata_dbus_type_struct, strata_dbus_type_variant, strata_dbus_type_dict_entry:
                var sub = DBusMessageIter()
                dbus_message_iter_recurse(iter, &sub)
                let inner = read(&sub)
                result.append(type == strata_dbus_type_variant ? (inner.first ?? ()) : inner)
            default:
                result.append(())
            }
            if dbus_message_iter_next(iter) == 0 { break }
        }
        return result
    }

    func string(_ i: Int) -> String? { i < values.count ? values[i] as? String : nil }
    func int(_ i: Int) -> Int? { i < values.count ? values[i] as? Int : nil }
    func double(_ i: Int) -> Double? {
        guard i < values.count else { return nil }
        return values[i] as? Double ?? (values[i] as? Int).map(Double.init)
    }
}

/// A private connection to a bus, served on the main queue: method calls
/// made and waited for, calls to paths under a prefix handed to a
/// handler, replies and signals sent.
@MainActor
final class DBusConnection {
    private let connection: OpaquePointer
    private var source: DescriptorWatch?
    /// The connection's unique name on the bus (":1.42").
    let uniqueName: String
    /// Handles a method call; returns its reply's values, or an error name
    /// and text. Nil: not handled (an UnknownMethod error is sent).
    typealias Handler = @MainActor (_ path: String, _ interface: String, _ member: String, _ arguments: DBusArguments) -> Reply?
    enum Reply {
        case values([DBusValue])
        case error(name: String, text: String)
    }
    private var handler: Handler?
    private var box: Unmanaged<HandlerBox>?
    /// Whether `close()` has not run: a closed connection's pointer is freed.
    private(set) var isOpen = true

    /// Connects to the bus at `address` and registers with it.
    init(address: String) throws(AccessibilityBusError) {
        var error = DBusError()
        dbus_error_init(&error)
        guard let c = dbus_connection_open_private(address, &error) else {
            let reason = Self.message(&error)
            throw .connectionFailed(address: address, reason: reason)
        }
        dbus_connection_set_exit_on_disconnect(c, 0)
        guard dbus_bus_register(c, &error) != 0 else {
            let reason = Self.message(&error)
            dbus_connection_close(c)
            dbus_connection_unref(c)
            throw .connectionFailed(address: address, reason: reason)
        }
        connection = c
        uniqueName = dbus_bus_get_unique_name(c).map { String(cString: $0) } ?? ""
    }

    /// Closes the connection; calls after it throw, signals and reads do
    /// nothing. Closing again does nothing.
    func close() {
        guard isOpen else { return }
        isOpen = false
        source?.cancel()
        source = nil
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        box?.release()
        box = nil
    }

    // A private connection must be closed before its last reference goes.
    isolated deinit { close() }

    private static func message(_ error: inout DBusError) -> String {
        defer { dbus_error_free(&error) }
        return error.message.map { String(cString: $0) } ?? "unknown error"
    }

    /// Calls `member` and waits (up to `timeout` seconds) for its reply's arguments.
    func call(
        destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = [], timeout: Double = 5
    ) throws(AccessibilityBusError) -> DBusArguments {
        guard isOpen else { throw .callFailed(method: "\(interface).\(member)", reason: "the connection is closed") }
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
            throw .callFailed(method: member, reason: "out of memory")
        }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for a in arguments { a.append(to: &iter) }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, Int32(timeout * 1000), &error) else {
            throw .callFailed(method: "\(interface).\(member)", reason: Self.message(&error))
        }
        defer { dbus_message_unref(reply) }
        return DBusArguments(reply)
    }

    /// Sends a signal from `path`.
    func signal(path: String, interface: String, member: String, arguments: [DBusValue]) {
        guard isOpen, let message = dbus_message_new_signal(path, interface, member) else { return }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for a in arguments { a.append(to: &iter) }
        dbus_connection_send(connection, message, nil)
        dbus_connection_flush(connection)
    }

    /// Hands method calls to paths under `prefix` to `handler`, and reads
    /// the connection whenever it has data, on the main queue.
    func serve(pathsUnder prefix: String, handler: @escaping Handler) {
        guard isOpen else { return }
        self.handler = handler
        let box = Unmanaged.passRetained(HandlerBox(self))
        self.box = box
        var table = DBusObjectPathVTable()
        table.message_function = { connection, message, data in
            guard let connection, let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let owner = Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { owner.connection?.handle(connection, message) ?? DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        }
        _ = dbus_connection_register_fallback(connection, prefix, &table, box.toOpaque())
        var fd: Int32 = -1
        guard dbus_connection_get_unix_fd(connection, &fd) != 0, fd >= 0 else { return }
        source = DescriptorWatch(fd, for: .readable, queue: .main) { [weak self] in MainActor.assumeIsolated { self?.pump() } }
        pump()
    }

    /// Reads what the connection has and dispatches it.
    func pump() {
        guard isOpen else { return }
        // Nothing to read, send or dispatch: no call into libdbus's locks
        // (a frame loop pumps every frame).
        if dbus_connection_get_dispatch_status(connection) != DBUS_DISPATCH_DATA_REMAINS,
            dbus_connection_has_messages_to_send(connection) == 0
        {
            var fd: Int32 = -1
            if dbus_connection_get_unix_fd(connection, &fd) != 0, fd >= 0 {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 0) == 0 { return }
            }
        }
        _ = dbus_connection_read_write(connection, 0)
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    private func handle(_ c: OpaquePointer, _ message: OpaquePointer) -> DBusHandlerResult {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let path = dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        let interface = dbus_message_get_interface(message).map { String(cString: $0) } ?? ""
        let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        let result =
            handler?(path, interface, member, DBusArguments(message))
            ?? .error(name: "org.freedesktop.DBus.Error.UnknownMethod", text: "\(interface).\(member) is not here")
        let reply: OpaquePointer?
        switch result {
        case .values(let values):
            reply = strata_dbus_reply(message, nil, nil)
            if let reply {
                var iter = DBusMessageIter()
                dbus_message_iter_init_append(reply, &iter)
                for v in values { v.append(to: &iter) }
            }
        case .error(let name, let text):
            reply = strata_dbus_reply(message, name, text)
        }
        if let reply {
            dbus_connection_send(c, reply, nil)
            dbus_message_unref(reply)
        }
        dbus_connection_flush(c)
        return DBUS_HANDLER_RESULT_HANDLED
    }
}

/// What the C callback's user data points at: the connection, weakly.
private final class HandlerBox {
    weak var connection: DBusConnection?
    init(_ connection: DBusConnection) { self.connection = connection }
}
