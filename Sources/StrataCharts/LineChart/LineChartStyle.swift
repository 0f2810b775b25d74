import Foundation
import StrataGraphics
import StrataLayers
import StrataText

/// How a line chart draws a series.
public struct LineChartSeriesStyle: Sendable, Hashable {
    public var color: Color
    public var lineWidth: Double
    public var mode: LineChartMode
    /// The radius of the circles at the points (0: none).
    public var nodeRadius: Double
    /// The radius of the hole in each circle (0: solid), and its colour. The
    /// hole is drawn over the line, so the line stops at its rim.
    public var nodeHoleRadius: Double
    public var nodeHoleColor: Color
    /// The fill under the line down to `fillBaseline` (nil: the bottom of the
    /// plot): a colour, or a gradient from `fillTopColor` at the top of the
    /// plot to `fillColor` at the bottom. nil `fillColor`: no fill.
    public var fillColor: Color?
    public var fillTopColor: Color?
    public var fillBaseline: Double?
    /// Fill between this series and series `fillToSeries` instead of down
    /// to the baseline (a band, such as a range of normal values). Gaps are
    /// bridged in the band. nil: to the baseline.
    public var fillToSeries: Int?
    /// Each node's colour, by point index, repeating (DGCharts'
    /// `circleColors`); empty: all in `color`.
    public var nodeColors: [Color] = []
    /// The line coloured by value: each stop's colour at its y value,
    /// blended between stops and held past the ends (a heart rate red above
    /// 100 and green below 60). Empty: all in `color`.
    public var lineGradient: [LineChartColorStop] = []
    /// The line's dashes: on and off lengths in points (DGCharts'
    /// `lineDashLengths`); empty for a solid line. Lengths that are not
    /// finite or are negative make it solid.
    public var lineDashPattern: [Double] = [] {
        didSet {
            if !lineDashPattern.allSatisfy({ $0.isFinite && $0 >= 0 }) || lineDashPattern.allSatisfy({ $0 == 0 }) {
                if !lineDashPattern.isEmpty { lineDashPattern = [] }
            }
        }
    }

    public init(
        color: Color, lineWidth: Double = 2, mode: LineChartMode = .linear, nodeRadius: Double = 0,
        nodeHoleRadius: Double = 0, nodeHoleColor: Color = .white, fillColor: Color? = nil, fillTopColor: Color? = nil,
        fillBaseline: Double? = nil
    ) {
        self.color = color
        self.lineWidth = lineWidth.isFinite ? Swift.min(64, Swift.max(0, lineWidth)) : 2
        self.mode = mode
        self.nodeRadius = nodeRadius.isFinite ? Swift.min(64, Swift.max(0, nodeRadius)) : 0
        self.nodeHoleRadius = nodeHoleRadius.isFinite ? Swift.min(self.nodeRadius, Swift.max(0, nodeHoleRadius)) : 0
        self.nodeHoleColor = nodeHoleColor
        self.fillColor = fillColor
        self.fillTopColor = fillTopColor
        self.fillBaseline = fillBaseline.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The Apple Health look: a red line with white-centred nodes and a red
    /// fill fading downward.
    public static let health = LineChartSeriesStyle(
        color: Color(red: 0.98, green: 0.18, blue: 0.33), lineWidth: 2.5, mode: .monotone, nodeRadius: 4.5,
        nodeHoleRadius: 2.5, fillColor: Color(red: 0.98, green: 0.18, blue: 0.33, alpha: 0),
        fillTopColor: Color(red: 0.98, green: 0.18, blue: 0.33, alpha: 0.35))
}

/// A colour at a value, for a line coloured by value.
public struct LineChartColorStop: Sendable, Hashable {
    public var value: Double
    public var color: Color
    public init(_ value: Double, _ color: Color) {
        self.value = value
        self.color = color
    }
}

/// Colours for a whole chart: background, text, grid, and the series'
/// styles in turn.
public struct LineChartTheme: Sendable, Hashable {
    public var background: Color
    public var labelColor: Color
    public var titleColor: Color
    public var gridColor: Color?
    public var highlightColor: Color
    public var styles: [LineChartSeriesStyle]

    public init(
        background: Color, labelColor: Color, titleColor: Color, gridColor: Color?, highlightColor: Color,
        styles: [LineChartSeriesStyle]
    ) {
        self.background = background
        self.labelColor = labelColor
        self.titleColor = titleColor
        self.gridColor = gridColor
        self.highlightColor = highlightColor
        self.styles = styles
    }

