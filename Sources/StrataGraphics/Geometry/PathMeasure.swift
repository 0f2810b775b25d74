/// Lengths along a path: its total length, the point and direction at a distance,
/// and the piece between two distances (`SkPathMeasure`; what `CAShapeLayer`'s
/// `strokeStart` and `strokeEnd` need).
///
/// Distances run through the subpaths in order, the closing line of a closed
/// subpath included; moves add nothing. Curve lengths come from flattening to
/// `tolerance`, so they are exact to about that much per curve; trimming splits
/// the curves themselves, so a trimmed curve is still a curve.
///
/// ### Basic usage
/// ```swift
/// let measure = PathMeasure(path)
/// let half = measure.trimmed(from: 0, to: 0.5)     // the first half, as strokeEnd = 0.5
/// if let (point, tangent) = measure.position(atDistance: 40) { … }
/// ```
public struct PathMeasure: Sendable {
    enum Kind: Sendable { case line, quad, cubic }

    struct Segment: Sendable {
        var kind: Kind
        var points: [Point]  // 2, 3 or 4 control points
        var start: Double  // distance along the whole path where it begins
        var length: Double
        /// (t, distance from the segment's start) at the flattening's points, t ascending.
        var samples: [(t: Double, distance: Double)]
        var subpath: Int
        /// True for the first segment of its subpath.
        var opensSubpath: Bool
    }

    private(set) var segments: [Segment] = []
    /// For each subpath: whether it was closed, and its range of segments.
    private(set) var subpaths: [(closed: Bool, first: Int, count: Int)] = []

    /// The total length of all subpaths.
    public private(set) var length: Double = 0

    /// Measures `path`, flattening curves to within `tolerance`.
    public init(_ path: Path, tolerance: Double = 0.01) {
        let tol = tolerance > 0 && tolerance.isFinite ? max(tolerance, 1e-6) : 0.01
        var start = Point.zero
        var current = Point.zero
        var subpath = -1
        var firstInSubpath = true
        func add(_ kind: Kind, _ pts: [Point]) {
            guard pts.allSatisfy({ $0.isFinite }) else { return }
            var samples: [(t: Double, distance: Double)] = [(0, 0)]
            switch kind {
            case .line:
                samples.append((1, pts[0].distance(to: pts[1])))
            case .quad, .cubic:
                var collector = ParameterCollector(kind: kind, points: pts, tolerance: tol)
                collector.run()
                samples = collector.samples
            }
            let len = samples.last!.distance
            segments.append(
                Segment(
                    kind: kind, points: pts, start: length, length: len, samples: samples,
                    subpath: subpath, opensSubpath: firstInSubpath))
            subpaths[subpath].count += 1
            firstInSubpath = false
            length += len
        }
        path.forEach { e in
            switch e {
            case .move(let p):
                start = p; current = p
                subpaths.append((closed: false, first: segments.count, count: 0))
                subpath = subpaths.count - 1
                firstInSubpath = true
            case .line(let p):
                add(.line, [current, p]); current = p
            case .quadCurve(let p, let c):
                add(.quad, [current, c, p]); current = p
            case .curve(let p, let c1, let c2):
                add(.cubic, [current, c1, c2, p]); current = p
            case .closeSubpath:
                if current != start { add(.line, [current, start]) }
                if subpath >= 0 { subpaths[subpath].closed = true }
                current = start
            }
        }
    }

