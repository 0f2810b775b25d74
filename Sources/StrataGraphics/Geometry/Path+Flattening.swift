/// Receives the straight lines of a flattened path.
///
/// A subpath is a `move(to:)` followed by `line(to:)` calls and, when it was closed
/// in the path, a `close()`.
public protocol FlatteningSink {
    mutating func move(to point: Point)
    mutating func line(to point: Point)
    mutating func close()
}

extension Path {
    /// The deepest subdivision of one curve: at most 2¹⁶ lines, however large or
    /// degenerate its coordinates.
    static let maxSubdivisionDepth = 16

    /// Turns the path into straight lines, each curve subdivided until every piece
    /// is within `tolerance` of its chord, measured after `transform`.
    ///
    /// Subdivision is adaptive: a curve is split in half (de Casteljau) until a
    /// piece passes the flatness test, so tight bends get more lines than gentle
    /// ones; where halving would overshoot (a curve that needs 5 pieces would
    /// get 8), the curve is cut at once into the fewest equal pieces that pass
    /// (see `CurveFlattener.equalPieces`). Each flat piece becomes two lines that keep the area under the
    /// curve (see `CurveFlattener.emit`), so filled curves are not cut short,
    /// and the test bounds how far those two lines stray. It is a proven bound,
    /// not an estimate: from a quadratic piece (a parabola) they stray by a third
    /// of its bulge, |p0 − 2p1 + p2| / 12; from a cubic piece by at most
    /// 0.347 · max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|) (its parabola's third of
    /// the bulge, at most ¼ of that maximum, plus the rest of the cubic, at
    /// most 2/(12√3) of it). Pieces wholly outside `cullRect` (their control
    /// points all beyond one of its sides) are replaced by a line between their
    /// end points, which changes nothing a filler clipped to `cullRect` can see.
    ///
    /// - Parameters:
    ///   - transform: applied to every point before flattening.
    ///   - tolerance: the largest distance between a curve and its lines, in the
    ///     transformed space. Values that are not positive and finite mean 0.25;
    ///     values below 0.001 count as 0.001.
    ///   - cullRect: the region whose view of the path must be exact.
    ///   - sink: receives the lines.
    public func flatten<S: FlatteningSink>(
        transform: Transform, tolerance: Double, cullRect: Rect = .infinite, into sink: inout S
    ) {
        flatten(transform: transform, tolerance: tolerance, cullRect: cullRect, rows: nil, into: &sink)
    }

    /// `flatten(transform:tolerance:cullRect:into:)` for a filler that reads
    /// only the rows `rows` (device y, lower ... upper) of what it is fed:
    /// a curve piece whose lines would all lie wholly above or below them
    /// becomes the line between its end points, which lies there too
    /// (`CurveFlattener.beyondRows`). Every line that reaches the rows is
    /// made as without them, in the same order. (A thread's band of a
    /// frame flattened every curve of a shape across several bands.)
    func flatten<S: FlatteningSink>(
        transform: Transform, tolerance: Double, cullRect: Rect, rows: (lower: Double, upper: Double)?,
        into sink: inout S
    ) {
        let tol = tolerance > 0 && tolerance.isFinite ? Swift.max(tolerance, 0.001) : 0.25
        var flattener = CurveFlattener(
            quadLimit: (12 * tol) * (12 * tol), cubicLimit: (2.88 * tol) * (2.88 * tol),
            minX: cullRect.minX, maxX: cullRect.maxX, minY: cullRect.minY, maxY: cullRect.maxY)
        if let rows {
            flattener.rowsLower = rows.lower
            flattener.rowsUpper = rows.upper
        }
        let t = transform
        points.withUnsafeBufferPointer { pts in
            var i = 0
            var last = Point.zero
            for v in verbs {
                switch v {
                case .move:
                    last = pts[i].applying(t)
                    sink.move(to: last)
                    i += 1
                case .line:
                    last = pts[i].applying(t)
                    sink.line(to: last)
                    i += 1
                case .quad:
                    let c = pts[i].applying(t), p = pts[i + 1].applying(t)
                    flattener.quad(last, c, p, 0, &sink)
                    last = p
                    i += 2
                case .cubic:
                    let c1 = pts[i].applying(t), c2 = pts[i + 1].applying(t), p = pts[i + 2].applying(t)
                    flattener.cubic(last, c1, c2, p, 0, &sink)
                    last = p
                    i += 3
                case .close:
                    sink.close()
                }
            }
        }
    }
}

