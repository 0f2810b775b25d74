/// The stroke of a convex polygon with mitred corners: one outline, or a
/// ring of two, filled.
///
/// A closed polygon that turns one way, once round, stroked with mitred
/// corners, covers the points within half the line's width `h` of its sides,
/// and each corner's miter, or its bevel where the miter is past the limit.
/// That is the polygon through the miters' tips and the bevels' ends, less
/// the points inside farther than `h` from every side (the polygon cut by
/// each side's line moved `h` in: nothing, where the polygon is no wider
/// inside than the line), exactly:
///
/// - inside, the side nearest a point has its foot on the side (the polygon
///   is convex), so a point within `h` of it is in that side's rectangle,
///   and a point farther from every side's line is in no rectangle and no
///   corner (the stroker's inside corners go through their vertex, within
///   `h` of two sides' lines);
/// - outside, a point of the outer outline is in a side's rectangle, a
///   miter or a bevel, all of them the stroke's;
/// - and nothing of the stroke lies outside that outline: every point of
///   the stroke is within `h` of some point of the polygon, and a miter
///   holds the whole of its corner's round. A bevel does not: past its
///   chord, a point of that round is nearer its corner than any other point
///   of the polygon, so the stroke reaches there only from within `h` of the
///   corner itself, when no other vertex and no side but the corner's own
///   two is within `2h` of it (`bevelsStayApart`; else the stroker draws it).
///
/// The outline goes to the cell rasterizer (non-zero: the inner side wound
/// the other way), which covers it exactly, without the stroker. Where the
/// line covers the whole inside (a small triangle, a sliver), the stroker's
/// outline overlaps itself all over and went to the overlap-exact walk, a
/// quarter row at a time where pieces overlap, in 2–3 times the time
/// (Benchmarks/RESULTS.md); a wider polygon's stroke is a ring
/// (`StrokeJob.mayBeRing`), which the stroker traced for the cell
/// rasterizer, corner by corner.
///
/// A path with curves (a rounded rectangle, an ellipse) is the polygon the
/// stroker flattens it to, and a point inside a curve is joined round, as
/// the stroker joins it (its steps, its points pushed out to keep the
/// arc's area): the outer side is then the stroker's own, and the inner the
/// inside moved in, as for any polygon.
enum ConvexStroke {
    /// The most sides a polygon of lines is tried with, and the most a
    /// polygon whose inside loses sides as it moves in is (its inside is
    /// then cut by each side in turn: n² steps).
    static let maxSides = 32
    /// The most points a path with curves is flattened to.
    static let maxVertices = 256
    /// The most verbs a path with curves may have (a rounded rectangle has
    /// ten, an ellipse six).
    static let maxCurveVerbs = 18

