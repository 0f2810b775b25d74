import Synchronization

/// Byte buffers kept for the next document: a page's content stream and a
/// file's bytes grow to hundreds of kilobytes, and fresh memory that size
/// costs a page fault every 4 KB and a copy at each doubling, as much as
/// writing the bytes. A program writing document after document (a server
/// rendering reports) takes them back at their grown size. Four of each
/// kind are kept at most (the largest), none under 64 KB or over 64 MB.
enum PDFBuffers {
    private static let free = Mutex(Shelf<[UInt8]>())
    /// Content streams' storage, by address.
    private static let storage = Mutex(Shelf<UInt>())

    /// The buffers kept: at most `limit`, the smallest given up when one
    /// more comes; taken largest or smallest first.
    struct Shelf<Item> {
        private(set) var items: [(item: Item, size: Int)] = []
        static var limit: Int { 4 }

        /// Keeps `item` of `size` bytes; returns the item given up for it
        /// (the smallest of them), if the shelf was full.
        mutating func keep(_ item: Item, size: Int) -> Item? {
            items.append((item, size))
            guard items.count > Self.limit, let i = items.indices.min(by: { items[$0].size < items[$1].size }) else { return nil }
            return items.remove(at: i).item
        }

        /// The largest item kept (or the smallest), and its size; nil when none is.
        mutating func take(largest: Bool) -> (item: Item, size: Int)? {
            let bySize: (Int, Int) -> Bool = { items[$0].size < items[$1].size }
            guard let i = largest ? items.indices.max(by: bySize) : items.indices.min(by: bySize) else { return nil }
            return items.remove(at: i)
        }
    }

    /// Whether a buffer of `size` bytes is worth keeping.
    private static func keeps(_ size: Int) -> Bool { size >= 1 << 16 && size <= 64 << 20 }

    /// The largest storage a content stream gave back, and its size; nil
    /// when none is kept.
    static func takeStorage() -> (UnsafeMutablePointer<UInt8>, Int)? {
        guard let kept = storage.withLock({ $0.take(largest: true) }),
            let pointer = UnsafeMutablePointer<UInt8>(bitPattern: kept.item)
        else { return nil }
        return (pointer, kept.size)
    }

    /// Keeps a content stream's storage (`size` bytes, allocated as
    /// `UnsafeMutablePointer<UInt8>`) for a later one, or frees it (or a
    /// smaller one kept) when it is not worth keeping.
    static func giveStorage(_ pointer: UnsafeMutablePointer<UInt8>, capacity size: Int) {
        guard keeps(size) else { return pointer.deallocate() }
        let dropped = storage.withLock { $0.keep(UInt(bitPattern: pointer), size: size) }
        if let dropped { UnsafeMutablePointer<UInt8>(bitPattern: dropped)?.deallocate() }
    }

    /// An empty buffer with at least `capacity` bytes of room: the
    /// largest kept one (`largest`, for a file's bytes) or the smallest
    /// (for scratch), when one is kept.
    static func take(capacity: Int, largest: Bool) -> [UInt8] {
        if var kept = free.withLock({ $0.take(largest: largest)?.item }) {
            kept.removeAll(keepingCapacity: true)
            if kept.capacity < capacity { kept.reserveCapacity(capacity) }
            return kept
        }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(capacity)
        return fresh
    }

    /// Keeps `buffer`'s storage for a later document.
    static func give(_ buffer: consuming [UInt8]) {
        let b = buffer
        guard keeps(b.capacity) else { return }
        // What the shelf gives up is freed outside the lock.
        _ = free.withLock { $0.keep(b, size: b.capacity) }
    }
}
