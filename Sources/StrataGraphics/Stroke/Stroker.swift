#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The stroker turns polylines and a `StrokeStyle` into directed edges whose
// non-zero fill is the stroke.
//
// Curves are flattened in user space before they get here (`StrokeSource`), so
// the stroker works on polylines, one vertex at a time: it offsets each segment
// by half the width to either side, joins consecutive offsets on the outer side
// of each corner (miter, round or bevel), and on the inner side goes through the
// corner point itself (a pivot). The pivot keeps the outline consistent for
// segments shorter than the width, where the inner offsets would cross; the
// overlaps it makes all wind the same way, so the non-zero rule fills exactly
// the stroke. Where both segments are long enough, the inside of the corner is
// trimmed instead: the two inner sides end where they cross, or, where a
// segment is too short for that, the inner side is one chord instead of the
// two edges through the pivot (`corner` says why that is the same stroke). The
// outside of a slight round turn, and of a miter, is the one point where the
// outer sides meet. A zigzag chart line's outline has a fifth fewer edges.
// Corners inside a flattened curve get round joins whatever the style, since
// the curve itself has no corner there: that is what keeps a cusp in a cubic
// round rather than spiked.
//
// The outline of an open polyline is the left side forward, the end cap, the
// right side backward and the start cap; a closed one is two loops of opposite
// orientation. Both always wind the same way round (a stroke's inside has
// winding +1 whatever the direction of its path), so strokes of several
// subpaths never cancel where they cross. The rasterizers add edges one at a
// time, in any order, so nothing here is stored: each segment's two side edges
// and each corner's two chains are sent as they are made, and the right side
// is sent forward with its edges reversed. Memory is a few points, whatever the
// length of the path; the start cap waits for the end, because whether the
// polyline closes (and the start becomes a corner) is known only then.
//
// Asked to (`watchesRing`), the stroker also tells whether the outline it
// sent is a ring: the stroke of one closed polyline that turns one way, once
// round, with every inside corner trimmed and no segment's two trims
// overlapping. The outline is then two simple loops, the outer one round the
// inner one, so the winding is 0 or 1 everywhere and the cell rasterizer,
// which sums the edges' areas, covers it exactly: no overlap to count twice.
// In that mode the closing corner is trimmed too (elsewhere it goes through
// its pivot): the last segment's inner side ends where it meets the first
// segment's, and an edge runs back along the first segment's inner side to
// where that side, already sent, starts (the two cancel over their common
// part). Convex shapes (rectangles at any angle, rounded rectangles,
// ellipses, triangles) are such rings whenever the line is narrower than
// they are. Once the outline cannot be a ring, nothing more is sent: the
// caller throws it away.

/// The rules of a stroke's corners that both the stroker and
/// `StrokeJob.mayBeRing`'s check of a whole polygon follow.
enum StrokeCorner {
    /// Whether `v` points into the upper half-plane (y > 0, or along +x):
    /// a corner from outside it into it is one lap round.
    @inline(__always) static func upper(_ v: Point) -> Bool { v.y > 0 || v.y == 0 && v.x > 0 }

    /// One corner of an outline that may be a ring, from direction `a` into
    /// `d` (unit vectors, `cross` and `dot` their products), at half width
    /// `h`: whether it turns up through the +x direction (one lap round is
    /// one such corner), its turn's sign (0 straight on), and the inner trim
    /// h·tan(θ/2) = h·|cross|/(1 + dot) for a turn θ. `StrokeJob.mayBeRing`'s
    /// check of a whole polygon and the stroker's watch of what it sends both
    /// take their corners from here, so the two cannot drift apart.
    @inline(__always)
    static func ring(
        _ a: Point, _ d: Point, cross: Double, dot: Double, halfWidth h: Double
    ) -> (lap: Bool, turn: Double, cut: Double) {
        let lap = !upper(a) && upper(d)
        if abs(cross) < 1e-12 && dot > 0 { return (lap, 0, 0) }  // straight on
        return (lap, cross > 0 ? 1 : -1, h * abs(cross) / (1 + dot))
    }

    /// Whether inner trims `a` and `b` at the two ends of a side `length`
    /// long leave some of its inner side: they meet only on the same side
    /// (`sameSide`), one on each never do. Where they meet, the inner side
    /// would turn back on itself and wind the other way.
    @inline(__always)
    static func trimsApart(_ a: Double, _ b: Double, sameSide: Bool, length: Double) -> Bool {
        !sameSide || a + b < length
    }

