internal import CX11
import StrataGraphics

/// Shows frames in a window: an `XImage` the size of the frame in the
/// server's pixel format, filled from the frame buffer where it changed and
/// sent with `XShmPutImage` (the server reads it from shared memory) or,
/// without shared memory (a remote display), with `XPutImage` over the
/// connection.
///
/// A frame is never shown half drawn: the compositor finishes it before
/// any of it is copied here, and the image is not written again until the
/// server has finished reading the last one (`ShmCompletion`).
final class FramePresenter {
    let display: OpaquePointer
    let window: CX11.Window
    let gc: GC
    let width: Int
    let height: Int
    let usesSharedMemory: Bool
    private let image: UnsafeMutablePointer<XImage>
    /// The shared segment; the image keeps a pointer to it (`obdata`), so it
    /// lives at a fixed address for the image's life.
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    /// The event type of `ShmCompletion`.
    private let completionType: Int32
    /// A `XShmPutImage` the server may still be reading.
    private(set) var pendingPuts = 0

    /// Whether the server's pixels are B, G, R, X in memory (red in bits 16–23).
    static func checkVisual(_ visual: UnsafeMutablePointer<Visual>, depth: Int32) throws {
        let v = visual.pointee
        guard depth == 24 || depth == 32, v.red_mask == 0xFF_0000, v.green_mask == 0xFF00, v.blue_mask == 0xFF else {
            throw WindowError.unsupportedVisual(
                "depth \(depth), masks red \(String(v.red_mask, radix: 16)) green \(String(v.green_mask, radix: 16)) "
                    + "blue \(String(v.blue_mask, radix: 16)); Strata presents 24-bit true colour")
        }
    }

    init(
        display: OpaquePointer, window: CX11.Window, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int,
        sharedMemory: Bool
    ) throws {
        self.display = display
        self.window = window
        self.width = width
        self.height = height
        gc = XCreateGC(display, window, 0, nil)
        completionType = XShmGetEventBase(display) + ShmCompletion
        var made: UnsafeMutablePointer<XImage>?
        var shm = false
        let segment = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        self.segment = segment
        if sharedMemory, XShmQueryExtension(display) != 0,
            let img = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, segment, UInt32(width), UInt32(height))
        {
            let bytes = Int(img.pointee.bytes_per_line) * Int(img.pointee.height)
            segment.pointee.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
            let id = segment.pointee.shmid
            if id >= 0, let address = shmat(id, nil, 0), strata_shm_failed(address) == 0 {
                segment.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
                img.pointee.data = segment.pointee.shmaddr
                segment.pointee.readOnly = 0
                let display = display
                // A remote server cannot attach our memory: it answers with an
                // error, and the plain path is used instead.
                let code = XErrors.checking(display) { _ = XShmAttach(display, segment) }
                // Marked for removal now: it goes when both sides detach, even
                // if the process dies.
                shmctl(id, IPC_RMID, nil)
                if code == 0 {
                    made = img
                    shm = true
                } else {
                    shmdt(address)
                }
            } else if id >= 0 {
                shmctl(id, IPC_RMID, nil)
            }
            if !shm {
                img.pointee.data = nil
                _ = strata_x_destroy_image(img)
            }
        }
        if made == nil {
            let bytesPerRow = width * 4
            let data = UnsafeMutableRawPointer.allocate(byteCount: max(4, bytesPerRow * height), alignment: 64)
            // XDestroyImage frees the data with free(): allocate(alignment:)
            // on Linux is aligned_alloc/malloc, which free() takes.
            guard
                let img = XCreateImage(
                    display, visual, UInt32(depth), ZPixmap, 0, data.assumingMemoryBound(to: CChar.self), UInt32(width), UInt32(height),
                    32, Int32(bytesPerRow))
            else {
                data.deallocate()
                XFreeGC(display, gc)
                segment.deallocate()
                throw WindowError.serverError("XCreateImage failed for \(width) × \(height)")
            }
            made = img
        }
        image = made!
        usesSharedMemory = shm
    }

    /// Set when the server is gone: nothing is sent to it any more.
    var connectionLost = false

    deinit {
        if !connectionLost { waitForCompletion() }
        if usesSharedMemory {
            if !connectionLost {
                XShmDetach(display, segment)
                XSync(display, 0)
            }
            shmdt(segment.pointee.shmaddr)
            image.pointee.data = nil
        }
        _ = strata_x_destroy_image(image)
        segment.deallocate()
        if !connectionLost { XFreeGC(display, gc) }
    }

    /// Handles a `ShmCompletion` event; returns whether `event` was one.
    func handle(_ event: inout XEvent) -> Bool {
        guard event.type == completionType else { return false }
        pendingPuts = max(0, pendingPuts - 1)
        return true
    }

    /// Waits until the server has read every image sent. The server reads
    /// a shared image while it handles the request, so once a round trip
    /// (`XSync`) returns it is done with it; the completion events it sent
    /// are taken off the queue here (other events stay for the loop).
    func waitForCompletion() {
        guard pendingPuts > 0 else { return }
        XSync(display, 0)
        var event = XEvent()
        let type = completionType
        while XCheckIfEvent(
            display, &event,
            { _, event, arg in
                event?.pointee.type == Int32(Int(bitPattern: arg)) ? 1 : 0
            }, UnsafeMutablePointer(bitPattern: Int(type))) != 0
        {}
        pendingPuts = 0
        let error = XErrors.last.exchange(0, ordering: .relaxed)
        if error != 0 { lastError = error }
    }

    /// The last X error code a presentation caused (0 for none).
    private(set) var lastError: Int32 = 0

    /// Copies `rects` of `frame` into the image (converting the pixels) and
    /// sends them to the window; `flush` sends the requests on their way.
    func present(_ frame: Bitmap, rects: [PixelRect]) {
        guard !rects.isEmpty else { return }
        waitForCompletion()
        let target = UnsafeMutableRawPointer(image.pointee.data!)
        let targetRow = Int(image.pointee.bytes_per_line)
        let rects = rects.compactMap { $0.clipped(toWidth: min(width, frame.width), height: min(height, frame.height)) }
        for r in rects {
            for y in r.y..<(r.y + r.height) {
                let s = frame.baseAddress + y * frame.bytesPerRow + r.x * 4
                let d = target + y * targetRow + r.x * 4
                PixelRect.swapRedAndBlue(s, d, count: r.width)
            }
        }
        for r in rects {
            if usesSharedMemory {
                XShmPutImage(
                    display, window, gc, image, Int32(r.x), Int32(r.y), Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height), 1)
                pendingPuts += 1
            } else {
                XPutImage(display, window, gc, image, Int32(r.x), Int32(r.y), Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height))
            }
        }
        XFlush(display)
    }

    /// `rects` (device pixels) as whole-pixel rectangles inside the image;
    /// nil: the whole image.
    func pixelRects(_ rects: [Rect]?) -> [PixelRect] {
        guard let rects else { return [PixelRect(x: 0, y: 0, width: width, height: height)] }
        return rects.compactMap { PixelRect($0, within: width, height) }
    }
}