    /// The Health app's look: white, a red monotone line with hollow nodes
    /// and a fading fill.
    public static let health = LineChartTheme(
        background: .white, labelColor: Color(white: 0.45), titleColor: Color(red: 0.98, green: 0.18, blue: 0.33),
        gridColor: Color(white: 0.9), highlightColor: Color(white: 0.35), styles: [.health])

    /// Ten colours told apart at a glance, in the order of the usual
    /// ten-colour cycle (blue, orange, green, red, purple, brown, pink, grey,
    /// olive, cyan), as matplotlib and Tableau order theirs.
    public static let palette: [Color] = [
        Color(red: 0.1, green: 0.45, blue: 0.9), Color(red: 0.95, green: 0.45, blue: 0.1), Color(red: 0.1, green: 0.6, blue: 0.3),
        Color(red: 0.85, green: 0.2, blue: 0.3), Color(red: 0.6, green: 0.3, blue: 0.8), Color(red: 0.55, green: 0.35, blue: 0.25),
        Color(red: 0.9, green: 0.45, blue: 0.75), Color(red: 0.5, green: 0.5, blue: 0.5), Color(red: 0.7, green: 0.7, blue: 0.1),
        Color(red: 0.1, green: 0.75, blue: 0.85),
    ]

    /// The dashes series take once the colours have all been used: solid,
    /// then dashed, then dotted, then dash-dot.
    public static let dashCycle: [[Double]] = [[], [7, 4], [1.5, 3], [8, 3, 1.5, 3]]

    /// Styles for `count` series: the theme's own, then the palette's
    /// colours the theme's styles do not already use (nor one close to
    /// them), in the look of the theme's last style; once every colour has
    /// been used, the same colours again dashed, then dotted, then dash-dot
    /// (`dashCycle`), so that at least ten series are told apart by colour
    /// and forty by colour and dash.
    public func styles(count: Int) -> [LineChartSeriesStyle] {
        let count = Swift.max(0, Swift.min(count, 100_000))
        guard count > styles.count else { return Array(styles.prefix(count)) }
        var out = styles
        let template = styles.last ?? LineChartSeriesStyle(color: Self.palette[0], lineWidth: 2, mode: .monotone)
        func distance(_ a: Color, _ b: Color) -> Double {
            let dr = a.red - b.red, dg = a.green - b.green, db = a.blue - b.blue
            return (dr * dr + dg * dg + db * db).squareRoot()
        }
        // The theme's colours, then the palette's others (lightened on a dark background).
        let isDark = background.red + background.green + background.blue < 1.5
        let lighten = { (c: Color) in
            isDark ? Color(red: 0.3 + 0.7 * c.red, green: 0.3 + 0.7 * c.green, blue: 0.3 + 0.7 * c.blue) : c
        }
        var colors = styles.map(\.color)
        for c in Self.palette.map(lighten) where !colors.contains(where: { distance($0, c) < 0.2 }) { colors.append(c) }
        var k = styles.count
        while out.count < count {
            let round = k / colors.count
            var s = template
            s.color = colors[k % colors.count]
            s.fillColor = nil
            s.fillTopColor = nil
            s.nodeColors = []
            s.lineGradient = []
            s.fillToSeries = nil
            s.lineDashPattern = Self.dashCycle[round % Self.dashCycle.count]
            out.append(s)
            k += 1
        }
        return out
    }

    /// Light: white, lines of ten distinct colours.
    public static let light = LineChartTheme(
        background: .white, labelColor: Color(white: 0.4), titleColor: .black, gridColor: Color(white: 0.9),
        highlightColor: Color(white: 0.3), styles: palette.map { LineChartSeriesStyle(color: $0, lineWidth: 2, mode: .monotone) })

    /// Dark: near black, the same lines a little lighter.
    public static let dark = LineChartTheme(
        background: Color(white: 0.1), labelColor: Color(white: 0.65), titleColor: .white, gridColor: Color(white: 0.22),
        highlightColor: Color(white: 0.7),
        styles: palette.map {
            LineChartSeriesStyle(
                color: Color(red: 0.3 + 0.7 * $0.red, green: 0.3 + 0.7 * $0.green, blue: 0.3 + 0.7 * $0.blue), lineWidth: 2,
                mode: .monotone, nodeHoleColor: Color(white: 0.1))
        })
}