    /// Whether a corner's inner sides are trimmed: both segments (the shorter
    /// `reach` long) reach past where their inner offsets cross, h·tan(θ/2),
    /// and past the chord's triangle, h·sin θ (without the division, which
    /// only a trim needs). A reversal (`reverses`) never trims.
    @inline(__always)
    static func trims(cross: Double, dot: Double, reach: Double, halfWidth h: Double) -> Bool {
        let spread = h * abs(cross)
        return spread < reach && spread < reach * (1 + dot) && !reverses(dot: dot)
    }

    /// Whether a turn is within about 10⁻⁶ rad of a full reversal: there
    /// the inner offsets meet past 10⁶ half widths (2h/ε for a turn ε short
    /// of π), and the rounding of unit directions leaves the cross and dot
    /// products noise (a slanted line out and straight back came out with a
    /// cross product of 0 and 1 + dot = 10⁻¹⁶: a trim of 0, as if the line
    /// went straight on, and an outline taken for sparse). Such a turn runs
    /// back along all of the shorter side.
    @inline(__always)
    static func reverses(dot: Double) -> Bool { !(1 + dot > 1e-12) }
}

/// Builds stroke outlines one polyline vertex at a time and sends their edges,
/// mapped through a transform, to a rasterizer.
struct Stroker<Target: EdgeAccumulator> {
    let target: Target
    let halfWidth: Double
    let cap: LineCap
    let join: LineJoin
    /// 1/sin(φ/2) above this bevels a miter (φ: the angle between the segments).
    let miterLimit: Double
    /// The steps of round joins and caps (`arcSteps`), worked out at the
    /// first that needs them (`steps`): a stroke with neither, of a polygon
    /// mitred or bevelled, takes no trigonometry (its arc cosine, sine and
    /// cosine were a fortieth of a small triangle's stroke).
    private var stepsFound: (step: Double, cos: Double, sin: Double, grow: Double)?
    private let tolerance: Double
    let transform: Transform
    /// Whether corners may be simplified (`line(to:smooth:)`): the inside
    /// trimmed or a chord (`corner`), the outside of a slight round turn or a
    /// miter one point.
    let simplifiesCorners: Bool
    /// The least cos θ of a turn θ whose round join is one point, where the
    /// offsets meet: it strays h·(1/cos(θ/2) − 1) out from the arc, at most
    /// a quarter of the tolerance (where a turn's one chord strays in by up to
    /// the whole tolerance).
    let tipCos: Double

    /// The start of a polyline: its first point and the direction it leaves in
    /// (when it has a segment). Kept until the polyline ends, since only then is
    /// it known whether the start gets a cap or a corner.
    struct Start {
        var point: Point
        var direction: Point
        var hasSegment: Bool
        /// The start is a seam between two pieces of one polyline stroked
        /// apart (`StrokePieces`): it gets a butt cap whatever the style, or,
        /// at an exact seam (`primeLine`), none.
        var isSeam = false
        var isExactSeam = false
        /// With `sumsAreas`: the first segment's length, and its
        /// inner trim at its end (0 through the pivot).
        var length = 0.0, endTrim = 0.0
        /// Whether that trim is on the left side.
        var endTrimsLeft = false
    }

    private var start = Start(point: .zero, direction: .zero, hasSegment: false)
    /// The polyline's last point.
    private(set) var last = Point.zero
    private var lastDirection = Point.zero
    /// The length of the polyline's last segment (user space).
    private var lastLength = 0.0
    private var lastSmooth = false
    /// The device-space ends of the last segment's left and right offsets: where
    /// the next corner's chains start and end. Each outline point is mapped
    /// through the transform once, and the chains meet the side edges exactly.
    private var leftEnd = Point.zero, rightEnd = Point.zero
    /// Where the last segment's right side starts (device space). Its sides
    /// are sent at the next corner or end, which may cut them short: the left
    /// from the pen to `leftEnd`, the right from `rightEnd` back to here.
    private var rightFrom = Point.zero
    /// The pen, in device space.
    private var pen = Point.zero
    /// The polyline's end is a seam between two pieces stroked apart: its
    /// end cap is butt whatever the style.
    var endsAtSeam = false

