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
        strokeRect(rect, nil)
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
    /// pen as in Core Graphics) and filled in device space. An outline that
    /// runs along itself for much of its length (a chart line's zigzag, a path
    /// out and back or twice round) goes to the overlap-exact scanline
    /// rasterizer, so a line overlapping itself is never darker where it does.
    /// A sparse one, which only crosses itself here and there or not at all
    /// (shapes, polygons, the stroke of a convex shape narrower than it), goes
    /// to the faster cell rasterizer, which sums its parts' areas as Blend2D
    /// does: the same but in the pixels where its edge overlaps itself, the
    /// corners of its crossings. (An outline of hundreds of points a pixel,
    /// past the overlap-exact rasterizer's budget, is filled with overlaps
    /// summed too: at that density they are everywhere and cannot be told
    /// apart.)
    /// A path or transform that yields a NaN or infinite point draws nothing, as
    /// does a transform that is not invertible.
    @inlinable
    public func stroke(_ path: Path, with paint: Paint) {
        if case .color(let color) = paint { strokePath(path, color: color) } else { strokePath(path, paint) }
    }

    @usableFromInline
    func strokePath(_ path: Path, color: Color) { withStrokeColor(color) { strokePath(path, nil) } }

    @usableFromInline
    func strokePath(_ path: Path, _ paint: Paint?) {
        // Every stroke is counted, drawn or not, so that the bands of a frame,
        // which make the same calls, number their strokes alike (`StrokeShare`).
        let strokeIndex = strokeCount
        strokeCount &+= 1
        guard !state.clip.isEmpty, !path.isEmpty else { return }
        if let device {
            let style = state.strokeStyle
            guard style.lineWidth >= 0, let area = strokeArea(path) else { return }
            // A stroke's paint other than a colour is drawn as an image too.
            var colored = true
            if let paint, case .color = paint {} else if paint != nil { colored = false }
            if needsRaster(paint, device: device) || !colored {
                return drawRasterized(over: area, .stroke(path, paint))
            }
            return device.stroke(path, style: style, paint: paint ?? .color(state.strokeColor), state: vectorState)
        }
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
            // Hairlines: one device pixel wide, faded by how much thinner they are
            // (solid without anti-aliasing).
            halfWidth = 0.5 / areaScale
            alphaFactor = style.lineWidth == 0 || !antialiasing ? 1 : deviceWidth
        }
        guard halfWidth.isFinite else { return }

        // The farthest any join or cap reaches from its vertex, in device pixels.
        // Round joins and caps (and every corner inside a curve) are polygons
        // whose inner vertices are pushed out so that they keep the arc's area:
        // by √(step / sin step), at most √(π/2) for the quarter-turn steps of a
        // thin line. (Taking the half width alone cut the tips of such caps off
        // at the edge of the area drawn, and left their outlines open there.)
        var reach = halfWidth * (Double.pi / 2).squareRoot()
        // A miter is at most 1/sin(φ/2) widths long, and the stroker bevels any
        // corner sharper than cos φ = −0.999 999 (about 1414 widths): so an
        // infinite limit reaches that far, not 1.
        if style.lineJoin == .miter { reach *= style.miterLimit >= 1 ? min(style.miterLimit, 1415) : 1 }
        if style.lineCap == .square { reach = max(reach, halfWidth * 2.squareRoot()) }
        let deviceReach = reach * stretch
        // Device bounds: the control points' bounds (also the NaN/∞ check) grown
        // by the reach.
        guard let (x0, y0, x1, y1) = Canvas.deviceBounds(path, t), deviceReach.isFinite else { return }
        guard
            let (area, rows) = rasterArea(
                (x0 - deviceReach).rounded(.down), (y0 - deviceReach).rounded(.down),
                (x1 + deviceReach).rounded(.up), (y1 + deviceReach).rounded(.up))
        else { return }

        // Grid lines and tick marks: separate parallel axis-aligned segments
        // with butt caps are rectangles, filled with their exact areas
        // without building an outline.
        if antialiasing, t.isRectilinear, style.lineCap == .butt,
            let rects = Self.axisAlignedStrokeRects(path, style: style, halfWidth: halfWidth, transform: t)
        {
            let c = state.clip
            let clipped = rects.compactMap { r -> RectCoverage? in
                let x0 = max(r.x0, Double(c.x0)), x1 = min(r.x1, Double(c.x1))
                let y0 = max(r.y0, Double(c.y0)), y1 = min(r.y1, Double(c.y1))
                return x0 < x1 && y0 < y1 ? RectCoverage(x0: x0, y0: y0, x1: x1, y1: y1) : nil
            }
            withBlitter(paint, color: state.strokeColor, alphaFactor: alphaFactor, RectsCoverage(rects: clipped))
            return
        }

        // A rectangle with mitred corners (a frame, a border, a selection box)
        // is the area between two rectangles, covered exactly without an outline.
        if antialiasing, t.isRectilinear, style.validDashes == nil, style.lineJoin == .miter, style.miterLimit >= 1.415,
            let ring = RectRingCoverage(
                strokeOf: path, halfWidth: halfWidth, transform: t, clip: state.clip, rasterClip: state.rasterClip)
        {
            withBlitter(paint, color: state.strokeColor, alphaFactor: alphaFactor, ring)
            return
        }

        let tolerance = max(0.001, flatness) / stretch
        // A convex polygon with mitred corners: its stroke is one outline,
        // or a ring of two, filled (`ConvexStroke`).
        if antialiasing, style.validDashes == nil, style.lineJoin == .miter,
            path.verbs.count <= ConvexStroke.maxSides + 1, strokeRasterizer.fillsConvexOutlines,
            strokeConvex(path, halfWidth, style, paint, alphaFactor, tolerance: tolerance)
        {
            return
        }
        let mayBeRing = style.validDashes == nil && StrokeJob.mayBeRing(path, halfWidth: halfWidth)
        var job = StrokeJob(
            path: path, style: style, halfWidth: halfWidth, transform: t,
            tolerance: tolerance, reach: deviceReach,
            simplifiesCorners: strokeRasterizer.simplifiesCorners)
        job.mayBeRing = mayBeRing
        // Four strips a pixel row, with exact areas: a stroke that does not
        // overlap itself comes out exact whatever the strips, and where it does,
        // a quarter of a row is the most an overlap can be off. An outline much
        // denser than its size (a chart line with tens of points a pixel, like
        // the benchmark's line scene) is sampled on the strips' centre lines
        // instead: its edges cannot be told apart, and sampling keeps only the
        // edges that cross a centre line (311 000 of the line scene's 600 000,
        // drawn in 60 % of the time).
        // Past hundreds of points a pixel (a million-point series drawn across
        // a screen), the outline would only fill the overlap-exact rasterizer's
        // budget and be drawn again by the cell rasterizer: it goes there at once.
        let density = Double(path.points.count) / Double(area.width + area.height)
        var coverage = StrokeCoverage(
            strokeRasterizer: density > 256 ? nil : strokeRasterizer, areaRasterizer: areaRasterizer,
            job: consume job, area: area, rows: rows, mode: !antialiasing ? .aliased : density > 4 ? .sampled : .area)
        // A long path for the overlap-exact rasterizer is stroked in pieces,
        // on one thread or shared by the bands of a frame (`StrokeShare`):
        // the same pieces either way, so the same pixels.
        if density <= 256, style.validDashes == nil {
            if let pieces = StrokePieces.plan(path, size: strokePieceSize ?? StrokePieces.size(verbs: path.verbs.count)) {
                coverage.pieces = pieces
                if let strokeShare { coverage.share = (strokeShare, strokeIndex) }
            } else if let strokeShare, path.verbs.count >= StrokePieces.sharedWhole, !coverage.job.mayBeRing,
                rows != area.y0..<area.y1
            {
                // A shorter stroke that other bands of the frame draw too
                // (its area reaches past this band's rows): stroked once for
                // all of them, as one piece (the same edges as stroked whole).
                // (Not a possible ring: that is tried whole, first.)
                coverage.pieces = [StrokePiece(whole: path)]
                coverage.share = (strokeShare, strokeIndex)
            }
        }
        withBlitter(paint, color: state.strokeColor, alphaFactor: alphaFactor, coverage)
    }
}

