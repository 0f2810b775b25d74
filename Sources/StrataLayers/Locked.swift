import Synchronization

/// A value behind a mutex, as a class so that it can be shared.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func update<R>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
