internal import CPixels

// The strip walks: one strip at a time with exact areas (the area mode's
// fallback and the sampled modes' base), centre lines for the sampled and
// aliased modes, and the row's difference cells they add coverage to.
extension StrokeRasterizer {
    /// One strip: the mean winding along it (in the edges' fixed point, exact),
    /// and where the coverage min(1, |winding|) changes, the edge's area within
    /// the strip. Each edge is written to `out` with its x in the next strip,
    /// unless it ends here (kept or not without a branch: which edges end is
    /// unpredictable); returns how many were written.
    @inline(__always)
    func walkStrip(
        _ a: UnsafeMutablePointer<ActiveEdge>, _ n: Int, _ b: UnsafeMutablePointer<ActiveEdge>, _ m: Int,
        into out: UnsafeMutablePointer<ActiveEdge>, _ s: Int32, weight: Float, maxX: Float
    ) -> Int {
        var kept = 0
        let one = ActiveEdge.one
        let scale = weight * (1 / 65536)
        var winding = 0
        var coverage = 0
        merged(a, n, b, m) { e in
            // (Strip numbers are under 2^18: bands are at most 65,536 rows of
            // four strips, so the arithmetic on them wraps without checks.)
            let isFirst = s == e.first, isLast = s == e.last &- 1
            // (A winding is at most the edges' count of whole strips, far
            // inside Int: it wraps without checks too.)
            winding &+= isFirst ? Int(e.fFirst) : (isLast ? Int(e.fLast) : (e.fFirst > 0 ? one : -one))
            let c = min(one, winding < 0 ? 0 &- winding : winding)
            let u = Float(s &- e.first)
            if c != coverage {
                let t0: Float = isFirst ? e.top : 0
                let t1: Float = isLast ? e.bottom : 1
                let xa = min(maxX, max(0, e.xRef + (u + t0) * e.dxdY))
                let xb = min(maxX, max(0, e.xRef + (u + t1) * e.dxdY))
                addEdgeArea(cells, rowBits, xa, xb, Float(c &- coverage) * scale)
                coverage = c
            }
            // The next strip: whole, or the edge's last part.
            var next = e
            next.x = e.meanX(inStrip: s &+ 1)
            out[kept] = next
            kept &+= e.last > s &+ 1 ? 1 : 0
        }
        return kept
    }

    /// `walkStrip` for a row left to the strip walk, and for `sweep` (rarely:
    /// not inlined).
    @inline(never)
    func walkOneStrip(
        _ a: UnsafeMutablePointer<ActiveEdge>, _ n: Int, _ b: UnsafeMutablePointer<ActiveEdge>, _ m: Int,
        into out: UnsafeMutablePointer<ActiveEdge>, _ s: Int32, weight: Float, maxX: Float
    ) -> Int {
        walkStrip(a, n, b, m, into: out, s, weight: weight, maxX: maxX)
    }

    /// One centre line of a sampled strip, in C (`strata_sampled_strip`):
    /// where the winding is non-zero, the interval covers `weight` of the
    /// row, with exact ends along x. Edges go on to `out` as in `walkStrip`;
    /// returns how many were written. (The walk was Swift, whose walk saved
    /// and reloaded a dozen registers round each interval it added, 39
    /// instructions an edge against C's 30, the same operations: the C walk
    /// takes 11 % fewer instructions for the line scene, and 7 % less time.
    /// Sorting the edges it keeps as it writes them, in place of the next
    /// strip's sort, took 5 % fewer instructions again but 9 % more time:
    /// the out-of-order test mispredicts inside the walk's longer loop.)
    @inline(never)
    func walkSampledStrip(
        _ a: UnsafeMutablePointer<ActiveEdge>, _ n: Int, _ b: UnsafeMutablePointer<ActiveEdge>, _ m: Int,
        into out: UnsafeMutablePointer<ActiveEdge>, _ s: Int32, weight: Float, maxX: Float
    ) -> Int {
        strata_sampled_strip(a, n, b, m, out, s, weight, maxX, cells, rowBits)
    }

    /// One centre line of an aliased strip: where the winding (under the
    /// fill rule) is inside, the pixels whose centres the interval holds are
    /// covered. Edges go on to `out` as in `walkStrip`; returns how many were
    /// written.
    @inline(__always)
    func walkCentres(
        _ a: UnsafeMutablePointer<ActiveEdge>, _ n: Int, _ b: UnsafeMutablePointer<ActiveEdge>, _ m: Int,
        into out: UnsafeMutablePointer<ActiveEdge>, _ s: Int32, evenOdd: Bool, maxX: Float
    ) -> Int {
        var kept = 0
        var winding: Int32 = 0
        var enter: Float = 0
        merged(a, n, b, m) { e in
            let x = min(maxX, max(0, e.x))
            let was = evenOdd ? winding & 1 != 0 : winding != 0
            winding &+= e.fFirst > 0 ? 1 : -1
            let now = evenOdd ? winding & 1 != 0 : winding != 0
            if now != was {
                if now {
                    enter = x
                } else {
                    addCentres(enter, x, maxX)
                }
            }
            var next = e
            next.x = e.centreX(inStrip: s &+ 1)
            out[kept] = next
            kept &+= e.last > s &+ 1 ? 1 : 0
        }
        if evenOdd ? winding & 1 != 0 : winding != 0 { addCentres(enter, maxX, maxX) }
        return kept
    }

    /// Full coverage for the pixels whose centres lie in [x0, x1).
    @inline(never)
    func addCentres(_ x0: Float, _ x1: Float, _ maxX: Float) {
        let i0 = Int(max(0, min(maxX, (x0 - 0.5).rounded(.up))))
        let i1 = Int(max(0, min(maxX, (x1 - 0.5).rounded(.up))))
        guard i1 > i0 else { return }
        cells[i0] += 1
        cells[i1] -= 1
        markCells(rowBits, i0, i0)
        markCells(rowBits, i1, i1)
    }
}
