import Foundation
import StrataLayers
import StrataTestSupport
import StrataText
import Testing

@_spi(Benchmarks) @testable import StrataCharts

/// The tile arithmetic, the ring buffer, M4 from the summaries, and the
/// streaming graph's pictures, reuse and value range.
@Suite struct GraphTilingTests {
    @Test func floorDivisionRoundsTowardMinusInfinity() {
        #expect(GraphTiling.floorDivision(7, 2) == 3)
        #expect(GraphTiling.floorDivision(-7, 2) == -4)
        #expect(GraphTiling.floorDivision(-8, 2) == -4)
        #expect(GraphTiling.floorDivision(-1, 32) == -1)
        #expect(GraphTiling.floorDivision(0, 32) == 0)
        let tiling = GraphTiling(samplesPerTile: 32)
        #expect([-33, -32, -1, 0, 31, 32, 63, 64].map(tiling.tile(forSample:)) == [-2, -1, -1, 0, 0, 1, 1, 2])
        for i in -200...200 { #expect(tiling.samples(ofTile: tiling.tile(forSample: i)).contains(i)) }
    }

    /// GraphView's rule: the newest tile, and the previous one while the
    /// sample is in its padding.
    @Test func anAppendMarksItsTileAndThePreviousInThePadding() {
        let tiling = GraphTiling(samplesPerTile: 32, paddingSamples: 2)
        #expect(tiling.tilesToRedraw(afterAppendingSampleAt: 31) == [0])
        #expect(tiling.tilesToRedraw(afterAppendingSampleAt: 32) == [0, 1])
        #expect(tiling.tilesToRedraw(afterAppendingSampleAt: 33) == [0, 1])
        #expect(tiling.tilesToRedraw(afterAppendingSampleAt: 34) == [1])
        #expect(tiling.tilesToRedraw(afterAppendingSampleAt: 0) == [-1, 0])
        #expect(tiling.tilesToRedraw(afterAppendingSampleAt: -30) == [-1])
        #expect(tiling.drawnSamples(ofTile: 1) == 30..<66)
        // A padding wider than a tile reaches two tiles back, each once.
        #expect(GraphTiling(samplesPerTile: 4, paddingSamples: 9).tilesToRedraw(afterAppendingSampleAt: 8) == [-1, 0, 1, 2])
        // Sizes below 1 count as 1.
        #expect(GraphTiling(samplesPerTile: 0, paddingSamples: -3) == GraphTiling(samplesPerTile: 1, paddingSamples: 1))
    }

    /// A block of samples marks the tiles its samples would one by one: one
    /// run, whatever the block's size and position.
    @Test func aBlockMarksTheUnionOfItsSamplesTiles() {
        for tiling in [GraphTiling(samplesPerTile: 32, paddingSamples: 2), GraphTiling(samplesPerTile: 4, paddingSamples: 9)] {
            #expect(tiling.tilesToRedraw(afterAppending: 5..<5) == nil)
            for start in -70...70 {
                for count in [1, 2, 3, 31, 32, 33, 100] {
                    let samples = start..<(start + count)
                    let each = Set(samples.flatMap(tiling.tilesToRedraw(afterAppendingSampleAt:)))
                    let run = tiling.tilesToRedraw(afterAppending: samples)
                    #expect(run.map(Set.init) == each)
                }
            }
        }
    }

    @Test func niceScalesCoverTheDataWithRoundSteps() {
        let s = NiceScale(covering: 0.13, 0.87, ticks: 5)
        #expect(s.step == 0.2)
        #expect(s.lower == 0 && near(s.upper, 1))
        #expect(s.ticks.count == 6)
        #expect(s.label(for: 0.4) == "0.4")
        let big = NiceScale(covering: -1234, 98765, ticks: 4)
        #expect(big.step == 50_000 && big.lower == -50_000 && big.upper == 100_000)
        // Equal ends, reversed ends, NaN and infinities stay finite and ordered.
        for (a, b) in [(5.0, 5.0), (3.0, -3.0), (.nan, .nan), (-.infinity, .infinity), (0, 0)] {
            let n = NiceScale(covering: a, b)
            #expect(n.lower < n.upper && n.lower.isFinite && n.upper.isFinite && n.step > 0, "\(a) \(b)")
            #expect(!n.ticks.isEmpty && n.ticks.count <= 1001)
        }
        #expect(NiceScale(exactly: 0, 10, step: 3).ticks == [0, 3, 6, 9])
    }
}

@Suite struct SampleBufferTests {
    @Test func indicesCountEverySampleEverAppended() {
        let b = SampleBuffer(capacity: 5000)
        for i in 0..<12_345 { b.append(Double(i)) }
        #expect(b.count == 12_345)
        #expect(b.startIndex == 12_345 - 5000)
        #expect(b[12_344] == 12_344 && b[7345] == 7345)
        #expect(b[7344].isNaN && b[12_345].isNaN && b[-1].isNaN)
        // The ring: at most ceil(5000 / 4096) + 1 chunks, however much goes by.
        #expect(b.chunksAllocated <= 3)
        #expect(SampleBuffer(capacity: 0).capacity == 1 && SampleBuffer(capacity: -5).capacity == 1)
        // A huge capacity allocates nothing until samples arrive.
        let huge = SampleBuffer(capacity: .max)
        #expect(huge.capacity == 1 << 40 && huge.chunksAllocated == 0)
        for i in 0..<10_000 { huge.append(Double(i)) }
        #expect(huge[9_999] == 9_999 && huge.chunksAllocated == 3)
    }

