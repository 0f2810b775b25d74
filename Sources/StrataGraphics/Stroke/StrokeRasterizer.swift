// Scan conversion that stays exact where a path overlaps itself.
//
// The cell rasterizer (AreaRasterizer.swift) sums signed areas, which is exact for
// paths whose edges do not pile up inside one pixel. A stroke outline is not such
// a path: a zigzag chart line, stroked, is dozens of overlapping pieces whose
// edges share the boundary pixels, and summing their partial areas there would
// count the same ink several times (a boundary pixel a third covered by three
// pieces would come out fully covered).
//
// This rasterizer cuts each pixel row into `samplesPerRow` strips. In each strip
// it walks the edges that reach into it in order of x (an active edge list, kept
// sorted by an insertion sort that costs one comparison per edge when, as
// usual, the order barely changes from one strip to the next) and follows the
// winding number, where an edge that covers only part of the strip's height
// (it starts or ends inside it) counts for that part: the winding is the
// strip's mean. Coverage is min(1, |winding|): where pieces overlap, their
// union, however many there are. Where the coverage changes at an edge, the
// change is added as that edge's exact area within the strip (a ramp across the
// pixels a slanted edge crosses, the same arithmetic as the cell rasterizer),
// not as a step at a sampled point. So a shape that does not overlap itself
// (one straight line, at any angle and position) comes out with its exact
// area, and overlaps are still counted once: only where two pieces overlap
// inside one strip without either crossing all of it, or within the width of a
// slanted edge, can coverage be off, by at most that strip's share.
//
// With four strips (the area mode's default), a pixel row's four strips are
// walked together (`sweepRows`, `strata_stroke_row` in CPixels), the four
// windings side by side in the lanes of a vector: one visit per edge and row
// instead of one per strip. That works while the edges' order along x is the
// same in all four strips. The row's edges are taken in one order (the active
// list's and the row's arrivals', merged by the mean x in each one's first
// strip), and an edge whose mean in some strip is less than one before it
// marks a cluster: the edges between the nearest cuts before and after it
// where every strip's means before the cut are at most its means after. A
// cluster (two edges that cross inside the row, most often) is walked again
// strip by strip, each strip in its own order; the windings around a cluster,
// and so the changes of coverage outside it, are the same in any order. A
// cluster of more than 32 edges (a fan of lines through one point) sends the
// row to the strip walk. Where an edge changes the coverage by its whole
// share in all four strips (it is the outline's edge there, the usual case),
// its four strip areas add up to its area over the row: added once. The
// result is the strip walk's, but for the rounding of those areas and the
// order of ties (tests hold the two to within a level). The row's arrivals
// come in order of x: the edges are sorted by the pixel column of their x
// before the counting sort into rows, which keeps that order.
//
// Two more ways to sample use the same machinery. `sampled`: the winding is
// taken at each strip's centre line only, and each inside interval covers its
// share of the row with exact ends along x; an edge that crosses no centre line
// is dropped. Coverage is then quantised to 1/S of a row, but the outline's
// edges cost less; it serves outlines much denser than their size (a chart line
// with tens of points a pixel), where no single edge can be told apart and the
// fastest correct union is the better trade. `aliased`: one sample at each
// pixel's centre, a pixel inside or not, for either fill rule.
//
// Memory is two rows of cells plus the edges of the area. Edges are budgeted
// (`maxEdges`, and `maxVisits`, the strips all edges cross together, which
// bounds the time): an outline too dense for the budget sets `isFull`, and the
// caller draws it with the cell rasterizer instead, band by band, in bounded
// memory, where overlaps are summed (for such a dense outline, they are
// everywhere and the difference is not visible).

internal import CPixels

/// One edge on the active list. Heights are in strips (S per pixel row); the
/// edge reaches into strips `first ..< last`, starting `top` (0..<1) into the
/// first. Its share of each strip's height is kept in fixed point (1/65536 of
/// a strip, signed by its direction): `fFirst` in its first strip, `fLast` in
/// its last (whose magnitude is also where it ends in that strip), a whole
/// strip in between; the end points are rounded to that grid before the shares
/// are taken, so the shares of edges meeting at a vertex add up exactly and a
/// closed outline's winding returns to exactly zero. Its x at height
/// `first + u` is `xRef + u·dxdY`; `x` is its mean x within the current strip,
/// the sort key. Everything is recomputed from `first` (stepping in Float would
/// drift: a tall edge could end up a pixel off).
typealias ActiveEdge = strata_stroke_edge

extension ActiveEdge {
    /// One whole strip in the fixed point of `fFirst` and `fLast`.
    static let one = 65536

