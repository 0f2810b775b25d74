import ArgumentParser
import CBenchData
import Dispatch
import Foundation
@_spi(Benchmarks) import StrataCharts
import StrataDemos
import StrataGraphics
import StrataLayers

/// The streaming record: the shape of the FIFO test in the chart vendors'
/// JavaScript performance suite. Five series stream into a FIFO of `N`
/// points each, `N / 10` new points a series every frame, in a 1920 × 1080
/// chart; the frame rate reached gives the points appended a second
/// (5 × N / 10 × frames a second).
///
/// Each frame, timed: the new points are generated (five random walks, steps
/// uniform in ±½ from SplitMix64, seeds 1 to 5) and appended to the graph in
/// pieces of 16,384 a series, as a driver hands over its blocks, then the
/// tiles they reach drawn, and the 1920 × 1080 frame composited (moving the
/// plot's pixels and drawing what is new, as on screen). The
/// FIFO is filled first, untimed, and the value axis follows the data
/// (automatic range, changed at once), as the suite's charts do. Each case runs in a child
/// process pinned to one processor (`runPinned`).
@MainActor
enum StreamFIFOBench {
    static let cases: [(name: String, points: Int)] = [
        ("stream-fifo-5x100k", 100_000), ("stream-fifo-5x1M", 1_000_000), ("stream-fifo-5x10M", 10_000_000),
    ]

    /// Five random walks, generated a piece at a time into buffers that
    /// stay in the cache, as a sensor's driver hands over its blocks.
    final class Walks {
        static let piece = 1 << 14
        var states: [UInt64] = (1...5).map { UInt64($0) }
        var values = [Double](repeating: 0, count: 5)
        /// One allocation: the five series' pieces, one after another.
        let storage = UnsafeMutablePointer<Double>.allocate(capacity: 5 * Walks.piece)

        deinit { storage.deallocate() }

        /// Appends the next `count` samples of each walk to `graph`.
        @MainActor
        func append(_ count: Int, to graph: StreamingGraphLayer, parts: inout [Double]) {
            var left = count
            while left > 0 {
                let n = Swift.min(left, Self.piece)
                let t0 = DispatchTime.now().uptimeNanoseconds
                for s in 0..<5 { strata_bench_walk(&states[s], &values[s], storage + s * Self.piece, n) }
                let t1 = DispatchTime.now().uptimeNanoseconds
                graph.append(columns: (0..<5).map { UnsafeBufferPointer(start: storage + $0 * Self.piece, count: n) })
                let t2 = DispatchTime.now().uptimeNanoseconds
                parts[0] += Double(t1 - t0) / 1e6
                parts[1] += Double(t2 - t1) / 1e6
                left -= n
            }
        }
    }

    /// The cases `selection` runs, with their memory line or alone.
    static func chosen(_ selection: CaseSelection) -> [(name: String, points: Int)] {
        cases.filter { selection.runs($0.name) || selection.runs($0.name + "-memory") }
    }

