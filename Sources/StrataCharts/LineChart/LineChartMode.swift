import Foundation
import StrataGraphics

/// How a line chart joins its points: the interpolation methods of Swift
/// Charts (`InterpolationMethod`) and DGCharts (`LineChartDataSet.Mode`).
///
/// Points are in drawing coordinates, in the order of their x values. Every
/// mode passes through every point. The smooth ones differ in what they do
/// between points:
/// - `monotone` (the default for smoothing) never leaves the range of the
///   two points it joins, so it never overshoots: no dip below zero between
///   two zeros, no bump past a peak (the complaint of DGCharts #407);
/// - `horizontalBezier` never overshoots either: it leaves and reaches each
///   point horizontally;
/// - `cubicBezier`, `cardinal` and `catmullRom` follow the neighbours' trend
///   through each point, and can overshoot.
public enum LineChartMode: Sendable, Hashable {
    /// Straight segments.
    case linear
    /// Steps: the value changes at the start of each segment (vertically at
    /// the first point, then across). Swift Charts' `stepStart`.
    case stepStart
    /// Steps: the value changes halfway between the points. `stepCenter`.
    case stepCenter
    /// Steps: the value holds until the next point and changes there
    /// (DGCharts' `stepped`). `stepEnd`.
    case stepEnd
    /// DGCharts' `cubicBezier`: at each point the curve's tangent is parallel
    /// to the chord between its neighbours, the control points that chord
    /// times `intensity` away (DGCharts' default 0.2; clamped to 0.05…1).
    case cubicBezier(intensity: Double)
    /// DGCharts' `horizontalBezier`: each segment is a cubic whose control
    /// points sit halfway across, at the heights of its two ends.
    case horizontalBezier
    /// A Catmull-Rom spline parameterized by `alpha` (0 uniform, 0.5
    /// centripetal, which never forms cusps or loops within a segment, 1
    /// chordal; clamped to 0…1). Swift Charts' `catmullRom(alpha:)`.
    case catmullRom(alpha: Double)
    /// A cardinal spline: the uniform Catmull-Rom tangents scaled by
    /// `1 − tension` (0 is Catmull-Rom, 1 straight lines; clamped to 0…1).
    /// Swift Charts' `cardinal(tension:)`.
    case cardinal(tension: Double)
    /// A monotone cubic (Steffen, "A simple method for monotonic
    /// interpolation in one dimension", 1990): between two points the curve
    /// rises, falls or stays flat as they do, within their range.
    case monotone

    /// DGCharts' default curve intensity.
    public static let cubicBezier = LineChartMode.cubicBezier(intensity: 0.2)
    /// Centripetal Catmull-Rom, Swift Charts' `catmullRom`.
    public static let catmullRom = LineChartMode.catmullRom(alpha: 0.5)
    /// Catmull-Rom through uniform tangents, Swift Charts' `cardinal`.
    public static let cardinal = LineChartMode.cardinal(tension: 0)
}

/// One piece of a chart line, from the previous piece's end.
public enum LineChartSegment: Sendable, Hashable {
    case line(to: Point)
    case curve(to: Point, control1: Point, control2: Point)

    /// Where the piece ends.
    public var end: Point {
        switch self {
        case .line(let p), .curve(let p, _, _): p
        }
    }
}

extension LineChartMode {
    /// The pieces of the line through `points` (one run: no gaps), after the
    /// first point. Points whose coordinates are not finite are skipped; no
    /// pieces for fewer than two points.
    public func segments(through points: [Point]) -> [LineChartSegment] {
        let p = points.filter { $0.x.isFinite && $0.y.isFinite }
        guard p.count >= 2 else { return [] }
        var out: [LineChartSegment] = []
        out.reserveCapacity(self == .linear ? p.count - 1 : 2 * (p.count - 1))
        switch self {
        case .linear:
            for i in 1..<p.count { out.append(.line(to: p[i])) }
        case .stepStart:
            for i in 1..<p.count {
                out.append(.line(to: Point(x: p[i - 1].x, y: p[i].y)))
                out.append(.line(to: p[i]))
            }
        case .stepEnd:
            for i in 1..<p.count {
                out.append(.line(to: Point(x: p[i].x, y: p[i - 1].y)))
                out.append(.line(to: p[i]))
            }
        case .stepCenter:
            for i in 1..<p.count {
                let mid = (p[i - 1].x + p[i].x) / 2
                out.append(.line(to: Point(x: mid, y: p[i - 1].y)))
                out.append(.line(to: Point(x: mid, y: p[i].y)))
                out.append(.line(to: p[i]))
            }
        case .horizontalBezier:
            for i in 1..<p.count {
                let mid = (p[i - 1].x + p[i].x) / 2
                out.append(.curve(to: p[i], control1: Point(x: mid, y: p[i - 1].y), control2: Point(x: mid, y: p[i].y)))
            }
        case .cubicBezier(let intensity):
            let k = intensity.isFinite ? Swift.min(1, Swift.max(0.05, intensity)) : 0.2
            out = Self.chordTangents(p, scale: k)
        case .cardinal(let tension):
            // Uniform Catmull-Rom tangents (P[i+1] − P[i−1]) / 2, scaled by
            // 1 − tension, a third of the way: the chord times (1 − tension) / 6.
            let t = tension.isFinite ? Swift.min(1, Swift.max(0, tension)) : 0
            out = Self.chordTangents(p, scale: (1 - t) / 6)
        case .catmullRom(let alpha):
            out = Self.catmullRom(p, alpha: alpha.isFinite ? Swift.min(1, Swift.max(0, alpha)) : 0.5)
        case .monotone:
            out = Self.monotone(p)
        }
        return out
    }