    /// A snapshot is never written over: the ring takes a fresh chunk rather
    /// than reuse one a snapshot holds, and the snapshot still reads its values.
    @Test func snapshotsShareChunksAndAreNeverOverwritten() {
        let b = SampleBuffer(capacity: 4096)
        for i in 0..<4096 { b.append(Double(i)) }
        let snap = b.snapshot(0..<4096)
        #expect(snap.indices == 0..<4096)
        let plain = SampleBuffer(capacity: 4096)
        for i in 0..<(4096 * 3) {
            plain.append(Double(i))
            if i >= 4096 { b.append(Double(i)) }
        }
        #expect(b.chunksAllocated == plain.chunksAllocated + 1, "one chunk replaced the one the snapshot holds")
        #expect(snap[0] == 0 && snap[4095] == 4095 && snap[4096].isNaN)
        #expect(b[4096 * 3 - 1] == Double(4096 * 3 - 1))
    }

    /// M4 the plain way: per column, per run of numbers between NaNs, first,
    /// first minimum and first maximum in order, last.
    func referenceM4(_ y: [Double], columns: [Range<Int>]) -> [ChartSample] {
        var out: [ChartSample] = [], pendingBreak = false
        for column in columns {
            var run: [Int] = []
            func flush() {
                guard let first = run.first, let last = run.last else { return }
                var lo = first, hi = first
                for i in run {
                    if y[i] < y[lo] { lo = i }
                    if y[i] > y[hi] { hi = i }
                }
                if pendingBreak { out.append(ChartSample(index: first, value: .nan)) }
                pendingBreak = false
                var picked = [first]
                for i in [min(lo, hi), max(lo, hi), last] where i != picked.last! { picked.append(i) }
                out += picked.map { ChartSample(index: $0, value: y[$0]) }
                run = []
            }
            for i in column {
                if y[i].isNaN {
                    flush()
                    if !out.isEmpty { pendingBreak = true }
                } else {
                    run.append(i)
                }
            }
            flush()
        }
        return out
    }

    func same(_ a: [ChartSample], _ b: [ChartSample]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.index == $1.index && ($0.value == $1.value || ($0.isBreak && $1.isBreak)) }
    }

    /// The summaries give exactly the plain M4, gaps, ties and columns of
    /// every width (within a block, across blocks and chunks) included.
    @Test func m4FromTheSummariesIsThePlainM4() {
        var rng = FuzzRandom(seed: 15)
        for round in 0..<24 {
            let n = 2000 + rng.int(30_000)
            let b = SampleBuffer(capacity: n)
            var y: [Double] = []
            var walk = 0.0
            for _ in 0..<n {
                walk += rng.uniform() - 0.5
                var v = (walk * 4).rounded() / 4  // ties
                if round % 3 == 1 && rng.int(500) == 0 { v = .nan }
                if round % 3 == 2 && rng.int(3000) == 0 {
                    let gap = rng.int(9000)
                    for _ in 0..<gap where y.count < n - 1 {
                        y.append(.nan)
                        b.append(.nan)
                    }
                }
                if y.count < n {
                    y.append(v)
                    b.append(v)
                }
            }
            let width = [1, 3, 64, 100, 4096, 5000][round % 6] + rng.int(7)
            var columns: [Range<Int>] = []
            var s = rng.int(50)
            while s < y.count {
                columns.append(s..<min(y.count, s + width))
                s += width
            }
            let snap = b.snapshot(0..<y.count)
            let got = snap.m4(columns: columns), want = referenceM4(y, columns: columns)
            let matches = same(got, want)
            #expect(matches, "round \(round): \(got.count) vs \(want.count) points")
            let numbers = y.filter { !$0.isNaN }
            let e = b.extremes(in: 0..<y.count)
            #expect(e?.min == numbers.min() && e?.max == numbers.max())
        }
        let empty = SampleBuffer(capacity: 10)
        #expect(empty.extremes(in: 0..<10) == nil)
        #expect(empty.snapshot(0..<10).m4(columns: [0..<10]).isEmpty)
    }
}

