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

/// A horizontal or vertical line across the plot at a value: a target, a
/// threshold, an average (DGCharts' `ChartLimitLine`, Swift Charts'
/// `RuleMark`).
public struct LimitLine: Sendable, Hashable {
    public enum Axis: Sendable, Hashable {
        /// Across the plot at a y value.
        case y
        /// Down the plot at an x value.
        case x
    }
    /// Where its label sits: a corner of the line's span, above or below it
    /// (left or right of it for a vertical line).
    /// The corners are beside the line; `start` and `end` are on it,
    /// centred across it, at its start (a horizontal line's left end, a
    /// vertical line's top) or its end.
    public enum LabelPosition: Sendable, Hashable { case topLeft, topRight, bottomLeft, bottomRight, start, end }

    public var axis: Axis
    public var value: Double
    public var label: String
    public var labelPosition: LabelPosition
    public var color: Color
    public var lineWidth: Double
    /// Dash and gap lengths; empty for a solid line.
    public var dashPattern: [Double]
    /// Drawn under the series instead of over them.
    public var isBehindData: Bool
    /// A capsule behind the label, so it reads over the data (nil: none).
    public var labelBackgroundColor: Color?

    public init(
        _ axis: Axis = .y, at value: Double, label: String = "", labelPosition: LabelPosition = .topRight,
        color: Color = Color(white: 0.55), lineWidth: Double = 1, dashPattern: [Double] = [4, 3], isBehindData: Bool = false,
        labelBackgroundColor: Color? = nil
    ) {
        self.labelBackgroundColor = labelBackgroundColor
        self.axis = axis
        self.value = value
        self.label = label
        self.labelPosition = labelPosition
        self.color = color
        self.lineWidth = lineWidth.isFinite ? Swift.min(16, Swift.max(0, lineWidth)) : 1
        self.dashPattern = dashPattern.allSatisfy { $0.isFinite && $0 >= 0 } ? dashPattern : []
        self.isBehindData = isBehindData
    }
}

/// The shape a legend entry shows beside a series' name.
public enum LegendForm: Sendable, Hashable { case line, circle, square }

/// Which side of the plot a line chart's value axis is on.
public enum YAxisPosition: Sendable, Hashable { case left, right }

/// Which side of the plot a line chart's x axis is on.
public enum XAxisPosition: Sendable, Hashable { case bottom, top }

/// Where a line chart's legend sits.
public enum LegendPosition: Sendable, Hashable { case top, bottom }

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

/// A line chart as a tree of layers (the first step of issue 16): per series
/// a fill (a gradient layer masked by a shape layer of the area under the
/// line, so it is clipped to that area exactly), the line (a shape layer,
/// whose `strokeEnd` can be animated to draw it in) and its nodes; value
/// labels on the left, x labels along the bottom (dates when `xIsDate`),
/// grid lines, and a dashed line at the average.
///
/// Dense series draw the M4 points of each pixel column
/// (`LineChartSeries.visibleIndices`), the same picture as every point; their
/// nodes are hidden when there are more points than `maxNodesPerPoint` per
/// point of width.
@MainActor
open class LineChartLayer: Layer {
    /// The series and how each is drawn (extra styles are ignored; missing
    /// ones repeat the last, or `.health`).
    public var data = LineChartData([]) {
        didSet {
            animatesNextLayout = true
            setNeedsLayout()
        }
    }
    public var styles: [LineChartSeriesStyle] = [.health] { didSet { setNeedsLayout() } }
    /// x values are dates (seconds since the reference date): calendar ticks.
    public var xIsDate = false { didSet { setNeedsLayout() } }
    public var calendar = Calendar.current { didSet { setNeedsLayout() } }
    /// The x range shown (nil: all the data's).
    public var visibleXRange: ClosedRange<Double>? { didSet { setNeedsLayout() } }
    /// The y range shown (nil: the visible data's, widened to nice ticks).
    public var yRange: ClosedRange<Double>? { didSet { setNeedsLayout() } }
    public var labelFont = Font(size: 11) { didSet { setNeedsLayout() } }
    public var labelColor = Color(white: 0.45) { didSet { setNeedsLayout() } }
    public var gridColor: Color? = Color(white: 0.9) { didSet { setNeedsLayout() } }
    /// The dashes of the horizontal grid lines (at the value ticks) and of
    /// the vertical ones (at the x ticks), on and off lengths in points;
    /// empty for solid lines.
    public var yGridLineDashPattern: [Double] = [] { didSet { setNeedsLayout() } }
    public var xGridLineDashPattern: [Double] = [] { didSet { setNeedsLayout() } }
    /// Whether vertical grid lines are drawn at the x ticks (in `gridColor`).
    public var showsXGridLines = false { didSet { setNeedsLayout() } }
    /// The side the value labels are on, and the side the x labels are on.
    public var yAxisPosition = YAxisPosition.left { didSet { setNeedsLayout() } }
    public var xAxisPosition = XAxisPosition.bottom { didSet { setNeedsLayout() } }
    /// A line along the x axis, with tick marks `xTickLength` long at the x
    /// ticks (outward, held to 0…100); nil for none.
    public var xAxisLineColor: Color? { didSet { setNeedsLayout() } }
    public var xTickLength = 0.0 {
        didSet {
            let held = xTickLength.isFinite ? Swift.min(100, Swift.max(0, xTickLength)) : 0
            if held != xTickLength { xTickLength = held }
            setNeedsLayout()
        }
    }
    /// The x labels' rotation in degrees (negative: counterclockwise, the
    /// usual −45 for long dates), held to −90…90. Rotated labels are thinned
    /// by the width they take along the axis.
    public var xLabelRotation = 0.0 {
        didSet {
            let held = xLabelRotation.isFinite ? Swift.min(90, Swift.max(-90, xLabelRotation)) : 0
            if held != xLabelRotation { xLabelRotation = held }
            setNeedsLayout()
        }
    }
    /// A dashed line at the average of the first series' visible points,
    /// labelled "Average" (the seed's line, in one call).
    public var showsAverageLine = false { didSet { setNeedsLayout() } }
    public var averageLineColor = Color(white: 0.55) { didSet { setNeedsLayout() } }
    public var averageLineDashPattern: [Double] = [4, 3] { didSet { setNeedsLayout() } }
    /// The average line's label, and where it sits on the line.
    public var averageLineLabel = "Average" { didSet { setNeedsLayout() } }
    public var averageLabelPosition = LimitLine.LabelPosition.topLeft { didSet { setNeedsLayout() } }
    /// A capsule behind the average line's label (nil: none).
    public var averageLabelBackgroundColor: Color? { didSet { setNeedsLayout() } }
    /// Lines at given values, with labels.
    public var limitLines: [LimitLine] = [] { didSet { setNeedsLayout() } }
    /// The highlighted point (series, index), with a vertical line through
    /// it and a callout of its value; nil for none. Set by `highlight(x:)`.
    public var highlightedPoint: (series: Int, index: Int)? { didSet { setNeedsLayout() } }
    public var highlightColor = Color(white: 0.35) { didSet { setNeedsLayout() } }
    /// Space left empty around the chart, in points (`UIView.layoutMargins`),
    /// each edge held to 0…100,000 (NaN is 0). Default: 8 all round.
    public var layoutMargins = EdgeInsets(all: 8) {
        didSet {
            let held = Self.held(layoutMargins)
            if held != layoutMargins { layoutMargins = held }
            setNeedsLayout()
        }
    }

