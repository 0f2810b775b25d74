import Dispatch
import Foundation
@_spi(Benchmarks) import StrataCharts
import StrataDemos
import StrataLayers
import StrataTestSupport

/// The streaming graph's cases of `strata-bench charts`.
@MainActor
enum StreamBench {
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// A graph filling a `width` × `height` host.
    static func makeGraph(
        width: Int, height: Int, series: Int, capacity: Int, pointsPerSample: Double
    ) throws -> (LayerHost, StreamingGraphLayer) {
        let host = try LayerHost(width: width, height: height)
        let looks = (0..<series).map { s in
            GraphSeriesStyle(color: Color(red: 0.15 * Double(s % 6), green: 0.4, blue: 0.9 - 0.1 * Double(s % 6)))
        }
        let graph = StreamingGraphLayer(series: looks, capacity: capacity)
        graph.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        graph.pointsPerSample = pointsPerSample
        graph.valueRange = .fixed(-1.5, 1.5)
        host.rootLayer.addSublayer(graph)
        return (host, graph)
    }

    /// Applies what the pool has drawn, as the run loop would.
    static func drainMainQueue() {
        _ = RunLoop.main.run(mode: .default, before: .distantPast)
    }

    /// stream-append-main, stream-append-draw, stream-full-redraw: one series
    /// at 1920 × 600, one sample a frame.
    static func append(frames: Int, report: (String, Double) -> Void) throws {
        let (host, graph) = try makeGraph(width: 1920, height: 600, series: 1, capacity: 100_000, pointsPerSample: 1)
        host.rendersAsynchronously = true
        var signal = StreamSignalGenerator(.sine, rate: 60)
        graph.append(contentsOf: (0..<2400).map { _ in signal.next() })
        host.renderFrame()
        graph.waitUntilDrawn()
        host.renderFrame()
        host.finishRendering()
        var main: [Double] = [], draw: [Double] = []
        for f in 0..<(frames + 30) {
            let drawn0 = graph.statistics.drawingSeconds
            let t0 = now()
            graph.append(signal.next())
            host.advance()
            var mainNanos = now() - t0
            // The pool draws (untimed: the main actor is free meanwhile)...
            graph.waitUntilDrawnWithoutApplying()
            host.finishRendering()
            // ...and the result is applied as the main queue would (timed).
            let t1 = now()
            drainMainQueue()
            mainNanos += now() - t1
            if f >= 30 {
                main.append(Double(mainNanos) / 1e6)
                draw.append((graph.statistics.drawingSeconds - drawn0) * 1000)
            }
        }
        report("stream-append-main", percentile(main, 0.99))
        report("stream-append-draw", median(draw))
        var full: [Double] = []
        for _ in 0..<62 {
            let drawn0 = graph.statistics.drawingSeconds
            graph.redrawAllTiles()
            graph.waitUntilDrawn()
            full.append((graph.statistics.drawingSeconds - drawn0) * 1000)
        }
        report("stream-full-redraw", median(Array(full.dropFirst(2))))
    }

    /// stream-sine-6x600-cpu: uPlot's sine-stream demo, 6 series × 600
    /// points at 1920 × 600, every series advancing each frame: CPU time per
    /// second of stream (60 frames), every thread counted, as a percentage of
    /// one core.
    static func sineStream(frames: Int, report: (String, Double) -> Void) throws {
        let (host, graph) = try makeGraph(width: 1920, height: 600, series: 6, capacity: 4096, pointsPerSample: 3.2)
        graph.showsValueAxis = false
        host.rendersAsynchronously = true
        var signals = (0..<6).map { StreamSignalGenerator(.sine, rate: 60, series: $0) }
        graph.append(contentsOf: (0..<620).map { _ in (0..<6).map { signals[$0].next() } })
        for _ in 0..<60 {
            graph.append(row: (0..<6).map { signals[$0].next() })
            host.advance()
            graph.waitUntilDrawn()
        }
        host.finishRendering()
        let cpu0 = cpuSeconds()
        for _ in 0..<frames {
            graph.append(row: (0..<6).map { signals[$0].next() })
            host.advance()
            graph.waitUntilDrawnWithoutApplying()
            drainMainQueue()
        }
        host.finishRendering()
        let cpu = cpuSeconds() - cpu0
        report("stream-sine-6x600-cpu", 100 * cpu / (Double(frames) / 60))
    }

    /// stream-10M-first, stream-10M-next, stream-10M-memory: a window over
    /// 10,000,000 samples at 1920 × 600.
    ///
    /// A small graph is drawn first, so that the process's one-time start-up
    /// (the drawing pool's threads, the font library and glyph cache, the
    /// runtime's first look-ups of types and conformances, some 5-8 ms) is not
    /// counted as the big graph's first frame.
    static func tenMillion(frames: Int, report: (String, Double) -> Void) throws {
        do {
            let (host, graph) = try makeGraph(width: 1920, height: 600, series: 1, capacity: 10_000, pointsPerSample: 0.2)
            graph.valueRange = .automatic
            var signal = StreamSignalGenerator(.walk, rate: 1000)
            graph.append(contentsOf: (0..<10_000).map { _ in signal.next() })
            host.renderFrame()
            graph.waitUntilDrawn()
            host.renderFrame()
        }
        let rss0 = residentBytes()
        let n = 10_000_000
        let (host, graph) = try makeGraph(width: 1920, height: 600, series: 1, capacity: n, pointsPerSample: 1900 / Double(n))
        graph.valueRange = .automatic
        var signal = StreamSignalGenerator(.walk, rate: 1000)
        for _ in 0..<(n / 1000) { graph.append(contentsOf: (0..<1000).map { _ in signal.next() }) }
        host.finishRendering()
        let t0 = now()
        host.renderFrame()
        graph.waitUntilDrawn()
        host.renderFrame()
        let first = Double(now() - t0) / 1e6
        report("stream-10M-first", first)
        if ProcessInfo.processInfo.environment["STRATA_BENCH_DETAIL"] != nil {
            print("  (tiles drawn \(graph.statistics.tilesDrawn), drawing \(graph.statistics.drawingSeconds * 1000) ms on all threads)")
        }
        var next: [Double] = []
        for _ in 0..<frames {
            let t = now()
            graph.append(signal.next())
            host.advance()
            graph.waitUntilDrawn()
            host.renderFrame()
            next.append(Double(now() - t) / 1e6)
        }
        report("stream-10M-next", percentile(next, 0.99))
        if ProcessInfo.processInfo.environment["STRATA_BENCH_DETAIL"] != nil {
            print(
                "  (next: median \(median(next)) ms, drawing \(graph.statistics.drawingSeconds * 1000 / Double(max(1, graph.statistics.tilesDrawn))) ms a tile)"
            )
        }
        report("stream-10M-memory", Double(residentBytes() - rss0) / 1_048_576)
    }
}
