import ArgumentParser
import Dispatch
import Foundation
import StrataCharts
import StrataScenes

struct ChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Draws a line chart of columns of a CSV file as a PNG.",
        discussion: """
            The file needs a header line of column names. --x and --y name columns by header \
            name or by number from 1. x may be numbers or ISO 8601 dates (2026-01-31, \
            2026-01-31T08:30:00, with fractions and a zone; without a zone, UTC), or dates in \
            --date-format; the rows need not be in order of x. Without --x, the first column \
            is x when its first cell is a date, otherwise x is the row number from 0; without \
            --y, every other column whose first cell is a number is a series (at most eight). \
            An empty cell, NaN or NA is a gap in the line. Anything else that is not a number, \
            a date that does not parse, a short row, a missing column, an empty file or one \
            with no rows is an error naming the file, line and column; the exit status is then \
            65 (66 when the file cannot be opened, 73 when the PNG cannot be written) and no PNG is \
            written. Files that take more \
            than a second to read show a progress bar on standard error (a terminal only).
            """)

    @Argument(help: "The CSV file.")
    var file: String

    @Option(help: "The x column (name or number from 1).")
    var x: String?

    @Option(help: "The y columns, separated by commas (names or numbers from 1).")
    var y: String?

    @Option(help: "A DateFormatter pattern for x (e.g. 'dd/MM/yyyy HH:mm'), read in UTC.")
    var dateFormat: String?

    @Option(help: "The field delimiter.")
    var delimiter = ","

    @Option(help: "Width in pixels.")
    var width = 1200

    @Option(help: "Height in pixels.")
    var height = 600

    @Option(help: "Pixels per point.")
    var scale = 1.0

    @Option(help: "linear, monotone, step-start, step-center, step-end, cubic, horizontal-bezier, catmull-rom.")
    var mode: String?

    @Option(help: "A title over the chart.")
    var title: String?

    @Option(help: "health, light or dark.")
    var theme = "health"

    @Flag(help: "Draw a dashed line at the first series' average.")
    var average = false

    @Option(help: "Where to write the PNG.")
    var out = "chart.png"

    @Flag(help: "No progress bar.")
    var quiet = false

    static let modes: [String: LineChartMode] = [
        "linear": .linear, "monotone": .monotone, "step-start": .stepStart, "step-center": .stepCenter,
        "step-end": .stepEnd, "cubic": .cubicBezier(intensity: 0.2), "horizontal-bezier": .horizontalBezier,
        "catmull-rom": .catmullRom(alpha: 0.5),
    ]
    static let themes: [String: LineChartTheme] = ["health": .health, "light": .light, "dark": .dark]

    func validate() throws {
        guard (16...16_384).contains(width), (16...16_384).contains(height) else {
            throw ValidationError("--width and --height must be between 16 and 16,384")
        }
        guard scale.isFinite, scale >= 0.5, scale <= 4 else { throw ValidationError("--scale must be between 0.5 and 4") }
        if let mode, Self.modes[mode] == nil {
            throw ValidationError("unknown --mode '\(mode)' (one of \(Self.modes.keys.sorted().joined(separator: ", ")))")
        }
        guard Self.themes[theme] != nil else { throw ValidationError("unknown --theme '\(theme)' (health, light or dark)") }
        guard delimiter.count == 1, let c = delimiter.first, c.isASCII else {
            throw ValidationError("--delimiter must be one ASCII character")
        }
        guard !out.isEmpty else { throw ValidationError("--out needs a path") }
    }

    func run() throws {
        try MainActor.assumeIsolated { try chart() }
    }

    @MainActor
    func chart() throws {
        var request = CSVChart.Request(file: file)
        request.x = x
        request.y = y.map { $0.split(separator: ",").map(String.init) }
        request.dateFormat = dateFormat
        request.delimiter = delimiter.first!
        request.options.width = width
        request.options.height = height
        request.options.scale = scale
        request.options.theme = Self.themes[theme]!
        request.options.mode = mode.flatMap { Self.modes[$0] }
        request.options.title = title
        request.options.showsAverage = average
        let started = DispatchTime.now().uptimeNanoseconds
        var bar = ProgressBar(label: "reading \(URL(fileURLWithPath: file).lastPathComponent)", started: started)
        let showsProgress = !quiet && isatty(STDERR_FILENO) != 0
        do {
            try CSVChart.write(request, to: out) { fraction in
                if showsProgress { bar.update(fraction) }
            }
            bar.finish()
        } catch let error as CSVError {
            bar.finish()
            FileHandle.standardError.write("strata chart: \(error)\n".data(using: .utf8)!)
            throw ExitCode(CSVChart.exitStatus(for: error, request: request))
        }
    }
}

/// A progress bar on standard error, drawn once a task has run a second.
struct ProgressBar {
    let label: String
    let started: UInt64
    private var shown = false
    private var lastPercent = -1

    init(label: String, started: UInt64) {
        self.label = label
        self.started = started
    }

    mutating func update(_ fraction: Double) {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard elapsed >= 1 || shown else { return }
        let f = Swift.min(1, Swift.max(0, fraction))
        let percent = Int(f * 100)
        guard percent != lastPercent else { return }
        lastPercent = percent
        shown = true
        let width = 30, filled = Int(f * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = String(format: "\r%@ [%@] %3d%%", label, bar, percent)
        FileHandle.standardError.write(line.data(using: .utf8)!)
    }

    /// Clears the bar's line, if it was drawn.
    func finish() {
        if shown { FileHandle.standardError.write("\r\u{1B}[K".data(using: .utf8)!) }
    }
}
