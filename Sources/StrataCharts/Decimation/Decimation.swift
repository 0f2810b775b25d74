internal import CDecimate

/// Picking, out of many samples, the few a chart of limited width needs.
///
/// A line drawn through millions of samples into a thousand or two pixel
/// columns only changes where some sample is the first, the last, the lowest
/// or the highest of its column: **M4** keeps exactly those four of each
/// column (Jugel et al., "M4: A Visualization-Oriented Time Series Data
/// Aggregation", VLDB 2014), so drawing them gives the same picture as
/// drawing every sample. **MinMax** keeps the lowest and highest only.
///
/// The bins follow tsdownsample's rules exactly (`../shared/bench/DECIMATE.md`):
/// `B` equal-count bins over indices `0 ..< n`, bin `k` ending at
/// `Int(blockSize · (k + 1)) + 1` with `blockSize = (n − 1) / B` in `Double`,
/// so the same input gives the same indices, entry for entry.
///
/// Samples are at `x = index` (implicit x). NaN samples are skipped when the
/// lowest and highest are looked for (they are gaps); a bin of NaN alone gives
/// its first index for both. Ties go to the first occurrence.
public enum Decimation {
    /// The bins of `count` samples in `bins` equal-count bins: bin `k` is
    /// `ends[k − 1] ..< ends[k]` (bin 0 starts at 0). The last sample belongs
    /// to no bin when `blockSize · bins` rounds below `count − 1` (about 2 %
    /// of counts for 1920 bins), as in tsdownsample. Empty when there are no
    /// samples, no bins, or more bins than samples.
    public static func binEnds(count: Int, bins: Int) -> [Int] {
        guard count > 0, bins > 0, bins <= count else { return [] }
        let blockSize = Double(count - 1) / Double(bins)
        return (0..<bins).map { k in Int(blockSize * Double(k + 1)) + 1 }
    }

    /// M4 of `samples` into `columns` pixel columns: per column its first
    /// sample, then the lower and the higher index of its minimum and maximum,
    /// then its last sample, `4 · columns` indices in non-decreasing order
    /// (indices repeat where these coincide). When there are no more samples
    /// than `4 · columns`, every index, once; no columns, no indices.
    public static func m4(_ samples: UnsafeBufferPointer<Double>, columns: Int) -> [Int] {
        decimate(samples, columns: columns, entriesPerColumn: 4) { out, start, end, lo, hi in
            out.append(start)
            out.append(Swift.min(lo, hi))
            out.append(Swift.max(lo, hi))
            out.append(end - 1)
        }
    }

    /// MinMax of `samples` into `columns` columns: per column the lower and the
    /// higher index of its minimum and maximum, `2 · columns` indices. When
    /// there are no more samples than `2 · columns`, every index, once; no
    /// columns, no indices.
    public static func minMax(_ samples: UnsafeBufferPointer<Double>, columns: Int) -> [Int] {
        decimate(samples, columns: columns, entriesPerColumn: 2) { out, _, _, lo, hi in
            out.append(Swift.min(lo, hi))
            out.append(Swift.max(lo, hi))
        }
    }

    /// What M4 and MinMax share: every index when `entriesPerColumn` a column
    /// would not be fewer than the samples, otherwise the bins, each handing
    /// its bounds and the first indices of its minimum and maximum to `add`.
    /// (The comparison divides rather than multiplies, so no column count
    /// overflows it.)
    @inline(__always)
    private static func decimate(
        _ samples: UnsafeBufferPointer<Double>, columns: Int, entriesPerColumn: Int,
        _ add: (inout [Int], _ start: Int, _ end: Int, _ low: Int, _ high: Int) -> Void
    ) -> [Int] {
        let n = samples.count
        guard columns > 0, n > 0 else { return [] }
        if columns >= (n + entriesPerColumn - 1) / entriesPerColumn { return Array(0..<n) }
        var out = [Int]()
        out.reserveCapacity(entriesPerColumn * columns)
        var start = 0
        for end in binEnds(count: n, bins: columns) {
            let (lo, hi) = extremes(samples, start, end)
            add(&out, start, end, lo, hi)
            start = end
        }
        return out
    }

    /// M4 of an array; see `m4(_:columns:)`.
    public static func m4(_ samples: [Double], columns: Int) -> [Int] {
        samples.withUnsafeBufferPointer { m4($0, columns: columns) }
    }

