extension Canvas {
    /// Intersects the clip with `rect`, given in user space (`clip(to:)`).
    ///
    /// A rectangle that lands on whole device pixels (no rotation or shear, integer
    /// edges after the transform) only narrows the clip box: the fast path, with
    /// nothing to mask. Any other rectangle clips exactly, with anti-aliased edges,
    /// as a path. A rectangle with a NaN coordinate clips everything away.
    public func clip(to rect: Rect) {
        guard !rect.isNull, !(rect.origin.x.isNaN || rect.origin.y.isNaN || rect.width.isNaN || rect.height.isNaN) else {
            clipEverything()
            return
        }
        if device != nil { return vectorClip(Path(rect: rect), rule: .winding) }
        if state.transform.isRectilinear {
            guard let (x0, y0, x1, y1) = deviceEdges(rect) else {
                clipEverything()
                return
            }
            func whole(_ v: Double) -> Bool { !v.isFinite || v == v.rounded() }
            if whole(x0) && whole(x1) && whole(y0) && whole(y1) {
                // The box only shrinks, and a mask always covers the box it came with.
                state.clip = state.clip.intersection(Canvas.pixelBox(x0, y0, x1, y1, within: state.clip))
                state.rasterClip = state.rasterClip.intersection(Canvas.pixelBox(x0, y0, x1, y1, within: state.rasterClip))
                if state.clip.isEmpty { clipEverything() }
                return
            }
        }
        clip(to: Path(rect: rect))
    }

    /// Intersects the clip with the inside of `path` under `rule` (`clip(using:)`
    /// after `addPath`), with anti-aliased edges. Open subpaths are closed. A path
    /// that is empty or has a NaN or infinite point clips everything away, as an
    /// empty path does in Core Graphics.
    public func clip(to path: Path, rule: FillRule = .winding) {
        guard !state.clip.isEmpty, !path.isEmpty else {
            clipEverything()
            return
        }
        if device != nil { return vectorClip(path, rule: rule) }
        guard let (x0, y0, x1, y1) = Canvas.deviceBounds(path, state.transform) else {
            clipEverything()
            return
        }
        // The mask covers the path's area within the raster clip, all its
        // rows, whatever the row limit (`limitRows(to:)`): a shadow drawn in
        // a band reads rows around it (`shadowSource`).
        guard let (rasterArea, rows) = rasterArea(x0.rounded(.down), y0.rounded(.down), x1.rounded(.up), y1.rounded(.up)) else {
            clipEverything()
            return
        }
        let mask = ClipMask(box: rasterArea)
        var writer = MaskWriter(mask: mask, previous: state.clipMask)
        pathCoverage(path, rule, rasterArea, rows: rasterArea.y0..<rasterArea.y1).draw(&writer)
        state.clip = PixelBox(x0: rasterArea.x0, y0: rows.lowerBound, x1: rasterArea.x1, y1: rows.upperBound).intersection(state.clip)
        state.rasterClip = rasterArea
        state.clipMask = mask
    }

