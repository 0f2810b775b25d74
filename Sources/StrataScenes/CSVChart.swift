import Foundation
import StrataCharts
import StrataGraphics

/// `strata chart`: a line chart of columns of a CSV file, as a PNG.
@MainActor
public enum CSVChart {
    /// What to draw and how.
    public struct Request: Sendable {
        public var file: String
        /// The x column (name or number from 1); nil: the first column when
        /// its first cell is a date, otherwise the row number from 0.
        public var x: String?
        /// The y columns; nil: every other column whose first cell is a
        /// number (at most eight).
        public var y: [String]?
        /// A `DateFormatter` pattern for x (nil: numbers or ISO 8601 dates).
        public var dateFormat: String?
        public var delimiter: Character = ","
        public var options = ChartPicture.Options()

        public init(file: String) { self.file = file }
    }

    /// Reads the file and draws the chart.
    /// - Parameter progress: called with the fraction of the file read.
    /// - Throws: `CSVError` for a file that cannot be read or holds
    ///   something other than what the chart needs, naming the line and
    ///   column.
    public static func image(_ request: Request, progress: ((Double) -> Void)? = nil) throws -> Image {
        let file = request.file
        var reader = try CSVColumnReader(path: file, delimiter: request.delimiter)
        guard let first = try reader.peekRow() else {
            throw CSVError(file: file, line: 2, message: "the file has a header but no rows: nothing to draw")
        }
        var xIndex: Int?
        if let x = request.x { xIndex = try reader.columnIndex(x) }
        var yIndices: [Int]
        if let y = request.y {
            yIndices = []
            for name in y { yIndices.append(try reader.columnIndex(name.trimmingCharacters(in: .whitespaces))) }
            guard !yIndices.isEmpty else { throw CSVError(file: file, message: "no y column was given") }
        } else {
            func bytes(_ s: String) -> [UInt8] { Array(s.trimmingCharacters(in: .whitespaces).utf8) }
            func isDate(_ s: String) -> Bool { bytes(s).withUnsafeBufferPointer { CSVNumbers.parseISODate($0, 0, $0.count) != nil } }
            func isNumber(_ s: String) -> Bool { bytes(s).withUnsafeBufferPointer { CSVNumbers.parseDouble($0, 0, $0.count) != nil } }
            if xIndex == nil, request.dateFormat != nil || first.first.map(isDate) == true { xIndex = 0 }
            yIndices = Array(first.indices.filter { $0 != xIndex && isNumber(first[$0]) }.prefix(8))
            guard !yIndices.isEmpty else {
                throw CSVError(
                    file: file, line: 2,
                    message: "no column of numbers in the first row (name one with --y; the header has \(reader.header.joined(separator: ", ")))")
            }
        }
        var columns: [(index: Int, kind: CSVColumnKind)] = yIndices.map { ($0, .number) }
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
        let series = yIndices.enumerated().map { k, i in
            LineChartSeries(name: reader.header.indices.contains(i) ? reader.header[i] : "column \(i + 1)", x: xs, y: values[k])
        }
        if series.allSatisfy({ $0.gapCount == $0.count }) {
            throw CSVError(file: file, message: "every value of \(series.map(\.name).joined(separator: ", ")) is empty: nothing to draw")
        }
        var options = request.options
        options.xIsDate = xIndex != nil && reader.resolvedKinds.last != .number
        return try ChartPicture.render(LineChartData(series), options: options)
    }

    /// Draws the chart and writes it to `out` as a PNG (`PNGEncoding.fast`).
    /// The file is written beside `out` and renamed onto it, so a failure
    /// at any point leaves no PNG (and an older `out` untouched).
    public static func write(_ request: Request, to out: String, progress: ((Double) -> Void)? = nil) throws {
        let png = try image(request, progress: progress).pngData(.fast)
        let target = URL(fileURLWithPath: out)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(png).write(to: temporary)
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