    /// MinMax of an array; see `minMax(_:columns:)`.
    public static func minMax(_ samples: [Double], columns: Int) -> [Int] {
        samples.withUnsafeBufferPointer { minMax($0, columns: columns) }
    }

    /// Whether the search for extremes runs the AVX2 kernel (C, chosen at run
    /// time) rather than the portable four-lane loop below.
    public static let usesAVX2 = strata_has_avx2() != 0

    /// The first index of the smallest and of the largest sample in
    /// `start ..< end`, NaN skipped; `start` for both when there is no number.
    /// `avx2` picks the kernel (tests run both).
    @inline(__always)
    static func extremes(
        _ y: UnsafeBufferPointer<Double>, _ start: Int, _ end: Int, avx2: Bool = usesAVX2
    ) -> (min: Int, max: Int) {
        guard let base = y.baseAddress, start < end else { return (start, start) }
        var low = -1, high = -1
        if avx2 {
            strata_extremes_avx2(base, start, end, &low, &high)
        } else {
            (low, high) = portableExtremes(base, start, end)
        }
        // No number below +∞ (above −∞): the first infinity, or the start.
        if low < 0 { low = firstIndex(of: .infinity, base, start, end) ?? start }
        if high < 0 { high = firstIndex(of: -.infinity, base, start, end) ?? start }
        return (low, high)
    }

    /// `extremes` without the AVX2 kernel: four lanes at a time (two doubles a
    /// register on baseline x86-64), each keeping its own first index; the
    /// lanes are settled in favour of the lower index, and the rest scalar.
    /// Writes −1 where `extremes` looks for an infinity.
    static func portableExtremes(_ base: UnsafePointer<Double>, _ start: Int, _ end: Int) -> (min: Int, max: Int) {
        var i = start
        var lowValue = Double.infinity, highValue = -Double.infinity
        var low = -1, high = -1
        let lanes = 4
        if end - start >= 8 * lanes {
            // Two sets of lanes, even and odd vectors, so that each compare
            // waits on the one two steps back, not the one before.
            var minA = SIMD4<Double>(repeating: .infinity), maxA = SIMD4<Double>(repeating: -.infinity)
            var minB = minA, maxB = maxA
            var minIA = SIMD4<Int64>(repeating: -1), maxIA = minIA, minIB = minIA, maxIB = minIA
            var indexA = SIMD4<Int64>(Int64(i), Int64(i + 1), Int64(i + 2), Int64(i + 3))
            var indexB = indexA &+ SIMD4<Int64>(repeating: Int64(lanes))
            let step = SIMD4<Int64>(repeating: Int64(2 * lanes))
            let raw = UnsafeRawPointer(base)
            while i + 2 * lanes <= end {
                let a = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
                let b = raw.loadUnaligned(fromByteOffset: i * 8 + 32, as: SIMD4<Double>.self)
                let lessA = a .< minA, moreA = a .> maxA  // NaN compares false: skipped
                let lessB = b .< minB, moreB = b .> maxB
                minA.replace(with: a, where: lessA)
                minIA.replace(with: indexA, where: lessA)
                maxA.replace(with: a, where: moreA)
                maxIA.replace(with: indexA, where: moreA)
                minB.replace(with: b, where: lessB)
                minIB.replace(with: indexB, where: lessB)
                maxB.replace(with: b, where: moreB)
                maxIB.replace(with: indexB, where: moreB)
                indexA &+= step
                indexB &+= step
                i += 2 * lanes
            }
            for (vs, ids) in [(minA, minIA), (minB, minIB)] {
                for l in 0..<lanes where ids[l] >= 0 {
                    if vs[l] < lowValue || (vs[l] == lowValue && Int(ids[l]) < low) {
                        lowValue = vs[l]; low = Int(ids[l])
                    }
                }
            }
            for (vs, ids) in [(maxA, maxIA), (maxB, maxIB)] {
                for l in 0..<lanes where ids[l] >= 0 {
                    if vs[l] > highValue || (vs[l] == highValue && Int(ids[l]) < high) {
                        highValue = vs[l]; high = Int(ids[l])
                    }
                }
            }
        }
        while i < end {
            let v = base[i]
            if v < lowValue { lowValue = v; low = i }
            if v > highValue { highValue = v; high = i }
            i += 1
        }
        return (low, high)
    }

    private static func firstIndex(of value: Double, _ y: UnsafePointer<Double>, _ start: Int, _ end: Int) -> Int? {
        for i in start..<end where y[i] == value { return i }
        return nil
    }
}
