// The first two stages of a stroke, both streaming: `StrokeSource` flattens the
// path into polylines in user space, and `StrokeCutter` cuts them to what can
// be seen and into dashes, feeding the stroker. Nothing is stored but the
// current point: a path of ten million segments is stroked in the memory of
// a few points (and the rasterizer's), and a part of it that cannot reach the
// visible area costs a transform and a comparison, never a dash or an edge.

/// Receives a stroke's path as polylines, one subpath at a time.
protocol PolylineSink {
    /// Starts a subpath at `p`.
    mutating func begin(_ p: Point)
    /// The next point, different from the previous one; `smooth` marks a vertex
    /// inside a flattened curve.
    mutating func line(to p: Point, smooth: Bool)
    /// Ends the subpath. `closed`: it was closed, and its closing segment has
    /// been delivered. `zeroLength`: it drew something, but all of its points
    /// coincide (a dot, with round or square caps).
    mutating func end(closed: Bool, zeroLength: Bool)
    /// True when the rest of the path should not be fed (the rasterizer is full).
    var shouldStop: Bool { get }
    /// The next subpath begins at a seam: where a piece of a longer polyline
    /// stroked apart starts (`StrokePieces`); `exactly`: one that may be
    /// exact, whose corner at its second point the piece before sends.
    mutating func beginsAtSeam(exactly: Bool)
    /// The subpath being fed ends at a seam, where the next piece starts;
    /// `exactly`: one that may be exact, where the next piece sends the
    /// last segment's sides.
    mutating func endsAtSeam(exactly: Bool)
}

/// Flattens a path for stroking: points on the curves (chords within half
/// the fill tolerance of them, so that the stroke's sides, a half width out
/// from the chords, stray no further than a fill's edge does round any bend
/// of a radius over the width; dash lengths are measured along them),
/// consecutive duplicates dropped. (A quarter, before, gave a round
/// stroke's outline 40 % more edges than that needs.)
enum StrokeSource {
    /// Points closer than this are one point.
    static let epsilon = 1e-9

    /// `CurveFlattener`'s limits for a stroke flattened within `tolerance`:
    /// chords within half of it.
    static func flatteningLimits(tolerance: Double) -> (quad: Double, cubic: Double) {
        let fine = tolerance / 2
        return (16 * fine * fine, (4 * fine / 3) * (4 * fine / 3))
    }

    /// Feeds `path`, flattened within `tolerance` (user space), to `sink`. Curve
    /// pieces wholly beyond one side of `cull` (user space) become one line, or,
    /// for dashes, which need their lengths, are subdivided no deeper than
    /// `outsideDepth`.
    ///
    /// With `piece`, only that piece's verbs are fed: from its start point,
    /// if it has one, then to the end of its last verb, its seams marked.
    static func feed<S: PolylineSink>(
        _ path: Path, tolerance: Double, cull: Rect, outsideDepth: Int = 0,
        piece: StrokePiece? = nil, into sink: inout S
    ) {
        let (quadLimit, cubicLimit) = flatteningLimits(tolerance: tolerance)
        var flattener = CurveFlattener(
            quadLimit: quadLimit, cubicLimit: cubicLimit,
            minX: cull.minX, maxX: cull.maxX, minY: cull.minY, maxY: cull.maxY)
        flattener.preservesArea = false
        flattener.outsideDepth = outsideDepth
        // The sink moves into the feeder and back out (a copy each way,
        // through the generic sink's value witnesses, retained the
        // stroker's buffers twice a stroke).
        var feeder = Feeder<S>(sink: consume sink)
        let verbs = piece?.verbs ?? 0..<path.verbs.count
        path.points.withUnsafeBufferPointer { pts in
            var i = piece?.firstPoint ?? 0
            var last = Point.zero
            if let piece, let start = piece.start {
                feeder.sink.beginsAtSeam(exactly: piece.startsExactly)
                feeder.move(to: start)
                last = start
            }
            for k in verbs {
                if k & 255 == 255 && feeder.sink.shouldStop { break }
                switch path.verbs[k] {
                case .move:
                    feeder.move(to: pts[i])
                    last = pts[i]
                    i += 1
                case .line:
                    feeder.line(to: pts[i])
                    last = pts[i]
                    i += 1
                case .quad:
                    feeder.curve = true
                    flattener.quad(last, pts[i], pts[i + 1], 0, &feeder)
                    feeder.endCurve()
                    last = pts[i + 1]
                    i += 2
                case .cubic:
                    feeder.curve = true
                    flattener.cubic(last, pts[i], pts[i + 1], pts[i + 2], 0, &feeder)
                    feeder.endCurve()
                    last = pts[i + 2]
                    i += 3
                case .close:
                    feeder.close()
                }
            }
        }
        if let piece, piece.endsAtSeam { feeder.sink.endsAtSeam(exactly: piece.endsExactly) }
        feeder.finish(closed: false)
        sink = feeder.take()
    }