extension Canvas {
    /// Strokes `path` as the outline `ConvexStroke` makes of it, where it
    /// makes one, and says whether it did (nothing drawn otherwise).
    fileprivate func strokeConvex(
        _ path: Path, _ halfWidth: Double, _ style: StrokeStyle, _ paint: Paint?, _ alphaFactor: Double,
        tolerance: Double
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: Point.self, capacity: 6 * ConvexStroke.maxVertices) { points in
            guard
                let (outer, inner) = ConvexStroke.outline(
                    of: path, halfWidth: halfWidth, miterLimit: style.miterLimit, tolerance: tolerance, into: points)
            else { return false }
            let outline = UnsafeBufferPointer(rebasing: points[0..<(outer + inner)])
            let t = state.transform
            // (Nothing to draw is drawn: the stroke is within the outer side.)
            guard let (x0, y0, x1, y1) = Canvas.deviceBounds(UnsafeBufferPointer(rebasing: outline[0..<outer]), t),
                let (area, rows) = rasterArea(x0.rounded(.down), y0.rounded(.down), x1.rounded(.up), y1.rounded(.up))
            else { return true }
            withBlitter(
                paint, color: state.strokeColor, alphaFactor: alphaFactor,
                PolygonCoverage(
                    points: outline, transform: t, rule: .winding, area: area, rows: rows, rasterizer: areaRasterizer,
                    second: outer))
            strokeRasterizer.convexFilled &+= 1
            return true
        }
    }
}