@MainActor
@Suite struct StreamingGraphLayerTests {
    func host(_ w: Int = 320, _ h: Int = 120) throws -> LayerHost { try LayerHost(width: w, height: h) }

    func graph(in host: LayerHost, series: Int = 1, asynchronous: Bool = false) -> StreamingGraphLayer {
        plainGraph(in: host, series: series, asynchronous: asynchronous, range: 1.2)
    }

    func wave(_ i: Int) -> Double { sin(Double(i) * 0.07) + 0.3 * sin(Double(i) * 0.71) }

    /// The picture after samples arrive one frame at a time is the picture
    /// of the same samples drawn from scratch: the tiles, their padding and
    /// their reuse leave no seams and no stale pixels.
    @Test func appendingFrameByFrameDrawsWhatAFreshGraphDraws() throws {
        let h1 = try host(), live = graph(in: h1)
        for i in 0..<700 {
            live.append(wave(i))
            h1.advance()
        }
        let h2 = try host(), fresh = graph(in: h2)
        fresh.append(contentsOf: (0..<700).map(wave))
        h2.advance()
        let d = try #require(difference(h1.makeImage(), h2.makeImage()))
        #expect(d.max == 0, "\(d)")
        // And it is a trace: dark pixels in the middle of the plot.
        let image = h1.makeImage()
        let dark = (0..<image.height).filter { image[200, $0].r < 128 }.count
        #expect(dark >= 1 && dark < 40)
    }

    /// An append draws again only the bands of the newest tile whose points
    /// changed, over a copy of its last picture, and a tile whose samples are
    /// all in is drawn whole: frame by frame, that gives exactly the pixels
    /// of a graph fed at once, with wide lines, fills, gaps, grid and time
    /// ticks (the time labels are layers over the tiles), at 2 pixels a
    /// point, and for M4 tiles.
    @Test func bandsAnAppendLeavesAloneKeepTheirPixels() throws {
        for (decimated, filled) in [(false, false), (true, false), (false, true)] {
            func configure(_ g: StreamingGraphLayer) {
                g.series = [
                    GraphSeriesStyle(color: .black, lineWidth: 3),
                    GraphSeriesStyle(
                        color: .red, lineWidth: 1, fillColor: filled ? Color(red: 1, green: 0, blue: 0, alpha: 0.3) : nil,
                        fillBaseline: 0),
                ]
                g.gridColor = Color(red: 0.8, green: 0.8, blue: 0.8)
                g.sampleRate = 30
                if decimated { g.pointsPerSample = 0.1 }
            }
            func sample(_ i: Int) -> [Double] {
                i % 97 < 4 ? [.nan, .nan] : [wave(i), 0.5 * wave(i + 40)]
            }
            let n = decimated ? 1500 : 300
            let h1 = try LayerHost(width: 320, height: 120, scale: 2), live = graph(in: h1, series: 2)
            configure(live)
            for i in 0..<n {
                live.append(row: sample(i))
                h1.advance()
            }
            let h2 = try LayerHost(width: 320, height: 120, scale: 2), fresh = graph(in: h2, series: 2)
            configure(fresh)
            fresh.append(contentsOf: (0..<n).map(sample))
            h2.advance()
            let d = try #require(difference(h1.makeImage(), h2.makeImage()))
            #expect(d.max == 0, "decimated \(decimated), filled \(filled): \(d)")
            // Most appends drew part of a tile.
            #expect(live.statistics.tilesDrawnInPart > n / 2, "decimated \(decimated), filled \(filled)")
        }
    }