    /// Turns the flattener's lines into polyline points: duplicates dropped, and
    /// each point held back one step, so that a curve's last point (a corner
    /// like any other) is not marked smooth.
    private struct Feeder<S: PolylineSink>: FlatteningSink {
        var sink: S
        var open = false
        /// The subpath has a drawing verb, even if all its points coincide.
        var hasSegment = false
        /// Points have been delivered since the subpath began.
        var delivered = false
        var first = Point.zero
        var last = Point.zero
        var pending = Point.zero
        var hasPending = false
        var pendingSmooth = false
        /// True while a curve is being flattened: its inner vertices are smooth.
        var curve = false

        init(sink: consuming S) { self.sink = sink }

        /// The sink, the feeder given up.
        consuming func take() -> S { sink }

        mutating func move(to p: Point) {
            finish(closed: false)
            first = p
            last = p
            open = true
            hasSegment = false
            delivered = false
            sink.begin(p)
        }

        @inline(__always)
        mutating func line(to p: Point) {
            guard open else { move(to: p); return }
            hasSegment = true
            let ref = hasPending ? pending : last
            if abs(p.x - ref.x) < StrokeSource.epsilon && abs(p.y - ref.y) < StrokeSource.epsilon { return }
            flush()
            pending = p
            pendingSmooth = curve
            hasPending = true
        }

        @inline(__always)
        mutating func flush() {
            guard hasPending else { return }
            sink.line(to: pending, smooth: pendingSmooth)
            last = pending
            hasPending = false
            delivered = true
        }

        /// The end point of a curve is a corner like any other.
        mutating func endCurve() {
            curve = false
            pendingSmooth = false
        }

        mutating func close() { finish(closed: true) }

        mutating func finish(closed: Bool) {
            guard open else { return }
            open = false
            flush()
            if closed && delivered
                && !(abs(first.x - last.x) < StrokeSource.epsilon && abs(first.y - last.y) < StrokeSource.epsilon)
            {
                sink.line(to: first, smooth: false)
                last = first
            }
            sink.end(closed: closed && delivered, zeroLength: hasSegment && !delivered)
        }
    }
}

/// Cuts polylines to the part of them a stroke can show, and into dashes, and
/// hands the pieces to the stroker.
///
/// A segment is kept where it passes within `visible` (device space: the area
/// being drawn grown by the farthest a join or cap reaches), found by clipping
/// it to that rectangle; a piece that leaves it ends there with a cap that
/// cannot be seen. Dashes are cut only in the visible parts: elsewhere the
/// pattern advances by arithmetic (whole periods at once), so a dotted line
/// running a million pixels off screen costs nothing, and the dashes on screen
/// stay where they would be if everything were drawn.
struct StrokeCutter<Target: EdgeAccumulator>: PolylineSink {
    var stroker: Stroker<Target>
    let transform: Transform
    let inverse: Transform
    let minX, minY, maxX, maxY: Double
    /// Dash and gap lengths (an even count, all finite and non-negative, some
    /// positive), or empty for a solid stroke.
    let pattern: [Double]
    let period: Double
    let startIndex: Int
    let startRemaining: Double
    private var index = 0
    private var remaining = 0.0

    /// The most dashes one stroke draws; past it nothing more is drawn.
    static var maxDashes: Int { 1_000_000 }
    private var dashes = 0
    private(set) var exhausted = false

