/// A point a chart draws: a sample's global index and its value; a NaN value
/// breaks the line there (a gap).
public struct ChartSample: Sendable, Hashable {
    public var index: Int
    public var value: Double

    public init(index: Int, value: Double) {
        self.index = index
        self.value = value
    }

    /// Whether this is a break in the line rather than a sample.
    public var isBreak: Bool { value.isNaN }
}

extension SampleSnapshot {
    /// M4 of the snapshot over consecutive pixel columns: for each column
    /// (a range of indices), per run of numbers between gaps, its first
    /// sample, its first minimum and first maximum in time order, and its last
    /// sample, repeats left out. A gap inside or between columns is a break
    /// (`ChartSample.isBreak`), never more than one in a row, never first.
    ///
    /// Drawn as a polyline, the result covers exactly the pixels every sample
    /// would (Jugel et al., 2014): within a column the line spans the
    /// minimum to the maximum, and the segment to the next column starts at
    /// this column's last sample. The summaries of 64-sample blocks and
    /// 4,096-sample chunks stand in for the samples wherever a column covers
    /// them whole, so a column costs O(its chunks + 2 · 64), not O(its
    /// samples).
    public func m4(columns: some Sequence<Range<Int>>) -> [ChartSample] {
        var scan = ColumnScan(emitting: true)
        for column in columns {
            scanColumn(column.clamped(to: indices), into: &scan)
            scan.endColumn()
        }
        return scan.points
    }

    /// Every sample of `range` (within the snapshot) as a point, gaps as
    /// breaks (never two in a row, never first).
    public func points(in range: Range<Int>) -> [ChartSample] {
        let r = range.clamped(to: indices)
        var out = [ChartSample]()
        out.reserveCapacity(r.count)
        var pendingBreak = false
        for i in r {
            let v = self[i]
            if v.isNaN {
                pendingBreak = !out.isEmpty
            } else {
                if pendingBreak { out.append(ChartSample(index: i, value: .nan)) }
                pendingBreak = false
                out.append(ChartSample(index: i, value: v))
            }
        }
        return out
    }

    /// Walks `range` through the summaries where it covers a chunk or a block
    /// whole, and sample by sample elsewhere.
    @inline(__always)
    func scanColumn(_ range: Range<Int>, into scan: inout ColumnScan) {
        guard !range.isEmpty, let first = chunks.first else { return }
        let chunk0 = first.start / SampleChunk.size
        Self.scan(range, into: &scan) { chunks[$0 - chunk0] }
    }

    /// `scanColumn` over the chunks `chunk` gives by number (global index /
    /// chunk size): a snapshot's, or a buffer's own ring.
    @inline(__always)
    static func scan(_ range: Range<Int>, into scan: inout ColumnScan, chunk chunkNumbered: (Int) -> SampleChunk) {
        let size = SampleChunk.size, blockSize = SampleChunk.blockSize
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let chunk = chunkNumbered(i / size)
            let offset = i - chunk.start
            if offset == 0, i + size <= end {
                if chunk.chunkGaps == 0 {
                    scan.summary(
                        first: i, firstValue: chunk.chunkFirst, last: i + size - 1, lastValue: chunk.chunkLast,
                        min: chunk.chunkMin, minAt: i + chunk.chunkMinAt, max: chunk.chunkMax, maxAt: i + chunk.chunkMaxAt)
                    i += size
                    continue
                }
                if chunk.chunkGaps == size {
                    scan.gap()
                    i += size
                    continue
                }
            }
            if offset % blockSize == 0, i + blockSize <= end {
                let b = offset / blockSize
                let gaps = Int(chunk.blockGaps[b])
                if gaps == 0 {
                    scan.summary(
                        first: i, firstValue: chunk.blockFirst[b], last: i + blockSize - 1, lastValue: chunk.blockLast[b],
                        min: chunk.blockMin[b], minAt: chunk.start + Int(chunk.blockMinAt[b]),
                        max: chunk.blockMax[b], maxAt: chunk.start + Int(chunk.blockMaxAt[b]))
                    i += blockSize
                    continue
                }
                if gaps == blockSize {
                    scan.gap()
                    i += blockSize
                    continue
                }
            }
            let stop = Swift.min(end, chunk.start + (offset / blockSize + 1) * blockSize)
            while i < stop {
                let v = chunk.values[i - chunk.start]
                if v.isNaN { scan.gap() } else { scan.number(i, v) }
                i += 1
            }
        }
    }
}

/// The state of an M4 pass: the run of numbers being collected, the points
/// given so far, and the extremes of everything seen.
struct ColumnScan {
    let emitting: Bool
    var points: [ChartSample] = []
    var pendingBreak = false
    var runFirst = -1, runLast = -1
    var firstValue = 0.0, lastValue = 0.0
    var minValue = 0.0, maxValue = 0.0, minAt = -1, maxAt = -1
    var overallMin = Double.infinity, overallMax = -Double.infinity
    var seenNumber = false

    init(emitting: Bool = false) { self.emitting = emitting }

    /// One sample: a summary of itself.
    @inline(__always)
    mutating func number(_ i: Int, _ v: Double) {
        summary(first: i, firstValue: v, last: i, lastValue: v, min: v, minAt: i, max: v, maxAt: i)
    }

    @inline(__always)
    mutating func summary(
        first: Int, firstValue fv: Double, last: Int, lastValue lv: Double,
        min lo: Double, minAt loAt: Int, max hi: Double, maxAt hiAt: Int
    ) {
        if runFirst < 0 {
            runFirst = first
            firstValue = fv
            minValue = lo
            minAt = loAt
            maxValue = hi
            maxAt = hiAt
        } else {
            if lo < minValue { minValue = lo; minAt = loAt }
            if hi > maxValue { maxValue = hi; maxAt = hiAt }
        }
        runLast = last
        lastValue = lv
    }

    /// A NaN: the run ends, and the next point starts a new line.
    @inline(__always)
    mutating func gap() {
        endRun()
        if !points.isEmpty { pendingBreak = true }
    }

    /// A column ends: its run ends, but the line goes on into the next.
    mutating func endColumn() { endRun() }

    private mutating func endRun() {
        guard runFirst >= 0 else { return }
        seenNumber = true
        overallMin = Swift.min(overallMin, minValue)
        overallMax = Swift.max(overallMax, maxValue)
        if emitting {
            if pendingBreak { points.append(ChartSample(index: runFirst, value: .nan)) }
            pendingBreak = false
            points.append(ChartSample(index: runFirst, value: firstValue))
            var lastIndex = runFirst
            let (a, av, b, bv) = minAt <= maxAt ? (minAt, minValue, maxAt, maxValue) : (maxAt, maxValue, minAt, minValue)
            if a != lastIndex {
                points.append(ChartSample(index: a, value: av))
                lastIndex = a
            }
            if b != lastIndex {
                points.append(ChartSample(index: b, value: bv))
                lastIndex = b
            }
            if runLast != lastIndex { points.append(ChartSample(index: runLast, value: lastValue)) }
        }
        runFirst = -1
        runLast = -1
    }
}
