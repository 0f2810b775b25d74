#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The stroker turns a path and a `StrokeStyle` into closed outlines whose
// non-zero fill is the stroke.
//
// Curves are first flattened in user space, so the stroker works on polylines:
// it offsets each segment by half the width to either side, joins consecutive
// offsets on the outer side of each corner (miter, round or bevel), and on the
// inner side goes through the corner point itself (a pivot). The pivot keeps
// the outline consistent for segments shorter than the width, where the inner
// offsets would cross; the overlaps it makes all wind the same way, so the
// non-zero rule fills exactly the stroke. Corners inside a flattened curve get
// round joins whatever the style, since the curve itself has no corner there:
// that is what keeps a cusp in a cubic round rather than spiked.
//
// An open subpath becomes one outline: the left side forward, the end cap, the
// left side of the reversed polyline (the right side), the start cap. A closed
// subpath becomes two loops of opposite orientation, so its inside stays empty.

/// Builds stroke outlines and hands them, mapped through a transform, to a sink.
struct Stroker<Sink: FlatteningSink> {
    var sink: Sink
    let halfWidth: Double
    let cap: LineCap
    let join: LineJoin
    /// 1/sin(φ/2) above this bevels a miter (φ: the angle between the segments).
    let miterLimit: Double
    /// The largest angle one line of a round join or cap may span.
    let arcStep: Double
    let stepCos: Double, stepSin: Double, stepGrow: Double
    let transform: Transform

    /// - Parameters:
    ///   - tolerance: how far round joins and caps may stray from circles, in
    ///     user-space units.
    init(sink: Sink, style: StrokeStyle, halfWidth: Double, tolerance: Double, transform: Transform) {
        self.sink = sink
        self.halfWidth = halfWidth
        cap = style.lineCap
        join = style.lineJoin
        miterLimit = style.miterLimit >= 1 ? style.miterLimit : 1
        // A chord of angle α on radius r strays r·(1 − cos(α/2)) from the arc.
        let ratio = min(1, max(1e-6, tolerance / max(halfWidth, 1e-12)))
        // At most a quarter turn a step: beyond that the pushed-out vertices of
        // `turn` would stray far from the circle.
        arcStep = min(Double.pi / 2, max(2 * acos(1 - ratio), Double.pi / 2048))
        stepCos = cos(arcStep)
        stepSin = sin(arcStep)
        stepGrow = (arcStep / stepSin).squareRoot()
        self.transform = transform
    }

    // MARK: Emitting

    @inline(__always) private mutating func moveTo(_ p: Point) { sink.move(to: p.applying(transform)) }
    @inline(__always) private mutating func lineTo(_ p: Point) { sink.line(to: p.applying(transform)) }

    /// Lines along the arc of radius `halfWidth` around `c`, turning clockwise (the
    /// angle decreasing) from unit vector `from` to unit vector `to`, at most half a
    /// turn, ending exactly at `end`. Steps by a fixed rotation, so a join costs no
    /// trigonometry: four multiplications and a cross product a step.
    ///
    /// The inner vertices sit at radius `halfWidth·√(step / sin step)`, where a
    /// fan of chords has the area of the arc it stands for: chords through points
    /// on the circle would cut every round cap and join short (a round cap of a
    /// 2-pixel line measured 5 % light that way).
    private mutating func turn(around c: Point, from: Point, to: Point, end: Point) {
        var v = from
        let cs = stepCos, sn = stepSin
        let r = halfWidth * stepGrow
        while true {
            let next = Point(x: v.x * cs + v.y * sn, y: v.y * cs - v.x * sn)  // rotated by −step
            // Stop unless `to` is still clockwise of the next point by a margin.
            if next.x * to.y - next.y * to.x > -1e-9 { break }
            lineTo(Point(x: c.x + r * next.x, y: c.y + r * next.y))
            v = next
        }
        lineTo(end)
    }

    // MARK: Geometry helpers

    /// The left normal of a unit direction: (−dy, dx).
    @inline(__always) private static func normal(_ d: Point) -> Point { Point(x: -d.y, y: d.x) }

    @inline(__always) private func offset(_ p: Point, _ n: Point) -> Point {
        Point(x: p.x + halfWidth * n.x, y: p.y + halfWidth * n.y)
    }

    /// The corner at `v` on the left side, coming in along `a` and leaving along `b`
    /// (unit vectors). Emits the end of the incoming offset through the start of the
    /// outgoing one.
    private mutating func corner(_ v: Point, _ a: Point, _ b: Point, smooth: Bool) {
        let na = Stroker.normal(a), nb = Stroker.normal(b)
        let p = offset(v, na), q = offset(v, nb)
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        if cross > 0 && dot > -0.999_999 || abs(cross) < 1e-12 && dot > 0 {
            // Turning toward the left: this side is the inside of the corner (or
            // there is no corner at all).
            lineTo(p)
            if abs(cross) >= 1e-12 || dot <= 0 { lineTo(v) }
            lineTo(q)
            return
        }
        // The outside of the corner (a full reversal counts as outside, so that the
        // cap-like join goes round the front).
        lineTo(p)
        switch smooth ? .round : join {
        case .round:
            turn(around: v, from: na, to: nb, end: q)
        case .miter:
            // Miter length over line width is 1/sin(φ/2), φ the angle between the
            // segments. φ = π − θ for a turn θ with cos θ = dot, so
            // sin(φ/2) = cos(θ/2) = √((1 + dot)/2).
            let s = ((1 + dot) / 2).squareRoot()
            // A full reversal has no miter (it would point backwards): bevel.
            if dot > -0.999_999 && s > 0 && 1 / s <= miterLimit && 1 + (na.x * nb.x + na.y * nb.y) > 1e-12 {
                let k = halfWidth / (1 + (na.x * nb.x + na.y * nb.y))
                lineTo(Point(x: v.x + k * (na.x + nb.x), y: v.y + k * (na.y + nb.y)))
            }
            lineTo(q)
        case .bevel:
            lineTo(q)
        }
    }