    /// The processors this process may run on (`/proc/self/status`).
    static var allowedProcessors: String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        return line.map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) } ?? "?"
    }

    /// Runs each chosen case in a child process of this program on one
    /// processor (`taskset -c 0`, util-linux's, which every thread the child
    /// makes inherits), its lines passed through: the one-core figures, and
    /// each case's memory measured in a heap of its own.
    static func runPinned(arguments: [String], selection: CaseSelection) throws {
        for (name, _) in chosen(selection) {
            let wanted = [name, name + "-memory"].filter { selection.runs($0) }.joined(separator: ",")
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            child.arguments = ["-c", "0", CommandLine.arguments[0], "charts", "--cases", wanted, "--pinned"] + arguments
            try child.run()
            child.waitUntilExit()
            guard child.terminationStatus == 0 else {
                throw ValidationError("\(name): the pinned run failed (status \(child.terminationStatus))")
            }
        }
    }

    static func run(
        frames: Int, rounds: Int, fullRedraw: Bool, png: String?, selection: CaseSelection,
        print report: (String, Double, Double) -> Void
    ) throws {
        let chosen = Self.chosen(selection)
        guard !chosen.isEmpty else { return }
        let detail = ProcessInfo.processInfo.environment["STRATA_BENCH_DETAIL"] != nil
        if detail { print("  (processors allowed: \(allowedProcessors))") }
        for (name, n) in chosen {
            let rss0 = residentBytes()
            let perFrame = n / 10
            let host = try LayerHost(width: 1920, height: 1080)
            let looks = [(0.0, 0.45, 0.9), (0.9, 0.25, 0.2), (0.15, 0.65, 0.3), (0.6, 0.3, 0.8), (0.95, 0.6, 0.1)].map {
                GraphSeriesStyle(color: Color(red: $0.0, green: $0.1, blue: $0.2), lineWidth: 1)
            }
            let graph = StreamingGraphLayer(series: looks, capacity: n)
            graph.frame = Rect(x: 0, y: 0, width: 1920, height: 1080)
            // The suite's charts change their range at once.
            graph.rangeAnimationDuration = 0
            host.rootLayer.addSublayer(graph)
            // The plot is 1920 less the value axis; a first layout measures it.
            graph.pointsPerSample = 1920 / Double(n)
            let walks = Walks()
            var warm = [0.0, 0.0, 0.0, 0.0]
            for _ in 0..<10 { walks.append(perFrame, to: graph, parts: &warm) }
            graph.waitUntilDrawn()
            host.renderFrame()
            // The sample spacing that fits N samples in the plot as laid out.
            graph.pointsPerSample = graph.plotFrame.width / Double(n)
            graph.waitUntilDrawn()
            host.renderFrame()
            // Warm-up frames: the pool's threads, the bitmaps, the glyphs.
            for _ in 0..<10 { frame(walks, perFrame, graph, host, fullRedraw, &warm) }
            var rates: [Double] = []
            var parts = [0.0, 0.0, 0.0, 0.0]
            let tiles0 = graph.statistics.tilesDrawn, chunks0 = graph.buffers.map(\.chunksAllocated).reduce(0, +)
            for _ in 0..<max(1, rounds) {
                let t0 = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<max(1, frames) { frame(walks, perFrame, graph, host, fullRedraw, &parts) }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
                rates.append(Double(max(1, frames)) / seconds)
            }
            let fps = median(rates)
            if selection.runs(name) { report(name, fps, 5 * Double(perFrame) * fps) }
            if detail {
                let total = Double(max(1, rounds) * max(1, frames))
                print(
                    String(
                        format:
                            "  (%@ per frame: generate %.2f ms, append %.2f, layout and %.1f tiles %.2f, composite %.2f; %d chunks allocated; rounds %@)",
                        name, parts[0] / total, parts[1] / total, Double(graph.statistics.tilesDrawn - tiles0) / total, parts[2] / total,
                        parts[3] / total, graph.buffers.map(\.chunksAllocated).reduce(0, +) - chunks0,
                        rates.map { String(format: "%.1f", $0) }.joined(separator: " ")))
            }
            if selection.runs(name + "-memory") {
                print("strata \(name)-memory \(String(format: "%.1f", Double(residentBytes() - rss0) / 1_048_576))")
            }
            if let png { try host.makeImage().writePNG(to: "\(png)/strata-\(name).png") }
            graph.removeFromSuperlayer()
        }
    }

    /// One frame: new points, appended, drawn and composited.
    /// With `fullRedraw`, every layer is composited again, as if nothing
    /// were kept from the last frame.
    static func frame(
        _ walks: Walks, _ count: Int, _ graph: StreamingGraphLayer, _ host: LayerHost, _ fullRedraw: Bool,
        _ parts: inout [Double]
    ) {
        walks.append(count, to: graph, parts: &parts)
        let t2 = DispatchTime.now().uptimeNanoseconds
        graph.waitUntilDrawn()
        let t3 = DispatchTime.now().uptimeNanoseconds
        if fullRedraw { host.invalidateFrame() }
        host.renderFrame()
        let t4 = DispatchTime.now().uptimeNanoseconds
        parts[2] += Double(t3 - t2) / 1e6
        parts[3] += Double(t4 - t3) / 1e6
    }
}
