// Scan conversion that stays exact where a path overlaps itself.
//
// The cell rasterizer (Rasterizer.swift) sums signed areas, which is exact for
// paths whose edges do not pile up inside one pixel. A stroke outline is not such
// a path: a zigzag chart line, stroked, is dozens of overlapping pieces whose
// edges share the boundary pixels, and summing their partial areas there would
// count the same ink several times (a boundary pixel a third covered by three
// pieces would come out fully covered).
//
// This rasterizer samples each pixel row on `samplesPerRow` horizontal lines. On
// each line it walks the edges crossing it in order of x (an active edge list,
// kept sorted by an insertion sort that costs one comparison per edge when, as
// usual, the order barely changes from one line to the next) and follows the
// winding number: the exact x-intervals where it is inside are the union of all
// the pieces, however many overlap. Interval ends are fractional, so horizontal
// coverage is exact and only the vertical direction is sampled. Intervals go
// into the same difference cells and bit vector as the cell rasterizer's, and
// the same row sweep hands them to the blitter.

/// A growable buffer of trivial values with no copy-on-write or exclusivity
/// checks in the way: the rasterizer's hot loops append to these millions of times.
struct ScratchBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func free() { base.deallocate() }

    @inline(__always) mutating func append(_ value: Element) {
        if count == capacity { grow(count + 1) }
        (base + count).initialize(to: value)
        count += 1
    }

    @inline(__always) mutating func removeAll() { count = 0 }

    /// Keeps the first `n` elements.
    @inline(__always) mutating func truncate(to n: Int) { count = min(count, n) }

    /// Makes room for `n` elements in all, keeping the first `count`.
    mutating func reserve(_ n: Int) {
        if n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(n, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }
}

/// One edge on the active list: where it crosses the current sample line, where
/// it crossed its first one and which that was, how far it moves per line, the
/// line it stops before, and its direction. `x` is recomputed from the first
/// line each time (summing steps in Float drifts: a tall edge could end up a
/// pixel off).
struct ActiveEdge {
    var x: Float
    var x0: Float
    var first: Int32
    var step: Float
    var last: Int32
    var dir: Int32
}

/// Scratch state for overlap-exact scan conversion. Owned by one `Canvas`.
final class ScanlineRasterizer: LineClipper {
    /// Sample lines per pixel row, at heights (k + ½)/S: 16 (coverage within
    /// 1/32 of exact) by default, 4 for dense outlines (see `Canvas.stroke`).
    private(set) var samplesPerRow = 16

    private(set) var originX = 0, originY = 0, width = 0, height = 0
    private(set) var fw: Double = 0, fh: Double = 0

    // The buffers below are appended to millions of times a frame; they are
    // private to this class and used by one thread, so the dynamic exclusivity
    // checks Swift would otherwise make on each access buy nothing.

    /// Edges as they were added, with the first sample line each crosses.
    @exclusivity(unchecked) private var edges = ScratchBuffer<ActiveEdge>()
    @exclusivity(unchecked) private var edgeFirst = ScratchBuffer<Int32>()
    /// Per sweep: edges by first sample line (a counting sort) and the active list.
    @exclusivity(unchecked) private var startOf = ScratchBuffer<Int32>()
    @exclusivity(unchecked) private var order = ScratchBuffer<Int32>()
    @exclusivity(unchecked) private var active = ScratchBuffer<ActiveEdge>()
    @exclusivity(unchecked) private var merged = ScratchBuffer<ActiveEdge>()

    // One row of difference cells and touched bits, as in the cell rasterizer.
    private var cells: UnsafeMutablePointer<Float>
    private var rowBits: UnsafeMutablePointer<UInt64>
    private var capacity = 0

    init() {
        cells = .allocate(capacity: 1)
        rowBits = .allocate(capacity: 1)
    }

    deinit {
        cells.deallocate()
        rowBits.deallocate()
        edges.free(); edgeFirst.free(); startOf.free(); order.free()
        active.free(); merged.free()
    }

    /// Starts an area of any height, sampled on `samples` lines per pixel row;
    /// memory is one row of cells plus the edges.
    func begin(_ box: PixelBox, samples: Int = 16) {
        samplesPerRow = samples
        originX = box.x0; originY = box.y0
        width = box.width; height = box.height
        fw = Double(width); fh = Double(height)
        edges.removeAll(); edgeFirst.removeAll()
        let need = width + 2
        if need > capacity {
            cells.deallocate(); rowBits.deallocate()
            capacity = max(need, capacity * 2)
            let words = (capacity + 63) >> 6
            cells = .allocate(capacity: capacity)
            cells.initialize(repeating: 0, count: capacity)
            rowBits = .allocate(capacity: words)
            rowBits.initialize(repeating: 0, count: words)
        }
    }

    /// Records a clipped line (band-local, y0 < y1) as an edge over the sample
    /// lines it crosses: those at heights (s + ½)/S with y0 ≤ height < y1.
    @inline(__always)
    func accumulate(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ dir: Float) {
        let n = Float(samplesPerRow)
        let first = (y0 * n - 0.5).rounded(.up)
        let last = (y1 * n - 0.5).rounded(.up)
        guard first < last else { return }
        let dxdy = (x1 - x0) / (y1 - y0)
        let start = x0 + ((first + 0.5) / n - y0) * dxdy
        edges.append(ActiveEdge(x: start, x0: start, first: Int32(first), step: dxdy / n,
                                last: Int32(last), dir: Int32(dir)))
        edgeFirst.append(Int32(first))
    }