/// Everything one stroke needs to be run through the stroking pipeline, as
/// many times as the rasterizer asks (once, or once per band).
struct StrokeJob {
    let path: Path
    let style: StrokeStyle
    let halfWidth: Double
    let transform: Transform
    /// Flattening tolerance in user space.
    let tolerance: Double
    /// How far (device pixels) a join or cap reaches from its vertex.
    let reach: Double
    /// Whether corners may be simplified (`Stroker.simplifiesCorners`).
    var simplifiesCorners = true
    /// Whether the outline may be a ring (`mayBeRing(_:halfWidth:)`), to be tried in
    /// the cell rasterizer first.
    var mayBeRing = false

    /// Whether `path`, stroked `halfWidth` to each side, may be a ring
    /// (`Stroker.watchesRing`), to be tried in the cell rasterizer: one
    /// subpath, closed, whose points turn one way. A curve lies in the convex
    /// hull of its control points and turns the way they do, so a flattened
    /// curve turns that way too, and the stroker checks the rest; a polygon
    /// is checked here as the stroker will (once round, every inside corner
    /// trimmed, no side shorter than its two trims), so that a small one
    /// whose trims overlap is not tried for nothing. Polygons that cross
    /// themselves and the named shapes turn both ways within a few points.
    static func mayBeRing(_ path: Path, halfWidth h: Double) -> Bool {
        let verbs = path.verbs, points = path.points
        let count = verbs.count
        guard count >= 3, count <= 4096, verbs[0] == .move, verbs[count - 1] == .close, points.count >= 3 else {
            return false
        }
        var curved = false
        for k in 1..<(count - 1) {
            switch verbs[k] {
            case .move, .close: return false
            case .line: continue
            case .quad, .cubic: curved = true
            }
        }
        // (A constant in the closure: a variable captured there had each
        // read checked for exclusivity at run time.)
        let lines = !curved
        return points.withUnsafeBufferPointer { p in
            let n = p.count
            // The sides between distinct points, round the closed polygon:
            // unit directions and lengths.
            var turn = 0.0, laps = 0
            var previous = Point.zero, previousLength = 0.0, previousCut = 0.0
            var first = Point.zero, firstLength = 0.0, firstEndCut = 0.0
            var sides = 0
            var from = p[0]
            var i = 0
            // One corner: from `a` (length `la`) into `d` (length `ld`).
            // Returns the inside trim, or nil where there can be no ring.
            // (The stroker's own corner rules: `StrokeCorner`.)
            func corner(_ a: Point, _ la: Double, _ d: Point, _ ld: Double) -> Double? {
                let cross = a.x * d.y - a.y * d.x, dot = a.x * d.x + a.y * d.y
                let c = StrokeCorner.ring(a, d, cross: cross, dot: dot, halfWidth: h)
                if c.lap { laps += 1 }
                if c.turn == 0 { return 0 }
                if turn == 0 { turn = c.turn } else if turn != c.turn { return nil }
                guard lines else { return 0 }
                guard StrokeCorner.trims(cross: cross, dot: dot, reach: min(la, ld), halfWidth: h) else { return nil }
                return c.cut
            }
            while i < n {
                i += 1
                let to = p[i == n ? 0 : i]
                let dx = to.x - from.x, dy = to.y - from.y
                let length = (dx * dx + dy * dy).squareRoot()
                guard length > StrokeSource.epsilon else { continue }
                from = to
                let d = Point(x: dx / length, y: dy / length)
                if sides == 0 {
                    first = d
                    firstLength = length
                } else {
                    guard let cut = corner(previous, previousLength, d, length) else { return false }
                    if lines && !(previousCut + cut < previousLength) { return false }
                    if sides == 1 { firstEndCut = cut }
                    previousCut = cut
                }
                previous = d
                previousLength = length
                sides += 1
            }
            guard sides >= 3, let cut = corner(previous, previousLength, first, firstLength), turn != 0 else {
                return false
            }
            return !lines || laps == 1 && previousCut + cut < previousLength && cut + firstEndCut < firstLength
        }
    }

