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

    /// A bitmap of the given size, every pixel transparent black.
    /// - Throws: `GraphicsError.invalidSize` for negative sizes or sizes over
    ///   `BitmapLimits`.
    public init(width: Int, height: Int) throws(GraphicsError) {
        try BitmapLimits.check(width: width, height: height)
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        let count = Swift.max(1, bytesPerRow * height)
        baseAddress = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        baseAddress.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    }

    /// A bitmap holding a copy of `image`'s pixels.
    public convenience init(image: Image) {
        // An Image's size was checked when it was made.
        try! self.init(width: image.width, height: image.height)
        image.pixels.withUnsafeBytes { src in
            for y in 0..<height {
                (baseAddress + y * bytesPerRow).copyMemory(
                    from: src.baseAddress! + y * image.bytesPerRow, byteCount: width * 4)
            }
        }
    }

    deinit { baseAddress.deallocate() }

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
