/// An 8-bit coverage mask placed relative to a point: what glyphs are drawn
/// from. Immutable and `Sendable`, so masks can be cached and shared by threads.
public struct CoverageMask: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Where the mask's top-left pixel lies relative to the point it is drawn at.
    public let left: Int
    public let top: Int
    /// `width × height` coverage values, row by row.
    public let coverage: [UInt8]

    /// Memory the mask holds, for cache budgets.
    public var byteCount: Int { coverage.count + 48 }

    /// Rasterizes `path` (after `transform`) with exact-area anti-aliasing into a
    /// mask covering its pixels. Empty for empty or non-finite paths.
    public init(path: Path, transform: Transform = .identity, rule: FillRule = .winding) {
        let bounds = path.boundingBox.applying(transform)
        let limit = Double(1 << 30)
        guard !bounds.isNull, !path.isEmpty, abs(bounds.minX) < limit, abs(bounds.maxX) < limit,
            abs(bounds.minY) < limit, abs(bounds.maxY) < limit, bounds.width < 16384, bounds.height < 16384
        else {
            self.init(width: 0, height: 0, left: 0, top: 0, coverage: [])
            return
        }
        let x0 = Int(bounds.minX.rounded(.down)), y0 = Int(bounds.minY.rounded(.down))
        let x1 = Int(bounds.maxX.rounded(.up)), y1 = Int(bounds.maxY.rounded(.up))
        let box = PixelBox(x0: x0, y0: y0, x1: max(x1, x0 + 1), y1: max(y1, y0 + 1))
        let mask = ClipMask(box: box)
        var writer = MaskWriter(mask: mask, previous: nil)
        AreaRasterizer().fill(path, transform: transform, tolerance: 0.1, rule: rule, area: box, &writer)
        let bytes = withExtendedLifetime(mask) { Array(UnsafeBufferPointer(start: mask.coverage, count: box.width * box.height)) }
        self.init(width: box.width, height: box.height, left: x0, top: y0, coverage: bytes)
    }

    /// - Precondition: `coverage` holds `width × height` values (both ≥ 0).
    public init(width: Int, height: Int, left: Int, top: Int, coverage: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && coverage.count == width * height,
            "a \(width) × \(height) mask needs \(width * height) coverage values, not \(coverage.count)")
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.coverage = coverage
    }
}

/// A mask placed at a device pixel: its origin lands on (`x`, `y`).
extension CoverageMask {
    /// `color` through the mask: an image of the mask's size whose alpha is
    /// the colour's times the coverage; nil for an empty mask.
    public func image(in color: Color) -> Image? {
        guard width > 0, height > 0 else { return nil }
        let p = color.premultipliedPixel
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for (i, c) in coverage.enumerated() where c > 0 {
            let k = UInt32(c)
            pixels[i * 4] = UInt8((UInt32(p.r) * k + 127) / 255)
            pixels[i * 4 + 1] = UInt8((UInt32(p.g) * k + 127) / 255)
            pixels[i * 4 + 2] = UInt8((UInt32(p.b) * k + 127) / 255)
            pixels[i * 4 + 3] = UInt8((UInt32(p.a) * k + 127) / 255)
        }
        return try? Image(width: width, height: height, premultipliedPixels: pixels)
    }
}

public struct PlacedMask: Sendable {
    public var mask: CoverageMask
    public var x: Int
    public var y: Int

    public init(_ mask: CoverageMask, x: Int, y: Int) {
        self.mask = mask
        self.x = x
        self.y = y
    }
}

extension Canvas {
    /// Paints `paint` (nil: the fill colour) through `mask`, placed with its
    /// origin at device pixel (`x`, `y`): the mask's top-left lands at
    /// (`x + left`, `y + top`). The transform does not apply (masks are made for
    /// device pixels); clip, alpha, blend mode and shadow do.
    public func draw(_ mask: CoverageMask, atDeviceX x: Int, y: Int, with paint: Paint? = nil) {
        draw([PlacedMask(mask, x: x, y: y)], with: paint)
    }

    /// Paints `paint` through many placed masks at once (a run of glyphs): one
    /// blitter, one shadow pass, for all of them.
    ///
    /// On a vector canvas each mask of a colour is an image of that colour
    /// through the mask, placed on the page at its device position (other
    /// paints are not drawn there yet).
    public func draw(_ masks: [PlacedMask], with paint: Paint? = nil) {
        guard !masks.isEmpty, !state.clip.isEmpty else { return }
        if let device {
            let color: Color
            switch paint ?? .color(state.fillColor) {
            case .color(let c): color = c
            default: return
            }
            var s = vectorState
            s.transform = .identity
            for placed in masks {
                let mask = placed.mask
                guard let image = mask.image(in: color) else { continue }
                let r = Rect(x: Double(placed.x + mask.left), y: Double(placed.y + mask.top), width: Double(mask.width), height: Double(mask.height))
                device.draw(image, in: r, interpolation: .none, state: s)
            }
            return
        }
        if state.shadow != nil { return withShadow { draw(masks, with: paint) } }
        withBlitter(paint, color: state.fillColor, PlacedMasksCoverage(masks: masks, clip: state.clip))
    }
}

/// Hands the visible rows of placed masks to the blitter.
struct PlacedMasksCoverage: CoverageSource {
    let masks: [PlacedMask]
    let clip: PixelBox

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        for placed in masks {
            let mask = placed.mask
            guard mask.width > 0 else { continue }
            let mx0 = placed.x + mask.left, my0 = placed.y + mask.top
            let box = PixelBox(
                x0: max(mx0, clip.x0), y0: max(my0, clip.y0),
                x1: min(mx0 + mask.width, clip.x1), y1: min(my0 + mask.height, clip.y1))
            guard !box.isEmpty else { continue }
            MaskCoverage(mask: mask, originX: mx0, originY: my0, box: box).draw(&blitter)
        }
    }
}

/// Hands the visible rows of a coverage mask to the blitter.
struct MaskCoverage: CoverageSource {
    let mask: CoverageMask
    let originX, originY: Int
    let box: PixelBox

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        mask.coverage.withUnsafeBufferPointer { bytes in
            for y in box.y0..<box.y1 {
                let row = bytes.baseAddress! + (y - originY) * mask.width + (box.x0 - originX)
                blitter.blitMask(x: box.x0, y: y, count: box.x1 - box.x0, mask: row)
            }
        }
    }
}