    /// Whether the outline of `path`, stroked `halfWidth` to each side, is
    /// sparse: it runs along itself for at most a tenth of the path's
    /// length, and no closed subpath that turns one way goes round more
    /// than once. The outline runs along itself (overlaps itself at its
    /// edge, where summed areas count the overlap twice) at corners that go
    /// through their pivot on the inside (`StrokeCorner.trims` false: a
    /// segment too short for the inner sides to meet within it), for
    /// h·tan(θ/2) along each side or the whole shorter one (a full reversal
    /// runs back along all of it), as do corners whose trim would take
    /// a side past its length on the side its other trim is on (they go
    /// through their pivot: `Stroker.sumsAreas`); a trimmed corner's
    /// outline does not. A subpath that turns one way round more than once (closed or
    /// not) is taken to run along itself all the way. Curves are measured
    /// by their control polygons. A long path found running along itself for
    /// a fifth of its length at any 64th element is not measured further:
    /// not sparse.
    /// Crossings are not measured: where a sparse outline crosses itself,
    /// the overlap is inside the stroke but at the crossing's corners.
    static func isSparse(_ path: Path, halfWidth h: Double) -> Bool {
        // (What the walk sums is declared inside the closures and handed
        // back: captured from out here, each of its accesses was checked
        // for exclusivity at run time, a dozen calls a stroke.)
        let (overlap, total, ruledOut) = path.verbs.withUnsafeBufferPointer { verbs in
            path.points.withUnsafeBufferPointer { p -> (Double, Double, Bool) in
                var overlap = 0.0, total = 0.0
                var ruledOut = false
                var i = 0
                // The side coming into the current point (its direction,
                // length, and the trim at its start), the subpath's first side
                // (and the trim at its end), and where the subpath starts.
                var previous = Point.zero, previousLength = 0.0, previousCut = 0.0, hasPrevious = false
                var first = Point.zero, firstLength = 0.0, firstEndCut = 0.0, sides = 0
                var start = Point.zero, current = Point.zero
                // The subpath's turns so far (their sign, or 0 before the
                // first; NaN once both ways) and laps (`StrokeCorner.upper`).
                var turn = 0.0, laps = 0
                @inline(__always) func side(_ from: Point, _ to: Point) -> (Point, Double)? {
                    let dx = to.x - from.x, dy = to.y - from.y
                    let length = (dx * dx + dy * dy).squareRoot()
                    guard length > StrokeSource.epsilon else { return nil }
                    return (Point(x: dx / length, y: dy / length), length)
                }
                // A turn from direction `a` into `d`: its sign and lap.
                @inline(__always) func watch(_ a: Point, _ d: Point, _ cross: Double) {
                    if !StrokeCorner.upper(a) && StrokeCorner.upper(d) { laps += 1 }
                    let sign: Double = cross > 0 ? 1 : cross < 0 ? -1 : 0
                    if sign != 0 { turn = turn == 0 ? sign : turn == sign ? turn : .nan }
                }
                // The corner from the side before into `d` (`length` long):
                // what its inside runs along itself, and its trim.
                @inline(__always) func corner(_ d: Point, _ length: Double) -> Double {
                    let a = previous
                    let cross = a.x * d.y - a.y * d.x, dot = a.x * d.x + a.y * d.y
                    watch(a, d, cross)
                    if abs(cross) < 1e-12 && dot > 0 { return 0 }
                    let reach = min(previousLength, length)
                    let spread = h * abs(cross)
                    guard StrokeCorner.trims(cross: cross, dot: dot, reach: reach, halfWidth: h) else {
                        // (At least the half width: the overlap spreads
                        // that far round the corner point. A reversal runs
                        // back along all of the shorter side.)
                        let alongAll = StrokeCorner.reverses(dot: dot) || !(spread < reach * (1 + dot))
                        overlap += max(h, alongAll ? reach : spread / (1 + dot))
                        return 0
                    }
                    // Signed: the side the trim is on.
                    let cut = (cross > 0 ? 1 : -1) * spread / (1 + dot)
                    // A side would be trimmed past its length on one side:
                    // the corner goes through its pivot instead
                    // (`Stroker.sumsAreas`).
                    guard
                        StrokeCorner.trimsApart(
                            abs(previousCut), abs(cut), sameSide: (cut > 0) == (previousCut > 0), length: previousLength)
                    else {
                        overlap += max(h, min(abs(cut), reach))
                        return 0
                    }
                    return cut
                }
                // A side into `d`, `length` long: its corner with the side
                // before, and it becomes the side before.
                @inline(__always) func add(_ d: Point, _ length: Double) {
                    total += length
                    let cut = hasPrevious ? corner(d, length) : 0
                    if sides == 0 {
                        (first, firstLength) = (d, length)
                    } else if sides == 1 {
                        firstEndCut = cut
                    }
                    sides += 1
                    (previous, previousLength, previousCut) = (d, length, cut)
                    hasPrevious = true
                }
                // A curve through `controls`, measured as its control
                // polygon: the flattened curve within it turns as it does,
                // in shorter steps (an inside that overlaps round a tight
                // bend overlaps round the control polygon's corners too).
                @inline(__always) func curve(_ controls: UnsafeBufferPointer<Point>.SubSequence) {
                    var from = current
                    for q in controls {
                        if let (d, length) = side(from, q) {
                            add(d, length)
                            from = q
                        }
                    }
                }
                @inline(__always) func begin(_ p: Point) {
                    if turn != 0 && !turn.isNaN && laps > 1 { ruledOut = true }
                    start = p
                    current = p
                    hasPrevious = false
                    sides = 0
                    turn = 0
                    laps = 0
                }
                for (k, v) in verbs.enumerated() {
                    // A long outline already running along itself for a
                    // fifth of its length is not sparse: the rest is not
                    // measured (a chart line's thousands of points).
                    if k & 63 == 63 && overlap > total / 5 {
                        return (overlap, total, true)
                    }
                    switch v {
                    case .move:
                        begin(p[i])
                        i += 1
                    case .line:
                        if let (d, length) = side(current, p[i]) { add(d, length) }
                        current = p[i]
                        i += 1
                    case .quad:
                        curve(p[i..<(i + 2)])
                        current = p[i + 1]
                        i += 2
                    case .cubic:
                        curve(p[i..<(i + 3)])
                        current = p[i + 2]
                        i += 3
                    case .close:
                        if let (d, length) = side(current, start) { add(d, length) }
                        if sides >= 2 {
                            // The closing corner trims the first side's start.
                            // (Through its pivot where it would trim the
                            // first side past its length.)
                            let cut = corner(first, firstLength)
                            if cut != 0
                                && !StrokeCorner.trimsApart(
                                    abs(cut), abs(firstEndCut), sameSide: (cut > 0) == (firstEndCut > 0), length: firstLength)
                            {
                                overlap += max(h, abs(cut))
                            }
                        }
                        begin(start)
                    }
                }
                begin(current)
                return (overlap, total, ruledOut)
            }
        }
        return !ruledOut && overlap <= total / 10
    }