    /// Where the edge ends in its last strip (0<..1).
    @inline(__always) var bottom: Float { Float(abs(fLast)) * (1 / 65536) }

    /// Its key in strip `s` after its first, as the area mode's walks set
    /// it (`walkStrip`; `keep_edge` in CPixels makes the same operations):
    /// its mean x over its part of the strip, the whole strip or, in its
    /// last, down to `bottom`.
    @inline(__always) func meanX(inStrip s: Int32) -> Float {
        let half: Float = s == last &- 1 ? bottom * 0.5 : 0.5
        return xRef + (Float(s &- first) + half) * dxdY
    }

    /// Its key in strip `s` after its first, as the sampled and aliased
    /// walks set it (`strata_sampled_strip`, `walkCentres`): its x on the
    /// strip's centre line.
    @inline(__always) func centreX(inStrip s: Int32) -> Float {
        xRef + (Float(s &- first) + 0.5) * dxdY
    }
}

/// Scratch state for overlap-exact scan conversion. Owned by one `Canvas`
/// (or shared by offscreen canvases drawn on its thread while it is not
/// drawing, `Canvas(width:height:sharingRasterizersWith:)`).
final class StrokeRasterizer: EdgeAccumulator {
    /// Every row of the band is read (`EdgeAccumulator.shownTop`).
    var shownTop: Double { 0 }
    var shownBottom: Double { fh }
    /// How pixel rows are sampled.
    enum Mode {
        /// Strips with exact areas (the default).
        case area
        /// Centre lines of strips, inside intervals with exact ends along x.
        case sampled
        /// Pixel centres, a pixel in or out.
        case aliased
    }

    /// Strips (or centre lines) per pixel row; 1 when aliased.
    private(set) var samplesPerRow = 4
    @exclusivity(unchecked) private(set) var mode = Mode.area

    @exclusivity(unchecked) private(set) var originX = 0, originY = 0, width = 0, height = 0
    @exclusivity(unchecked) private(set) var fw: Double = 0, fh: Double = 0

    /// The most edges one area may hold (32 bytes each, and while sweeping 64
    /// more in the area mode, 32 more in the others, and 16 more where a
    /// strip's list is sorted by `radixSortByKey`).
    @exclusivity(unchecked) var maxEdges = 2_000_000
    /// The most strip crossings the edges may add up to (the sweep's work).
    @exclusivity(unchecked) var maxVisits = 400_000_000
    @exclusivity(unchecked) private(set) var isFull = false
    @exclusivity(unchecked) var visits = 0
    /// The edges' heights (in the strips' fixed point, 1/65536 of a strip),
    /// signed by direction and summed: 0 for closed outlines that nothing cut
    /// off on the right, whatever was folded onto the left edge or cut off
    /// above and below (each row line crosses a closed outline as often each
    /// way). Tests check the stroker's outlines with it.
    @exclusivity(unchecked) private(set) var signedHeight = 0
    /// The edges of the area last begun, and the room kept for them (for tests
    /// of the budget).
    var edgeCount: Int { edges.count }
    var edgeCapacity: Int { edges.capacity }

    // The buffers below are appended to millions of times a frame, and the
    // state above and below is read every row; a rasterizer belongs to one
    // canvas and is used by one thread, no access outlasting a call, so the
    // dynamic exclusivity checks Swift would otherwise make on each access
    // buy nothing (they were a twentieth of a small stroke's instructions).

    /// Edges as they were added.
    @exclusivity(unchecked) var edges = ScratchBuffer<ActiveEdge>()
    /// Per sweep: the edges moved into order of their first strip (a counting
    /// sort, so the sweep reads them in sequence), where each strip's run ends,
    /// and the active list with the one each strip's walk writes (the two
    /// swap places every strip).
    @exclusivity(unchecked) var sorted = ScratchBuffer<ActiveEdge>()
    @exclusivity(unchecked) var startOf = ScratchBuffer<Int32>()
    @exclusivity(unchecked) var active = ScratchBuffer<ActiveEdge>()
    @exclusivity(unchecked) var spare = ScratchBuffer<ActiveEdge>()
    @exclusivity(unchecked) var bandEdges = ScratchBuffer<ActiveEdge>()
    /// The row walk's scratch (`strata_stroke_row`): the row's arrivals in
    /// order of x, what it knows of each edge (shares, means and windings in
    /// each strip, and the lists of changes and of edges out of order), and
    /// the arrivals by strip for a row left to the strip walk.
    @exclusivity(unchecked) var rowArrivals = ScratchBuffer<ActiveEdge>()
    @exclusivity(unchecked) var halves = ScratchBuffer<ActiveEdge>()
    /// Where each pixel column's edges begin, for the sort by column.
    @exclusivity(unchecked) var columns = ScratchBuffer<Int32>()
    @exclusivity(unchecked) var rowKeys = ScratchBuffer<Float>()
    /// Keys and places for the radix sort of a long list (`radixSortByKey`).
    @exclusivity(unchecked) var sortKeys = ScratchBuffer<UInt64>()

