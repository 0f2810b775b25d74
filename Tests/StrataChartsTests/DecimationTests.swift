import Foundation
import StrataTestSupport
import Testing

@testable import StrataCharts

/// The index sets of `../shared/bench/DECIMATE.md`, entry for entry (by their
/// checksums, the exact sums of the indices), and the rules behind them.
@Suite struct DecimationTests {
    /// M4 the plain way, from DECIMATE.md's rules: per bin, one pass for the
    /// first minimum and the first maximum.
    func referenceM4(_ y: [Double], columns: Int) -> [Int] {
        var out: [Int] = [], start = 0
        for end in Decimation.binEnds(count: y.count, bins: columns) {
            var lo = start, hi = start
            for i in start..<end {
                if y[i] < y[lo] { lo = i }
                if y[i] > y[hi] { hi = i }
            }
            out += [start, min(lo, hi), max(lo, hi), end - 1]
            start = end
        }
        return out
    }

    @Test func theSeriesIsDecimateMDs() {
        #expect(String(format: "%.9f", DecimationSeries.randomWalk(count: 1_000).last!) == "-11.539489142")
        #expect(String(format: "%.9f", DecimationSeries.randomWalk(count: 100_000).last!) == "-28.704608821")
    }

    /// `m4-1M`: 7,680 indices summing to 3,839,982,710, 188 of them repeats.
    @Test(.tags(.slow)) func m4OfAMillionSamplesIsTheReferences() {
        let y = DecimationSeries.randomWalk(count: 1_000_000)
        #expect(String(format: "%.9f", y.last!) == "-22.681026197")
        let m4 = Decimation.m4(y, columns: 1920)
        #expect(m4.count == 7680)
        #expect(m4.reduce(0, +) == 3_839_982_710)
        #expect(zip(m4, m4.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(zip(m4, m4.dropFirst()).filter { $0 == $1 }.count == 188)
        #expect(m4 == referenceM4(y, columns: 1920))
    }

    /// Bins by DECIMATE.md's example: N = 7,681 in 1,920 bins puts five samples
    /// in the first bin and four in each of the others.
    @Test func binsHaveEqualCountsAndTheFirstOneMore() {
        let ends = Decimation.binEnds(count: 7_681, bins: 1_920)
        #expect(ends.first == 5 && ends.last == 7_681)
        #expect(zip([0] + ends, ends).dropFirst().allSatisfy { $1 - $0 == 4 })
        // N = 7,691: blockSize · 1920 rounds to 7689.999…, so the last bin
        // ends at N − 1 and the last sample is in no bin.
        #expect(Decimation.binEnds(count: 7_691, bins: 1_920).last == 7_690)
    }

    /// The four entries of a bin, in order, repeats kept; MinMax's two.
    @Test func eachBinAddsItsFirstExtremesAndLast() {
        // N = 10 in B = 2 bins: blockSize 4.5, ends 5 and 10.
        let y: [Double] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3]
        #expect(Decimation.binEnds(count: 10, bins: 2) == [5, 10])
        // Bin 0 [3, 1, 4, 1, 5]: the minimum 1 first at 1 (ties go to the
        // first), the maximum at 4, which is also its last. Bin 1
        // [9, 2, 6, 5, 3]: the maximum is its first sample, the minimum at 6.
        #expect(Decimation.m4(y, columns: 2) == [0, 1, 4, 4, 5, 5, 6, 9])
        #expect(Decimation.minMax(y, columns: 2) == [1, 4, 5, 6])
        // No more samples than entries: every index, once.
        #expect(Decimation.m4(y, columns: 3) == Array(0..<10))
        #expect(Decimation.minMax(y, columns: 5) == Array(0..<10))
        #expect(Decimation.m4([], columns: 4).isEmpty && Decimation.m4(y, columns: 0).isEmpty)
        // Bad sizes: no indices or every index, never a trap or a huge allocation.
        #expect(Decimation.m4(y, columns: -3).isEmpty && Decimation.minMax(y, columns: .min).isEmpty)
        #expect(Decimation.m4(y, columns: .max) == Array(0..<10) && Decimation.minMax(y, columns: .max) == Array(0..<10))
        #expect(Decimation.binEnds(count: 0, bins: 4).isEmpty && Decimation.binEnds(count: 10, bins: -1).isEmpty)
        #expect(Decimation.binEnds(count: 10, bins: .max).isEmpty && Decimation.binEnds(count: 10, bins: 10).count == 10)
    }

    /// NaN samples are gaps: skipped when the extremes are looked for; a bin of
    /// NaN alone gives its first index for both. Infinities count as values.
    @Test func nanIsSkippedAndInfinitiesCount() {
        let nan = Double.nan
        let y: [Double] = [nan, 2, nan, -1, 7, nan, nan, nan, nan, nan, .infinity, 0, 3, -.infinity, 1, 5]
        // 16 samples, 2 bins of 8 (blockSize 7.5: ends 8 and 16).
        #expect(Decimation.binEnds(count: 16, bins: 2) == [8, 16])
        #expect(Decimation.minMax(y, columns: 2) == [3, 4, 10, 13])
        let allNaN = [Double](repeating: nan, count: 40)
        #expect(Decimation.minMax(allNaN, columns: 4) == [0, 0, 10, 10, 20, 20, 30, 30])
        let infinite = [Double](repeating: .infinity, count: 40)
        #expect(Decimation.minMax(infinite, columns: 2) == [0, 0, 20, 20])
    }

    /// The four-lane path and the scalar one agree with the plain loop on bins
    /// of every size, with many ties (values from a small set).
    @Test func theVectorPathMatchesThePlainLoop() {
        var rng = FuzzRandom(seed: 5)
        for round in 0..<300 {
            let n = 20 + rng.int(3000)
            let y = (0..<n).map { _ in Double(rng.int(round % 2 == 0 ? 5 : 1000)) }
            let columns = 1 + rng.int(max(1, n / 4 - 1))
            guard 4 * columns < n else { continue }
            #expect(Decimation.m4(y, columns: columns) == referenceM4(y, columns: columns), "n \(n), columns \(columns)")
        }
    }

    /// Both kernels (AVX2 where the processor has it, and the portable loop)
    /// find the first minimum and maximum of any range, NaN and infinities
    /// included, as the plain loop does.
    @Test func bothKernelsFindTheFirstExtremes() {
        var rng = FuzzRandom(seed: 9)
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0]
        for _ in 0..<2000 {
            let n = 1 + rng.int(200)
            let y = (0..<n).map { _ in rng.int(10) == 0 ? rng.pick(specials) : Double(rng.int(7)) }
            let start = rng.int(n), end = start + 1 + rng.int(n - start)
            var lo = -1, hi = -1
            for i in start..<end {
                if y[i] < (lo < 0 ? .infinity : y[lo]) || (lo < 0 && y[i] == .infinity) { if lo < 0 || y[i] < y[lo] { lo = i } }
                if y[i] > (hi < 0 ? -.infinity : y[hi]) || (hi < 0 && y[i] == -.infinity) { if hi < 0 || y[i] > y[hi] { hi = i } }
            }
            let want = (lo < 0 ? start : lo, hi < 0 ? start : hi)
            y.withUnsafeBufferPointer { p in
                for avx2 in Decimation.usesAVX2 ? [true, false] : [false] {
                    let got = Decimation.extremes(p, start, end, avx2: avx2)
                    #expect(got.min == want.0 && got.max == want.1, "avx2 \(avx2): \(Array(y[start..<end]))")
                }
            }
        }
    }
}