    /// The margins as a rectangle whose origin is the left and top margins
    /// and whose size is the right and bottom ones.
    @available(*, deprecated, renamed: "layoutMargins", message: "use layoutMargins, an EdgeInsets")
    public var insets: Rect {
        get { Rect(x: layoutMargins.left, y: layoutMargins.top, width: layoutMargins.right, height: layoutMargins.bottom) }
        set {
            layoutMargins = EdgeInsets(top: newValue.origin.y, left: newValue.origin.x, bottom: newValue.size.height, right: newValue.size.width)
        }
    }
    /// A title over the plot, at its left; nil for none.
    public var title: String? { didSet { setNeedsLayout() } }
    public var titleFont = Font(size: 15, weight: .bold) { didSet { setNeedsLayout() } }
    public var titleColor = Color.black { didSet { setNeedsLayout() } }
    /// Where the legend sits (nil: none). Entries are the series' names
    /// (unnamed series are left out) beside `legendForm` in their colours.
    public var legendPosition: LegendPosition? { didSet { setNeedsLayout() } }
    public var legendForm = LegendForm.line { didSet { setNeedsLayout() } }

    /// Applies a theme: background, label, title, grid and highlight
    /// colours, and the series' styles.
    public func apply(_ theme: LineChartTheme) {
        backgroundColor = theme.background
        labelColor = theme.labelColor
        titleColor = theme.titleColor
        gridColor = theme.gridColor
        highlightColor = theme.highlightColor
        styles = theme.styles
    }

    /// Whether each point's value is written above it. Labels that would
    /// overlap one already placed (or leave the plot) are dropped, and none
    /// are written for more than `maxValueLabels` visible points.
    public var showsValues = false { didSet { setNeedsLayout() } }
    public var maxValueLabels = 100 { didSet { setNeedsLayout() } }
    public var valueFont = Font(size: 10) { didSet { setNeedsLayout() } }
    /// The value labels placed at the last layout (for tests and hit-testing).
    public private(set) var valueLabelFrames: [Rect] = []

    /// Above this many points per point of width, nodes are not drawn.
    public var maxNodesPerPoint = 0.25 { didSet { setNeedsLayout() } }
    /// Whether dense series draw each pixel column's M4 points (the same
    /// picture, within anti-aliasing) rather than every point.
    public var decimatesDenseSeries = true { didSet { setNeedsLayout() } }

    /// The x labels' text for a tick value (a date's seconds since the
    /// reference date on a date axis); nil: the scale's own labels.
    public var xLabelFormatter: ((Double) -> String)? { didSet { setNeedsLayout() } }
    /// The value labels' text for a tick value; nil: the scale's.
    public var yLabelFormatter: ((Double) -> String)? { didSet { setNeedsLayout() } }
    /// The highlight callout's text for a point (series, index); nil: the
    /// value, after the series' name (DGCharts' marker).
    public var markerText: ((_ series: Int, _ index: Int) -> String)? { didSet { setNeedsLayout() } }

    func yLabel(_ v: Double, _ scale: NiceScale) -> String { yLabelFormatter?(v) ?? scale.label(for: v) }

    /// The plot's rectangle in the layer, as last laid out.
    public private(set) var plotRect = Rect.zero

    /// Fixed distances from the layer's edges to the plot, in points, each
    /// held to 0…100,000 (NaN is 0); nil (the default): the plot takes what
    /// the title, legend and labels leave. Labels then sit outside the plot
    /// within them. DGCharts calls these the view port offsets.
    public var viewPortInsets: EdgeInsets? {
        didSet {
            if let insets = viewPortInsets, Self.held(insets) != insets { viewPortInsets = Self.held(insets) }
            setNeedsLayout()
        }
    }

    /// The view port insets as DGCharts gives them.
    @available(*, deprecated, renamed: "viewPortInsets")
    public var viewPortOffsets: (left: Double, top: Double, right: Double, bottom: Double)? {
        viewPortInsets.map { ($0.left, $0.top, $0.right, $0.bottom) }
    }

    /// Distances from the edges (insets, offsets) held to 0…100,000, NaN as 0.
    static func held(_ insets: EdgeInsets) -> EdgeInsets {
        func held(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(100_000, Swift.max(0, v)) }
        return EdgeInsets(top: held(insets.top), left: held(insets.left), bottom: held(insets.bottom), right: held(insets.right))
    }

    /// Fixes the plot's distances from the layer's edges (DGCharts'
    /// `setViewPortOffsets`): sets `viewPortInsets`.
    public func setViewPortOffsets(left: Double, top: Double, right: Double, bottom: Double) {
        viewPortInsets = EdgeInsets(top: top, left: left, bottom: bottom, right: right)
    }

    /// Lets the plot take what the title, legend and labels leave again
    /// (DGCharts' `resetViewPortOffsets`): `viewPortInsets` to nil.
    public func resetViewPortOffsets() {
        viewPortInsets = nil
    }

    private let gridLayer = ShapeLayer()
    private let xGridLayer = ShapeLayer()
    private let axisLayer = ShapeLayer()
    /// Limit lines under the data, and over it (the average among them).
    private let limitsBehind = Layer()
    private let limitsFront = Layer()
    private var limitLayers: [(line: ShapeLayer, label: TextLayer)] = []
    private let highlightLine = ShapeLayer()
    private let titleLayer = TextLayer()
    private let valueLabels = Layer()
    private var valueLayers: [TextLayer] = []
    private let legendShapes = Layer()
    private var legendLayers: [(form: ShapeLayer, name: TextLayer)] = []
    /// The callout: a rounded box with the text centred in it.
    private let callout = Layer()
    private let calloutText = TextLayer()
    /// The fills and lines, clipped to the plot; the nodes over them, not
    /// clipped (a node on the plot's edge shows whole).
    private let plotLayer = Layer()
    private let nodeLayer = Layer()
    private var seriesLayers:
        [(
            fill: GradientLayer, mask: ShapeLayer, line: ShapeLayer, nodes: ShapeLayer, holes: ShapeLayer, shade: GradientLayer,
            shadeMask: ShapeLayer, colored: Layer
        )] = []
    /// The axis labels (value labels first, then x labels), in use or hidden.
    private(set) var labelLayers: [TextLayer] = []

    public override init() {
        super.init()
        plotLayer.anchorPoint = .zero
        plotLayer.masksToBounds = true
        for l in [gridLayer, xGridLayer, axisLayer, highlightLine] {
            l.anchorPoint = .zero
            l.fillColor = nil
        }
        for l in [limitsBehind, limitsFront, callout] as [Layer] { l.anchorPoint = .zero }
        nodeLayer.anchorPoint = .zero
        addSublayer(gridLayer)
        addSublayer(xGridLayer)
        addSublayer(axisLayer)
        addSublayer(limitsBehind)
        addSublayer(plotLayer)
        addSublayer(limitsFront)
        addSublayer(nodeLayer)
        addSublayer(highlightLine)
        addSublayer(callout)
        calloutText.anchorPoint = .zero
        callout.addSublayer(calloutText)
        titleLayer.anchorPoint = .zero
        legendShapes.anchorPoint = .zero
        valueLabels.anchorPoint = .zero
        addSublayer(valueLabels)
        addSublayer(titleLayer)
        addSublayer(legendShapes)
    }

    public required init(layer: Layer) {
        super.init(layer: layer)
    }

    open override func layoutSublayers() {
        super.layoutSublayers()
        Transaction.perform {
            Transaction.disableActions = true
            layoutChart()
        }
    }

