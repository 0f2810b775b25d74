import Foundation
import StrataGraphics
import StrataLayers
import StrataText

/// A line chart as a tree of layers: per series
/// a fill (a gradient layer masked by a shape layer of the area under the
/// line, so it is clipped to that area exactly), the line (a shape layer,
/// whose `strokeEnd` can be animated to draw it in) and its nodes; value
/// labels on the left, x labels along the bottom (dates when `xIsDate`),
/// grid lines, and a dashed line at the average.
///
/// Dense series draw the M4 points of each pixel column
/// (`LineChartSeries.visibleIndices`), the same picture as every point; their
/// nodes are hidden when there are more points than `maximumNodesPerPoint` per
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
    /// are written for more than `maximumValueLabels` visible points.
    public var showsValues = false { didSet { setNeedsLayout() } }
    public var maximumValueLabels = 100 { didSet { setNeedsLayout() } }
    public var valueFont = Font(size: 10) { didSet { setNeedsLayout() } }
    /// The value labels placed at the last layout (for tests and hit-testing).
    public internal(set) var valueLabelFrames: [Rect] = []

    /// Above this many points per point of width, nodes are not drawn.
    public var maximumNodesPerPoint = 0.25 { didSet { setNeedsLayout() } }
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
    public internal(set) var plotRect = Rect.zero

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

    let gridLayer = ShapeLayer()
    let xGridLayer = ShapeLayer()
    let axisLayer = ShapeLayer()
    /// Limit lines under the data, and over it (the average among them).
    let limitsBehind = Layer()
    let limitsFront = Layer()
    var limitLayers: [(line: ShapeLayer, label: TextLayer)] = []
    let highlightLine = ShapeLayer()
    let titleLayer = TextLayer()
    let valueLabels = Layer()
    var valueLayers: [TextLayer] = []
    let legendShapes = Layer()
    var legendLayers: [(form: ShapeLayer, name: TextLayer)] = []
    /// The callout: a rounded box with the text centred in it.
    let callout = Layer()
    let calloutText = TextLayer()
    /// The fills and lines, clipped to the plot; the nodes over them, not
    /// clipped (a node on the plot's edge shows whole).
    let plotLayer = Layer()
    let nodeLayer = Layer()
    var seriesLayers:
        [(
            fill: GradientLayer, mask: ShapeLayer, line: ShapeLayer, nodes: ShapeLayer, holes: ShapeLayer, shade: GradientLayer,
            shadeMask: ShapeLayer, colored: Layer
        )] = []
    /// The axis labels (value labels first, then x labels), in use or hidden.
    var labelLayers: [TextLayer] = []

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

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
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

    // MARK: State kept by the viewport, legend and animations (their code is in extensions)

    /// The narrowest x range zooming in may show, as a fraction of the
    /// data's (DGCharts' `setVisibleXRangeMinimum`, relative). 1e-6 by default.
    public var minimumVisibleFraction = 1e-6 { didSet { setNeedsLayout() } }
    var laidOutYRange = 0.0...1.0
    /// The narrowest y range zooming in may show, as a fraction of the
    /// data's (1e-6 by default).
    public var minimumVisibleYFraction = 1e-6 { didSet { setNeedsLayout() } }
    var viewportLink: DisplayLink?
    /// How long a change of `data` takes to move the lines, in seconds (0:
    /// at once). Held to 0…60; NaN is 0.
    public var dataChangeDuration = 0.3 {
        didSet { dataChangeDuration = Self.clampedDuration(dataChangeDuration) }
    }
    /// Set by a change of `data`, so that the layout it asks for animates.
    var animatesNextLayout = false
    /// Per series, what its shapes were made from at the last layout.
    var geometry: [Int: (runs: [[Point]], baseY: Double, width: Double, nodes: Bool, band: [[Point]]?)] = [:]
}

extension LineChartLayer {
    @available(*, deprecated, renamed: "maximumValueLabels")
    public var maxValueLabels: Int {
        get { maximumValueLabels }
        set { maximumValueLabels = newValue }
    }

    @available(*, deprecated, renamed: "maximumNodesPerPoint")
    public var maxNodesPerPoint: Double {
        get { maximumNodesPerPoint }
        set { maximumNodesPerPoint = newValue }
    }
}