    /// Whether the outline is watched for being a ring (see above), and its
    /// closing corner trimmed when it is.
    var watchesRing = false
    /// The outline sent so far can still be a ring (`watchesRing`): true at
    /// the end when it is one.
    private(set) var isRing = true
    /// The sign of the polyline's turns so far (0 before its first).
    private var ringTurn = 0.0
    /// How many times the direction has passed from the lower half of the
    /// circle of directions into the upper (`StrokeCorner.upper`): once for a
    /// polyline turning one way once round.
    private var ringLaps = 0
    /// How far the last segment's inner side is trimmed at its start.
    private var startCut = 0.0
    /// The first segment's length, and its inner side's trim at its end.
    private var firstLength = 0.0, firstEndCut = 0.0
    /// Whether the outline is for the cell rasterizer, which sums its
    /// parts' areas (`StrokeCoverage.sumsAreas`): a closed polyline's
    /// closing corner is trimmed on the inside where it can be, as every
    /// other corner is, rather than going through its pivot (whose overlap
    /// the sum would count twice where it meets the stroke's edge), and no
    /// side is trimmed at both ends past its length (its inner side would
    /// turn back and wind the other way, taking from the sum).
    var sumsAreas = false
    /// With `sumsAreas`: the last segment's inner trim at its
    /// start (0 through the pivot).
    private var lastStartTrim = 0.0
    /// Whether that trim is on the left side.
    private var lastStartLeft = false
    /// Segments of the polyline, and polylines, so far.
    private var segmentCount = 0, polylineCount = 0

    /// - Parameters:
    ///   - tolerance: how far round joins and caps may stray from circles, in
    ///     user-space units.
    init(
        target: Target, style: StrokeStyle, halfWidth: Double, tolerance: Double, transform: Transform,
        simplifiesCorners: Bool = true
    ) {
        self.target = target
        self.halfWidth = halfWidth
        cap = style.lineCap
        join = style.lineJoin
        miterLimit = style.miterLimit >= 1 ? style.miterLimit : 1
        self.tolerance = tolerance
        self.transform = transform
        self.simplifiesCorners = simplifiesCorners
        let half = halfWidth / (halfWidth + max(tolerance, 0) / 4)
        tipCos = 2 * half * half - 1
    }

    /// The angle of a round join's or cap's steps (within `tolerance` of
    /// the circle of radius `halfWidth`), its cosine and sine, and how far
    /// out a step's point is pushed (times the radius) to keep the arc's
    /// area (`turn`).
    static func arcSteps(tolerance: Double, halfWidth: Double) -> (step: Double, cos: Double, sin: Double, grow: Double) {
        // A chord of angle α on radius r strays r·(1 − cos(α/2)) from the arc.
        let ratio = min(1, max(1e-6, tolerance / max(halfWidth, 1e-12)))
        // At most a quarter turn a step: beyond that the pushed-out vertices of
        // `turn` would stray far from the circle.
        let step = min(Double.pi / 2, max(2 * acos(1 - ratio), Double.pi / 2048))
        let sine = sin(step)
        return (step, cos(step), sine, (step / sine).squareRoot())
    }

    /// `arcSteps` for this stroke's tolerance and width, worked out once.
    private mutating func steps() -> (step: Double, cos: Double, sin: Double, grow: Double) {
        if let stepsFound { return stepsFound }
        let found = Self.arcSteps(tolerance: tolerance, halfWidth: halfWidth)
        stepsFound = found
        return found
    }

    // MARK: Emitting

    /// `p` in device space.
    @inline(__always) private func device(_ p: Point) -> Point {
        let t = transform
        return Point(x: t.a * p.x + t.c * p.y + t.tx, y: t.b * p.x + t.d * p.y + t.ty)
    }

    /// An edge from the pen to device point `q`; the pen moves there.
    @inline(__always) private mutating func edge(to q: Point) {
        target.addLine(pen.x, pen.y, q.x, q.y)
        pen = q
    }

    @inline(__always) private mutating func penLine(_ p: Point) { edge(to: device(p)) }

    /// The last edge of a chain: to `q`, or to its device point `known` when the
    /// caller has it.
    @inline(__always) private mutating func finish(_ q: Point, _ known: Point?) -> Point {
        let d = known ?? device(q)
        edge(to: d)
        return d
    }

    /// Lines along the arc of radius `halfWidth` around `c`, turning clockwise (the
    /// angle decreasing) from unit vector `from` to unit vector `to`, at most half a
    /// turn, ending exactly at `end` (device point `known`, when given). Steps by
    /// a fixed rotation, so a join costs no trigonometry: four multiplications
    /// and a cross product a step.
    ///
    /// The inner vertices sit at radius `halfWidth·√(step / sin step)`, where a
    /// fan of chords has the area of the arc it stands for: chords through points
    /// on the circle would cut every round cap and join short (a round cap of a
    /// 2-pixel line measured 5 % light that way).
    private mutating func turn(around c: Point, from: Point, to: Point, end: Point, _ known: Point?) -> Point {
        var v = from
        let (_, cs, sn, grow) = steps()
        let r = halfWidth * grow
        while true {
            let next = Point(x: v.x * cs + v.y * sn, y: v.y * cs - v.x * sn)  // rotated by −step
            // Stop unless `to` is still clockwise of the next point by a margin.
            if next.x * to.y - next.y * to.x > -1e-9 { break }
            penLine(Point(x: c.x + r * next.x, y: c.y + r * next.y))
            v = next
        }
        return finish(end, known)
    }

