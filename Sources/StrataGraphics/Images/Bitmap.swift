#if canImport(Glibc)
import Glibc
#endif

/// A mutable grid of 8-bit premultiplied RGBA pixels: what a `Canvas` draws into.
///
/// Rows are `bytesPerRow` apart (`width * 4`: rows are packed); pixels lie in
/// memory as R, G, B, A. A `Bitmap` is a reference type, like the backing store
/// of a `CGContext`; take an immutable, `Sendable` snapshot with `makeImage()`.
///
/// A bitmap may be empty (zero width or height): drawing into it does nothing.
public final class Bitmap {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// The first byte of the first row. Valid for the bitmap's lifetime.
    public let baseAddress: UnsafeMutableRawPointer
    /// Whether the pixels were allocated here (and are freed with the bitmap).
    private let ownsMemory: Bool

    /// A bitmap of the given size, every pixel transparent black.
    /// - Throws: `GraphicsError.invalidSize` for negative sizes or sizes over
    ///   `BitmapLimits`.
    public init(width: Int, height: Int) throws(GraphicsError) {
        try BitmapLimits.check(width: width, height: height)
        PixelAllocator.prepare()
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        let count = Swift.max(1, bytesPerRow * height)
        baseAddress = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        baseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        ownsMemory = true
    }

    /// A bitmap over memory the caller owns (`CGContext(data:…)`): `width`
    /// × `height` pixels of packed premultiplied RGBA rows, which must stay
    /// valid, and be touched by no one else while drawing, for the bitmap's
    /// lifetime. Nothing is cleared or copied.
    /// - Throws: `GraphicsError.invalidSize` as `init(width:height:)`.
    public init(wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int) throws(GraphicsError) {
        try BitmapLimits.check(width: width, height: height)
        PixelAllocator.prepare()
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        baseAddress = memory
        ownsMemory = false
    }

    /// A bitmap holding a copy of `image`'s pixels.
    public convenience init(image: Image) {
        // An Image's size was checked when it was made.
        try! self.init(width: image.width, height: image.height)
        copyPixels(of: image)
    }

    /// Sets the pixels to `image`'s, placed at the top left; where the two
    /// sizes differ, only the part both cover is copied.
    public func copyPixels(of image: Image) {
        let w = Swift.min(width, image.width), h = Swift.min(height, image.height)
        guard w > 0, h > 0 else { return }
        image.pixels.withUnsafeBytes { src in
            for y in 0..<h {
                (baseAddress + y * bytesPerRow).copyMemory(from: src.baseAddress! + y * image.bytesPerRow, byteCount: w * 4)
            }
        }
    }

    deinit { if ownsMemory { baseAddress.deallocate() } }

