import Foundation

/// A value behind a lock, as a class so that it can be shared between threads:
/// the one lock around shared values in the whole package (`PoolQueue`
/// keeps its own lock, condition and semaphore to run and wake its thread).
///
/// The lock is an `NSLock` (a pthread mutex), not `Synchronization.Mutex`:
/// the thread sanitizer sees pthread locking, but not `Mutex`'s futex-based
/// locking in the precompiled standard library, and reported every access
/// made under one as a race (so `scripts/tsan.sh` could not check the code
/// that used it). Uncontended, both cost a compare-and-swap to take.
///
/// The value need not be `Sendable` (the font library keeps FreeType's
/// handles in one): it is reached only inside `withLock`, one thread at a
/// time. Whatever `withLock` returns leaves the lock, so return copies of
/// `Sendable` values, never the state's non-`Sendable` parts.
public final class Locked<Value>: @unchecked Sendable {
    // Safe to share: `storage` is read and written only inside `withLock`,
    // with `lock` held, so no two threads touch it at once.
    private let lock = NSLock()
    private var storage: Value

    /// A lock around `value`.
    public init(_ value: consuming Value) { storage = value }

    /// Runs `body` with the lock held and the value to read or change.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}

extension Locked where Value: Sendable {
    /// A copy of the value, read under the lock.
    public var value: Value { withLock { $0 } }
}
