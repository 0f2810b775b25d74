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
    /// interlaced or not) into premultiplied 8-bit RGBA.
    ///
    /// - Throws: `GraphicsError.png` with the reason when the bytes are not a PNG,
    ///   are truncated, fail a checksum, or declare an image larger than
    ///   `BitmapLimits` or than the compressed data could hold. No pixel buffer is
    ///   allocated before the size has been checked.
    public init(pngData: [UInt8]) throws(GraphicsError) {
        let decoded = try CodecCall.decode(pngData, with: strata_png_decode, error: GraphicsError.png)
        let raw = decoded.pixels
        defer { free(raw) }
        let w = decoded.width, h = decoded.height
        let count = w * h * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            let dst = out.baseAddress!
            var i = 0
            while i < count {
                let a = raw[i + 3]
                if a == 255 {
                    dst[i] = raw[i]; dst[i + 1] = raw[i + 1]; dst[i + 2] = raw[i + 2]
                } else {
                    dst[i] = Pixel.multiply(raw[i], a)
                    dst[i + 1] = Pixel.multiply(raw[i + 1], a)
                    dst[i + 2] = Pixel.multiply(raw[i + 2], a)
                }
                dst[i + 3] = a
                i += 4
            }
            initialized = count
        }
        self.init(uncheckedWidth: w, height: h, bytesPerRow: w * 4, pixels: pixels)
    }

    /// Reads and decodes a PNG file.
    /// - Throws: `GraphicsError.io` when the file cannot be read, and the errors of
    ///   `init(pngData:)`.
    public init(contentsOfPNGFile path: String) throws(GraphicsError) {
        try self.init(pngData: try FileIO.read(path))
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
                strata_png_encode(rgba.baseAddress, UInt32(width), UInt32(height), rowBytes, level,
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

/// The calling convention the C codec shims share: decode into a malloc'ed RGBA
/// buffer under the size limits, or fail with a reason.
enum CodecCall {
    typealias Decoder = (UnsafePointer<UInt8>?, Int, UInt32, UInt64, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
                         UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// Runs `decoder` on `bytes` with `BitmapLimits`; the caller frees `pixels`.
    /// - Throws: `error(reason)` when the decoder fails.
    static func decode(_ bytes: [UInt8], with decoder: Decoder, error: (String) -> GraphicsError)
        throws(GraphicsError) -> (pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
        var raw: UnsafeMutablePointer<UInt8>? = nil
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { msg in
                decoder(data.baseAddress, data.count, UInt32(BitmapLimits.maxDimension), UInt64(BitmapLimits.maxPixels),
                        &raw, &width, &height, msg.baseAddress, msg.count)
            }
        }
        guard status == 0, let raw else {
            throw error(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return (raw, Int(width), Int(height))
    }
}
