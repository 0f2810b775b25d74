import StrataGraphics

extension Compositor {
    /// Draws a frame node and its sublayers into `canvas`, whose pixel
    /// (0, 0) is device pixel `origin`, within device rectangle `clip`, with
    /// `alpha` from ancestors that were not drawn as groups.
    func draw(_ p: FrameNode, in canvas: Canvas, origin: (Int, Int), clip: Rect, alpha: Double) {
        guard p.extent.intersects(clip) else { return }
        // Under an opaque cover (`occlusion`): what is painted before it is
        // hidden; the layers on the way down to it clip but do not paint.
        var paintsOwn = true
        if let o = occlusion {
            if p === o.node {
                occlusion = nil
            } else if o.path.contains(ObjectIdentifier(p)) {
                paintsOwn = false
            } else {
                return
            }
        }
        let s = p.state
        if p.special?.value.preservesDepth == true {
            // A transform layer: its depth-sorted members, each on its own.
            for c in p.children { draw(c, in: canvas, origin: origin, clip: clip, alpha: alpha * s.opacity * c.contextAlpha) }
            return
        }
        let groupOpacity = s.opacity < 1 && s.allowsGroupOpacity && !p.children.isEmpty
        let groupShadow = s.shadowOpacity > 0 && s.shadowPath == nil && !isSimpleShadow(p)
        if let m = p.mask, !groupOpacity, !groupShadow, p.homography.isAffine, let shape = shapeMaskClip(p, m) {
            // A mask that is one opaque filled shape over a layer that draws
            // once: clipping to the shape is the same picture without two
            // offscreen bitmaps (a chart's gradient masked to the area
            // under its line).
            canvas.saveGState()
            apply(m, canvas, origin)
            let path = shape.path.applying(devicePlacement(canvas))
            canvas.restoreGState()
            canvas.saveGState()
            canvas.clip(to: path, rule: shape.fillRule)
            drawOwn(p, in: canvas, origin: origin, alpha: alpha * s.opacity, includeBorder: true)
            canvas.restoreGState()
            return
        }
        if p.mask != nil || groupOpacity || groupShadow || !p.homography.isAffine {
            drawAsGroup(p, in: canvas, origin: origin, clip: clip, alpha: alpha)
            return
        }
        let a = alpha * s.opacity
        if paintsOwn {
            if s.shadowOpacity > 0 { drawShadow(p, in: canvas, origin: origin, alpha: a, source: nil) }
            drawOwn(p, in: canvas, origin: origin, alpha: a, includeBorder: p.children.isEmpty)
        }
        if !p.children.isEmpty {
            canvas.saveGState()
            if s.masksToBounds { clipToBounds(p, canvas, origin) }
            for c in p.children { draw(c, in: canvas, origin: origin, clip: clip, alpha: a) }
            canvas.restoreGState()
            drawBorder(p, in: canvas, origin: origin, alpha: a)
        }
    }

    /// The shape of a mask `m` of layer `p` that can be a clip instead: the
    /// mask is a shape layer with an opaque fill and nothing else (no stroke,
    /// background, contents, border, shadow, sublayers or mask of its own,
    /// full opacity, an affine transform), and `p` has no sublayers or
    /// shadow and draws exactly one thing (a background, contents, its
    /// special drawing or a border), so that clipping that one drawing is
    /// the same as masking the group. nil otherwise.
    func shapeMaskClip(_ p: FrameNode, _ m: FrameNode) -> ShapeState? {
        let ms = m.state
        guard let shape = ms.shape, m.children.isEmpty, m.mask == nil, m.homography.isAffine, ms.opacity >= 1,
            shape.fillColor?.alpha ?? 0 >= 1, (shape.strokeColor?.alpha ?? 0) <= 0 || shape.lineWidth <= 0,
            (ms.backgroundColor?.alpha ?? 0) <= 0, ms.contents == nil, ms.borderWidth <= 0, ms.shadowOpacity <= 0
        else { return nil }
        let s = p.state
        guard p.children.isEmpty, s.shadowOpacity <= 0 else { return nil }
        var draws = 0
        if (s.backgroundColor?.alpha ?? 0) > 0 { draws += 1 }
        if s.contents != nil { draws += 1 }
        if p.special?.value.drawsContent == true { draws += 1 }
        if s.borderWidth > 0, s.borderColor.alpha > 0 { draws += 1 }
        return draws <= 1 ? shape : nil
    }