struct CurveFlattener {
    /// A quadratic piece is flat when |p0 − 2p1 + p2|² is at most this: (4·tol)²
    /// keeps its chord within tol (|dd|/4), (12·tol)² its two area-keeping
    /// lines (|dd|/12).
    let quadLimit: Double
    /// A cubic piece is flat when M² = max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|)²
    /// is at most this: (4·tol/3)² keeps its chord within tol (¾M),
    /// (2.88·tol)² its two area-keeping lines (0.347·M).
    let cubicLimit: Double
    let minX, maxX, minY, maxY: Double
    /// Fills want the area under each curve kept (two lines a flat piece); strokes
    /// want points on the curve, so that dashes and joins fall where they should.
    var preservesArea = true
    /// How deep pieces wholly beyond one side of the cull rectangle are still
    /// subdivided. 0 (fills, solid strokes) makes each such piece one line at
    /// once. Dashes need the true length of what they cannot see, to stay where
    /// they are when the path scrolls: their pieces are subdivided as anywhere
    /// else, but no deeper than this, so a hostile curve off screen costs at
    /// most 2^outsideDepth lines instead of 2^16.
    var outsideDepth = 0
    /// The device rows a filler reads (`Path.flatten(…rows:into:)`); none
    /// but these when both are infinite.
    var rowsLower = -Double.infinity, rowsUpper = Double.infinity

    /// Whether every line of the piece with control points at heights `ys`
    /// lies wholly above `rowsLower` or below `rowsUpper`, however it is
    /// flattened: its lines' ends lie on the piece, and each flat piece's
    /// middle point (`emit`) is the mean of its inner control points for a
    /// cubic, (p1 + p2)/2, and (p0 + p2)/6 + 2·p1/3 for a quadratic, so all
    /// lie within the control points' heights. The margin, a third of
    /// their span and a pixel, is for the rounding of subdivided points,
    /// which grows with the span (a curve reaching 10³⁰ away).
    @inline(__always)
    func beyondRows(_ ys: (Double, Double, Double, Double)) -> Bool {
        guard rowsLower > -.infinity || rowsUpper < .infinity else { return false }
        let lo = Swift.min(Swift.min(ys.0, ys.1), Swift.min(ys.2, ys.3))
        let hi = Swift.max(Swift.max(ys.0, ys.1), Swift.max(ys.2, ys.3))
        let reach = (hi - lo) / 3 + 1
        // (Each height compared: a NaN is neither, so never beyond.)
        let below = rowsUpper + reach, above = rowsLower - reach
        return (ys.0 >= below && ys.1 >= below && ys.2 >= below && ys.3 >= below)
            || (ys.0 <= above && ys.1 <= above && ys.2 <= above && ys.3 <= above)
    }

    @inline(__always)
    func outside(_ xs: (Double, Double, Double, Double), _ ys: (Double, Double, Double, Double)) -> Bool {
        (xs.0 >= maxX && xs.1 >= maxX && xs.2 >= maxX && xs.3 >= maxX)
            || (xs.0 <= minX && xs.1 <= minX && xs.2 <= minX && xs.3 <= minX)
            || (ys.0 >= maxY && ys.1 >= maxY && ys.2 >= maxY && ys.3 >= maxY)
            || (ys.0 <= minY && ys.1 <= minY && ys.2 <= minY && ys.3 <= minY)
    }

    /// Ends a flat piece from `a` to `b` whose curve bulges by `bulge` (midpoint
    /// of the curve minus midpoint of the chord). A chord alone would cut off the
    /// sliver between it and the curve, about ⅔·|chord|·|bulge|, on the inside of
    /// every bend, so fills of curves would come out short (a 20-pixel circle lost
    /// 0.6 % of its area at the default flatness). Two lines through the chord's
    /// midpoint pushed out by 4/3 of the bulge enclose the same area as the curve
    /// (exactly, for a parabolic piece) and stray from it by a third of the bulge
    /// (for a cubic piece, by 0.347 of its largest second difference at most):
    /// the flatness test bounds that, not the chord's distance.
    /// (That point is (p1 + p2)/2 of a cubic piece and (p0 + p2)/6 + 2·p1/3
    /// of a quadratic one, within the piece's control points: `beyondRows`
    /// relies on it, and on the sink's current point being the piece's start.)
    @inline(__always)
    func emit<S: FlatteningSink>(_ a: Point, _ b: Point, _ bulge: Point, _ sink: inout S) {
        let k = 4.0 / 3.0
        if preservesArea && abs(bulge.x) + abs(bulge.y) > 1e-6 && bulge.x.isFinite && bulge.y.isFinite {
            sink.line(to: Point(x: a.x * 0.5 + b.x * 0.5 + k * bulge.x, y: a.y * 0.5 + b.y * 0.5 + k * bulge.y))
        }
        sink.line(to: b)
    }

