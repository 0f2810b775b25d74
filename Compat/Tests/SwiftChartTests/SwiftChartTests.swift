import Foundation
import StrataGraphics
import StrataTestSupport
import SwiftChart
import Testing
import UIKit

// SwiftChart's example app, its charts set up in code (its storyboard and
// `@IBOutlet`s cannot exist on Linux): each `configure…` does what the
// example's view controller does in `viewDidLoad` for that chart, with the
// example's data. The charts are SwiftChart's own code, built unchanged
// from ../shared/compat-corpus; they render in an offscreen `UIWindow`.

/// The chart's size in the example app's portrait layout, in points.
let chartFrame = CGRect(x: 0, y: 0, width: 375, height: 260)

let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources").path
let exampleFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Corpus/SwiftChartExample").standardized.path

/// Records what the chart tells its delegate.
@MainActor
final class TouchLog: @MainActor ChartDelegate {
    var touched: [(indexes: [Int?], x: Double, left: CGFloat)] = []
    var finished = 0
    var ended = 0

    func didTouchChart(_ chart: Chart, indexes: [Int?], x: Double, left: CGFloat) { touched.append((indexes, x, left)) }
    func didFinishTouchingChart(_ chart: Chart) { finished += 1 }
    func didEndTouchingChart(_ chart: Chart) { ended += 1 }
}

/// The example's first four charts (`BasicChartViewController`, cases 0 to 3).
@MainActor
func configureBasic(_ chart: Chart, case selected: Int) {
    switch selected {
    case 0:
        let series = ChartSeries(data: [(x: 0, y: 0), (x: 3, y: 2.5), (x: 4, y: 2), (x: 5, y: 2.3), (x: 7, y: 3), (x: 8, y: 2.2), (x: 9, y: 2.5)])
        series.area = true
        chart.xLabels = [0, 3, 6, 9, 12, 15, 18, 21, 24]
        chart.xLabelsFormatter = { String(Int(round($1))) + "h" }
        chart.add(series)
    case 1:
        let first = ChartSeries([0, 6, 2, 8, 4, 7, 3, 10, 8])
        first.color = ChartColors.yellowColor()
        first.area = true
        let second = ChartSeries([1, 0, 0.5, 0.2, 0, 1, 0.8, 0.3, 1])
        second.color = ChartColors.redColor()
        second.area = true
        let third = ChartSeries([9, 8, 10, 8.5, 9.5, 10])
        third.color = ChartColors.purpleColor()
        chart.add([first, second, third])
    case 2:
        let series = ChartSeries([0, -2, -2, 3, -3, 4, 1, 0, -1])
        series.colors = (above: ChartColors.greenColor(), below: ChartColors.yellowColor(), zeroLevel: -1)
        series.area = true
        chart.add(series)
        chart.minY = -7
        chart.maxY = 7
        chart.yLabelsFormatter = { String(Int($1)) + "ºC" }
    default:
        let series = ChartSeries(data: [(x: 0, y: 0), (x: 0.5, y: 3.1), (x: 1.2, y: 2), (x: 2.1, y: -4.2), (x: 2.6, y: 1.1)])
        chart.add(series)
    }
}

/// The example's stock chart (`StockChartViewController.initializeChart`),
/// from its AAPL.json.
@MainActor
func configureStock(_ chart: Chart) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: exampleFolder + "/AAPL.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let quotes = try #require(json["quotes"] as? [[String: Any]])
    let parse = DateFormatter()
    parse.dateFormat = "yyyy-MM-dd"
    parse.locale = Locale(identifier: "en_US_POSIX")
    let month = DateFormatter()
    month.dateFormat = "MM"
    month.locale = Locale(identifier: "en_US_POSIX")
    var values: [Double] = [], labels: [Double] = [], names: [String] = []
    for (i, quote) in quotes.enumerated() {
        let close = try #require((quote["close"] as? NSNumber)?.doubleValue)
        let day = try #require(quote["date"] as? String)
        let date = try #require(parse.date(from: day))
        values.append(close)
        let m = try #require(Int(month.string(from: date)))
        let name = month.monthSymbols[m - 1]
        if labels.isEmpty || names.last != name {
            labels.append(Double(i))
            names.append(name)
        }
    }
    let series = ChartSeries(values)
    series.area = true
    chart.lineWidth = 0.5
    chart.labelFont = UIFont.systemFont(ofSize: 12)
    chart.xLabels = labels
    chart.xLabelsFormatter = { index, _ in names[index] }
    chart.xLabelsTextAlignment = .center
    chart.yLabelsOnRightSide = true
    chart.minY = values.min()! - 5
    chart.add(series)
}