    /// A layer whose shadow is the shadow of its background shape alone: no
    /// contents, no special drawing, no sublayers.
    func isSimpleShadow(_ p: FrameNode) -> Bool {
        let s = p.state
        return p.children.isEmpty && s.contents == nil && p.special?.value.drawsContent != true
    }

    /// A layer's shadow blur in device pixels. The radius may come from an
    /// animation between any two values, so it is clamped here as the setter
    /// clamps it (`LayerLimits.shadowRadius`).
    func shadowBlur(_ s: LayerState) -> Double {
        s.shadowRadius.clampedLength(LayerLimits.shadowRadius) * scale
    }

    /// Draws the layer and its subtree into an offscreen bitmap over the part of
    /// its box inside `clip`, then composites that with the layer's opacity,
    /// mask and shadow. Also the way layers under perspective are drawn.
    func drawAsGroup(_ p: FrameNode, in canvas: Canvas, origin: (Int, Int), clip: Rect, alpha: Double) {
        if canvas.device != nil, p.homography.isAffine { return drawAsVectorGroup(p, in: canvas, origin: origin, clip: clip, alpha: alpha) }
        // Straight into a band of the frame (`band`): the group is made over
        // the whole rectangle's part, as one thread makes it, with the band's
        // rows (and its shadow's reach) drawn.
        let inBand = band.flatMap { canvas === $0.canvas ? $0 : nil }
        guard let (image, x0, y0) = groupImage(p, clip: inBand?.rect ?? clip, rows: inBand?.rows, sharingRasterizersWith: canvas) else {
            return
        }
        let s = p.state
        let a = alpha * s.opacity
        if s.shadowOpacity > 0 {
            drawShadow(p, in: canvas, origin: origin, alpha: a, source: s.shadowPath == nil ? (image, x0, y0) : nil)
        }
        canvas.saveGState()
        canvas.alpha = a
        canvas.interpolationQuality = .none
        canvas.draw(
            image, in: Rect(x: Double(x0 - origin.0), y: Double(y0 - origin.1), width: Double(image.width), height: Double(image.height)))
        canvas.restoreGState()
    }

    /// A group on a page: its contents stay vectors, in a transparency
    /// layer with the layer's opacity, clipped to an image of its mask (the
    /// mask layer rendered at the compositor's scale); its shadow is the
    /// blurred image of the group's pixels, as on screen.
    func drawAsVectorGroup(_ p: FrameNode, in canvas: Canvas, origin: (Int, Int), clip: Rect, alpha: Double) {
        let s = p.state
        let a = alpha * s.opacity
        if s.shadowOpacity > 0 {
            if s.shadowPath == nil {
                if let (image, x0, y0) = groupImage(p, clip: clip) {
                    drawShadow(p, in: canvas, origin: origin, alpha: a, source: (image, x0, y0))
                }
            } else {
                drawShadow(p, in: canvas, origin: origin, alpha: a, source: nil)
            }
        }
        canvas.saveGState()
        defer { canvas.restoreGState() }
        if let mask = p.mask {
            let area = p.subtreeBox.intersection(clip)
            guard !area.isNull, area.width >= 1, area.height >= 1 else { return }
            let x0 = Int(saturating: area.minX.rounded(.down)), y0 = Int(saturating: area.minY.rounded(.down))
            let x1 = Int(saturating: area.maxX.rounded(.up)), y1 = Int(saturating: area.maxY.rounded(.up))
            guard let m = try? Canvas(width: x1 - x0, height: y1 - y0) else { return }
            let full = Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
            draw(mask, in: m, origin: (x0, y0), clip: full, alpha: 1)
            canvas.clip(
                to: Rect(x: Double(x0 - origin.0), y: Double(y0 - origin.1), width: Double(x1 - x0), height: Double(y1 - y0)),
                mask: m.makeImage(), channel: .alpha)
        }
        let grouped = a < 1 || p.mask != nil
        if grouped {
            canvas.alpha = a
            canvas.beginTransparencyLayer()
        }
        let inner = grouped ? 1 : a
        drawOwn(p, in: canvas, origin: origin, alpha: inner, includeBorder: p.children.isEmpty)
        if !p.children.isEmpty {
            canvas.saveGState()
            if s.masksToBounds { clipToBounds(p, canvas, origin) }
            for c in p.children { draw(c, in: canvas, origin: origin, clip: clip, alpha: inner) }
            canvas.restoreGState()
            drawBorder(p, in: canvas, origin: origin, alpha: inner)
        }
        if grouped { canvas.endTransparencyLayer() }
    }