    /// Adds the line through `points` to `path`: a move to the first point,
    /// then the pieces. Nothing for no finite point; a lone point is a move.
    public func addLine(through points: [Point], to path: inout Path) {
        guard let first = points.first(where: { $0.x.isFinite && $0.y.isFinite }) else { return }
        path.move(to: first)
        Self.add(segments(through: points), to: &path)
    }

    /// The pieces `count` more points at `point` would add to a curve
    /// that ends there: the mode's pieces for a step that goes nowhere (what
    /// an animation pads a shorter line with).
    public func padding(_ count: Int, at point: Point) -> [LineChartSegment] {
        guard count > 0 else { return [] }
        let piece: [LineChartSegment]
        switch self {
        case .linear: piece = [.line(to: point)]
        case .stepStart, .stepEnd: piece = [.line(to: point), .line(to: point)]
        case .stepCenter: piece = [.line(to: point), .line(to: point), .line(to: point)]
        default: piece = [.curve(to: point, control1: point, control2: point)]
        }
        return Array(repeating: piece, count: count).flatMap { $0 }
    }

    /// The same curve walked backwards: segments that start at the last
    /// segment's end and reach `start` (each curve's control points swapped).
    public static func reversed(_ segments: [LineChartSegment], from start: Point) -> [LineChartSegment] {
        var out: [LineChartSegment] = []
        out.reserveCapacity(segments.count)
        for k in stride(from: segments.count - 1, through: 0, by: -1) {
            let begin = k == 0 ? start : segments[k - 1].end
            switch segments[k] {
            case .line: out.append(.line(to: begin))
            case .curve(_, let c1, let c2): out.append(.curve(to: begin, control1: c2, control2: c1))
            }
        }
        return out
    }

    /// Adds pieces to `path`, from its current point.
    public static func add(_ segments: [LineChartSegment], to path: inout Path) {
        for s in segments {
            switch s {
            case .line(let p): path.addLine(to: p)
            case .curve(let p, let c1, let c2): path.addCurve(to: p, control1: c1, control2: c2)
            }
        }
    }

    /// Curves whose tangent at each point is the chord between its
    /// neighbours (the point itself at the ends): control points at
    /// `point ± scale · chord`.
    private static func chordTangents(_ p: [Point], scale k: Double) -> [LineChartSegment] {
        let n = p.count
        func chord(_ i: Int) -> Point {
            let a = p[Swift.max(0, i - 1)], b = p[Swift.min(n - 1, i + 1)]
            return Point(x: b.x - a.x, y: b.y - a.y)
        }
        var out: [LineChartSegment] = []
        out.reserveCapacity(n - 1)
        var c0 = chord(0)
        for i in 1..<n {
            let c1 = chord(i)
            out.append(
                .curve(
                    to: p[i], control1: Point(x: p[i - 1].x + k * c0.x, y: p[i - 1].y + k * c0.y),
                    control2: Point(x: p[i].x - k * c1.x, y: p[i].y - k * c1.y)))
            c0 = c1
        }
        return out
    }

