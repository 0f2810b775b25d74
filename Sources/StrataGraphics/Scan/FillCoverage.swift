// The coverage sources of fills: paths (in bands, exact areas, or by pixel
// centres without anti-aliasing), axis-aligned rectangles (each pixel's
// covered area computed directly) and ellipses under a rectilinear transform
// (an area-preserving polygon).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A path filled over `area` (device pixels) in bands; without anti-aliasing
/// (`aliasedRasterizer` given), by pixel centres.
struct PathCoverage: CoverageSource {
    let path: Path
    let transform: Transform
    let tolerance: Double
    let rule: FillRule
    let area: PixelBox
    /// The rows of `area` drawn.
    let rows: Range<Int>
    let areaRasterizer: AreaRasterizer
    /// The pixel-centre sampler, when anti-aliasing is off.
    let aliasedRasterizer: StrokeRasterizer?

    var drawnBox: PixelBox? { area.cut(to: rows) }

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        guard let scan = aliasedRasterizer else {
            areaRasterizer.fill(path, transform: transform, tolerance: tolerance, rule: rule, area: area, rows: rows, &blitter)
            return
        }
        scan.begin(area, mode: .aliased, rows: rows)
        var sink = EdgeFeeder(scan)
        let cull = Rect(x: Double(area.x0), y: Double(area.y0), width: Double(area.width), height: Double(area.height))
        path.flatten(transform: transform, tolerance: tolerance, cullRect: cull, into: &sink)
        sink.finish()
        if !scan.isFull {
            scan.sweep(rule, &blitter)
            return
        }
        // Too many edges to hold: areas in bands, rounded to in or out.
        scan.reset()
        var hard = HardEdgeBlitter(inner: blitter)
        areaRasterizer.fill(path, transform: transform, tolerance: tolerance, rule: rule, area: area, rows: rows, &hard)
        blitter = hard.inner
    }
}

/// A closed polygon's vertices (after `transform`) filled over `area` in
/// bands, anti-aliased: the lines that flattening the polygon's path would
/// feed the rasterizer (`EdgeFeeder`: each vertex to the next, the last back
/// to the first), in that order, so the same cells and pixels. The vertices
/// are borrowed: they outlive the drawing call that makes this.
struct PolygonCoverage: CoverageSource {
    let points: UnsafeBufferPointer<Point>
    let transform: Transform
    let rule: FillRule
    let area: PixelBox
    /// The rows of `area` drawn.
    let rows: Range<Int>
    /// The canvas's rasterizer, which the canvas holds while this draws
    /// (so not retained again here).
    unowned(unsafe) let rasterizer: AreaRasterizer
    /// Where a second closed polygon starts among `points` (a ring's inner
    /// side: `ConvexStroke`); `points.count` for one.
    var second: Int

    init(
        points: UnsafeBufferPointer<Point>, transform: Transform, rule: FillRule, area: PixelBox, rows: Range<Int>,
        rasterizer: AreaRasterizer, second: Int? = nil
    ) {
        self.points = points
        self.transform = transform
        self.rule = rule
        self.area = area
        self.rows = rows
        self.rasterizer = rasterizer
        self.second = second ?? points.count
    }

    var drawnBox: PixelBox? { area.cut(to: rows) }

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        let points = points, t = transform, rasterizer = rasterizer, second = second
        rasterizer.fill(area, rows: rows, rule, &blitter) { _ in
            // Each polygon's vertices to the next, the last back to its first.
            var first = 0, end = second
            while first < points.count {
                if end - first >= 2 {
                    let start = points[first].applying(t)
                    var last = start
                    for i in (first + 1)..<end {
                        let p = points[i].applying(t)
                        rasterizer.addLine(last.x, last.y, p.x, p.y)
                        last = p
                    }
                    rasterizer.addLine(last.x, last.y, start.x, start.y)
                }
                first = end
                end = points.count
            }
        }
    }
}

/// The device rectangle x0..<x1 × y0..<y1 (already clipped), each pixel given
/// its exact covered area: the product of its horizontal and vertical
/// coverage. The rows between the top and bottom edges share one coverage
/// pattern, so they go to the blitter as one call: 9.5 → 6.3 ms on the rects
/// scene against handing over three spans a row.
struct RectCoverage: CoverageSource {
    let x0, y0, x1, y1: Double

