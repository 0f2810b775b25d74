internal import CISAL
import StrataQueues

/// Compresses a page's content stream while the page is still being drawn:
/// the drawing thread hands it each finished stretch of the stream, and a
/// queue of the pool deflates them in order into one zlib stream (ISA-L's
/// igzip, level 3, as `PDFDocument.Compression.fast`), so that writing the
/// document waits only for the last stretch. On a machine with a core to
/// spare the compression costs the drawing nothing.
final class PDFDeflater: @unchecked Sendable {
    // Safe to share: `stream`, `levelBuffer`, `output`, `count`, `capacity`
    // and `failed` are touched only by tasks on `queue` (which run one at a
    // time, in order) and by `finish`, inside the queue's `sync`, after
    // every task sent before it; `init` and `deinit` run when no task can.
    /// One queue for every document: its thread deflates stretches in order.
    static let queue = PoolQueue(label: "strata.pdf.deflate", class: .utility)

    private let stream: UnsafeMutablePointer<isal_zstream>
    private let levelBuffer: UnsafeMutablePointer<UInt8>
    private let levelSize = Int(strata_isal_level3_buffer_size())
    private var output: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity = 1 << 16
    private var failed = false
    /// The stream's bytes sent so far.
    private(set) var sent = 0
    /// Stretches of at least this many bytes are sent.
    static let stretch = 1 << 15

    init() {
        stream = .allocate(capacity: 1)
        levelBuffer = .allocate(capacity: levelSize)
        output = .allocate(capacity: capacity)
        isal_deflate_init(stream)
        stream.pointee.level = 3
        stream.pointee.level_buf = levelBuffer
        stream.pointee.level_buf_size = UInt32(levelSize)
        stream.pointee.gzip_flag = UInt16(IGZIP_ZLIB)
        stream.pointee.flush = UInt16(NO_FLUSH)
    }

    deinit {
        // Tasks hold the deflater: none is left when it goes.
        stream.deallocate()
        levelBuffer.deallocate()
        output.deallocate()
    }

    /// Sends the stream's bytes from `sent` on when they are a stretch long.
    func sendIfLong(_ content: PDFContent) {
        guard content.count - sent >= Self.stretch else { return }
        let part = content.bytes(from: sent)
        sent = content.count
        Self.queue.async { self.deflate(part, last: false) }
    }

    /// The whole stream compressed, once `content` (all of it, of which
    /// `sent` bytes went before) is in; nil when ISA-L failed.
    func finish(_ content: PDFContent) -> [UInt8]? {
        let part = content.bytes(from: sent)
        sent = content.count
        return Self.queue.sync {
            deflate(part, last: true)
            return failed ? nil : Array(UnsafeBufferPointer(start: output, count: count))
        }
    }

    /// Deflates `part` onto the output (on the queue).
    private func deflate(_ part: [UInt8], last: Bool) {
        guard !failed else { return }
        part.withUnsafeBufferPointer { input in
            let s = stream
            s.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            s.pointee.avail_in = UInt32(input.count)
            s.pointee.end_of_stream = last ? 1 : 0
            repeat {
                // Room for what this stretch can become, and more.
                let room = input.count / 2 + (1 << 12)
                if capacity - count < room {
                    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(2 * capacity, count + 2 * room))
                    grown.update(from: output, count: count)
                    output.deallocate()
                    output = grown
                    capacity = max(2 * capacity, count + 2 * room)
                }
                s.pointee.next_out = output + count
                s.pointee.avail_out = UInt32(min(capacity - count, Int(UInt32.max)))
                let before = s.pointee.avail_out, pending = s.pointee.avail_in
                if isal_deflate(s) != COMP_OK {
                    failed = true
                    return
                }
                count += Int(before - s.pointee.avail_out)
                // No progress with room to spare: give up rather than spin.
                if s.pointee.avail_out == before, s.pointee.avail_in == pending, s.pointee.avail_out > 0,
                    !(last && s.pointee.internal_state.state == ZSTATE_END)
                {
                    failed = true
                    return
                }
            } while s.pointee.avail_in > 0 || (last && s.pointee.internal_state.state != ZSTATE_END)
        }
    }
}
