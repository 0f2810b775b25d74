import DequeModule

/// A thread-safe cache bounded in entries and in bytes: when either bound is
/// passed, the oldest entries go first (first in, first out, which costs a
/// hit nothing but a lookup: no reordering under the lock on every read).
///
/// The glyph masks and the text layouts are kept in caches of this kind. A
/// value's size in bytes is whatever the caller says it is when inserting it.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable, CacheBounds {
    struct State {
        var entries: [Key: (value: Value, bytes: Int)] = [:]
        var order = Deque<Key>()
        var bytes = 0
    }

    /// The most entries held at once (at least 1).
    public let maximumEntries: Int
    /// The most bytes held at once, by the sizes given to `insert` (at least
    /// 1, at most `Int.max / 2`, so that adding a value never overflows).
    public let maximumBytes: Int
    private let state = Locked(State())

    /// An empty cache; bounds below 1 count as 1.
    public init(maximumEntries: Int, maximumBytes: Int) {
        self.maximumEntries = max(1, maximumEntries)
        self.maximumBytes = min(Int.max / 2, max(1, maximumBytes))
    }

    /// Entries and bytes held now.
    public var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }

    /// The value kept for `key`, if any.
    public func value(for key: Key) -> Value? {
        state.withLock { $0.entries[key]?.value }
    }

    /// The values kept for `keys`, in order, taking the lock once.
    public func values(for keys: some Sequence<Key>) -> [Value?] {
        state.withLock { s in keys.map { s.entries[$0]?.value } }
    }

    /// Keeps `value` for `key`, counted as `bytes`, unless a value is already
    /// kept for it (another thread made it first; that one stays, so every
    /// caller sees one value). Then drops the oldest entries until both
    /// bounds hold again; a value larger than `maximumBytes` alone is not kept.
    public func insert(_ value: Value, for key: Key, bytes: Int) {
        let bytes = max(0, bytes)
        // Kept, it would push out everything else and then itself.
        guard bytes <= maximumBytes else { return }
        state.withLock { s in
            guard s.entries[key] == nil else { return }
            s.entries[key] = (value, bytes)
            s.order.append(key)
            s.bytes += bytes
            while s.entries.count > maximumEntries || s.bytes > maximumBytes, let oldest = s.order.popFirst() {
                if let gone = s.entries.removeValue(forKey: oldest) { s.bytes -= gone.bytes }
            }
        }
    }

    /// The value kept for `key`, or the one `make` returns (made outside the
    /// lock, so other threads' lookups do not wait for it), kept with the
    /// size `bytes` gives it.
    public func value(for key: Key, orMake make: () -> Value, bytes: (Value) -> Int) -> Value {
        if let hit = value(for: key) { return hit }
        let made = make()
        insert(made, for: key, bytes: bytes(made))
        return made
    }

    /// Drops every entry.
    public func removeAll() {
        state.withLock { s in
            s.entries.removeAll()
            s.order.removeAll()
            s.bytes = 0
        }
    }
}

/// A cache bounded in entries and in bytes, by the names its bounds go by
/// (`BoundedCache` and the caches built on it).
public protocol CacheBounds {
    /// The most entries held at once.
    var maximumEntries: Int { get }
    /// The most bytes held at once.
    var maximumBytes: Int { get }
    /// An empty cache with these bounds.
    init(maximumEntries: Int, maximumBytes: Int)
}

extension CacheBounds {
    @available(*, deprecated, renamed: "init(maximumEntries:maximumBytes:)")
    public init(maxEntries: Int, maxBytes: Int) { self.init(maximumEntries: maxEntries, maximumBytes: maxBytes) }

    @available(*, deprecated, renamed: "maximumEntries")
    public var maxEntries: Int { maximumEntries }

    @available(*, deprecated, renamed: "maximumBytes")
    public var maxBytes: Int { maximumBytes }
}