    private var first = Point.zero
    private var current = Point.zero
    private var segmentCount = 0
    private var pieceOpen = false
    /// The open piece is the subpath's first, begun at its first point.
    private var pieceAtStart = false
    /// That piece's start, once the piece has ended: capped or joined at the end.
    private var savedStart: Stroker<Target>.Start?
    /// The next subpath, and the one being fed, begin at a seam (`beginsAtSeam`),
    /// and whether it may be exact.
    private var seamNext = false, seamHere = false, exactNext = false, exactHere = false
    /// The subpath being fed ends at a seam (`endsAtSeam`), and whether it may
    /// be exact.
    private var seamAtEnd = false, exactAtEnd = false
    /// The segments at the end of the open piece that lay wholly in the
    /// visible rectangle, one after another (2 at most): an exact seam needs
    /// the two beside it to (`StrokePieces`).
    private var wholeRun = 0

    var shouldStop: Bool { exhausted || stroker.target.isFull }

    init(stroker: Stroker<Target>, transform: Transform, visible: Rect, pattern: [Double]?, phase: Double) {
        self.stroker = stroker
        self.transform = transform
        inverse = transform.inverted() ?? .identity
        minX = visible.minX; minY = visible.minY; maxX = visible.maxX; maxY = visible.maxY
        let pattern = pattern ?? []
        self.pattern = pattern
        period = pattern.reduce(0, +)
        // Where the pattern stands at the start of each subpath.
        (startIndex, startRemaining) = StrokeStyle.dashStart(pattern, phase: phase)
    }

    private var dashed: Bool { !pattern.isEmpty }
    private var on: Bool { index & 1 == 0 }

    // MARK: Pieces

    private mutating func beginPiece(at p: Point, atStart: Bool) -> Bool {
        if exhausted { return false }
        if dashed {
            dashes += 1
            if dashes > Self.maxDashes {
                exhausted = true
                return false
            }
        }
        stroker.begin(p, seam: atStart && seamHere)
        pieceOpen = true
        pieceAtStart = atStart
        return true
    }

    @inline(__always)
    private mutating func extendPiece(to p: Point, smooth: Bool) {
        let last = stroker.last
        if abs(p.x - last.x) < StrokeSource.epsilon && abs(p.y - last.y) < StrokeSource.epsilon { return }
        stroker.line(to: p, smooth: smooth)
    }

    private mutating func endPiece() {
        guard pieceOpen else { return }
        pieceOpen = false
        if pieceAtStart {
            savedStart = stroker.endKeepingStart()
            pieceAtStart = false
        } else {
            stroker.endOpen()
        }
    }

    // MARK: Visibility

    /// Where a segment enters or leaves the visible rectangle: its parameter,
    /// and which side of the rectangle it crosses there (0 for none: the
    /// segment's own end).
    private struct Crossing {
        var t: Double
        var side: Int
    }

