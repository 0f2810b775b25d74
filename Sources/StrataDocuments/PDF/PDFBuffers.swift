import Synchronization

/// Byte buffers kept for the next document: a page's content stream and a
/// file's bytes grow to hundreds of kilobytes, and fresh memory that size
/// costs a page fault every 4 KB and a copy at each doubling, as much as
/// writing the bytes. A program writing document after document (a server
/// rendering reports) takes them back at their grown size. At most four
/// are kept, none over 64 MB.
enum PDFBuffers {
    private static let free = Mutex<[[UInt8]]>([])
    /// Content streams' storage: addresses and sizes.
    private static let storage = Mutex<[(address: UInt, size: Int)]>([])

    /// Storage a content stream gave back, and its size; nil when none is kept.
    static func takeStorage() -> (UnsafeMutablePointer<UInt8>, Int)? {
        guard let kept = storage.withLock({ $0.popLast() }),
            let pointer = UnsafeMutablePointer<UInt8>(bitPattern: kept.address)
        else { return nil }
        return (pointer, kept.size)
    }

    /// Keeps a content stream's storage (`size` bytes, allocated as
    /// `UnsafeMutablePointer<UInt8>`) for a later one, or frees it when
    /// four are kept or it is outside 64 KB ... 64 MB.
    static func giveStorage(_ pointer: UnsafeMutablePointer<UInt8>, capacity size: Int) {
        let address = UInt(bitPattern: pointer)
        let keep =
            size >= 1 << 16 && size <= 64 << 20
            && storage.withLock { kept in
                guard kept.count < 4 else { return false }
                kept.append((address, size))
                return true
            }
        if !keep { pointer.deallocate() }
    }

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