    /// The layer and its subtree drawn into an offscreen bitmap over the
    /// part of its box inside `clip` (with its shadow's reach), masked by
    /// its mask: the image and its top left device pixel.
    /// With `rows` (device rows of a band of `clip`), only those rows and
    /// the shadow's reach around them are drawn, each as without the limit.
    /// With `scratch`, the offscreen canvases scan-convert with its
    /// rasterizers (the canvas the group is drawn into, on this thread),
    /// so that their buffers are not allocated and cleared for every group.
    func groupImage(_ p: FrameNode, clip: Rect, rows: Range<Int>? = nil, sharingRasterizersWith scratch: Canvas? = nil) -> (Image, Int, Int)? {
        let s = p.state
        // The shadow reaches beyond the box it is cast from.
        let spread =
            s.shadowOpacity > 0 ? Int(saturating: 3 * shadowBlur(s) + abs(s.shadowOffset.width * scale) + abs(s.shadowOffset.height * scale)) + 2 : 0
        let area = p.subtreeBox.intersection(clip.insetBy(dx: -Double(spread), dy: -Double(spread)))
        guard !area.isNull, area.width >= 1, area.height >= 1 else { return nil }
        let x0 = Int(saturating: area.minX.rounded(.down)), y0 = Int(saturating: area.minY.rounded(.down))
        let x1 = Int(saturating: area.maxX.rounded(.up)), y1 = Int(saturating: area.maxY.rounded(.up))
        // The rows of the offscreen bitmap drawn.
        var shown = 0..<(y1 - y0)
        if let rows {
            let top = max(0, rows.lowerBound.subtractingReportingOverflow(spread).partialValue - y0)
            let bottom = min(y1 - y0, rows.upperBound.addingReportingOverflow(spread).partialValue - y0)
            guard top < bottom else { return nil }
            shown = top..<bottom
        }
        guard let off = try? Canvas(width: x1 - x0, height: y1 - y0, sharingRasterizersWith: scratch) else { return nil }
        if shown.count < y1 - y0 { off.limitRows(to: shown) }
        let o = (x0, y0)
        if p.homography.isAffine {
            drawOwn(p, in: off, origin: o, alpha: 1, includeBorder: p.children.isEmpty)
        } else {
            drawProjected(p, in: off, origin: o)
        }
        if !p.children.isEmpty {
            off.saveGState()
            if s.masksToBounds { clipToBounds(p, off, o) }
            let full = Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
            for c in p.children { draw(c, in: off, origin: o, clip: full, alpha: 1) }
            off.restoreGState()
            if p.homography.isAffine { drawBorder(p, in: off, origin: o, alpha: 1) }
        }
        if let mask = p.mask, let m = try? Canvas(width: x1 - x0, height: y1 - y0, sharingRasterizersWith: scratch) {
            if shown.count < y1 - y0 { m.limitRows(to: shown) }
            let full = Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
            draw(mask, in: m, origin: o, clip: full, alpha: 1)
            off.blendMode = .destinationIn
            off.draw(m.makeImage(), in: Rect(x: 0, y: 0, width: Double(x1 - x0), height: Double(y1 - y0)))
            off.blendMode = .normal
        }
        return (off.makeImage(), x0, y0)
    }

    /// The canvas's transform from the current user space to the
    /// compositor's device pixels (the canvas's own device space, less the
    /// placement it had before the compositor drew).
    func devicePlacement(_ canvas: Canvas) -> Transform {
        canvas === baseCanvas ? canvas.transform.concatenating(baseInverse) : canvas.transform
    }

    /// Sets the canvas transform to the layer's (relative to `origin`); the
    /// caller saves and restores the state.
    func apply(_ p: FrameNode, _ canvas: Canvas, _ origin: (Int, Int)) {
        var t = p.homography.affine
        t.tx -= Double(origin.0)
        t.ty -= Double(origin.1)
        canvas.concatenate(t)
    }

