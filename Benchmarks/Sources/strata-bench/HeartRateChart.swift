import Foundation
import StrataCharts
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataText

extension ChartPicture {
    /// The heart-rate chart of `../shared/bench/CHARTS.md`, the one
    /// matplotlib draws in `charts.py`: 1200 × 600, the plot at (48, 84,
    /// 1056, 456), a red line over a gradient fading to the bottom of the
    /// plot, the y range the data's widened by 5 % each way, value labels
    /// on the right, a dashed average labelled `avg`, x ticks with an axis
    /// line and dashed grid, the title over the plot at its left.
    public static func heartRate(_ data: LineChartData, title: String = "Heart rate") throws -> Image {
        let host = try LayerHost(width: 1200, height: 600, scale: 1, backgroundColor: .white)
        let chart = LineChartLayer()
        chart.frame = Rect(x: 0, y: 0, width: 1200, height: 600)
        configureHeartRate(chart, data: data, title: title)
        host.rootLayer.addSublayer(chart)
        host.renderFrame()
        return host.makeImage()
    }

    /// Sets `chart` up as CHARTS.md's heart-rate chart of `data`.
    public static func configureHeartRate(_ chart: LineChartLayer, data: LineChartData, title: String = "Heart rate") {
        let red = Color(red: 1, green: 59 / 255.0, blue: 48 / 255.0)
        let grey = Color(red: 0x8E / 255.0, green: 0x8E / 255.0, blue: 0x93 / 255.0)
        let points = data.series.first?.count ?? 0
        chart.styles = [
            LineChartSeriesStyle(
                color: red, lineWidth: 2, mode: .linear, nodeRadius: points <= 50 ? 4 : 0,
                fillColor: red.withAlphaComponent(0), fillTopColor: red.withAlphaComponent(0.8))
        ]
        chart.maximumNodesPerPoint = .infinity
        chart.backgroundColor = .white
        chart.setViewPortOffsets(left: 48, top: 84, right: 96, bottom: 60)
        chart.layoutMargins = EdgeInsets(top: 44, left: 48, bottom: 0, right: 0)
        chart.yAxisPosition = .right
        chart.labelFont = Font(family: "DejaVu Sans", size: 12)
        chart.labelColor = grey
        chart.gridColor = Color(red: 0xE5 / 255.0, green: 0xE5 / 255.0, blue: 0xEA / 255.0)
        chart.showsXGridLines = true
        chart.xGridLineDashPattern = [3, 3]
        chart.xAxisLineColor = Color(red: 0xC7 / 255.0, green: 0xC7 / 255.0, blue: 0xCC / 255.0)
        chart.xTickLength = 5
        chart.title = title
        chart.titleFont = Font(family: "DejaVu Sans", size: 22, weight: .bold)
        chart.titleColor = .black
        chart.showsAverageLine = true
        chart.averageLineLabel = "avg"
        chart.averageLineColor = grey
        chart.averageLineDashPattern = [6, 4]
        chart.averageLabelPosition = .start
        chart.averageLabelBackgroundColor = .white
        // matplotlib's default margins: the data's range widened by 5 % each way.
        if let r = data.yRange() {
            let pad = 0.05 * (r.upperBound - r.lowerBound)
            chart.yRange = (r.lowerBound - pad)...(r.upperBound + pad)
        }
        chart.data = data
    }
}
