#if canImport(Glibc)
import Glibc
#endif
/// An immutable grid of 8-bit premultiplied RGBA pixels (`CGImage`).
///
/// `Image` is a value and `Sendable`: it is what crosses threads, what layers hold
/// as contents, and what PNG files decode into. Pixels lie in memory as R, G, B, A,
/// rows `bytesPerRow` apart.
public struct Image: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// Premultiplied RGBA bytes, `bytesPerRow * height` of them.
    public var pixels: [UInt8] { storage.pixels }
    /// The JPEG file the image was decoded from, as it was
    /// (`init(jpegData:)`); nil for any other image, images made from this
    /// one included. Documents embed it as it is (PDF's `DCTDecode`, SVG's
    /// `image/jpeg`) instead of the pixels. It plays no part in equality.
    public internal(set) var sourceJPEG: [UInt8]? {
        get { storage.sourceJPEG }
        set { storage = Storage(pixels: storage.pixels, sourceJPEG: newValue) }
    }

    /// The pixels and the JPEG file, behind one reference: an image is
    /// copied with one retain. (Held in the image itself, the two arrays
    /// were copied and released through the runtime's generic witnesses
    /// for the optional one: in the grid, a fifth of an 8-pixel pattern
    /// square's time went to the image taken out of an array, and a paint
    /// holding it.)
    private var storage: Storage

    /// `body` with the pixels' bytes, read in place: no copy of the array
    /// is made (and released) as `pixels` makes one.
    @inline(__always)
    func withUnsafePixels<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.pixels.withUnsafeBufferPointer(body)
    }

    /// An image's arrays; never changed once made (`Sendable`: immutable).
    final class Storage: Sendable {
        let pixels: [UInt8]
        let sourceJPEG: [UInt8]?
        init(pixels: [UInt8], sourceJPEG: [UInt8]?) {
            self.pixels = pixels
            self.sourceJPEG = sourceJPEG
        }
    }

    /// Equal sizes and equal bytes, compared with `memcmp` (the synthesized
    /// comparison went byte by byte: a layer handed a redrawn, identical
    /// picture spent longer comparing it than drawing it).
    public static func == (a: Image, b: Image) -> Bool {
        guard a.width == b.width, a.height == b.height, a.bytesPerRow == b.bytesPerRow, a.pixels.count == b.pixels.count else {
            return false
        }
        return a.pixels.withUnsafeBytes { x in
            b.pixels.withUnsafeBytes { y in
                x.baseAddress == y.baseAddress || x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
    }

    /// The size and a sample of the pixels (equal images hash alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(bytesPerRow)
        let n = pixels.count
        for k in 0..<Swift.min(n, 64) { hasher.combine(pixels[k &* 2_654_435_761 % n]) }
    }

    /// An image from premultiplied RGBA bytes.
    /// - Throws: `GraphicsError.invalidSize` for negative or oversized dimensions, and
    ///   `GraphicsError.invalidPixelData` when `bytesPerRow` is shorter than a row or
    ///   `pixels` holds fewer than `bytesPerRow * height` bytes. Colour channels
    ///   larger than alpha are clamped to alpha, so the pixels are valid
    ///   premultiplied values.
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, premultipliedPixels: [UInt8]) throws(GraphicsError) {
        try BitmapLimits.check(width: width, height: height)
        let stride = bytesPerRow ?? width * 4
        guard stride >= width * 4 else {
            throw .invalidPixelData("bytesPerRow \(stride) is less than width × 4 = \(width * 4)")
        }
        let (needed, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow else {
            throw .invalidPixelData("bytesPerRow \(stride) × height \(height) does not fit in memory")
        }
        guard premultipliedPixels.count >= needed else {
            throw .invalidPixelData("\(premultipliedPixels.count) bytes given, \(needed) needed")
        }
        var pixels = premultipliedPixels
        if pixels.count > needed { pixels.removeLast(pixels.count - needed) }
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * stride + x * 4
                    let a = p[i + 3]
                    if p[i] > a { p[i] = a }
                    if p[i + 1] > a { p[i + 1] = a }
                    if p[i + 2] > a { p[i + 2] = a }
                }
            }
        }
        self.init(uncheckedWidth: width, height: height, bytesPerRow: stride, pixels: pixels)
    }

    init(uncheckedWidth width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.storage = Storage(pixels: pixels, sourceJPEG: nil)
    }

    /// The pixel at column `x`, row `y` (row 0 at the top).
    /// - Precondition: the coordinates lie inside the image.
    public subscript(x: Int, y: Int) -> Pixel {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width) × \(height)")
        let i = y * bytesPerRow + x * 4
        return Pixel(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }
}

extension Image {
    /// The pixels of a rectangle of this image, as a new image; nil when the
    /// rectangle is empty or not inside the image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Image? {
        guard w > 0, h > 0, x >= 0, y >= 0, x + w <= width, y + h <= height else { return nil }
        if x == 0 && y == 0 && w == width && h == height { return self }
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 4)
        for row in 0..<h {
            let from = (y + row) * bytesPerRow + x * 4
            out.append(contentsOf: pixels[from..<(from + w * 4)])
        }
        return Image(uncheckedWidth: w, height: h, bytesPerRow: w * 4, pixels: out)
    }

    /// The image with every colour multiplied by `color`: straight red, green
    /// and blue by its components and alpha by its alpha (what a replicator's
    /// instance colour does to its copies). Components are clamped to 0…1 (NaN
    /// counts as 0); white leaves the image as it is.
    public func multiplied(by color: Color) -> Image {
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        let a = unit(color.alpha)
        // Premultiplied: each colour channel times its component and alpha.
        let k = [unit(color.red) * a, unit(color.green) * a, unit(color.blue) * a, a].map { UInt32(($0 * 255).rounded()) }
        if k == [255, 255, 255, 255] { return self }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let from = y * bytesPerRow, to = y * width * 4
                for i in 0..<(width * 4) {
                    out[to + i] = UInt8((UInt32(src[from + i]) * k[i & 3] + 127) / 255)
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, bytesPerRow: width * 4, pixels: out)
    }
}
