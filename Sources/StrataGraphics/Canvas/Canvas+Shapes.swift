// Polygons, rounded rectangles and stroked rectangles drawn without a path of
// the caller's: the canvas builds the shape in a path it keeps (`shapePath`),
// so a chart's markers, a map's shapes or a list's thousands of rounded
// cells cost no allocation each (Blend2D's fillPolygon and fillRoundRect).
// The drawing is that of the path, to the pixel.

extension Canvas {
    /// Fills the closed polygon through `points`, in order, with the fill
    /// colour, using `rule` where its sides cross.
    ///
    /// The same as filling the path made of a move to the first point, a line
    /// to each of the others and a close (`Path.addLines(between:)` then
    /// `Path.closeSubpath()`), pixel for pixel, but without making that path
    /// each time: the canvas keeps its storage from one polygon to the next.
    /// Fewer than three points cover nothing; a NaN or infinite point (after
    /// the transform) draws nothing, as for a path.
    @inlinable
    public func fill(polygon points: some Collection<Point>, rule: FillRule = .winding) {
        Canvas.withBuffer(points) { fillPolygon($0, nil, rule) }
    }

    /// Fills the closed polygon through `points` with `paint`, as
    /// `fill(polygon:rule:)`.
    @inlinable
    public func fill(polygon points: some Collection<Point>, with paint: Paint, rule: FillRule = .winding) {
        if case .color(let color) = paint {
            Canvas.withBuffer(points) { fillPolygon($0, color: color, rule) }
        } else {
            Canvas.withBuffer(points) { fillPolygon($0, paint, rule) }
        }
    }

    /// Strokes the closed polygon through `points`, in order, with the stroke
    /// colour and the current stroke style: the same as stroking the closed
    /// path through them (every corner joined, none capped), without making
    /// that path each time. One point is a closed subpath of no length,
    /// stroked as a path of it is (with no caps: nothing); no points draw
    /// nothing.
    @inlinable
    public func stroke(polygon points: some Collection<Point>) {
        Canvas.withBuffer(points) { strokePolygon($0, nil) }
    }

    /// Strokes the closed polygon through `points` with `paint`, as
    /// `stroke(polygon:)`.
    @inlinable
    public func stroke(polygon points: some Collection<Point>, with paint: Paint) {
        if case .color(let color) = paint {
            Canvas.withBuffer(points) { strokePolygon($0, color: color) }
        } else {
            Canvas.withBuffer(points) { strokePolygon($0, paint) }
        }
    }

    /// `body` with the points in contiguous storage: their own where they
    /// have it (an array, a slice of one), else a copy.
    @inlinable
    static func withBuffer(_ points: some Collection<Point>, _ body: (UnsafeBufferPointer<Point>) -> Void) {
        if points.withContiguousStorageIfAvailable(body) == nil {
            Array(points).withUnsafeBufferPointer(body)
        }
    }

    @usableFromInline
    func fillPolygon(_ points: UnsafeBufferPointer<Point>, color: Color, _ rule: FillRule) {
        withFillColor(color) { fillPolygon(points, nil, rule) }
    }

    @usableFromInline
    func strokePolygon(_ points: UnsafeBufferPointer<Point>, color: Color) {
        withStrokeColor(color) { strokePolygon(points, nil) }
    }

    @usableFromInline
    func fillPolygon(_ points: UnsafeBufferPointer<Point>, _ paint: Paint?, _ rule: FillRule) {
        guard points.count >= 3 else { return }
        // Into a bitmap, anti-aliased and without a shadow, the vertices go
        // to the rasterizer as they are (`PolygonCoverage`): the lines
        // filling their path would give it, in the same order, without
        // making the path, walking its verbs or holding its storage (a
        // small triangle's call spent a sixth of its time there).
        guard device == nil, state.shadow == nil, antialiasing else {
            shapePath.setPolygon(points)
            fillPath(shapePath, paint, rule)
            return
        }
        guard !state.clip.isEmpty, let (x0, y0, x1, y1) = Canvas.deviceBounds(points, state.transform),
            let (area, rows) = rasterArea(x0.rounded(.down), y0.rounded(.down), x1.rounded(.up), y1.rounded(.up))
        else { return }
        withBlitter(
            paint, color: state.fillColor,
            PolygonCoverage(
                points: points, transform: state.transform, rule: rule, area: area, rows: rows,
                rasterizer: areaRasterizer))
    }

