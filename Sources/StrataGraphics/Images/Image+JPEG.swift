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
        sourceJPEG = jpegData
    }

    /// The JPEG file's frame, when `sourceJPEG` is one whose pixels a
    /// reader decodes to this image's: 8 bits a sample, one (grey) or three
    /// (colour) components, this image's size. Nil otherwise (CMYK files,
    /// 12-bit samples, or no source).
    public var sourceJPEGFrame: (components: Int, width: Int, height: Int)? {
        guard let data = sourceJPEG, data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= data.count {
            guard data[i] == 0xFF else { return nil }
            let marker = data[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            guard length >= 2, i + 2 + length <= data.count else { return nil }
            // Start of frame: baseline, extended, progressive or lossless
            // (not DHT 0xC4, JPG 0xC8 or DAC 0xCC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 8 else { return nil }
                let precision = Int(data[i + 4])
                let h = Int(data[i + 5]) << 8 | Int(data[i + 6]), w = Int(data[i + 7]) << 8 | Int(data[i + 8])
                let components = Int(data[i + 9])
                guard precision == 8, components == 1 || components == 3, w == width, h == height else { return nil }
                return (components, w, h)
            }
            // The scan begins before any frame: not a file to pass on.
            if marker == 0xDA { return nil }
            i += 2 + length
        }
        return nil
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
