internal import CPixels

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An immediate-mode drawing context over a `Bitmap` (`CGContext`).
///
/// User space starts out as device space: origin at the top left of the bitmap,
/// one unit per pixel, y growing down (as a `UIGraphicsImageRenderer` context).
/// The graphics state — transform, clip, alpha, blend mode and fill colour — is
/// saved and restored as a stack with `saveGState()` and `restoreGState()`.
///
/// ### Basic usage
/// ```swift
/// let canvas = try Canvas(width: 200, height: 100)
/// canvas.fillColor = .white
/// canvas.fill(canvas.bounds)
/// canvas.fillColor = Color(red: 0.1, green: 0.5, blue: 0.9)
/// canvas.fillEllipse(in: Rect(x: 20, y: 20, width: 60, height: 60))
/// try canvas.makeImage().writePNG(to: "out.png")
/// ```
///
/// A canvas is used from one thread at a time (it is not `Sendable`); make one per
/// thread, and pass the `Image` it makes between threads.
///
/// Paths with a NaN or infinite coordinate (after the transform) are not drawn at
/// all: a fill of such a path leaves the bitmap unchanged. Finite coordinates of
/// any size are clipped exactly.
public final class Canvas {
    /// The bitmap drawn into (a one-pixel placeholder on a vector canvas).
    public let bitmap: Bitmap
    /// Where a vector canvas's drawing goes (`Canvas(device:)`); nil for a
    /// canvas over pixels.
    public let device: (any VectorDevice)?
    /// Where drawing goes now: `bitmap`, or the innermost transparency layer.
    @exclusivity(unchecked) var target: Bitmap {
        didSet { targetPixels = PixelTarget(target) }
    }
    /// `target`'s pixels, which blitters are made with (`PixelTarget`).
    @exclusivity(unchecked) private(set) var targetPixels: PixelTarget
    /// The transparency layers begun and not yet ended, innermost last.
    @exclusivity(unchecked) var layers: [(target: Bitmap, depth: Int)] = []

    struct GState {
        var transform = Transform.identity
        /// Every pixel drawn lies in this box.
        var clip: PixelBox
        /// The box as it would be without the row limit (`limitRows(to:)`):
        /// shapes are rasterized over it, so that each row drawn comes out
        /// as a drawing of every row gives it. `clip` is this box cut to the
        /// limit's rows (widened, while a shadow's scratch drawing or a
        /// shadowed transparency layer is drawn, by the rows the shadow
        /// reaches: `shadowSource`); without a limit, the two are the same.
        var rasterClip = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        /// Within the box, each pixel's share of the clip (anti-aliased path
        /// clips); nil when the clip is the box alone.
        var clipMask: ClipMask?
        var alpha = 1.0
        var blendMode = BlendMode.normal
        var fillColor = Color.black
        var strokeColor = Color.black
        var strokeStyle = StrokeStyle()
        var interpolationQuality = InterpolationQuality.default
        var shadow: Shadow?
        var shouldAntialias = true
        var flatness = 0.1
        /// The clips in force on a vector canvas, and the page's box (whole
        /// points) narrowed by them. (A vector canvas's `clip` box stays
        /// within its one-pixel placeholder, empty once everything is
        /// clipped away, so nothing rasterized can reach past it.)
        var vectorClips: [VectorClip] = []
        var vectorBox = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
    }