    // ⌊v⌋ and ⌈v⌉ without libm's calls (the edges are clipped, well
    // inside Int's range).
    @inline(__always) static func floorInt(_ v: Double) -> Int {
        let i = Int(v)
        return Double(i) > v ? i - 1 : i
    }
    @inline(__always) static func ceilInt(_ v: Double) -> Int {
        let i = Int(v)
        return Double(i) < v ? i + 1 : i
    }

    var drawnBox: PixelBox? {
        PixelBox(
            x0: Self.floorInt(x0), y0: Self.floorInt(y0), x1: Self.ceilInt(x1), y1: Self.ceilInt(y1))
    }

    /// The rectangle of whole pixels `x0 ..< x1` by `y0 ..< y1`, every
    /// pixel fully covered, to `blitter` (one group of rows).
    @inline(__always)
    static func drawWhole<B: SpanBlitter>(_ blitter: inout B, x0: Int, y0: Int, x1: Int, y1: Int) {
        let full: (UInt8, UInt8, UInt8) = (255, 255, 255)
        blitter.blitRectRows(x: x0, y: y0, width: x1 - x0, rows: (y1 - y0, 0, 0), top: full, middle: full, bottom: full)
    }

    @inline(__always)
    func draw<B: SpanBlitter>(_ blitter: inout B) {
        let ix0 = Self.floorInt(x0), ix1 = Self.ceilInt(x1)
        let iy0 = Self.floorInt(y0), iy1 = Self.ceilInt(y1)
        if Double(ix0) == x0, Double(ix1) == x1, Double(iy0) == y0, Double(iy1) == y1 {
            Self.drawWhole(&blitter, x0: ix0, y0: iy0, x1: ix1, y1: iy1)
            return
        }
        @inline(__always) func q(_ v: Double) -> UInt8 { UInt8(min(255, v * 255 + 0.5)) }
        let left = ix1 - ix0 == 1 ? x1 - x0 : Double(ix0 + 1) - x0
        let right = x1 - Double(ix1 - 1)
        /// A row covered `vy` of its height: its first, middle and last columns.
        @inline(__always) func row(_ vy: Double) -> (UInt8, UInt8, UInt8) {
            (q(left * vy), q(vy), q(right * vy))
        }
        // The top row, the rows between, the bottom row: one call.
        if iy1 - iy0 == 1 {
            let only = row(y1 - y0)
            blitter.blitRectRows(
                x: ix0, y: iy0, width: ix1 - ix0, rows: (1, 0, 0), top: only, middle: only, bottom: only)
            return
        }
        blitter.blitRectRows(
            x: ix0, y: iy0, width: ix1 - ix0, rows: (1, iy1 - iy0 - 2, 1), top: row(Double(iy0 + 1) - y0),
            middle: row(1), bottom: row(y1 - Double(iy1 - 1)))
    }
}

/// The n-gon with semi-axes ex, ey round (cx, cy), scan-converted over `area`:
/// an ellipse under a rectilinear transform, its vertices pushed out so that
/// its area equals the ellipse's.
struct EllipseCoverage: CoverageSource {
    let rasterizer: AreaRasterizer
    let cx, cy, ex, ey: Double
    let sides: Int
    let area: PixelBox
    /// The rows of `area` drawn.
    let rows: Range<Int>

    var drawnBox: PixelBox? { area.cut(to: rows) }

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        let n = sides
        let step = 2 * Double.pi / Double(n)
        let cs = cos(step), sn = sin(step)
        let cx = cx, cy = cy, ex = ex, ey = ey
        let rasterizer = rasterizer
        rasterizer.fill(area, rows: rows, .winding, &blitter) { _ in
            var c = 1.0, s = 0.0
            var px = cx + ex, py = cy
            for i in 1...n {
                if i == n {
                    c = 1; s = 0
                } else {
                    (c, s) = (c * cs - s * sn, s * cs + c * sn)
                }
                let nx = cx + ex * c, ny = cy + ey * s
                rasterizer.addLine(px, py, nx, ny)
                px = nx; py = ny
            }
        }
    }
}