    /// The cap at `p`, leaving along unit direction `d`: from the left offset to
    /// the right offset, round the front.
    private mutating func capEnd(_ p: Point, _ d: Point) {
        let n = Stroker.normal(d)
        let left = offset(p, n), right = offset(p, Point(x: -n.x, y: -n.y))
        switch cap {
        case .butt:
            lineTo(right)
        case .square:
            lineTo(Point(x: left.x + halfWidth * d.x, y: left.y + halfWidth * d.y))
            lineTo(Point(x: right.x + halfWidth * d.x, y: right.y + halfWidth * d.y))
            lineTo(right)
        case .round:
            turn(around: p, from: n, to: Point(x: -n.x, y: -n.y), end: right)
        }
    }

    // MARK: Polylines

    /// Strokes one polyline. `points` has no two equal neighbours; `smooth[i]`
    /// marks vertices inside a flattened curve. A polyline of one point is a
    /// zero-length segment: a dot for round caps, a square for square caps.
    mutating func stroke(_ points: UnsafeBufferPointer<Point>, _ smooth: UnsafeBufferPointer<Bool>, closed: Bool) {
        let n = points.count
        if n == 1 {
            dot(points[0])
            return
        }
        guard n >= 2 else { return }
        if closed && n >= 3 {
            loop(points, smooth, reversed: false)
            loop(points, smooth, reversed: true)
            return
        }
        side(points, smooth, reversed: false, start: true)
        side(points, smooth, reversed: true, start: false)
        sink.close()
    }

    @inline(__always)
    private static func direction(_ a: Point, _ b: Point) -> Point {
        let dx = b.x - a.x, dy = b.y - a.y
        let l = (dx * dx + dy * dy).squareRoot()
        return Point(x: dx / l, y: dy / l)
    }

    /// The left side of the polyline (or of its reverse) from its first offset point
    /// to its last, then the cap at its end.
    private mutating func side(_ pts: UnsafeBufferPointer<Point>, _ smooth: UnsafeBufferPointer<Bool>, reversed: Bool, start: Bool) {
        let n = pts.count
        @inline(__always) func at(_ i: Int) -> Point { reversed ? pts[n - 1 - i] : pts[i] }
        var d = Stroker.direction(at(0), at(1))
        let first = offset(at(0), Stroker.normal(d))
        if start { moveTo(first) } else { lineTo(first) }
        for i in 1..<(n - 1) {
            let next = Stroker.direction(at(i), at(i + 1))
            corner(at(i), d, next, smooth: smooth[reversed ? n - 1 - i : i])
            d = next
        }
        lineTo(offset(at(n - 1), Stroker.normal(d)))
        capEnd(at(n - 1), d)
    }

    /// One side of a closed polyline as a closed loop, with a corner at every vertex.
    private mutating func loop(_ pts: UnsafeBufferPointer<Point>, _ smooth: UnsafeBufferPointer<Bool>, reversed: Bool) {
        let n = pts.count
        @inline(__always) func at(_ i: Int) -> Point { reversed ? pts[(n - i) % n] : pts[i % n] }
        var d = Stroker.direction(at(n - 1), at(0))
        moveTo(offset(at(0), Stroker.normal(d)))
        for i in 0..<n {
            let next = Stroker.direction(at(i), at(i + 1))
            let index = reversed ? (n - i) % n : i
            corner(at(i), d, next, smooth: smooth[index])
            d = next
        }
        sink.close()
    }

    /// A zero-length segment: CG and Skia draw its caps, a dot or a square.
    private mutating func dot(_ p: Point) {
        switch cap {
        case .butt:
            return
        case .round:
            // A whole polygon of area πr²: every vertex pushed out (see `turn`).
            let n = max(8, Int((2 * Double.pi / arcStep).rounded(.up)))
            let step = 2 * Double.pi / Double(n)
            let r = halfWidth * (step / sin(step)).squareRoot()
            moveTo(Point(x: p.x + r, y: p.y))
            for i in 1..<n {
                let a = step * Double(i)
                lineTo(Point(x: p.x + r * cos(a), y: p.y + r * sin(a)))
            }
        case .square:
            let h = halfWidth
            moveTo(Point(x: p.x - h, y: p.y - h))
            lineTo(Point(x: p.x + h, y: p.y - h))
            lineTo(Point(x: p.x + h, y: p.y + h))
            lineTo(Point(x: p.x - h, y: p.y + h))
        }
        sink.close()
    }
}
