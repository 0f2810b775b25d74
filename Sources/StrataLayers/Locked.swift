import Foundation

/// A value behind a lock, as a class so that it can be shared between threads.
///
/// The lock is an `NSLock` (a pthread mutex), not `Synchronization.Mutex`:
/// the thread sanitizer sees pthread locking, but not `Mutex`'s futex-based
/// locking in the precompiled standard library, and reported every access
/// made under one as a race.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safe to share: `storage` is read and written only inside `withLock`,
    // with `lock` held, so no two threads touch it at once.
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) { storage = value }

    var value: Value { withLock { $0 } }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
