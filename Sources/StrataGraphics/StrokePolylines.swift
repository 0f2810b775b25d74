/// A path flattened for stroking: polylines with no repeated neighbouring points,
/// each vertex marked when it lies inside a flattened curve (where the stroke
/// must stay smooth, whatever the join).
struct StrokePolylines {
    struct Subpath {
        var start: Int
        var count: Int
        var closed: Bool
    }

    var points: [Point] = []
    var smooth: [Bool] = []
    var subpaths: [Subpath] = []

    /// Points closer than this are one point.
    static let epsilon = 1e-9

    init() {}

    /// Flattens `path` in its own space, curves within `tolerance`.
    init(path: Path, tolerance: Double) {
        var builder = Builder()
        // Points on the curve, a quarter of the fill tolerance apart at most: the
        // stroke's width hides no error, and dash lengths are measured along these
        // lines.
        let fine = tolerance / 4
        var flattener = CurveFlattener(
            quadLimit: 16 * fine * fine, cubicLimit: (4 * fine / 3) * (4 * fine / 3),
            minX: -.infinity, maxX: .infinity, minY: -.infinity, maxY: .infinity)
        flattener.preservesArea = false
        path.points.withUnsafeBufferPointer { pts in
            var i = 0
            var last = Point.zero
            for v in path.verbs {
                switch v {
                case .move:
                    builder.finish(closed: false)
                    builder.move(to: pts[i])
                    last = pts[i]
                    i += 1
                case .line:
                    builder.line(to: pts[i])
                    last = pts[i]
                    i += 1
                case .quad:
                    builder.curve = true
                    flattener.quad(last, pts[i], pts[i + 1], 0, &builder)
                    builder.endCurve()
                    last = pts[i + 1]
                    i += 2
                case .cubic:
                    builder.curve = true
                    flattener.cubic(last, pts[i], pts[i + 1], pts[i + 2], 0, &builder)
                    builder.endCurve()
                    last = pts[i + 2]
                    i += 3
                case .close:
                    builder.finish(closed: true)
                }
            }
        }
        builder.finish(closed: false)
        self = builder.result
    }

    /// The bounding box of all points, or `nil` if there are none or one is not finite.
    var bounds: Rect? {
        guard let first = points.first else { return nil }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
        for p in points {
            guard p.x.isFinite, p.y.isFinite else { return nil }
            x0 = min(x0, p.x); x1 = max(x1, p.x)
            y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private struct Builder: FlatteningSink {
        var result = StrokePolylines()
        var start = 0
        var hasSegment = false
        var open = false
        /// True while a curve is being flattened: its inner vertices are smooth.
        var curve = false

        mutating func move(to p: Point) {
            start = result.points.count
            result.points.append(p)
            result.smooth.append(false)
            hasSegment = false
            open = true
        }

        mutating func line(to p: Point) {
            guard open else { move(to: p); return }
            hasSegment = true
            let last = result.points[result.points.count - 1]
            if abs(p.x - last.x) < StrokePolylines.epsilon && abs(p.y - last.y) < StrokePolylines.epsilon { return }
            result.points.append(p)
            result.smooth.append(curve)
        }

        mutating func close() { finish(closed: true) }

        /// The end point of a curve is a corner like any other.
        mutating func endCurve() {
            curve = false
            if result.points.count > start { result.smooth[result.points.count - 1] = false }
        }

        mutating func finish(closed: Bool) {
            guard open else { return }
            open = false
            var count = result.points.count - start
            if closed && count >= 2 {
                let a = result.points[start], b = result.points[start + count - 1]
                if abs(a.x - b.x) < StrokePolylines.epsilon && abs(a.y - b.y) < StrokePolylines.epsilon {
                    result.points.removeLast()
                    result.smooth.removeLast()
                    count -= 1
                }
            }
            if count == 1 && !hasSegment {
                // A lone move draws nothing.
                result.points.removeLast()
                result.smooth.removeLast()
                return
            }
            result.subpaths.append(Subpath(start: start, count: count, closed: closed && count >= 3))
        }
    }

    // MARK: Dashing

    /// The most dashes one stroke may be cut into; a finer pattern strokes solid.
    static let maxDashes = 1_000_000

    /// The polylines cut into dashes: `pattern` (even count, non-negative, some
    /// positive) starting `phase` units in, afresh on every subpath.
    func dashed(pattern: [Double], phase: Double) -> StrokePolylines {
        let period = pattern.reduce(0, +)
        var total = 0.0
        for sub in subpaths {
            for i in 0..<(sub.closed ? sub.count : sub.count - 1) {
                total += points[sub.start + i].distance(to: points[sub.start + (i + 1) % sub.count])
            }
        }
        guard total.isFinite, total / period * Double(pattern.count) <= Double(StrokePolylines.maxDashes) else {
            return self
        }
        // Where the pattern stands at the start of each subpath.
        var startIndex = 0
        var startRemaining = pattern[0]
        var offset = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
        if offset < 0 { offset += period }
        while offset > 0 {
            if offset >= startRemaining {
                offset -= startRemaining
                startIndex = (startIndex + 1) % pattern.count
                startRemaining = pattern[startIndex]
            } else {
                startRemaining -= offset
                offset = 0
            }
        }

        var out = StrokePolylines()
        for sub in subpaths {
            var index = startIndex
            var remaining = startRemaining
            var pieceStart = -1  // index in `out.points` of the current dash's first point, or −1
            func on() -> Bool { index % 2 == 0 }
            func emit(_ p: Point, smooth: Bool) {
                if pieceStart < 0 {
                    pieceStart = out.points.count
                } else {
                    let last = out.points[out.points.count - 1]
                    if abs(p.x - last.x) < StrokePolylines.epsilon && abs(p.y - last.y) < StrokePolylines.epsilon { return }
                }
                out.points.append(p)
                out.smooth.append(smooth)
            }
            func endPiece() {
                if pieceStart >= 0 {
                    out.subpaths.append(Subpath(start: pieceStart, count: out.points.count - pieceStart, closed: false))
                    pieceStart = -1
                }
            }
            if sub.count == 1 {
                if on() { emit(points[sub.start], smooth: false); endPiece() }
                continue
            }
            if on() { emit(points[sub.start], smooth: false) }
            let segments = sub.closed ? sub.count : sub.count - 1
            for i in 0..<segments {
                let a = points[sub.start + i], b = points[sub.start + (i + 1) % sub.count]
                let length = a.distance(to: b)
                var position = 0.0
                // `>=`: a dash boundary exactly at the end of a segment is taken
                // here, so a zero-length dash at the very end still draws its caps.
                while length - position >= remaining {
                    position += remaining
                    let t = position / length
                    let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                    if on() {
                        emit(p, smooth: false)
                        endPiece()
                    } else {
                        emit(p, smooth: false)
                    }
                    index = (index + 1) % pattern.count
                    remaining = pattern[index]
                }
                remaining -= length - position
                if on() { emit(b, smooth: sub.closed || i + 1 < segments ? smooth[sub.start + (i + 1) % sub.count] : false) }
            }
            endPiece()
        }
        return out
    }
}