    // MARK: Geometry helpers

    /// The left normal of a unit direction: (−dy, dx).
    @inline(__always) private static func normal(_ d: Point) -> Point { Point(x: -d.y, y: d.x) }

    @inline(__always) private func offset(_ p: Point, _ n: Point) -> Point {
        Point(x: p.x + halfWidth * n.x, y: p.y + halfWidth * n.y)
    }

    /// The corner at `v` on the left side, coming in along `a` and leaving along
    /// `b` (unit vectors): a chain of edges from the end of the incoming offset
    /// (device point `from`) to the start of the outgoing one (device point
    /// `to`, when known). `reach` is the shorter of the two segments' lengths
    /// where the inside of the corner may skip the pivot, 0 where it may not.
    /// Returns the device point it ends at.
    @discardableResult
    private mutating func corner(
        _ v: Point, _ a: Point, _ b: Point, smooth: Bool, reach: Double, from: Point, to: Point?
    ) -> Point {
        let na = Stroker.normal(a), nb = Stroker.normal(b)
        let q = offset(v, nb)
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        pen = from
        if cross > 0 && dot > -0.999_999 || abs(cross) < 1e-12 && dot > 0 {
            // Turning toward the left: this side is the inside of the corner (or
            // there is no corner at all). The chain through the pivot `v` and
            // the straight chord from `from` to `q` differ by the triangle
            // (from, v, q), which lies inside both segments' rectangles when
            // both reach past it: its points are v + h·(λ·na + μ·nb), λ + μ ≤ 1,
            // at most h·sin θ (θ the turn, sin θ = cross) back along `a` and
            // ahead along `b`, and within h of either's axis. The winding
            // there is then at least 2 through the pivot, at least 1 along the
            // chord: the same stroke with one edge fewer. (Where the inner
            // offsets meet within both segments, `line(to:smooth:)` ends them
            // there instead, which leaves out the chord's triangle and the one
            // between it and the meeting point: the quadrilateral from the
            // meeting point to `from`, `v` and `q` lies within both
            // rectangles too when they reach h·tan(θ/2) as well as h·sin θ
            // back along `a` and ahead along `b`.)
            if abs(cross) >= 1e-12 || dot <= 0 {
                if !(halfWidth * cross < reach) { penLine(v) }
            }
            return finish(q, to)
        }
        // The outside of the corner (a full reversal counts as outside, so that the
        // cap-like join goes round the front).
        switch smooth ? .round : join {
        case .round:
            return turn(around: v, from: na, to: nb, end: q, to)
        case .miter:
            if miterFits(dot, na, nb) {
                let k = halfWidth / (1 + (na.x * nb.x + na.y * nb.y))
                penLine(Point(x: v.x + k * (na.x + nb.x), y: v.y + k * (na.y + nb.y)))
            }
            return finish(q, to)
        case .bevel:
            return finish(q, to)
        }
    }

    /// The cap at `p`, leaving along unit direction `d`: from the left offset
    /// (device point `from`) to the right offset (device point `to`), round the
    /// front.
    private mutating func capEnd(_ p: Point, _ d: Point, from: Point, to: Point, seam: Bool) {
        let n = Stroker.normal(d)
        let left = offset(p, n), right = offset(p, Point(x: -n.x, y: -n.y))
        pen = from
        switch seam ? .butt : cap {
        case .butt:
            edge(to: to)
        case .square:
            penLine(Point(x: left.x + halfWidth * d.x, y: left.y + halfWidth * d.y))
            penLine(Point(x: right.x + halfWidth * d.x, y: right.y + halfWidth * d.y))
            edge(to: to)
        case .round:
            _ = turn(around: p, from: n, to: Point(x: -n.x, y: -n.y), end: right, to)
        }
    }

    // MARK: Polylines

    /// Starts a polyline at `p`.
    mutating func begin(_ p: Point, seam: Bool = false) {
        start = Start(point: p, direction: .zero, hasSegment: false, isSeam: seam)
        last = p
        lastSmooth = false
        polylineCount += 1
        if polylineCount > 1 || seam { isRing = false }
        segmentCount = 0
        startCut = 0
        lastStartTrim = 0
    }