    /// The bitmap's rectangle in pixels: origin zero, its width and height.
    public var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// The pixel at column `x`, row `y` (row 0 at the top).
    /// - Precondition: the coordinates lie inside the bitmap.
    public subscript(x: Int, y: Int) -> Pixel {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width) × \(height)")
            return Pixel(packed: (baseAddress + y * bytesPerRow + x * 4).loadUnaligned(as: UInt32.self))
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width) × \(height)")
            (baseAddress + y * bytesPerRow + x * 4).storeBytes(of: newValue.packed, as: UInt32.self)
        }
    }

    /// Sets every pixel to `pixel`.
    public func fill(with pixel: Pixel) {
        let v = pixel.packed
        for y in 0..<height {
            let row = (baseAddress + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
            row.update(repeating: v, count: width)
        }
    }

    /// Moves the pixels inside `rect` by `dx` columns and `dy` rows, as a
    /// window system scrolls (`XCopyArea` onto itself): the pixel at (x, y)
    /// goes to (x + dx, y + dy) when both lie in the rectangle. Pixels
    /// outside the rectangle are untouched, and the band the move uncovers
    /// keeps its old pixels (the caller redraws it).
    ///
    /// `rect` is rounded out to whole pixels and clipped to the bitmap; a
    /// move as large as the rectangle, or empty, changes nothing.
    public func scrollPixels(in rect: Rect, byX dx: Int, y dy: Int) {
        let r = rect.intersection(bounds)
        guard !r.isNull, r.width >= 1, r.height >= 1 else { return }
        let x0 = Int(r.minX.rounded(.down)), x1 = Int(r.maxX.rounded(.up))
        let y0 = Int(r.minY.rounded(.down)), y1 = Int(r.maxY.rounded(.up))
        guard dx != 0 || dy != 0, dx.magnitude < UInt(x1 - x0), dy.magnitude < UInt(y1 - y0) else { return }
        // Columns read and written: the part of the rectangle whose pixels stay in it.
        let sx = Swift.max(x0, x0 - dx), count = (x1 - x0) - abs(dx)
        let bytes = count * 4
        func move(_ y: Int) {
            let row = baseAddress + y * bytesPerRow
            let from = row - dy * bytesPerRow + sx * 4
            // `copyMemory` is memmove: the rows overlap when dy is 0.
            (row + (sx + dx) * 4).copyMemory(from: UnsafeRawPointer(from), byteCount: bytes)
        }
        // Destination rows in an order that reads each source row before it is overwritten.
        if dy > 0 {
            for y in stride(from: y1 - 1, through: y0 + dy, by: -1) { move(y) }
        } else {
            for y in y0..<(y1 + dy) { move(y) }
        }
    }

    /// An immutable copy of the current pixels.
    public func makeImage() -> Image {
        let rowBytes = width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            for y in 0..<height {
                UnsafeMutableRawPointer(buffer.baseAddress! + y * rowBytes).copyMemory(
                    from: baseAddress + y * bytesPerRow, byteCount: rowBytes)
            }
            count = rowBytes * height
        }
        return Image(uncheckedWidth: width, height: height, bytesPerRow: rowBytes, pixels: pixels)
    }
}

/// Keeps pixel buffers out of glibc's heap arenas.
///
/// glibc serves allocations over its mmap threshold with `mmap`, and gives
/// them back to the system when freed; but each time such a block is freed,
/// it raises the threshold to that block's size (up to 32 MB). After the
/// first few frees, a cell's 6 MB image is carved from the arena of the pool
/// thread that drew it, and freed memory stays in that arena. In the feed
/// benchmark, resident memory grew by 125 MB over 10,000 frames, and by
/// 47 MB with the threshold held at 256 KB. `prepare()` fixes the threshold
/// at 256 KB once per process (which also stops the dynamic raising), unless
/// the program set `MALLOC_MMAP_THRESHOLD_` itself.
///
/// It also lets each arena keep up to 8 MiB free at its top (glibc's trim
/// threshold, 128 KiB by default), unless the program set
/// `MALLOC_TRIM_THRESHOLD_`: the compositor's offscreen groups and their
/// images, under the mmap threshold, are freed and made again every frame,
/// and each time the arena's top passed 128 KiB it was given back to the
/// system (`brk`, or `madvise` in a thread's arena, which interrupts every
/// core the process runs on) and faulted in again. A 4K frame on two
/// threads made about 45 such calls, none with the 8 MiB threshold; on a
/// 16-core Xeon a 4K frame took 0.90 of its time on 8 threads and 0.88 on
/// 16 with the trim held (Benchmarks/RESULTS.md, "Sixteen cores"). The
/// feed benchmark's memory growth over 6,000 frames stayed at 31–34 MB.
enum PixelAllocator {
    static let prepared: Bool = {
        #if canImport(Glibc)
        // M_MMAP_THRESHOLD is -3 and M_TRIM_THRESHOLD -1 in glibc's <malloc.h>.
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { _ = glibcMallopt(-3, 256 * 1024) }
        if getenv("MALLOC_TRIM_THRESHOLD_") == nil { _ = glibcMallopt(-1, 8 << 20) }
        #endif
        return true
    }()

    static func prepare() { _ = prepared }
}

#if canImport(Glibc)
/// glibc's `int mallopt(int, int)`, which the Glibc module does not
/// import (it is in <malloc.h>).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
