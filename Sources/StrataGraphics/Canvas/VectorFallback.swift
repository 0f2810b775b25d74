/// A drawing call a vector canvas draws as an image.
enum RasterFallback {
    case fill(Path, Paint?, FillRule)
    case stroke(Path, Paint?)
    case gradient(Paint, GradientDrawingOptions)
    case image(Image, Rect)
    case sprites([Image], [Sprite], Bool)
}

extension Canvas {
    /// Whether a drawing call must become an image on this vector canvas:
    /// a shadow (no vector format blurs), or a paint the device cannot
    /// express (a conic gradient, a pattern, a spread PDF lacks).
    func needsRaster(_ paint: Paint?, device: any VectorDevice) -> Bool {
        state.shadow != nil || paint.map { !device.canPaint($0) } == true
    }

    /// Draws what a vector device cannot express as an image of its area
    /// (`area` on the page, in points, with its shadow's reach added when
    /// there is one) at the device's `rasterScale` pixels a point: `body`
    /// runs on a raster canvas with this one's transform, colours, stroke
    /// style, alpha and shadow; the image is placed on the page through the
    /// clips in force, with the blend mode. (A call, not a closure: a
    /// closure drawing on a canvas inside one kept the optimizer from
    /// removing the exclusivity checks of every canvas's state.)
    func drawRasterized(over area: Rect, _ call: RasterFallback) {
        guard let device, !state.vectorBox.isEmpty else { return }
        var area = area
        if let shadow = state.shadow {
            let reach = 3 * shadow.blur + 2
            area = area.union(area.offsetBy(dx: shadow.offset.width, dy: shadow.offset.height)).insetBy(dx: -reach, dy: -reach)
        }
        let v = state.vectorBox
        let visible = area.intersection(Rect(x: Double(v.x0), y: Double(v.y0), width: Double(v.width), height: Double(v.height)))
        guard !visible.isNull, visible.width > 0, visible.height > 0 else { return }
        let box = Rect(
            x: visible.minX.rounded(.down), y: visible.minY.rounded(.down), width: 0, height: 0)
        let width = visible.maxX.rounded(.up) - box.minX, height = visible.maxY.rounded(.up) - box.minY
        // At most 16 million pixels: a larger area is drawn coarser.
        var scale = device.rasterScale.isFinite && device.rasterScale > 0 ? device.rasterScale : 2
        scale = min(scale, (16_000_000 / max(1, width * height)).squareRoot())
        let w = Int((width * scale).rounded(.up)), h = Int((height * scale).rounded(.up))
        guard w > 0, h > 0, let off = try? Canvas(width: w, height: h) else { return }
        off.scaleBy(x: scale, y: scale)
        off.translateBy(x: -box.minX, y: -box.minY)
        off.concatenate(state.transform)
        let mine = state
        var theirs = off.state
        theirs.fillColor = mine.fillColor
        theirs.strokeColor = mine.strokeColor
        theirs.strokeStyle = mine.strokeStyle
        theirs.alpha = mine.alpha
        theirs.interpolationQuality = mine.interpolationQuality
        theirs.shouldAntialias = mine.shouldAntialias
        theirs.flatness = mine.flatness
        if case .sprites = call { theirs.blendMode = mine.blendMode == .plusLighter ? .plusLighter : .normal }
        if let s = mine.shadow {
            // Shadows are in device units: the page's points, times the scale.
            theirs.shadow = Shadow(
                offset: Size(width: s.offset.width * scale, height: s.offset.height * scale), blur: s.blur * scale, color: s.color)
        }
        off.state = theirs
        switch call {
        case .fill(let path, let paint, let rule):
            if let paint { off.fill(path, with: paint, rule: rule) } else { off.fill(path, rule: rule) }
        case .stroke(let path, let paint):
            if let paint { off.stroke(path, with: paint) } else { off.stroke(path) }
        case .gradient(let paint, let options):
            off.drawGradient(paint, options: options)
        case .image(let image, let rect):
            off.draw(image, in: rect)
        case .sprites(let images, let sprites, let inAnyOrder):
            off.drawSprites(images, sprites, inAnyOrder: inAnyOrder)
        }
        var placed = vectorState
        placed.transform = .identity
        placed.alpha = 1
        device.draw(
            off.makeImage(), in: Rect(x: box.minX, y: box.minY, width: Double(w) / scale, height: Double(h) / scale),
            interpolation: .default, state: placed)
    }

    /// The page area a stroke of `path` covers: its control points' bounds
    /// widened by the pen (its miters included).
    func strokeArea(_ path: Path) -> Rect? {
        Canvas.strokeArea(path, style: state.strokeStyle, transform: state.transform)
    }

    /// The area a stroke of `path` with `style` covers under `transform`:
    /// its control points' bounds there widened by the pen (its miters
    /// included, and two units for anti-aliasing); nil for points or a pen
    /// that are not finite.
    public static func strokeArea(_ path: Path, style: StrokeStyle, transform t: Transform) -> Rect? {
        guard let (x0, y0, x1, y1) = Canvas.deviceBounds(path, t) else { return nil }
        let stretch = max((t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot())
        let pen = style.lineWidth * max(1, style.lineJoin == .miter ? min(style.miterLimit, 100) : 1) * stretch + 2
        guard pen.isFinite else { return nil }
        return Rect(x: x0 - pen, y: y0 - pen, width: x1 - x0 + 2 * pen, height: y1 - y0 + 2 * pen)
    }
}
