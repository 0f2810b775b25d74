internal import CPixels

// The area mode's row walk: a pixel row's four strips walked together
// (`strata_stroke_row` in CPixels), the windings side by side in the lanes of
// a vector, with clusters of edges crossing inside the row walked strip by
// strip (the file header of StrokeRasterizer.swift tells how and why).
extension StrokeRasterizer {
    /// `sweep` in the area mode, a pixel row's four strips together
    /// (`strata_stroke_row`), each row's arrivals taken in the order of
    /// `precedes`: the edges are sorted by the pixel column of their x
    /// first, and the sort into rows keeps that order, so little is left
    /// to sort. A row with too large a knot of crossing edges is walked
    /// strip by strip.
    func sweepRows<B: SpanBlitter>(_ blitter: inout B) {
        let count = edges.count
        let wordsPerRow = (width + 2 + 63) >> 6
        let maxX = Float(width)
        let level = min(rowWalkLevel, StrokeRasterizer.bestRowWalkLevel)  // (never a build the processor cannot run)
        let source = sortedByColumn(count, maxX: maxX)

        // Into rows (a counting sort, which keeps the order by column): one
        // pass, where the other modes sort into bands and then strips (rows
        // are at most 65,536 and an area's edges far fewer than a dense line's).
        startOf.removeAll()
        startOf.reserve(height + 6)
        for _ in 0...height { startOf.append(0) }
        for e in 0..<count { startOf[(Int(source[e].first) >> 2) + 1] &+= 1 }
        for i in 0..<height { startOf[i + 1] &+= startOf[i] }
        sorted.removeAll()
        sorted.reserve(count)
        let dest = sorted.base
        for e in 0..<count {
            let r = Int(source[e].first) >> 2
            strata_copy_edge(dest + Int(startOf[r]), source + e)
            startOf[r] &+= 1
        }
        // startOf[r] is now where row r + 1's edges begin in `dest`; entries
        // height + 1 ... height + 4 hold the strips of a row left to the strip
        // walk.
        let leftRow = height + 1
        for _ in 0..<5 { startOf.append(0) }
        // The walk starts at the first row drawn (a band's,
        // `limitRows(to:)`), with the edges reaching across it from above
        // (`startActive`).
        let firstRow = min(height, keptStrips.lowerBound / 4)
        active.removeAll()
        if firstRow > 0 { startActive(at: Int32(firstRow * 4)) }
        var next = firstRow > 0 ? Int(startOf[firstRow - 1]) : 0
        var other = cellStore + capacity, otherBits = bitStore + ((capacity + 63) >> 6)
        // The row the walk stopped at, early; `height` when it went through.
        var lastWalked = height

        for row in firstRow..<height {
            // The order, restored by insertion (edges cross).
            sortByKey(active.base, active.count)
            let end = Int(startOf[row])
            let s0 = Int32(row * 4)
            if active.count + end - next > 0
                && !walkAreaRow(s0, dest, from: next, to: end, leftRow: leftRow, maxX: maxX, level: level)
            {
                for k in 0..<4 {
                    if k > 0 { sortByKey(active.base, active.count) }
                    let n = active.count, stop = Int(startOf[leftRow + k]), m = stop - next
                    if n + m > 0 {
                        spare.reserve(n + m)
                        let kept = walkOneStrip(
                            active.base, n, dest + next, m, into: spare.base, s0 &+ Int32(k), weight: 0.25, maxX: maxX)
                        spare.setCount(kept)
                        swap(&active, &spare)
                    }
                    next = stop
                }
            }
            next = end
            // The row before, while this one's stores settle (rows not drawn
            // are only cleared).
            if row > firstRow { finishRow(other, otherBits, wordsPerRow: wordsPerRow, row: row - 1, &blitter) }
            swap(&cells, &other)
            swap(&rowBits, &otherBits)
            // Past the last row drawn: this row's cells are cleared, and
            // nothing more is walked.
            if originY + row >= shownRows.upperBound {
                clearCoverageRow(other, otherBits, wordsPerRow: wordsPerRow)
                lastWalked = row
                break
            }
        }
        if firstRow < height && lastWalked == height {  // (an area without rows holds no edges, and does not get here)
            finishRow(other, otherBits, wordsPerRow: wordsPerRow, row: height - 1, &blitter)
        }
        cells = cellStore
        rowBits = bitStore
        trim()
    }

    /// The edges sorted by their x to a fraction of a pixel column (a
    /// counting sort, in `bandEdges`; x clamped to 0 ... `maxX`), to
    /// 1/`columnFineness` of a column. Each strip's arrivals then come
    /// nearly in the order of their keys, as an edge's x is its key in its
    /// first strip. (Sorted by whole columns, a small stroked world map's
    /// arrivals came a dozen to a column in no order, for the strips'
    /// insertion sorts to put right: cut to 1/16 of a column, the map
    /// stroked 8 to 128 pixels wide drew 4-16 % faster.)
    func sortedByColumn(_ count: Int, maxX: Float) -> UnsafeMutablePointer<ActiveEdge> {
        let fine = StrokeRasterizer.columnFineness(width: width, count: count)
        let buckets = (width + 2) &* fine
        let scale = Float(fine), top = maxX * scale
        columns.removeAll()
        columns.reserve(buckets)
        for _ in 0..<buckets { columns.append(0) }
        @inline(__always) func column(_ e: ActiveEdge) -> Int { strata_truncate(max(0, min(top, e.x * scale))) }
        for e in 0..<count { columns[column(edges[e]) + 1] &+= 1 }
        for i in 0..<(buckets - 1) { columns[i + 1] &+= columns[i] }
        bandEdges.removeAll()
        bandEdges.reserve(count)
        for e in 0..<count {
            let c = column(edges[e])
            strata_copy_edge(bandEdges.base + Int(columns[c]), edges.base + e)
            columns[c] &+= 1
        }
        return bandEdges.base
    }