    /// The index of the segment holding distance `d` (clamped to the path).
    private func segmentIndex(_ d: Double) -> Int {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= d { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The parameter of segment `s` at distance `d` from its start.
    private func parameter(_ s: Segment, _ d: Double) -> Double {
        if d <= 0 { return 0 }
        if d >= s.length { return 1 }
        var lo = 0, hi = s.samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if s.samples[mid].distance <= d { lo = mid } else { hi = mid }
        }
        let a = s.samples[lo], b = s.samples[hi]
        let span = b.distance - a.distance
        return span > 0 ? a.t + (b.t - a.t) * (d - a.distance) / span : a.t
    }

    /// The point at `distance` along the path and the unit tangent there, or nil
    /// for an empty path or a distance that is NaN. Distances are clamped to
    /// 0 ... `length`.
    public func position(atDistance distance: Double) -> (point: Point, tangent: Point)? {
        guard !segments.isEmpty, !distance.isNaN else { return nil }
        let d = min(length, max(0, distance))
        var i = segmentIndex(d)
        // Skip zero-length segments, whose direction is undefined.
        while segments[i].length == 0 && i + 1 < segments.count { i += 1 }
        let s = segments[i]
        let t = parameter(s, d - s.start)
        let p = PathMeasure.evaluate(s, t)
        var v = PathMeasure.derivative(s, t)
        if v.x == 0 && v.y == 0 {
            // A cusp or a degenerate control point: step back along the curve.
            let q = PathMeasure.evaluate(s, max(0, t - 1e-6)), r = PathMeasure.evaluate(s, min(1, t + 1e-6))
            v = Point(x: r.x - q.x, y: r.y - q.y)
        }
        let l = (v.x * v.x + v.y * v.y).squareRoot()
        return (p, l > 0 ? Point(x: v.x / l, y: v.y / l) : Point(x: 1, y: 0))
    }

    /// The part of the path between the fractions `start` and `end` of its length
    /// (0 ... 1, clamped), as `CAShapeLayer.strokeStart` / `strokeEnd`. Empty when
    /// `end <= start` or either is NaN.
    public func trimmed(from start: Double, to end: Double) -> Path {
        guard !start.isNaN, !end.isNaN else { return Path() }
        return segment(fromDistance: min(1, max(0, start)) * length, toDistance: min(1, max(0, end)) * length)
    }

    /// The part of the path between two distances along it.
    public func segment(fromDistance d0: Double, toDistance d1: Double) -> Path {
        var out = Path()
        guard !segments.isEmpty, !d0.isNaN, !d1.isNaN, d1 > d0 else { return out }
        let a = max(0, d0), b = min(length, d1)
        guard b > a || (a == b && length == 0) else { return out }
        var previous = -1  // the index of the segment added last
        for (i, s) in segments.enumerated() {
            let s0 = s.start, s1 = s.start + s.length
            if s1 < a || s0 > b { continue }
            if s.length == 0 && (s0 < a || s0 > b) { continue }
            let t0 = parameter(s, a - s0), t1 = parameter(s, b - s0)
            // A segment that only touches the range adds nothing (it would stroke
            // as a stray dot).
            if t0 >= t1 && s.length > 0 { continue }
            let piece = PathMeasure.split(s, t0, t1)
            if previous != i - 1 || s.opensSubpath || out.isEmpty {
                out.move(to: piece[0])
            }
            switch s.kind {
            case .line: out.addLine(to: piece[1])
            case .quad: out.addQuadCurve(to: piece[2], control: piece[1])
            case .cubic: out.addCurve(to: piece[3], control1: piece[1], control2: piece[2])
            }
            previous = i
            // A closed subpath taken whole stays closed, so its start gets a join.
            let sub = subpaths[s.subpath]
            if sub.closed && i == sub.first + sub.count - 1 && t1 == 1 && a <= segments[sub.first].start {
                out.closeSubpath()
            }
        }
        return out
    }

    // MARK: Curves

    static func evaluate(_ s: Segment, _ t: Double) -> Point {
        let p = s.points
        switch s.kind {
        case .line: return Point(x: p[0].x + (p[1].x - p[0].x) * t, y: p[0].y + (p[1].y - p[0].y) * t)
        case .quad: return Bezier.quadPoint(p[0], p[1], p[2], t)
        case .cubic: return Bezier.cubicPoint(p[0], p[1], p[2], p[3], t)
        }
    }

    static func derivative(_ s: Segment, _ t: Double) -> Point {
        let p = s.points
        switch s.kind {
        case .line:
            return Point(x: p[1].x - p[0].x, y: p[1].y - p[0].y)
        case .quad:
            let u = 1 - t
            return Point(
                x: 2 * (u * (p[1].x - p[0].x) + t * (p[2].x - p[1].x)),
                y: 2 * (u * (p[1].y - p[0].y) + t * (p[2].y - p[1].y)))
        case .cubic:
            let u = 1 - t
            let a = 3 * u * u, b = 6 * u * t, c = 3 * t * t
            return Point(
                x: a * (p[1].x - p[0].x) + b * (p[2].x - p[1].x) + c * (p[3].x - p[2].x),
                y: a * (p[1].y - p[0].y) + b * (p[2].y - p[1].y) + c * (p[3].y - p[2].y))
        }
    }

    /// The control points of the part of segment `s` between parameters t0 < t1.
    static func split(_ s: Segment, _ t0: Double, _ t1: Double) -> [Point] {
        // de Casteljau: keep the part before t1, then the part of that after t0/t1.
        let head = splitBefore(s.points, t1)
        let u = t1 > 0 ? t0 / t1 : 0
        return splitAfter(head, u)
    }

    private static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    /// The control points of the curve's part on [0, t].
    private static func splitBefore(_ p: [Point], _ t: Double) -> [Point] {
        switch p.count {
        case 2: return [p[0], lerp(p[0], p[1], t)]
        case 3:
            let a = lerp(p[0], p[1], t), b = lerp(p[1], p[2], t)
            return [p[0], a, lerp(a, b, t)]
        default:
            let a = lerp(p[0], p[1], t), b = lerp(p[1], p[2], t), c = lerp(p[2], p[3], t)
            let ab = lerp(a, b, t), bc = lerp(b, c, t)
            return [p[0], a, ab, lerp(ab, bc, t)]
        }
    }

    /// The control points of the curve's part on [t, 1].
    private static func splitAfter(_ p: [Point], _ t: Double) -> [Point] {
        Array(splitBefore(Array(p.reversed()), 1 - t).reversed())
    }
}

/// Flattens one curve, recording the parameter and running length at each point.
private struct ParameterCollector {
    let kind: PathMeasure.Kind
    let points: [Point]
    let tolerance: Double
    var samples: [(t: Double, distance: Double)] = [(0, 0)]
    var last: Point

