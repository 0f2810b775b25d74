import Foundation
import StrataLayers
import StrataTestSupport
import Testing

@_spi(Benchmarks) @testable import StrataCharts

/// Appends of many samples at once: the buffer's bulk copy and its
/// summaries, and the graph's `append(columns:)`.
@Suite struct SampleBufferBulkAppendTests {
    /// Samples with every kind of trouble: runs of NaN (whole blocks and
    /// chunks among them), infinities, ties, signed zeros and blocks of one
    /// repeated value.
    func troubled(_ n: Int, seed: UInt64) -> [Double] {
        var rng = FuzzRandom(seed: seed)
        var y: [Double] = []
        var walk = 0.0
        while y.count < n {
            switch rng.int(400) {
            case 0: y += [Double](repeating: .nan, count: rng.int(5000))
            case 1: y.append(.infinity)
            case 2: y.append(-.infinity)
            case 3: y += [-0.0, 0.0, -0.0]
            case 4: y += [Double](repeating: 7, count: 64 + rng.int(200))
            default:
                walk += rng.uniform() - 0.5
                y.append((walk * 4).rounded() / 4)
            }
        }
        return Array(y.prefix(n))
    }

    /// The summaries as the one-at-a-time definition gives them.
    func expectSameSummaries(_ a: SampleBuffer, _ b: SampleBuffer, _ context: String) {
        #expect(a.count == b.count, "\(context)")
        for i in a.indices where !(a[i] == b[i] || (a[i].isNaN && b[i].isNaN)) {
            Issue.record("\(context): sample \(i) is \(b[i]), not \(a[i])")
            return
        }
        let full = a.count / SampleChunk.size
        let sa = a.snapshot(a.indices), sb = b.snapshot(b.indices)
        for (ca, cb) in zip(sa.chunks, sb.chunks) {
            let blocks = ca.start / SampleChunk.size < full ? SampleChunk.blocks : (a.count - ca.start) / SampleChunk.blockSize
            for k in 0..<blocks {
                let same =
                    ca.blockGaps[k] == cb.blockGaps[k] && ca.blockMinAt[k] == cb.blockMinAt[k] && ca.blockMaxAt[k] == cb.blockMaxAt[k]
                    && ca.blockMin[k] == cb.blockMin[k] && ca.blockMax[k] == cb.blockMax[k]
                    && (ca.blockGaps[k] > 0 || (ca.blockFirst[k] == cb.blockFirst[k] && ca.blockLast[k] == cb.blockLast[k]))
                if !same {
                    Issue.record(
                        "\(context): chunk at \(ca.start), block \(k) differs: \((ca.blockGaps[k], ca.blockMin[k], ca.blockMinAt[k], ca.blockMax[k], ca.blockMaxAt[k], ca.blockFirst[k], ca.blockLast[k])) vs \((cb.blockGaps[k], cb.blockMin[k], cb.blockMinAt[k], cb.blockMax[k], cb.blockMaxAt[k], cb.blockFirst[k], cb.blockLast[k]))"
                    )
                    return
                }
            }
            if blocks == SampleChunk.blocks {
                #expect(ca.chunkMin == cb.chunkMin && ca.chunkMax == cb.chunkMax && ca.chunkGaps == cb.chunkGaps, "\(context)")
                #expect(ca.chunkMinAt == cb.chunkMinAt && ca.chunkMaxAt == cb.chunkMaxAt, "\(context)")
            }
        }
    }

    /// A block summarised the plain way, from its samples.
    func reference(_ v: ArraySlice<Double>) -> (min: Double, max: Double, minAt: Int, maxAt: Int, gaps: Int) {
        var lo = Double.infinity, hi = -Double.infinity, loAt = -1, hiAt = -1, gaps = 0
        for (i, x) in zip(v.indices, v) {
            if x.isNaN {
                gaps += 1
                continue
            }
            if loAt < 0 || x < lo { (lo, loAt) = (x, i) }
            if hiAt < 0 || x > hi { (hi, hiAt) = (x, i) }
        }
        return (lo, hi, loAt, hiAt, gaps)
    }