    /// The same through the queue pool.
    @Test func asynchronousTilesArriveAndMatch() throws {
        let h1 = try host(), live = graph(in: h1, asynchronous: true)
        for i in 0..<400 {
            live.append(wave(i))
            h1.advance()
        }
        live.waitUntilDrawn()
        h1.advance()
        let h2 = try host(), fresh = graph(in: h2)
        fresh.append(contentsOf: (0..<400).map(wave))
        h2.advance()
        let d = try #require(difference(h1.makeImage(), h2.makeImage()))
        #expect(d.max == 0, "\(d)")
    }

    /// After warm-up appending creates no layer, and no bitmap beyond what
    /// two tiles drawn at once need; one sample asks for one tile (two in
    /// the padding).
    @Test func tilesAreReusedAfterWarmUp() throws {
        let h = try host(), g = graph(in: h, asynchronous: true)
        for i in 0..<600 {
            g.append(wave(i))
            h.advance()
        }
        g.waitUntilDrawn()
        let warm = g.statistics
        #expect(warm.tileLayersCreated == 1 + 320 / 32)
        var requests: [Int] = []
        for i in 600..<1600 {
            let before = g.statistics.tileRequests
            g.append(wave(i))
            h.advance()
            g.waitUntilDrawn()
            requests.append(g.statistics.tileRequests - before)
        }
        let after = g.statistics
        #expect(after.tileLayersCreated == warm.tileLayersCreated)
        // Bitmaps do not grow with appends. Each append here draws at most
        // two tiles at once (and waits), so at most two bitmaps are ever in
        // use; whether the warm-up already happened to draw two at once
        // depends on the pool's timing (a loaded machine made it 1, then 2).
        #expect(after.bitmapsCreated <= Swift.max(warm.bitmapsCreated, 2), "\(warm.bitmapsCreated) → \(after.bitmapsCreated)")
        // 1000 samples, 32 to a tile, 2 of padding: 2 of every 32 ask for two tiles.
        #expect(requests.allSatisfy { $0 == 1 || $0 == 2 })
        #expect(requests.filter { $0 == 2 }.count == (600..<1600).filter { $0 % 32 < 2 }.count)
        #expect(g.tilesInUse.count == warm.tileLayersCreated)
    }

    /// Many samples to a pixel: the M4 points give the picture every sample
    /// gives, within anti-aliasing.
    @Test func m4TilesDrawWhatEverySampleDraws() throws {
        let b = SampleBuffer(capacity: 200_000)
        var rng = FuzzRandom(seed: 3)
        var walk = 0.0
        for _ in 0..<200_000 {
            walk += rng.uniform() - 0.5
            b.append(walk)
        }
        let lo = b.extremes(in: 0..<200_000)!.min, hi = b.extremes(in: 0..<200_000)!.max
        let renderer = GraphTileRenderer()
        var style = GraphTileStyle(
            tileWidth: 32, plotHeight: 200, axisHeight: 0, scale: 1, pointsPerSample: 32.0 / 20_000, samplesPerTile: 20_000,
            columnsPerTile: 32, decimates: true, paddingSamples: 2, paddingColumns: 3, yLower: lo, yUpper: hi,
            background: .white, gridColor: nil, gridValues: [], series: [GraphSeriesStyle(color: .black, lineWidth: 1)],
            timeStep: 0, sampleRate: 1, labelFont: Font(size: 10), labelColor: .black, labelWidth: 0)
        let snap = b.snapshot(0..<200_000)
        for tile in [1, 4, 8] {
            let positions = style.drawnPositions(ofTile: tile)
            let part = GraphTilePart(snapshot: snap, positions: positions, base: 0, isSealed: false, cacheKey: nil)
            let m4 = try #require(renderer.draw(tile: tile, parts: [[part]], style: style))
            #expect(renderer.samples(of: part, style: style).count <= 4 * (32 + 6))
            style.decimates = false
            let all = try #require(renderer.draw(tile: tile, parts: [[part]], style: style))
            style.decimates = true
            // Anti-aliasing differs where thousands of overlapping segments
            // cross a pixel column that four points cross once: edge pixels
            // a little lighter or darker, never a pixel inked in one picture
            // and blank in the other.
            let d = try #require(difference(m4, all))
            #expect(d.mean < 2.5 && d.over8Percent < 7, "tile \(tile): \(d)")
            var opposite = 0
            for y in 0..<m4.height {
                for x in 0..<m4.width {
                    let a = Int(m4[x, y].r), b = Int(all[x, y].r)
                    if (a < 64 && b > 230) || (b < 64 && a > 230) { opposite += 1 }
                }
            }
            #expect(opposite == 0, "tile \(tile)")
        }
    }