    func clipToBounds(_ p: FrameNode, _ canvas: Canvas, _ origin: (Int, Int)) {
        canvas.saveGState()
        apply(p, canvas, origin)
        if p.state.cornerRadius <= 0, devicePlacement(canvas).isRectilinear {
            // A plain rectangle: on whole pixels (the usual case: a scroll
            // view, a chart's plot) the canvas narrows its clip box and keeps
            // no mask, so what is drawn inside costs nothing more.
            // Edges a rounding error off whole pixels (a scrolled layer's
            // bounds origin, taken away again by its own transform) are
            // whole pixels: the box narrows, with no mask to draw through.
            let raw = p.state.bounds.applying(devicePlacement(canvas))
            func whole(_ v: Double) -> Double {
                let r = v.rounded()
                return abs(v - r) <= 1e-7 * Swift.max(1, abs(v)) ? r : v
            }
            let x0 = whole(raw.minX), y0 = whole(raw.minY), x1 = whole(raw.maxX), y1 = whole(raw.maxY)
            let box = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            canvas.restoreGState()
            canvas.clip(to: box)
            return
        }
        let path = p.state.roundedBoundsPath
        let clipPath = path.applying(devicePlacement(canvas))
        canvas.restoreGState()
        canvas.clip(to: clipPath)
    }

    /// Background, contents, special drawing and (optionally) border.
    func drawOwn(_ p: FrameNode, in canvas: Canvas, origin: (Int, Int), alpha: Double, includeBorder: Bool) {
        let s = p.state
        canvas.saveGState()
        defer { canvas.restoreGState() }
        apply(p, canvas, origin)
        canvas.alpha = alpha
        if let bg = s.backgroundColor, bg.alpha > 0 {
            canvas.fillColor = tinted(bg, p.tint)
            if s.cornerRadius > 0 { canvas.fill(s.roundedBoundsPath) } else { canvas.fill(s.bounds) }
        }
        let clipped = s.masksToBounds && (s.contents != nil || p.special?.value.drawsContent == true)
        if clipped {
            canvas.saveGState()
            if s.cornerRadius > 0 { canvas.clip(to: s.roundedBoundsPath) } else { canvas.clip(to: s.bounds) }
        }
        if s.contents != nil, canvas.device != nil, p.tint == nil, let redraw = vectorContents[p.node.id] {
            // The contents as vectors: the layer's drawing, again.
            canvas.saveGState()
            canvas.clip(to: s.bounds)
            redraw(canvas)
            canvas.restoreGState()
        } else if let image = s.contents {
            drawContents(p.tint.map { image.multiplied(by: $0) } ?? image, s, canvas)
        }
        p.special?.value.draw(p, in: canvas)
        if clipped { canvas.restoreGState() }
        if includeBorder { drawBorderInCurrentSpace(s, canvas, p.tint) }
    }

    func drawBorder(_ p: FrameNode, in canvas: Canvas, origin: (Int, Int), alpha: Double) {
        guard p.state.borderWidth > 0 else { return }
        canvas.saveGState()
        apply(p, canvas, origin)
        canvas.alpha = alpha
        drawBorderInCurrentSpace(p.state, canvas, p.tint)
        canvas.restoreGState()
    }

    /// The border: the ring between the (rounded) bounds and the same shape
    /// inset by the border width.
    func drawBorderInCurrentSpace(_ s: LayerState, _ canvas: Canvas, _ tint: Color?) {
        let w = min(s.borderWidth, min(s.bounds.width, s.bounds.height) / 2)
        guard w > 0, s.borderColor.alpha > 0 else { return }
        var ring = s.roundedBoundsPath
        let inner = s.bounds.insetBy(dx: w, dy: w)
        if inner.width > 0 && inner.height > 0 {
            ring.addPath(LayerState.roundedPath(inner, radius: max(0, s.cornerRadius - w), corners: s.maskedCorners))
        }
        canvas.fillColor = tinted(s.borderColor, tint)
        canvas.fill(ring, rule: .evenOdd)
    }

    // MARK: Shadows