/// A shown window holding `chart` in its view controller's view: offscreen,
/// or on the X11 display named.
@MainActor
func show(_ chart: Chart, onDisplay display: String? = nil) -> UIWindow {
    let window = UIWindow(frame: chartFrame)
    window.displayName = display
    let controller = UIViewController()
    controller.view.frame = chartFrame
    controller.view.backgroundColor = .white
    chart.frame = controller.view.bounds
    chart.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    controller.view.addSubview(chart)
    window.rootViewController = controller
    window.makeKeyAndVisible()
    return window
}

/// Runs what the chart queued on the main queue (`series`' `didSet`
/// redraws asynchronously), then renders.
@MainActor
func settle(_ window: UIWindow) async throws -> Image {
    try await Task.sleep(for: .milliseconds(20))
    let image = try #require(window.snapshotImage()?.pngData())
    return try Image(pngData: [UInt8](image))
}

@MainActor
@Suite("SwiftChart, built unchanged, rendered headless")
struct SwiftChartTests {
    @Test("The example's charts match their references", arguments: 0..<5)
    func exampleChart(_ index: Int) async throws {
        let chart = Chart(frame: chartFrame)
        if index < 4 { configureBasic(chart, case: index) } else { try configureStock(chart) }
        let window = show(chart)
        let image = try await settle(window)
        try expectImage(image, matchesGolden: "\(resources)/chart-\(index).png", mean: 0.5, over8: 0.5)
        // The labels are UILabels the chart adds as subviews while it draws.
        #expect(chart.subviews.contains { $0 is UILabel })
    }

    @Test("Touching the chart selects the value under the pointer and draws the highlight line")
    func touchSelection() async throws {
        let chart = Chart(frame: chartFrame)
        configureBasic(chart, case: 1)
        let log = TouchLog()
        chart.delegate = log
        let window = show(chart)
        let before = try await settle(window)
        // Series 1 has 9 points over 375 points: x = 3 is at 3 × 375 / 8.
        let left = 3 * 375.0 / 8 + 2
        window.sendTouch(.began, at: CGPoint(x: left, y: 100))
        window.sendTouch(.moved, at: CGPoint(x: left + 1, y: 120))
        let touched = try #require(log.touched.last)
        #expect(log.touched.count == 2)
        #expect(touched.indexes == [3, 3, 3])
        #expect(abs(touched.x - 8 * (left + 1) / 375) < 1e-9)
        #expect(touched.left == CGFloat(left + 1))
        #expect(chart.valueForSeries(0, atIndex: touched.indexes[0]) == 8)
        // The highlight line is drawn at the touch, top to bottom, and
        // nothing else changes.
        let highlighted = try await settle(window)
        var changedColumns = Set<Int>(), changedRows = Set<Int>()
        for y in 0..<before.height {
            for x in 0..<before.width where before[x, y] != highlighted[x, y] {
                changedColumns.insert(x)
                changedRows.insert(y)
            }
        }
        let column = Int(left + 1)
        #expect(!changedColumns.isEmpty && changedColumns.isSubset(of: Set(column - 1...column + 1)))
        #expect(changedRows.count > 200)
        window.sendTouch(.ended, at: CGPoint(x: left + 1, y: 120))
        #expect(log.ended == 1)
        // Dragged off the plot's right edge, the chart says the touch finished.
        window.sendTouch(.began, at: CGPoint(x: 370, y: 100))
        window.sendTouch(.moved, at: CGPoint(x: 390, y: 100))
        #expect(log.finished == 1)
        window.sendTouch(.ended, at: CGPoint(x: 390, y: 100))
        #expect(log.ended == 2)
    }
}
