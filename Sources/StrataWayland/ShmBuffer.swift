internal import CWaylandClient
internal import CWaylandProtocols
import Foundation
import StrataGraphics

/// One `wl_buffer` in shared memory that frames are copied into, in the
/// compositor's ARGB8888 (B, G, R, A in memory, premultiplied, as Strata's
/// frames are but for red and blue swapped).
///
/// A buffer is `busy` from the commit that attaches it until the
/// compositor's `release`: it is never written in between.
@MainActor
final class ShmBuffer {
    let width: Int
    let height: Int
    let buffer: WaylandObject
    private let memory: UnsafeMutableRawPointer
    private let byteCount: Int
    /// Attached and not yet released by the compositor.
    var busy = false
    /// The number of the frame the buffer holds (nil: nothing yet).
    var frame: Int?

    init(connection: WaylandConnection, width: Int, height: Int) throws {
        guard let shm = connection.shm else { throw WaylandError.missingInterface("wl_shm") }
        let stride = width * 4
        byteCount = stride * height
        let fd = strata_wl_shm_file(byteCount)
        guard fd >= 0 else { throw WaylandError.sharedMemory(String(cString: strerror(errno))) }
        defer { close(fd) }
        guard let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            throw WaylandError.sharedMemory(String(cString: strerror(errno)))
        }
        self.memory = memory
        self.width = width
        self.height = height
        guard let poolProxy = wl_shm_create_pool(shm.proxy, fd, Int32(byteCount)) else {
            munmap(memory, byteCount)
            throw WaylandError.sharedMemory("wl_shm refused a pool")
        }
        let pool = WaylandObject(poolProxy)
        let made = wl_shm_pool_create_buffer(
            pool.proxy, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
        // The pool is needed only to make the buffer, which keeps the memory.
        pool.destroy(request: 1)
        guard let made else {
            munmap(memory, byteCount)
            throw WaylandError.sharedMemory("wl_shm refused a buffer")
        }
        buffer = WaylandObject(made)
        buffer.onEvent = { [unowned self] opcode, _ in if opcode == 0 { self.busy = false } }
    }

    /// Lets the `wl_buffer` go (before the connection closes).
    func destroy() { buffer.destroy() }

    isolated deinit {
        munmap(memory, byteCount)
    }

    /// Copies `rects` of `frame` (the same size) into the buffer.
    func copy(_ frame: Bitmap, rects: [PixelRect]) {
        let row = width * 4
        for r in rects {
            guard let r = r.clipped(toWidth: min(width, frame.width), height: min(height, frame.height)) else { continue }
            for y in r.y..<(r.y + r.height) {
                PixelRect.swapRedAndBlue(
                    frame.baseAddress + y * frame.bytesPerRow + r.x * 4, memory + y * row + r.x * 4, count: r.width)
            }
        }
    }
}