    /// Draws the layer's shadow: blurred from `shadowPath`, from the background
    /// shape for a plain layer, or from `source` (the composited group).
    func drawShadow(
        _ p: FrameNode, in canvas: Canvas, origin: (Int, Int), alpha: Double,
        source: (image: Image, x: Int, y: Int)?
    ) {
        let s = p.state
        let dx = Int(saturating: (s.shadowOffset.width * scale).rounded()), dy = Int(saturating: (s.shadowOffset.height * scale).rounded())
        let mask: CoverageMask, mx: Int, my: Int
        if let source {
            // Only the rows the canvas draws (a band's, on a frame drawn in
            // bands): image row k lands on device row top + k.
            var rows = Int.min..<Int.max
            if canvas.device == nil {
                let drawn = canvas.drawnRows
                let (moved, o1) = source.y.addingReportingOverflow(dy)
                let (top, o2) = moved.subtractingReportingOverflow(origin.1)
                let (lo, o3) = drawn.lowerBound.subtractingReportingOverflow(top)
                let (hi, o4) = drawn.upperBound.subtractingReportingOverflow(top)
                if drawn.isEmpty {
                    rows = 0..<0
                } else if !(o1 || o2 || o3 || o4) {
                    rows = lo..<hi
                }
            }
            mask = source.image.blurredAlphaMask(blur: s.shadowRadius * scale, rows: rows)
            (mx, my) = (source.x, source.y)
        } else {
            // The shape is drawn once into a small bitmap, blurred, and kept
            // until the layer changes.
            let path = s.shadowPath ?? s.roundedBoundsPath
            var signature = Hasher()
            signature.combine(path)
            signature.combine(s.shadowRadius)
            signature.combine(p.homography)
            let sig = signature.finalize()
            if let cached = shadowCache[p.key], cached.signature == sig {
                mask = cached.mask
                (mx, my) = cached.origin
            } else {
                let device = path.applying(p.homography.affine)
                let box = device.boundingBoxOfPath
                guard !box.isNull, box.width.isFinite, box.height.isFinite, box.width * box.height < 1e8 else { return }
                let x0 = Int(saturating: box.minX.rounded(.down)) - 1, y0 = Int(saturating: box.minY.rounded(.down)) - 1
                let w = Int(saturating: box.maxX.rounded(.up)) + 1 - x0, h = Int(saturating: box.maxY.rounded(.up)) + 1 - y0
                guard w > 0, h > 0, let c = try? Canvas(width: w, height: h) else { return }
                c.fillColor = .black
                c.fill(device.applying(Transform(translationX: Double(-x0), y: Double(-y0))))
                mask = c.makeImage().blurredAlphaMask(blur: shadowBlur(s))
                (mx, my) = (x0, y0)
                shadowCache[p.key] = (sig, mask, (x0, y0))
            }
        }
        var color = tinted(s.shadowColor, p.tint)
        color.alpha *= s.shadowOpacity * alpha
        if canvas.device != nil {
            // On a page (`Layer.render(in:)`): the blurred shadow as an image,
            // placed in the compositor's device pixels, which are the canvas's
            // user space here.
            guard let image = mask.image(in: color) else { return }
            canvas.draw(
                image,
                in: Rect(
                    x: Double(mx + dx - origin.0 + mask.left), y: Double(my + dy - origin.1 + mask.top), width: Double(mask.width),
                    height: Double(mask.height)))
            return
        }
        canvas.draw(mask, atDeviceX: mx + dx - origin.0, y: my + dy - origin.1, with: .color(color))
    }

    // MARK: Contents

    /// Where the contents go in the bounds, by gravity, and the part of the
    /// image shown (pixels).
    static func contentsPlacement(_ s: LayerState, imageWidth: Int, imageHeight: Int) -> (dest: Rect, source: Rect)? {
        let cr = s.contentsRect
        guard cr.width.isFinite, cr.height.isFinite, cr.minX.isFinite, cr.minY.isFinite else { return nil }
        let src = Rect(
            x: cr.minX * Double(imageWidth), y: cr.minY * Double(imageHeight),
            width: cr.width * Double(imageWidth), height: cr.height * Double(imageHeight))
        guard src.width > 0, src.height > 0 else { return nil }
        let b = s.bounds
        let w = src.width / s.contentsScale, h = src.height / s.contentsScale
        var dest: Rect
        switch s.contentsGravity {
        case .resize:
            dest = b
        case .resizeAspect, .resizeAspectFill:
            let k = s.contentsGravity == .resizeAspect ? min(b.width / w, b.height / h) : max(b.width / w, b.height / h)
            dest = Rect(x: b.midX - w * k / 2, y: b.midY - h * k / 2, width: w * k, height: h * k)
        default:
            let g = s.contentsGravity
            let x: Double =
                [.left, .topLeft, .bottomLeft].contains(g)
                ? b.minX
                : [.right, .topRight, .bottomRight].contains(g) ? b.maxX - w : b.midX - w / 2
            let y: Double =
                [.top, .topLeft, .topRight].contains(g)
                ? b.minY
                : [.bottom, .bottomLeft, .bottomRight].contains(g) ? b.maxY - h : b.midY - h / 2
            dest = Rect(x: x, y: y, width: w, height: h)
        }
        guard dest.width.isFinite, dest.height.isFinite, dest.width > 0, dest.height > 0 else { return nil }
        return (dest, src)
    }