    /// Intersects the clip with an image used as a mask, mapped into `rect` (user
    /// space) under the current transform (`clip(to:mask:)`,
    /// `CGContextClipToMask`): where the mask is 255 drawing goes through, where
    /// it is 0 nothing does, in between partly. Outside `rect` everything is
    /// clipped away. The mask is sampled as the canvas's `interpolationQuality`
    /// says, and its rectangle's edges are anti-aliased when `shouldAntialias`.
    ///
    /// - Parameters:
    ///   - rect: where the mask is drawn, in user space.
    ///   - mask: the image whose alpha or luminance clips.
    ///   - channel: what of the image is the mask. `.automatic` (the
    ///     default) takes the alpha of an image with any transparency, and the
    ///     luminance of an opaque one (white lets through, black clips, as Core
    ///     Graphics does with a grey image).
    ///
    /// An empty image, or a rectangle that is empty or not finite, clips
    /// everything away.
    public func clip(to rect: Rect, mask: Image, channel: MaskChannel = .automatic) {
        guard !state.clip.isEmpty else { return }
        let r = rect.standardized
        guard mask.width > 0, mask.height > 0, !r.isNull, r.width > 0, r.height > 0,
            r.origin.isFinite, r.width.isFinite, r.height.isFinite
        else {
            clipEverything()
            return
        }
        let luminance = channel == .luminance || (channel == .automatic && mask.isOpaque)
        if device != nil {
            // The rectangle narrows the box; the device applies the mask.
            vectorClip(
                Path(rect: r), rule: .winding,
                mask: VectorMask(
                    image: mask.coverageImage(luminance: luminance), rect: r, interpolation: state.interpolationQuality))
            return
        }
        let device = r.applying(state.transform)
        guard !device.isNull, device.minX.isFinite, device.maxX.isFinite, device.minY.isFinite, device.maxY.isFinite else {
            clipEverything()
            return
        }
        guard
            let (rasterArea, rows) = rasterArea(
                device.minX.rounded(.down), device.minY.rounded(.down), device.maxX.rounded(.up), device.maxY.rounded(.up))
        else {
            clipEverything()
            return
        }
        // The mask as white at the channel's value, drawn over the area as any
        // image is: its alpha is then the clip's coverage. (Over the area
        // within the raster clip, every row, whatever the row limit, as a
        // path clip is.)
        let area = rasterArea
        let coverage = mask.coverageImage(luminance: luminance)
        let layer = try! Bitmap(width: rasterArea.width, height: rasterArea.height)  // within the canvas
        let drawer = Canvas(bitmap: layer)
        drawer.concatenate(
            state.transform.concatenating(Transform(translationX: Double(-rasterArea.x0), y: Double(-rasterArea.y0))))
        drawer.interpolationQuality = state.interpolationQuality
        drawer.shouldAntialias = antialiasing
        drawer.draw(coverage, in: r)
        // Its alpha, a row at a time, into the mask as any clip is written.
        let clipMask = ClipMask(box: area)
        var writer = MaskWriter(mask: clipMask, previous: state.clipMask)
        let px = layer.baseAddress.assumingMemoryBound(to: UInt8.self)
        var alpha = [UInt8](repeating: 0, count: area.width)
        alpha.withUnsafeMutableBufferPointer { row in
            for y in area.y0..<area.y1 {
                let src = px + (y - area.y0) * layer.bytesPerRow + 3
                for i in 0..<area.width { row[i] = src[i * 4] }
                writer.blitMask(x: area.x0, y: y, count: area.width, mask: row.baseAddress!)
            }
        }
        state.clip = PixelBox(x0: rasterArea.x0, y0: rows.lowerBound, x1: rasterArea.x1, y1: rows.upperBound).intersection(state.clip)
        state.rasterClip = rasterArea
        state.clipMask = clipMask
    }

    /// The coverage, 0...255, that the current clip lets through at device pixel
    /// (x, y): 255 inside, 0 outside, in between on anti-aliased edges.
    public func clipCoverage(x: Int, y: Int) -> UInt8 {
        // As without the row limit (`limitRows(to:)`).
        let c = state.clip.isEmpty ? state.clip : state.rasterClip
        guard x >= c.x0, x < c.x1, y >= c.y0, y < c.y1 else { return 0 }
        return state.clipMask?.value(x: x, y: y) ?? 255
    }

    func clipEverything() {
        state.clip = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        state.rasterClip = state.clip
        state.clipMask = nil
        state.vectorBox = state.clip
    }
}

/// What of an image `Canvas.clip(to:mask:channel:)` takes as the mask.
public enum MaskChannel: Sendable, Hashable {
    /// Alpha for an image with any transparency, luminance for an opaque one.
    case automatic
    /// The alpha channel.
    case alpha
    /// The luminance (Rec. 709 weights on the stored sRGB values): white lets
    /// through, black clips. An image with transparency is taken as composited
    /// over black (its stored values are premultiplied).
    case luminance
}

extension Image {
    /// White at each pixel's alpha or luminance, premultiplied: what a mask
    /// image is drawn as.
    func coverageImage(luminance: Bool) -> Image {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    for x in 0..<width {
                        let s = y * bytesPerRow + x * 4
                        let v: UInt8
                        if luminance {
                            // Rec. 709 weights in 1/65536, rounded: they sum to 65536.
                            let l = 13933 * UInt32(p[s]) + 46871 * UInt32(p[s + 1]) + 4732 * UInt32(p[s + 2]) + 32768
                            v = UInt8(min(255, l >> 16))
                        } else {
                            v = p[s + 3]
                        }
                        let d = (y * width + x) * 4
                        o[d] = v; o[d + 1] = v; o[d + 2] = v; o[d + 3] = v
                    }
                }
            }
        }
        return Image(uncheckedWidth: width, height: height, bytesPerRow: width * 4, pixels: out)
    }
}