    /// Whether the area mode walks a pixel row's four strips together
    /// (`strata_stroke_row`) rather than one after another; tests turn it off
    /// to compare the two.
    @exclusivity(unchecked) var walksRows = true
    /// Whether the stroker may simplify corners (`Stroker`): the insides
    /// trimmed or chords instead of going through the corner point, the
    /// outsides of slight round turns and of miters one point. Fewer edges;
    /// tests turn it off to compare the two.
    @exclusivity(unchecked) var simplifiesCorners = true
    /// Whether strokes whose outline is a ring (`Stroker.watchesRing`) go to
    /// the cell rasterizer; tests turn it off to compare the two.
    @exclusivity(unchecked) var fillsRings = true
    /// Strokes drawn as rings by the cell rasterizer (for tests).
    @exclusivity(unchecked) var ringsFilled = 0
    /// Whether the strokes of small convex polygons that the line covers
    /// across are filled as one outline (`ConvexStroke`); tests turn it off
    /// to compare with the walk.
    @exclusivity(unchecked) var fillsConvexOutlines = true
    /// Strokes filled as one outline (`ConvexStroke`; for tests).
    @exclusivity(unchecked) var convexFilled = 0
    /// Whether sparse outlines (`StrokeCoverage.sumsAreas`) go to the cell
    /// rasterizer; tests turn it off to compare with the walk.
    @exclusivity(unchecked) var sumsSparseOutlines = true
    /// Strokes whose areas were summed by the cell rasterizer (for tests).
    @exclusivity(unchecked) var sparseFilled = 0
    /// Sweeps that put their edges in order of columns first (`sweep`; for
    /// tests).
    @exclusivity(unchecked) var sortedByColumns = 0
    /// The build of the row walk for this processor: 2 with AVX-512, 1 with
    /// AVX2, 0 for neither (tests compare them; a level above the best is
    /// taken as the best).
    static var bestRowWalkLevel: Int { SolidBlitter.kernelLevel }
    @exclusivity(unchecked) var rowWalkLevel = StrokeRasterizer.bestRowWalkLevel
    /// The most edges a row walked together may hold: a row with more goes to
    /// the strip walk, which keeps no more than their list (the row walk keeps
    /// 104 bytes more an edge). 65,536 edges, 6.8 MB; tests set it lower.
    @exclusivity(unchecked) var rowWalkLimit = 1 << 16
    /// Rows of the area last swept that the row walk left to the strip walk
    /// (for tests).
    @exclusivity(unchecked) var rowsLeftToStrips = 0
    /// Clusters of edges crossing inside a row that the row walk walked
    /// strip by strip, in the area last swept (for tests).
    @exclusivity(unchecked) var clusters = 0