    /// Into how many equal pieces (of the parameter) a curve whose squared
    /// second difference is `m` is cut at once, each then within `limit`:
    /// a piece 1/n long has second differences at most 1/n² of the curve's
    /// (its control polygon's are the curve's, averaged, times 1/n²), so the
    /// least n with m/n⁴ ≤ limit. Only up to 16 (and no more than halving
    /// could still make at this depth): a larger curve is halved first, so
    /// that halves wholly outside the cull rectangle are culled as before.
    /// 0 to halve. The choice depends on the curve alone, never on where
    /// the cull rectangle is, so a curve is cut the same wherever it is
    /// drawn (a band of a frame, a scrolled dash pattern).
    /// (Halving alone makes a power of two of pieces where fewer do: a
    /// quarter circle of radius 16 stroked at the default flatness took 16
    /// where 11 hold the same bound.)
    /// Where n is a power of two, halving makes the same n: 0 then, so that
    /// such curves are cut as before (and the most common, n = 2, costs no
    /// root).
    @inline(__always)
    func equalPieces(_ m: Double, limit: Double, depth: Int) -> Int {
        // (`m` is finite and above `limit`: n ≥ 2.)
        if m <= 16 * limit { return 0 }
        let n: Int
        if m <= 81 * limit {
            n = 3
        } else if m <= 256 * limit {
            return 0
        } else {
            let root = (m / limit).squareRoot().squareRoot().rounded(.up)
            guard root <= 16 else { return 0 }
            n = Int(root)
        }
        return n & (n - 1) != 0 && n <= 1 << (Path.maxSubdivisionDepth - depth) ? n : 0
    }

    func quad<S: FlatteningSink>(_ p0: Point, _ p1: Point, _ p2: Point, _ depth: Int, _ sink: inout S) {
        if beyondRows((p0.y, p1.y, p2.y, p2.y)) {
            sink.line(to: p2)
            return
        }
        let ddx = p0.x - 2 * p1.x + p2.x, ddy = p0.y - 2 * p1.y + p2.y
        let flat = ddx * ddx + ddy * ddy <= quadLimit
        // `!(… < …)` so that NaN stops the subdivision too.
        if flat || depth >= Path.maxSubdivisionDepth || !(ddx * ddx + ddy * ddy < .infinity)
            || depth >= outsideDepth && outside((p0.x, p1.x, p2.x, p2.x), (p0.y, p1.y, p2.y, p2.y))
        {
            // The curve's midpoint is (p0 + 2p1 + p2)/4: dd/4 off the chord's.
            emit(p0, p2, Point(x: -ddx / 4, y: -ddy / 4), &sink)
            return
        }
        let n = equalPieces(ddx * ddx + ddy * ddy, limit: quadLimit, depth: depth)
        if n > 0 {
            // p(t) = p0 + t·(2(p1 − p0) + t·dd); each piece's second
            // difference is dd/n², its bulge a quarter of that.
            let cx = 2 * (p1.x - p0.x), cy = 2 * (p1.y - p0.y)
            let k = 1 / Double(n)
            let bulge = Point(x: -ddx * k * k / 4, y: -ddy * k * k / 4)
            var a = p0
            for i in 1..<n {
                let t = Double(i) * k
                let b = Point(x: p0.x + t * (cx + t * ddx), y: p0.y + t * (cy + t * ddy))
                emit(a, b, bulge, &sink)
                a = b
            }
            emit(a, p2, bulge, &sink)
            return
        }
        let a = Bezier.midpoint(p0, p1), b = Bezier.midpoint(p1, p2)
        let m = Bezier.midpoint(a, b)
        quad(p0, a, m, depth + 1, &sink)
        quad(m, b, p2, depth + 1, &sink)
    }