    /// NaN and infinities break the line: nothing is drawn across the gap.
    @Test func gapsBreakTheLine() throws {
        let h = try host(), g = graph(in: h)
        var samples = (0..<400).map { _ in 0.0 }
        for i in 250..<280 { samples[i] = .nan }
        samples[300] = .infinity
        g.append(contentsOf: samples)
        h.advance()
        let image = h.makeImage()
        // The newest sample is at the right edge: sample i at x = 320 − (400 − i) + 0.5.
        func column(_ i: Int) -> Int { 320 - (400 - i) }
        let y = 60
        func inked(_ x: Int) -> Bool { (y - 3...y + 3).contains { image[x, $0].r < 200 } }
        #expect(inked(column(240)) && inked(column(290)) && inked(column(350)))
        #expect(!inked(column(265)) && !inked(column(300)))
    }

    /// The automatic range grows at once, keeps still for samples inside it,
    /// and shrinks only when the samples use little of it.
    @Test func theAutomaticRangeHasHysteresis() throws {
        let h = try host(), g = graph(in: h)
        g.valueRange = .automatic
        g.append(contentsOf: (0..<400).map { sin(Double($0) * 0.1) })
        h.advance()
        let first = try #require(g.displayedRange)
        #expect(first.lowerBound <= -1 && first.upperBound >= 1)
        // Smaller swings inside the range: no change.
        for i in 0..<100 {
            g.append(0.8 * sin(Double(i) * 0.1))
            h.advance()
        }
        #expect(g.displayedRange == first)
        // One sample above it: it grows at once.
        g.append(7)
        h.advance()
        let grown = try #require(g.displayedRange)
        #expect(grown.upperBound >= 7 && grown.lowerBound <= -0.8)
        // Once the spike has scrolled out of view, the small samples use
        // less than the threshold of the range: it shrinks back.
        for i in 0..<400 {
            g.append(0.8 * sin(Double(i) * 0.1))
            h.advance()
        }
        let shrunk = try #require(g.displayedRange)
        #expect(shrunk.upperBound < 2 && shrunk.upperBound >= 0.8)
    }

    /// Sweep: the tiles stay, the newest samples overwrite from the left, the
    /// previous sweep shows after the gap ahead of the cursor.
    @Test func sweepOverwritesFromTheLeft() throws {
        let h = try host(), g = graph(in: h)
        g.motion = .sweep
        g.sweepGap = 0.1
        // 320 samples fill one sweep; 100 more start the next.
        g.append(contentsOf: (0..<320).map { _ in 0.9 })
        g.append(contentsOf: (0..<100).map { _ in -0.9 })
        h.advance()
        let image = h.makeImage()
        let yHigh = Int((1.2 - 0.9) / 2.4 * 120), yLow = Int((1.2 + 0.9) / 2.4 * 120)
        func inked(_ x: Int, _ y: Int) -> Bool { (y - 2...y + 2).contains { image[x, $0].r < 200 } }
        #expect(inked(50, yLow) && !inked(50, yHigh), "the new sweep at the left")
        #expect(inked(200, yHigh) && !inked(200, yLow), "the old sweep after the gap")
        #expect(!inked(110, yHigh) && !inked(110, yLow), "the gap ahead of the cursor")
        #expect(g.tilesInUse == Array(0..<10))
    }

    /// History: pausing keeps the view while samples arrive; scrolling back
    /// is kept within the history; resuming follows the newest again.
    @Test func pauseScrollBackAndResume() throws {
        let h = try host(), g = graph(in: h)
        g.append(contentsOf: (0..<2000).map(wave))
        h.advance()
        g.pause()
        g.append(contentsOf: (0..<50).map(wave))
        #expect(g.visibleSamples.upperBound == 2000)
        g.scroll(by: -500)
        #expect(g.visibleSamples.upperBound == 1500)
        g.scroll(by: -1_000_000)
        #expect(g.visibleSamples.lowerBound == 0)
        g.scroll(by: .max)
        #expect(g.visibleSamples.upperBound == 2050)
        g.resume()
        #expect(g.isFollowingLiveEdge && g.visibleSamples.upperBound == 2050)
        g.zoom(by: 0.25)
        h.advance()
        #expect(g.visibleSamples.count >= 320 * 4 - 4)
        g.zoom(by: .nan)
        g.zoom(by: -2)
        h.advance()
    }

