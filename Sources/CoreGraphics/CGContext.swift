package import StrataGraphics

/// A drawing destination with Core Graphics' graphics state and calls,
/// drawing through Strata's `Canvas`.
///
/// A bitmap context's user space starts as Core Graphics' does: the origin
/// at the bottom left, y going up (`ctm` is the identity). UIKit's contexts
/// flip it (`UIGraphicsGetCurrentContext()`). The path being built is in the
/// space of the transform current when it was built, as in Core Graphics:
/// a line's width follows the transform current when it is stroked.
public final class CGContext {
    /// What the context draws on: its bitmap's canvas, or a PDF context's
    /// current page (a canvas that draws nothing between pages).
    ///
    /// This and the other stored state skip Swift's run-time exclusivity
    /// checks: a context is not `Sendable`, so one thread uses it, and no
    /// method hands out an access that lasts past its return. The checks
    /// made iOS-style drawing (a colour and a fill per small shape) run 3 %
    /// more instructions than the same native `Canvas` calls.
    @exclusivity(unchecked) package private(set) var canvas: Canvas
    /// A PDF context's document, pages and destination; nil for others.
    let pdf: CGPDFTarget?
    @exclusivity(unchecked) private var state = State()
    @exclusivity(unchecked) private var stack: [State] = []
    /// The path being built, in the user space of `pathSpace`.
    @exclusivity(unchecked) private var currentPath = StrataGraphics.Path()
    @exclusivity(unchecked) private var pathSpace = CGAffineTransform.identity
    /// Whether shadow offsets go down for positive heights (UIKit's
    /// contexts) rather than up (Core Graphics' y-up base space).
    package var shadowsGoDown = false

    struct State {
        var ctm = CGAffineTransform.identity
        /// A path clipped to but not yet applied to the canvas, in the
        /// current user space: a clip that only shapes the gradient drawn
        /// next is drawn as a fill of its path with the gradient, without a
        /// clip mask (what `clip()` then `drawLinearGradient` does on iOS,
        /// at the cost of a fill).
        var pendingClip: (path: StrataGraphics.Path, rule: FillRule)?
        var textMatrix = CGAffineTransform.identity
    }

