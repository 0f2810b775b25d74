/// Takes lines in device pixels, clips them to its band in `Double` and
/// accumulates the pieces that matter, in band-local coordinates: the input
/// side of both rasterizers (`AreaRasterizer`, `StrokeRasterizer`), which the
/// path flattener, the stroker and the stroke cutter feed.
protocol EdgeAccumulator: AnyObject {
    var originX: Int { get }
    var originY: Int { get }
    var fw: Double { get }
    var fh: Double { get }
    /// The band rows (from 0) whose cells are read, `shownTop ..< shownBottom`
    /// within `0 ... fh`: a line wholly above or below them adds nothing
    /// that is read, and is passed over. Lines that reach them leave those
    /// rows the cells they would with every line added (the area rasterizer
    /// adds only their pieces in those rows, worked out as for the whole line).
    var shownTop: Double { get }
    var shownBottom: Double { get }
    /// A line with 0 ≤ y0 < y1 ≤ height and 0 ≤ x ≤ width; `dir` is +1 for a line
    /// that went down, −1 for one that went up.
    func accumulate(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ dir: Float)
    /// True when the clipper takes no more lines (a budget ran out); whoever
    /// feeds it may stop early.
    var isFull: Bool { get }
}

extension EdgeAccumulator {
    /// Adds the line from (x0, y0) to (x1, y1), in device pixels, clipped to the band.
    /// Coordinates must not be NaN (callers reject such paths first); any finite
    /// magnitude is fine, since clipping happens in `Double` before cells are touched.
    @inline(__always)
    func addLine(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        var x0 = ax - Double(originX), y0 = ay - Double(originY)
        var x1 = bx - Double(originX), y1 = by - Double(originY)
        if y0 == y1 { return }
        var dir: Float = 1
        if y0 > y1 {
            swap(&x0, &x1); swap(&y0, &y1)
            dir = -1
        }
        if y1 <= shownTop || y0 >= shownBottom { return }
        // A line entirely inside the band (the common case) skips the clipping.
        if y0 >= 0 && y1 <= fh && x0 >= 0 && x1 >= 0 && x0 <= fw && x1 <= fw {
            accumulate(Float(x0), Float(y0), Float(x1), Float(y1), dir)
            return
        }
        // Interpolation below is written so that no intermediate overflows, even
        // for end points near ±Double.greatestFiniteMagnitude: differences are
        // taken of halved values, and points are convex combinations.
        @inline(__always) func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a * (1 - t) + b * t }
        @inline(__always) func param(_ v: Double, _ a: Double, _ b: Double) -> Double {
            min(1, max(0, (v * 0.5 - a * 0.5) / (b * 0.5 - a * 0.5)))
        }
        if y0 < 0 {
            let t = param(0, y0, y1)
            x0 = lerp(x0, x1, t); y0 = 0
        }
        if y1 > fh {
            let t = param(fh, y0, y1)
            x1 = lerp(x0, x1, t); y1 = fh
        }
        if !(y0 < y1) { return }
        if x0 >= fw && x1 >= fw { return }  // right of the band: covers nothing visible
        if x0 <= 0 && x1 <= 0 {
            // Left of the band: only its height matters, as a vertical at the left edge.
            accumulate(0, Float(y0), 0, Float(y1), dir)
            return
        }
        @inline(__always) func yAt(_ x: Double) -> Double { lerp(y0, y1, param(x, x0, x1)) }
        // Split where the line crosses x = 0 and x = width.
        var ya = y0, xa = x0, yb = y1, xb = x1
        if x0 < 0 {
            let yc = yAt(0)
            accumulate(0, Float(y0), 0, Float(yc), dir)
            ya = yc; xa = 0
        } else if x1 < 0 {
            let yc = yAt(0)
            accumulate(0, Float(yc), 0, Float(y1), dir)
            yb = yc; xb = 0
        }
        if x0 > fw {
            ya = yAt(fw); xa = fw
        } else if x1 > fw {
            yb = yAt(fw); xb = fw
        }
        if ya < yb {
            accumulate(Float(min(fw, max(0, xa))), Float(ya), Float(min(fw, max(0, xb))), Float(yb), dir)
        }
    }

}

/// Feeds a flattened path to an edge accumulator, closing every subpath.
struct EdgeFeeder<R: EdgeAccumulator>: FlatteningSink {
    let rasterizer: R
    var startX = 0.0, startY = 0.0, lastX = 0.0, lastY = 0.0
    var open = false

    init(_ rasterizer: R) { self.rasterizer = rasterizer }

    @inline(__always) mutating func move(to p: Point) {
        if open { rasterizer.addLine(lastX, lastY, startX, startY) }
        startX = p.x; startY = p.y; lastX = p.x; lastY = p.y
        open = true
    }

    @inline(__always) mutating func line(to p: Point) {
        rasterizer.addLine(lastX, lastY, p.x, p.y)
        lastX = p.x; lastY = p.y
    }

    @inline(__always) mutating func close() {
        if open { rasterizer.addLine(lastX, lastY, startX, startY) }
        lastX = startX; lastY = startY
        open = false
    }

    mutating func finish() { close() }
}