    /// The outline (user space) of the stroke of the closed convex polygon
    /// `path` (a move, lines, a close; or, with curves, the polygon they
    /// are flattened to within `tolerance`, as the stroker flattens them)
    /// at half width `h`, mitred within `miterLimit` (a miter's length over
    /// the line's width), where that stroke is the polygon through the
    /// miters' tips and the bevels' ends, less the polygon's inside moved
    /// `h` in where that is not empty (see above): written to `points`
    /// (room for `6 maxVertices`), the outer side's `outer` points first,
    /// then the inner side's `inner` points, wound the other way (none
    /// where the line covers the inside). Nil where the stroke is not such
    /// an outline.
    static func outline(
        of path: Path, halfWidth h: Double, miterLimit: Double, tolerance: Double,
        into points: UnsafeMutableBufferPointer<Point>
    ) -> (outer: Int, inner: Int)? {
        let verbs = path.verbs, count = verbs.count
        guard count >= 3, verbs[0] == .move, verbs[count - 1] == .close, h > 0, h.isFinite,
            points.count >= 6 * maxVertices
        else { return nil }
        var curves = false
        for k in 1..<(count - 1) {
            switch verbs[k] {
            case .line: continue
            case .quad, .cubic: curves = true
            default: return nil
            }
        }
        guard curves else {
            guard count >= 4, count <= maxSides + 1 else { return nil }
            return path.points.withUnsafeBufferPointer { p in
                guard p.count >= 3, p.count <= maxSides else { return nil }
                return outline(of: p, smooth: nil, halfWidth: h, miterLimit: miterLimit, tolerance: 0, into: points)
            }
        }
        guard count <= maxCurveVerbs, tolerance > 0, tolerance.isFinite else { return nil }
        return withUnsafeTemporaryAllocation(of: Point.self, capacity: maxVertices) { buffer in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: maxVertices) { smooth in
                guard let n = flatten(path, tolerance: tolerance, into: buffer, smooth: smooth) else { return nil }
                return outline(
                    of: UnsafeBufferPointer(rebasing: buffer[0..<n]), smooth: UnsafeBufferPointer(rebasing: smooth[0..<n]),
                    halfWidth: h, miterLimit: miterLimit, tolerance: tolerance, into: points)
            }
        }
    }

    /// The points of the closed path `path` (a move, then lines and curves)
    /// as the stroker takes them (`StrokeSource.feed`: curves flattened
    /// within `tolerance`, repeated points dropped, the closing point
    /// added), written to `out`, and whether each is inside a curve
    /// (`smooth`: the stroker joins such points round): their count, or nil
    /// where there would be more than `out` holds (counted before anything
    /// is flattened, from each curve's second differences, as
    /// `CurveFlattener` cuts it at the most).
    private static func flatten(
        _ path: Path, tolerance: Double, into out: UnsafeMutableBufferPointer<Point>,
        smooth: UnsafeMutableBufferPointer<Bool>
    ) -> Int? {
        let (quadLimit, cubicLimit) = StrokeSource.flatteningLimits(tolerance: tolerance)
        let expected = path.points.withUnsafeBufferPointer { pts in
            // The pieces each curve is cut into at most: the least n with
            // m / n⁴ within the limit, and a power of two where halving
            // makes it (twice that, to be safe).
            var expected = 1.0, i = 0, last = Point.zero
            for verb in path.verbs {
                switch verb {
                case .move, .line:
                    last = pts[i]
                    i += 1
                    expected += 1
                case .quad:
                    let dx = last.x - 2 * pts[i].x + pts[i + 1].x, dy = last.y - 2 * pts[i].y + pts[i + 1].y
                    expected += 2 * ((dx * dx + dy * dy) / quadLimit).squareRoot().squareRoot() + 2
                    last = pts[i + 1]
                    i += 2
                case .cubic:
                    let ax = last.x - 2 * pts[i].x + pts[i + 1].x, ay = last.y - 2 * pts[i].y + pts[i + 1].y
                    let bx = pts[i].x - 2 * pts[i + 1].x + pts[i + 2].x, by = pts[i].y - 2 * pts[i + 1].y + pts[i + 2].y
                    let m = max(ax * ax + ay * ay, bx * bx + by * by)
                    expected += 2 * (m / cubicLimit).squareRoot().squareRoot() + 2
                    last = pts[i + 2]
                    i += 3
                case .close:
                    break
                }
            }
            return expected
        }
        guard expected <= Double(out.count), smooth.count >= out.count else { return nil }
        // (No culling: a huge rectangle. The precount bounds the work.)
        let everywhere = Rect(x: -0x1p1000, y: -0x1p1000, width: 0x1p1001, height: 0x1p1001)
        var sink = VertexSink(out: out, smooth: smooth)
        StrokeSource.feed(path, tolerance: tolerance, cull: everywhere, into: &sink)
        return sink.overflowed ? nil : sink.count
    }

    /// The stroker's points of one subpath into buffers, in order, until
    /// they are full.
    private struct VertexSink: PolylineSink {
        let out: UnsafeMutableBufferPointer<Point>
        let smooth: UnsafeMutableBufferPointer<Bool>
        var count = 0
        var overflowed = false

        init(out: UnsafeMutableBufferPointer<Point>, smooth: UnsafeMutableBufferPointer<Bool>) {
            self.out = out
            self.smooth = smooth
        }

        var shouldStop: Bool { overflowed }

        mutating func begin(_ p: Point) { line(to: p, smooth: false) }

        mutating func line(to p: Point, smooth isSmooth: Bool) {
            guard count < out.count else {
                overflowed = true
                return
            }
            out[count] = p
            smooth[count] = isSmooth
            count += 1
        }

        mutating func end(closed: Bool, zeroLength: Bool) {}
        mutating func beginsAtSeam(exactly: Bool) {}
        mutating func endsAtSeam(exactly: Bool) {}
    }

    /// `outline(of:…)` for the closed polygon through `p` (at most
    /// `maxVertices` points), those `smooth` inside a curve, which are
    /// joined round as the stroker joins them (`Stroker.turn`, its steps
    /// set by `tolerance`, as the stroker's): the outer ends of the two
    /// sides, and between them a point at each of its steps.
    private static func outline(
        of p: UnsafeBufferPointer<Point>, smooth: UnsafeBufferPointer<Bool>?, halfWidth h: Double, miterLimit: Double,
        tolerance: Double, into points: UnsafeMutableBufferPointer<Point>
    ) -> (outer: Int, inner: Int)? {
        let tips = points
        // The outer side's room: the rest of `points` holds the inner.
        let outerRoom = 4 * maxVertices
        // (Round steps only where a curve has smooth points: a polygon's
        // stroke takes no trigonometry.)
        let (_, stepCos, stepSin, stepGrow) =
            smooth == nil ? (0, 1, 0, 1) : Stroker<StrokeRasterizer>.arcSteps(tolerance: tolerance, halfWidth: h)
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: maxVertices) { smoothSide in
            // The sides between distinct points, round the closed polygon:
            // where each starts, its unit direction.
            return withUnsafeTemporaryAllocation(of: Point.self, capacity: 2 * maxVertices) { sides -> (outer: Int, inner: Int)? in
                let n = p.count
                var sideCount = 0
                var from = p[0], fromIndex = 0
                var i = 0
                while i < n {
                    i += 1
                    let to = p[i == n ? 0 : i]
                    let dx = to.x - from.x, dy = to.y - from.y
                    let length = (dx * dx + dy * dy).squareRoot()
                    guard length.isFinite else { return nil }
                    guard length > StrokeSource.epsilon else { continue }
                    sides[2 * sideCount] = from
                    sides[2 * sideCount + 1] = Point(x: dx / length, y: dy / length)
                    smoothSide[sideCount] = smooth?[fromIndex] ?? false
                    sideCount += 1
                    from = to
                    fromIndex = i == n ? 0 : i
                }
                guard sideCount >= 3 else { return nil }
                // Each corner: one way round, once; its miter's tip, or the
                // two ends of its bevel.
                var turn = 0.0, laps = 0, tipCount = 0
                var bevels: UInt64 = 0
                for k in 0..<sideCount {
                    let a = sides[2 * k + 1], next = (k + 1) % sideCount
                    let v = sides[2 * next], d = sides[2 * next + 1]
                    let cross = a.x * d.y - a.y * d.x, dot = a.x * d.x + a.y * d.y
                    let corner = StrokeCorner.ring(a, d, cross: cross, dot: dot, halfWidth: h)
                    if corner.lap { laps += 1 }
                    if corner.turn == 0 { continue }
                    if turn == 0 { turn = corner.turn } else if turn != corner.turn { return nil }
                    guard tipCount + 2 <= outerRoom else { return nil }
                    // The outside is the right side where the polygon turns left.
                    let na = Point(x: -a.y, y: a.x), nb = Point(x: -d.y, y: d.x)
                    let meet = 1 + (na.x * nb.x + na.y * nb.y)
                    if smoothSide[next] {
                        // Round: from the incoming side's outer end by the
                        // stroker's steps (its points pushed out to keep
                        // the arc's area) to the outgoing side's outer start.
                        let oa = Point(x: -turn * na.x, y: -turn * na.y), ob = Point(x: -turn * nb.x, y: -turn * nb.y)
                        tips[tipCount] = Point(x: v.x + h * oa.x, y: v.y + h * oa.y)
                        tipCount += 1
                        var w = oa
                        let r = h * stepGrow, sn = turn * stepSin
                        while true {
                            let next = Point(x: w.x * stepCos - w.y * sn, y: w.x * sn + w.y * stepCos)
                            if turn * (next.x * ob.y - next.y * ob.x) < 1e-9 { break }
                            guard tipCount + 2 <= outerRoom else { return nil }
                            tips[tipCount] = Point(x: v.x + r * next.x, y: v.y + r * next.y)
                            tipCount += 1
                            w = next
                        }
                        tips[tipCount] = Point(x: v.x + h * ob.x, y: v.y + h * ob.y)
                        tipCount += 1
                        continue
                    }
                    // The stroker's miter test (`Stroker.miterFits`).
                    let s = ((1 + dot) / 2).squareRoot()
                    if dot > -0.999_999, s > 0, 1 / s <= miterLimit, meet > 1e-12 {
                        let m = -turn * h / meet
                        tips[tipCount] = Point(x: v.x + m * (na.x + nb.x), y: v.y + m * (na.y + nb.y))
                        tipCount += 1
                    } else {
                        // A bevel: from the incoming side's outer end to the
                        // outgoing side's outer start (`Stroker.corner`).
                        let o = -turn * h
                        tips[tipCount] = Point(x: v.x + o * na.x, y: v.y + o * na.y)
                        tips[tipCount + 1] = Point(x: v.x + o * nb.x, y: v.y + o * nb.y)
                        tipCount += 2
                        // (Bevels past the 64th vertex: the stroker's.)
                        guard next < 64 else { return nil }
                        bevels |= 1 << UInt64(next)
                    }
                }
                guard laps == 1, turn != 0, tipCount >= 3, bevelsStayApart(sides, sideCount, bevels, halfWidth: h)
                else { return nil }
                // The inner side: the inside moved in, wound the other way.
                let inner = UnsafeMutableBufferPointer(rebasing: points[tipCount..<(tipCount + 2 * maxVertices)])
                let innerCount: Int
                if let count = insetMeeting(sides, sideCount, turn: turn, halfWidth: h, into: inner) {
                    innerCount = count
                } else if sideCount <= maxSides {
                    innerCount = inset(sides, sideCount, turn: turn, halfWidth: h, into: inner)
                } else {
                    return nil
                }
                inner[0..<innerCount].reverse()
                return (tipCount, innerCount)
            }
        }
    }

    /// Whether nothing of the stroke but the corner's own bevel comes near
    /// a bevelled corner (a vertex in `bevels`, bit k the start of side k):
    /// every other vertex, and every side not ending there, farther than
    /// twice the half width `h` from it. A point beyond a bevel (past its
    /// chord, within its corner's round) is nearest that corner of all the
    /// polygon's points, so a part of the stroke within `h` of another side
    /// or vertex cannot reach it; elsewhere a bevelled outline leaves out
    /// what the stroke covers (a narrow polygon's sides reaching past a
    /// sharp corner).
    private static func bevelsStayApart(
        _ sides: UnsafeMutableBufferPointer<Point>, _ count: Int, _ bevels: UInt64, halfWidth h: Double
    ) -> Bool {
        guard bevels != 0 else { return true }
        let reach = 2 * h
        for w in 0..<count where bevels & (1 << UInt64(w)) != 0 {
            let p = sides[2 * w]
            for k in 0..<count {
                // Side k runs from vertex k to vertex k + 1.
                let q = sides[2 * k], r = sides[2 * ((k + 1) % count)]
                if k == w || (k + 1) % count == w {
                    // A side ending at the corner: its other end.
                    let other = k == w ? r : q
                    let dx = other.x - p.x, dy = other.y - p.y
                    if !(dx * dx + dy * dy > reach * reach) { return false }
                    continue
                }
                // The distance from the corner to the side.
                let ex = r.x - q.x, ey = r.y - q.y
                let length2 = ex * ex + ey * ey
                var t = length2 > 0 ? ((p.x - q.x) * ex + (p.y - q.y) * ey) / length2 : 0
                t = min(1, max(0, t))
                let dx = q.x + t * ex - p.x, dy = q.y + t * ey - p.y
                if !(dx * dx + dy * dy > reach * reach) { return false }
            }
        }
        return true
    }

    /// The inside of the convex polygon whose sides start at `sides[2k]`
    /// along `sides[2k + 1]` (turning `turn`, +1 left) moved `h` in, where
    /// no side is lost on the way: each side's line moved `h` inward meets
    /// the next one's at a vertex, and the vertices follow each other along
    /// every side. (A convex polygon's sides shorten steadily as it moves
    /// in, so one that keeps all of them at `h` lost none before.) Written
    /// to `out` (wound as the polygon is): the count, or nil where a side
    /// is lost (then the inside may be smaller still, or gone: `inset`).
    private static func insetMeeting(
        _ sides: UnsafeMutableBufferPointer<Point>, _ count: Int, turn: Double, halfWidth h: Double,
        into out: UnsafeMutableBufferPointer<Point>
    ) -> Int? {
        guard out.count >= count else { return nil }
        for k in 0..<count {
            let a = sides[2 * ((k + count - 1) % count) + 1], d = sides[2 * k + 1], v = sides[2 * k]
            // Inward normals: the left ones where the polygon turns left.
            let na = Point(x: -a.y * turn, y: a.x * turn), nb = Point(x: -d.y * turn, y: d.x * turn)
            let meet = 1 + (na.x * nb.x + na.y * nb.y)
            guard meet > 1e-12 else { return nil }
            let m = h / meet
            out[k] = Point(x: v.x + m * (na.x + nb.x), y: v.y + m * (na.y + nb.y))
        }
        var area = 0.0
        for k in 0..<count {
            let q = out[k], r = out[(k + 1) % count], d = sides[2 * k + 1]
            guard (r.x - q.x) * d.x + (r.y - q.y) * d.y > 0 else { return nil }
            area += q.x * r.y - q.y * r.x
        }
        guard abs(area) / 2 > 1e-9 * max(1, h * h) else { return nil }
        return count
    }

    /// The polygon (wound as the polygon is) of the points of the convex
    /// polygon whose sides start at `sides[2k]` along `sides[2k + 1]`
    /// (turning `turn`, +1 left) at least `h` from every side's line: the
    /// polygon cut by each side's line moved `h` inward, written to `out`
    /// (room for twice the sides); its point count, 0 where it has no area
    /// (within rounding: the line covers the whole inside).
    private static func inset(
        _ sides: UnsafeMutableBufferPointer<Point>, _ count: Int, turn: Double, halfWidth h: Double,
        into out: UnsafeMutableBufferPointer<Point>
    ) -> Int {
        withUnsafeTemporaryAllocation(of: Point.self, capacity: 2 * (count + count)) { buffer in
            // Two polygons in turn, each room for `2 count` points (a convex
            // polygon cut by a line gains one point at most).
            let room = count + count
            var current = 0, size = count
            for k in 0..<count { buffer[k] = sides[2 * k] }
            for k in 0..<count {
                let origin = sides[2 * k], d = sides[2 * k + 1]
                // Inward normal: the left normal where the polygon turns left.
                let nx = -d.y * turn, ny = d.x * turn
                @inline(__always) func depth(_ q: Point) -> Double { (q.x - origin.x) * nx + (q.y - origin.y) * ny - h }
                let source = current * room, target = (1 - current) * room
                var kept = 0
                for j in 0..<size {
                    let q = buffer[source + j], r = buffer[source + (j + 1) % size]
                    let dq = depth(q), dr = depth(r)
                    if dq >= 0, kept < room {
                        buffer[target + kept] = q
                        kept += 1
                    }
                    if (dq >= 0) != (dr >= 0), kept < room {
                        let t = dq / (dq - dr)
                        buffer[target + kept] = Point(x: q.x + t * (r.x - q.x), y: q.y + t * (r.y - q.y))
                        kept += 1
                    }
                }
                size = kept
                current = 1 - current
                if size < 3 { return 0 }
            }
            // What is left: nothing where it has no area (within rounding).
            var area = 0.0
            let base = current * room
            for j in 0..<size {
                let q = buffer[base + j], r = buffer[base + (j + 1) % size]
                area += q.x * r.y - q.y * r.x
            }
            guard abs(area) / 2 > 1e-9 * max(1, h * h), size <= out.count else { return 0 }
            for j in 0..<size { out[j] = buffer[base + j] }
            return size
        }
    }
}
