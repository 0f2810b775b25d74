internal import CPNG

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
    /// - Parameters:
    ///   - pngData: the file's bytes.
    ///   - maximumPixelCount: the most pixels to decode (default
    ///     `Image.defaultMaximumPixelCount`, 8192 × 8192). PNG compresses a plain
    ///     image more than a thousand times, so a 32 KB file can declare a
    ///     gigabyte of pixels: raise the limit (up to `BitmapLimits.maximumPixels`)
    ///     only for files you trust to be that large.
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
        var encoding = PNGEncoding.standard
        encoding.compressionLevel = compressionLevel
        return try pngData(encoding)
    }

    /// The image encoded as a PNG with `encoding`'s settings (colours
    /// unpremultiplied, rounded).
    /// - Throws: `GraphicsError.png` for an empty image, which PNG cannot hold.
    public func pngData(_ encoding: PNGEncoding) throws(GraphicsError) -> [UInt8] {
        guard width > 0, height > 0 else { throw .png("cannot encode an empty \(width) × \(height) image") }
        if encoding.deflater == .isal, [.none, .sub, .up].contains(encoding.filter) {
            return try fastPNGData(encoding)
        }
        let opaque = encoding.omitsOpaqueAlpha && isOpaque
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        var straight = [UInt8](repeating: 0, count: rowBytes * height)
        pixels.withUnsafeBufferPointer { src in
            straight.withUnsafeMutableBufferPointer { dst in
                guard let s0 = src.baseAddress, let d0 = dst.baseAddress else { return }
                for y in 0..<height {
                    var s = s0 + y * bytesPerRow, d = d0 + y * rowBytes
                    if opaque {
                        for _ in 0..<width {
                            d[0] = s[0]
                            d[1] = s[1]
                            d[2] = s[2]
                            s += 4
                            d += 3
                        }
                        continue
                    }
                    for _ in 0..<width {
                        let a = s[3]
                        if a == 255 {
                            d[0] = s[0]
                            d[1] = s[1]
                            d[2] = s[2]
                        } else if a != 0 {
                            let half = UInt32(a) / 2
                            for c in 0..<3 {
                                let v = (UInt32(s[c]) &* 255 &+ half) / UInt32(a)
                                d[c] = UInt8(Swift.min(255, v))
                            }
                        }
                        d[3] = a
                        s += 4
                        d += 4
                    }
                }
            }
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = straight.withUnsafeBufferPointer { rgba in
            message.withUnsafeMutableBufferPointer { msg in
                strata_png_encode(
                    rgba.baseAddress, UInt32(width), UInt32(height), rowBytes, Int32(channels),
                    Int32(Swift.min(9, encoding.compressionLevel)), encoding.strategy.rawValue, encoding.filter.rawValue,
                    &out, &size, msg.baseAddress, msg.count)
            }
        }
        guard status == 0, let out else {
            throw .png(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// The ISA-L path: conversion, filtering and chunks in C.
    private func fastPNGData(_ encoding: PNGEncoding) throws(GraphicsError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let filter: Int32 = encoding.filter == .up ? 2 : encoding.filter == .sub ? 1 : 0
        let status = pixels.withUnsafeBufferPointer { p in
            message.withUnsafeMutableBufferPointer { msg in
                strata_png_encode_fast(
                    p.baseAddress, UInt32(width), UInt32(height), bytesPerRow, encoding.omitsOpaqueAlpha ? 1 : 0,
                    Int32(encoding.compressionLevel), filter, &out, &size, msg.baseAddress, msg.count)
            }
        }
        guard status == 0, let out else {
            throw .png(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// Whether every pixel's alpha is 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                var i = y * bytesPerRow + 3
                for _ in 0..<width {
                    if p[i] != 255 { return false }
                    i += 4
                }
            }
            return true
        }
    }

    /// Encodes the image as PNG with `encoding`'s settings and writes it to
    /// `path`, replacing any file there.
    public func writePNG(to path: String, encoding: PNGEncoding) throws(GraphicsError) {
        try FileIO.write(try pngData(encoding), to: path)
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
        let limit = Swift.max(0, Swift.min(maximumPixelCount, BitmapLimits.maximumPixels))
        let decoder = bytes.withUnsafeBufferPointer { data in
            message.withUnsafeMutableBufferPointer { msg in
                open(
                    data.baseAddress, data.count, UInt32(BitmapLimits.maximumDimension), UInt64(BitmapLimits.maximumPixels),
                    &width, &height, msg.baseAddress, msg.count)
            }
        }
        guard let decoder else { throw error(reason()) }
        defer { close(decoder) }
        let w = Int(width), h = Int(height)
        guard w * h <= limit else {
            throw error(
                "image too large: \(w) × \(h) is \(w * h) pixels, over this decode's limit of \(limit) "
                    + "(raise maximumPixelCount, up to \(BitmapLimits.maximumPixels), for \(format) files you trust)")
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

/// How an image is written as PNG: the compressor and its level, zlib's
/// strategy, the row filters, and whether an opaque image drops its alpha
/// channel.
///
/// `standard` is what most encoders do (libpng and zlib at level 6, the
/// filter chosen per row). `fast` is for pictures written while someone
/// waits, such as charts: ISA-L's igzip at level 1, every row filtered Up,
/// RGB when opaque. On a 1200 × 600 chart it encodes in under a millisecond,
/// some thirty times faster than `standard`, to a file about 15 % larger
/// (measured in `Architecture.md`).
public struct PNGEncoding: Sendable, Hashable {
    /// The filter applied to each row before compression.
    public struct Filter: OptionSet, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let none = Filter(rawValue: 0x08)
        public static let sub = Filter(rawValue: 0x10)
        public static let up = Filter(rawValue: 0x20)
        public static let average = Filter(rawValue: 0x40)
        public static let paeth = Filter(rawValue: 0x80)
        /// Every filter, chosen per row by libpng's heuristic.
        public static let adaptive: Filter = [.none, .sub, .up, .average, .paeth]
    }

    /// zlib's matching strategy (libdeflate has none).
    public enum Strategy: Int32, Sendable, Hashable {
        case `default` = 0
        case filtered = 1
        case huffmanOnly = 2
        /// Matches only runs of the previous byte.
        case rle = 3
    }

    /// What compresses the rows: zlib through libpng (every filter and
    /// strategy), or Intel's ISA-L (igzip), whole-buffer with SIMD and about
    /// ten times as fast as zlib's fastest level, with one filter for every
    /// row (`.none`, `.sub` or `.up`; any other filter goes through zlib).
    public enum Deflater: Sendable, Hashable { case zlib, isal }

    public var deflater: Deflater
    /// The level: zlib's 0 (store) … 9 (smallest), ISA-L's 0 … 3; held to
    /// 0 … 9, and to the deflater's range when encoding.
    public var compressionLevel: Int {
        didSet { compressionLevel = Swift.min(9, Swift.max(0, compressionLevel)) }
    }
    public var strategy: Strategy
    /// The row filters to choose from (empty means `.none`).
    public var filter: Filter {
        didSet { if filter.isEmpty { filter = .none } }
    }
    /// Whether an image whose every pixel is opaque is written as RGB.
    public var omitsOpaqueAlpha: Bool

    public init(
        deflater: Deflater = .zlib, compressionLevel: Int = 6, strategy: Strategy = .default, filter: Filter = .adaptive,
        omitsOpaqueAlpha: Bool = false
    ) {
        self.deflater = deflater
        self.compressionLevel = Swift.min(9, Swift.max(0, compressionLevel))
        self.strategy = strategy
        self.filter = filter.isEmpty ? .none : filter
        self.omitsOpaqueAlpha = omitsOpaqueAlpha
    }

    public static let standard = PNGEncoding()
    public static let fast = PNGEncoding(deflater: .isal, compressionLevel: 1, filter: .up, omitsOpaqueAlpha: true)
}