    /// The style of series `s`.
    func style(_ s: Int) -> LineChartSeriesStyle {
        styles.isEmpty ? .health : styles[Swift.min(s, styles.count - 1)]
    }

    private func layoutChart() {
        let b = bounds
        let lineHeight = textSize("0", font: labelFont).height
        let xRange = visibleXRange ?? data.xRange ?? 0...1
        let scale: NiceScale
        if let yRange {
            scale = NiceScale(exactly: yRange.lowerBound, yRange.upperBound, step: NiceScale(covering: yRange.lowerBound, yRange.upperBound).step)
        } else {
            let dataY = data.yRange(inX: xRange) ?? 0...1
            scale = NiceScale(covering: Swift.min(dataY.lowerBound, style(0).fillBaseline ?? dataY.lowerBound), dataY.upperBound, ticks: 5)
        }
        laidOutYRange = scale.lower...scale.upper
        let yLabelWidth =
            (scale.ticks.map {
                textSize(yLabel($0, scale), font: labelFont).width
            }.max() ?? 0) + 6
        // On whole device pixels, so that M4's columns are the pixel columns.
        let s = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        func snap(_ v: Double) -> Double { v.isFinite ? (v * s).rounded() / s : 0 }
        // Title and legend take rows above (and the legend may take one below).
        let margins = layoutMargins
        var top = b.minY + margins.top
        let titleHeight =
            title.map {
                textSize($0, font: titleFont).height
            } ?? 0
        titleLayer.isHidden = title == nil
        if let title {
            titleLayer.frame = Rect(x: b.minX + margins.left, y: top, width: Swift.max(0, b.width - margins.horizontal), height: titleHeight)
            titleLayer.attributedString = AttributedText(title, attributes: TextAttributes(font: titleFont, foregroundColor: titleColor))
            top += titleHeight + 6
        }
        let legendHeight = legendHeight(lineHeight: lineHeight)
        if legendPosition == .top {
            layoutLegend(y: top, lineHeight: lineHeight)
            top += legendHeight
        }
        let bottomLegend = legendPosition == .bottom ? legendHeight : 0
        // The x labels' depth across the axis (rotated labels take more).
        let turn = xLabelRotation * .pi / 180
        func makeXLabels(length: Double) -> [AxisLabel] {
            xIsDate
                ? AxisLabels.dates(
                    Date(timeIntervalSinceReferenceDate: xRange.lowerBound), Date(timeIntervalSinceReferenceDate: xRange.upperBound),
                    length: length, font: labelFont, calendar: calendar, rotation: xLabelRotation, format: xLabelFormatter)
                : AxisLabels.values(
                    xRange.lowerBound, xRange.upperBound, length: length, font: labelFont, rotation: xLabelRotation, format: xLabelFormatter)
        }
        let xLabelDepth: Double = {
            guard turn != 0 else { return lineHeight }
            // Measured on labels for about the plot's width.
            let guess = makeXLabels(length: Swift.max(1, b.width - margins.horizontal - yLabelWidth))
            let widest = guess.map { textSize($0.text, font: labelFont).width }.max() ?? 0
            return Swift.min(400, widest * abs(sin(turn)) + lineHeight * abs(cos(turn)))
        }()
        let xAxisSpace = xLabelDepth + 4 + Swift.max(0, xTickLength)
        let plot: Rect
        if let o = viewPortInsets {
            let x0 = snap(b.minX + o.left), y0 = snap(b.minY + o.top)
            plot = Rect(
                x: x0, y: y0, width: Swift.max(0, snap(b.maxX - o.right) - x0), height: Swift.max(0, snap(b.maxY - o.bottom) - y0))
        } else {
            let left = yAxisPosition == .left ? yLabelWidth : 0, right = yAxisPosition == .right ? yLabelWidth : 0
            let above = xAxisPosition == .top ? xAxisSpace : 0, below = xAxisPosition == .bottom ? xAxisSpace : 0
            let x0 = snap(b.minX + margins.left + left), y0 = snap(top + above)
            plot = Rect(
                x: x0, y: y0, width: Swift.max(0, snap(b.maxX - margins.right - right) - x0),
                height: Swift.max(0, snap(b.maxY - margins.bottom - below - bottomLegend) - y0))
        }
        if legendPosition == .bottom { layoutLegend(y: b.maxY - margins.bottom - legendHeight + 6, lineHeight: lineHeight) }
        if legendPosition == nil { legendShapes.isHidden = true }
        plotRect = plot
        plotLayer.frame = plot
        nodeLayer.frame = plot
        let xSpan = xRange.upperBound - xRange.lowerBound
        func px(_ x: Double) -> Double { xSpan > 0 ? (x - xRange.lowerBound) / xSpan * plot.width : plot.width / 2 }
        let ySpan = scale.upper - scale.lower
        func py(_ y: Double) -> Double { ySpan > 0 ? (scale.upper - y) / ySpan * plot.height : plot.height / 2 }

        // Grid and labels.
        var grid = Path()
        var texts: [(String, Rect, TextAlignment, Double)] = []
        for v in scale.ticks {
            let y = (plot.minY + py(v)).rounded() + 0.5
            grid.move(to: Point(x: plot.minX, y: y))
            grid.addLine(to: Point(x: plot.maxX, y: y))
            let labelX = yAxisPosition == .left ? plot.minX - yLabelWidth : plot.maxX + 6
            texts.append(
                (
                    yLabel(v, scale), Rect(x: labelX, y: y - lineHeight / 2, width: yLabelWidth - 6, height: lineHeight),
                    yAxisPosition == .left ? .right : .left, 0
                ))
        }
        let xLabels = makeXLabels(length: plot.width)
        var xGrid = Path(), axis = Path()
        let axisY = xAxisPosition == .bottom ? plot.maxY : plot.minY
        let outward = xAxisPosition == .bottom ? 1.0 : -1.0
        if xAxisLineColor != nil {
            axis.move(to: Point(x: plot.minX, y: axisY + outward * 0.5))
            axis.addLine(to: Point(x: plot.maxX, y: axisY + outward * 0.5))
        }
        let tick = Swift.max(0, xTickLength)
        for l in xLabels {
            let x = (plot.minX + l.position).rounded() + 0.5
            if showsXGridLines {
                xGrid.move(to: Point(x: x, y: plot.minY))
                xGrid.addLine(to: Point(x: x, y: plot.maxY))
            }
            if xAxisLineColor != nil, tick > 0 {
                axis.move(to: Point(x: x, y: axisY))
                axis.addLine(to: Point(x: x, y: axisY + outward * tick))
            }
            let gap = 4 + tick
            if turn == 0 {
                let y = xAxisPosition == .bottom ? plot.maxY + gap : plot.minY - gap - lineHeight
                texts.append((l.text, Rect(x: plot.minX + l.start, y: y, width: l.length + 1, height: lineHeight), .left, 0))
            } else {
                // Rotated about its centre, which sits where the turned box
                // hangs off the axis.
                let size = textSize(l.text, font: labelFont)
                let depth = size.width * abs(sin(turn)) + size.height * abs(cos(turn))
                let cy = xAxisPosition == .bottom ? plot.maxY + gap + depth / 2 : plot.minY - gap - depth / 2
                let cx = plot.minX + l.start + l.length / 2
                texts.append(
                    (
                        l.text, Rect(x: cx - size.width / 2 - 0.5, y: cy - size.height / 2, width: size.width + 1, height: size.height),
                        .center, turn
                    ))
            }
        }
        gridLayer.frame = b
        gridLayer.path = grid
        gridLayer.strokeColor = gridColor
        gridLayer.lineWidth = 1
        gridLayer.lineDashPattern = yGridLineDashPattern
        xGridLayer.frame = b
        xGridLayer.path = xGrid
        xGridLayer.strokeColor = gridColor
        xGridLayer.lineWidth = 1
        xGridLayer.lineDashPattern = xGridLineDashPattern
        axisLayer.frame = b
        axisLayer.path = axis
        axisLayer.strokeColor = xAxisLineColor
        axisLayer.lineWidth = 1
        while labelLayers.count < texts.count {
            let t = TextLayer()
            t.anchorPoint = .zero
            addSublayer(t)
            labelLayers.append(t)
        }
        for (i, t) in labelLayers.enumerated() {
            t.isHidden = i >= texts.count
            guard i < texts.count else { continue }
            t.string = texts[i].0
            let r = texts[i].1
            t.transform = .identity
            if texts[i].3 == 0 {
                t.anchorPoint = .zero
                t.frame = r
            } else {
                // Turned about its centre.
                t.anchorPoint = Point(x: 0.5, y: 0.5)
                t.bounds = Rect(x: 0, y: 0, width: r.width, height: r.height)
                t.position = Point(x: r.midX, y: r.midY)
                t.transform = Transform3D(rotationAngle: texts[i].3, x: 0, y: 0, z: 1)
            }
            t.alignmentMode = texts[i].2
            t.fontSize = labelFont.size
            t.fontFamily = labelFont.family
            t.foregroundColor = labelColor
        }

        // Series.
        while seriesLayers.count < data.series.count {
            let fill = GradientLayer(), mask = ShapeLayer(), line = ShapeLayer(), nodes = ShapeLayer(), holes = ShapeLayer()
            // The line coloured by value: a gradient masked by the stroke.
            let shade = GradientLayer(), shadeMask = ShapeLayer()
            let colored = Layer()
            for l in [fill, line, shade] as [Layer] {
                l.anchorPoint = .zero
                plotLayer.addSublayer(l)
            }
            for l in [nodes, colored, holes] as [Layer] {
                l.anchorPoint = .zero
                nodeLayer.addSublayer(l)
            }
            mask.anchorPoint = .zero
            fill.mask = mask
            shadeMask.anchorPoint = .zero
            shadeMask.fillColor = nil
            shadeMask.strokeColor = .black
            shadeMask.lineJoin = .round
            shadeMask.lineCap = .round
            shade.mask = shadeMask
            line.fillColor = nil
            line.lineJoin = .round
            line.lineCap = .round
            seriesLayers.append((fill, mask, line, nodes, holes, shade, shadeMask, colored))
        }
        // Device columns, for M4 (a plot wider than any bitmap gets a bitmap's worth).
        let columns = Int(Swift.min(16_384, Swift.max(1, (plot.width * contentsScale).rounded(.up))))
        // Every series' runs of points between gaps, in plot coordinates,
        // with their indices (a band's fill needs its partner's).
        var allRuns: [[[Point]]] = [], allRunIndices: [[[Int]]] = []
        for series in data.series {
            let indices = decimatesDenseSeries ? series.visibleIndices(in: xRange, columns: columns) : Array(series.indices(around: xRange))
            var runs: [[Point]] = [[]], runIndices: [[Int]] = [[]]
            for i in indices {
                if series.y[i].isNaN {
                    if !(runs.last?.isEmpty ?? true) {
                        runs.append([])
                        runIndices.append([])
                    }
                } else {
                    runs[runs.count - 1].append(Point(x: px(series.x[i]), y: py(series.y[i])))
                    runIndices[runIndices.count - 1].append(i)
                }
            }
            allRuns.append(runs.filter { !$0.isEmpty })
            allRunIndices.append(runIndices.filter { !$0.isEmpty })
        }
        for (s, layers) in seriesLayers.enumerated() {
            let shown = s < data.series.count
            for l in [layers.fill, layers.line, layers.nodes, layers.holes, layers.shade, layers.colored] as [Layer] {
                l.isHidden = !shown
                l.frame = Rect(x: 0, y: 0, width: plot.width, height: plot.height)
            }
            layers.mask.frame = layers.fill.bounds
            layers.shadeMask.frame = layers.shade.bounds
            guard shown else { continue }
            let look = style(s)
            let runs = allRuns[s]
            let baseY = py(look.fillBaseline ?? scale.lower)
            let pointsShown = runs.reduce(0) { $0 + $1.count }
            // Nodes, unless too dense to tell apart.
            let showNodes = look.nodeRadius > 0 && Double(pointsShown) <= maxNodesPerPoint * plot.width
            let partner = look.fillToSeries.flatMap { $0 != s && allRuns.indices.contains($0) ? allRuns[$0] : nil }
            let shapes = Self.shapes(runs, look: look, baseY: baseY, plotWidth: plot.width, nodes: showNodes, band: partner)
            let before = geometry[s]
            geometry[s] = (runs, baseY, plot.width, showNodes, partner)
            layoutColoredNodes(layers.colored, runs: runs, indices: allRunIndices[s], look: look, show: showNodes, width: plot.width)
            // The line coloured by value: stops placed along the plot's height.
            let stops = look.lineGradient.filter { $0.value.isFinite }.sorted { $0.value > $1.value }
            layers.shade.isHidden = stops.isEmpty
            if let top = stops.first, let bottom = stops.last, plot.height > 0 {
                let y0 = py(top.value) / plot.height, y1 = py(bottom.value) / plot.height
                layers.shade.colors = stops.count == 1 ? [top.color, top.color] : stops.map(\.color)
                layers.shade.startPoint = Point(x: 0.5, y: y0)
                layers.shade.endPoint = Point(x: 0.5, y: y1 > y0 ? y1 : y0 + 1e-9)
                layers.shade.locations =
                    stops.count == 1 || y1 <= y0 ? nil : stops.map { (py($0.value) / plot.height - y0) / (y1 - y0) }
                layers.shadeMask.path = shapes.line
                layers.shadeMask.lineWidth = look.lineWidth
            }
            let old = (layers.line.path, layers.mask.path, layers.nodes.path, layers.holes.path)
            layers.line.path = shapes.line
            layers.line.strokeColor = stops.isEmpty ? look.color : nil
            layers.line.lineWidth = look.lineWidth
            layers.line.lineDashPattern = look.lineDashPattern
            layers.shadeMask.lineDashPattern = look.lineDashPattern
            layers.fill.isHidden = look.fillColor == nil
            if let bottom = look.fillColor {
                layers.fill.colors = [look.fillTopColor ?? bottom, bottom]
                layers.mask.path = shapes.area
                layers.mask.fillColor = .black
            }
            let dots = shapes.dots, holes = shapes.holes
            // A change of data moves the old line to the new one: point by
            // point when both have the same pieces; when points were added or
            // removed (the same runs, other lengths), the shorter run is
            // padded with its last point repeated, so new points grow out of
            // the old end and removed ones shrink into the new end.
            if dataChangeDuration > 0, animatesNextLayout {
                var pairs: [(ShapeLayer, Path, Path)] = [
                    (layers.line, old.0, shapes.line), (layers.mask, old.1, shapes.area), (layers.nodes, old.2, dots),
                    (layers.holes, old.3, holes),
                ]
                if let before, partner == nil, before.band == nil, before.runs.count == runs.count, !runs.isEmpty,
                    before.runs.map(\.count) != runs.map(\.count), before.nodes == showNodes
                {
                    let lengths = zip(before.runs, runs).map { Swift.max($0.count, $1.count) }
                    let from = Self.shapes(before.runs, look: look, baseY: baseY, plotWidth: plot.width, nodes: showNodes, padTo: lengths)
                    let to = Self.shapes(runs, look: look, baseY: baseY, plotWidth: plot.width, nodes: showNodes, padTo: lengths)
                    pairs = [
                        (layers.line, from.line, to.line), (layers.mask, from.area, to.area), (layers.nodes, from.dots, to.dots),
                        (layers.holes, from.holes, to.holes),
                    ]
                }
                for (layer, from, to) in pairs where Self.sameElements(from, to) && from != to {
                    var move = BasicAnimation(keyPath: "path", from: from, to: to)
                    move.timing.duration = dataChangeDuration
                    move.timingFunction = .easeInEaseOut
                    layer.add(move, forKey: "data")
                }
            }
            layers.nodes.path = dots
            layers.nodes.fillColor = look.nodeColors.isEmpty ? look.color : nil
            layers.holes.path = holes
            layers.holes.fillColor = look.nodeHoleColor
        }

        animatesNextLayout = false
        layoutValueLabels(plot: plot, lineHeight: lineHeight, xRange: xRange, px: px, py: py)
        // Limit lines, the average among them.
        var limits = limitLines
        if showsAverageLine, let mean = averageOfFirstSeries(in: xRange) {
            limits.append(
                LimitLine(
                    at: mean, label: averageLineLabel, labelPosition: averageLabelPosition, color: averageLineColor,
                    dashPattern: averageLineDashPattern, labelBackgroundColor: averageLabelBackgroundColor))
        }
        layoutLimits(limits, plot: plot, lineHeight: lineHeight, px: px, py: py)
        layoutHighlight(plot: plot, lineHeight: lineHeight, px: px, py: py)
    }