    /// With `sumsAreas`, whether the corner at the end of the last segment
    /// is trimmed (`trim`: whether it may be), and the trims kept for the
    /// next corner and the closing one. No side is trimmed past its length:
    /// its inner side would turn back, winding the other way there. (Trims
    /// on the two sides of a segment, one each, do not meet.) Out of line
    /// with `watchCorner`: inside `line(to:)`, it kept the compiler from
    /// inlining the edge step (the line scene 0.4 % slower).
    @inline(__always)
    private mutating func summedTrim(_ trim: Bool, cross: Double, dot: Double, spread: Double) -> Bool {
        var trim = trim
        let cut = spread / (1 + dot), left = cross > 0
        if trim && !StrokeCorner.trimsApart(lastStartTrim, cut, sameSide: left == lastStartLeft, length: lastLength) {
            trim = false
        }
        let kept = trim ? cut : 0
        if segmentCount == 1 { (start.endTrim, start.endTrimsLeft) = (kept, left) }
        (lastStartTrim, lastStartLeft) = (kept, left)
        return trim
    }

    /// `watchRing` for the corner at the end of the last segment, keeping the
    /// first corner's figures for `closeRing`, and with `sumsAreas`, the
    /// corner's trim (`summedTrim`): returns whether the corner is trimmed.
    /// Out of line: inside `line(to:)`, it kept the compiler from inlining
    /// the edge step into that loop (the line scene ran 0.6 % more
    /// instructions).
    @inline(never)
    private mutating func watchCorner(
        _ a: Point, _ d: Point, cross: Double, dot: Double, trims: Bool, spread: Double
    ) -> Bool {
        let trims = sumsAreas ? summedTrim(trims, cross: cross, dot: dot, spread: spread) : trims
        guard watchesRing else { return trims }
        let cut = watchRing(a, d, cross: cross, dot: dot, trims: trims, before: lastLength)
        if segmentCount == 1 {
            firstLength = lastLength
            firstEndCut = cut
        }
        startCut = cut
        return trims
    }

    /// Watches the corner from direction `a` into `d` for the ring
    /// (`StrokeCorner.ring`): the turn's sign, the laps, and the inner trim against
    /// the incoming segment's length `before` (less its trim at its start).
    /// Returns the trim.
    @inline(__always)
    private mutating func watchRing(_ a: Point, _ d: Point, cross: Double, dot: Double, trims: Bool, before: Double) -> Double {
        let corner = StrokeCorner.ring(a, d, cross: cross, dot: dot, halfWidth: halfWidth)
        if corner.lap { ringLaps += 1 }
        if corner.turn == 0 { return 0 }
        if ringTurn == 0 { ringTurn = corner.turn }
        if corner.turn != ringTurn || !trims || !(startCut + corner.cut < before) { isRing = false }
        return corner.cut
    }

