internal import CJPEG

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Image {
    /// Decodes a JPEG file's bytes (baseline or progressive; grey, colour or Adobe
    /// CMYK) through libjpeg into opaque RGBA, straight into the image's own
    /// storage.
    ///
    /// - Parameters:
    ///   - jpegData: the file's bytes.
    ///   - maximumPixelCount: the most pixels to decode (default
    ///     `Image.defaultMaximumPixelCount`); see `init(pngData:maximumPixelCount:)`.
    /// - Throws: `GraphicsError.jpeg` with the reason when the bytes are not a
    ///   JPEG, are truncated or corrupt (libjpeg's warnings count as errors),
    ///   have more than 256 scans, or declare an image larger than the limits or
    ///   than the data could hold.
    public init(jpegData: [UInt8], maximumPixelCount: Int = Image.defaultMaximumPixelCount) throws(GraphicsError) {
        self = try CodecCall.decode(
            jpegData, maximumPixelCount: maximumPixelCount, format: "JPEG",
            open: strata_jpeg_decoder_open, read: strata_jpeg_decoder_read,
            close: strata_jpeg_decoder_close, error: GraphicsError.jpeg
        ) { _ in }
    }

    /// Reads and decodes a JPEG file.
    public init(contentsOfJPEGFile path: String, maximumPixelCount: Int = Image.defaultMaximumPixelCount) throws(GraphicsError) {
        try self.init(jpegData: try FileIO.read(path), maximumPixelCount: maximumPixelCount)
    }

    /// The most pixels a decode makes unless it is asked for more: 8192 × 8192
    /// (256 MiB of RGBA). A small file can declare a huge image (a decompression
    /// bomb), so larger images must be asked for, up to `BitmapLimits.maximumPixels`,
    /// as Pillow's `MAX_IMAGE_PIXELS` works.
    public static let defaultMaximumPixelCount = 1 << 26

    /// Decodes PNG or JPEG bytes, telling them apart by their signatures.
    /// - Throws: `GraphicsError.unsupportedFormat` for anything else, and the
    ///   decoders' errors.
    public init(data: [UInt8], maximumPixelCount: Int = Image.defaultMaximumPixelCount) throws(GraphicsError) {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            try self.init(pngData: data, maximumPixelCount: maximumPixelCount)
        } else if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            try self.init(jpegData: data, maximumPixelCount: maximumPixelCount)
        } else {
            throw .unsupportedFormat("neither a PNG nor a JPEG signature")
        }
    }

    /// Reads a PNG or JPEG file.
    public init(contentsOfFile path: String, maximumPixelCount: Int = Image.defaultMaximumPixelCount) throws(GraphicsError) {
        try self.init(data: try FileIO.read(path), maximumPixelCount: maximumPixelCount)
    }

    /// The image encoded as a JPEG (`UIImage.jpegData(compressionQuality:)`).
    /// JPEG has no alpha: the stored premultiplied colours are written, which is
    /// the image composited over black.
    /// - Parameter quality: 0...1, mapped to libjpeg's 1...100.
    /// - Throws: `GraphicsError.jpeg` for an empty image or one over 65 500 pixels
    ///   a side, which JPEG cannot hold.
    public func jpegData(quality: Double = 0.9) throws(GraphicsError) -> [UInt8] {
        guard width > 0, height > 0 else { throw .jpeg("cannot encode an empty \(width) × \(height) image") }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        let s = y * bytesPerRow + x * 4, d = (y * width + x) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let q = Int32(max(1, min(100, ((quality.isNaN ? 0.9 : quality) * 100).rounded())))
        let status = rgb.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { msg in
                strata_jpeg_encode(
                    data.baseAddress, UInt32(width), UInt32(height), width * 3, q, &out, &size,
                    msg.baseAddress, msg.count)
            }
        }
        guard status == 0, let out else {
            throw .jpeg(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// Encodes the image as JPEG and writes it to `path`.
    public func writeJPEG(to path: String, quality: Double = 0.9) throws(GraphicsError) {
        try FileIO.write(try jpegData(quality: quality), to: path)
    }
}
