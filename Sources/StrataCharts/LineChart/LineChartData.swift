import Foundation

/// One line of a line chart: points in order of x. A y of NaN (or ±∞) is a
/// gap: the line breaks there.
public struct LineChartSeries: Sendable, Equatable {
    /// The name the legend shows.
    public var name: String
    /// The x values, in increasing order (equal values allowed).
    public private(set) var x: [Double]
    public private(set) var y: [Double]
    /// How many points are gaps (M4 takes a faster path when none are).
    public private(set) var gapCount = 0

    /// A series of `y` at `x`. Pairs are sorted by x (stably: equal x keep
    /// their order); pairs whose x is not finite are dropped; y values that
    /// are not finite are gaps. Extra values of the longer array are ignored.
    public init(name: String = "", x: [Double], y: [Double]) {
        self.name = name
        let n = Swift.min(x.count, y.count)
        // The common case in one pass and no copies: every x finite and in
        // order, y kept as given (infinities made NaN).
        var clean = true
        x.withUnsafeBufferPointer { xs in
            var previous = -Double.infinity
            for i in 0..<n {
                let v = xs[i]
                if !(v >= previous) || !v.isFinite {
                    clean = false
                    break
                }
                previous = v
            }
        }
        if clean {
            self.x = n == x.count ? x : Array(x[..<n])
            var ys = n == y.count ? y : Array(y[..<n])
            gapCount = Self.makeGaps(&ys)
            self.y = ys
            return
        }
        var pairs = (0..<n).filter { x[$0].isFinite }.map { (x[$0], y[$0]) }
        if !zip(pairs, pairs.dropFirst()).allSatisfy({ $0.0 <= $1.0 }) {
            pairs = pairs.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        }
        self.x = pairs.map(\.0)
        var ys = pairs.map(\.1)
        gapCount = Self.makeGaps(&ys)
        self.y = ys
    }

    /// Makes every value that is not finite NaN and returns how many there
    /// are (the array is copied only when it holds an infinity).
    private static func makeGaps(_ ys: inout [Double]) -> Int {
        var gaps = 0, infinities = 0
        ys.withUnsafeBufferPointer { b in
            for v in b where !v.isFinite {
                gaps += 1
                if !v.isNaN { infinities += 1 }
            }
        }
        if infinities > 0 {
            for i in ys.indices where !ys[i].isFinite { ys[i] = .nan }
        }
        return gaps
    }

    /// A series of `y` at x = 0, 1, 2, …
    public init(name: String = "", y: [Double]) {
        self.init(name: name, x: y.indices.map(Double.init), y: y)
    }

    /// A series over dates (x is seconds since the reference date, as
    /// `Date.timeIntervalSinceReferenceDate`).
    public init(name: String = "", dates: [Date], y: [Double]) {
        self.init(name: name, x: dates.map(\.timeIntervalSinceReferenceDate), y: y)
    }

    public var count: Int { x.count }

    /// Adds a point: after the others when `x` is not less than the last x
    /// (O(1)), otherwise in its place. Ignored when `x` is not finite.
    public mutating func append(x newX: Double, y newY: Double) {
        guard newX.isFinite else { return }
        let v = newY.isFinite ? newY : .nan
        if let last = x.last, newX < last {
            let i = insertionIndex(newX)
            x.insert(newX, at: i)
            y.insert(v, at: i)
        } else {
            x.append(newX)
            y.append(v)
        }
        if v.isNaN { gapCount += 1 }
    }

    /// Sets the y of point `index` (NaN for a gap); out of range does nothing.
    public mutating func replaceY(at index: Int, with newY: Double) {
        guard y.indices.contains(index) else { return }
        if y[index].isNaN { gapCount -= 1 }
        y[index] = newY.isFinite ? newY : .nan
        if y[index].isNaN { gapCount += 1 }
    }

    /// Removes the points at `indices` (those in range).
    public mutating func remove(at indices: IndexSet) {
        for i in indices.reversed() where x.indices.contains(i) {
            if y[i].isNaN { gapCount -= 1 }
            x.remove(at: i)
            y.remove(at: i)
        }
    }