    /// Hostile sizes and values give an empty or clamped graph, never a crash.
    @Test func badSizesAndValuesAreSafe() throws {
        let h = try host(), g = graph(in: h)
        g.append(.nan, .infinity)
        g.append(row: [])
        g.append(contentsOf: [Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-300])
        for (k, w) in [0.0, -5, .nan, .infinity, 1e12, 1e30].enumerated() {
            g.tileWidth = w
            g.pointsPerSample = w
            g.paddingSamples = [0, -9, .max, .min, 9, 1 << 40][k]
            g.scrollAnimationDuration = w
            g.rangeAnimationDuration = w
            g.shrinkThreshold = w
            g.sweepGap = w
            g.valueRange = k % 2 == 0 ? .automatic : .fixed(-w, w)
            g.motion = k % 3 == 0 ? .sweep : .scroll
            g.frame = Rect(x: 0, y: 0, width: w.isFinite ? w : 10, height: 50)
            g.append(1, 2)
            h.advance()
            g.scroll(toEnd: .min)
            g.scroll(toEnd: .max)
            g.scroll(by: .min)
            g.resume()
            h.advance()
        }
        g.motion = .scroll
        g.frame = Rect(x: 0, y: 0, width: 320, height: 120)
        g.tileWidth = 32
        g.pointsPerSample = 1
        h.advance()
        g.valueRange = .fixed(.nan, .infinity)
        h.advance()
        g.valueRange = .automatic
        h.advance()
        #expect(g.displayedRange.map { $0.lowerBound.isFinite && $0.upperBound.isFinite } == true)
        g.removeAll()
        h.advance()
        #expect(g.count == 0)
    }

    /// `strata stream --stdin`'s lines: bad words are gaps with a message
    /// naming the line.
    @Test func inputLinesNameTheirProblems() {
        let ok = SampleLineParser.parse("1.5, -2\t3e2", lineNumber: 1, series: 3)
        #expect(ok.row == [1.5, -2, 300] && ok.problems.isEmpty)
        let bad = SampleLineParser.parse("1 abc inf", lineNumber: 7, series: 3)
        #expect(bad.row[0] == 1 && bad.row[1].isNaN && bad.row[2].isNaN)
        #expect(bad.problems.count == 2 && bad.problems[0].hasPrefix("line 7: 'abc'"))
        let short = SampleLineParser.parse("4", lineNumber: 9, series: 2)
        #expect(short.row.count == 2 && short.row[1].isNaN && short.problems == ["line 9: 1 of 2 values; the rest drawn as gaps"])
        let empty = SampleLineParser.parse("", lineNumber: 2, series: 1)
        #expect(empty.row.count == 1 && empty.row[0].isNaN && empty.problems == ["line 2: no numbers; drawn as a gap"])
        let nan = SampleLineParser.parse("NaN", lineNumber: 3, series: 1)
        #expect(nan.row[0].isNaN && nan.problems.count == 1)
        // Lines split from pieces, a line without end held to the bound.
        var splitter = LineSplitter(maximumLength: 8)
        var lines = splitter.feed(Array("1 2\n3".utf8))
        lines += splitter.feed(Array("4\n".utf8) + Array(repeating: UInt8(ascii: "7"), count: 100_000))
        #expect(lines.map(\.text) == ["1 2", "34"] && lines.allSatisfy { !$0.isTruncated })
        let last = splitter.finish()
        #expect(last?.text == "77777777" && last?.isTruncated == true)
        #expect(splitter.finish() == nil)
        #expect(LineSplitter(maximumLength: -3).maximumLength == 1)
    }
}

/// A graph filling `host`, with `series` series of 1.5-point lines, no value
/// axis and no grid, over a fixed range of ±`range`.
@MainActor
func plainGraph(
    in host: LayerHost, series: Int, capacity: Int = 100_000, asynchronous: Bool = false, range: Double
) -> StreamingGraphLayer {
    let g = StreamingGraphLayer(
        series: (0..<series).map { GraphSeriesStyle(color: [.black, .red, .blue][$0 % 3], lineWidth: 1.5) }, capacity: capacity)
    g.frame = Rect(x: 0, y: 0, width: Double(host.width), height: Double(host.height))
    g.drawsAsynchronously = asynchronous
    g.showsValueAxis = false
    g.gridColor = nil
    g.valueRange = .fixed(-range, range)
    host.rootLayer.addSublayer(g)
    return g
}
