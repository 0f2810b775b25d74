internal import CPixels

// Exact-area scan conversion.
//
// Every line adds, to the cells of each pixel row it crosses, the signed area it
// sweeps to its right: a running sum along the row then gives each pixel's
// coverage (winding number times covered area, exactly, not sampled). This is the
// accumulation idea of FreeType's grey rasterizer and font-rs, written here for
// Strata: cells are a dense `Float` grid over the part of the target the path
// touches (a "band"), and one bit per cell marks the cells that were written, so
// the sweep jumps from edge to edge and hands the constant-coverage runs between
// edges to the blitter as whole spans (Blend2D keeps its cells the same way).
// Interior pixels are therefore never summed one by one: a 100-pixel-wide polygon
// row costs a few edge cells plus one span fill.

/// Scratch state for scan-converting paths, one band at a time. Owned by one
/// `Canvas` (or shared by offscreen canvases drawn on its thread while it is
/// not drawing) and used by one thread; its buffers grow to the largest band
/// drawn.
final class AreaRasterizer: EdgeAccumulator {
    /// The band: device pixels `originX ..< originX + width`, rows `originY ..< originY + height`.
    private(set) var originX = 0, originY = 0, width = 0, height = 0
    private var stride = 0  // cells per row: width + 2 (a line may write one past its last pixel)
    private var wordsPerRow = 0  // touched-cell bits per row
    private var cells: UnsafeMutablePointer<Float>
    private var bits: UnsafeMutablePointer<UInt64>
    private var cellCapacity = 0, bitCapacity = 0
    private(set) var fw: Double = 0, fh: Double = 0
    /// The band rows swept into the blitter (`EdgeAccumulator.shownTop`):
    /// all of them, or those of a row limit (a thread's band of a frame);
    /// lines that reach none of them are passed over as they are added.
    private(set) var shownTop: Double = 0, shownBottom: Double = 0
    /// The same rows as cell rows: the lines' pieces in other rows are not
    /// added (`strata_accumulate_lines_rows`), so a shape across a frame's
    /// thread bands costs each band its own rows' pieces, with the values
    /// the whole shape gives them.
    private var shownRows: (lo: Int, hi: Int) = (0, 0)
    /// Lines added but not yet in the cells (`flush`): five rows of
    /// `pendingCapacity` floats in one allocation, x0, y0, x1, y1 and the
    /// direction of each. A small shape's short edges are added many at a
    /// time, sixteen worked out together with AVX-512, eight with AVX2
    /// (`strata_accumulate_lines`), where one call each cost them a call
    /// and the branches between their cases.
    private let pending: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private var pendingCount = 0
    static let pendingCapacity = 128
    /// Whether lines wait in `pending`: with AVX2 or AVX-512
    /// (`strata_kernel_level` 1 or 2). Without either the batch would be
    /// one call a line all the same, and each line goes to
    /// `strata_accumulate_area` at once.
    private let batches = strata_kernel_level() >= 1

    /// The most cells one band may hold (4 MiB of `Float`s); larger areas are
    /// drawn in several bands of rows.
    static let maxBandCells = 1 << 20

    init() {
        cells = .allocate(capacity: 1)
        bits = .allocate(capacity: 1)
        pending = .allocate(capacity: 5 * AreaRasterizer.pendingCapacity)
    }

    deinit {
        cells.deallocate()
        bits.deallocate()
        pending.deallocate()
    }

    var isFull: Bool { false }

    /// How many rows a band over `width` pixels may have.
    static func bandRows(width: Int) -> Int {
        max(1, maxBandCells / (width + 2))
    }