    /// The mean of the first series' points in `range` (gaps skipped).
    func averageOfFirstSeries(in range: ClosedRange<Double>) -> Double? {
        guard let first = data.series.first else { return nil }
        let a = first.insertionIndex(range.lowerBound)
        return first.yMean(in: a..<Swift.max(a, first.upperIndex(range.upperBound)))
    }

    private func layoutLimits(
        _ limits: [LimitLine], plot: Rect, lineHeight: Double, px: (Double) -> Double, py: (Double) -> Double
    ) {
        while limitLayers.count < limits.count {
            let line = ShapeLayer(), label = TextLayer()
            line.anchorPoint = .zero
            line.fillColor = nil
            label.anchorPoint = .zero
            limitLayers.append((line, label))
        }
        for (i, pair) in limitLayers.enumerated() {
            guard i < limits.count, limits[i].value.isFinite else {
                pair.line.isHidden = true
                pair.label.isHidden = true
                continue
            }
            let limit = limits[i]
            let parent = limit.isBehindData ? limitsBehind : limitsFront
            if pair.line.superlayer !== parent {
                parent.addSublayer(pair.line)
                parent.addSublayer(pair.label)
            }
            var path = Path()
            let padded = limit.labelBackgroundColor != nil
            let labelWidth = textSize(limit.label, font: labelFont).width + (padded ? 12 : 1)
            let labelHeight = lineHeight + (padded ? 2 : 0)
            let left = limit.labelPosition == .topLeft || limit.labelPosition == .bottomLeft
            let top = limit.labelPosition == .topLeft || limit.labelPosition == .topRight
            let onLine = limit.labelPosition == .start || limit.labelPosition == .end
            var labelFrame: Rect
            switch limit.axis {
            case .y:
                let y = (plot.minY + py(limit.value)).rounded() + 0.5
                path.move(to: Point(x: plot.minX, y: y))
                path.addLine(to: Point(x: plot.maxX, y: y))
                labelFrame =
                    onLine
                    ? Rect(
                        x: limit.labelPosition == .start ? plot.minX + 8 : plot.maxX - 8 - labelWidth, y: y - labelHeight / 2,
                        width: labelWidth, height: labelHeight)
                    : Rect(
                        x: left ? plot.minX + 4 : plot.maxX - 4 - labelWidth, y: top ? y - 2 - labelHeight : y + 2,
                        width: labelWidth, height: labelHeight)
            case .x:
                let x = (plot.minX + px(limit.value)).rounded() + 0.5
                path.move(to: Point(x: x, y: plot.minY))
                path.addLine(to: Point(x: x, y: plot.maxY))
                labelFrame =
                    onLine
                    ? Rect(
                        x: x - labelWidth / 2, y: limit.labelPosition == .start ? plot.minY + 8 : plot.maxY - 8 - labelHeight,
                        width: labelWidth, height: labelHeight)
                    : Rect(
                        x: left ? x - 4 - labelWidth : x + 4, y: top ? plot.minY + 2 : plot.maxY - 2 - labelHeight,
                        width: labelWidth, height: labelHeight)
            }
            // Inside the plot: a value outside it shows no line.
            let inside = limit.axis == .y ? (0...plot.height).contains(py(limit.value)) : (0...plot.width).contains(px(limit.value))
            pair.line.isHidden = !inside
            pair.label.isHidden = !inside || limit.label.isEmpty
            pair.line.frame = bounds
            pair.line.path = path
            pair.line.strokeColor = limit.color
            pair.line.lineWidth = limit.lineWidth
            pair.line.lineDashPattern = limit.dashPattern
            pair.label.frame = labelFrame
            pair.label.string = limit.label
            pair.label.fontSize = labelFont.size
            pair.label.fontFamily = labelFont.family
            pair.label.foregroundColor = limit.color
            pair.label.backgroundColor = limit.labelBackgroundColor
            pair.label.cornerRadius = padded ? labelHeight / 2 : 0
            pair.label.alignmentMode = padded ? .center : .left
        }
    }

