import CPNG

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Image {
    /// Decodes a PNG file's bytes (any PNG colour type and bit depth: grey, grey with
    /// alpha, RGB, RGBA, palette, with or without transparency, 1 to 16 bits,
    /// interlaced or not) into premultiplied 8-bit RGBA, straight into the
    /// image's own storage (the decode's peak memory is the image's size).
    ///
    /// - Parameter maximumPixelCount: the most pixels to decode (default
    ///   `Image.defaultMaximumPixelCount`, 8192 × 8192). PNG compresses a plain
    ///   image more than a thousand times, so a 32 KB file can declare a
    ///   gigabyte of pixels: raise the limit (up to `BitmapLimits.maxPixels`)
    ///   only for files you trust to be that large.
    /// - Throws: `GraphicsError.png` with the reason when the bytes are not a PNG,
    ///   are truncated (a chunk longer than the data, an image larger than the
    ///   compressed data could hold), fail a checksum, or declare an image larger
    ///   than the limits. No pixel buffer is allocated before the size has been
    ///   checked, and no ancillary chunk may take more than 8 MB.
    public init(pngData: [UInt8], maximumPixelCount: Int = Image.defaultMaximumPixelCount) throws(GraphicsError) {
        self = try CodecCall.decode(
            pngData, maximumPixelCount: maximumPixelCount, format: "PNG",
            open: strata_png_decoder_open, read: strata_png_decoder_read,
            close: strata_png_decoder_close, error: GraphicsError.png
        ) { pixels in
            // libpng gives straight alpha: premultiply in place.
            let p = pixels.baseAddress!
            var i = 0
            while i < pixels.count {
                let a = p[i + 3]
                if a != 255 {
                    p[i] = Pixel.multiply(p[i], a)
                    p[i + 1] = Pixel.multiply(p[i + 1], a)
                    p[i + 2] = Pixel.multiply(p[i + 2], a)
                }
                i += 4
            }
        }
    }

    /// Reads and decodes a PNG file.
    /// - Throws: `GraphicsError.io` when the file cannot be read, and the errors of
    ///   `init(pngData:maximumPixelCount:)`.
    public init(contentsOfPNGFile path: String, maximumPixelCount: Int = Image.defaultMaximumPixelCount) throws(GraphicsError) {
        try self.init(pngData: try FileIO.read(path), maximumPixelCount: maximumPixelCount)
    }

    /// The image encoded as an RGBA PNG (colours unpremultiplied, rounded).
    /// - Parameter compressionLevel: zlib's level, 0 (fastest) to 9 (smallest).
    /// - Throws: `GraphicsError.png` for an empty image, which PNG cannot hold.
    public func pngData(compressionLevel: Int = 6) throws(GraphicsError) -> [UInt8] {
        guard width > 0, height > 0 else { throw .png("cannot encode an empty \(width) × \(height) image") }
        let rowBytes = width * 4
        var straight = [UInt8](repeating: 0, count: rowBytes * height)
        pixels.withUnsafeBufferPointer { src in
            straight.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    var s = y * bytesPerRow, d = y * rowBytes
                    for _ in 0..<width {
                        let a = src[s + 3]
                        if a == 255 || a == 0 {
                            dst[d] = a == 0 ? 0 : src[s]
                            dst[d + 1] = a == 0 ? 0 : src[s + 1]
                            dst[d + 2] = a == 0 ? 0 : src[s + 2]
                        } else {
                            let half = UInt32(a) / 2
                            for c in 0..<3 {
                                let v = (UInt32(src[s + c]) * 255 + half) / UInt32(a)
                                dst[d + c] = UInt8(Swift.min(255, v))
                            }
                        }
                        dst[d + 3] = a
                        s += 4
                        d += 4
                    }
                }
            }
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let level = Int32(Swift.min(9, Swift.max(0, compressionLevel)))
        let status = straight.withUnsafeBufferPointer { rgba in
            message.withUnsafeMutableBufferPointer { msg in
                strata_png_encode(
                    rgba.baseAddress, UInt32(width), UInt32(height), rowBytes, level,
                    &out, &size, msg.baseAddress, msg.count)
            }
        }
        guard status == 0, let out else {
            throw .png(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// Encodes the image as PNG and writes it to `path`, replacing any file there.
    public func writePNG(to path: String, compressionLevel: Int = 6) throws(GraphicsError) {
        try FileIO.write(try pngData(compressionLevel: compressionLevel), to: path)
    }
}

/// Whole-file reads and writes through the C library, so StrataGraphics does not
/// need Foundation.
enum FileIO {
    static func read(_ path: String) throws(GraphicsError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { throw .io(path: path, reason: "read error") }
                break
            }
        }
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) throws(GraphicsError) {
        guard let file = fopen(path, "wb") else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        if written != bytes.count || closed != 0 { throw .io(path: path, reason: "write failed") }
    }
}

/// The calling convention the C codec shims share: open (the header, checked
/// against the limits), then read into storage the caller allocates, then
/// close.
enum CodecCall {
    typealias Open = (
        UnsafePointer<UInt8>?, Int, UInt32, UInt64, UnsafeMutablePointer<UInt32>?,
        UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<CChar>?, Int
    ) -> OpaquePointer?
    typealias Read = (OpaquePointer?, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>?, Int) -> Int32
    typealias Close = (OpaquePointer?) -> Void

    /// Decodes `bytes` into a new image's own pixels (RGBA, packed rows), then
    /// lets `finish` convert them in place; no second buffer is made.
    /// - Throws: `error(reason)` when the codec fails or the image has more than
    ///   `maximumPixelCount` pixels (or than `BitmapLimits` allow).
    static func decode(
        _ bytes: [UInt8], maximumPixelCount: Int, format: String, open: Open, read: Read, close: Close,
        error: (String) -> GraphicsError,
        finish: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) throws(GraphicsError) -> Image {
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        func reason() -> String { message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }
        let limit = Swift.max(0, Swift.min(maximumPixelCount, BitmapLimits.maxPixels))
        let decoder = bytes.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { msg in
                open(
                    data.baseAddress, data.count, UInt32(BitmapLimits.maxDimension), UInt64(BitmapLimits.maxPixels),
                    &width, &height, msg.baseAddress, msg.count)
            }
        }
        guard let decoder else { throw error(reason()) }
        defer { close(decoder) }
        let w = Int(width), h = Int(height)
        guard w * h <= limit else {
            throw error(
                "image too large: \(w) × \(h) is \(w * h) pixels, over this decode's limit of \(limit) "
                    + "(raise maximumPixelCount, up to \(BitmapLimits.maxPixels), for \(format) files you trust)")
        }
        let count = w * h * 4
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            status = message.withUnsafeMutableBufferPointer { msg in
                read(decoder, out.baseAddress, w * 4, msg.baseAddress, msg.count)
            }
            if status == 0 { finish(out) }
            // Bytes need no initialising to be released, whichever way this went.
            initialized = count
        }
        guard status == 0 else { throw error(reason()) }
        return Image(uncheckedWidth: w, height: h, bytesPerRow: w * 4, pixels: pixels)
    }
}