    /// Adds a segment to `p`, which must differ from the previous point. `smooth`
    /// marks a vertex inside a flattened curve (its corner is always round).
    @inline(__always)
    mutating func line(to p: Point, smooth: Bool) {
        // Watched for a ring and not one: what is sent is thrown away.
        if watchesRing && !isRing { return }
        let dx = p.x - last.x, dy = p.y - last.y
        let length = (dx * dx + dy * dy).squareRoot()
        let d = Point(x: dx / length, y: dy / length)
        let n = Stroker.normal(d), m = Point(x: -n.x, y: -n.y)
        var rightStart = device(offset(last, m))
        if start.hasSegment {
            // The corner at `last`, each side sent with the last segment's
            // side: the right side's first (the reversed polyline comes in
            // along −d and leaves along −a), then the left side's, which
            // leaves the pen where this segment's left side starts.
            //
            // The inside is trimmed when both segments reach past where their
            // inner offsets cross, h·tan(θ/2) back from the corner's offsets
            // (tan(θ/2) = |cross| / (1 + dot), θ the turn), and past the
            // chord's triangle, h·sin θ: the inner sides end and start where
            // they cross, with no edge between them (see `corner` for why the
            // stroke is the same). The outside of a slight round turn, where
            // the offsets' meeting point strays from the arc by no more than
            // a quarter of the tolerance (`tipCos`), and of a miter, is that
            // point: the outer sides run on to it, with no edge between them
            // either.
            let a = lastDirection
            let cross = a.x * d.y - a.y * d.x, dot = a.x * d.x + a.y * d.y
            let spread = halfWidth * abs(cross), reach = min(length, lastLength)
            let na = Stroker.normal(a)
            var trim = simplifiesCorners && StrokeCorner.trims(cross: cross, dot: dot, reach: reach, halfWidth: halfWidth)
            let nb = Stroker.normal(d)
            let tip =
                simplifiesCorners
                && (lastSmooth || join == .round ? dot >= tipCos : join == .miter && miterFits(dot, na, nb))
            let chordReach = simplifiesCorners ? reach : 0
            if watchesRing || sumsAreas { trim = watchCorner(a, d, cross: cross, dot: dot, trims: trim, spread: spread) }
            @inline(__always) func meeting(_ side: Double) -> Point {
                // Where the offsets on `side` (+1 left, −1 right) meet.
                if side * cross > 0 {
                    let cut = spread / (1 + dot)
                    return device(
                        Point(x: last.x + side * halfWidth * na.x - cut * a.x, y: last.y + side * halfWidth * na.y - cut * a.y))
                }
                let k = side * halfWidth / (1 + (na.x * nb.x + na.y * nb.y))
                return device(Point(x: last.x + k * (na.x + nb.x), y: last.y + k * (na.y + nb.y)))
            }
            // (The left side first: the right side's corner moves the pen.)
            let leftMeets = cross > 0 ? trim : tip
            let leftStop = leftMeets ? meeting(1) : leftEnd
            edge(to: leftStop)
            if cross < 0 ? trim : tip {
                let meet = meeting(-1)
                target.addLine(meet.x, meet.y, rightFrom.x, rightFrom.y)
                rightStart = meet
            } else {
                target.addLine(rightEnd.x, rightEnd.y, rightFrom.x, rightFrom.y)
                corner(
                    last, Point(x: -d.x, y: -d.y), Point(x: -a.x, y: -a.y), smooth: lastSmooth, reach: chordReach,
                    from: rightStart, to: rightEnd)
            }
            if leftMeets {
                pen = leftStop
            } else {
                corner(last, a, d, smooth: lastSmooth, reach: chordReach, from: leftEnd, to: nil)
            }
        } else {
            start.direction = d
            start.hasSegment = true
            start.length = length
            pen = device(offset(last, n))
        }
        // The two sides of the segment, sent at the next corner or end: the
        // left forward from the pen, the right backward to `rightStart`.
        leftEnd = device(offset(p, n))
        rightEnd = device(offset(p, m))
        rightFrom = rightStart
        last = p
        lastDirection = d
        lastLength = length
        lastSmooth = smooth
        segmentCount += 1
    }

    /// `line(to:smooth:)` for the second segment after an exact seam
    /// (`StrokePieces`), sending nothing: the corner at the last point and
    /// the first segment's sides are the piece before's to send. What it
    /// leaves (the pen where the new segment's left side starts, where its
    /// right side ends, and both sides' far ends) depends on that corner
    /// alone, so the edges sent from here on are the whole polyline's. The
    /// start then gets no cap. (Pieces are never watched for a ring nor
    /// summed; such a stroker takes the segment as `line(to:smooth:)` does.)
    mutating func primeLine(to p: Point, smooth: Bool) {
        guard start.hasSegment, segmentCount == 1, start.isSeam, !watchesRing, !sumsAreas else {
            line(to: p, smooth: smooth)
            return
        }
        let dx = p.x - last.x, dy = p.y - last.y
        let length = (dx * dx + dy * dy).squareRoot()
        let d = Point(x: dx / length, y: dy / length)
        let n = Stroker.normal(d), m = Point(x: -n.x, y: -n.y)
        // As `line(to:smooth:)` works the corner out.
        let a = lastDirection
        let cross = a.x * d.y - a.y * d.x, dot = a.x * d.x + a.y * d.y
        let spread = halfWidth * abs(cross), reach = min(length, lastLength)
        let na = Stroker.normal(a)
        let trim = simplifiesCorners && StrokeCorner.trims(cross: cross, dot: dot, reach: reach, halfWidth: halfWidth)
        let tip =
            simplifiesCorners
            && (lastSmooth || join == .round ? dot >= tipCos : join == .miter && miterFits(dot, na, n))
        func meeting(_ side: Double) -> Point {
            if side * cross > 0 {
                let cut = spread / (1 + dot)
                return device(
                    Point(x: last.x + side * halfWidth * na.x - cut * a.x, y: last.y + side * halfWidth * na.y - cut * a.y))
            }
            let k = side * halfWidth / (1 + (na.x * n.x + na.y * n.y))
            return device(Point(x: last.x + k * (na.x + n.x), y: last.y + k * (na.y + n.y)))
        }
        // The left side starts where the offsets meet, or where the left
        // chain round the corner ends (`corner` ends every chain at the new
        // segment's offset of the corner point); the right side ends where
        // they meet, or at its offset.
        pen = (cross > 0 ? trim : tip) ? meeting(1) : device(offset(last, n))
        rightFrom = (cross < 0 ? trim : tip) ? meeting(-1) : device(offset(last, m))
        leftEnd = device(offset(p, n))
        rightEnd = device(offset(p, m))
        last = p
        lastDirection = d
        lastLength = length
        lastSmooth = smooth
        segmentCount += 1
        start.isExactSeam = true
    }