    // Two rows of difference cells and touched bits, as in the cell
    // rasterizer (`cellStore`, `bitStore`); `cells` and `rowBits` are the row
    // being walked. (The area mode walks one row while it sweeps the one
    // before: swept right after its walk, a row's cells were read back while
    // the walk's stores to them were still on their way to the cache, and
    // the processor could not forward them to the wider loads.)
    @exclusivity(unchecked) var cellStore: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var bitStore: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) var cells: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var rowBits: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) var capacity = 0

    init() {
        cellStore = .allocate(capacity: 2)
        bitStore = .allocate(capacity: 2)
        cells = cellStore
        rowBits = bitStore
    }

    deinit {
        cellStore.deallocate()
        bitStore.deallocate()
        edges.free(); sorted.free(); startOf.free()
        active.free(); spare.free(); bandEdges.free()
        rowArrivals.free(); halves.free(); rowKeys.free(); columns.free(); sortKeys.free()
    }

    /// Device rows handed to the blitter (`begin`); they come out as when
    /// every row is drawn. Rows above them are not walked, rows below are
    /// not walked past the first.
    @exclusivity(unchecked) private(set) var shownRows = 0..<0
    /// The strips of `shownRows`: an edge wholly outside them is counted
    /// against the budget but not kept, and the sweep starts at the first
    /// (`sweep`, `sweepRows`).
    @exclusivity(unchecked) private(set) var keptStrips = 0..<Int.max
    /// Edges counted against the budget but not kept (outside `keptStrips`).
    @exclusivity(unchecked) private var droppedEdges = 0

    /// Starts an area of any height, cut into `samples` strips per pixel row
    /// (one when aliased); memory is two rows of cells plus the edges. Only
    /// rows `rows` are drawn (all by default).
    func begin(_ box: PixelBox, samples: Int = 4, mode: Mode = .area, rows: Range<Int>? = nil) {
        self.mode = mode
        shownRows = rows ?? box.y0..<box.y1
        samplesPerRow = mode == .aliased ? 1 : samples
        originX = box.x0; originY = box.y0
        width = box.width; height = box.height
        fw = Double(width); fh = Double(height)
        let top = max(0, min(height, shownRows.lowerBound - box.y0))
        let bottom = max(top, min(height, shownRows.upperBound - box.y0))
        // (Every walk's order in a strip is a function of the strip alone,
        // `precedes`, so a walk can start at the first row drawn: edges
        // wholly above it, or below the last, are counted, not kept.)
        keptStrips = (top * samplesPerRow)..<(bottom * samplesPerRow)
        droppedEdges = 0
        edges.removeAll()
        isFull = false
        visits = 0
        rowsLeftToStrips = 0
        clusters = 0
        signedHeight = 0
        let need = width + 2
        if need > capacity {
            cellStore.deallocate(); bitStore.deallocate()
            capacity = max(need, capacity * 2)
            let words = (capacity + 63) >> 6
            cellStore = .allocate(capacity: 2 * capacity)
            cellStore.initialize(repeating: 0, count: 2 * capacity)
            bitStore = .allocate(capacity: 2 * words)
            bitStore.initialize(repeating: 0, count: 2 * words)
        }
        cells = cellStore
        rowBits = bitStore
    }

    /// Gives back the buffers of an outline far larger than usual once it has
    /// been swept (a chart line of 100 000 points keeps its 311 000 edges' room
    /// for the next frame; two million would hold 200 MB).
    func trim() {
        let keep = 1 << 19
        guard edges.capacity > keep || sorted.capacity > keep else { return }
        reset()
    }

    /// Forgets the edges and gives back the memory of a very large outline.
    func reset() {
        edges.removeAll(); sorted.removeAll()
        active.removeAll(); spare.removeAll(); bandEdges.removeAll(); startOf.removeAll()
        rowArrivals.removeAll(); halves.removeAll(); rowKeys.removeAll(); columns.removeAll()
        let keep = 1 << 16
        edges.shrink(to: keep); sorted.shrink(to: keep)
        active.shrink(to: keep); spare.shrink(to: keep); bandEdges.shrink(to: keep)
        startOf.shrink(to: keep)
        rowArrivals.shrink(to: keep); halves.shrink(to: keep); columns.shrink(to: keep)
        rowKeys.shrink(to: 26 * keep)
        sortKeys.shrink(to: 2 * keep)
    }

    /// Records a clipped line (band-local, y0 < y1) as an edge over the strips
    /// it reaches into (sampled and aliased: over the centre lines it crosses,
    /// y0 ≤ centre < y1).
    @inline(__always)
    func accumulate(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ dir: Float) {
        if isFull { return }
        // (The line is clipped to the band, 0 ≤ y ≤ its height, at most 65,536
        // rows of four strips: every value below is far inside Int and the
        // strip numbers and shares inside Int32, so the arithmetic and the
        // conversions go unchecked.)
        let n = Float(samplesPerRow)
        let ya = y0 * n, yb = y1 * n
        // (A NaN, which the callers never pass, goes no further.)
        guard ya >= 0 && yb >= ya else { return }
        let first: Int, last: Int, top: Float, fFirst: Int, fLast: Int
        let sign = dir > 0 ? 1 : -1
        if mode != .area {
            // Centres at k + ½: those with ya ≤ centre < yb, k from ⌈ya − ½⌉ to
            // ⌈yb − ½⌉ (exclusive), the ceilings taken without libm (v ≥ −½).
            @inline(__always) func ceiling(_ v: Float) -> Int {
                let t = strata_truncate(v)
                return Float(t) < v ? t &+ 1 : t
            }
            first = ceiling(ya - 0.5)
            last = ceiling(yb - 0.5)
            top = 0
            fFirst = sign &* ActiveEdge.one
            fLast = fFirst
        } else {
            // End points on a grid of 1/65536 strip (y ≥ 0, so truncation floors).
            let qa = strata_truncate(ya * 65536), qb = strata_truncate(yb * 65536)
            guard qb > qa else { return }
            first = qa >> 16
            last = (qb &+ 0xFFFF) >> 16
            let topFixed = qa & 0xFFFF
            top = Float(topFixed) * (1 / 65536)
            fFirst = sign &* (last &- first == 1 ? qb &- qa : ActiveEdge.one &- topFixed)
            fLast = sign &* (qb &- ((last &- 1) << 16))
            signedHeight &+= sign &* (qb &- qa)
        }
        guard first < last else { return }
        if !keeps(first, last) {
            // Never reaches a row drawn; counted as if kept, so that the
            // budget runs out exactly where it does with every row drawn.
            droppedEdges &+= 1
            countAgainstBudget(strips: last &- first)
            return
        }
        let dxdY = (x1 - x0) / (yb - ya)
        let xRef = x0 + (Float(first) - ya) * dxdY
        let mean: Float
        if mode != .area {
            mean = 0.5
        } else {
            mean = (top + (last &- first == 1 ? Float(fLast < 0 ? 0 &- fLast : fLast) * (1 / 65536) : 1)) * 0.5
        }
        edges.append(
            ActiveEdge(
                x: xRef + mean * dxdY, xRef: xRef, dxdY: dxdY, top: top,
                first: Int32(truncatingIfNeeded: first), last: Int32(truncatingIfNeeded: last),
                fFirst: Int32(truncatingIfNeeded: fFirst), fLast: Int32(truncatingIfNeeded: fLast)))
        countAgainstBudget(strips: last &- first)
    }

    /// Whether an edge over strips `first ..< last` reaches a kept strip.
    @inline(__always)
    private func keeps(_ first: Int, _ last: Int) -> Bool {
        last > keptStrips.lowerBound && first < keptStrips.upperBound
    }

    /// Counts an edge's strips against the budget, once the edge is kept or
    /// dropped, and notes when the budget has run out.
    @inline(__always)
    private func countAgainstBudget(strips: Int) {
        visits &+= strips
        if spends(kept: edges.count, dropped: droppedEdges, visits: visits) { isFull = true }
    }

    /// Whether counts of edges kept and dropped and of strip visits use up
    /// the budget.
    @inline(__always)
    private func spends(kept: Int, dropped: Int, visits: Int) -> Bool {
        kept &+ dropped >= maxEdges || visits >= maxVisits
    }

    /// Takes the edges `recorded` accumulated, as if they were accumulated
    /// here, in their order: `recorded` was begun over the same area, with
    /// the same samples and mode, and every row (a piece of a long stroke
    /// taken apart on another thread, `StrokeShare`). Edges outside the rows
    /// kept here are counted, not kept, and the budget runs out at the same
    /// edge as it would have.
    func adopt(_ recorded: StrokeRasterizer) {
        if isFull { return }
        let n = recorded.edges.count
        let span = recorded.recordedStrips
        if !keeps(Int(span.lowerBound), Int(span.upperBound)) {
            // None kept: all counted at once (the counts only grow, so the
            // budget runs out within them if it runs out at all).
            droppedEdges &+= n
            countAgainstBudget(strips: recorded.visits)
            // (Counted as `accumulate` counts an edge it does not keep.)
            if !isFull { signedHeight &+= recorded.signedHeight }
            return
        }
        edges.reserve(edges.count + n)
        // `keeps` and `countAgainstBudget` an edge at a time, with the counts
        // in registers and written back once (the appends and counts on the
        // rasterizer's fields cost a band of the line scene a tenth of its
        // own sweep).
        let source = recorded.edges.base, dest = edges.base
        var kept = edges.count, dropped = droppedEdges, visits = visits
        var full = false
        for i in 0..<n {
            let first = Int(source[i].first), last = Int(source[i].last)
            if keeps(first, last) {
                (dest + kept).initialize(to: source[i])
                kept &+= 1
            } else {
                dropped &+= 1
            }
            visits &+= last &- first
            if spends(kept: kept, dropped: dropped, visits: visits) {
                full = true
                break
            }
        }
        edges.setCount(kept)
        droppedEdges = dropped
        self.visits = visits
        if full {
            isFull = true
            return
        }
        signedHeight &+= recorded.signedHeight
    }

    /// The strips the edges reach, from the first edge's first to the last
    /// edge's last (`noteRecordedStrips`), for `adopt`.
    private(set) var recordedStrips: Range<Int32> = 0..<0

    /// Notes the strips the edges reach, once they are all accumulated.
    func noteRecordedStrips() {
        var lo = Int32.max, hi = Int32.min
        for i in 0..<edges.count {
            lo = min(lo, edges.base[i].first)
            hi = max(hi, edges.base[i].last)
        }
        recordedStrips = lo < hi ? lo..<hi : 0..<0
    }

    /// Whether `p` comes before `q` in the order every walk (the row walk
    /// too) sorts its active list in: by x, and edges at the same x by
    /// their other values. The list is then in an order that depends on the
    /// strip alone, not on the order of the strips before; the strip's
    /// arrivals, sorted the same way, are merged in by x, an arrival after
    /// the edges it ties with (`merged`), so the walk's order, and the sums
    /// it makes in that order, depend on the strip alone too. Edges equal in
    /// every value are interchangeable.
    @inline(__always)
    static func precedes(_ p: ActiveEdge, _ q: ActiveEdge) -> Bool {
        p.x != q.x ? p.x < q.x : tieBreak(p, q)
    }

    @inline(never)
    static func tieBreak(_ p: ActiveEdge, _ q: ActiveEdge) -> Bool {
        if p.dxdY != q.dxdY { return p.dxdY < q.dxdY }
        if p.xRef != q.xRef { return p.xRef < q.xRef }
        if p.first != q.first { return p.first < q.first }
        if p.last != q.last { return p.last < q.last }
        if p.fFirst != q.fFirst { return p.fFirst < q.fFirst }
        if p.fLast != q.fLast { return p.fLast < q.fLast }
        return p.top < q.top
    }

    /// Sorts `a[0 ..< n]` in the order of `precedes`, by insertion while the
    /// list is nearly sorted (one comparison an edge where it is in order),
    /// by a full sort once the insertions have moved more than a few places
    /// an entry (a dense outline whose edges all cross each other). (One
    /// insertion sort taking the order as a closure left the in-order case
    /// two comparisons and the line scene 9 % slower.)
    @inline(__always)
    func sortByKey(_ a: UnsafeMutablePointer<ActiveEdge>, _ n: Int) {
        var moves = 0
        let budget = 8 * n + 64
        var i = 1
        while i < n {
            // (One comparison where the list is in order.)
            let x = a[i].x, before = a[i &- 1].x
            if x <= before && (x < before || StrokeRasterizer.tieBreak(a[i], a[i &- 1])) {
                let e = a[i]
                var j = i
                while j > 0 && (e.x < a[j &- 1].x || (e.x == a[j &- 1].x && StrokeRasterizer.tieBreak(e, a[j &- 1]))) {
                    a[j] = a[j &- 1]
                    j &-= 1
                }
                a[j] = e
                moves &+= i &- j
                if moves > budget {
                    if n >= 64 {
                        radixSortByKey(a, n)
                    } else {
                        var all = UnsafeMutableBufferPointer(start: a, count: n)
                        all.sort(by: StrokeRasterizer.precedes)
                    }
                    return
                }
            }
            i &+= 1
        }
    }

    /// `a[0 ..< n]` in the order of `precedes`, for a long list far out of
    /// order (a dense outline's strip, whose thousands of edges all cross
    /// each other: their comparison sort was a third of a small stroked
    /// world map's time). The x values' bits as unsigned keys (x + 0, so
    /// −0 and +0 are one key), each with the entry's place, are sorted a
    /// byte a pass (a pass whose byte is the same in every key is skipped),
    /// the entries moved into that order through `spare`,
    /// then each run of equal x put in order by the other values
    /// (`tieBreak`), by insertion: the order the comparison sort gives, in
    /// time linear in n but for the ties.
    func radixSortByKey(_ a: UnsafeMutablePointer<ActiveEdge>, _ n: Int) {
        sortKeys.reserve(2 * n)
        spare.reserve(n)
        var from = sortKeys.base, to = sortKeys.base + n
        for i in 0..<n {
            let bits = (a[i].x + 0).bitPattern
            let key = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
            from[i] = UInt64(key) << 32 | UInt64(i)
        }
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * 256) { buffer in
            let counts = buffer.baseAddress!
            counts.initialize(repeating: 0, count: 4 * 256)
            for i in 0..<n {
                let k = Int(truncatingIfNeeded: from[i] >> 32)
                counts[k & 0xFF] &+= 1
                counts[256 + (k >> 8) & 0xFF] &+= 1
                counts[512 + (k >> 16) & 0xFF] &+= 1
                counts[768 + (k >> 24) & 0xFF] &+= 1
            }
            for pass in 0..<4 {
                let c = counts + pass * 256
                let shift = UInt64(32 + 8 * pass)
                if c[Int(truncatingIfNeeded: from[0] >> shift) & 0xFF] == n { continue }
                var sum: Int32 = 0
                for b in 0..<256 {
                    let t = c[b]
                    c[b] = sum
                    sum &+= t
                }
                for i in 0..<n {
                    let k = from[i]
                    let b = Int(truncatingIfNeeded: k >> shift) & 0xFF
                    to[Int(c[b])] = k
                    c[b] &+= 1
                }
                swap(&from, &to)
            }
        }
        let moved = spare.base
        for i in 0..<n { strata_copy_edge(moved + i, a + Int(truncatingIfNeeded: from[i] & 0xFFFF_FFFF)) }
        a.update(from: moved, count: n)
        var i = 1
        while i < n {
            if a[i].x == a[i &- 1].x && StrokeRasterizer.tieBreak(a[i], a[i &- 1]) {
                let e = a[i]
                var j = i
                while j > 0 && a[j &- 1].x == e.x && StrokeRasterizer.tieBreak(e, a[j &- 1]) {
                    a[j] = a[j &- 1]
                    j &-= 1
                }
                a[j] = e
            }
            i &+= 1
        }
    }

    /// Fills the area under `rule` through `blitter` (the rule matters only
    /// when aliased; the anti-aliased modes use non-zero winding).
    func sweep<B: SpanBlitter>(_ rule: FillRule, _ blitter: inout B) {
        let count = edges.count
        guard count > 0 else { return }
        if walksRows && mode == .area && samplesPerRow == 4 {
            sweepRows(&blitter)
            return
        }
        let samples = samplesPerRow
        let strips = height * samples
        let evenOdd = rule == .evenOdd
        let weight = 1 / Float(samples)
        let wordsPerRow = (width + 2 + 63) >> 6
        let maxX = Float(width)

        // Edges in order of their first strip, by a counting sort in two
        // levels: into bands of 64 strips, then, as the sweep reaches each
        // band, into its strips. Each level writes to few places at once (one
        // sorted scatter into thousands of strips missed the cache on nearly
        // every store: 14 % of the line scene's sweep); within a strip the
        // edges are sorted by x as they join the active list.
        let bandShift = 6, bandStrips = 1 << bandShift
        let bands = (strips + bandStrips - 1) >> bandShift
        // A dense outline's edges come in the path's order, which runs
        // every way (a coastline): put in order of their pixel columns
        // first (`sortedByColumn`), they reach each strip nearly in order of
        // x, as the counting sorts below keep that order, and little is
        // left for the insertion sort (the arrivals of a small stroked world
        // map's strips, in the path's order, had fallen to the full sort in
        // most strips: a third of its time).
        var source = edges.base
        if count >= 64 && comesOutOfOrder(count) {
            source = sortedByColumn(count, maxX: maxX)
            sortedByColumns &+= 1
        }
        startOf.removeAll()
        startOf.reserve(bands + bandStrips + 2)
        for _ in 0...bands { startOf.append(0) }
        for e in 0..<count { startOf[(Int(source[e].first) >> bandShift) + 1] += 1 }
        for i in 0..<bands { startOf[i + 1] += startOf[i] }
        sorted.removeAll()
        sorted.reserve(count)
        let byBand = sorted.base
        for e in 0..<count {
            let edge = source[e]
            let b = Int(edge.first) >> bandShift
            (byBand + Int(startOf[b])).initialize(to: edge)
            startOf[b] += 1
        }
        // startOf[b] is now where band b + 1 begins in `byBand`; entries
        // bands + 1 ... bands + 65 count out the strips of the band being swept.
        let stripStart = bands + 1
        for _ in 0...bandStrips { startOf.append(0) }
        active.removeAll()
        var next = 0
        var dest = byBand
        // The walk starts at the first strip drawn (`startActive`).
        let firstRow = keptStrips.lowerBound / samples
        let firstStrip = Int32(firstRow * samples)
        if firstRow > 0 { startActive(at: firstStrip) }

        for row in firstRow..<height {
            for k in 0..<samples {
                let s = Int32(row * samples + k)
                let inBand = Int(s) & (bandStrips - 1)
                if inBand == 0 || s == firstStrip {
                    // The band's edges, by strip.
                    let band = Int(s) >> bandShift
                    let lo = band == 0 ? 0 : Int(startOf[band - 1]), hi = Int(startOf[band])
                    for i in 0...bandStrips { startOf[stripStart + i] = 0 }
                    for e in lo..<hi { startOf[stripStart + (Int(byBand[e].first) & (bandStrips - 1)) + 1] += 1 }
                    for i in 0..<bandStrips { startOf[stripStart + i + 1] += startOf[stripStart + i] }
                    bandEdges.removeAll()
                    bandEdges.reserve(hi - lo)
                    dest = bandEdges.base
                    for e in lo..<hi {
                        let edge = byBand[e]
                        let t = stripStart + (Int(edge.first) & (bandStrips - 1))
                        (dest + Int(startOf[t])).initialize(to: edge)
                        startOf[t] += 1
                    }
                    // (Past the strips of the band before the first walked,
                    // whose edges were taken above.)
                    next = inBand == 0 ? 0 : Int(startOf[stripStart + inBand - 1])
                }
                // Restore the order by x (edges cross): by insertion, one
                // comparison an edge when nothing crossed. (The walk of the
                // strip before dropped the edges that ended there.)
                let n = active.count
                sortByKey(active.base, n)
                // The edges that start here, sorted by x where they lie (in
                // `sorted`, read once), are merged in by the walk itself: a
                // dense outline brings dozens of edges a strip into a list of
                // hundreds, and finding each one's place cost a quarter of the
                // line scene (a merge into a copy of the list, before the walk,
                // had cost 40 %).
                let end = Int(startOf[stripStart + inBand])
                let m = end - next
                sortByKey(dest + next, m)
                if n + m == 0 { continue }
                spare.reserve(n + m)
                let kept: Int
                switch mode {
                case .area:
                    // (Not inlined here: the area mode's strips come here only
                    // when the row walk is off or the strips are not four, and
                    // a third walk inlined in this loop had the compiler spill
                    // the centre walk's registers.)
                    kept = walkOneStrip(active.base, n, dest + next, m, into: spare.base, s, weight: weight, maxX: maxX)
                case .sampled:
                    kept = walkSampledStrip(active.base, n, dest + next, m, into: spare.base, s, weight: weight, maxX: maxX)
                case .aliased:
                    kept = walkCentres(active.base, n, dest + next, m, into: spare.base, s, evenOdd: evenOdd, maxX: maxX)
                }
                next = end
                spare.setCount(kept)
                swap(&active, &spare)
            }
            finishRow(cells, rowBits, wordsPerRow: wordsPerRow, row: row, &blitter)
            // Past the last row drawn: nothing more to walk.
            if originY + row >= shownRows.upperBound { break }
        }
        trim()
    }

    /// Whether the edges' x steps back by more than a pixel between
    /// neighbours in their order more than once in sixteen, among the
    /// first 4,096: an outline that runs every way (a chart line's runs
    /// along x, and its strips' arrivals come nearly in order already).
    func comesOutOfOrder(_ count: Int) -> Bool {
        var back = 0
        let e = edges.base, probe = min(count, 4096)
        for i in 1..<probe where e[i].x < e[i &- 1].x - 1 { back &+= 1 }
        return back &* 16 > probe
    }

    /// Starts the active list at strip `s` (> 0): the edges that reach
    /// across it from above, with their keys there (their x as the walk of
    /// the strip before sets it: the centre line's in the sampled and
    /// aliased modes, `strata_sampled_strip` and `walkCentres`, the mean over the strip's part of the
    /// edge in the area mode, `walkStrip` and the row walk), in the order of
    /// `precedes`: the list the walk from the top would have there, as
    /// every walk's order in a strip is a function of the strip alone. A
    /// band of a frame drawn on several threads walks its own rows, not all
    /// the rows above.
    func startActive(at s: Int32) {
        active.removeAll()
        // (Every edge kept reaches past the first strip drawn.)
        for e in 0..<edges.count where edges[e].first < s {
            var edge = edges[e]
            edge.x = mode == .area ? edge.meanX(inStrip: s) : edge.centreX(inStrip: s)
            active.append(edge)
        }
        var all = UnsafeMutableBufferPointer(start: active.base, count: active.count)
        all.sort(by: StrokeRasterizer.precedes)
    }

    /// Hands area row `row`'s cells to `blitter` when the row is shown
    /// (`shownRows`), else only clears them; either way they are left zero.
    @inline(__always)
    func finishRow<B: SpanBlitter>(
        _ cells: UnsafeMutablePointer<Float>, _ bits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int, row: Int, _ blitter: inout B
    ) {
        if shownRows.contains(originY + row) {
            sweepCoverageRow(cells, bits, wordsPerRow: wordsPerRow, width: width, originX: originX, y: originY + row, evenOdd: false, &blitter)
        } else {
            clearCoverageRow(cells, bits, wordsPerRow: wordsPerRow)
        }
    }
}