    /// Catmull-Rom with knots spaced by the distance between points raised to
    /// `alpha`, as cubic Béziers. For the segment P1 → P2 between P0 and P3,
    /// with d1, d2, d3 the knot spacings, the spline's tangent at P1 is
    /// m1 = (P1 − P0)/d1 − (P2 − P0)/(d1 + d2) + (P2 − P1)/d2, and the
    /// Bézier control points are P1 + m1·d2/3 and P2 − m2·d2/3. At the ends
    /// (no P0 or P3), and where a neighbour coincides with the point, the
    /// tangent is the one-sided (P2 − P1)/d2.
    private static func catmullRom(_ p: [Point], alpha: Double) -> [LineChartSegment] {
        let n = p.count
        func spacing(_ a: Point, _ b: Point) -> Double {
            let d = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            return d > 0 ? pow(d, alpha) : 0
        }
        /// The spline's tangent (per unit of knot) at p[i], between p[prev]
        /// and p[next]; nil at an end or where a neighbour coincides.
        func tangent(_ i: Int, prev: Int?, next: Int?) -> Point? {
            guard let prev, let next else { return nil }
            let d1 = spacing(p[prev], p[i]), d2 = spacing(p[i], p[next])
            guard d1 > 0, d2 > 0 else { return nil }
            let a = p[prev], b = p[i], c = p[next]
            func comp(_ a: Double, _ b: Double, _ c: Double) -> Double { (b - a) / d1 - (c - a) / (d1 + d2) + (c - b) / d2 }
            return Point(x: comp(a.x, b.x, c.x), y: comp(a.y, b.y, c.y))
        }
        var out: [LineChartSegment] = []
        out.reserveCapacity(n - 1)
        for i in 1..<n {
            let a = p[i - 1], b = p[i]
            let d = spacing(a, b)
            guard d > 0 else {
                out.append(.curve(to: b, control1: a, control2: b))
                continue
            }
            let chord = Point(x: (b.x - a.x) / d, y: (b.y - a.y) / d)
            let m1 = tangent(i - 1, prev: i >= 2 ? i - 2 : nil, next: i) ?? chord
            let m2 = tangent(i, prev: i - 1, next: i + 1 < n ? i + 1 : nil) ?? chord
            out.append(
                .curve(
                    to: b, control1: Point(x: a.x + m1.x * d / 3, y: a.y + m1.y * d / 3),
                    control2: Point(x: b.x - m2.x * d / 3, y: b.y - m2.y * d / 3)))
        }
        return out
    }

    /// Steffen's monotone cubic as Béziers. With h the x steps and s the
    /// secant slopes, an inner point's slope is
    /// (sign s₋ + sign s₊) · min(|s₋|, |s₊|, |p|/2), p = (s₋h₊ + s₊h₋)/(h₋ + h₊):
    /// zero at a local extreme or a plateau, never more than twice the
    /// smaller secant. An end's slope is the one-sided parabola's,
    /// p = s₀(1 + h₀/(h₀ + h₁)) − s₁h₀/(h₀ + h₁), zero if it turns against s₀
    /// and at most 2·s₀. Points with the same x as the one before are joined
    /// straight.
    private static func monotone(_ p: [Point]) -> [LineChartSegment] {
        let n = p.count
        var h = [Double](repeating: 0, count: n - 1), s = [Double](repeating: 0, count: n - 1)
        for i in 0..<(n - 1) {
            h[i] = p[i + 1].x - p[i].x
            s[i] = h[i] > 0 ? (p[i + 1].y - p[i].y) / h[i] : 0
        }
        func sign(_ v: Double) -> Double { v > 0 ? 1 : (v < 0 ? -1 : 0) }
        func end(_ s0: Double, _ s1: Double, _ h0: Double, _ h1: Double) -> Double {
            guard h0 + h1 > 0 else { return s0 }
            let q = s0 * (1 + h0 / (h0 + h1)) - s1 * h0 / (h0 + h1)
            if sign(q) != sign(s0) { return 0 }
            return abs(q) > 2 * abs(s0) ? 2 * s0 : q
        }
        var m = [Double](repeating: 0, count: n)
        if n == 2 {
            m[0] = s[0]
            m[1] = s[0]
        } else {
            for i in 1..<(n - 1) {
                let hm = h[i - 1], hp = h[i], sm = s[i - 1], sp = s[i]
                guard hm > 0, hp > 0 else { continue }
                let q = (sm * hp + sp * hm) / (hm + hp)
                m[i] = (sign(sm) + sign(sp)) * Swift.min(abs(sm), abs(sp), 0.5 * abs(q))
            }
            m[0] = end(s[0], s[1], h[0], h[1])
            m[n - 1] = end(s[n - 2], s[n - 3], h[n - 2], h[n - 3])
        }
        var out: [LineChartSegment] = []
        out.reserveCapacity(n - 1)
        for i in 0..<(n - 1) {
            guard h[i] > 0 else {
                out.append(.line(to: p[i + 1]))
                continue
            }
            let t = h[i] / 3
            out.append(
                .curve(
                    to: p[i + 1], control1: Point(x: p[i].x + t, y: p[i].y + m[i] * t),
                    control2: Point(x: p[i + 1].x - t, y: p[i + 1].y - m[i + 1] * t)))
        }
        return out
    }
}
