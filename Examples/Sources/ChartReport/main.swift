// A two-page PDF report and an SVG figure from the same drawing calls as
// pixels: a title, a Health-style chart of a week of heart rate (vectors
// and real, selectable text), and a table of the readings.
// swift run --package-path Examples ChartReport [report.pdf] [chart.svg]
import Foundation
import StrataCharts
import StrataDocuments
import StrataGraphics
import StrataText

let readings: [Double] = [62, 70, 66, 81, 76, 90, 84, 73, 79, 68, 72, 77, 85, 71]
let data = LineChartData([LineChartSeries(name: "Heart rate", y: readings)])
var options = ChartPicture.Options()
options.width = 500
options.height = 260
options.title = "Resting heart rate, two weeks"
options.showsAverage = true

/// Text at a point, in DejaVu Sans.
func write(_ text: String, size: Double, weight: FontWeight = .regular, at point: Point, on canvas: Canvas) {
    let attributes = TextAttributes(font: Font(family: "DejaVu Sans", size: size, weight: weight), foregroundColor: Color(white: 0.1))
    canvas.draw(TextLayout(AttributedText(text, attributes: attributes), width: 500), at: point)
}

let document = PDFDocument(info: .init(title: "Heart rate report", author: "Strata", creator: "ChartReport"))

// Page 1: the title and the chart, placed on an A4 page (595 × 842 points).
let page = try document.beginPage(size: Size(width: 595, height: 842))
write("Heart rate report", size: 24, weight: .bold, at: Point(x: 48, y: 48), on: page)
write("Fourteen mornings, measured at rest.", size: 12, at: Point(x: 48, y: 84), on: page)
page.saveGState()
page.translateBy(x: 48, y: 120)
ChartPicture.draw(data, options: options, in: page)
page.restoreGState()

// Page 2: the readings as a table.
let table = try document.beginPage(size: Size(width: 595, height: 842))
write("Readings", size: 18, weight: .bold, at: Point(x: 48, y: 48), on: table)
for (day, bpm) in readings.enumerated() {
    let y = 90 + Double(day) * 22
    if day % 2 == 0 {
        table.fillColor = Color(white: 0.95)
        table.fill(Rect(x: 44, y: y - 4, width: 260, height: 22))
    }
    write("Day \(day + 1)", size: 12, at: Point(x: 52, y: y), on: table)
    write("\(Int(bpm)) bpm", size: 12, at: Point(x: 200, y: y), on: table)
}

let arguments = CommandLine.arguments.dropFirst()
let pdfPath = arguments.first ?? "report.pdf"
try document.write(to: pdfPath)
print("wrote \(pdfPath) (\(document.pageCount) pages)")

// The chart alone as an SVG figure, for a web page.
let figure = try SVGDocument(size: ChartPicture.size(options), title: "Resting heart rate")
ChartPicture.draw(data, options: options, in: figure.canvas)
let svgPath = arguments.dropFirst().first ?? "chart.svg"
try figure.write(to: svgPath)
print("wrote \(svgPath)")