    @usableFromInline
    func strokePolygon(_ points: UnsafeBufferPointer<Point>, _ paint: Paint?) {
        guard !points.isEmpty else { return }
        shapePath.setPolygon(points)
        strokePath(shapePath, paint)
    }

    /// Fills `rect` with rounded corners (ellipse quarters `cornerWidth` by
    /// `cornerHeight`, each at most half the side) with the fill colour: the
    /// same as filling `Path(roundedRect:cornerWidth:cornerHeight:)`, pixel
    /// for pixel, without making that path each time.
    public func fill(roundedRect rect: Rect, cornerWidth: Double, cornerHeight: Double) {
        fillRoundedRect(rect, cornerWidth, cornerHeight, nil)
    }

    /// Fills a rounded rectangle with `paint`, as
    /// `fill(roundedRect:cornerWidth:cornerHeight:)`.
    @inlinable
    public func fill(roundedRect rect: Rect, cornerWidth: Double, cornerHeight: Double, with paint: Paint) {
        if case .color(let color) = paint {
            fillRoundedRect(rect, cornerWidth, cornerHeight, color: color)
        } else {
            fillRoundedRect(rect, cornerWidth, cornerHeight, paint)
        }
    }

    @usableFromInline
    func fillRoundedRect(_ rect: Rect, _ cornerWidth: Double, _ cornerHeight: Double, color: Color) {
        withFillColor(color) { fillRoundedRect(rect, cornerWidth, cornerHeight, nil) }
    }

    @usableFromInline
    func fillRoundedRect(_ rect: Rect, _ cornerWidth: Double, _ cornerHeight: Double, _ paint: Paint?) {
        fillPath(keptRoundedRect(rect, cornerWidth, cornerHeight), paint, .winding)
    }

    /// Strokes a rounded rectangle with the stroke colour and style: the
    /// same as stroking `Path(roundedRect:cornerWidth:cornerHeight:)`.
    public func stroke(roundedRect rect: Rect, cornerWidth: Double, cornerHeight: Double) {
        strokeRoundedRect(rect, cornerWidth, cornerHeight, nil)
    }

    /// Strokes a rounded rectangle with `paint`, as
    /// `stroke(roundedRect:cornerWidth:cornerHeight:)`.
    @inlinable
    public func stroke(roundedRect rect: Rect, cornerWidth: Double, cornerHeight: Double, with paint: Paint) {
        if case .color(let color) = paint {
            strokeRoundedRect(rect, cornerWidth, cornerHeight, color: color)
        } else {
            strokeRoundedRect(rect, cornerWidth, cornerHeight, paint)
        }
    }

    @usableFromInline
    func strokeRoundedRect(_ rect: Rect, _ cornerWidth: Double, _ cornerHeight: Double, color: Color) {
        withStrokeColor(color) { strokeRoundedRect(rect, cornerWidth, cornerHeight, nil) }
    }

    @usableFromInline
    func strokeRoundedRect(_ rect: Rect, _ cornerWidth: Double, _ cornerHeight: Double, _ paint: Paint?) {
        strokePath(keptRoundedRect(rect, cornerWidth, cornerHeight), paint)
    }

    /// Strokes `rect` with `paint` and the current stroke style: the same as
    /// stroking `Path(rect:)`, without making that path each time.
    @inlinable
    public func stroke(_ rect: Rect, with paint: Paint) {
        if case .color(let color) = paint { strokeRect(rect, color: color) } else { strokeRect(rect, paint) }
    }

    @usableFromInline
    func strokeRect(_ rect: Rect, color: Color) { withStrokeColor(color) { strokeRect(rect, nil) } }

    @usableFromInline
    func strokeRect(_ rect: Rect, _ paint: Paint?) {
        guard !rect.isNull else { return }
        strokePath(keptRect(rect), paint)
    }

    /// The kept path, made the rectangle.
    func keptRect(_ rect: Rect) -> Path {
        shapePath.removeAll(keepingCapacity: true)
        shapePath.addRect(rect)
        return shapePath
    }

    /// The kept path, made the rounded rectangle.
    private func keptRoundedRect(_ rect: Rect, _ cornerWidth: Double, _ cornerHeight: Double) -> Path {
        shapePath.removeAll(keepingCapacity: true)
        shapePath.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight)
        return shapePath
    }
}
