import ArgumentParser
import Dispatch
import Foundation
import StrataCharts
import StrataDemos
import StrataDocuments
import StrataGraphics

struct ChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "Draws a line chart of columns of a CSV file as a PNG.",
        discussion: """
            x and y name columns by header name or by number from 1. x may be numbers or ISO 8601 \
            dates (2026-01-31, 2026-01-31T08:30:00, with fractions and a zone; without a zone, UTC), \
            or dates in --date-format; the rows need not be in order of x. Without --x, x is the \
            first column whose first value is a date (an ISO 8601 one, or one in --date-format, \
            which one column then must match), among the first 1,000, otherwise the row number \
            from 0. Without --y, every other \
            column whose first value is a number, or that has none in the first rows (a series that \
            starts later), is a series, at most 30: ten distinct colours, then the same colours \
            dashed, then dotted; a column named twice in --y is drawn once. An empty cell, NaN, \
            NA, N/A, null or #N/A is a gap in the line. Column names longer than 200 characters are \
            cut there.

            Files as published read too: lines starting with # before the header are comments \
            (--comment to change the character or turn them off, --comments-anywhere to skip them \
            among the rows too); blank lines are skipped; a first line of numbers is the first row, \
            not a header (--header to say), and the columns are then named column 1, column 2, …; \
            the delimiter is found from the first lines (a comma, a tab, a semicolon, or runs of \
            spaces, as numpy's savetxt writes) unless --delimiter gives it.

            Date axes show the year on the first label and where it changes. Large and small \
            values are labelled readably (12,500, 2.5M, 40µ).

            Anything else that is not a number, a date that does not parse, a short row, a missing \
            column, an empty file or one with no rows is an error naming the file, line and column; \
            the exit status is then 65 (66 when the file cannot be opened, 73 when the PNG cannot be \
            written) and no PNG is written. Files that take more than a second to read show a \
            progress bar on standard error (a terminal only).
            """)

    @Argument(help: "The CSV file.")
    var file: String

    @Option(help: "The x column (name or number from 1).")
    var x: String?

    @Option(help: "The y columns, separated by commas (names or numbers from 1).")
    var y: String?

    @Option(help: "A DateFormatter pattern for x (e.g. 'dd/MM/yyyy HH:mm'), read in UTC.")
    var dateFormat: String?

    @Option(help: "The field delimiter: one ASCII character, tab, whitespace (runs of spaces and tabs) or auto.")
    var delimiter = "auto"

    @Option(help: "The comment character (lines starting with it before the header are skipped); none turns comments off.")
    var comment = "#"

    @Flag(help: "Skip comment lines among the rows too.")
    var commentsAnywhere = false

    @Option(help: "Whether the first line names the columns: yes, no or auto (a first line of numbers is a row).")
    var header = "auto"

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

    @Option(help: "Where to write the chart: a PNG, or by its extension a PDF (.pdf) or SVG (.svg) of vectors and text.")
    var out = "chart.png"

    @Flag(help: "No progress bar.")
    var quiet = false

    static let modes: [String: LineChartMode] = [
        "linear": .linear, "monotone": .monotone, "step-start": .stepStart, "step-center": .stepCenter,
        "step-end": .stepEnd, "cubic": .cubicBezier(intensity: 0.2), "horizontal-bezier": .horizontalBezier,
        "catmull-rom": .catmullRom(alpha: 0.5),
    ]
    static let headers: [String: CSVHeader] = ["auto": .automatic, "yes": .present, "no": .absent]

    /// The delimiter `--delimiter` names, or nil.
    static func delimiter(_ text: String) -> CSVDelimiter? {
        switch text {
        case "auto": return .automatic
        case "whitespace", "space", "spaces": return .whitespace
        case "tab", "\\t": return .character("\t")
        default:
            guard text.count == 1, let c = text.first, c.isASCII, c != "\"", c != "\n", c != "\r" else { return nil }
            return .character(c)
        }
    }

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
        guard Self.delimiter(delimiter) != nil else {
            throw ValidationError("--delimiter must be one ASCII character other than a quote, tab, whitespace or auto")
        }
        guard comment == "none" || comment.isEmpty || comment.count == 1 && comment.first!.isASCII && !" \t\"".contains(comment) else {
            throw ValidationError("--comment must be one ASCII character other than a space or a quote, or none")
        }
        guard Self.headers[header] != nil else { throw ValidationError("--header must be yes, no or auto") }
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
        request.format = CSVFormat(
            delimiter: Self.delimiter(delimiter)!, header: Self.headers[header]!,
            comment: comment == "none" || comment.isEmpty ? nil : comment.first, commentsAnywhere: commentsAnywhere)
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
            switch URL(fileURLWithPath: out).pathExtension.lowercased() {
            case "pdf", "svg":
                let (data, options) = try CSVChart.chart(request) { fraction in
                    if showsProgress { bar.update(fraction) }
                }
                try Self.writeDocument(data, options: options, title: title ?? URL(fileURLWithPath: file).lastPathComponent, to: out)
            default:
                try CSVChart.write(request, to: out) { fraction in
                    if showsProgress { bar.update(fraction) }
                }
            }
            bar.finish()
        } catch let error as CSVError {
            bar.finish()
            FileHandle.standardError.write("strata chart: \(error)\n".data(using: .utf8)!)
            throw ExitCode(CSVChart.exitStatus(for: error, request: request))
        }
    }
}

extension ChartCommand {
    /// Writes the chart as a PDF or SVG document (by `out`'s extension) of
    /// its size in points, beside `out` and renamed onto it, so a failure
    /// leaves no document (and an older `out` untouched).
    @MainActor
    static func writeDocument(_ data: LineChartData, options: ChartPicture.Options, title: String, to out: String) throws {
        let size = ChartPicture.size(options)
        let bytes: Data
        if out.lowercased().hasSuffix(".pdf") {
            let document = PDFDocument(info: .init(title: title, creator: "strata chart"))
            ChartPicture.draw(data, options: options, in: try document.beginPage(size: size))
            bytes = document.makeData()
        } else {
            let document = try SVGDocument(size: size, title: title)
            ChartPicture.draw(data, options: options, in: document.canvas)
            bytes = document.makeData()
        }
        try CSVChart.writeReplacing(out, with: bytes)
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