    /// Ends the polyline at an exact seam (`StrokePieces`): its last
    /// segment's sides and end are the next piece's to send. Returns its
    /// start, to be capped (`capStart`).
    mutating func endAtExactSeam() -> Start {
        isRing = false
        return start
    }

    /// Whether a miter join fits a turn whose directions have dot product
    /// `dot` and left normals `na`, `nb`: within the limit, and not a full
    /// reversal (whose miter would point backwards: it is bevelled). Miter
    /// length over line width is 1/sin(φ/2), φ the angle between the
    /// segments; φ = π − θ for a turn θ with cos θ = dot, so
    /// sin(φ/2) = cos(θ/2) = √((1 + dot)/2).
    @inline(__always) private func miterFits(_ dot: Double, _ na: Point, _ nb: Point) -> Bool {
        let s = ((1 + dot) / 2).squareRoot()
        return dot > -0.999_999 && s > 0 && 1 / s <= miterLimit && 1 + (na.x * nb.x + na.y * nb.y) > 1e-12
    }

    /// Sends the last segment's sides whole.
    @inline(__always) private mutating func sendSides() {
        edge(to: leftEnd)
        target.addLine(rightEnd.x, rightEnd.y, rightFrom.x, rightFrom.y)
    }

    /// Ends the polyline open: caps at both ends, or, when it has no segment, the
    /// caps of a zero-length segment (a dot for round caps, a square for square
    /// caps, nothing for butt caps, as Core Graphics and Skia draw).
    mutating func endOpen() {
        isRing = false
        guard start.hasSegment else {
            dot(start.point)
            return
        }
        sendSides()
        capEnd(last, lastDirection, from: leftEnd, to: rightEnd, seam: endsAtSeam)
        capStart(start)
    }

    /// Ends the polyline with its end cap only, and returns its start, to be
    /// capped (`capStart`) or joined (`endClosed(joining:)`) later.
    mutating func endKeepingStart() -> Start {
        isRing = false
        if start.hasSegment {
            sendSides()
            capEnd(last, lastDirection, from: leftEnd, to: rightEnd, seam: endsAtSeam)
        }
        return start
    }

    /// The cap (or dot) of a start kept by `endKeepingStart`; none at an
    /// exact seam.
    mutating func capStart(_ s: Start) {
        if s.isExactSeam { return }
        guard s.hasSegment else {
            dot(s.point)
            return
        }
        // The end cap of the reversed polyline: from the right offset to the left.
        let n = Stroker.normal(s.direction)
        capEnd(
            s.point, Point(x: -s.direction.x, y: -s.direction.y),
            from: device(offset(s.point, Point(x: -n.x, y: -n.y))), to: device(offset(s.point, n)), seam: s.isSeam)
    }

    /// Ends the polyline, which must have reached `s.point` again, with a corner
    /// there between its last segment and the segment `s` leaves along: a closed
    /// subpath (`s` its own start), or the last dash of a closed subpath running
    /// on into its first.
    mutating func endClosed(joining other: Start? = nil) {
        let s = other ?? start
        if other != nil || !start.hasSegment || segmentCount < 3 { isRing = false }
        if watchesRing {
            // A ring is closed trimmed; anything else is thrown away.
            if isRing { closeRing() }
            return
        }
        if sumsAreas, simplifiesCorners, start.hasSegment, s.hasSegment, other != nil || segmentCount >= 3 {
            // (A closed subpath of two segments turns back on itself.)
            let a = lastDirection, d = s.direction
            let cross = a.x * d.y - a.y * d.x, dot = a.x * d.x + a.y * d.y
            let cut = halfWidth * abs(cross) / (1 + dot)
            if abs(cross) >= 1e-12,
                StrokeCorner.trims(cross: cross, dot: dot, reach: min(lastLength, s.length), halfWidth: halfWidth),
                StrokeCorner.trimsApart(lastStartTrim, cut, sameSide: (cross > 0) == lastStartLeft, length: lastLength),
                StrokeCorner.trimsApart(cut, s.endTrim, sameSide: (cross > 0) == s.endTrimsLeft, length: s.length)
            {
                closeTrimmed(s, side: cross > 0 ? 1 : -1, cut: cut)
                if other != nil { capStart(start) }
                return
            }
        }
        if start.hasSegment && s.hasSegment {
            sendSides()
            let d = s.direction
            let n = Stroker.normal(d)
            let back = Point(x: -lastDirection.x, y: -lastDirection.y)
            // (Through the pivot, whatever the segments' lengths: were every
            // corner of a small closed polyline cut short by its chord, a
            // point inside all their triangles would lose one winding at each
            // and none would be left.)
            corner(
                s.point, Point(x: -d.x, y: -d.y), back, smooth: false, reach: 0,
                from: device(offset(s.point, Point(x: -n.x, y: -n.y))), to: rightEnd)
            corner(
                s.point, lastDirection, d, smooth: false, reach: 0, from: leftEnd, to: device(offset(s.point, n)))
            // Joined to another polyline's start, this one's own start still
            // needs its cap: without it the outline is open, and its winding
            // runs on to the end of every row the cap spans.
            if other != nil { capStart(start) }
            return
        }
        endOpen()
        if let other { capStart(other) }
    }

