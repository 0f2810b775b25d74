import ArgumentParser
import Foundation
import StrataCharts
import StrataScenes

struct ChartsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "charts",
        abstract: "Times the decimation cases of ../shared/bench/DECIMATE.md.",
        discussion: """
            Prints `strata CASE MEDIAN_MS CHECKSUM` for m4-1M, m4-10M and minmax-10M: \
            M4 (or MinMax) of DECIMATE.md's random walk to 1,920 columns on one core, \
            the checksum being the exact sum of the indices, as decimate.py prints it \
            for tsdownsample. The series is generated first and not timed.
            """)

    @Option(help: "Timed runs per case (after two warm-ups).")
    var `repeat` = 10

    @Option(help: "Comma-separated cases to run (default: all).")
    var cases: String?

    @Option(help: "Frames per streaming case.")
    var frames = 600

    func run() throws {
        let wanted = cases.map { Set($0.split(separator: ",").map(String.init)) }
        func runs(_ name: String) -> Bool { wanted?.contains(name) ?? true }
        let report: (String, Double) -> Void = { name, value in
            if runs(name) { print("strata \(name) \(String(format: "%.3f", value))") }
        }
        try MainActor.assumeIsolated {
            // The 10M case first: its memory is measured before other cases
            // have left freed memory in the heap for it to reuse.
            if runs("stream-10M-first") || runs("stream-10M-next") || runs("stream-10M-memory") {
                try StreamBench.tenMillion(frames: min(frames, 300), report: report)
            }
            if runs("stream-append-main") || runs("stream-append-draw") || runs("stream-full-redraw") {
                try StreamBench.append(frames: frames, report: report)
            }
            if runs("stream-sine-6x600-cpu") { try StreamBench.sineStream(frames: frames, report: report) }
        }
        var series: [Int: [Double]] = [:]
        func data(_ n: Int) -> [Double] {
            if let y = series[n] { return y }
            let y = DecimationSeries.randomWalk(count: n)
            series[n] = y
            return y
        }
        let decimations: [(String, Int, ([Double]) -> [Int])] = [
            ("m4-1M", 1_000_000, { Decimation.m4($0, columns: 1920) }),
            ("m4-10M", 10_000_000, { Decimation.m4($0, columns: 1920) }),
            ("minmax-10M", 10_000_000, { Decimation.minMax($0, columns: 1920) }),
        ]
        for (name, n, method) in decimations where runs(name) {
            let y = data(n)
            var result: [Int] = []
            let ms = medianMilliseconds(repeat: self.repeat) { result = method(y) }
            print("strata \(name) \(String(format: "%.3f", ms)) \(result.reduce(0, +))")
        }
    }
}