    /// The graphics state. Its accesses are not checked for exclusivity at
    /// run time: a canvas is used from one thread, no access to it overlaps
    /// another, and the checks cost a tenth of a small fill (the optimizer
    /// stopped removing them once vector devices could be called from it).
    /// The same holds for the target, the state stack and the stroke
    /// bookkeeping below, read on every stroke.
    var state: GState {
        unsafeAddress { UnsafePointer(current) }
        unsafeMutableAddress { current }
    }
    /// The graphics states in one buffer: those saved (`saveGState()`),
    /// oldest first, then the one in force (`state`, at `current`). Saving
    /// copies the state in force into the next place and restoring
    /// destroys it: one copy a pair. Kept as an array beside a stored
    /// state, a pair copied the state (some 400 bytes) three times, through
    /// the stack in overlapping pieces whose reloads the processor could
    /// not forward: 97-138 ns a pair, against 31-40 ns this way
    /// (`strata-bench calls`, Benchmarks/RESULTS.md).
    @exclusivity(unchecked) private var states: UnsafeMutablePointer<GState>
    @exclusivity(unchecked) private var current: UnsafeMutablePointer<GState>
    @exclusivity(unchecked) private var stateRoom: Int
    /// How many graphics states are saved.
    var savedCount: Int { current - states }
    /// Fills, clips, and strokes too dense for the stroke rasterizer's
    /// budget. Its own, or another canvas's on the same thread
    /// (`init(width:height:sharingRasterizersWith:)`).
    let areaRasterizer: AreaRasterizer
    /// Strokes, and fills without anti-aliasing; made on first use (a
    /// stored optional rather than a `lazy var`, so that its accesses can
    /// skip the exclusivity checks too).
    var strokeRasterizer: StrokeRasterizer {
        if let made = madeStrokeRasterizer { return made }
        let made = StrokeRasterizer()
        madeStrokeRasterizer = made
        return made
    }
    @exclusivity(unchecked) private var madeStrokeRasterizer: StrokeRasterizer?
    /// Where long strokes' pieces are shared with the other bands of a
    /// frame drawn on several threads (`BandRenderer`), or nil.
    @exclusivity(unchecked) var strokeShare: StrokeShare?
    /// The strokes asked for since the count was last reset: their numbers
    /// in `strokeShare`.
    @exclusivity(unchecked) var strokeCount = 0
    /// The path `fill(polygon:)`, `fill(roundedRect:…)` and their strokes
    /// build their shape in, kept from call to call so that a shape costs
    /// no allocation (where the previous one is still held, by a recorded
    /// frame or a document, building the next makes a new path as usual).
    @usableFromInline @exclusivity(unchecked) var shapePath = Path()
    /// Verbs a piece of a long stroke (`StrokePieces`), or nil for
    /// `StrokePieces.size(verbs:)`; tests change it.
    @exclusivity(unchecked) var strokePieceSize: Int? = nil
    /// Room for the sources of 256 pixels, for gradient and pattern
    /// blitters, and after them for the coverage bytes of a row swept at
    /// once (`ShaderBlitter.coverageBytes`).
    let shaderScratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 256 + ShaderBlitter<GradientShader>.coverageBytes / 4)
    /// Room for 256 coverage values, for drawing through a clip mask.
    let maskScratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    /// The gradient table the last gradient drawn used, set up again for
    /// the next (`gradientTable(_:alpha:)`). Without run-time exclusivity
    /// checks: a canvas draws on one thread, and no access outlasts a call.
    @exclusivity(unchecked) private var spareTable: LookupTable?

    /// The largest distance, in device pixels, between a curve and the lines that
    /// stand for it when it is filled or stroked (`setFlatness`), 0.1 by
    /// default; part of the graphics state, so `restoreGState()` restores it.
    /// Values are kept within 0.001 ... 1000; NaN counts as the default.
    public var flatness: Double {
        get { state.flatness }
        set { state.flatness = newValue.isNaN ? 0.1 : min(1000, max(0.001, newValue)) }
    }

    /// Whether anti-aliasing may be used at all (`setAllowsAntialiasing`), true
    /// by default. Not part of the graphics state: saving and restoring it does
    /// not change it. Shapes are anti-aliased when both this and
    /// `shouldAntialias` are true.
    @exclusivity(unchecked) public var allowsAntialiasing = true

    /// Whether fills, strokes, clips and the edges of drawn images are
    /// anti-aliased (`setShouldAntialias`), true by default; part of the graphics
    /// state. Without anti-aliasing a pixel is covered, wholly, when its centre
    /// lies inside the shape (Core Graphics' rule; a centre exactly on a left or
    /// top edge is inside, on a right or bottom edge outside), so edges are hard
    /// and no pixel is partly covered. Lines thinner than a pixel are drawn one
    /// pixel wide and solid rather than faded. Text keeps its own smoothing.
    public var shouldAntialias: Bool {
        get { state.shouldAntialias }
        set { state.shouldAntialias = newValue }
    }

    /// Whether the shapes drawn now are anti-aliased.
    var antialiasing: Bool { state.shouldAntialias && allowsAntialiasing }

    /// A canvas drawing into `bitmap`.
    public convenience init(bitmap: Bitmap) {
        self.init(bitmap: bitmap, device: nil)
    }

    init(bitmap: Bitmap, device: (any VectorDevice)?, sharingRasterizersWith other: Canvas? = nil) {
        self.bitmap = bitmap
        self.device = device
        target = bitmap
        targetPixels = PixelTarget(bitmap)
        areaRasterizer = other?.areaRasterizer ?? AreaRasterizer()
        madeStrokeRasterizer = other?.strokeRasterizer
        var initial: GState
        if let device {
            // The page in whole points (held to what a box can hold).
            func held(_ v: Double) -> Int { v.isFinite ? Int(max(0, min(16_777_216, v.rounded(.up)))) : 0 }
            initial = GState(clip: PixelBox(x0: 0, y0: 0, x1: 1, y1: 1))
            initial.vectorBox = PixelBox(x0: 0, y0: 0, x1: held(device.size.width), y1: held(device.size.height))
            if initial.vectorBox.isEmpty { initial.clip = initial.vectorBox }
        } else {
            initial = GState(clip: PixelBox(x0: 0, y0: 0, x1: bitmap.width, y1: bitmap.height))
        }
        initial.rasterClip = initial.clip
        stateRoom = 8
        states = .allocate(capacity: stateRoom)
        states.initialize(to: initial)
        current = states
    }

    deinit {
        states.deinitialize(count: savedCount + 1)
        states.deallocate()
        shaderScratch.deallocate()
        maskScratch.deallocate()
    }

    /// A canvas over a new transparent bitmap of the given size.
    /// - Throws: `GraphicsError.invalidSize` for negative or oversized dimensions.
    public convenience init(width: Int, height: Int) throws(GraphicsError) {
        self.init(bitmap: try Bitmap(width: width, height: height))
    }

    /// Gives back the memory the stroke rasterizer grew for very long
    /// outlines (keeping what usual drawings need), for a canvas kept from
    /// one frame to the next: without it, one frame's 100,000-point chart
    /// line would hold tens of megabytes until the canvas goes.
    package func trimScratch() {
        madeStrokeRasterizer?.reset()
    }

    /// A canvas over a new transparent bitmap that scan-converts with
    /// `other`'s rasterizers (their buffers, grown to the largest shape
    /// either has drawn), rather than allocating and clearing its own: for
    /// an offscreen canvas drawn and let go while `other` is not drawing,
    /// on `other`'s thread (the compositor's groups). The rasterizers leave
    /// their buffers clear after every shape, so neither canvas sees the
    /// other's drawing. With `other` nil, rasterizers of its own.
    /// - Throws: `GraphicsError.invalidSize` for negative or oversized dimensions.
    package convenience init(width: Int, height: Int, sharingRasterizersWith other: Canvas?) throws(GraphicsError) {
        self.init(bitmap: try Bitmap(width: width, height: height), device: nil, sharingRasterizersWith: other)
    }

    /// The bitmap's rectangle in device space (a vector canvas's page, in
    /// points).
    public var bounds: Rect {
        guard let device else { return bitmap.bounds }
        return Rect(x: 0, y: 0, width: device.size.width, height: device.size.height)
    }

    /// An immutable copy of the pixels drawn so far.
    public func makeImage() -> Image { bitmap.makeImage() }

    // MARK: Graphics state

    /// The colour used by fills.
    public var fillColor: Color {
        get { state.fillColor }
        set { state.fillColor = newValue }
    }

    /// A factor, 0...1, applied to the alpha of everything drawn (`setAlpha`).
    /// Values outside 0...1 are clamped; NaN counts as 0.
    public var alpha: Double {
        get { state.alpha }
        set { state.alpha = newValue >= 1 ? 1 : (newValue > 0 ? newValue : 0) }
    }

    /// How drawing combines with the bitmap (`setBlendMode`).
    public var blendMode: BlendMode {
        get { state.blendMode }
        set { state.blendMode = newValue }
    }

    /// The current transform from user space to device space (`ctm`).
    public var transform: Transform { state.transform }

    /// Pushes a copy of the graphics state.
    public func saveGState() {
        if savedCount + 1 == stateRoom {
            let room = 2 * stateRoom, moved = UnsafeMutablePointer<GState>.allocate(capacity: room)
            let count = savedCount + 1
            moved.moveInitialize(from: states, count: count)
            states.deallocate()
            states = moved
            current = moved + (count - 1)
            stateRoom = room
        }
        (current + 1).initialize(from: current, count: 1)
        current += 1
    }

    /// Drops the state in force for the one saved last (none must be left
    /// to layers: `restoreGState()` checks).
    func popGState() {
        guard current > states else { return }
        current.deinitialize(count: 1)
        current -= 1
    }

    /// Pops the graphics state saved last. Does nothing when none is saved (Core
    /// Graphics logs an error there).
    public func restoreGState() {
        // A transparency layer's own save is undone only by its end.
        if let layer = layers.last, savedCount <= layer.depth { return }
        popGState()
    }

    /// Runs `body` between `saveGState()` and `restoreGState()`.
    public func withSavedGState<R>(_ body: () throws -> R) rethrows -> R {
        saveGState()
        defer { restoreGState() }
        return try body()
    }

    /// Applies `t` before the current transform (`concatenate`).
    public func concatenate(_ t: Transform) { apply(t) }

    // (Each made in place: a transform handed to `concatenate` goes through
    // memory, six doubles stored one by one and loaded in pairs, which the
    // processor cannot forward: a rotated shape's three calls cost 45 ns.)
    public func translateBy(x: Double, y: Double) { apply(Transform(translationX: x, y: y)) }
    public func scaleBy(x: Double, y: Double) { apply(Transform(scaleX: x, y: y)) }
    /// Rotates user space by `angle` radians (+x toward +y: clockwise on screen).
    public func rotate(by angle: Double) { apply(Transform(rotationAngle: angle)) }

    @inline(__always) private func apply(_ t: Transform) {
        state.transform = t.concatenating(state.transform)
    }

    /// The clip's bounding box in user space (`boundingBoxOfClipPath`).
    public var clipBoundingBox: Rect {
        // Without the row limit (`limitRows(to:)`): what the drawing is clipped
        // to, whichever band of it this canvas draws.
        let c = device == nil ? (state.clip.isEmpty ? state.clip : state.rasterClip) : state.vectorBox
        guard !c.isEmpty else { return .null }
        let device = Rect(x: Double(c.x0), y: Double(c.y0), width: Double(c.width), height: Double(c.height))
        guard let inverse = state.transform.inverted() else { return .null }
        return device.applying(inverse)
    }

    /// Limits drawing to device rows `rows`, so that several canvases on one
    /// bitmap can each draw a band of the same picture (on threads of their
    /// own): every pixel in the rows comes out exactly as it does when the
    /// whole picture is drawn by one canvas. Shapes are rasterized over the
    /// area they would have without the limit, and only its rows are
    /// written. Part of the graphics state, like a clip; the clips made
    /// afterwards keep it. `clipBoundingBox` and `clipCoverage(x:y:)` answer
    /// as without the limit, so that a drawing that asks them draws the same
    /// thing in every band. Does nothing on a vector canvas.
    package func limitRows(to rows: Range<Int>) {
        guard device == nil else { return }
        let c = state.clip
        state.clip = PixelBox(x0: c.x0, y0: max(c.y0, rows.lowerBound), x1: c.x1, y1: min(c.y1, rows.upperBound))
        if state.clip.isEmpty { clipEverything() }
    }

    /// The device rows this canvas can draw into now (its clip's, which
    /// holds the row limit): what a drawing that works out its pixels row by
    /// row (a shadow's blur) need work out. Empty when everything is clipped.
    package var drawnRows: Range<Int> {
        let c = state.clip
        return c.isEmpty ? 0..<0 : c.y0..<c.y1
    }

    /// Back to the initial graphics state of a canvas on the whole bitmap,
    /// then `limitRows(to: rows)`: a band canvas whose band moved
    /// (`BandRenderer`), between pictures.
    func resetRowLimit(to rows: Range<Int>) {
        guard device == nil else { return }
        state = GState(clip: PixelBox(x0: 0, y0: 0, x1: bitmap.width, y1: bitmap.height))
        state.rasterClip = state.clip
        limitRows(to: rows)
    }

    /// Where a shape whose device bounds are (`x0`, `y0`) to (`x1`, `y1`)
    /// (already whole pixels) is rasterized: `area`, within the raster clip,
    /// and of it the `rows` drawn (those in the clip). Nil when none is.
    func rasterArea(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> (area: PixelBox, rows: Range<Int>)? {
        let area = Canvas.pixelBox(x0, y0, x1, y1, within: state.rasterClip)
        let c = state.clip
        let top = max(area.y0, c.y0), bottom = min(area.y1, c.y1)
        guard !area.isEmpty, top < bottom, max(area.x0, c.x0) < min(area.x1, c.x1) else { return nil }
        return (area, top..<bottom)
    }

    /// Clamps device coordinates into `box`, turning them into whole pixels.
    static func pixelBox(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, within box: PixelBox) -> PixelBox {
        func clamp(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
            v <= Double(lo) ? lo : (v >= Double(hi) ? hi : Int(v))
        }
        return PixelBox(
            x0: clamp(x0, box.x0, box.x1), y0: clamp(y0, box.y0, box.y1),
            x1: clamp(x1, box.x0, box.x1), y1: clamp(y1, box.y0, box.y1))
    }

    /// Runs `body` with the blitter for `paint` (nil: the solid `color`), under the
    /// current alpha (times `alphaFactor`), blend mode and clip mask. Runs nothing
    /// when nothing would change: a transparent colour drawn source-over, a
    /// gradient without stops, or a gradient under a transform that cannot be
    /// inverted.
    ///
    /// `body` is generic over the blitter, so each drawing operation's inner loops
    /// are specialized for the blitter they get and never dispatch; a colour
    /// takes no detour through `Paint` at all. (Routing every span through an enum
    /// of blitters measured 8–40 % slower on the fill scenes.)
    @inline(__always)
    func withBlitter<Body: CoverageSource>(_ paint: Paint?, color: Color, alphaFactor: Double = 1, _ body: Body) {
        var c = color
        if let paint {
            switch paint {
            case .color(let given):
                c = given
            case let .pattern(image, transform, spread):
                prefetchRows(body)
                withImageShader(image, imageToUser: transform, alpha: state.alpha * alphaFactor, spread: spread) { blitter in
                    run(body, inPlace: &blitter)
                }
                return
            default:
                prefetchRows(body)
                withShaderBlitter(paint, alpha: state.alpha * alphaFactor) { blitter in run(body, inPlace: &blitter) }
                return
            }
        }
        c.alpha *= state.alpha * alphaFactor
        let blitter = SolidBlitter(pixels: targetPixels, color: c.premultipliedPixel, mode: state.blendMode)
        if !blitter.isNoOp { run(body, blitter) }
    }

    /// A small shape's rows asked for before its shaded paint is set up (a
    /// gradient's table made, a pattern's image placed), so that the cache
    /// misses of its first pixels overlap that work: in an 8-pixel radial
    /// rectangle, a third of its rows' time was the wait for them. (For a
    /// colour, with nothing to set up, asking for them measured no faster;
    /// the cell rasterizer asks for its small bands' rows when they begin.)
    @inline(__always)
    func prefetchRows<Body: CoverageSource>(_ body: Body) {
        guard let box = body.drawnBox, box.x0 < box.x1, box.y0 < box.y1, box.width * box.height <= 4096,
            box.x0 >= 0, box.y0 >= 0, box.x1 <= bitmap.width, box.y1 <= bitmap.height
        else { return }
        strata_prefetch_rows(
            targetPixels.base + box.y0 * targetPixels.bytesPerRow + box.x0 * 4, targetPixels.bytesPerRow,
            box.width * 4, box.height)
    }

    /// `run` on a blitter the caller holds (no copy made of it).
    @inline(__always)
    func run<Body: CoverageSource, B: SpanBlitter>(_ body: Body, inPlace blitter: inout B) {
        if let mask = state.clipMask {
            var masked = MaskedBlitter(inner: blitter, mask: mask, scratch: maskScratch)
            body.draw(&masked)
        } else {
            body.draw(&blitter)
        }
    }

    @inline(__always)
    func run<Body: CoverageSource, B: SpanBlitter>(_ body: Body, _ blitter: B) {
        var plain = blitter
        run(body, inPlace: &plain)
    }

    /// Runs `body` with the shaded blitter for a gradient paint (`before`
    /// and `after` as `GradientShader`'s; nil: the paint's own, both true);
    /// runs nothing when it draws nothing (no stops, a NaN or infinite point
    /// or radius, or a transform with no inverse). The blitter is made where
    /// `body` takes it: handed back as an optional, its 146 bytes were copied
    /// three times (`memcpy`) right after being stored field by field, each
    /// copy's wide loads waiting on those narrow stores (a twelfth of an
    /// 8-pixel linear rectangle's time).
    @inline(__always)
    func withShaderBlitter(
        _ paint: Paint, alpha: Double, ends: (before: Bool, after: Bool)? = nil,
        _ body: (inout ShaderBlitter<GradientShader>) -> Void
    ) {
        switch paint {
        case .color, .pattern:
            return
        case let .linearGradient(gradient, start, end, spread):
            guard start.isFinite, end.isFinite else { return }
            withGradientBlitter(gradient, alpha: alpha, spread: spread, ends: ends, body) { inverse in
                let vx = end.x - start.x, vy = end.y - start.y
                let l2 = vx * vx + vy * vy
                // Coincident ends: everything is past the end.
                guard l2 > 0, l2.isFinite else { return .linear(a: 0, b: 0, c: .infinity) }
                // t = ((inverse · p) − start) · v / |v|², affine in device p.
                return .linear(
                    a: (inverse.a * vx + inverse.b * vy) / l2, b: (inverse.c * vx + inverse.d * vy) / l2,
                    c: ((inverse.tx - start.x) * vx + (inverse.ty - start.y) * vy) / l2)
            }
        case let .radialGradient(gradient, c0, r0, c1, r1, spread):
            guard c0.isFinite, c1.isFinite, r0.isFinite, r1.isFinite else { return }
            withGradientBlitter(gradient, alpha: alpha, spread: spread, ends: ends, body) { inverse in
                .radial(inverse: inverse, c0: c0, r0: max(0, r0), c1: c1, r1: max(0, r1))
            }
        case let .conicGradient(gradient, center, angle):
            guard center.isFinite else { return }
            withGradientBlitter(gradient, alpha: alpha, spread: .pad, ends: ends, body) { inverse in
                .conic(inverse: inverse, center: center, angle: angle.isFinite ? angle : 0)
            }
        }
    }

    /// A lookup table for `gradient` at `alpha`: the canvas's spare one set
    /// up again when nothing else holds it (a gradient drawn while another's
    /// shader is alive gets one of its own).
    private func gradientTable(_ gradient: Gradient, alpha: Double) -> LookupTable {
        if spareTable != nil, isKnownUniquelyReferenced(&spareTable!) {
            spareTable!.reset(gradient, alpha: alpha)
            return spareTable!
        }
        let table = LookupTable(gradient, alpha: alpha)
        spareTable = table
        return table
    }

    /// `withShaderBlitter`'s blitter as a value (for tests), or nil where
    /// it draws nothing.
    func shaderBlitter(_ paint: Paint, alpha: Double) -> ShaderBlitter<GradientShader>? {
        var made: ShaderBlitter<GradientShader>?
        withShaderBlitter(paint, alpha: alpha) { made = $0 }
        return made
    }

    /// `withShaderBlitter`'s blitter for `gradient`, its geometry from the
    /// inverse of the current transform.
    @inline(__always)
    func withGradientBlitter(
        _ gradient: Gradient, alpha: Double, spread: GradientSpread, ends: (before: Bool, after: Bool)?,
        _ body: (inout ShaderBlitter<GradientShader>) -> Void, _ geometry: (Transform) -> GradientShader.Geometry
    ) {
        guard !gradient.stops.isEmpty, let inverse = state.transform.inverted() else { return }
        let shader = GradientShader(
            table: gradientTable(gradient, alpha: alpha), geometry: geometry(inverse),
            spread: ends == nil ? spread : .pad, before: ends?.before ?? true, after: ends?.after ?? true)
        var blitter = ShaderBlitter(shader: shader, pixels: targetPixels, mode: state.blendMode, scratch: shaderScratch)
        body(&blitter)
    }

    // MARK: Filling

    /// Fills `path` with the fill colour, using `rule` where subpaths overlap.
    ///
    /// Open subpaths are closed with a straight line for filling. Anti-aliasing is
    /// exact-area: each pixel is covered in proportion to the part of its square
    /// inside the path. A path with a NaN or infinite coordinate draws nothing.
    public func fill(_ path: Path, rule: FillRule = .winding) {
        fillPath(path, nil, rule)
    }

    /// Fills `path` with `paint` (a colour or a gradient), as `fill(_:rule:)`.
    @inlinable
    public func fill(_ path: Path, with paint: Paint, rule: FillRule = .winding) {
        if case .color(let color) = paint { fillPath(path, color: color, rule) } else { fillPath(path, paint, rule) }
    }

    // A `.color` paint is drawn as the fill or stroke colour is: the public
    // calls taking a `Paint` are inlined into their callers and pass a
    // colour on as four numbers, its shape drawn under it as the state's
    // colour (`withFillColor`, `withStrokeColor`), so that nothing carries a
    // `Paint` through the call. (Built by the caller and copied to the call
    // a byte-tagged enum of 89 bytes, a colour paint cost an 8-pixel
    // rectangle a fifth of its time: the copy's wide load stalled on the
    // tag's narrow store.)

    /// `body` drawn with `color` as the fill colour.
    @inline(__always)
    func withFillColor(_ color: Color, _ body: () -> Void) {
        let saved = state.fillColor
        state.fillColor = color
        body()
        state.fillColor = saved
    }

    /// `body` drawn with `color` as the stroke colour.
    @inline(__always)
    func withStrokeColor(_ color: Color, _ body: () -> Void) {
        let saved = state.strokeColor
        state.strokeColor = color
        body()
        state.strokeColor = saved
    }

    @usableFromInline
    func fillPath(_ path: Path, color: Color, _ rule: FillRule) { withFillColor(color) { fillPath(path, nil, rule) } }

    @usableFromInline
    func fillPath(_ path: Path, _ paint: Paint?, _ rule: FillRule) {
        guard !state.clip.isEmpty, !path.isEmpty else { return }
        if let device {
            guard let (x0, y0, x1, y1) = Canvas.deviceBounds(path, state.transform) else { return }
            if needsRaster(paint, device: device) {
                return drawRasterized(over: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), .fill(path, paint, rule))
            }
            return device.fill(path, rule: rule, paint: paint ?? .color(state.fillColor), state: vectorState)
        }
        if state.shadow != nil { return withShadow { fillPath(path, paint, rule) } }
        // Device-space bounds of the control points; also the NaN/∞ check.
        guard let (x0, y0, x1, y1) = Canvas.deviceBounds(path, state.transform) else { return }
        // Lines left of the area still count (they set the winding of what lies to
        // their right): the rasterizer folds them onto the area's left edge.
        guard let (area, rows) = rasterArea(x0.rounded(.down), y0.rounded(.down), x1.rounded(.up), y1.rounded(.up)) else { return }
        withBlitter(paint, color: state.fillColor, pathCoverage(path, rule, area, rows: rows))
    }

    /// The coverage of `path` over `area` (device pixels), drawn in `rows`,
    /// with the current transform, flatness and anti-aliasing.
    func pathCoverage(_ path: Path, _ rule: FillRule, _ area: PixelBox, rows: Range<Int>) -> PathCoverage {
        PathCoverage(
            path: path, transform: state.transform, tolerance: flatness, rule: rule, area: area, rows: rows,
            areaRasterizer: areaRasterizer, aliasedRasterizer: antialiasing ? nil : strokeRasterizer)
    }

    /// The bounds of `path`'s points (control points included) after `t`, or nil
    /// when one of them is NaN or infinite there.
    static func deviceBounds(_ path: Path, _ t: Transform) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        path.points.withUnsafeBufferPointer { deviceBounds($0, t) }
    }

    /// The bounds of `points` after `t`, or nil when one of them is NaN or
    /// infinite there.
    static func deviceBounds(
        _ points: UnsafeBufferPointer<Point>, _ t: Transform
    ) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        // Without a branch a point (which way each comparison goes is
        // unpredictable for a shape's vertices): v − v is 0 for a finite v and
        // NaN for an infinite or NaN one, and so is their sum.
        var check = 0.0
        for p in points {
            let x = t.a * p.x + t.c * p.y + t.tx, y = t.b * p.x + t.d * p.y + t.ty
            check += (x - x) + (y - y)
            x0 = x < x0 ? x : x0
            x1 = x > x1 ? x : x1
            y0 = y < y0 ? y : y0
            y1 = y > y1 ? y : y1
        }
        return check == 0 ? (x0, y0, x1, y1) : nil
    }

    /// Fills `rect` (in user space) with the fill colour.
    ///
    /// Under a transform without rotation or shear this takes a fast path that
    /// computes each pixel's covered area directly. Infinite edges reach to the
    /// clip; a NaN coordinate draws nothing.
    public func fill(_ rect: Rect) {
        fillRect(rect, nil)
    }

    /// Fills `rect` (in user space) with `paint`, as `fill(_:)`.
    @inlinable
    public func fill(_ rect: Rect, with paint: Paint) {
        if case .color(let color) = paint { fillRect(rect, color: color) } else { fillRect(rect, paint) }
    }

    @usableFromInline
    func fillRect(_ rect: Rect, color: Color) {
        if fillWholePixels(rect, color) { return }
        withFillColor(color) { fillRectBody(rect, nil) }
    }

    /// A colour rectangle whose device edges fall on whole pixels inside
    /// the clip box, under a transform without rotation, drawn source over
    /// with no clip mask, shadow or vector device: handed to the colour's
    /// blitter at once, as `RectCoverage` hands it every such rectangle
    /// (`blitRectRows`, every pixel covered), so the same bytes, without
    /// the paint's set-up and the coverage source's (a fifth of an 8-pixel
    /// square's time). False, nothing drawn, for any other: a rectangle
    /// between pixels told at its first edge, at the cost of two additions
    /// (`nearestWhole`; NaN and values past ±2⁵¹ fail the clip box after).
    @inline(__always)
    private func fillWholePixels(_ rect: Rect, _ color: Color) -> Bool {
        let t = state.transform
        var x0 = t.a * rect.minX + t.tx
        guard x0.nearestWhole == x0, t.b == 0, t.c == 0 else { return false }
        var x1 = t.a * rect.maxX + t.tx, y0 = t.d * rect.minY + t.ty, y1 = t.d * rect.maxY + t.ty
        guard x1.nearestWhole == x1, y0.nearestWhole == y0, y1.nearestWhole == y1, device == nil, state.shadow == nil,
            state.clipMask == nil, state.blendMode == .normal
        else { return false }
        if x0 > x1 { swap(&x0, &x1) }
        if y0 > y1 { swap(&y0, &y1) }
        let c = state.clip
        guard x0 >= Double(c.x0), y0 >= Double(c.y0), x1 <= Double(c.x1), y1 <= Double(c.y1) else { return false }
        let ix0 = Int(x0), iy0 = Int(y0), ix1 = Int(x1), iy1 = Int(y1)
        guard ix1 > ix0, iy1 > iy0 else { return true }
        var fill = color
        fill.alpha *= state.alpha
        var blitter = SolidBlitter(pixels: targetPixels, color: fill.premultipliedPixel, mode: .normal)
        if !blitter.isNoOp { RectCoverage.drawWhole(&blitter, x0: ix0, y0: iy0, x1: ix1, y1: iy1) }
        return true
    }

    @usableFromInline
    func fillRect(_ rect: Rect, _ paint: Paint?) { fillRectBody(rect, paint) }

    /// `fillRect(_:_:)`, inlined into both entries: with the paint a
    /// constant nil (a colour), nothing of the optional paint is made. (Passed
    /// in memory, the nil paint's 89 bytes were copied on entry, their last
    /// load waiting on the caller's one-byte store of the tag: a twelfth of
    /// an 8-pixel solid square's time.)
    @inline(__always)
    private func fillRectBody(_ rect: Rect, _ paint: Paint?) {
        guard !rect.isNull, !state.clip.isEmpty else { return }
        if let device {
            let r = rect.standardized
            // A rectangle goes to the device as one (no path is made): but
            // for what the device draws as an image, or edges not finite.
            guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite, !needsRaster(paint, device: device) else {
                return fillPath(Path(rect: rect), paint, .winding)
            }
            guard r.width > 0, r.height > 0 else { return }
            return device.fill(r, paint: paint ?? .color(state.fillColor), state: vectorState)
        }
        if state.shadow != nil { return withShadow { fillRect(rect, paint) } }
        let t = state.transform
        guard t.isRectilinear else {
            // Turned or sheared: its corners as a polygon, in `Path(rect:)`'s
            // order (no path made for each rectangle).
            let (x0, y0) = (rect.origin.x, rect.origin.y)
            let (x1, y1) = (x0 + rect.width, y0 + rect.height)
            withUnsafeTemporaryAllocation(of: Point.self, capacity: 4) { corners in
                corners[0] = Point(x: x0, y: y0)
                corners[1] = Point(x: x1, y: y0)
                corners[2] = Point(x: x1, y: y1)
                corners[3] = Point(x: x0, y: y1)
                fillPolygon(UnsafeBufferPointer(corners), paint, .winding)
            }
            return
        }
        guard let edges = deviceEdges(rect), let body = clippedRect(edges) else { return }
        withBlitter(paint, color: state.fillColor, body)
    }

    /// The device edges (ordered) of `rect` under the current transform, which
    /// must have no rotation or shear; nil when one is NaN. Without
    /// anti-aliasing they are moved to whole pixels by the pixel-centre rule:
    /// pixel i is inside when x0 ≤ i + ½ < x1, that is from ⌈x0 − ½⌉ to ⌈x1 − ½⌉.
    func deviceEdges(_ rect: Rect) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        let t = state.transform
        var x0 = t.a * rect.minX + t.tx, x1 = t.a * rect.maxX + t.tx
        var y0 = t.d * rect.minY + t.ty, y1 = t.d * rect.maxY + t.ty
        if x0 > x1 { swap(&x0, &x1) }
        if y0 > y1 { swap(&y0, &y1) }
        guard !(x0.isNaN || x1.isNaN || y0.isNaN || y1.isNaN) else { return nil }
        if !antialiasing {
            x0 = (x0 - 0.5).rounded(.up); x1 = (x1 - 0.5).rounded(.up)
            y0 = (y0 - 0.5).rounded(.up); y1 = (y1 - 0.5).rounded(.up)
        }
        return (x0, y0, x1, y1)
    }

    /// Device edges cut to the clip box, as a fill; nil when nothing is left.
    func clippedRect(_ e: (x0: Double, y0: Double, x1: Double, y1: Double)) -> RectCoverage? {
        let c = state.clip
        let x0 = max(e.x0, Double(c.x0)), x1 = min(e.x1, Double(c.x1))
        let y0 = max(e.y0, Double(c.y0)), y1 = min(e.y1, Double(c.y1))
        guard x0 < x1, y0 < y1 else { return nil }
        return RectCoverage(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Fills the ellipse inscribed in `rect` (in user space) with the fill colour.
    ///
    /// Under a transform without rotation or shear the ellipse is scan-converted
    /// directly as a polygon with enough sides to stay within `flatness` of the
    /// curve, its vertices pushed out so that its area equals the ellipse's.
    public func fillEllipse(in rect: Rect) {
        fillEllipse(rect, nil)
    }

    /// Fills the ellipse inscribed in `rect` with `paint`, as `fillEllipse(in:)`.
    @inlinable
    public func fillEllipse(in rect: Rect, with paint: Paint) {
        if case .color(let color) = paint { fillEllipse(rect, color: color) } else { fillEllipse(rect, paint) }
    }

    @usableFromInline
    func fillEllipse(_ rect: Rect, color: Color) { withFillColor(color) { fillEllipse(rect, nil) } }

    @usableFromInline
    func fillEllipse(_ rect: Rect, _ paint: Paint?) {
        guard !rect.isNull, !state.clip.isEmpty else { return }
        if let device {
            let r = rect.standardized
            // An ellipse goes to the device as one (no path is made): but
            // for what the device draws as an image, or edges not finite.
            guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite, !needsRaster(paint, device: device) else {
                return fillPath(Path(ellipseIn: rect), paint, .winding)
            }
            guard r.width > 0, r.height > 0 else { return }
            return device.fill(ellipseIn: r, paint: paint ?? .color(state.fillColor), state: vectorState)
        }
        if state.shadow != nil { return withShadow { fillEllipse(rect, paint) } }
        let t = state.transform
        guard t.isRectilinear, antialiasing else {
            fillPath(Path(ellipseIn: rect), paint, .winding)
            return
        }
        let r = rect.standardized
        let cx = t.a * r.midX + t.tx, cy = t.d * r.midY + t.ty
        let rx = abs(t.a) * r.width / 2, ry = abs(t.d) * r.height / 2
        guard cx.isFinite, cy.isFinite, rx.isFinite, ry.isFinite, rx > 0, ry > 0 else { return }
        // An ellipse wholly outside the clip's rows or columns (another band's
        // on a band canvas, `limitRows(to:)`) is passed over before its sides
        // are worked out (an arc cosine and a sine): the polygon reaches at
        // most 1.06 of the radii out (its growth, below, is largest at 8
        // sides: √(2π / (8·sin(π/4))) ≈ 1.0539).
        let c = state.clip
        let reachX = rx * 1.06 + 1, reachY = ry * 1.06 + 1
        guard cy + reachY > Double(c.y0), cy - reachY < Double(c.y1), cx + reachX > Double(c.x0), cx - reachX < Double(c.x1)
        else { return }
        // Sides: the sagitta r·(1 − cos(π/n)) must stay within the flatness. Past
        // 4096 sides (a radius of about 170 000 px at the default flatness) the
        // general path filler, which subdivides only where the band is, does better.
        let rmax = max(rx, ry)
        let tol = max(0.001, flatness)
        var sides = 8.0
        if rmax > tol {
            sides = max(8, (Double.pi / acos(max(-1, 1 - tol / rmax))).rounded(.up))
        }
        guard sides <= 4096 else {
            fillPath(Path(ellipseIn: rect), paint, .winding)
            return
        }
        let n = (Int(sides) + 3) & ~3
        // An n-gon inscribed in a circle has (n/2)·sin(2π/n)/π of its area.
        let step = 2 * Double.pi / Double(n)
        let grow = (2 * Double.pi / (Double(n) * sin(step))).squareRoot()
        let ex = rx * grow, ey = ry * grow
        guard
            let (area, rows) = rasterArea(
                (cx - ex).rounded(.down), (cy - ey).rounded(.down), (cx + ex).rounded(.up), (cy + ey).rounded(.up))
        else { return }
        withBlitter(
            paint, color: state.fillColor,
            EllipseCoverage(rasterizer: areaRasterizer, cx: cx, cy: cy, ex: ex, ey: ey, sides: n, area: area, rows: rows))
    }

    /// Sets the pixels of `rect` (in user space) to transparent black, whatever
    /// the alpha and blend mode (`clear(_:)`), with exact coverage at the edges.
    ///
    /// On a vector canvas it draws nothing: a page has no pixels to clear.
    public func clear(_ rect: Rect) {
        guard device == nil else { return }
        saveGState()
        defer { restoreGState() }
        state.blendMode = .copy
        state.alpha = 1
        state.shadow = nil
        fillRect(rect, .color(.clear))
    }
}