    /// Starts a band, of which device rows `shown` are swept. Cells and bits
    /// are all zero here: the sweep clears what it reads.
    func begin(_ box: PixelBox, shown: Range<Int>) {
        pendingCount = 0
        originX = box.x0; originY = box.y0
        width = box.width; height = box.height
        stride = width + 2
        wordsPerRow = (stride + 63) >> 6
        fw = Double(width); fh = Double(height)
        shownTop = Double(shown.lowerBound - originY)
        shownBottom = Double(shown.upperBound - originY)
        shownRows = (shown.lowerBound - originY, shown.upperBound - originY)
        let needCells = stride * height, needBits = wordsPerRow * height
        if needCells > cellCapacity {
            cells.deallocate()
            cellCapacity = max(needCells, cellCapacity * 2)
            cells = .allocate(capacity: cellCapacity)
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        if needBits > bitCapacity {
            bits.deallocate()
            bitCapacity = max(needBits, bitCapacity * 2)
            bits = .allocate(capacity: bitCapacity)
            bits.initialize(repeating: 0, count: bitCapacity)
        }
    }

    /// Accumulates a line with 0 ≤ y0 < y1 ≤ height and 0 ≤ x ≤ width
    /// (`strata_accumulate_area`: its area in each row it crosses).
    /// Lines wait in `pending` until it is full or the band is swept.
    @inline(__always)
    func accumulate(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ dir: Float) {
        guard batches else {
            // (Not batched only without AVX2: the portable walk, `avx2` 0.)
            strata_accumulate_area_rows(
                cells, bits, stride, wordsPerRow, height, shownRows.lo, shownRows.hi, x0, y0, x1, y1, dir, 0)
            return
        }
        let k = pendingCount, p = pending, c = AreaRasterizer.pendingCapacity
        p[k] = x0
        p[c + k] = y0
        p[2 * c + k] = x1
        p[3 * c + k] = y1
        p[4 * c + k] = dir
        pendingCount = k + 1
        if k + 1 == c { flush() }
    }

    /// Adds the pending lines to the cells, in the order they came.
    private func flush() {
        let count = pendingCount
        guard count > 0 else { return }
        let p = pending, c = AreaRasterizer.pendingCapacity
        strata_accumulate_lines_rows(
            cells, bits, stride, wordsPerRow, height, shownRows.lo, shownRows.hi, p, p + c, p + 2 * c, p + 3 * c,
            p + 4 * c, count, strata_kernel_level())
        pendingCount = 0
    }

    /// Scan-converts `area` band by band: for each band, `emit` adds the lines
    /// (it gets the band's rectangle, to cull what cannot reach it), then the
    /// band is swept into `blitter`. Memory stays one band's, whatever the area.
    ///
    /// Only rows `rows` reach the blitter (all of the area's by default).
    /// The bands are the area's whatever the rows, and each is scan-converted
    /// whole, so those rows come out exactly as when all are drawn; bands
    /// without any of them are passed over.
    @inline(__always)
    func fill<B: SpanBlitter>(
        _ area: PixelBox, rows: Range<Int>? = nil, _ rule: FillRule, _ blitter: inout B, emit: (Rect) -> Void
    ) {
        let bandRows = AreaRasterizer.bandRows(width: area.width)
        let shown = rows ?? area.y0..<area.y1
        var top = area.y0
        while top < area.y1 {
            let band = PixelBox(x0: area.x0, y0: top, x1: area.x1, y1: min(area.y1, top + bandRows))
            top = band.y1
            let first = max(band.y0, shown.lowerBound), end = min(band.y1, shown.upperBound)
            guard first < end else { continue }
            begin(band, shown: first..<end)
            prefetch(band, first, end, &blitter)
            emit(Rect(x: Double(band.x0), y: Double(band.y0), width: Double(band.width), height: Double(band.height)))
            sweep(rule, &blitter)
        }
    }

    /// A small band's shown rows `first ..< end` fetched while its edges are
    /// added (a circle of the circles scene is a few rows, each a cache miss
    /// otherwise: 9 % of that scene). Larger bands are not: asking for all
    /// their lines at once slowed the polygons scene by 5 %.
    @inline(__always)
    private func prefetch<B: SpanBlitter>(_ band: PixelBox, _ first: Int, _ end: Int, _ blitter: inout B) {
        if band.width * band.height <= 4096 {
            blitter.prefetch(x: band.x0, y: first, width: band.width, height: end - first)
        }
    }

    /// Scan-converts `area` as one band when it fits in one and `emit`
    /// accepts what it added (returns true): then the band is swept into
    /// `blitter` as `fill` would. Otherwise nothing is drawn, the cells are
    /// left clear, and the result is false. With none of `rows` inside the
    /// area, nothing is added or drawn and the result is true (there is
    /// nothing for another way of drawing to draw).
    func fillOnce<B: SpanBlitter>(
        _ area: PixelBox, rows: Range<Int>? = nil, _ rule: FillRule, _ blitter: inout B, emit: (Rect) -> Bool
    ) -> Bool {
        guard area.height <= AreaRasterizer.bandRows(width: area.width) else { return false }
        let shown = rows ?? area.y0..<area.y1
        let first = max(area.y0, shown.lowerBound), end = min(area.y1, shown.upperBound)
        // No row shown (a band of another thread's): nothing to draw, as
        // `fill` skips such bands before adding their edges.
        guard first < end else { return true }
        begin(area, shown: first..<end)
        prefetch(area, first, end, &blitter)
        let rect = Rect(x: Double(area.x0), y: Double(area.y0), width: Double(area.width), height: Double(area.height))
        guard emit(rect) else {
            pendingCount = 0  // (never in the cells: nothing to clear)
            clear(rows: shownRows.lo..<shownRows.hi)
            return false
        }
        sweep(rule, &blitter)
        return true
    }

    /// Fills `path` (after `transform`, flattened to `tolerance`) over `area`,
    /// drawing rows `rows` of it (all by default).
    @inline(__always)
    func fill<B: SpanBlitter>(
        _ path: Path, transform: Transform, tolerance: Double, rule: FillRule,
        area: PixelBox, rows: Range<Int>? = nil, _ blitter: inout B
    ) {
        fill(area, rows: rows, rule, &blitter) { cull in
            var sink = EdgeFeeder(self)
            // A band of a frame reads only its rows: curves beyond them are
            // not flattened (the lines that reach them are the same).
            let shown: (lower: Double, upper: Double)? =
                shownTop > 0 || shownBottom < fh ? (Double(originY) + shownTop, Double(originY) + shownBottom) : nil
            path.flatten(transform: transform, tolerance: tolerance, cullRect: cull, rows: shown, into: &sink)
            sink.finish()
        }
    }

    /// Turns the band's cells into coverage, row by row, and hands the rows
    /// `begin` was told to show to `blitter` (no other row's cells were
    /// written). Leaves every cell and bit zero for the next band.
    func sweep<B: SpanBlitter>(_ rule: FillRule, _ blitter: inout B) {
        flush()
        let evenOdd = rule == .evenOdd
        let rows = shownRows.lo..<shownRows.hi
        let first = rows.lowerBound
        if blitter.sweepRows(
            cells + first * stride, cellStride: stride, bits + first * wordsPerRow, wordsPerRow: wordsPerRow, width: width,
            rows: rows.count, originX: originX, y: originY + first, evenOdd: evenOdd)
        {
            return
        }
        for row in rows {
            sweepCoverageSpans(
                cells + row * stride, bits + row * wordsPerRow, wordsPerRow: wordsPerRow,
                width: width, originX: originX, y: originY + row, evenOdd: evenOdd,
                &blitter)
        }
    }

    /// Zeroes the cells written in band rows `rows`, and their bits.
    private func clear(rows: Range<Int>) {
        for row in rows { clearCoverageRow(cells + row * stride, bits + row * wordsPerRow, wordsPerRow: wordsPerRow) }
    }
}

/// Zeroes the cells of one row that its bits mark as written, and the bits:
/// what sweeping the row does, for a row not drawn.
func clearCoverageRow(_ line: UnsafeMutablePointer<Float>, _ marks: UnsafeMutablePointer<UInt64>, wordsPerRow: Int) {
    for w in 0..<wordsPerRow {
        var word = marks[w]
        while word != 0 {
            line[w << 6 + word.trailingZeroBitCount] = 0
            word &= word - 1
        }
        marks[w] = 0
    }
}

/// Adds to one row of difference cells the coverage an edge gives the pixels
/// to its right: the edge runs from x = `xa` to x = `xb` while descending `d`
/// (signed, in rows) of the row. Each pixel gets exactly the area between the
/// edge and the pixel's right side (times `d`); the running sum of the cells is
/// that coverage. Marks the cells written in `bits`. (`strata_add_edge_area`,
/// in C: see CPixels.h.)
@inline(__always)
func addEdgeArea(
    _ line: UnsafeMutablePointer<Float>, _ bits: UnsafeMutablePointer<UInt64>,
    _ xa: Float, _ xb: Float, _ d: Float
) {
    strata_add_edge_area(line, bits, xa, xb, d)
}

/// Sets the bits of cells `first ... last` in one row's bit vector.
@inline(__always)
func markCells(_ b: UnsafeMutablePointer<UInt64>, _ first: Int, _ last: Int) {
    strata_mark_cells(b, first, last)
}

/// The inclusive running sums of cells `c[0 ..< n]` (n = 1 ... 8; zero
/// beyond), added in the order of the row kernel's vector (`prefix8` in
/// CPixels): each cell onto its neighbour's, then sums two apart, within each
/// half of four, then the fourth sum onto the last four. The order sets the
/// rounding, so the Swift sweep and the kernel give the same coverage.
@inline(__always)
func prefixSums8(_ c: UnsafeMutablePointer<Float>, _ n: Int) -> SIMD8<Float> {
    var v = SIMD8<Float>(repeating: 0)
    for k in 0..<n { v[k] = c[k] }
    let a = SIMD8<Float>(v[0], v[1] + v[0], v[2] + v[1], v[3] + v[2], v[4], v[5] + v[4], v[6] + v[5], v[7] + v[6])
    let b = SIMD8<Float>(a[0], a[1], a[2] + a[0], a[3] + a[1], a[4], a[5], a[6] + a[4], a[7] + a[5])
    return SIMD8<Float>(b[0], b[1], b[2], b[3], b[4] + b[3], b[5] + b[3], b[6] + b[3], b[7] + b[3])
}

/// Coverage of one value of a running cell sum: the winding-weighted area.
@inline(__always)
func coverageByte(_ acc: Float, _ evenOdd: Bool) -> UInt8 {
    var a = abs(acc)
    if evenOdd {
        a -= 2 * (a * 0.5).rounded(.down)
        if a > 1 { a = 2 - a }
    } else if a > 1 {
        a = 1
    }
    // a·255 + 2²³ holds round(a·255) in its low mantissa bits: a rounding
    // conversion without the range checks (and branches) of UInt8(_: Float).
    return UInt8(truncatingIfNeeded: (a * 255 + 8_388_608).bitPattern)
}

/// Sweeps one row of cells: a running sum turns them into coverage; from each
/// touched cell (set bit) not yet swept, a block of eight pixels goes to the
/// blitter as a coverage mask, and the constant stretches between blocks as
/// spans. Clears the cells and bits it reads. A
/// blitter with a row kernel of its own (`sweepRows`: a solid colour, with AVX2)
/// takes the whole row in one call instead.
@inline(__always)
func sweepCoverageRow<B: SpanBlitter>(
    _ line: UnsafeMutablePointer<Float>, _ rowBits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
    width: Int, originX: Int, y: Int, evenOdd: Bool, _ blitter: inout B
) {
    if blitter.sweepRows(
        line, cellStride: 0, rowBits, wordsPerRow: wordsPerRow, width: width, rows: 1, originX: originX, y: y,
        evenOdd: evenOdd)
    {
        return
    }
    sweepCoverageSpans(
        line, rowBits, wordsPerRow: wordsPerRow, width: width, originX: originX, y: y, evenOdd: evenOdd, &blitter)
}

/// `sweepCoverageRow` span by span, for a blitter without a row kernel.
@inline(__always)
func sweepCoverageSpans<B: SpanBlitter>(
    _ line: UnsafeMutablePointer<Float>, _ rowBits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
    width: Int, originX: Int, y: Int, evenOdd: Bool, _ blitter: inout B
) {
    var acc: Float = 0
    var x = 0  // the first cell (and pixel) not yet swept
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { mask in
        let m = mask.baseAddress!
        for w in 0..<wordsPerRow {
            var word = rowBits[w]
            if word == 0 { continue }
            rowBits[w] = 0
            let base = w << 6
            // A block from the word before may have swept this one's first cells.
            if x > base { word = x - base >= 64 ? 0 : word & (~UInt64(0) << UInt64(x - base)) }
            while word != 0 {
                let start = base + word.trailingZeroBitCount
                if start >= width {
                    // Past the last pixel (an edge on the right side): cleared only.
                    line[start] = 0
                    word &= word &- 1
                    continue
                }
                if start > x {
                    let c = coverageByte(acc, evenOdd)
                    if c != 0 { blitter.blitSpan(x: originX + x, y: y, count: start - x, coverage: c) }
                }
                // A block of eight cells from this touched one (fewer at the
                // row's end), untouched ones among them included (they hold 0):
                // running sums in the row kernels' order (`prefixSums8`), a
                // coverage byte a pixel, one masked blend; so the bytes are the
                // kernels' (`SpanBlitter.sweepRows`).
                let n = min(8, width - start)
                let sums = prefixSums8(line + start, n)
                for k in 0..<n {
                    line[start + k] = 0
                    m[k] = coverageByte(acc + sums[k], evenOdd)
                }
                acc = acc + sums[n - 1]
                blitter.blitMask(x: originX + start, y: y, count: n, mask: m)
                x = start + n
                word = x - base >= 64 ? 0 : word & (~UInt64(0) << UInt64(x - base))
            }
        }
    }
    if x < width {
        let c = coverageByte(acc, evenOdd)
        if c != 0 {
            blitter.blitSpan(x: originX + x, y: y, count: width - x, coverage: c)
        }
    }
}