    /// Closes a polyline watched for a ring with its closing corner trimmed
    /// on the inside, when the corner keeps the outline a ring; otherwise
    /// sends nothing and leaves `isRing` false.
    private mutating func closeRing() {
        let a = lastDirection, d = start.direction
        let cross = a.x * d.y - a.y * d.x, dot = a.x * d.x + a.y * d.y
        let trims =
            simplifiesCorners
            && StrokeCorner.trims(cross: cross, dot: dot, reach: min(lastLength, firstLength), halfWidth: halfWidth)
        let cut = watchRing(a, d, cross: cross, dot: dot, trims: trims, before: lastLength)
        // Once round, one way, and the first segment's trims apart too.
        guard isRing, ringLaps == 1, ringTurn != 0, cut + firstEndCut < firstLength else {
            isRing = false
            return
        }
        closeTrimmed(start, side: ringTurn, cut: cut)
    }

    /// Closes the polyline at the start `s` (its own, or the first piece's
    /// of a subpath cut in pieces) with the corner there trimmed on the
    /// inside (`side` +1 left, −1 right), `cut` back along the last segment
    /// and on along the first: the last segment's inner side ends where it
    /// meets the first's, and runs back along the first's to where that,
    /// already sent, starts (the two cancel over their common part). Both
    /// segments must reach past their trims.
    private mutating func closeTrimmed(_ s: Start, side: Double, cut: Double) {
        let a = lastDirection, d = s.direction
        let p = s.point
        let na = Stroker.normal(a), n = Stroker.normal(d)
        // Where the inner sides meet, `cut` back along the last segment.
        let meet = device(
            Point(x: p.x + side * halfWidth * na.x - cut * a.x, y: p.y + side * halfWidth * na.y - cut * a.y))
        let firstLeft = device(offset(p, n)), firstRight = device(offset(p, Point(x: -n.x, y: -n.y)))
        if side > 0 {
            // The inside on the left: the last segment's left side ends where
            // it meets the first's, then runs back to where that starts.
            edge(to: meet)
            edge(to: firstLeft)
            target.addLine(rightEnd.x, rightEnd.y, rightFrom.x, rightFrom.y)
            corner(p, Point(x: -d.x, y: -d.y), Point(x: -a.x, y: -a.y), smooth: false, reach: 0, from: firstRight, to: rightEnd)
        } else {
            // On the right, traced backwards: from where the first segment's
            // right side ends, to the meeting point, and along the last's.
            edge(to: leftEnd)
            corner(p, a, d, smooth: false, reach: 0, from: leftEnd, to: firstLeft)
            target.addLine(firstRight.x, firstRight.y, meet.x, meet.y)
            target.addLine(meet.x, meet.y, rightFrom.x, rightFrom.y)
        }
    }

    /// A zero-length segment: CG and Skia draw its caps, a dot or a square.
    private mutating func dot(_ p: Point) {
        switch cap {
        case .butt:
            return
        case .round:
            // A whole polygon of area πr²: every vertex pushed out (see `turn`).
            let n = max(8, Int((2 * Double.pi / steps().step).rounded(.up)))
            let step = 2 * Double.pi / Double(n)
            let r = halfWidth * (step / sin(step)).squareRoot()
            let first = Point(x: p.x + r, y: p.y)
            pen = device(first)
            for i in 1..<n {
                let a = step * Double(i)
                penLine(Point(x: p.x + r * cos(a), y: p.y + r * sin(a)))
            }
            penLine(first)
        case .square:
            let h = halfWidth
            let first = Point(x: p.x - h, y: p.y - h)
            pen = device(first)
            penLine(Point(x: p.x + h, y: p.y - h))
            penLine(Point(x: p.x + h, y: p.y + h))
            penLine(Point(x: p.x - h, y: p.y + h))
            penLine(first)
        }
    }
}