    init(kind: PathMeasure.Kind, points: [Point], tolerance: Double) {
        self.kind = kind
        self.points = points
        self.tolerance = tolerance
        last = points[0]
    }

    mutating func run() {
        let p = points
        if kind == .quad {
            subdivide(p[0], p[1], p[1], p[2], 0, 1, 0, quad: true)
        } else {
            subdivide(p[0], p[1], p[2], p[3], 0, 1, 0, quad: false)
        }
    }

    /// Splits until flat (the flattening bounds of Path+Flattening.swift), then
    /// records the piece's end. A quadratic is passed with its control point twice.
    private mutating func subdivide(
        _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point,
        _ t0: Double, _ t1: Double, _ depth: Int, quad: Bool
    ) {
        let flat: Bool
        if quad {
            let dx = p0.x - 2 * p1.x + p3.x, dy = p0.y - 2 * p1.y + p3.y
            flat = (dx * dx + dy * dy).squareRoot() / 4 <= tolerance
        } else {
            let d1x = p0.x - 2 * p1.x + p2.x, d1y = p0.y - 2 * p1.y + p2.y
            let d2x = p1.x - 2 * p2.x + p3.x, d2y = p1.y - 2 * p2.y + p3.y
            flat = 0.75 * max(d1x * d1x + d1y * d1y, d2x * d2x + d2y * d2y).squareRoot() <= tolerance
        }
        if flat || depth >= Path.maxSubdivisionDepth {
            let d = samples[samples.count - 1].distance + last.distance(to: p3)
            samples.append((t1, d))
            last = p3
            return
        }
        let tm = (t0 + t1) / 2
        if quad {
            let a = Bezier.midpoint(p0, p1), b = Bezier.midpoint(p1, p3), m = Bezier.midpoint(a, b)
            subdivide(p0, a, a, m, t0, tm, depth + 1, quad: true)
            subdivide(m, b, b, p3, tm, t1, depth + 1, quad: true)
        } else {
            let ab = Bezier.midpoint(p0, p1), bc = Bezier.midpoint(p1, p2), cd = Bezier.midpoint(p2, p3)
            let abc = Bezier.midpoint(ab, bc), bcd = Bezier.midpoint(bc, cd), m = Bezier.midpoint(abc, bcd)
            subdivide(p0, ab, abc, m, t0, tm, depth + 1, quad: false)
            subdivide(m, bcd, cd, p3, tm, t1, depth + 1, quad: false)
        }
    }
}
