package import StrataGraphics

/// An immutable bitmap image: 8-bit premultiplied RGBA, sRGB.
public final class CGImage: Sendable {
    package let image: Image

    package init(_ image: Image) { self.image = image }

    public var width: Int { image.width }
    public var height: Int { image.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { image.bytesPerRow }
    public var colorSpace: CGColorSpace? { .rgb }
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue) }

    /// The part of the image inside `rect` (in pixels, cut to the image);
    /// nil when nothing of it is inside.
    public func cropping(to rect: CGRect) -> CGImage? {
        // Whole pixels, cut to the image in Double before any conversion: a
        // rectangle that is null, infinite or NaN has nothing to convert.
        let s = rect.strata
        guard !rect.isNull, !s.minX.isNaN, !s.minY.isNaN, !s.width.isNaN, !s.height.isNaN else { return nil }
        let left = Swift.max(0, s.minX.rounded(.down)), top = Swift.max(0, s.minY.rounded(.down))
        let right = Swift.min(Double(width), (s.minX + s.width).rounded(.up))
        let bottom = Swift.min(Double(height), (s.minY + s.height).rounded(.up))
        guard right - left >= 1, bottom - top >= 1 else { return nil }
        let x0 = Int(left), y0 = Int(top), w = Int(right - left), h = Int(bottom - top)
        guard let bitmap = try? Bitmap(width: w, height: h) else { return nil }
        image.pixels.withUnsafeBytes { src in
            for y in 0..<h {
                (bitmap.baseAddress + y * bitmap.bytesPerRow).copyMemory(
                    from: src.baseAddress! + (y0 + y) * image.bytesPerRow + x0 * 4, byteCount: w * 4)
            }
        }
        return CGImage(bitmap.makeImage())
    }
}

/// Colours along a line or between circles: stops in a colour space.
public final class CGGradient: Sendable {
    package let gradient: Gradient

    /// Colours at `locations` (0 to 1; nil: spread evenly).
    public init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: UnsafePointer<CGFloat>?) {
        guard !colors.isEmpty else { return nil }
        let places = locations.map { p in (0..<colors.count).map { Double(p[$0]) } }
        gradient = Gradient(colors: colors.map(\.strata), locations: places)
    }

    /// Colours given as Core Foundation's array (`colors as CFArray`, as iOS
    /// code passes them); nil when an element is not a `CGColor`.
    @_disfavoredOverload
    public convenience init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        let list = colors.compactMap { $0 as? CGColor }
        guard list.count == colors.count else { return nil }
        self.init(colorsSpace: space, colors: list, locations: locations)
    }

    /// `count` colours as components in `space` (its components and alpha
    /// each), at `locations`.
    public init?(
        colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>, locations: UnsafePointer<CGFloat>?,
        count: Int
    ) {
        guard count > 0 else { return nil }
        let n = space.numberOfComponents + 1
        let colors = (0..<count).map { i in
            CGColor(space: space, components: Array(UnsafeBufferPointer(start: components + i * n, count: n))).strata
        }
        gradient = Gradient(colors: colors, locations: locations.map { p in (0..<count).map { Double(p[$0]) } })
    }
}
