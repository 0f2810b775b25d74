#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Canvas {
    // MARK: Stroke state

    /// The colour used by strokes (`setStrokeColor`).
    public var strokeColor: Color {
        get { state.strokeColor }
        set { state.strokeColor = newValue }
    }

    /// Every stroke parameter at once.
    public var strokeStyle: StrokeStyle {
        get { state.strokeStyle }
        set { state.strokeStyle = newValue }
    }

    /// The stroke width in user-space units (`setLineWidth`), 1 by default. 0 draws
    /// the thinnest visible line; widths under one device pixel draw a one-pixel
    /// line with its alpha scaled by the width, so thin lines fade instead of
    /// breaking up. Negative or NaN widths stroke nothing.
    public var lineWidth: Double {
        get { state.strokeStyle.lineWidth }
        set { state.strokeStyle.lineWidth = newValue }
    }

    public var lineCap: LineCap {
        get { state.strokeStyle.lineCap }
        set { state.strokeStyle.lineCap = newValue }
    }

    public var lineJoin: LineJoin {
        get { state.strokeStyle.lineJoin }
        set { state.strokeStyle.lineJoin = newValue }
    }

    /// Miters longer than this many line widths are bevelled (`setMiterLimit`), 10
    /// by default.
    public var miterLimit: Double {
        get { state.strokeStyle.miterLimit }
        set { state.strokeStyle.miterLimit = newValue }
    }

    /// Sets the dash pattern (`setLineDash(phase:lengths:)`): alternating dash and
    /// gap lengths in user space, starting `phase` units into the pattern at the
    /// start of every subpath. An empty array draws solid lines again.
    public func setLineDash(phase: Double, lengths: [Double]) {
        state.strokeStyle.dashPhase = phase
        state.strokeStyle.dashLengths = lengths
    }

    // MARK: Stroking

    /// Strokes `rect` with the current stroke style (`stroke(_:)`).
    public func stroke(_ rect: Rect) {
        guard !rect.isNull else { return }
        stroke(Path(rect: rect))
    }

    /// Strokes the ellipse inscribed in `rect` (`strokeEllipse(in:)`).
    public func strokeEllipse(in rect: Rect) {
        guard !rect.isNull else { return }
        stroke(Path(ellipseIn: rect))
    }

    /// Strokes separate segments between pairs of points: 0→1, 2→3, … An odd last
    /// point is ignored (`strokeLineSegments(between:)`).
    public func strokeLineSegments(between points: [Point]) {
        var path = Path()
        var i = 0
        while i + 1 < points.count {
            path.move(to: points[i])
            path.addLine(to: points[i + 1])
            i += 2
        }
        stroke(path)
    }

    /// Strokes `path` with the stroke colour and style.
    public func stroke(_ path: Path) {
        strokePath(path, nil)
    }

    /// Strokes `path` with `paint` (a colour or a gradient) and the stroke style.
    ///
    /// The outline is built in user space (so a non-uniform transform stretches the
    /// pen as in Core Graphics) and filled in device space by the overlap-exact
    /// scanline rasterizer, so a line crossing itself is never darker where it does.
    /// A path or transform that yields a NaN or infinite point draws nothing, as
    /// does a transform that is not invertible.
    public func stroke(_ path: Path, with paint: Paint) {
        strokePath(path, paint)
    }

    private func strokePath(_ path: Path, _ paint: Paint?) {
        guard !state.clip.isEmpty, !path.isEmpty else { return }
        if state.shadow != nil { return withShadow { strokePath(path, paint) } }
        let style = state.strokeStyle
        let t = state.transform
        guard style.lineWidth >= 0 else { return }  // also NaN
        // The transform's largest stretch sets the flattening tolerance; its area
        // scale √|det| measures the width on screen.
        let p = t.a * t.a + t.b * t.b, q = t.c * t.c + t.d * t.d, r = t.a * t.c + t.b * t.d
        let stretch = ((p + q) / 2 + (((p - q) / 2) * ((p - q) / 2) + r * r).squareRoot()).squareRoot()
        let areaScale = abs(t.determinant).squareRoot()
        guard stretch.isFinite, areaScale.isFinite, areaScale > 0 else { return }
        var halfWidth = style.lineWidth / 2
        var alphaFactor = 1.0
        let deviceWidth = style.lineWidth * areaScale
        if deviceWidth < 1 {
            // Hairlines: one device pixel wide, faded by how much thinner they are.
            halfWidth = 0.5 / areaScale
            alphaFactor = style.lineWidth == 0 ? 1 : deviceWidth
        }

        let tolerance = max(0.001, flatness) / stretch
        var lines = StrokePolylines(path: path, tolerance: tolerance)
        guard !lines.subpaths.isEmpty else { return }
        if let pattern = style.validDashes {
            lines = lines.dashed(pattern: pattern, phase: style.dashPhase)
        }

        // Device bounds: the points' bounds grown by the farthest any join or cap
        // reaches from its vertex.
        guard var bounds = lines.bounds else { return }
        var reach = halfWidth
        if style.lineJoin == .miter { reach *= max(1, style.miterLimit.isFinite ? style.miterLimit : 1) }
        if style.lineCap == .square { reach = max(reach, halfWidth * 2.squareRoot()) }
        bounds = bounds.insetBy(dx: -reach, dy: -reach)
        let device = bounds.applying(t)
        guard !device.isNull, device.minX.isFinite, device.maxX.isFinite, device.minY.isFinite, device.maxY.isFinite else { return }
        let area = Canvas.pixelBox(device.minX.rounded(.down), device.minY.rounded(.down),
                                   device.maxX.rounded(.up), device.maxY.rounded(.up), within: state.clip)
        guard !area.isEmpty else { return }

        // Sample lines per pixel row: 16 keep coverage within 1/32 of exact; an
        // outline much denser than its size (a chart line with tens of points a
        // pixel, like the benchmark's line scene) gets 4, as Skia's supersampler
        // uses, for 4 times less work where no single edge can be told apart.
        let density = Double(lines.points.count) / max(1, device.width + device.height)
        let scanline = scanlineRasterizer
        scanline.begin(area, samples: density > 4 ? 4 : 16)
        var stroker = Stroker(sink: RasterizerSink(scanline), style: style, halfWidth: halfWidth,
                              tolerance: tolerance, transform: t)
        lines.points.withUnsafeBufferPointer { pts in
            lines.smooth.withUnsafeBufferPointer { smooth in
                for sub in lines.subpaths {
                    stroker.stroke(UnsafeBufferPointer(rebasing: pts[sub.start..<(sub.start + sub.count)]),
                                   UnsafeBufferPointer(rebasing: smooth[sub.start..<(sub.start + sub.count)]),
                                   closed: sub.closed)
                }
            }
        }
        stroker.sink.finish()
        withBlitter(paint, color: state.strokeColor, alphaFactor: alphaFactor, SweepBody(rasterizer: scanline))
    }
}

struct SweepBody: BlitterBody {
    let rasterizer: ScanlineRasterizer
    func draw<B: SpanBlitter>(_ blitter: inout B) { rasterizer.sweep(.winding, &blitter) }
}
