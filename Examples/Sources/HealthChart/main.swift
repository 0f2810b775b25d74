// A Health-style line chart of one column of a CSV file, as a PNG:
// swift run --package-path Examples HealthChart [data.csv [column [out.png]]]
// The file needs a header; its first column is x (numbers or ISO 8601 dates).
// Without a file, a week of made-up resting heart rates is drawn.
import Foundation
import StrataCharts
import StrataGraphics
import StrataLayers

/// Draws `series` as the Health app draws heart rate, 800 × 400 points at
/// 2 pixels a point, and writes it to `out` as a PNG.
@MainActor
func writeHealthChart(of series: LineChartSeries, datesOnX: Bool, to out: String) throws {
    let host = try LayerHost(width: 1600, height: 800, scale: 2, backgroundColor: .white)
    let chart = LineChartLayer()
    chart.frame = Rect(x: 0, y: 0, width: 800, height: 400)
    chart.contentsScale = host.scale
    chart.apply(.health)
    chart.title = series.name
    chart.xIsDate = datesOnX
    chart.showsAverageLine = true
    chart.data = LineChartData([series])
    host.rootLayer.addSublayer(chart)
    host.renderFrame()
    try host.writePNG(to: out)
}

/// A CSV file's column against its first column, or a made-up week.
func readSeries(_ arguments: [String]) throws -> (series: LineChartSeries, datesOnX: Bool) {
    guard let path = arguments.first else {
        // Seven days from 28 November 2025, midnight UTC.
        let week = (0..<7).map { Date(timeIntervalSinceReferenceDate: 785_980_800 + Double($0) * 86_400) }
        let series = LineChartSeries(name: "Resting heart rate", dates: week, y: [62, 64, 61, 66, 63, 60, 59])
        return (series, true)
    }
    var reader = try CSVColumnReader(path: path)
    let column = try reader.columnIndex(arguments.count > 1 ? arguments[1] : "2")
    let values = try reader.readColumns([(index: 0, kind: .automatic), (index: column, kind: .number)])
    return (LineChartSeries(name: reader.header[column], x: values[0], y: values[1]), reader.resolvedKinds.first == .isoDate)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let (series, datesOnX) = try readSeries(arguments)
    let out = arguments.count > 2 ? arguments[2] : "chart.png"
    try MainActor.assumeIsolated { try writeHealthChart(of: series, datesOnX: datesOnX, to: out) }
    print("wrote \(out)")
} catch {
    // A bad file's error names its line and column: a message, not a crash.
    print("HealthChart: \(error)")
    exit(1)
}