    /// Highlights the point nearest `x` across the series (what scrubbing
    /// to `x` shows) and returns it; nil, and no highlight, when there is
    /// no point.
    @discardableResult
    public func highlight(x: Double) -> (series: Int, index: Int)? {
        highlightedPoint = data.nearestPoint(toX: x)
        return highlightedPoint
    }

    /// Highlights the point nearest a point in the layer's coordinates (by
    /// x); what a tap or a pointer hovering at `point` selects.
    @discardableResult
    public func highlight(at point: Point) -> (series: Int, index: Int)? {
        guard let x = xValue(at: point) else { return nil }
        return highlight(x: x)
    }

    /// The x value under a point in the layer's coordinates, by the shown
    /// range (`shownXRange`) across the plot, beyond its ends too (so a point
    /// astronomically far outside may map to an infinite x); nil before the
    /// chart has a plot to map through, or for a point whose x is not finite.
    public func xValue(at point: Point) -> Double? {
        let range = shownXRange
        guard plotRect.width > 0, point.x.isFinite else { return nil }
        return range.lowerBound + (point.x - plotRect.minX) / plotRect.width * (range.upperBound - range.lowerBound)
    }

    private func layoutHighlight(plot: Rect, lineHeight: Double, px: (Double) -> Double, py: (Double) -> Double) {
        guard let h = highlightedPoint, h.series < data.series.count, h.index < data.series[h.series].count,
            !data.series[h.series].y[h.index].isNaN
        else {
            highlightLine.isHidden = true
            callout.isHidden = true
            return
        }
        let series = data.series[h.series]
        let x = (plot.minX + px(series.x[h.index])).rounded() + 0.5
        let y = plot.minY + py(series.y[h.index])
        var path = Path()
        path.move(to: Point(x: x, y: plot.minY))
        path.addLine(to: Point(x: x, y: plot.maxY))
        highlightLine.isHidden = !(plot.minX...plot.maxX).contains(x)
        highlightLine.frame = bounds
        highlightLine.path = path
        highlightLine.strokeColor = highlightColor
        highlightLine.lineWidth = 1
        // The callout: the value (and the series' name), above the point,
        // kept inside the plot.
        let v = series.y[h.index]
        let valueText = Self.valueText(v)
        let text = markerText?(h.series, h.index) ?? (series.name.isEmpty ? valueText : "\(series.name): \(valueText)")
        let size = textSize(text, font: labelFont)
        let w = size.width + 12, hgt = lineHeight + 6
        let cx = Swift.min(Swift.max(plot.minX, x - w / 2), Swift.max(plot.minX, plot.maxX - w))
        let cy = y - hgt - 10 >= plot.minY ? y - hgt - 10 : y + 10
        callout.isHidden = highlightLine.isHidden
        callout.frame = Rect(x: cx, y: cy, width: w, height: hgt)
        callout.backgroundColor = highlightColor
        callout.cornerRadius = 4
        calloutText.frame = Rect(x: 0, y: (hgt - size.height) / 2, width: w, height: size.height)
        calloutText.string = text
        calloutText.alignmentMode = .center
        calloutText.fontSize = labelFont.size
        calloutText.fontFamily = labelFont.family
        calloutText.foregroundColor = .white
    }