    /// A bitmap context of `width` × `height` pixels: 8 bits a component,
    /// four components, in `space`'s RGB. With `data` nil, the context owns
    /// its pixels; otherwise it draws into `data`, which must hold
    /// `bytesPerRow` × `height` bytes of premultiplied RGBA (alpha last) for
    /// the context's lifetime. Returns nil for a layout Strata does not draw
    /// (another depth, a grey or alpha-only bitmap, rows not packed when
    /// `data` is given, alpha first when `data` is given) or a size out of
    /// range. Pixels are always R, G, B, A in memory.
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int, space: CGColorSpace,
        bitmapInfo: UInt32
    ) {
        let alpha = CGImageAlphaInfo(rawValue: bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue)
        guard bitsPerComponent == 8, space.model == .rgb, let alpha, alpha != .none, alpha != .alphaOnly,
            bytesPerRow == 0 || bytesPerRow >= width * 4
        else { return nil }
        let bitmap: Bitmap
        do {
            if let data {
                guard bytesPerRow == width * 4 || bytesPerRow == 0,
                    [.premultipliedLast, .noneSkipLast, .last].contains(alpha)
                else { return nil }
                bitmap = try Bitmap(wrapping: data, width: width, height: height)
            } else {
                bitmap = try Bitmap(width: width, height: height)
            }
        } catch { return nil }
        canvas = Canvas(bitmap: bitmap)
        pdf = nil
        canvas.concatenate(Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: Double(height)))
    }

    /// A PDF context writing to `target` (`CGContext(consumer:mediaBox:_:)`):
    /// it draws nothing until a page begins.
    init(pdf target: CGPDFTarget) {
        pdf = target
        canvas = CGPDFTarget.noPage()
    }

    deinit {
        // A PDF context's document is written when the context goes, if
        // `closePDF()` did not write it.
        pdf?.close()
    }

    /// Draws on `page` from now on, its base space `base` (a PDF page's
    /// y-up media box), with a graphics state of its own.
    func setPage(_ page: Canvas, base: Transform) {
        canvas = page
        canvas.concatenate(base)
        state = State()
        stack = []
        currentPath = StrataGraphics.Path()
        pathSpace = .identity
        shadowsGoDown = false
    }

    /// A context over `canvas` as it is, its transform taken as the base
    /// space (a layer's contents: y down, as Core Animation's contexts on
    /// iOS, and shadows going down for positive heights).
    package init(canvas: Canvas) {
        self.canvas = canvas
        pdf = nil
        shadowsGoDown = true
        // The CTM starts at the canvas's transform (its pixel density, say),
        // as a context Core Animation or UIKit hands out starts at its scale.
        state.ctm = CGAffineTransform(canvas.transform)
        pathSpace = state.ctm
    }

    // MARK: The bitmap

    // A PDF context has no bitmap: its sizes are 0, its data and image nil.
    public var width: Int { canvas.device == nil && pdf == nil ? canvas.bitmap.width : 0 }
    public var height: Int { canvas.device == nil && pdf == nil ? canvas.bitmap.height : 0 }
    public var bytesPerRow: Int { canvas.device == nil && pdf == nil ? canvas.bitmap.bytesPerRow : 0 }
    public var bitsPerComponent: Int { pdf == nil ? 8 : 0 }
    public var bitsPerPixel: Int { pdf == nil ? 32 : 0 }
    public var colorSpace: CGColorSpace? { pdf == nil ? .rgb : nil }
    /// The pixels: rows of R, G, B, A, premultiplied, top row first.
    public var data: UnsafeMutableRawPointer? { canvas.device == nil && pdf == nil ? canvas.bitmap.baseAddress : nil }

    /// An image of what the bitmap holds now (nil for a PDF context).
    public func makeImage() -> CGImage? { canvas.device == nil && pdf == nil ? CGImage(canvas.makeImage()) : nil }

    // MARK: Graphics state

    public func saveGState() {
        stack.append(state)
        canvas.saveGState()
    }

    /// Restores the state saved last; nothing when none is saved.
    public func restoreGState() {
        guard let saved = stack.popLast() else { return }
        state = saved
        canvas.restoreGState()
    }

    /// The current transform from user space to the context's base space.
    public var ctm: CGAffineTransform { state.ctm }

    /// `transform` first, then the current transform.
    public func concatenate(_ transform: CGAffineTransform) {
        applyPendingClip()
        state.ctm = transform.concatenating(state.ctm)
        canvas.concatenate(transform.strata)
    }

    public func translateBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(translationX: x, y: y)) }
    public func scaleBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(scaleX: x, y: y)) }
    public func rotate(by angle: CGFloat) { concatenate(CGAffineTransform(rotationAngle: angle)) }

    /// Inlined where it is called, and the colour consumed before the
    /// call it makes, so that a colour read out of an array is not
    /// retained and released around it (a borrowed argument would be
    /// kept alive across the call).
    @inlinable public func setFillColor(_ color: consuming CGColor) {
        let c = color.rgba
        _ = consume color
        setFillColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        canvas.fillColor = Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
    }
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { canvas.fillColor = Color(white: Double(gray), alpha: Double(alpha)) }

    /// Inlined as `setFillColor(_:)` is.
    @inlinable public func setStrokeColor(_ color: consuming CGColor) {
        let c = color.rgba
        _ = consume color
        setStrokeColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        canvas.strokeColor = Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
    }
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { canvas.strokeColor = Color(white: Double(gray), alpha: Double(alpha)) }

    public func setLineWidth(_ width: CGFloat) { canvas.lineWidth = Double(width) }
    public func setLineCap(_ cap: CGLineCap) {
        canvas.lineCap = cap.strata
    }
    public func setLineJoin(_ join: CGLineJoin) {
        canvas.lineJoin = join.strata
    }
    public func setMiterLimit(_ limit: CGFloat) { canvas.miterLimit = Double(limit) }
    /// Dashes of `lengths`, starting `phase` into them; an empty array: solid.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        canvas.setLineDash(phase: Double(phase), lengths: lengths.map(Double.init))
    }
    public func setAlpha(_ alpha: CGFloat) { canvas.alpha = Double(alpha) }
    public func setBlendMode(_ mode: CGBlendMode) {
        canvas.blendMode = mode.strata
    }
    public func setShouldAntialias(_ on: Bool) { canvas.shouldAntialias = on }
    public func setAllowsAntialiasing(_ on: Bool) { canvas.allowsAntialiasing = on }
    public func setFlatness(_ flatness: CGFloat) { canvas.flatness = Double(flatness) }
    public var interpolationQuality: CGInterpolationQuality {
        get {
            switch canvas.interpolationQuality {
            case .none: .none
            case .low: .low
            case .medium: .medium
            case .high: .high
            case .default: .default
            }
        }
        set { canvas.interpolationQuality = newValue.strata }
    }

    /// A shadow under what is drawn from now on: `offset` in base space
    /// (up for positive heights in a bitmap context, down in UIKit's),
    /// `blur` in pixels, `color` (nil: none).
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        let down = shadowsGoDown ? Double(offset.height) : -Double(offset.height)
        canvas.setShadow(offset: Size(width: Double(offset.width), height: down), blur: Double(blur), color: color?.strata)
    }

    /// A shadow of black at a third of opacity.
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3))
    }

    /// The matrix that places text (CoreText's lines draw through it).
    public var textMatrix: CGAffineTransform {
        get { state.textMatrix }
        set { state.textMatrix = newValue }
    }

    /// Where the next text is drawn, in text space.
    public var textPosition: CGPoint {
        get { CGPoint(x: state.textMatrix.tx, y: state.textMatrix.ty) }
        set { (state.textMatrix.tx, state.textMatrix.ty) = (newValue.x, newValue.y) }
    }

    public func beginTransparencyLayer(auxiliaryInfo: [String: Any]?) {
        applyPendingClip()
        canvas.beginTransparencyLayer()
    }
    public func endTransparencyLayer() { canvas.endTransparencyLayer() }

    /// Runs `body` on the canvas without retaining it for the call, as a
    /// `let` would be read: a retain and release per shape made a fill of
    /// small rectangles about 3 % slower than native `Canvas` calls.
    ///
    /// Safe because the canvas cannot go while `body` runs: the context
    /// holds it, and only `setPage(_:base:)` replaces it, which no `Canvas`
    /// method calls (bodies call only the canvas).
    @inline(__always) private func onCanvas<R>(_ body: (Canvas) -> R) -> R {
        Unmanaged.passUnretained(canvas)._withUnsafeGuaranteedRef(body)
    }

    /// Applies a clip that is pending to the canvas.
    @inline(__always) private func applyPendingClip() {
        guard let clip = state.pendingClip else { return }
        state.pendingClip = nil
        canvas.clip(to: clip.path, rule: clip.rule)
    }

    // MARK: The path

    /// Makes the path current in the transform current now: kept as is when
    /// the transform has not changed since it was begun (the usual case).
    private func pathInCurrentSpace() {
        guard pathSpace != state.ctm else { return }
        if !currentPath.isEmpty {
            let back = state.ctm.inverted()
            currentPath.apply(pathSpace.concatenating(back).strata)
        }
        pathSpace = state.ctm
    }

    public func beginPath() {
        currentPath = StrataGraphics.Path()
        pathSpace = state.ctm
    }

    public func move(to point: CGPoint) {
        pathInCurrentSpace()
        currentPath.move(to: point.strata)
    }

    public func addLine(to point: CGPoint) {
        pathInCurrentSpace()
        currentPath.addLine(to: point.strata)
    }

    public func addLines(between points: [CGPoint]) {
        pathInCurrentSpace()
        currentPath.addLines(between: points.map(\.strata))
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        pathInCurrentSpace()
        currentPath.addCurve(to: end.strata, control1: control1.strata, control2: control2.strata)
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        pathInCurrentSpace()
        currentPath.addQuadCurve(to: end.strata, control: control.strata)
    }

    public func addRect(_ rect: CGRect) {
        pathInCurrentSpace()
        currentPath.addRect(rect.strata)
    }

    public func addRects(_ rects: [CGRect]) { for r in rects { addRect(r) } }

    public func addEllipse(in rect: CGRect) {
        pathInCurrentSpace()
        currentPath.addEllipse(in: rect.strata)
    }

    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        pathInCurrentSpace()
        currentPath.addArc(
            center: center.strata, radius: Double(radius), startAngle: Double(startAngle), endAngle: Double(endAngle), clockwise: clockwise)
    }

    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        pathInCurrentSpace()
        currentPath.addArc(tangent1End: tangent1End.strata, tangent2End: tangent2End.strata, radius: Double(radius))
    }

    /// Adds `other` to the path (taken as it is, without copying, when the
    /// path is empty: Strata's paths share their storage until changed).
    public func addPath(_ other: CGPath) {
        pathInCurrentSpace()
        if currentPath.isEmpty {
            currentPath = other.path
        } else {
            currentPath.addPath(other.path)
        }
    }

    public func closePath() { currentPath.closeSubpath() }

    public var isPathEmpty: Bool { currentPath.isEmpty }

    /// The path's current point, in user space.
    public var currentPointOfPath: CGPoint {
        pathInCurrentSpace()
        return currentPath.currentPoint.map(CGPoint.init) ?? .zero
    }

    /// The box of the path's points, in user space (`.null` when empty).
    public var boundingBoxOfPath: CGRect {
        pathInCurrentSpace()
        return currentPath.isEmpty ? .null : CGRect(currentPath.boundingBox)
    }

    /// A copy of the path, in user space (nil when empty).
    public var path: CGPath? {
        pathInCurrentSpace()
        return currentPath.isEmpty ? nil : CGPath(currentPath)
    }

    /// Takes the path for drawing, leaving none (Core Graphics empties the
    /// path when it is drawn or clipped to).
    private func takePath() -> StrataGraphics.Path {
        pathInCurrentSpace()
        defer { beginPath() }
        return currentPath
    }

    // MARK: Drawing

    public func fillPath(using rule: CGPathFillRule = .winding) {
        applyPendingClip()
        let p = takePath()
        onCanvas { $0.fill(p, rule: rule.strata) }
    }

    public func strokePath() {
        applyPendingClip()
        let p = takePath()
        onCanvas { $0.stroke(p) }
    }

    public func drawPath(using mode: CGPathDrawingMode) {
        applyPendingClip()
        let p = takePath()
        onCanvas { canvas in
            switch mode {
            case .fill: canvas.fill(p, rule: .winding)
            case .eoFill: canvas.fill(p, rule: .evenOdd)
            case .stroke: canvas.stroke(p)
            case .fillStroke:
                canvas.fill(p, rule: .winding)
                canvas.stroke(p)
            case .eoFillStroke:
                canvas.fill(p, rule: .evenOdd)
                canvas.stroke(p)
            }
        }
    }

    /// Intersects the clip with the path (and empties it).
    public func clip(using rule: CGPathFillRule = .winding) {
        applyPendingClip()
        state.pendingClip = (takePath(), rule.strata)
    }

    public func clip(to rect: CGRect) {
        applyPendingClip()
        canvas.clip(to: rect.strata)
    }

    public func clip(to rects: [CGRect]) {
        applyPendingClip()
        var p = StrataGraphics.Path()
        for r in rects { p.addRect(r.strata) }
        canvas.clip(to: p)
    }

    /// The clip's bounds in user space.
    public var boundingBoxOfClipPath: CGRect {
        applyPendingClip()
        return CGRect(canvas.clipBoundingBox)
    }

    public func fill(_ rect: CGRect) {
        applyPendingClip()
        onCanvas { $0.fill(rect.strata) }
    }
    public func fill(_ rects: [CGRect]) {
        applyPendingClip()
        onCanvas { canvas in
            for r in rects { canvas.fill(r.strata) }
        }
    }
    public func stroke(_ rect: CGRect) {
        applyPendingClip()
        onCanvas { $0.stroke(rect.strata) }
    }
    public func stroke(_ rect: CGRect, width: CGFloat) {
        applyPendingClip()
        canvas.withSavedGState {
            canvas.lineWidth = Double(width)
            canvas.stroke(rect.strata)
        }
    }
    public func fillEllipse(in rect: CGRect) {
        applyPendingClip()
        onCanvas { $0.fillEllipse(in: rect.strata) }
    }
    public func strokeEllipse(in rect: CGRect) {
        applyPendingClip()
        onCanvas { $0.strokeEllipse(in: rect.strata) }
    }
    /// Strokes the segments between each pair of points.
    public func strokeLineSegments(between points: [CGPoint]) {
        applyPendingClip()
        let segments = points.map(\.strata)
        onCanvas { $0.strokeLineSegments(between: segments) }
    }
    /// Makes `rect` transparent.
    public func clear(_ rect: CGRect) {
        applyPendingClip()
        onCanvas { $0.clear(rect.strata) }
    }

    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        // Clipped to one path that lies within the gradient's band (or the
        // gradient extends both ways): the same pixels as the path filled
        // with the gradient, without a clip mask.
        if let clip = state.pendingClip,
            options.contains([.drawsBeforeStartLocation, .drawsAfterEndLocation])
                || Self.lies(clip.path.boundingBox, within: start.strata, end.strata)
        {
            canvas.fill(clip.path, with: .linearGradient(gradient.gradient, start: start.strata, end: end.strata), rule: clip.rule)
            return
        }
        applyPendingClip()
        canvas.drawLinearGradient(gradient.gradient, start: start.strata, end: end.strata, options: options.strata)
    }

    /// Whether every corner of `box` projects onto the segment from `a` to
    /// `b` between its ends.
    private static func lies(_ box: Rect, within a: Point, _ b: Point) -> Bool {
        let dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy
        guard length2 > 0, length2.isFinite else { return false }
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            let t = ((x - a.x) * dx + (y - a.y) * dy) / length2
            guard t >= 0, t <= 1 else { return false }
        }
        return true
    }

    public func drawRadialGradient(
        _ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat,
        options: CGGradientDrawingOptions
    ) {
        applyPendingClip()
        canvas.drawRadialGradient(
            gradient.gradient, startCenter: startCenter.strata, startRadius: Double(startRadius), endCenter: endCenter.strata,
            endRadius: Double(endRadius), options: options.strata)
    }

    /// Draws `image` into `rect`, its top row at the rectangle's top in a
    /// y-up space (so upside down under UIKit's flipped transform, as in
    /// Core Graphics).
    public func draw(_ image: CGImage, in rect: CGRect) {
        applyPendingClip()
        let r = rect.strata
        canvas.withSavedGState {
            canvas.concatenate(Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: r.minY + r.maxY))
            canvas.draw(image.image, in: r)
        }
    }

    /// Draws `image` into `rect` with its top row at the rectangle's minimum
    /// y, as the current transform has it (a layer rendered into a context:
    /// upright under UIKit's flip).
    package func drawUnflipped(_ image: Image, in rect: CGRect) {
        applyPendingClip()
        canvas.draw(image, in: rect.strata)
    }

    /// Runs `body` with the canvas under the context's current state (a
    /// pending clip applied): for the modules that draw text and layers
    /// into a context.
    package func withCanvas<R>(_ body: (Canvas) throws -> R) rethrows -> R {
        applyPendingClip()
        return try body(canvas)
    }
}
