import Synchronization

/// Byte buffers kept for the next document: a page's content stream and a
/// file's bytes grow to hundreds of kilobytes, and fresh memory that size
/// costs a page fault every 4 KB and a copy at each doubling, as much as
/// writing the bytes. A program writing document after document (a server
/// rendering reports) takes them back at their grown size. At most four
/// are kept, none over 64 MB.
enum PDFBuffers {
    private static let free = Mutex<[[UInt8]]>([])

    /// An empty buffer with at least `capacity` bytes of room (a kept one
    /// when there is one).
    static func take(capacity: Int) -> [UInt8] {
        if var kept = free.withLock({ $0.popLast() }) {
            kept.removeAll(keepingCapacity: true)
            if kept.capacity < capacity { kept.reserveCapacity(capacity) }
            return kept
        }
        var fresh: [UInt8] = []
        fresh.reserveCapacity(capacity)
        return fresh
    }

    /// Keeps `buffer`'s storage for a later document (when there is room).
    static func give(_ buffer: consuming [UInt8]) {
        guard buffer.capacity >= 1 << 16, buffer.capacity <= 64 << 20 else { return }
        let b = buffer
        free.withLock { kept in
            if kept.count < 4 { kept.append(b) }
        }
    }
}