    /// Removes the points whose x lies in `range`.
    public mutating func removeAll(in range: ClosedRange<Double>) {
        let a = insertionIndex(range.lowerBound), b = upperIndex(range.upperBound)
        guard a < b else { return }
        gapCount -= y[a..<b].reduce(0) { $0 + ($1.isNaN ? 1 : 0) }
        x.removeSubrange(a..<b)
        y.removeSubrange(a..<b)
    }

    /// The first index whose x is not less than `value`.
    public func insertionIndex(_ value: Double) -> Int { firstIndex(from: 0) { !($0 < value) } }

    /// The first index whose x is greater than `value`.
    func upperIndex(_ value: Double) -> Int { firstIndex(from: 0) { !($0 <= value) } }

    /// The first index from `start` whose x is past a boundary (`isPast`
    /// false, then true, along the sorted x), by binary search; `count` if none.
    private func firstIndex(from start: Int, where isPast: (Double) -> Bool) -> Int {
        var lo = start, hi = x.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isPast(x[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The indices of the points whose x lies in `range`, and the one just
    /// outside on each side (so a line drawn through them crosses the range's
    /// ends).
    public func indices(around range: ClosedRange<Double>) -> Range<Int> {
        let a = Swift.max(0, insertionIndex(range.lowerBound) - 1)
        let b = Swift.min(count, upperIndex(range.upperBound) + 1)
        return a..<Swift.max(a, b)
    }

    /// The point (not a gap) whose x is nearest `value`; ties go to the
    /// earlier point. nil when there is none.
    public func nearestIndex(toX value: Double) -> Int? {
        guard value.isFinite, !x.isEmpty else { return nil }
        let i = insertionIndex(value)
        var best: Int?
        var bestDistance = Double.infinity
        // Outwards from the insertion point, skipping gaps, until farther than the best.
        var l = i - 1, r = i
        while l >= 0 || r < count {
            let dl = l >= 0 ? value - x[l] : .infinity, dr = r < count ? x[r] - value : .infinity
            if Swift.min(dl, dr) > bestDistance { break }
            if dl <= dr {
                if !y[l].isNaN, dl <= bestDistance {
                    best = l
                    bestDistance = dl
                }
                l -= 1
            } else {
                if !y[r].isNaN, dr < bestDistance {
                    best = r
                    bestDistance = dr
                }
                r += 1
            }
        }
        return best
    }

    /// The smallest and largest y (gaps skipped) of the points in `indices`.
    public func yExtremes(in indices: Range<Int>) -> ClosedRange<Double>? {
        let r = indices.clamped(to: 0..<count)
        guard !r.isEmpty else { return nil }
        let (lo, hi) = y.withUnsafeBufferPointer { Decimation.extremes($0, r.lowerBound, r.upperBound) }
        // Every value a gap: the kernel hands back the start, a NaN.
        guard !y[lo].isNaN, !y[hi].isNaN else { return nil }
        return y[lo]...y[hi]
    }

    /// The mean of the y values (gaps skipped) of the points in `indices`;
    /// nil when they are all gaps. Summed four lanes at a time.
    public func yMean(in indices: Range<Int>) -> Double? {
        let r = indices.clamped(to: 0..<count)
        guard !r.isEmpty else { return nil }
        return y.withUnsafeBufferPointer { b -> Double? in
            var sum = SIMD4<Double>(), n = SIMD4<Double>()
            let zero = SIMD4<Double>(), one = SIMD4<Double>(repeating: 1)
            var i = r.lowerBound
            let raw = UnsafeRawPointer(b.baseAddress!)
            while i + 4 <= r.upperBound {
                let v = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
                let number = v .== v  // NaN is not equal to itself
                sum += zero.replacing(with: v, where: number)
                n += zero.replacing(with: one, where: number)
                i += 4
            }
            var total = sum.sum(), count = n.sum()
            while i < r.upperBound {
                if !b[i].isNaN {
                    total += b[i]
                    count += 1
                }
                i += 1
            }
            return count > 0 ? total / count : nil
        }
    }

    /// The points to draw for the x range `range` on `columns` pixel columns:
    /// every point (and one beyond each end) when there are at most four a
    /// column, otherwise each column's M4 (its first, lowest, highest and
    /// last point, in order), which draws the same picture. Columns are
    /// equal slices of the range; gaps end a column's run and are kept as
    /// breaks.
    public func visibleIndices(in range: ClosedRange<Double>, columns: Int) -> [Int] {
        let around = indices(around: range)
        // More than four a column, compared without multiplying (no column count overflows it).
        guard columns > 0, (around.count - 1) / 4 >= columns, range.upperBound > range.lowerBound,
            (range.upperBound - range.lowerBound).isFinite
        else { return Array(around) }
        var out: [Int] = []
        out.reserveCapacity(4 * columns + 8)
        // The point before the range, so the line enters it.
        let first = insertionIndex(range.lowerBound)
        if first > 0 { out.append(first - 1) }
        let w = (range.upperBound - range.lowerBound) / Double(columns)
        // A range of a few subnormal steps has columns narrower than any
        // Double: every point is drawn.
        guard w > 0 else { return Array(around) }
        var i = first
        let end = upperIndex(range.upperBound)
        while i < end {
            let column = Swift.min(columns - 1, Int((x[i] - range.lowerBound) / w))
            // The column's points: up to the next column's start (all the rest in
            // the last column), at least this one (rounding may put it past
            // the boundary its column was computed from).
            let columnEnd =
                column == columns - 1
                ? end : Swift.max(i + 1, Swift.min(end, firstIndex(from: i) { !($0 < range.lowerBound + Double(column + 1) * w) }))
            if gapCount == 0 {
                appendM4(i..<columnEnd, to: &out)
                i = columnEnd
                continue
            }
            // Runs between gaps, each with its own first, extremes and last.
            var runStart = i
            for j in i...columnEnd {
                if j == columnEnd || y[j].isNaN {
                    if runStart < j { appendM4(runStart..<j, to: &out) }
                    if j < columnEnd { out.append(j) }
                    runStart = j + 1
                }
            }
            i = columnEnd
        }
        // The point after it, so the line leaves it.
        if end < count { out.append(end) }
        return out
    }

    /// A run's first, lowest and highest (first occurrences, in index
    /// order) and last point, each once.
    private func appendM4(_ run: Range<Int>, to out: inout [Int]) {
        let (lo, hi) = y.withUnsafeBufferPointer { Decimation.extremes($0, run.lowerBound, run.upperBound) }
        for j in [run.lowerBound, Swift.min(lo, hi), Swift.max(lo, hi), run.upperBound - 1] where out.last != j {
            out.append(j)
        }
    }
}

/// The data of a line chart: one or more series.
public struct LineChartData: Sendable, Equatable {
    public var series: [LineChartSeries]

    public init(_ series: [LineChartSeries]) { self.series = series }

    /// The x values all series span; nil when all are empty.
    public var xRange: ClosedRange<Double>? {
        let lows = series.compactMap(\.x.first), highs = series.compactMap(\.x.last)
        guard let lo = lows.min(), let hi = highs.max() else { return nil }
        return lo...hi
    }

    /// The y values of every series' points in `range` of x (gaps skipped);
    /// nil when there are none.
    public func yRange(inX range: ClosedRange<Double>? = nil) -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        for s in series {
            let r = range.map { s.insertionIndex($0.lowerBound)..<s.upperIndex($0.upperBound) } ?? 0..<s.count
            if let e = s.yExtremes(in: r) {
                lo = Swift.min(lo, e.lowerBound)
                hi = Swift.max(hi, e.upperBound)
            }
        }
        return lo <= hi ? lo...hi : nil
    }

    /// The point nearest `x` across the series (by x; ties to the earlier
    /// series): what a chart highlights when the user scrubs to `x`.
    public func nearestPoint(toX value: Double) -> (series: Int, index: Int)? {
        var best: (Int, Int, Double)?
        for (s, line) in series.enumerated() {
            guard let i = line.nearestIndex(toX: value) else { continue }
            let d = abs(line.x[i] - value)
            if best == nil || d < best!.2 { best = (s, i, d) }
        }
        return best.map { ($0.0, $0.1) }
    }
}
