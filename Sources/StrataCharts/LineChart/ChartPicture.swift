import Foundation
import StrataGraphics
import StrataLayers
import StrataText

/// Line charts rendered straight to a picture, with no window or layer tree
/// of the caller's: what ``CSVChart`` and `strata chart` draw.
@MainActor
public enum ChartPicture {
    /// The picture's size, look and extras.
    public struct Options: Sendable {
        public var width = 1200
        public var height = 600
        public var scale = 1.0
        public var theme = LineChartTheme.health
        /// The line mode for every series (nil: the theme's).
        public var mode: LineChartMode?
        public var title: String?
        public var showsAverage = false
        /// x values are dates (seconds since the reference date), shown on a
        /// calendar axis in `calendar`.
        public var xIsDate = false
        public var calendar = Calendar.gregorianUTC

        public init() {}
    }

    /// A line chart of `data` as `options` say: the theme's look, a legend
    /// when there are several named series, the title, the average line.
    public static func render(_ data: LineChartData, options: Options) throws -> Image {
        let host = try LayerHost(
            width: options.width, height: options.height, scale: options.scale, backgroundColor: options.theme.background)
        host.rootLayer.addSublayer(chartLayer(data, options: options, scale: host.scale))
        host.renderFrame()
        return host.makeImage()
    }

    /// The picture's size in points: its pixels over its scale.
    public static func size(_ options: Options) -> Size {
        let scale = options.scale.isFinite && options.scale > 0 ? options.scale : 1
        return Size(width: Double(options.width) / scale, height: Double(options.height) / scale)
    }

    /// Draws the chart into `canvas` at its size in points (`size(_:)`), its
    /// background included: on a PDF page or an SVG drawing, the chart's
    /// lines, fills, grid and labels stay vectors and text.
    public static func draw(_ data: LineChartData, options: Options, in canvas: Canvas) {
        let size = size(options)
        let root = Layer()
        Transaction.begin()
        Transaction.disableActions = true
        root.frame = Rect(x: 0, y: 0, width: size.width, height: size.height)
        root.backgroundColor = options.theme.background
        root.addSublayer(chartLayer(data, options: options, scale: options.scale))
        Transaction.commit()
        root.render(in: canvas, rasterScale: max(2, options.scale))
    }

    /// The chart's layer for `data` with `options`, `scale` pixels a point.
    static func chartLayer(_ data: LineChartData, options: Options, scale: Double) -> LineChartLayer {
        let chart = LineChartLayer()
        chart.frame = Rect(x: 0, y: 0, width: Double(options.width) / scale, height: Double(options.height) / scale)
        chart.contentsScale = scale
        chart.apply(options.theme)
        // More series than the theme has styles: the palette's other
        // colours, then the same dashed (ten told apart by colour alone).
        if data.series.count > chart.styles.count { chart.styles = options.theme.styles(count: data.series.count) }
        if let mode = options.mode {
            chart.styles = chart.styles.map {
                var s = $0; s.mode = mode; return s
            }
        }
        chart.layoutMargins = EdgeInsets(top: 16, left: 16, bottom: 12, right: 20)
        chart.title = options.title
        chart.showsAverageLine = options.showsAverage
        chart.xIsDate = options.xIsDate
        chart.calendar = options.calendar
        if data.series.count > 1 { chart.legendPosition = .top }
        chart.dataChangeDuration = 0
        chart.data = data
        return chart
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC with the POSIX locale: ``ChartPicture``'s,
    /// the gallery's and `strata chart`'s, so pictures do not change with the machine's
    /// zone.
    package static var gregorianUTC: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        c.locale = Locale(identifier: "en_US_POSIX")
        return c
    }
}
