import CPixels
import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// The sampled mode's strip walk in C (`strata_sampled_strip`, through
/// `StrokeRasterizer.walkSampledStrip`) against the Swift walk it took the
/// place of (`reference`, below): the same cells and marks, bit for bit, and
/// the same edges kept, in the same order, with the same keys.
@Suite struct SampledStripTests {
    /// The Swift walk the C walk stands for, as it was: the active edges `a`
    /// and arrivals `b` merged by x (an arrival after the edges it ties
    /// with); where the non-zero winding is inside, `weight` of the row
    /// over the interval, its end pixels' shares exact; the edges reaching
    /// below strip `s` written to `out` with their x on the next centre line.
    static func reference(
        _ a: [ActiveEdge], _ b: [ActiveEdge], into out: UnsafeMutablePointer<ActiveEdge>, _ s: Int32, weight: Float,
        maxX: Float, cells: UnsafeMutablePointer<Float>, bits: UnsafeMutablePointer<UInt64>
    ) -> Int {
        func addInterval(_ a: Float, _ b: Float) {
            guard b > a else { return }
            let ia = strata_truncate(a), ib = strata_truncate(b)
            let fa = (a - Float(ia)) * weight, fb = (b - Float(ib)) * weight
            cells[ia] += weight - fa
            cells[ia &+ 1] += fa
            cells[ib] -= weight - fb
            cells[ib &+ 1] -= fb
            strata_mark_few(bits, ia, 2)
            strata_mark_few(bits, ib, 2)
        }
        var kept = 0, winding: Int32 = 0, enter: Float = 0
        func visit(_ e: ActiveEdge) {
            let x = min(maxX, max(0, e.x))
            let was = winding != 0
            winding &+= e.fFirst > 0 ? 1 : -1
            let now = winding != 0
            if now != was {
                if now { enter = x } else { addInterval(enter, x) }
            }
            var next = e
            next.x = e.xRef + (Float(s &+ 1 &- e.first) + 0.5) * e.dxdY
            out[kept] = next
            kept &+= e.last > s &+ 1 ? 1 : 0
        }
        var i = 0, j = 0
        while i < a.count {
            if j < b.count && b[j].x < a[i].x {
                visit(b[j])
                j += 1
            } else {
                visit(a[i])
                i += 1
            }
        }
        while j < b.count {
            visit(b[j])
            j += 1
        }
        if winding != 0 { addInterval(enter, maxX) }
        return kept
    }

    /// A random edge reaching into strip `s`, its x anywhere from a few
    /// pixels left of the row to a few right of its `width`, sometimes on
    /// another's x exactly.
    static func edge(_ r: inout FuzzRandom, strip s: Int32, width: Int, xs: [Float]) -> ActiveEdge {
        let first = s &- Int32(r.int(4)), last = s &+ 1 &+ Int32(r.int(4))
        let x = !xs.isEmpty && r.int(4) == 0 ? xs[r.int(xs.count)] : Float(r.uniform() * Double(width + 10) - 5)
        let share = Int32(1 + r.int(65_536)) * (r.int(2) == 0 ? 1 : -1)
        let bottom = Int32(1 + r.int(65_536))
        return ActiveEdge(
            x: x, xRef: Float(r.uniform() * Double(width + 10) - 5), dxdY: Float(r.uniform() * 8 - 4),
            top: Float(r.uniform()), first: first, last: last, fFirst: share,
            fLast: share > 0 ? bottom : -bottom)
    }

    @Test func cWalkMatchesTheSwiftWalk() {
        var r = FuzzRandom(seed: 4242)
        let rasterizer = StrokeRasterizer()
        for round in 0..<400 {
            let width = 1 + r.int(150)
            rasterizer.begin(PixelBox(x0: 0, y0: 0, x1: width, y1: 8), samples: 4, mode: .sampled)
            // Strips far from 0 too, where the keys' arithmetic wraps.
            let s: Int32 = round % 50 == 49 ? Int32.max - 2 : Int32(r.int(20))
            var xs: [Float] = []
            var a: [ActiveEdge] = [], b: [ActiveEdge] = []
            for _ in 0..<r.int(40) {
                a.append(Self.edge(&r, strip: s, width: width, xs: xs))
                xs.append(a.last!.x)
            }
            for _ in 0..<r.int(10) {
                b.append(Self.edge(&r, strip: s, width: width, xs: xs))
                xs.append(b.last!.x)
            }
            a.sort(by: StrokeRasterizer.precedes)
            b.sort(by: StrokeRasterizer.precedes)
            let n = a.count, m = b.count
            let stride = width + 2, words = (stride + 63) >> 6
            var results: [(kept: Int, out: [ActiveEdge], cells: [UInt32], bits: [UInt64])] = []
            for inC in [false, true] {
                rasterizer.cells.update(repeating: 0, count: stride)
                rasterizer.rowBits.update(repeating: 0, count: words)
                let out = UnsafeMutablePointer<ActiveEdge>.allocate(capacity: n + m + 1)
                defer { out.deallocate() }
                let kept =
                    inC
                    ? a.withUnsafeMutableBufferPointer { pa in
                        b.withUnsafeMutableBufferPointer { pb in
                            rasterizer.walkSampledStrip(
                                pa.baseAddress!, n, pb.baseAddress!, m, into: out, s, weight: 0.25, maxX: Float(width))
                        }
                    }
                    : Self.reference(
                        a, b, into: out, s, weight: 0.25, maxX: Float(width), cells: rasterizer.cells,
                        bits: rasterizer.rowBits)
                results.append(
                    (
                        kept, Array(UnsafeBufferPointer(start: out, count: kept)),
                        (0..<stride).map { rasterizer.cells[$0].bitPattern }, (0..<words).map { rasterizer.rowBits[$0] }
                    ))
            }
            let (swift, c) = (results[0], results[1])  // (the reference first)
            #expect(c.kept == swift.kept, "round \(round)")
            #expect(c.cells == swift.cells, "round \(round): cells")
            #expect(c.bits == swift.bits, "round \(round): marks")
            let same =
                c.out.count == swift.out.count
                && zip(c.out, swift.out).allSatisfy { p, q in
                    withUnsafeBytes(of: p) { x in withUnsafeBytes(of: q) { y in x.elementsEqual(y) } }
                }
            #expect(same, "round \(round): edges kept")
        }
    }

    @Test func anEmptyStripAddsNothing() {
        let rasterizer = StrokeRasterizer()
        rasterizer.begin(PixelBox(x0: 0, y0: 0, x1: 10, y1: 2), samples: 4, mode: .sampled)
        rasterizer.cells.update(repeating: 0, count: 12)
        rasterizer.rowBits.update(repeating: 0, count: 1)
        let none = UnsafeMutablePointer<ActiveEdge>.allocate(capacity: 1)
        defer { none.deallocate() }
        #expect(rasterizer.walkSampledStrip(none, 0, none, 0, into: none, 3, weight: 0.25, maxX: 10) == 0)
        #expect((0..<12).allSatisfy { rasterizer.cells[$0] == 0 })
        #expect(rasterizer.rowBits[0] == 0)
    }
}