    /// The part of the segment from device point `a` to `b` that lies in the
    /// visible rectangle (Liang–Barsky), or nil. Differences are taken of halved
    /// values, so that no coordinate, however large, overflows. (Static, with
    /// the rectangle passed in: as a method of the cutter, each call copied
    /// the whole cutter, 513 bytes, for the call.)
    @inline(__always)
    private static func visibleRange(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
        minX: Double, minY: Double, maxX: Double, maxY: Double
    ) -> (Crossing, Crossing)? {
        if ax >= minX && ax <= maxX && ay >= minY && ay <= maxY && bx >= minX && bx <= maxX && by >= minY && by <= maxY {
            return (Crossing(t: 0, side: 0), Crossing(t: 1, side: 0))
        }
        if (ax < minX && bx < minX) || (ax > maxX && bx > maxX) || (ay < minY && by < minY) || (ay > maxY && by > maxY) {
            return nil
        }
        var enter = Crossing(t: 0, side: 0), leave = Crossing(t: 1, side: 0)
        let dx = bx * 0.5 - ax * 0.5, dy = by * 0.5 - ay * 0.5
        @inline(__always) func clip(_ p: Double, _ q: Double, _ side: Int) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 {
                if r > leave.t { return false }
                if r > enter.t { enter = Crossing(t: r, side: side) }
            } else {
                if r < enter.t { return false }
                if r < leave.t { leave = Crossing(t: r, side: side) }
            }
            return true
        }
        guard clip(-dx, ax * 0.5 - minX * 0.5, 1), clip(dx, maxX * 0.5 - ax * 0.5, 2),
            clip(-dy, ay * 0.5 - minY * 0.5, 3), clip(dy, maxY * 0.5 - ay * 0.5, 4)
        else { return nil }
        return (enter, leave)
    }

    /// The user-space point where the segment from `a` to `b` (device `da`,
    /// `db`) crosses the visible rectangle. The crossing is found in device space
    /// with the coordinate of the side it crosses set exactly, then mapped back:
    /// interpolating in user space would lose the point entirely on a segment
    /// 10³⁰ long crossing a rectangle 30 pixels wide.
    @inline(__always)
    private func point(_ c: Crossing, _ a: Point, _ b: Point, _ da: Point, _ db: Point) -> Point {
        if c.side == 0 { return c.t == 0 ? a : b }
        let t = c.t
        var x = da.x * (1 - t) + db.x * t, y = da.y * (1 - t) + db.y * t
        switch c.side {
        case 1: x = minX
        case 2: x = maxX
        case 3: y = minY
        default: y = maxY
        }
        let i = inverse
        return Point(x: i.a * x + i.c * y + i.tx, y: i.b * x + i.d * y + i.ty)
    }

    /// The distance from `a` to `b`, scaled so that no square overflows: points
    /// 10¹⁶⁰ apart are 10¹⁶⁰ apart, not infinitely far.
    @inline(__always)
    static func distance(_ a: Point, _ b: Point) -> Double {
        let dx = b.x * 0.5 - a.x * 0.5, dy = b.y * 0.5 - a.y * 0.5
        let m = max(abs(dx), abs(dy))
        guard m > 0 else { return 0 }
        let x = dx / m, y = dy / m
        return 2 * m * (x * x + y * y).squareRoot()
    }

    // MARK: Dash pattern

    /// Moves the pattern on by `distance` without drawing.
    private mutating func advance(_ distance: Double) {
        var d = distance
        if d < remaining {
            remaining -= d
            return
        }
        d -= remaining
        index = (index + 1) % pattern.count
        remaining = pattern[index]
        if d >= period { d = d.truncatingRemainder(dividingBy: period) }
        while d >= remaining {
            d -= remaining
            index = (index + 1) % pattern.count
            remaining = pattern[index]
        }
        remaining -= d
    }

    // MARK: PolylineSink

    mutating func beginsAtSeam(exactly: Bool) {
        seamNext = true
        exactNext = exactly
    }

    mutating func endsAtSeam(exactly: Bool) {
        seamAtEnd = true
        exactAtEnd = exactly
    }

    mutating func begin(_ p: Point) {
        seamHere = seamNext
        exactHere = exactNext
        seamNext = false
        exactNext = false
        wholeRun = 0
        first = p
        current = p
        segmentCount = 0
        pieceOpen = false
        pieceAtStart = false
        savedStart = nil
        index = startIndex
        remaining = startRemaining
    }

    mutating func line(to p: Point, smooth: Bool) {
        let a = current
        current = p
        defer { segmentCount += 1 }
        let t = transform
        let da = Point(x: t.a * a.x + t.c * a.y + t.tx, y: t.b * a.x + t.d * a.y + t.ty)
        let db = Point(x: t.a * p.x + t.c * p.y + t.tx, y: t.b * p.x + t.d * p.y + t.ty)
        let range = StrokeCutter.visibleRange(da.x, da.y, db.x, db.y, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        if !dashed {
            guard let (enter, leave) = range else {
                endPiece()
                wholeRun = 0
                return
            }
            let whole = enter.t == 0 && leave.t == 1
            if whole && exactHere && segmentCount == 1 && wholeRun == 1 && pieceOpen {
                // The second segment after an exact seam, both wholly
                // visible: its corner at the seam is the piece before's to
                // send (`StrokePieces`).
                stroker.primeLine(to: p, smooth: smooth)
                wholeRun = 2
                return
            }
            if enter.t > 0 || !pieceOpen {
                endPiece()
                wholeRun = 0
                guard beginPiece(at: point(enter, a, p, da, db), atStart: segmentCount == 0 && enter.t == 0) else { return }
            }
            if leave.t < 1 {
                extendPiece(to: point(leave, a, p, da, db), smooth: false)
                endPiece()
                wholeRun = 0
            } else {
                extendPiece(to: p, smooth: smooth)
                wholeRun = whole ? min(wholeRun + 1, 2) : 0
            }
            return
        }
        let length = StrokeCutter.distance(a, p)
        guard length.isFinite, let (enter, leave) = range else {
            endPiece()
            if length.isFinite { advance(length) }
            return
        }
        if enter.t > 0 {
            endPiece()
            advance(enter.t * length)
        }
        // Distances from here on are measured from where the segment enters the
        // visible rectangle, so they stay exact however long the segment is.
        let entry = point(enter, a, p, da, db), exit = point(leave, a, p, da, db)
        // From the points, not the parameters: on a segment 10³²⁰ long, the two
        // crossings' parameters are the same Double.
        let visibleLength = enter.t == 0 && leave.t == 1 ? length : StrokeCutter.distance(entry, exit)
        let ux = (p.x * 0.5 - a.x * 0.5) / (length * 0.5), uy = (p.y * 0.5 - a.y * 0.5) / (length * 0.5)
        // (Lengths past about 10³⁰⁸ are infinite: such a segment draws nothing.)
        @inline(__always) func at(_ d: Double) -> Point {
            d >= visibleLength ? exit : Point(x: entry.x + ux * d, y: entry.y + uy * d)
        }
        let runsOn = leave.t == 1
        var s = 0.0
        while true {
            let next = s + remaining
            if next > visibleLength {
                // The element runs on past the visible part (or the segment).
                if on && (pieceOpen || beginPiece(at: at(s), atStart: segmentCount == 0 && s == 0 && enter.t == 0)) {
                    extendPiece(to: exit, smooth: runsOn && smooth)
                }
                remaining = next - visibleLength
                break
            }
            // The element ends within the visible part (`<=`: a boundary exactly
            // at the segment's end is taken here, so a zero-length dash there
            // still draws its caps).
            if on && (pieceOpen || beginPiece(at: at(s), atStart: segmentCount == 0 && s == 0 && enter.t == 0)) {
                if next > s { extendPiece(to: at(next), smooth: false) }
                endPiece()
            }
            s = next
            index = (index + 1) % pattern.count
            remaining = pattern[index]
            if exhausted { return }
        }
        if !runsOn {
            endPiece()
            advance((1 - leave.t) * length)
        }
    }

    mutating func end(closed: Bool, zeroLength: Bool) {
        // A seam's end is butt (the next piece goes on from there).
        stroker.endsAtSeam = seamAtEnd
        if zeroLength {
            // A piece whose points all coincide lies inside the stroke of
            // the pieces beside it: no dot.
            if seamHere || seamAtEnd { return }
            let t = transform
            let x = t.a * first.x + t.c * first.y + t.tx, y = t.b * first.x + t.d * first.y + t.ty
            if x >= minX && x <= maxX && y >= minY && y <= maxY && (!dashed || on) && beginPiece(at: first, atStart: false) {
                stroker.endOpen()
                pieceOpen = false
            }
            return
        }
        if seamAtEnd && exactAtEnd && wholeRun == 2 && pieceOpen && !dashed && !closed {
            // An exact seam, its two segments wholly visible: the last
            // segment's sides and what follows are the next piece's to send
            // (`StrokePieces`); the start is capped as usual.
            stroker.capStart(stroker.endAtExactSeam())
            pieceOpen = false
            pieceAtStart = false
        } else if pieceOpen && closed && abs(stroker.last.x - first.x) < StrokeSource.epsilon
            && abs(stroker.last.y - first.y) < StrokeSource.epsilon
        {
            // The piece runs on into the subpath's start: a corner there.
            if pieceAtStart {
                stroker.endClosed()
            } else if let s = savedStart {
                stroker.endClosed(joining: s)
                savedStart = nil
            } else {
                stroker.endOpen()
            }
            pieceOpen = false
            pieceAtStart = false
        } else {
            endPiece()
        }
        if let s = savedStart {
            stroker.capStart(s)
            savedStart = nil
        }
    }
}