    /// Flattens, cuts and strokes the path (or only `piece` of it) into
    /// `target`, keeping only what can reach `area` (device space). With
    /// `watchingRing`, the outline is watched for being a ring (its closing
    /// corner trimmed when it is): returns whether it was one. `summed`
    /// outlines are for the cell rasterizer (`Stroker.sumsAreas`).
    @discardableResult
    func run<T: EdgeAccumulator>(
        into target: T, area: Rect, piece: StrokePiece? = nil, watchingRing: Bool = false, summed: Bool = false
    ) -> Bool {
        let visible = area.insetBy(dx: -reach - 1, dy: -reach - 1)
        var stroker = Stroker(
            target: target, style: style, halfWidth: halfWidth, tolerance: tolerance, transform: transform,
            simplifiesCorners: simplifiesCorners)
        stroker.watchesRing = watchingRing
        stroker.sumsAreas = summed
        let dashes = style.validDashes
        var cutter = StrokeCutter(
            stroker: consume stroker, transform: transform, visible: visible,
            pattern: dashes, phase: style.dashPhase)
        // Curve pieces that cannot be seen become one line each; with dashes,
        // which need their lengths, they are subdivided as usual but at most
        // ten levels deep (exactly as on screen for any curve under about a
        // thousand pixels, so dashes do not move as the path scrolls).
        var cull = Rect.infinite
        if let inverse = transform.inverted() {
            let user = visible.applying(inverse)
            if !user.isNull, user.minX.isFinite, user.maxX.isFinite, user.minY.isFinite, user.maxY.isFinite { cull = user }
        }
        StrokeSource.feed(
            path, tolerance: tolerance, cull: cull, outsideDepth: dashes == nil ? 0 : 10, piece: piece, into: &cutter)
        return watchingRing && cutter.stroker.isRing
    }
}

/// Strokes into the overlap-exact scanline rasterizer, or, for a ring, a
/// sparse outline or one too dense for that rasterizer's budget, into the
/// cell rasterizer.
struct StrokeCoverage: CoverageSource {
    /// The overlap-exact rasterizer; nil to go straight to the cell rasterizer.
    let strokeRasterizer: StrokeRasterizer?
    let areaRasterizer: AreaRasterizer
    let job: StrokeJob
    let area: PixelBox
    /// The rows of `area` drawn.
    let rows: Range<Int>
    let mode: StrokeRasterizer.Mode
    /// The pieces a long path is stroked in (`StrokePieces`), or nil.
    var pieces: [StrokePiece]? = nil
    /// Where the pieces are shared with the other bands of the frame, and
    /// this stroke's place among the canvas's strokes.
    var share: (StrokeShare, index: Int)? = nil

    var drawnBox: PixelBox? { area.cut(to: rows) }