    // MARK: Viewport

    /// The narrowest x range zooming in may show, as a fraction of the
    /// data's (DGCharts' `setVisibleXRangeMinimum`, relative). 1e-6 by default.
    public var minimumVisibleFraction = 1e-6 { didSet { setNeedsLayout() } }

    /// The x range shown now: `visibleXRange`, or all the data's.
    public var shownXRange: ClosedRange<Double> { visibleXRange ?? data.xRange ?? 0...1 }

    /// Zooms the x axis by `factor` (2 shows half as much) around the data x
    /// `center` (the middle of the shown range by default), within the data
    /// and no narrower than `minimumVisibleFraction` of it. Zooming out past
    /// the data shows all of it.
    public func zoom(by factor: Double, aroundX center: Double? = nil) {
        guard factor.isFinite, factor > 0, let all = data.xRange else { return }
        let shown = shownXRange
        visibleXRange = zoomed(shown, by: factor, around: center, within: all, narrowest: minimumVisibleFraction)
    }

    /// `shown` zoomed by `factor` around `center` (its middle when nil or
    /// not finite), keeping the centre where it is on screen, within `all`
    /// and no narrower than `narrowest` of it; nil when it would show all.
    private func zoomed(
        _ shown: ClosedRange<Double>, by factor: Double, around center: Double?, within all: ClosedRange<Double>, narrowest: Double
    ) -> ClosedRange<Double>? {
        let c = center.flatMap { $0.isFinite ? $0 : nil } ?? (shown.lowerBound + shown.upperBound) / 2
        let span = shown.upperBound - shown.lowerBound
        let fullSpan = Swift.max(all.upperBound - all.lowerBound, 1e-300)
        let newSpan = Swift.max(fullSpan * Swift.max(0, narrowest), span / factor)
        guard newSpan < fullSpan else { return nil }
        let t = span > 0 ? (c - shown.lowerBound) / span : 0.5
        return clamped(c - t * newSpan, newSpan, within: all)
    }

    /// The y range shown at the last layout: `yRange`, or the visible
    /// data's widened to nice ticks.
    public var shownYRange: ClosedRange<Double> { yRange ?? laidOutYRange }
    private var laidOutYRange = 0.0...1.0

    /// The narrowest y range zooming in may show, as a fraction of the
    /// data's (1e-6 by default).
    public var minimumVisibleYFraction = 1e-6 { didSet { setNeedsLayout() } }

    /// Zooms the y axis by `factor` (2 shows half as much) around the value
    /// `center` (the middle by default), within the data's y values and no
    /// narrower than `minimumVisibleYFraction` of them; zooming out past
    /// them goes back to following the visible data (`yRange` nil).
    public func zoomY(by factor: Double, aroundY center: Double? = nil) {
        layoutIfNeeded()
        guard factor.isFinite, factor > 0, let all = data.yRange() else { return }
        yRange = zoomed(shownYRange, by: factor, around: center, within: all, narrowest: minimumVisibleYFraction)
    }

    /// Pans the y axis by `dy` data units (positive shows higher values),
    /// within the data's y values; only a zoomed-in y axis moves.
    public func panY(by dy: Double) {
        guard dy.isFinite, let all = data.yRange(), let shown = yRange else { return }
        yRange = clamped(shown.lowerBound + dy, shown.upperBound - shown.lowerBound, within: all)
    }

    // MARK: Animated viewport

    private var viewportLink: DisplayLink?

    /// Moves the shown x range to `target` (nil: all the data) over
    /// `duration` seconds, frame by frame (a `DisplayLink` on the layer's
    /// host): each frame shows the range between, with `timingFunction`'s
    /// pacing, its M4 and its y range. A new move, or setting
    /// `visibleXRange` from outside, takes over. Without a host, or for a
    /// duration of 0 or NaN, the range is set at once.
    public func setVisibleXRange(
        _ target: ClosedRange<Double>?, duration: Double, timingFunction: TimingFunction = .easeInEaseOut
    ) {
        viewportLink?.invalidate()
        viewportLink = nil
        let duration = Self.clampedDuration(duration)
        let from = shownXRange, to = target ?? data.xRange ?? from
        guard duration > 0, let host = treeHost, to.lowerBound.isFinite, to.upperBound.isFinite else {
            visibleXRange = target
            return
        }
        let start = host.clock.now
        var lastSet = visibleXRange
        let link = DisplayLink { [weak self] link in
            // Gone, or the range set from outside since the last frame: stop.
            guard let self, self.visibleXRange == lastSet else {
                link.invalidate()
                if self?.viewportLink === link { self?.viewportLink = nil }
                return
            }
            defer { lastSet = self.visibleXRange }
            let t = Swift.min(1, Swift.max(0, (link.timestamp - start) / duration))
            let e = timingFunction.value(at: t)
            if t >= 1 {
                link.invalidate()
                self.viewportLink = nil
                self.visibleXRange = target
            } else {
                let lo = from.lowerBound + (to.lowerBound - from.lowerBound) * e
                let hi = from.upperBound + (to.upperBound - from.upperBound) * e
                self.visibleXRange = lo...Swift.max(lo, hi)
            }
        }
        link.add(to: host)
        viewportLink = link
    }

    /// `moveView(toX:)` animated over `duration` seconds (DGCharts'
    /// `moveViewToAnimated`).
    public func moveView(toX x: Double, duration: Double, timingFunction: TimingFunction = .easeInEaseOut) {
        guard x.isFinite, let all = data.xRange else { return }
        let shown = shownXRange
        setVisibleXRange(clamped(x, shown.upperBound - shown.lowerBound, within: all), duration: duration, timingFunction: timingFunction)
    }

    /// Whether the shown range is being moved by `setVisibleXRange(_:duration:)`.
    public var isMovingViewport: Bool { viewportLink != nil }