    func cubic<S: FlatteningSink>(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ depth: Int, _ sink: inout S) {
        if beyondRows((p0.y, p1.y, p2.y, p3.y)) {
            sink.line(to: p3)
            return
        }
        let d1x = p0.x - 2 * p1.x + p2.x, d1y = p0.y - 2 * p1.y + p2.y
        let d2x = p1.x - 2 * p2.x + p3.x, d2y = p1.y - 2 * p2.y + p3.y
        let m = Swift.max(d1x * d1x + d1y * d1y, d2x * d2x + d2y * d2y)
        if m <= cubicLimit || depth >= Path.maxSubdivisionDepth || !(m < .infinity)
            || depth >= outsideDepth && outside((p0.x, p1.x, p2.x, p3.x), (p0.y, p1.y, p2.y, p3.y))
        {
            // The curve's midpoint is (p0 + 3p1 + 3p2 + p3)/8, off the chord's by:
            let bx = (3 * (p1.x + p2.x) - 3 * (p0.x + p3.x)) / 8, by = (3 * (p1.y + p2.y) - 3 * (p0.y + p3.y)) / 8
            emit(p0, p3, Point(x: bx, y: by), &sink)
            return
        }
        let n = equalPieces(m, limit: cubicLimit, depth: depth)
        if n > 0 {
            // p(t) = p0 + t·(c + t·(b + t·a)); each piece's bulge is the
            // curve at its middle less its chord's middle.
            let ax = p3.x - p0.x + 3 * (p1.x - p2.x), ay = p3.y - p0.y + 3 * (p1.y - p2.y)
            let bx = 3 * d1x, by = 3 * d1y
            let cx = 3 * (p1.x - p0.x), cy = 3 * (p1.y - p0.y)
            @inline(__always) func at(_ t: Double) -> Point {
                Point(x: p0.x + t * (cx + t * (bx + t * ax)), y: p0.y + t * (cy + t * (by + t * ay)))
            }
            let k = 1 / Double(n)
            var a = p0
            for i in 1...n {
                let b = i == n ? p3 : at(Double(i) * k)
                var bulge = Point.zero
                if preservesArea {
                    let mid = at((Double(i) - 0.5) * k)
                    bulge = Point(x: mid.x - (a.x * 0.5 + b.x * 0.5), y: mid.y - (a.y * 0.5 + b.y * 0.5))
                }
                emit(a, b, bulge, &sink)
                a = b
            }
            return
        }
        let ab = Bezier.midpoint(p0, p1), bc = Bezier.midpoint(p1, p2), cd = Bezier.midpoint(p2, p3)
        let abc = Bezier.midpoint(ab, bc), bcd = Bezier.midpoint(bc, cd)
        let mid = Bezier.midpoint(abc, bcd)
        cubic(p0, ab, abc, mid, depth + 1, &sink)
        cubic(mid, bcd, cd, p3, depth + 1, &sink)
    }
}

/// Evaluation and extrema of Bézier curves.
enum Bezier {
    /// The midpoint, halving before adding so that it cannot overflow.
    @inline(__always)
    static func midpoint(_ a: Point, _ b: Point) -> Point {
        Point(x: a.x * 0.5 + b.x * 0.5, y: a.y * 0.5 + b.y * 0.5)
    }

    static func quadPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ t: Double) -> Point {
        let u = 1 - t
        return Point(
            x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
            y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
    }

    static func cubicPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(
            x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
            y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// Parameters in (0, 1) where the quadratic's x or y derivative is zero.
    static func quadExtrema(_ p0: Point, _ p1: Point, _ p2: Point) -> [Double] {
        var ts: [Double] = []
        for (a, b, c) in [(p0.x, p1.x, p2.x), (p0.y, p1.y, p2.y)] {
            let den = a - 2 * b + c
            if den != 0 {
                let t = (a - b) / den
                if t > 0 && t < 1 { ts.append(t) }
            }
        }
        return ts
    }

    /// Parameters in (0, 1) where the cubic's x or y derivative is zero.
    static func cubicExtrema(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> [Double] {
        var ts: [Double] = []
        for (a, b, c, d) in [(p0.x, p1.x, p2.x, p3.x), (p0.y, p1.y, p2.y, p3.y)] {
            // B'(t)/3 = qa·t² + qb·t + qc
            let qa = -a + 3 * b - 3 * c + d
            let qb = 2 * (a - 2 * b + c)
            let qc = b - a
            if Swift.abs(qa) < 1e-12 * (Swift.abs(qb) + Swift.abs(qc) + 1e-300) {
                if qb != 0 {
                    let t = -qc / qb
                    if t > 0 && t < 1 { ts.append(t) }
                }
                continue
            }
            let disc = qb * qb - 4 * qa * qc
            if disc < 0 { continue }
            let s = disc.squareRoot()
            for t in [(-qb + s) / (2 * qa), (-qb - s) / (2 * qa)] where t > 0 && t < 1 {
                ts.append(t)
            }
        }
        return ts
    }
}
