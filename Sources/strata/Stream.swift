import ArgumentParser
import Dispatch
import Foundation
import StrataCharts
import StrataDemos
import StrataLayers

struct Stream: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Renders a live streaming graph headless, from a generated signal or standard input.",
        discussion: """
            Streams samples into a StreamingGraphLayer at 60 frames a second of stream time \
            (a manual clock: frames are rendered as fast as they can be, each complete), writes \
            frames as PNG (--frames DIR, every --every-th frame) and the last frame (--out), and \
            prints frame statistics: frames, p50/p99/max frame time (append, drawing the tiles \
            and compositing), frames over the 16.67 ms budget and the CPU share (process CPU \
            time over the stream's duration).

            With --stdin, each line of standard input is one sample per series: numbers \
            separated by spaces, tabs or commas. A word that is not a number, NaN or an \
            infinity is a gap in that series, reported on standard error with its line number; \
            a line with fewer numbers than series leaves gaps in the rest; a line over 1 MB \
            keeps its first megabyte. An empty input is an error.
            """)

    @Option(help: "The signal: \(StreamSignal.allCases.map(\.rawValue).joined(separator: ", ")).")
    var signal = "ecg"
    @Flag(help: "Read samples from standard input instead of generating them.")
    var stdin = false
    @Option(help: "Series (1 to 16).")
    var series = 1
    @Option(help: "Samples per second per series.")
    var rate = 250.0
    @Option(help: "Seconds of stream (at most 3,600).")
    var seconds = 10.0
    @Option(help: "Width in points.")
    var width = 960
    @Option(help: "Height in points.")
    var height = 320
    @Option(help: "Pixels per point.")
    var scale = 1.0
    @Option(help: "Points per sample (default: the width shows --window seconds).")
    var pointsPerSample: Double?
    @Option(help: "Seconds the width shows, when --points-per-sample is not given.")
    var window = 4.0
    @Option(help: "scroll or sweep.")
    var motion = "scroll"
    @Option(help: "A directory to write frames to.")
    var frames: String?
    @Option(help: "Write every Nth frame.")
    var every = 10
    @Option(help: "Where to write the final picture.")
    var out = "stream.png"

    func validate() throws {
        guard StreamSignal(rawValue: signal) != nil else { throw ValidationError("unknown signal '\(signal)'") }
        guard (1...16).contains(series) else { throw ValidationError("--series must be between 1 and 16") }
        guard rate.isFinite, rate > 0, rate <= 1_000_000 else { throw ValidationError("--rate must be above 0 and at most 1,000,000") }
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be above 0 and at most 3,600") }
        guard (16...8192).contains(width), (16...8192).contains(height) else {
            throw ValidationError("--width and --height must be between 16 and 8,192")
        }
        guard scale.isFinite, scale >= 0.5, scale <= 4 else { throw ValidationError("--scale must be between 0.5 and 4") }
        guard window.isFinite, window > 0 else { throw ValidationError("--window must be positive") }
        if let p = pointsPerSample, !(p.isFinite && p > 0) { throw ValidationError("--points-per-sample must be positive") }
        guard motion == "scroll" || motion == "sweep" else { throw ValidationError("--motion must be scroll or sweep") }
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
    }

    func run() throws {
        try MainActor.assumeIsolated { try stream() }
    }

    @MainActor
    func stream() throws {
        if let frames { try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true) }
        var input = stdin ? LineReader(series: series) : nil
        let palette = [
            Color(red: 0.85, green: 0.15, blue: 0.2), Color(red: 0.1, green: 0.45, blue: 0.9), Color(red: 0.1, green: 0.6, blue: 0.3),
            Color(red: 0.9, green: 0.55, blue: 0.1), Color(red: 0.5, green: 0.3, blue: 0.8), Color(red: 0.3, green: 0.3, blue: 0.3),
        ]
        let looks = (0..<series).map { GraphSeriesStyle(color: palette[$0 % palette.count]) }
        let clock = ManualClock()
        let host = try LayerHost(width: Int(Double(width) * scale), height: Int(Double(height) * scale), scale: scale, clock: clock)
        let graph = StreamingGraphLayer(series: looks, capacity: Int(rate * seconds) + 16)
        graph.contentsScale = scale
        graph.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        graph.pointsPerSample = pointsPerSample ?? Double(width - 40) / (window * rate)
        graph.sampleRate = rate
        graph.motion = motion == "sweep" ? .sweep : .scroll
        host.rootLayer.addSublayer(graph)
        var generators = (0..<series).map { StreamSignalGenerator(StreamSignal(rawValue: signal)!, rate: rate, series: $0) }
        let totalFrames = Int((seconds * 60).rounded(.up))
        var owed = 0.0, appended = 0, written = 0
        var times: [Double] = []
        let cpu0 = cpuSeconds()
        frames: for f in 0..<totalFrames {
            let start = DispatchTime.now().uptimeNanoseconds
            owed += rate / 60
            var rows: [[Double]] = []
            while owed >= 1 {
                owed -= 1
                if input != nil {
                    guard let row = input!.next() else { break }
                    rows.append(row)
                } else {
                    rows.append((0..<series).map { generators[$0].next() })
                }
            }
            if rows.isEmpty && input?.ended == true { break frames }
            graph.append(contentsOf: rows)
            appended += rows.count
            graph.waitUntilDrawn()
            host.advance()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            if let frames, f % every == 0 {
                try host.writePNG(to: "\(frames)/frame-\(String(format: "%05d", f)).png")
                written += 1
            }
        }
        let cpu = cpuSeconds() - cpu0
        if let input, input.lines == 0 { throw StreamInputError.empty }
        try host.writePNG(to: out)
        let duration = Double(times.count) / 60
        print(
            String(
                format: "frames %d (%d written), samples %d per series; frame time p50 %.3f ms, p99 %.3f ms, max %.3f ms; "
                    + "over budget %d; CPU %.1f %% of one core over %.2f s of stream",
                times.count, written, appended, percentile(times, 0.5), percentile(times, 0.99), times.max() ?? 0,
                times.filter { $0 > 1000.0 / 60 }.count,
                duration > 0 ? 100 * cpu / duration : 0, duration))
        print("wrote \(out)")
    }
}

/// Lines of numbers from standard input, one row a line, read in 64 KB
/// pieces; a line over 1 MB keeps its first megabyte (and says so).
struct LineReader {
    let series: Int
    private(set) var lines = 0
    private(set) var ended = false
    private var splitter = LineSplitter()
    private var queued: [(text: String, isTruncated: Bool)] = []

    init(series: Int) { self.series = series }

    mutating func next() -> [Double]? {
        while queued.isEmpty && !ended {
            let piece = FileHandle.standardInput.readData(ofLength: 1 << 16)
            if piece.isEmpty {
                ended = true
                if let last = splitter.finish() { queued.append(last) }
            } else {
                queued += splitter.feed(piece)
            }
        }
        guard !queued.isEmpty else { return nil }
        let line = queued.removeFirst()
        lines += 1
        var (row, problems) = SampleLineParser.parse(line.text, lineNumber: lines, series: series)
        if line.isTruncated { problems.insert("line \(lines): longer than 1 MB; only its first megabyte read", at: 0) }
        for message in problems { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        return row
    }
}

/// What is wrong with `strata stream`'s input (not with its options, so no
/// usage is printed after the message).
enum StreamInputError: Error, CustomStringConvertible {
    case empty

    var description: String {
        switch self {
        case .empty: "standard input had no lines: nothing to draw"
        }
    }
}