    /// Pans by `dx` data units (positive shows later x), within the data.
    public func pan(byX dx: Double) {
        guard dx.isFinite, let all = data.xRange, let shown = visibleXRange else { return }
        visibleXRange = clamped(shown.lowerBound + dx, shown.upperBound - shown.lowerBound, within: all)
    }

    /// Shows x = `x` at the left edge (DGCharts' `moveViewToX`), keeping the
    /// shown span, within the data (`moveView(toX:duration:)` animates).
    public func moveView(toX x: Double) {
        guard x.isFinite, let all = data.xRange else { return }
        let shown = shownXRange
        visibleXRange = clamped(x, shown.upperBound - shown.lowerBound, within: all)
    }

    /// A range of `span` starting at `start`, moved to lie within `all`.
    private func clamped(_ start: Double, _ span: Double, within all: ClosedRange<Double>) -> ClosedRange<Double> {
        let s = Swift.max(all.lowerBound, Swift.min(start, all.upperBound - span))
        return s...(s + span)
    }

    /// Lays the legend out in a row from the left at `y`: each named series'
    /// form in its colour, then its name; entries that do not fit are left out.
    /// The most rows the legend wraps onto; entries past them are left out.
    static let maximumLegendRows = 4

    /// The legend's entries (series index and name) and where each goes: its
    /// row and x, wrapping onto a new row when the width is used up.
    private func legendPlaces(lineHeight: Double) -> (entries: [(Int, String)], places: [(row: Int, x: Double)?], rows: Int) {
        let entries = data.series.enumerated().filter { !$0.element.name.isEmpty }.map { ($0.offset, $0.element.name) }
        let left = bounds.minX + layoutMargins.left, limit = bounds.maxX - layoutMargins.right
        var x = left, row = 0
        var places: [(row: Int, x: Double)?] = []
        for (s, name) in entries {
            let width = legendFormWidth(s, lineHeight: lineHeight) + 4 + textSize(name, font: labelFont).width + 1
            if x + width > limit, x > left {
                row += 1
                x = left
            }
            guard row < Self.maximumLegendRows, x + width <= limit else {
                places.append(nil)
                continue
            }
            places.append((row, x))
            x += width + 14
        }
        let rows = places.contains { $0 != nil } ? (places.compactMap { $0?.row }.max() ?? 0) + 1 : 0
        return (entries, places, rows)
    }

    /// The width of series `s`'s form in the legend (a dashed line's is
    /// twice as long, so its dashes show).
    private func legendFormWidth(_ s: Int, lineHeight: Double) -> Double {
        let box = Swift.min(12, lineHeight * 0.8)
        return legendForm == .line && !style(s).lineDashPattern.isEmpty ? 2 * box : box
    }

    /// The legend's height: its rows, each a line and 2 points apart, and 6
    /// points below.
    private func legendHeight(lineHeight: Double) -> Double {
        guard legendPosition != nil else { return 0 }
        let rows = Swift.max(1, legendPlaces(lineHeight: lineHeight).rows)
        return Double(rows) * (lineHeight + 2) - 2 + 6
    }

    private func layoutLegend(y: Double, lineHeight: Double) {
        legendShapes.isHidden = false
        legendShapes.frame = bounds
        let (entries, places, _) = legendPlaces(lineHeight: lineHeight)
        while legendLayers.count < entries.count {
            let form = ShapeLayer(), name = TextLayer()
            form.anchorPoint = .zero
            name.anchorPoint = .zero
            legendShapes.addSublayer(form)
            legendShapes.addSublayer(name)
            legendLayers.append((form, name))
        }
        let box = Swift.min(12, lineHeight * 0.8)
        for (k, pair) in legendLayers.enumerated() {
            guard k < entries.count, let place = places[k] else {
                pair.form.isHidden = true
                pair.name.isHidden = true
                continue
            }
            pair.form.isHidden = false
            pair.name.isHidden = false
            let (s, name) = entries[k]
            let look = style(s)
            let formWidth = legendFormWidth(s, lineHeight: lineHeight)
            let width = textSize(name, font: labelFont).width + 1
            let top = y + Double(place.row) * (lineHeight + 2)
            let x = place.x
            var path = Path()
            let cy = top + lineHeight / 2
            pair.form.lineDashPattern = []
            switch legendForm {
            case .line:
                path.move(to: Point(x: 0, y: box / 2))
                path.addLine(to: Point(x: formWidth, y: box / 2))
                pair.form.fillColor = nil
                pair.form.strokeColor = look.color
                pair.form.lineWidth = Swift.min(3, Swift.max(1, look.lineWidth))
                pair.form.lineDashPattern = look.lineDashPattern
            case .circle:
                path.addEllipse(in: Rect(x: 1, y: 1, width: box - 2, height: box - 2))
                pair.form.fillColor = look.color
                pair.form.strokeColor = nil
            case .square:
                path.addRect(Rect(x: 1, y: 1, width: box - 2, height: box - 2))
                pair.form.fillColor = look.color
                pair.form.strokeColor = nil
            }
            pair.form.frame = Rect(x: x, y: cy - box / 2, width: formWidth, height: box)
            pair.form.path = path
            pair.name.frame = Rect(x: x + formWidth + 4, y: top, width: width, height: lineHeight)
            pair.name.string = name
            pair.name.fontSize = labelFont.size
            pair.name.fontFamily = labelFont.family
            pair.name.foregroundColor = labelColor
        }
    }

    // MARK: Shapes and animations

    /// How long a change of `data` takes to move the lines, in seconds (0:
    /// at once). Held to 0…60; NaN is 0.
    public var dataChangeDuration = 0.3 {
        didSet { dataChangeDuration = Self.clampedDuration(dataChangeDuration) }
    }

    /// A duration held to 0…60 seconds (NaN: 0).
    static func clampedDuration(_ d: Double) -> Double { d.isNaN ? 0 : Swift.min(60, Swift.max(0, d)) }

    /// Set by a change of `data`, so that the layout it asks for animates.
    private var animatesNextLayout = false
    /// Per series, what its shapes were made from at the last layout.
    private var geometry: [Int: (runs: [[Point]], baseY: Double, width: Double, nodes: Bool, band: [[Point]]?)] = [:]

