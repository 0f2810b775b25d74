import Foundation
import StrataGraphics
import StrataLayers

// What a line chart tells assistive tools, as Apple's Audio Graphs and
// Swift Charts describe charts: its title, a summary of its series and
// ranges, and its points, each with its x and y, where it is drawn.
extension LineChartLayer: AccessibilityDescribingLayer {
    /// The most points per series a screen reader steps through: a chart
    /// of millions of points offers this many, evenly spread over the
    /// shown range (each the point at its place), as Audio Graphs does.
    public static let maximumAccessibilityPointsPerSeries = 100

    /// The title (or "Line chart"), a summary ("2 series: Heart rate,
    /// Resting. X from Jan 1, 2026 to Apr 30, 2026. Y from 48 to 180."),
    /// and the shown points as items.
    public var layerAccessibility: LayerAccessibility? {
        let shown = data.series.filter { $0.count > 0 }
        guard !shown.isEmpty else {
            return LayerAccessibility(label: title ?? "Line chart", summary: "No data", isChart: true, items: [])
        }
        let xRange = shownXRange, yRange = shownYRange
        let names = shown.map { $0.name.isEmpty ? "Unnamed" : $0.name }
        var summary = shown.count == 1 ? "1 series" : "\(shown.count) series"
        summary += ": \(names.joined(separator: ", ")). "
        summary += "X from \(xText(xRange.lowerBound)) to \(xText(xRange.upperBound)). "
        if let dataY = data.yRange(inX: xRange) {
            summary += "Y from \(Self.valueText(dataY.lowerBound)) to \(Self.valueText(dataY.upperBound))."
        }
        let map = PlotMapping(plot: plotRect, xRange: xRange, yRange: yRange)
        var items: [LayerAccessibility.Item] = []
        for series in data.series where series.count > 0 {
            let lo = series.insertionIndex(xRange.lowerBound), hi = series.upperIndex(xRange.upperBound)
            guard lo < hi else { continue }
            let n = hi - lo, count = min(n, Self.maximumAccessibilityPointsPerSeries)
            for k in 0..<count {
                let i = count == 1 ? lo : lo + Int((Double(k) * Double(n - 1) / Double(count - 1)).rounded())
                let y = series.y[i]
                guard y.isFinite else { continue }
                let x = series.x[i]
                let center = Point(x: plotRect.minX + map.x(x), y: plotRect.minY + map.y(y))
                let name = series.name.isEmpty ? "" : "\(series.name), "
                items.append(
                    LayerAccessibility.Item(
                        label: "\(name)\(xText(x))", value: Self.valueText(y), frame: Rect(x: center.x - 2, y: center.y - 2, width: 4, height: 4)))
            }
        }
        return LayerAccessibility(label: title ?? "Line chart", summary: summary, isChart: true, items: items)
    }

    /// An x value as text: a date (and time when it has one) for date
    /// axes, else a number as labels write it.
    private func xText(_ x: Double) -> String {
        guard xIsDate, x.isFinite, abs(x) < 1e11 else { return Self.valueText(x) }
        let f = DateFormatter()
        f.calendar = calendar
        f.timeZone = calendar.timeZone
        f.locale = Locale(identifier: "en_US_POSIX")
        let date = Date(timeIntervalSince1970: x)
        let midnight = calendar.startOfDay(for: date) == date
        f.dateFormat = midnight ? "MMM d, yyyy" : "MMM d, yyyy HH:mm"
        return f.string(from: date)
    }
}
