import Foundation
import StrataGraphics

/// A line chart of columns of a CSV file, as an image or a PNG: what
/// `strata chart` draws. The columns and the x axis are chosen as the
/// file's first rows suggest unless the request names them.
///
/// ```swift
/// var request = CSVChart.Request(file: "weight.csv")
/// request.y = ["kg"]
/// try CSVChart.write(request, to: "weight.png")
/// ```
@MainActor
public enum CSVChart {
    /// What to draw and how.
    public struct Request: Sendable {
        public var file: String
        /// The x column (name or number from 1); nil: the first column whose
        /// first value is a date (an ISO 8601 one, or one in `dateFormat`),
        /// among the first `xSearchColumns`, otherwise the row number from 0.
        public var x: String?
        /// The y columns (a column named twice is drawn once); nil: every
        /// other column whose first value in the first rows is a number, or
        /// that has no value there (a series that starts later), at most
        /// `maximumAutomaticSeries`.
        public var y: [String]?
        /// A `DateFormatter` pattern for x (nil: numbers or ISO 8601 dates).
        /// Without `x`, it says a column holds the dates: the first whose
        /// first value parses in it (an error when none does).
        public var dateFormat: String?
        /// The file's delimiter, header and comments.
        public var format = CSVFormat()
        public var options = ChartPicture.Options()

        public init(file: String) { self.file = file }
    }

    /// The most series drawn when none are named: three looks (solid,
    /// dashed, dotted) of the ten colours.
    public static let maximumAutomaticSeries = 30

    /// The columns looked at for dates to be x, from the first (a
    /// `DateFormatter` a column: a line of a million fields took 25 s).
    public static let xSearchColumns = 1_000

    /// The rows looked at to choose the columns (at most as many as the
    /// first 4 MB of the file hold).
    static let sampleRows = 10_000

    /// Reads the file and draws the chart.
    /// - Parameters:
    ///   - request: the file, its columns and the picture's options.
    ///   - progress: called with the fraction of the file read.
    /// - Throws: `CSVError` for a file that cannot be read or holds
    ///   something other than what the chart needs, naming the line and
    ///   column.
    public static func image(_ request: Request, progress: ((Double) -> Void)? = nil) throws -> Image {
        let (data, options) = try chart(request, progress: progress)
        return try ChartPicture.render(data, options: options)
    }

