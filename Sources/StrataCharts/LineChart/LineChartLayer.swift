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

    func layoutChart() {
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
            let showNodes = look.nodeRadius > 0 && Double(pointsShown) <= maximumNodesPerPoint * plot.width
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
