/// Errors thrown by StrataGraphics. Each case says what was wrong in words a user
/// can act on; `description` is the full sentence.
public enum GraphicsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A bitmap or image size that is negative, too large, or not representable.
    case invalidSize(width: Int, height: Int, reason: String)
    /// Pixel data whose length or stride does not match the stated size.
    case invalidPixelData(String)
    /// A PNG that could not be decoded or encoded; the string is the reason.
    case png(String)
    /// A JPEG that could not be decoded or encoded; the string is the reason.
    case jpeg(String)
    /// Bytes in a format Strata does not read.
    case unsupportedFormat(String)
    /// A file that could not be read or written.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidSize(w, h, reason): "invalid size \(w) × \(h): \(reason)"
        case let .invalidPixelData(reason): "invalid pixel data: \(reason)"
        case let .png(reason): "PNG: \(reason)"
        case let .jpeg(reason): "JPEG: \(reason)"
        case let .unsupportedFormat(reason): "unsupported image format: \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        }
    }
}

/// Limits that keep a bad size from turning into a runaway allocation.
public enum BitmapLimits {
    /// The largest width or height of a bitmap or image.
    public static let maximumDimension = 65_536
    /// The largest number of pixels in one bitmap or image (1 GiB of RGBA).
    public static let maximumPixels = 1 << 28
    @available(*, deprecated, renamed: "maximumDimension")
    public static var maxDimension: Int { maximumDimension }
    @available(*, deprecated, renamed: "maximumPixels")
    public static var maxPixels: Int { maximumPixels }

    static func check(width: Int, height: Int) throws(GraphicsError) {
        if width < 0 || height < 0 {
            throw .invalidSize(width: width, height: height, reason: "width and height must not be negative")
        }
        if width > maximumDimension || height > maximumDimension {
            throw .invalidSize(width: width, height: height, reason: "a side exceeds \(maximumDimension) pixels")
        }
        if width * height > maximumPixels {
            throw .invalidSize(width: width, height: height, reason: "more than \(maximumPixels) pixels")
        }
    }
}