    /// Whether the outline goes to the cell rasterizer, which sums its
    /// parts' areas (non-zero, clamped), instead of the overlap-exact walk:
    /// an outline of area mode without dashes, with few corners through
    /// their pivot (`StrokeJob.isSparse`). The two differ only in pixels
    /// where the outline overlaps itself along its edge: at a pivot corner,
    /// and at the corners of a crossing, where summing counts the overlap's
    /// share of the pixel twice (at most full coverage), as Blend2D and
    /// Skia's analytic paths do. Where such pixels are many (a chart line's
    /// zigzag of short segments, a small shape with a wide line), the walk
    /// keeps the union exact.
    /// (Asked once the ring, which is cheaper to find, is ruled out.)
    func sumsAreas() -> Bool {
        guard mode == .area, let scanline = strokeRasterizer, scanline.sumsSparseOutlines,
            job.style.validDashes == nil
        else { return false }
        return StrokeJob.isSparse(job.path, halfWidth: job.halfWidth)
    }

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        // A ring (one convex closed outline, the usual frame, badge or
        // button) winds 0 or 1 everywhere: the cell rasterizer covers it
        // exactly, for a fraction of the overlap-exact walk's work. Tried
        // first where the path may be one; the stroker says if it was.
        if job.mayBeRing, mode == .area, pieces == nil, let scanline = strokeRasterizer, scanline.fillsRings {
            let rasterizer = areaRasterizer
            if rasterizer.fillOnce(
                area, rows: rows, .winding, &blitter,
                emit: { band in
                    self.job.run(into: rasterizer, area: band, watchingRing: true)
                })
            {
                scanline.ringsFilled &+= 1
                return
            }
        }
        if let scanline = strokeRasterizer, sumsAreas() {
            // Sparse: few pixels where the outline overlaps itself along its
            // edge (see `sumsAreas`), summed as the field's rasterizers do.
            scanline.sparseFilled &+= 1
            let rasterizer = areaRasterizer
            rasterizer.fill(area, rows: rows, .winding, &blitter) { band in
                job.run(into: rasterizer, area: band, summed: true)
            }
            return
        }
        if let scanline = strokeRasterizer {
            scanline.begin(area, samples: 4, mode: mode, rows: rows)
            let rect = Rect(x: Double(area.x0), y: Double(area.y0), width: Double(area.width), height: Double(area.height))
            if let pieces {
                if let (share, index) = share,
                    let shared = share.stroke(
                        index, job: job, pieces: pieces, area: area, mode: mode, like: scanline)
                {
                    // Taken apart once, by whichever bands get here first.
                    shared.record()
                    for recorded in shared.recorders where !scanline.isFull { scanline.adopt(recorded) }
                } else {
                    for piece in pieces where !scanline.isFull { job.run(into: scanline, area: rect, piece: piece) }
                }
            } else {
                job.run(into: scanline, area: rect)
            }
            if !scanline.isFull {
                scanline.sweep(.winding, &blitter)
                return
            }
            scanline.reset()
        }
        let rasterizer = areaRasterizer
        if mode == .aliased {
            // Too dense for pixel centres: areas rounded to in or out.
            var hard = HardEdgeBlitter(inner: blitter)
            rasterizer.fill(area, rows: rows, .winding, &hard) { band in job.run(into: rasterizer, area: band) }
            blitter = hard.inner
            return
        }
        rasterizer.fill(area, rows: rows, .winding, &blitter) { band in job.run(into: rasterizer, area: band) }
    }
}

extension Canvas {
    /// The device rectangles of a butt-capped stroke under a rectilinear
    /// transform `t`, when the path is only separate segments (each subpath
    /// one move and one line), all horizontal or all vertical, that do not
    /// overlap once dashed: then the stroke is exactly those rectangles.
    /// nil for any other path (drawn by the stroker), and past 100,000
    /// rectangles.
    static func axisAlignedStrokeRects(
        _ path: Path, style: StrokeStyle, halfWidth: Double, transform t: Transform
    ) -> [(x0: Double, y0: Double, x1: Double, y1: Double)]? {
        let verbs = path.verbs, points = path.points
        guard verbs.count >= 2, verbs.count % 2 == 0, points.count == verbs.count else { return nil }
        var horizontal: Bool?
        for k in stride(from: 0, to: verbs.count, by: 2) {
            guard verbs[k] == .move, verbs[k + 1] == .line else { return nil }
            let a = points[k], b = points[k + 1]
            let h = a.y == b.y && a.x != b.x, v = a.x == b.x && a.y != b.y
            guard h || v else { return nil }
            if let o = horizontal, o != h { return nil }
            horizontal = h
        }
        guard let horizontal, halfWidth > 0 else { return nil }
        let pattern = style.validDashes ?? []
        // Where the pattern stands at each segment's start (as the stroker's
        // cutter: the phase applies afresh to every subpath).
        let (startIndex, startRemaining) = StrokeStyle.dashStart(pattern, phase: style.dashPhase)
        var rects: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        func add(_ along0: Double, _ along1: Double, _ cross: Double) -> Bool {
            let ux0 = horizontal ? along0 : cross - halfWidth, ux1 = horizontal ? along1 : cross + halfWidth
            let uy0 = horizontal ? cross - halfWidth : along0, uy1 = horizontal ? cross + halfWidth : along1
            let dx0 = t.a * ux0 + t.tx, dx1 = t.a * ux1 + t.tx, dy0 = t.d * uy0 + t.ty, dy1 = t.d * uy1 + t.ty
            let r = (x0: min(dx0, dx1), y0: min(dy0, dy1), x1: max(dx0, dx1), y1: max(dy0, dy1))
            guard r.x0.isFinite, r.x1.isFinite, r.y0.isFinite, r.y1.isFinite, rects.count < 100_000 else { return false }
            rects.append(r)
            return true
        }
        for k in stride(from: 0, to: verbs.count, by: 2) {
            let a = points[k], b = points[k + 1]
            let s0 = horizontal ? a.x : a.y, s1 = horizontal ? b.x : b.y, cross = horizontal ? a.y : a.x
            let lo = min(s0, s1), hi = max(s0, s1), direction = s1 >= s0 ? 1.0 : -1.0
            guard pattern.isEmpty else {
                // Dashes from the segment's start, in its direction.
                var index = startIndex, remaining = startRemaining, at = 0.0
                let length = hi - lo
                var steps = 0
                while at < length {
                    let step = min(remaining, length - at)
                    if index & 1 == 0, step > 0 {
                        let p0 = s0 + direction * at, p1 = s0 + direction * (at + step)
                        guard add(min(p0, p1), max(p0, p1), cross) else { return nil }
                    }
                    at += step
                    remaining -= step
                    if remaining <= 0 {
                        index = (index + 1) % pattern.count
                        remaining = pattern[index]
                    }
                    steps += 1
                    if steps > 200_000 { return nil }
                }
                continue
            }
            guard add(lo, hi, cross) else { return nil }
        }
        // No two may overlap (a stroke covers each pixel once): lines on one
        // cross position must not touch along it, and lines on different ones
        // must be a width apart.
        func cross(_ r: (x0: Double, y0: Double, x1: Double, y1: Double)) -> (Double, Double) {
            horizontal ? (r.y0, r.y1) : (r.x0, r.x1)
        }
        func along(_ r: (x0: Double, y0: Double, x1: Double, y1: Double)) -> (Double, Double) {
            horizontal ? (r.x0, r.x1) : (r.y0, r.y1)
        }
        let order = rects.indices.sorted { (cross(rects[$0]).0, along(rects[$0]).0) < (cross(rects[$1]).0, along(rects[$1]).0) }
        for (i, j) in zip(order, order.dropFirst()) {
            let a = rects[i], b = rects[j]
            if cross(a).0 == cross(b).0 {
                if along(a).1 > along(b).0 { return nil }
            } else if cross(a).1 > cross(b).0 {
                return nil
            }
        }
        return rects
    }
}