    /// Appends in pieces of every size (one sample, within a block, across
    /// blocks and chunks, past the size written around the cache) give the
    /// samples and summaries of appending one at a time, and those are the
    /// plain definition's.
    @Test func bulkAppendsMatchOneAtATime() {
        let y = troubled(70_000, seed: 3)
        let one = SampleBuffer(capacity: 50_000)
        for v in y { one.append(v) }
        // The definition, block by block, where the buffer still holds them.
        let snap = one.snapshot(one.indices)
        for chunk in snap.chunks {
            for k in 0..<SampleChunk.blocks where chunk.start + (k + 1) * 64 <= one.count {
                let at = chunk.start + k * 64
                let want = reference(y[at..<(at + 64)])
                #expect(Int(chunk.blockGaps[k]) == want.gaps)
                if want.gaps < 64 {
                    #expect(chunk.blockMin[k] == want.min && chunk.start + Int(chunk.blockMinAt[k]) == want.minAt)
                    #expect(chunk.blockMax[k] == want.max && chunk.start + Int(chunk.blockMaxAt[k]) == want.maxAt)
                }
            }
        }
        for pieces in [[1], [63, 1, 64], [100, 4000, 5], [4096], [9000], [1 << 13], [70_000]] {
            let bulk = SampleBuffer(capacity: 50_000)
            var i = 0, k = 0
            while i < y.count {
                let n = min(y.count - i, pieces[k % pieces.count])
                y.withUnsafeBufferPointer { bulk.append(contentsOf: UnsafeBufferPointer(rebasing: $0[i..<(i + n)])) }
                i += n
                k += 1
            }
            expectSameSummaries(one, bulk, "pieces \(pieces)")
            #expect(bulk.chunksAllocated == one.chunksAllocated)
        }
        // The generic entry point takes the same path for arrays.
        let viaArray = SampleBuffer(capacity: 50_000)
        viaArray.append(contentsOf: y)
        expectSameSummaries(one, viaArray, "array")
        // Empty appends change nothing.
        viaArray.append(contentsOf: UnsafeBufferPointer(start: nil, count: 0))
        #expect(viaArray.count == y.count)
    }

    /// The graph's copy turns infinities into gaps, as appending row by row
    /// does.
    @Test func graphColumnsKeepInfinitiesAsGaps() {
        let y = troubled(20_000, seed: 9)
        let buffer = SampleBuffer(capacity: 20_000)
        y.withUnsafeBufferPointer { buffer.append($0, replacingNonFinite: true) }
        let expected = SampleBuffer(capacity: 20_000)
        for v in y { expected.append(v.isFinite ? v : .nan) }
        expectSameSummaries(expected, buffer, "cleaned")
    }
}

@MainActor
@Suite struct StreamingGraphColumnsTests {
    func graph(_ host: LayerHost, series: Int, capacity: Int = 100_000) -> StreamingGraphLayer {
        plainGraph(in: host, series: series, capacity: capacity, range: 1.5)
    }

    func wave(_ i: Int, _ s: Int) -> Double { sin(Double(i) * 0.05 + Double(s)) * 0.8 + 0.3 * sin(Double(i) * 0.9) }

    /// Columns appended a frame at a time draw what rows appended one by one
    /// draw: shorter and missing columns padded with gaps, extra ones
    /// ignored, infinities as gaps, in scroll and sweep motion and at M4
    /// density.
    @Test func columnsDrawWhatRowsDraw() throws {
        for (motion, pointsPerSample) in [(StreamingGraphLayer.Motion.scroll, 1.0), (.scroll, 0.05), (.sweep, 1.0), (.sweep, 0.25)] {
            let h1 = try LayerHost(width: 320, height: 120), rows = graph(h1, series: 3)
            let h2 = try LayerHost(width: 320, height: 120), columns = graph(h2, series: 3)
            for g in [rows, columns] {
                g.motion = motion
                g.pointsPerSample = pointsPerSample
            }
            var next = 0
            for (f, n) in [700, 1, 63, 2000, 130, 5000, 9].enumerated() {
                var cols = (0..<3).map { s in (next..<(next + n)).map { wave($0, s) } }
                if f == 2 { cols[2].removeLast(10) }  // a short column
                if f == 3 { cols.removeLast() }  // a missing one
                if f == 4 { cols.append([1, 2, 3]) }  // an extra one
                if f == 5 { cols[1][17] = .infinity }
                for i in 0..<n {
                    rows.append(row: cols.prefix(3).map { i < $0.count ? $0[i] : .nan })
                }
                columns.append(columns: cols)
                next += n
                h1.advance()
                h2.advance()
                let d = try #require(difference(h1.makeImage(), h2.makeImage()))
                #expect(d.max == 0, "\(motion) at \(pointsPerSample), frame \(f): \(d)")
            }
            #expect(rows.count == columns.count)
        }
    }

    /// A big append draws only the tiles its samples reach: the new ones on
    /// the right and the one before them, not the whole graph.
    @Test func aBigAppendRedrawsOnlyTheTilesItReaches() throws {
        let h = try LayerHost(width: 640, height: 100), g = graph(h, series: 2, capacity: 1_000_000)
        g.pointsPerSample = 640.0 / 100_000  // 5,000 samples a tile: 20 tiles
        let column = (0..<100_000).map { wave($0, 0) }
        g.append(columns: [column, column])
        h.advance()
        let tiles = g.tilesInUse.count
        #expect(tiles >= 20)
        let before = g.statistics.tileRequests
        // 12,000 samples: two tiles and a part, and the one before them.
        let more = (100_000..<112_000).map { wave($0, 0) }
        g.append(columns: [more, more])
        h.advance()
        let asked = g.statistics.tileRequests - before
        #expect(asked >= 3 && asked <= 5, "\(asked) of \(tiles) tiles")
        // Empty columns, or none, are no append.
        g.append(columns: [[Double]]())
        g.append(columns: [[], []])
        #expect(g.count == 112_000)
    }
}