    /// The line, the area under it, and the nodes and their holes, for runs
    /// of points in plot coordinates.
    static func shapes(
        _ runs: [[Point]], look: LineChartSeriesStyle, baseY: Double, plotWidth: Double, nodes: Bool, band: [[Point]]? = nil,
        padTo lengths: [Int]? = nil
    ) -> (line: Path, area: Path, dots: Path, holes: Path) {
        var line = Path(), area = Path(), dots = Path(), holes = Path()
        if look.fillColor != nil, let band {
            // A band: along this series, back along the other (gaps bridged).
            let mine = runs.flatMap { $0 }, theirs = band.flatMap { $0 }
            if let first = mine.first, let back = theirs.last {
                area.move(to: first)
                LineChartMode.add(look.mode.segments(through: mine), to: &area)
                area.addLine(to: back)
                LineChartMode.add(LineChartMode.reversed(look.mode.segments(through: theirs), from: theirs[0]), to: &area)
                area.closeSubpath()
            }
        }
        for (k, run) in runs.enumerated() {
            guard let first = run.first, let last = run.last else { continue }
            // The run's curve, once, for the line and the area, padded (for
            // an animation) with its last point repeated.
            let extra = lengths.map { k < $0.count ? Swift.max(0, $0[k] - run.count) : 0 } ?? 0
            let segments = look.mode.segments(through: run) + look.mode.padding(extra, at: last)
            line.move(to: first)
            LineChartMode.add(segments, to: &line)
            if run.count == 1 { line.addLine(to: first) }
            if look.fillColor != nil, band == nil {
                area.move(to: Point(x: first.x, y: baseY))
                area.addLine(to: first)
                LineChartMode.add(segments, to: &area)
                area.addLine(to: Point(x: last.x, y: baseY))
                area.closeSubpath()
            }
            guard nodes else { continue }
            // Only the points inside the plot (not the one beyond each end).
            for p in run + Array(repeating: last, count: extra) where p.x >= -1e-9 && p.x <= plotWidth + 1e-9 {
                let r = look.nodeRadius, h = look.nodeHoleRadius
                dots.addEllipse(in: Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                if h > 0 { holes.addEllipse(in: Rect(x: p.x - h, y: p.y - h, width: 2 * h, height: 2 * h)) }
            }
        }
        return (line, area, dots, holes)
    }

    /// Nodes in `nodeColors`: one shape layer per colour, each with the
    /// circles of the points whose index picks that colour.
    private func layoutColoredNodes(_ host: Layer, runs: [[Point]], indices: [[Int]], look: LineChartSeriesStyle, show: Bool, width: Double) {
        let colors = look.nodeColors
        var paths = [Path](repeating: Path(), count: colors.count)
        if show, !colors.isEmpty {
            let r = look.nodeRadius
            for (run, ids) in zip(runs, indices) {
                for (p, i) in zip(run, ids) where p.x >= -1e-9 && p.x <= width + 1e-9 {
                    paths[i % colors.count].addEllipse(in: Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                }
            }
        }
        while host.sublayers.count < colors.count {
            let l = ShapeLayer()
            l.anchorPoint = .zero
            host.addSublayer(l)
        }
        for (k, l) in host.sublayers.enumerated() {
            guard let shape = l as? ShapeLayer else { continue }
            shape.isHidden = k >= colors.count
            guard k < colors.count else { continue }
            shape.frame = host.bounds
            shape.path = paths[k]
            shape.fillColor = colors[k]
        }
    }

    /// Whether two paths have the same elements in the same order (so one
    /// can be moved into the other point by point).
    static func sameElements(_ a: Path, _ b: Path) -> Bool {
        var ka: [Int] = [], kb: [Int] = []
        a.forEach { ka.append(Self.kind($0)) }
        b.forEach { kb.append(Self.kind($0)) }
        return !ka.isEmpty && ka == kb
    }

    private static func kind(_ e: Path.Element) -> Int {
        switch e {
        case .move: 0
        case .line: 1
        case .quadCurve: 2
        case .curve: 3
        case .closeSubpath: 4
        }
    }

    /// How a chart comes in.
    public enum Entrance: Sendable, Hashable {
        /// The lines draw themselves from left to right (`strokeEnd` from 0
        /// to 1); fills and nodes fade in.
        case drawIn
        /// The values grow from the baseline to their places.
        case grow
    }

    /// Animates the chart in over `duration` seconds (held to 0…60; none
    /// for 0 or NaN).
    public func animateEntrance(_ entrance: Entrance = .drawIn, duration: Double = 0.6) {
        let duration = Self.clampedDuration(duration)
        guard duration > 0 else { return }
        layoutIfNeeded()
        for (s, layers) in seriesLayers.enumerated() where s < data.series.count {
            switch entrance {
            case .drawIn:
                var draw = BasicAnimation(keyPath: "strokeEnd", from: 0.0, to: 1.0)
                draw.timing.duration = duration
                draw.timingFunction = .easeOut
                layers.line.add(draw, forKey: "entrance")
                layers.shadeMask.add(draw, forKey: "entrance")
                for l in [layers.fill, layers.nodes, layers.holes, layers.colored] as [Layer] {
                    var fade = BasicAnimation(keyPath: "opacity", from: 0.0, to: 1.0)
                    fade.timing.duration = duration
                    fade.timingFunction = .easeIn
                    l.add(fade, forKey: "entrance")
                }
            case .grow:
                guard let g = geometry[s] else { continue }
                let flat = g.runs.map { $0.map { Point(x: $0.x, y: g.baseY) } }
                let flatBand = g.band.map { $0.map { $0.map { Point(x: $0.x, y: g.baseY) } } }
                let from = Self.shapes(flat, look: style(s), baseY: g.baseY, plotWidth: g.width, nodes: g.nodes, band: flatBand)
                for (layer, path) in [
                    (layers.line, from.line), (layers.mask, from.area), (layers.nodes, from.dots), (layers.holes, from.holes),
                    (layers.shadeMask, from.line),
                ] {
                    var grow = BasicAnimation(keyPath: "path", from: path, to: layer.path)
                    grow.timing.duration = duration
                    grow.timingFunction = .easeOut
                    layer.add(grow, forKey: "entrance")
                }
            }
        }
    }

    /// Writes the visible points' values above them, series by series, left
    /// to right, dropping each label that would meet one already placed.
    private func layoutValueLabels(
        plot: Rect, lineHeight: Double, xRange: ClosedRange<Double>, px: (Double) -> Double, py: (Double) -> Double
    ) {
        valueLabels.frame = bounds
        var placed: [(Rect, String, Color)] = []
        if showsValues {
            for (s, series) in data.series.enumerated() {
                let range = series.insertionIndex(xRange.lowerBound)..<series.upperIndex(xRange.upperBound)
                guard range.count <= maxValueLabels else { continue }
                let look = style(s)
                for i in range where !series.y[i].isNaN {
                    let v = series.y[i]
                    let text = Self.valueText(v)
                    let size = textSize(text, font: valueFont)
                    let x = plot.minX + px(series.x[i]), y = plot.minY + py(series.y[i])
                    // Above the point, or below it at the top of the plot; moved
                    // inside the plot at its sides.
                    let clearance = Swift.max(look.nodeRadius, look.lineWidth / 2) + 2
                    var top = y - clearance - size.height
                    if top < plot.minY { top = y + clearance }
                    let left = Swift.min(Swift.max(plot.minX, x - size.width / 2), plot.maxX - size.width)
                    let box = Rect(x: left, y: top, width: size.width, height: size.height)
                    guard box.minX >= plot.minX - 1e-9, box.maxY <= plot.maxY else { continue }
                    let grown = box.insetBy(dx: -2, dy: -1)
                    guard !placed.contains(where: { $0.0.intersects(grown) }) else { continue }
                    placed.append((box, text, look.color))
                }
            }
        }
        valueLabelFrames = placed.map(\.0)
        while valueLayers.count < placed.count {
            let t = TextLayer()
            t.anchorPoint = .zero
            valueLabels.addSublayer(t)
            valueLayers.append(t)
        }
        for (k, t) in valueLayers.enumerated() {
            t.isHidden = k >= placed.count
            guard k < placed.count else { continue }
            t.frame = placed[k].0.insetBy(dx: -1, dy: 0)
            t.string = placed[k].1
            t.alignmentMode = .center
            t.fontSize = valueFont.size
            t.fontFamily = valueFont.family
            t.foregroundColor = placed[k].2
        }
    }

    /// A value as a label writes it: four significant digits, three in
    /// exponent form for the very large and very small.
    static func valueText(_ v: Double) -> String {
        abs(v) >= 1e5 || (v != 0 && abs(v) < 1e-3) ? String(format: "%.3g", v) : String(format: "%.4g", v)
    }
}