    /// How finely `sortedByColumn` cuts a column: the largest power of two
    /// up to 16 that keeps the buckets, (width + 2) a fineness, within four
    /// an edge (clearing and summing them costs no more than the edges).
    static func columnFineness(width: Int, count: Int) -> Int {
        var fine = 16
        while fine > 1 && (width + 2) &* fine > 4 &* count { fine >>= 1 }
        return fine
    }

    /// One pixel row in the area mode (strips `s0 ... s0 + 3`), with the
    /// active list in the order of `precedes` and the row's arrivals
    /// `dest[from ..< to]` (in order of their columns): walked with
    /// `walkRow`, the active list replaced by the edges going on, or else
    /// left to the strip walk (false), the arrivals put in order of strip
    /// and, within each, of `precedes`, each strip's run ending at
    /// `startOf[leftRow + q]`.
    @inline(never)
    func walkAreaRow(
        _ s0: Int32, _ dest: UnsafeMutablePointer<ActiveEdge>, from: Int, to end: Int, leftRow: Int, maxX: Float,
        level: Int
    ) -> Bool {
        let n = active.count, m = end - from
        // The arrivals in order (already in order of their columns).
        sortByKey(dest + from, m)
        let kept = n + m <= rowWalkLimit ? walkRow(dest + from, n, m, s0, maxX: maxX, level: level) : -1
        if kept >= 0 {
            spare.setCount(kept)
            swap(&active, &spare)
            return true
        }
        // Left to the strip walk: the arrivals by strip (in order of x within
        // each), where each strip's run ends.
        rowsLeftToStrips += 1
        halves.reserve(m)
        var at = 0
        for q in 0..<4 {
            for e in from..<end where dest[e].first == s0 &+ Int32(q) {
                halves.base[at] = dest[e]
                at += 1
            }
            startOf[leftRow + q] = Int32(from + at)
        }
        (dest + from).update(from: halves.base, count: m)
        return false
    }

    /// One pixel row in the area mode, its four strips together
    /// (`strata_stroke_row`), the active list and the arrivals `b[0 ..< m]`
    /// (each in the order of `precedes`): returns how many edges went on to `spare`, or −1
    /// when the row is left to the strip walk.
    func walkRow(
        _ b: UnsafeMutablePointer<ActiveEdge>, _ n: Int, _ m: Int, _ s0: Int32, maxX: Float, level: Int
    ) -> Int {
        // (Both lists end in +∞ for the row walk's merge.)
        rowArrivals.reserve(m + 1)
        rowArrivals.base.update(from: b, count: m)
        rowArrivals.base[m] = ActiveEdge(
            x: .infinity, xRef: 0, dxdY: 0, top: 0, first: s0, last: s0, fFirst: 0, fLast: 0)
        active.reserve(n + 1)
        active.base[n] = rowArrivals.base[m]
        rowKeys.reserve(26 * (n + m) + 1)
        spare.reserve(n + m)
        let a = active.base, arrivals = rowArrivals.base, out = spare.base
        #if arch(x86_64)
        if level >= 2 {
            return strata_stroke_row_avx512(a, n, arrivals, m, rowKeys.base, out, s0, cells, rowBits, maxX, &clusters)
        }
        if level == 1 {
            return strata_stroke_row_avx2(a, n, arrivals, m, rowKeys.base, out, s0, cells, rowBits, maxX, &clusters)
        }
        #endif
        return strata_stroke_row(a, n, arrivals, m, rowKeys.base, out, s0, cells, rowBits, maxX, &clusters)
    }

    /// Takes the edges of `a` (the active list, in order of x) and `b` (the
    /// strip's arrivals, in order of x) in one order, an arrival after the
    /// edges it ties with, and calls `body` with each.
    @inline(__always)
    func merged(
        _ a: UnsafeMutablePointer<ActiveEdge>, _ n: Int, _ b: UnsafeMutablePointer<ActiveEdge>, _ m: Int,
        _ body: (ActiveEdge) -> Void
    ) {
        var i = 0, j = 0
        var nextArrival: Float = m > 0 ? b[0].x : .infinity
        while i < n {
            let e = a[i]
            if nextArrival < e.x {
                body(b[j])
                j &+= 1
                nextArrival = j < m ? b[j].x : .infinity
            } else {
                body(e)
                i &+= 1
            }
        }
        while j < m {
            body(b[j])
            j &+= 1
        }
    }
}