    /// Reads the file: the chart's series and its options, to draw as an
    /// image (`image(_:progress:)`) or into any canvas
    /// (`ChartPicture.draw(_:options:in:)`, a PDF page or SVG drawing).
    /// - Throws: `CSVError`, as `image(_:progress:)`.
    public static func chart(_ request: Request, progress: ((Double) -> Void)? = nil) throws -> (
        data: LineChartData, options: ChartPicture.Options
    ) {
        let file = request.file
        var reader = try CSVColumnReader(path: file, format: request.format)
        let sample = try reader.peekRows(limit: sampleRows)
        guard !sample.isEmpty else {
            throw CSVError(file: file, line: 2, message: "the file has a header but no rows: nothing to draw")
        }
        /// Column `i`'s first value in the sample that is not a gap, and what it reads as.
        func firstValue(_ i: Int) -> (text: String, value: CSVNumbers.CellValue)? {
            for row in sample where i < row.count {
                if let value = CSVNumbers.classify(row[i]), value != .missing {
                    return (row[i].trimmingCharacters(in: .whitespaces), value)
                }
            }
            return nil
        }
        var xIndex: Int?
        if let x = request.x { xIndex = try reader.columnIndex(x) }
        var yIndices: [Int]?
        if let y = request.y {
            // A column named twice is read and drawn once.
            var named: [Int] = []
            for name in y {
                let i = try reader.columnIndex(name.trimmingCharacters(in: .whitespaces))
                if !named.contains(i) { named.append(i) }
            }
            guard !named.isEmpty else { throw CSVError(file: file, message: "no y column was given") }
            yIndices = named
        }
        // Without --x, x is the first column that holds dates: ISO ones, or
        // ones in the date format when it is given (then one must).
        if xIndex == nil {
            let candidates = reader.header.indices.prefix(xSearchColumns).filter { yIndices?.contains($0) != true }
            if let format = request.dateFormat {
                let formatter = CSVNumbers.dateFormatter(format)
                xIndex = candidates.first { firstValue($0).map { formatter.date(from: $0.text) != nil } == true }
                guard xIndex != nil else {
                    let first = candidates.first.flatMap(firstValue)?.text ?? ""
                    throw CSVError(
                        file: file, column: candidates.first.map { $0 + 1 }, columnName: candidates.first.map { reader.header[$0] },
                        message:
                            "'\(first.prefix(60))' is not a date in the format '\(format)', and no other column's first value is "
                            + "(name the column of dates with --x)")
                }
            } else {
                xIndex = candidates.first { firstValue($0)?.value == .isoDate }
            }
        }
        var columns: [(index: Int, kind: CSVColumnKind)]
        if let yIndices {
            columns = yIndices.map { ($0, .number) }
        } else {
            // A series is a column whose first value is a number, or one with
            // no value in the first rows (it starts later; a column that then
            // holds text is left out).
            columns = []
            let width = sample.map(\.count).max() ?? 0
            for i in reader.header.indices where i != xIndex && i < width {
                // The first `maximumAutomaticSeries` are kept: look no further.
                if columns.count == maximumAutomaticSeries { break }
                if let first = firstValue(i) {
                    if first.value == .number { columns.append((i, .number)) }
                } else {
                    columns.append((i, .numberIfAll))
                }
            }
            guard !columns.isEmpty else {
                throw CSVError(
                    file: file, line: 2,
                    message:
                        "no column of numbers in the first rows (name one with --y; the header has \(reader.headerDescription))")
            }
        }
        let yCount = columns.count
        if let xIndex { columns.append((xIndex, request.dateFormat.map { .date(format: $0) } ?? .automatic)) }
        let values = try reader.readColumns(columns, progress: progress)
        guard let count = values.first?.count, count > 0 else {
            throw CSVError(file: file, line: 2, message: "the file has a header but no rows: nothing to draw")
        }
        let xs: [Double] = xIndex == nil ? (0..<count).map(Double.init) : values[values.count - 1]
        if xIndex != nil, let gap = xs.firstIndex(where: { $0.isNaN }) {
            throw CSVError(
                file: file, column: xIndex! + 1, columnName: reader.header[xIndex!],
                message: "x is empty or missing in data row \(gap + 1); every row needs an x")
        }
        var series: [LineChartSeries] = []
        for k in 0..<yCount {
            let (i, kind) = columns[k]
            // Columns chosen by looking that held text, or nothing, are not series.
            if kind == .numberIfAll, reader.droppedColumns.contains(i) || values[k].allSatisfy(\.isNaN) { continue }
            series.append(LineChartSeries(name: reader.header.indices.contains(i) ? reader.header[i] : "column \(i + 1)", x: xs, y: values[k]))
        }
        if series.isEmpty {
            throw CSVError(
                file: file, line: 2,
                message: "no column of numbers (name one with --y; the header has \(reader.headerDescription))")
        }
        if series.allSatisfy({ $0.gapCount == $0.count }) {
            throw CSVError(file: file, message: "every value of \(series.map(\.name).joined(separator: ", ")) is empty: nothing to draw")
        }
        var options = request.options
        options.xIsDate = xIndex != nil && reader.resolvedKinds.last != .number
        return (LineChartData(series), options)
    }

    /// Draws the chart and writes it to `out` as a PNG (`PNGEncoding.fast`).
    /// The file is written beside `out` and renamed onto it, so a failure
    /// at any point leaves no PNG (and an older `out` untouched).
    public static func write(_ request: Request, to out: String, progress: ((Double) -> Void)? = nil) throws {
        let png = try image(request, progress: progress).pngData(.fast)
        try writeReplacing(out, with: Data(png))
    }

    /// Writes `bytes` beside `out` and renames the file onto it, so a
    /// failure at any point leaves no partial file (and an older `out`
    /// untouched).
    /// - Throws: `CSVError` naming `out` when it cannot be written.
    public static func writeReplacing(_ out: String, with bytes: Data) throws {
        let target = URL(fileURLWithPath: out)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp")
        do {
            try bytes.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CSVError(file: out, message: "cannot be written (\(error.localizedDescription))")
        }
        if rename(temporary.path, target.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CSVError(file: out, message: "cannot be written (\(reason))")
        }
    }

    /// The exit status for an error of `write`: 66 (EX_NOINPUT) when the CSV
    /// file cannot be opened, 73 (EX_CANTCREAT) when the PNG cannot be
    /// written, 65 (EX_DATAERR) for anything wrong in the data.
    public static func exitStatus(for error: CSVError, request: Request) -> Int32 {
        if error.file != request.file { return 73 }
        if error.line == nil,
            error.message == "no such file" || error.message.hasPrefix("cannot be opened") || error.message.hasPrefix("is a directory")
        {
            return 66
        }
        return 65
    }
}