    func drawContents(_ image: Image, _ s: LayerState, _ canvas: Canvas) {
        guard let (dest, src) = Compositor.contentsPlacement(s, imageWidth: image.width, imageHeight: image.height) else { return }
        let cc = s.contentsCenter
        if cc != Rect(x: 0, y: 0, width: 1, height: 1), cc.width.isFinite, cc.height.isFinite {
            drawNineSlice(image, src: src, dest: dest, center: cc, scale: s.contentsScale, canvas)
        } else {
            drawImagePart(image, src: src, dest: dest, canvas)
        }
    }

    /// Draws the `src` pixels of `image` into `dest`. A part of the image is
    /// cut out first (whole pixels), so that filtering never reaches the pixels
    /// around it: stretched nine-slice parts do not bleed into each other.
    func drawImagePart(_ image: Image, src: Rect, dest: Rect, _ canvas: Canvas) {
        guard src.width > 0, src.height > 0, dest.width > 0, dest.height > 0 else { return }
        let whole = src.minX == 0 && src.minY == 0 && src.width == Double(image.width) && src.height == Double(image.height)
        if whole {
            canvas.draw(image, in: dest)
            return
        }
        let x0 = max(0, Int(saturating: src.minX.rounded(.down))), y0 = max(0, Int(saturating: src.minY.rounded(.down)))
        let x1 = min(image.width, Int(saturating: src.maxX.rounded(.up))), y1 = min(image.height, Int(saturating: src.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0, let part = image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0) else { return }
        // The cut-out placed so that `src` lands on `dest`, clipped to `dest`.
        let sx = dest.width / src.width, sy = dest.height / src.height
        let placed = Rect(
            x: dest.minX - (src.minX - Double(x0)) * sx, y: dest.minY - (src.minY - Double(y0)) * sy,
            width: Double(part.width) * sx, height: Double(part.height) * sy)
        if placed == dest {
            canvas.draw(part, in: dest)
            return
        }
        canvas.saveGState()
        canvas.clip(to: dest)
        canvas.draw(part, in: placed)
        canvas.restoreGState()
    }

    /// Nine-slice: the corners keep their size, the edges stretch one way and
    /// the centre both. Where the bounds are too small for the corners, they
    /// shrink in proportion.
    func drawNineSlice(_ image: Image, src: Rect, dest: Rect, center c: Rect, scale: Double, _ canvas: Canvas) {
        let sxs = [src.minX, src.minX + c.minX * src.width, src.minX + c.maxX * src.width, src.maxX]
        let sys = [src.minY, src.minY + c.minY * src.height, src.minY + c.maxY * src.height, src.maxY]
        var left = (sxs[1] - sxs[0]) / scale, right = (sxs[3] - sxs[2]) / scale
        var top = (sys[1] - sys[0]) / scale, bottom = (sys[3] - sys[2]) / scale
        if left + right > dest.width, left + right > 0 {
            let k = dest.width / (left + right)
            left *= k; right *= k
        }
        if top + bottom > dest.height, top + bottom > 0 {
            let k = dest.height / (top + bottom)
            top *= k; bottom *= k
        }
        let dxs = [dest.minX, dest.minX + left, dest.maxX - right, dest.maxX]
        let dys = [dest.minY, dest.minY + top, dest.maxY - bottom, dest.maxY]
        for j in 0..<3 {
            for i in 0..<3 {
                drawImagePart(
                    image, src: Rect(x: sxs[i], y: sys[j], width: sxs[i + 1] - sxs[i], height: sys[j + 1] - sys[j]),
                    dest: Rect(x: dxs[i], y: dys[j], width: dxs[i + 1] - dxs[i], height: dys[j + 1] - dys[j]), canvas)
            }
        }
    }
}
