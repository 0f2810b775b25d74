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
enum ConvexStroke {
    /// The most sides a polygon is tried with (its inside is cut by each
    /// side in turn: n² steps).
    static let maxSides = 32

    /// The outline (user space) of the stroke of the closed polygon `path`
    /// (a move, lines, a close; nothing else) at half width `h`, mitred
    /// within `miterLimit` (a miter's length over the line's width), where
    /// that stroke is the polygon through the miters' tips and the bevels'
    /// ends, less the polygon's inside moved `h` in where that is not empty
    /// (see above): written to `points` (room for `4 maxSides`), the outer
    /// side's `outer` points first, then the inner side's `inner` points,
    /// wound the other way (none where the line covers the inside). Nil
    /// where the stroke is not such an outline.
    static func outline(
        of path: Path, halfWidth h: Double, miterLimit: Double, into points: UnsafeMutableBufferPointer<Point>
    ) -> (outer: Int, inner: Int)? {
        let verbs = path.verbs, count = verbs.count
        guard count >= 4, count <= maxSides + 1, verbs[0] == .move, verbs[count - 1] == .close, h > 0, h.isFinite,
            points.count >= 4 * maxSides
        else { return nil }
        for k in 1..<(count - 1) where verbs[k] != .line { return nil }
        let tips = points
        return path.points.withUnsafeBufferPointer { p -> (outer: Int, inner: Int)? in
            guard p.count >= 3, p.count <= maxSides else { return nil }
            // The sides between distinct points, round the closed polygon:
            // where each starts, its unit direction.
            return withUnsafeTemporaryAllocation(of: Point.self, capacity: 2 * maxSides) { sides -> (outer: Int, inner: Int)? in
                let n = p.count
                var sideCount = 0
                var from = p[0]
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
                    sideCount += 1
                    from = to
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
                    guard tipCount + 2 <= 2 * maxSides else { return nil }
                    // The outside is the right side where the polygon turns left.
                    let na = Point(x: -a.y, y: a.x), nb = Point(x: -d.y, y: d.x)
                    let meet = 1 + (na.x * nb.x + na.y * nb.y)
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
                        bevels |= 1 << UInt64(next)
                    }
                }
                guard laps == 1, turn != 0, tipCount >= 3, bevelsStayApart(sides, sideCount, bevels, halfWidth: h)
                else { return nil }
                // The inner side: the inside moved in, wound the other way.
                let inner = UnsafeMutableBufferPointer(rebasing: points[tipCount..<(tipCount + 2 * maxSides)])
                let innerCount = inset(sides, sideCount, turn: turn, halfWidth: h, into: inner)
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
