internal import CPixels

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Canvas {
    /// How images are sampled when scaled or transformed
    /// (`interpolationQuality`); `.default` (bilinear, mipmapped) unless set.
    public var interpolationQuality: InterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }

    /// Draws `image` scaled into `rect` (user space) under the current transform,
    /// alpha, blend mode and clip (`draw(_:in:)`). The image's first row is at the
    /// rectangle's top (smaller y), as in UIKit; Core Graphics, with y up, draws it
    /// at the bottom. The rectangle's edges are anti-aliased like any fill. Empty
    /// images and rectangles, and rectangles with a NaN or infinite coordinate,
    /// draw nothing.
    public func draw(_ image: Image, in rect: Rect) {
        guard image.width > 0, image.height > 0, !rect.isNull, !state.clip.isEmpty else { return }
        if let device {
            let r = rect.standardized
            guard r.width > 0, r.height > 0, r.origin.isFinite, r.width.isFinite, r.height.isFinite,
                let (x0, y0, x1, y1) = Canvas.deviceBounds(Path(rect: r), state.transform)
            else { return }
            if state.shadow != nil {
                return drawRasterized(over: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), .image(image, r))
            }
            return device.draw(image, in: r, interpolation: state.interpolationQuality, state: vectorState)
        }
        if state.shadow != nil { return withShadow { draw(image, in: rect) } }
        let r = rect.standardized
        guard r.width > 0, r.height > 0, r.origin.isFinite, r.width.isFinite, r.height.isFinite else { return }
        if drawUnscaled(image, in: r) { return }
        let imageToUser = Transform(
            a: r.width / Double(image.width), b: 0, c: 0, d: r.height / Double(image.height),
            tx: r.minX, ty: r.minY)
        // (A small image's rows are asked for before its shader is set up,
        // as `withBlitter` asks for a pattern's: in an 8-pixel image drawn
        // between pixels, a tenth of the time was the wait for its first
        // pixels of each row; asked for first, the grid's such images drew
        // 2–4 % faster. Turned, where the cell rasterizer asks for its
        // bands' rows itself, asking first measured 2–4 % slower.)
        let t = state.transform
        if t.isRectilinear {
            guard let edges = deviceEdges(r), let body = clippedRect(edges) else { return }
            prefetchRows(body)
            withImageShader(image, imageToUser: imageToUser, alpha: state.alpha, spread: .pad) { blitter in
                run(body, inPlace: &blitter)
            }
            return
        }
        withImageShader(image, imageToUser: imageToUser, alpha: state.alpha, spread: .pad) { blitter in
            let device = r.applying(t)
            guard !device.isNull, device.minX.isFinite, device.maxX.isFinite, device.minY.isFinite, device.maxY.isFinite else { return }
            guard
                let (area, rows) = rasterArea(
                    device.minX.rounded(.down), device.minY.rounded(.down), device.maxX.rounded(.up), device.maxY.rounded(.up))
            else { return }
            run(pathCoverage(Path(rect: r), .winding, area, rows: rows), inPlace: &blitter)
        }
    }

    /// Draws `image` pixel for pixel with its top left at device pixel (`x`,
    /// `y`): the transform does not apply (the image is made for device
    /// pixels, as a colour glyph drawn at its device size is); clip, alpha,
    /// blend mode and shadow do.
    public func draw(_ image: Image, atDeviceX x: Int, y: Int) {
        guard image.width > 0, image.height > 0 else { return }
        if let device {
            // A vector canvas's device space is the page's points.
            guard !state.clip.isEmpty else { return }
            var s = vectorState
            s.transform = .identity
            let r = Rect(x: Double(x), y: Double(y), width: Double(image.width), height: Double(image.height))
            return device.draw(image, in: r, interpolation: .none, state: s)
        }
        let saved = state.transform
        state.transform = .identity
        defer { state.transform = saved }
        draw(image, in: Rect(x: Double(x), y: Double(y), width: Double(image.width), height: Double(image.height)))
    }

    /// Draws `image` pixel for pixel at a whole-pixel offset, blending its rows
    /// straight into the target (opaque runs stored, transparent ones
    /// skipped), when that is what `draw(_:in:)` would do: one device pixel
    /// per image pixel, no rotation or flip, source over at full alpha, and a
    /// clip that is a box. The compositor draws layer contents this way: tile
    /// layers, cached drawings. Returns false when it does not apply.
    func drawUnscaled(_ image: Image, in r: Rect) -> Bool {
        let t = state.transform
        // Within a millionth of a pixel counts as aligned: an offset of k/3
        // points at scale 3 comes out a rounding error off whole pixels.
        guard state.clipMask == nil, state.blendMode == .normal, state.alpha >= 1, t.b == 0, t.c == 0,
            abs(t.a * r.width - Double(image.width)) < 1e-6, abs(t.d * r.height - Double(image.height)) < 1e-6, t.a > 0, t.d > 0
        else { return false }
        let x = t.a * r.minX + t.tx, y = t.d * r.minY + t.ty
        guard abs(x) < 1e9, abs(y) < 1e9 else { return false }
        let wx = x.nearestWhole, wy = y.nearestWhole
        guard abs(x - wx) < 1e-6, abs(y - wy) < 1e-6 else { return false }
        let ix = Int(wx), iy = Int(wy)
        let box = PixelBox(x0: ix, y0: iy, x1: ix + image.width, y1: iy + image.height).intersection(state.clip)
        guard !box.isEmpty else { return true }
        let target = targetPixels
        image.withUnsafePixels { bytes in
            let source = UnsafeRawPointer(bytes.baseAddress!)
            if SolidBlitter.usesAVX2, image.bytesPerRow % 4 == 0 {
                // All the rows in one call (a small image's rows each paid
                // a call and its set-up), the same bytes.
                let s = (source + (box.y0 - iy) * image.bytesPerRow + (box.x0 - ix) * 4).assumingMemoryBound(to: UInt32.self)
                let d = (target.base + box.y0 * target.bytesPerRow + box.x0 * 4).assumingMemoryBound(to: UInt32.self)
                strata_source_over_rect_avx2(d, target.bytesPerRow / 4, s, image.bytesPerRow / 4, box.width, box.height)
                return
            }
            for row in box.y0..<box.y1 {
                let s = (source + (row - iy) * image.bytesPerRow + (box.x0 - ix) * 4).assumingMemoryBound(to: UInt32.self)
                let d = (target.base + row * target.bytesPerRow + box.x0 * 4).assumingMemoryBound(to: UInt32.self)
                SpanCompositing.sourceOver(d, s, count: box.width)
            }
        }
        return true
    }

    /// Calls `body` with a blitter sampling `image`, placed in user space by
    /// `imageToUser`, through the current transform. Does nothing when the
    /// placement cannot be inverted. Shrunk images are sampled from a box-filtered
    /// mipmap level (made here, for this drawing) unless the quality is `.none`.
    func withImageShader(
        _ image: Image, imageToUser: Transform, alpha: Double, spread: GradientSpread,
        _ body: (inout ShaderBlitter<ImageShader>) -> Void
    ) {
        guard image.width > 0, image.height > 0 else { return }
        let imageToDevice = imageToUser.concatenating(state.transform)
        guard let inverse = imageToDevice.inverted() else { return }
        let filter = ImageFilter(state.interpolationQuality)
        let scale = abs(imageToDevice.determinant).squareRoot()
        let level = filter != .nearest && scale < 0.5 ? image.mipmapLevel(forScale: scale) : image
        // Device → level pixels: through the image, then shrunk to the level's size.
        let toLevel = inverse.concatenating(
            Transform(
                scaleX: Double(level.width) / Double(image.width),
                y: Double(level.height) / Double(image.height)))
        let a = UInt32(max(0, min(255, (alpha * 255).rounded())))
        guard a > 0 || state.blendMode != .normal else { return }
        level.withUnsafePixels { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { pixels in
                let shader = ImageShader(
                    pixels: pixels.baseAddress!, width: level.width, height: level.height,
                    stride: level.bytesPerRow / 4, inverse: toLevel, filter: filter, spread: spread, alpha: a)
                // (Handed to `body` in place: see `withShaderBlitter`.)
                var blitter = ShaderBlitter(shader: shader, pixels: targetPixels, mode: state.blendMode, scratch: shaderScratch)
                body(&blitter)
            }
        }
    }
}