    /// Fills the band under `rule` through `blitter`.
    func sweep<B: SpanBlitter>(_ rule: FillRule, _ blitter: inout B) {
        let count = edges.count
        guard count > 0 else { return }
        let samples = samplesPerRow
        let lines = height * samples
        let evenOdd = rule == .evenOdd
        let weight = 1 / Float(samples)
        let wordsPerRow = (width + 2 + 63) >> 6
        let maxX = Float(width)

        // Edges in order of their first sample line and, within a line, of their
        // pixel column: two counting sorts, by column and then (stably) by line.
        // Merging them into the active list then needs no comparison sort.
        let columns = width + 1
        startOf.removeAll()
        startOf.reserve(max(lines, columns) + 1)
        for _ in 0...max(lines, columns) { startOf.append(0) }
        @inline(__always) func column(_ e: Int) -> Int { Int(min(maxX, max(0, edges[e].x))) }
        for e in 0..<count { startOf[column(e) + 1] += 1 }
        for i in 0..<columns { startOf[i + 1] += startOf[i] }
        merged.removeAll()
        order.removeAll()
        order.reserve(count)
        for _ in 0..<count { order.append(0) }
        var byColumn = ScratchBuffer<Int32>(capacity: count)
        defer { byColumn.free() }
        for _ in 0..<count { byColumn.append(0) }
        for e in 0..<count {
            let c = column(e)
            byColumn[Int(startOf[c])] = Int32(e)
            startOf[c] += 1
        }
        for i in 0...lines { startOf[i] = 0 }
        for e in 0..<count { startOf[Int(edgeFirst[e]) + 1] += 1 }
        for i in 0..<lines { startOf[i + 1] += startOf[i] }
        for k in 0..<count {
            let e = Int(byColumn[k])
            let s = Int(edgeFirst[e])
            order[Int(startOf[s])] = Int32(e)
            startOf[s] += 1
        }
        // startOf[s] is now where the edges of line s + 1 begin in `order`.
        active.removeAll()
        var next = 0

        for row in 0..<height {
            for k in 0..<samples {
                let s = Int32(row * samples + k)
                // Drop finished edges, keeping the order of the rest, then restore
                // the order by x: one comparison per edge when nothing crossed.
                var n = 0
                var a = active.base
                for i in 0..<active.count where a[i].last > s {
                    let e = a[i]
                    var j = n
                    while j > 0 && a[j - 1].x > e.x {
                        a[j] = a[j - 1]
                        j -= 1
                    }
                    a[j] = e
                    n += 1
                }
                active.truncate(to: n)
                // Merge in the edges that start here (in column order already).
                let end = Int(startOf[Int(s)])
                if next < end {
                    merged.removeAll()
                    merged.reserve(n + end - next)
                    var i = 0
                    while i < n || next < end {
                        if next == end {
                            merged.append(a[i]); i += 1
                        } else {
                            let e = edges[Int(order[next])]
                            if i < n && a[i].x <= e.x {
                                merged.append(a[i]); i += 1
                            } else {
                                merged.append(e); next += 1
                            }
                        }
                    }
                    swap(&active, &merged)
                    a = active.base
                    n = active.count
                    // Newcomers sharing a column may be out of order within it.
                    for i in 1..<max(1, n) where a[i - 1].x > a[i].x {
                        let e = a[i]
                        var j = i
                        while j > 0 && a[j - 1].x > e.x {
                            a[j] = a[j - 1]
                            j -= 1
                        }
                        a[j] = e
                    }
                }
                if n == 0 { continue }
                // Walk the crossings: add each inside interval, then step the edges
                // on to the next sample line.
                var winding: Int32 = 0
                var enter: Float = 0
                for i in 0..<n {
                    let x = min(maxX, max(0, a[i].x))
                    let was = evenOdd ? winding & 1 != 0 : winding != 0
                    winding &+= a[i].dir
                    let now = evenOdd ? winding & 1 != 0 : winding != 0
                    if now != was {
                        if now { enter = x } else { addInterval(enter, x, weight) }
                    }
                    a[i].x = a[i].x0 + Float(s + 1 - a[i].first) * a[i].step
                }
                if evenOdd ? winding & 1 != 0 : winding != 0 { addInterval(enter, maxX, weight) }
            }
            sweepCoverageRow(cells, rowBits, wordsPerRow: wordsPerRow, width: width, originX: originX,
                             y: originY + row, evenOdd: false, &blitter)
        }
    }

    /// Adds coverage `weight` over [a, b) to the row's difference cells, with the
    /// partial end pixels covered exactly.
    @inline(__always)
    private func addInterval(_ a: Float, _ b: Float, _ weight: Float) {
        guard b > a else { return }
        let ia = Int(a), ib = Int(b)
        let fa = (a - Float(ia)) * weight, fb = (b - Float(ib)) * weight
        cells[ia] += weight - fa
        cells[ia + 1] += fa
        cells[ib] -= weight - fb
        cells[ib + 1] -= fb
        rowBits[ia >> 6] |= 1 << UInt64(ia & 63)
        rowBits[(ia + 1) >> 6] |= 1 << UInt64((ia + 1) & 63)
        rowBits[ib >> 6] |= 1 << UInt64(ib & 63)
        rowBits[(ib + 1) >> 6] |= 1 << UInt64((ib + 1) & 63)
    }
}
