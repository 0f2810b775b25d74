import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataCharts

/// The line chart's curves against points computed by hand.
@Suite struct LineChartModeTests {
    let three = [Point(x: 0, y: 0), Point(x: 1, y: 2), Point(x: 3, y: 1)]

    func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    func curves(_ s: [LineChartSegment]) -> [(Point, Point, Point)] {
        s.compactMap { if case .curve(let p, let c1, let c2) = $0 { (c1, c2, p) } else { nil } }
    }

    @Test func straightAndSteppedLines() {
        #expect(LineChartMode.linear.segments(through: three) == [.line(to: three[1]), .line(to: three[2])])
        #expect(
            LineChartMode.stepEnd.segments(through: three) == [
                .line(to: Point(x: 1, y: 0)), .line(to: three[1]), .line(to: Point(x: 3, y: 2)), .line(to: three[2]),
            ])
        #expect(
            LineChartMode.stepStart.segments(through: three) == [
                .line(to: Point(x: 0, y: 2)), .line(to: three[1]), .line(to: Point(x: 1, y: 1)), .line(to: three[2]),
            ])
        #expect(
            LineChartMode.stepCenter.segments(through: three) == [
                .line(to: Point(x: 0.5, y: 0)), .line(to: Point(x: 0.5, y: 2)), .line(to: three[1]),
                .line(to: Point(x: 2, y: 2)), .line(to: Point(x: 2, y: 1)), .line(to: three[2]),
            ])
        // Fewer than two finite points: nothing; non-finite points are skipped.
        #expect(LineChartMode.monotone.segments(through: [Point(x: 1, y: 1)]).isEmpty)
        #expect(LineChartMode.linear.segments(through: [Point(x: 0, y: .nan), three[0], three[1]]) == [.line(to: three[1])])
    }

    @Test func horizontalBezierLeavesAndReachesPointsLevel() {
        let c = curves(LineChartMode.horizontalBezier.segments(through: three))
        #expect(c.count == 2)
        #expect(c[0].0 == Point(x: 0.5, y: 0) && c[0].1 == Point(x: 0.5, y: 2) && c[0].2 == three[1])
        #expect(c[1].0 == Point(x: 2, y: 2) && c[1].1 == Point(x: 2, y: 1) && c[1].2 == three[2])
    }

    @Test func cubicBezierAndCardinalUseTheNeighboursChord() {
        // Chords: (1, 2) at the first point (itself to its neighbour), (3, 1) at
        // the middle one, (2, −1) at the last; control points ± 0.2 of them.
        let c = curves(LineChartMode.cubicBezier.segments(through: three))
        #expect(near(c[0].0, Point(x: 0.2, y: 0.4)) && near(c[0].1, Point(x: 0.4, y: 1.8)))
        #expect(near(c[1].0, Point(x: 1.6, y: 2.2)) && near(c[1].1, Point(x: 2.6, y: 1.2)))
        // Intensity is clamped to 0.05…1.
        #expect(LineChartMode.cubicBezier(intensity: 7).segments(through: three) == LineChartMode.cubicBezier(intensity: 1).segments(through: three))
        // Cardinal, tension 0.4: chords times 0.6 / 6 = 0.1.
        let k = curves(LineChartMode.cardinal(tension: 0.4).segments(through: three))
        #expect(near(k[0].0, Point(x: 0.1, y: 0.2)) && near(k[0].1, Point(x: 0.7, y: 1.9)))
        #expect(near(k[1].0, Point(x: 1.3, y: 2.1)) && near(k[1].1, Point(x: 2.8, y: 1.1)))
    }

    @Test func catmullRomMatchesTheClosedFormAtEveryAlpha() {
        // Uneven spacing, so every term of the closed form (Yuksel et al.)
        // B1 = (d1²·P2 − d2²·P0 + (2d1² + 3d1d2 + d2²)·P1) / (3d1(d1 + d2)) counts.
        let p = [Point(x: 0, y: 0), Point(x: 1, y: 3), Point(x: 4, y: 2), Point(x: 4.5, y: -1), Point(x: 9, y: 0)]
        for alpha in [0.0, 0.5, 1.0, 0.3] {
            func d(_ a: Point, _ b: Point) -> Double { pow(((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot(), alpha) }
            func b1(_ p0: Point, _ p1: Point, _ p2: Point) -> Point {
                let d1 = d(p0, p1), d2 = d(p1, p2)
                let w = 3 * d1 * (d1 + d2), c = 2 * d1 * d1 + 3 * d1 * d2 + d2 * d2
                return Point(x: (d1 * d1 * p2.x - d2 * d2 * p0.x + c * p1.x) / w, y: (d1 * d1 * p2.y - d2 * d2 * p0.y + c * p1.y) / w)
            }
            let c = curves(LineChartMode.catmullRom(alpha: alpha).segments(through: p))
            #expect(c.count == 4)
            for i in 1...2 {
                // The segment p[i] → p[i+1]: B1 from p[i−1], p[i], p[i+1]; B2 mirrored from p[i+2].
                #expect(near(c[i].0, b1(p[i - 1], p[i], p[i + 1]), 1e-9), "alpha \(alpha) segment \(i)")
                #expect(near(c[i].1, b1(p[i + 2], p[i + 1], p[i]), 1e-9), "alpha \(alpha) segment \(i)")
            }
            // At the ends the tangent is one-sided: a third of the way along the chord.
            #expect(near(c[0].0, Point(x: 1.0 / 3, y: 1)))
            #expect(near(c[3].1, Point(x: 4.5 + 4.5 * 2 / 3, y: -1 + 2.0 / 3)))
        }
        // Uniform Catmull-Rom in the middle is cardinal with tension 0.
        let u = curves(LineChartMode.catmullRom(alpha: 0).segments(through: p))
        let k = curves(LineChartMode.cardinal.segments(through: p))
        #expect(near(u[1].0, k[1].0) && near(u[2].1, k[2].1))
    }

    @Test func monotoneSlopesAsSteffenGivesThem() {
        // Secants 1, 0, −1, 5: flat at the plateau's ends and at the extreme
        // (slopes 0), one-sided parabolas at the ends: 1.5 and 8 (under 2·5).
        let p = [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 1), Point(x: 3, y: 0), Point(x: 4, y: 5)]
        let c = curves(LineChartMode.monotone.segments(through: p))
        #expect(near(c[0].0, Point(x: 1.0 / 3, y: 0.5)) && near(c[0].1, Point(x: 2.0 / 3, y: 1)))
        #expect(near(c[1].0, Point(x: 4.0 / 3, y: 1)) && near(c[1].1, Point(x: 5.0 / 3, y: 1)))
        #expect(near(c[2].0, Point(x: 7.0 / 3, y: 1)) && near(c[2].1, Point(x: 8.0 / 3, y: 0)))
        #expect(near(c[3].0, Point(x: 10.0 / 3, y: 0)) && near(c[3].1, Point(x: 11.0 / 3, y: 5 - 8.0 / 3)))
        // An inner slope limited by half the weighted secant: x steps 1 and 3,
        // secants 2 and 1: p = (2·3 + 1·1)/4 = 1.75, so min(2, 1, 0.875) = 0.875, doubled.
        let q = [Point(x: 0, y: 0), Point(x: 1, y: 2), Point(x: 4, y: 5)]
        let m = curves(LineChartMode.monotone.segments(through: q))
        #expect(near(m[0].1, Point(x: 1 - 1.0 / 3, y: 2 - 1.75 / 3)))
        #expect(near(m[1].0, Point(x: 2, y: 2 + 1.75)))
    }

    /// The cubic through a segment at `t`.
    func bezier(_ a: Point, _ c1: Point, _ c2: Point, _ b: Point, _ t: Double) -> Point {
        let u = 1 - t
        return Point(
            x: u * u * u * a.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * b.x,
            y: u * u * u * a.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * b.y)
    }

    /// The largest distance by which a mode's curve leaves the range of the
    /// two points of a segment, over the data.
    func overshoot(_ mode: LineChartMode, _ p: [Point]) -> Double {
        var worst = 0.0
        var start = p[0]
        for s in mode.segments(through: p) {
            guard case .curve(let end, let c1, let c2) = s else {
                start = s.end
                continue
            }
            let lo = min(start.y, end.y), hi = max(start.y, end.y)
            var lastY = start.y
            for k in 1...64 {
                let q = bezier(start, c1, c2, end, Double(k) / 64)
                worst = max(worst, lo - q.y, q.y - hi)
                // Monotone between the two points too.
                if mode == .monotone { worst = max(worst, end.y >= start.y ? lastY - q.y : q.y - lastY) }
                lastY = q.y
            }
            start = end
        }
        return worst
    }

    @Test func monotoneNeverOvershootsPlateausAndSpikes() {
        var rng = FuzzRandom(seed: 16)
        for round in 0..<200 {
            var x = 0.0
            var p: [Point] = []
            for _ in 0..<(3 + rng.int(30)) {
                x += 0.1 + rng.uniform() * 3
                // Plateaus (repeated values), spikes and zeros.
                let y: Double
                switch rng.int(4) {
                case 0: y = p.last?.y ?? 0
                case 1: y = 0
                case 2: y = rng.uniform() * 100
                default: y = rng.uniform() * 5
                }
                p.append(Point(x: x, y: y))
            }
            #expect(overshoot(.monotone, p) < 1e-9, "round \(round)")
            #expect(overshoot(.horizontalBezier, p) < 1e-9, "round \(round)")
        }
        // A spike between zeros: the chord-tangent curves dip below zero there
        // (DGCharts #407); monotone does not.
        let spike = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 2, y: 10), Point(x: 3, y: 0), Point(x: 4, y: 0)]
        #expect(overshoot(.cubicBezier, spike) > 0.1)
        #expect(overshoot(.catmullRom, spike) > 0.1)
        #expect(overshoot(.monotone, spike) < 1e-12)
    }

    @Test func theLineGoesIntoAPath() {
        var path = Path()
        LineChartMode.monotone.addLine(through: three, to: &path)
        var elements = 0
        path.forEach { _ in elements += 1 }
        #expect(elements == 3)  // a move and two curves
        var empty = Path()
        LineChartMode.linear.addLine(through: [Point(x: .nan, y: 0)], to: &empty)
        #expect(empty.isEmpty)
    }
}