/// Rectangles, each filled with its exact area (none overlapping).
struct RectsCoverage: CoverageSource {
    let rects: [RectCoverage]

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        for r in rects { r.draw(&blitter) }
    }
}

/// The stroke of an axis-aligned rectangle with mitred corners, in device
/// pixels: the area inside `outer` and outside `inner`, each pixel covered by
/// the exact area of that ring in it. Rows wholly beside the hole are two
/// bands, rows above and below it whole rows, and only the (at most two)
/// rows the hole's edges cross are covered pixel by pixel.
struct RectRingCoverage: CoverageSource {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)
    let outer: Box
    /// Nil when the line is as wide as the rectangle: no hole.
    let inner: Box?
    /// The hole's first row (rounded down) without the row limit: where a
    /// side's runs of columns are counted from (`SpanBlitter.blitColumns`).
    let holeTop: Int

    /// The ring `path` strokes, when it is one closed rectangle (a move and
    /// three lines along the axes, then a close, as `Path(rect:)` makes it)
    /// of non-zero width and height, under a transform without rotation, cut
    /// to `clip`; nil otherwise, or when nothing is left. `rasterClip` is
    /// the clip without the row limit (`Canvas.limitRows(to:)`; `clip` when
    /// not given).
    init?(strokeOf path: Path, halfWidth h: Double, transform t: Transform, clip: PixelBox, rasterClip: PixelBox? = nil) {
        let verbs = path.verbs, p = path.points
        guard verbs.count == 5, verbs[0] == .move, verbs[1] == .line, verbs[2] == .line, verbs[3] == .line, verbs[4] == .close,
            p.count == 4, h > 0, h.isFinite
        else { return nil }
        // Sides alternate between horizontal and vertical, and close the loop.
        let firstHorizontal = p[0].y == p[1].y
        for k in 0..<4 {
            let a = p[k], b = p[(k + 1) % 4]
            let horizontal = (k % 2 == 0) == firstHorizontal
            guard horizontal ? (a.y == b.y && a.x != b.x) : (a.x == b.x && a.y != b.y) else { return nil }
        }
        let x0 = min(p[0].x, p[2].x), x1 = max(p[0].x, p[2].x), y0 = min(p[0].y, p[2].y), y1 = max(p[0].y, p[2].y)
        func device(_ ux0: Double, _ uy0: Double, _ ux1: Double, _ uy1: Double, clip: PixelBox = clip) -> Box? {
            let dx0 = t.a * ux0 + t.tx, dx1 = t.a * ux1 + t.tx, dy0 = t.d * uy0 + t.ty, dy1 = t.d * uy1 + t.ty
            let b = (
                x0: max(min(dx0, dx1), Double(clip.x0)), y0: max(min(dy0, dy1), Double(clip.y0)),
                x1: min(max(dx0, dx1), Double(clip.x1)), y1: min(max(dy0, dy1), Double(clip.y1))
            )
            return b.x0 < b.x1 && b.y0 < b.y1 ? b : nil
        }
        guard [x0, x1, y0, y1].allSatisfy(\.isFinite), let outer = device(x0 - h, y0 - h, x1 + h, y1 + h) else { return nil }
        self.outer = outer
        inner = 2 * h < x1 - x0 && 2 * h < y1 - y0 ? device(x0 + h, y0 + h, x1 - h, y1 - h) : nil
        let whole = inner == nil ? nil : device(x0 + h, y0 + h, x1 - h, y1 - h, clip: rasterClip ?? clip)
        holeTop = Int((whole?.y0 ?? outer.y0).rounded(.down))
    }

    /// How much of pixel span `[p, p + 1)` lies in `[a0, a1)`.
    @inline(__always) static func overlap(_ a0: Double, _ a1: Double, _ p: Int) -> Double {
        max(0, min(a1, Double(p) + 1) - max(a0, Double(p)))
    }

    @inline(__always) static func q(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v * 255 + 0.5))) }

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        guard let inner else {
            return RectCoverage(x0: outer.x0, y0: outer.y0, x1: outer.x1, y1: outer.y1).draw(&blitter)
        }
        let o = outer, i = inner
        let ox0 = Int(o.x0.rounded(.down)), ox1 = Int(o.x1.rounded(.up))
        let oy0 = Int(o.y0.rounded(.down)), oy1 = Int(o.y1.rounded(.up))
        let width = ox1 - ox0
        // The last row the hole covers whole is the one before this.
        let holeBottom = Int(i.y1.rounded(.down))
        // Columns of the bands beside the hole: outer minus hole, per column
        // (a hole narrower than a pixel makes them meet: those rows go pixel
        // by pixel).
        let leftBand = ox0..<Int(i.x0.rounded(.up)), rightBand = Int(i.x1.rounded(.down))..<ox1
        func band(_ columns: Range<Int>, rows: Range<Int>) {
            guard !columns.isEmpty, !rows.isEmpty else { return }
            func c(_ x: Int) -> UInt8 { Self.q(Self.overlap(o.x0, o.x1, x) - Self.overlap(i.x0, i.x1, x)) }
            let first = c(columns.lowerBound), last = c(columns.upperBound - 1)
            // Columns between the first and last are wholly in the ring.
            blitter.blitColumns(
                x: columns.lowerBound, y: rows.lowerBound, width: columns.count, height: rows.count, top: holeTop,
                left: first, middle: 255, right: last)
        }
        // Rows the hole does not touch, above and below it, are the outer
        // rectangle's (drawn top to bottom, as every coverage source is).
        let top = min(max(Int(i.y0.rounded(.down)), oy0), oy1)
        let bottom = max(min(Int(i.y1.rounded(.up)), oy1), top)
        if top > oy0 {
            RectCoverage(x0: o.x0, y0: o.y0, x1: o.x1, y1: min(o.y1, Double(top))).draw(&blitter)
        }
        var mask: [UInt8] = []
        var y = top
        while y < bottom {
            let vy = Self.overlap(o.y0, o.y1, y), hy = Self.overlap(i.y0, i.y1, y)
            if hy == 1 && vy == 1 && leftBand.upperBound <= rightBand.lowerBound {
                // Rows beside the hole: its two bands.
                let end = min(bottom, holeBottom)
                band(leftBand, rows: y..<end)
                band(rightBand, rows: y..<end)
                y = end
            } else {
                // A row the hole's top or bottom edge crosses: pixel by pixel.
                if mask.count < width { mask = [UInt8](repeating: 0, count: width) }
                mask.withUnsafeMutableBufferPointer { m in
                    // Every column but the outer rectangle's first and last
                    // and the two the hole's sides cross is wholly in the
                    // outer rectangle and wholly in or out of the hole: its
                    // overlaps are exactly 1 and 1 or 0, and its value one
                    // of two (a row of a wide ring was a hundred pixels'
                    // overlaps worked out one at a time).
                    let h0 = Int(i.x0.rounded(.down)), h1 = Int(i.x1.rounded(.down))
                    let base = m.baseAddress!
                    base.update(repeating: Self.q(vy), count: width)
                    let inside0 = max(h0 + 1, ox0), inside1 = min(h1, ox1)
                    if inside0 < inside1 {
                        (base + (inside0 - ox0)).update(repeating: Self.q(vy - hy), count: inside1 - inside0)
                    }
                    func exact(_ x: Int) {
                        guard x >= ox0 && x < ox1 else { return }
                        base[x - ox0] = Self.q(vy * Self.overlap(o.x0, o.x1, x) - hy * Self.overlap(i.x0, i.x1, x))
                    }
                    exact(ox0)
                    exact(ox1 - 1)
                    exact(h0)
                    exact(h1)
                }
                mask.withUnsafeBufferPointer { blitter.blitMask(x: ox0, y: y, count: width, mask: $0.baseAddress!) }
                y += 1
            }
        }
        if bottom < oy1 {
            RectCoverage(x0: o.x0, y0: max(o.y0, Double(bottom)), x1: o.x1, y1: o.y1).draw(&blitter)
        }
    }
}
