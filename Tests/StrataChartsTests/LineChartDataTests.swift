import Foundation
import StrataTestSupport
import Testing

@testable import StrataCharts

/// The line chart's data: order, gaps, edits, selection and M4 by x.
@Suite struct LineChartDataTests {
    @Test func pointsAreKeptInOrderOfX() {
        let s = LineChartSeries(x: [3, 1, .nan, 2, 1], y: [30, 10, 99, .infinity, 11])
        #expect(s.x == [1, 1, 2, 3])
        // Equal x keep their order; a non-finite y is a gap; a non-finite x is dropped.
        #expect(s.y[0] == 10 && s.y[1] == 11 && s.y[2].isNaN && s.y[3] == 30)
        var t = s
        t.append(x: 5, y: 50)
        t.append(x: 1.5, y: 15)
        t.append(x: .nan, y: 1)
        #expect(t.x == [1, 1, 1.5, 2, 3, 5])
        t.replaceY(at: 0, with: -1)
        t.replaceY(at: 99, with: 1)
        #expect(t.y[0] == -1)
        t.remove(at: IndexSet([0, 2, 40]))
        #expect(t.x == [1, 2, 3, 5])
        t.removeAll(in: 2...3)
        #expect(t.x == [1, 5])
        let d = LineChartSeries(dates: [Date(timeIntervalSinceReferenceDate: 60)], y: [1])
        #expect(d.x == [60])
        #expect(LineChartSeries(x: [1, 2, 3], y: [1]).count == 1)
    }

    @Test func theNearestPointSkipsGapsAndPrefersTheEarlier() {
        let s = LineChartSeries(x: [0, 10, 20, 30, 40], y: [1, .nan, 3, 4, 5])
        #expect(s.nearestIndex(toX: 11) == 0 || s.nearestIndex(toX: 11) == 2)
        #expect(s.nearestIndex(toX: 11) == 2)  // 9 away, against 11
        #expect(s.nearestIndex(toX: 9) == 0)  // 9 away, against 11
        #expect(s.nearestIndex(toX: 10) == 0)  // 10 and 10: the earlier
        #expect(s.nearestIndex(toX: -100) == 0 && s.nearestIndex(toX: 1e9) == 4)
        #expect(s.nearestIndex(toX: .nan) == nil)
        #expect(LineChartSeries(x: [1, 2], y: [.nan, .nan]).nearestIndex(toX: 1) == nil)
        let data = LineChartData([s, LineChartSeries(x: [24], y: [7])])
        #expect(data.nearestPoint(toX: 23)! == (1, 0))
        #expect(data.nearestPoint(toX: 21)! == (0, 2))
        #expect(data.xRange == 0...40 && data.yRange() == 1...7 && data.yRange(inX: 15...35) == 3...7)
    }

    /// M4 by x computed the plain way: each point's column, runs between gaps.
    func referenceM4(_ s: LineChartSeries, _ range: ClosedRange<Double>, _ columns: Int) -> [Int] {
        let w = (range.upperBound - range.lowerBound) / Double(columns)
        let inside = s.x.indices.filter { range.contains(s.x[$0]) }
        var out: [Int] = []
        if let f = inside.first, f > 0 { out.append(f - 1) }
        var k = 0
        while k < inside.count {
            let column = min(columns - 1, Int((s.x[inside[k]] - range.lowerBound) / w))
            var group: [Int] = []
            while k < inside.count, min(columns - 1, Int((s.x[inside[k]] - range.lowerBound) / w)) == column {
                group.append(inside[k])
                k += 1
            }
            var run: [Int] = []
            func flush() {
                guard let a = run.first, let b = run.last else { return }
                let lo = run.min { s.y[$0] < s.y[$1] || (s.y[$0] == s.y[$1] && $0 < $1) }!
                let hi = run.min { s.y[$0] > s.y[$1] || (s.y[$0] == s.y[$1] && $0 < $1) }!
                for j in [a, min(lo, hi), max(lo, hi), b] where out.last != j { out.append(j) }
                run = []
            }
            for j in group {
                if s.y[j].isNaN {
                    flush()
                    out.append(j)
                } else {
                    run.append(j)
                }
            }
            flush()
        }
        if let l = inside.last, l + 1 < s.count { out.append(l + 1) }
        return out
    }

    @Test func visiblePointsAreEachColumnsM4() {
        var rng = FuzzRandom(seed: 61)
        for round in 0..<60 {
            var x = 0.0, walk = 0.0
            var xs: [Double] = [], ys: [Double] = []
            for _ in 0..<(2000 + rng.int(20_000)) {
                x += rng.int(5) == 0 ? 0 : rng.uniform() * 2  // repeated x too
                walk += rng.uniform() - 0.5
                xs.append(x)
                ys.append(rng.int(300) == 0 ? .nan : (rng.int(50) == 0 ? walk.rounded() : walk))
            }
            let s = LineChartSeries(x: xs, y: ys)
            let lo = x * rng.uniform() * 0.3, hi = x * (0.7 + rng.uniform() * 0.3)
            let columns = 50 + rng.int(400)
            let got = s.visibleIndices(in: lo...hi, columns: columns)
            if s.indices(around: lo...hi).count > 4 * columns {
                #expect(got == referenceM4(s, lo...hi, columns), "round \(round)")
                #expect(got.count <= 4 * columns + 2 + s.y.filter(\.isNaN).count * 5)
            } else {
                #expect(got == Array(s.indices(around: lo...hi)))
            }
        }
        // Hostile column counts and ranges: every point, no trap.
        let walk = LineChartSeries(y: (0..<100).map { Double($0 % 9) })
        #expect(walk.visibleIndices(in: 0...99, columns: .max) == Array(0..<100))
        #expect(walk.visibleIndices(in: 0...99, columns: 0) == Array(0..<100))
        #expect(walk.visibleIndices(in: -.infinity ... .infinity, columns: 3) == Array(0..<100))
        // Exactly four a column: every point; one more: M4.
        #expect(walk.visibleIndices(in: 0...99, columns: 25) == Array(0..<100))
        #expect(walk.visibleIndices(in: 0...99, columns: 24).count < 100)
        // Few points: all of them, one beyond each end.
        let few = LineChartSeries(y: [1, 2, 3, 4, 5, 6])
        #expect(few.visibleIndices(in: 2...3, columns: 10) == [1, 2, 3, 4])
    }
}
