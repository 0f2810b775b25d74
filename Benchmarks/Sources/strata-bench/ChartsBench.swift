import ArgumentParser
import Foundation
import StrataCharts
import StrataDemos
import StrataTestSupport

struct ChartsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "charts",
        abstract: "Times the decimation cases of ../shared/bench/DECIMATE.md.",
        discussion: """
            Prints `strata CASE MEDIAN_MS CHECKSUM` for m4-1M, m4-10M and minmax-10M: \
            M4 (or MinMax) of DECIMATE.md's random walk to 1,920 columns on one core, \
            the checksum being the exact sum of the indices, as decimate.py prints it \
            for tsdownsample. The series is generated first and not timed. \
            The streaming record, stream-fifo-5x100k, stream-fifo-5x1M and stream-fifo-5x10M, \
            prints `strata CASE FRAMES_PER_SECOND POINTS_PER_SECOND` (and CASE-memory, the MB \
            the case added): five series in a FIFO of N points, N / 10 new points a series a \
            frame, every frame drawn and composited at 1920 × 1080, on one core (these cases \
            run last and pin the process to one processor).
            """)

    @Option(help: "Timed runs per case (after two warm-ups).")
    var `repeat` = 10

    @Option(help: "Comma-separated cases to run (default: all).")
    var cases: String?

    @Option(help: "Frames per streaming case.")
    var frames = 600

    @Option(help: "Frames per round of the stream-fifo cases.")
    var fifoFrames = 60

    @Option(help: "Rounds of the stream-fifo cases (the median frame rate is printed).")
    var fifoRounds = 3

    @Flag(help: "The stream-fifo cases composite every layer each frame (not only what changed).")
    var fifoFullRedraw = false

    @Option(help: "Writes the line-chart cases' last pictures to DIR/strata-CASE.png.")
    var png: String?

    @Option(help: "The 10,000,000-row CSV file of chart-csv-10M (written there first if missing).")
    var csv = NSTemporaryDirectory() + "strata-chart-10M.csv"

    /// A child run of chart-csv-10M: draws this file as `strata chart FILE
    /// --out OUT` does, with its defaults.
    @Option(help: .hidden)
    var chartFile: String?

    @Option(help: .hidden)
    var out: String?

    /// A child run of the stream-fifo cases, on one processor.
    @Flag(help: .hidden)
    var pinned = false

    func run() throws {
        if let chartFile, let out {
            try MainActor.assumeIsolated { try CSVChart.write(CSVChart.Request(file: chartFile), to: out) }
            return
        }
        let selection = CaseSelection(cases)
        if pinned {
            try MainActor.assumeIsolated {
                try StreamFIFOBench.run(
                    frames: fifoFrames, rounds: fifoRounds, fullRedraw: fifoFullRedraw, png: png, selection: selection
                ) { name, fps, points in
                    print("strata \(name) \(String(format: "%.2f", fps)) \(String(format: "%.0f", points))")
                }
            }
            return
        }
        let runs = selection.runs, report = selection.report
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
            let withChecksum: (String, Double, String) -> Void = { name, value, checksum in
                print("strata \(name) \(String(format: "%.3f", value)) \(checksum)")
            }
            for (name, n) in LineChartBench.sizes where runs(name) {
                try LineChartBench.build(name, count: n, repeat: self.repeat, png: png, report: withChecksum)
            }
            if runs("chart-pan-1M") { try LineChartBench.pan(report: withChecksum) }
            if runs("chart-csv-10M") || runs("chart-csv-10M-memory") {
                try LineChartBench.csv(path: csv, runs: min(self.repeat, 5)) { name, value, _ in
                    if runs(name) { print("strata \(name) \(String(format: "%.3f", value))") }
                }
            }
        }
        var series: [Int: HugePageSamples] = [:]
        func data(_ n: Int) -> HugePageSamples {
            if let y = series[n] { return y }
            let y = HugePageSamples(DecimationSeries.randomWalk(count: n))
            series[n] = y
            return y
        }
        let decimations: [(String, Int, (UnsafeBufferPointer<Double>) -> [Int])] = [
            ("m4-1M", 1_000_000, { Decimation.m4($0, columns: 1920) }),
            ("m4-10M", 10_000_000, { Decimation.m4($0, columns: 1920) }),
            ("minmax-10M", 10_000_000, { Decimation.minMax($0, columns: 1920) }),
        ]
        for (name, n, method) in decimations where runs(name) {
            let y = data(n).samples
            var result: [Int] = []
            let ms = medianMilliseconds(repeat: self.repeat) { result = method(y) }
            print("strata \(name) \(String(format: "%.3f", ms)) \(result.reduce(0, +))")
        }
        // Each in a child process on one processor.
        var fifoArguments = ["--fifo-frames", "\(fifoFrames)", "--fifo-rounds", "\(fifoRounds)"]
        if fifoFullRedraw { fifoArguments.append("--fifo-full-redraw") }
        if let png { fifoArguments += ["--png", png] }
        try MainActor.assumeIsolated { try StreamFIFOBench.runPinned(arguments: fifoArguments, selection: selection) }
    }
}

/// The decimation cases' series, in memory advised for transparent huge pages.
///
/// numpy does this for every array of 4 MB or more (`madvise(MADV_HUGEPAGE)`
/// when it allocates), so `decimate.py`'s tsdownsample reads its 80 MB series
/// through 2 MB pages. An `Array` gets 4 KB pages, and streaming 80 MB through
/// them costs some 20,000 TLB misses: measured here, 20-25 % more time for the
/// same kernel. The kernels are compared on the same memory.
final class HugePageSamples {
    let samples: UnsafeBufferPointer<Double>

    init(_ values: [Double]) {
        let bytes = Swift.max(8, values.count * 8)
        var raw: UnsafeMutableRawPointer?
        if posix_memalign(&raw, 2 << 20, bytes) == 0 {
            // Advice only: without huge pages the memory works the same.
            _ = madvise(raw, bytes, MADV_HUGEPAGE)
        } else {
            raw = malloc(bytes)
        }
        guard let raw else { fatalError("no memory for the \(values.count)-sample series") }
        let p = raw.bindMemory(to: Double.self, capacity: values.count)
        values.withUnsafeBufferPointer { p.initialize(from: $0.baseAddress!, count: $0.count) }
        samples = UnsafeBufferPointer(start: p, count: values.count)
    }

    deinit { free(UnsafeMutableRawPointer(mutating: samples.baseAddress)) }
}
