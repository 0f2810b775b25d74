import Foundation
import StrataGraphics
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

/// The series' gap count, its one-pass checks and its vectorised summaries.
@Suite struct LineChartSeriesSummaryTests {
    @Test func cleanInputIsKeptAsGivenAndMessyInputIsSorted() {
        let clean = LineChartSeries(x: [0, 1, 1, 2], y: [1, .nan, 3, .infinity])
        #expect(clean.x == [0, 1, 1, 2])
        #expect(clean.y[0] == 1 && clean.y[1].isNaN && clean.y[2] == 3 && clean.y[3].isNaN)
        #expect(clean.gapCount == 2)
        let messy = LineChartSeries(x: [2, .nan, 0, 1, .infinity, 1], y: [20, 99, 0, 10, 99, -.infinity])
        #expect(messy.x == [0, 1, 1, 2])
        #expect(messy.y[0] == 0 && messy.y[1] == 10 && messy.y[2].isNaN && messy.y[3] == 20)
        #expect(messy.gapCount == 1)
        // Extra values of the longer array are ignored on both paths.
        #expect(LineChartSeries(x: [0, 1, 2], y: [5, 6]).x == [0, 1])
        #expect(LineChartSeries(x: [1, 0, 2], y: [5, 6]).x == [0, 1])
    }

    @Test func theGapCountFollowsEveryChange() {
        var s = LineChartSeries(x: [0, 1, 2, 3], y: [0, .nan, 2, 3])
        func count(_ s: LineChartSeries) -> Int { s.y.filter(\.isNaN).count }
        #expect(s.gapCount == 1)
        s.append(x: 4, y: .nan)
        s.append(x: 0.5, y: .nan)
        #expect(s.gapCount == count(s) && s.gapCount == 3)
        s.replaceY(at: 1, with: 7)
        s.replaceY(at: 2, with: 8)
        s.replaceY(at: 0, with: .infinity)
        #expect(s.gapCount == count(s))
        s.remove(at: IndexSet([0, 5]))
        #expect(s.gapCount == count(s))
        s.removeAll(in: 0...2.5)
        #expect(s.gapCount == count(s))
    }

    @Test func meansAndExtremesSkipGaps() {
        var rng = SplitMix64(seed: 5)
        let y = (0..<1003).map { i in i % 17 == 3 ? Double.nan : rng.uniform() * 100 - 50 }
        let s = LineChartSeries(y: y)
        for r in [0..<1003, 5..<6, 3..<4, 10..<900, 0..<0, -5..<2000] {
            let numbers = y.indices.filter { r.contains($0) && !y[$0].isNaN }.map { y[$0] }
            if numbers.isEmpty {
                #expect(s.yMean(in: r) == nil)
                #expect(s.yExtremes(in: r) == nil)
            } else {
                #expect(abs(s.yMean(in: r)! - numbers.reduce(0, +) / Double(numbers.count)) < 1e-9)
                #expect(s.yExtremes(in: r) == numbers.min()!...numbers.max()!)
            }
        }
        #expect(LineChartSeries(y: [.nan, .nan]).yExtremes(in: 0..<2) == nil)
    }

    @Test func m4WithoutGapsIsEachColumnsFirstExtremesAndLast() {
        var rng = SplitMix64(seed: 9)
        let n = 10_000, columns = 37
        let s = LineChartSeries(y: (0..<n).map { _ in rng.uniform() })
        #expect(s.gapCount == 0)
        let indices = s.visibleIndices(in: 0...Double(n - 1), columns: columns)
        // Brute force: per column (by x) the first, lowest, highest and last.
        let w = Double(n - 1) / Double(columns)
        var expected: [Int] = []
        for c in 0..<columns {
            let members = (0..<n).filter { min(columns - 1, Int(Double($0) / w)) == c }
            guard let first = members.first, let last = members.last else { continue }
            let lo = members.min { s.y[$0] < s.y[$1] }!, hi = members.max { s.y[$0] < s.y[$1] }!
            for j in [first, min(lo, hi), max(lo, hi), last] where expected.last != j { expected.append(j) }
        }
        #expect(indices == expected)
    }
}
