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
    public var data = LineChartData([]) { didSet { setNeedsLayout() } }
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
    /// A dashed line at the average of the first series' visible points.
    public var showsAverageLine = false { didSet { setNeedsLayout() } }
    public var averageLineColor = Color(white: 0.55) { didSet { setNeedsLayout() } }
    /// Space around the plot for nothing, in points.
    public var insets = Rect(x: 8, y: 8, width: 8, height: 8) { didSet { setNeedsLayout() } }
    /// Above this many points per point of width, nodes are not drawn.
    public var maxNodesPerPoint = 0.25 { didSet { setNeedsLayout() } }
    /// Whether dense series draw each pixel column's M4 points (the same
    /// picture, within anti-aliasing) rather than every point.
    public var decimatesDenseSeries = true { didSet { setNeedsLayout() } }

    /// The plot's rectangle in the layer, as last laid out.
    public private(set) var plotRect = Rect.zero

    private let gridLayer = ShapeLayer()
    private let averageLayer = ShapeLayer()
    /// The fills and lines, clipped to the plot; the nodes over them, not
    /// clipped (a node on the plot's edge shows whole).
    private let plotLayer = Layer()
    private let nodeLayer = Layer()
    private var seriesLayers: [(fill: GradientLayer, mask: ShapeLayer, line: ShapeLayer, nodes: ShapeLayer, holes: ShapeLayer)] = []
    private var labelLayers: [TextLayer] = []

    public override init() {
        super.init()
        plotLayer.anchorPoint = .zero
        plotLayer.masksToBounds = true
        for l in [gridLayer, averageLayer] {
            l.anchorPoint = .zero
            l.fillColor = nil
        }
        nodeLayer.anchorPoint = .zero
        addSublayer(gridLayer)
        addSublayer(plotLayer)
        addSublayer(averageLayer)
        addSublayer(nodeLayer)
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
        let lineHeight = TextLayout(AttributedText("0", attributes: TextAttributes(font: labelFont)), width: .infinity).size.height
        let xRange = visibleXRange ?? data.xRange ?? 0...1
        let dataY = data.yRange(inX: xRange) ?? 0...1
        let scale =
            yRange.map { NiceScale(exactly: $0.lowerBound, $0.upperBound, step: NiceScale(covering: $0.lowerBound, $0.upperBound).step) }
            ?? NiceScale(covering: Swift.min(dataY.lowerBound, style(0).fillBaseline ?? dataY.lowerBound), dataY.upperBound, ticks: 5)
        let yLabelWidth =
            (scale.ticks.map {
                TextLayout(AttributedText(scale.label(for: $0), attributes: TextAttributes(font: labelFont)), width: .infinity).size.width
            }.max() ?? 0) + 6
        // On whole device pixels, so that M4's columns are the pixel columns.
        let s = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        func snap(_ v: Double) -> Double { v.isFinite ? (v * s).rounded() / s : 0 }
        let x0 = snap(b.minX + insets.minX + yLabelWidth), y0 = snap(b.minY + insets.minY)
        let plot = Rect(
            x: x0, y: y0, width: Swift.max(0, snap(b.maxX - insets.width) - x0),
            height: Swift.max(0, snap(b.maxY - insets.height - lineHeight - 4) - y0))
        plotRect = plot
        plotLayer.frame = plot
        nodeLayer.frame = plot
        let xSpan = xRange.upperBound - xRange.lowerBound
        func px(_ x: Double) -> Double { xSpan > 0 ? (x - xRange.lowerBound) / xSpan * plot.width : plot.width / 2 }
        let ySpan = scale.upper - scale.lower
        func py(_ y: Double) -> Double { ySpan > 0 ? (scale.upper - y) / ySpan * plot.height : plot.height / 2 }

        // Grid and labels.
        var grid = Path()
        var texts: [(String, Rect, TextAlignment)] = []
        for v in scale.ticks {
            let y = (plot.minY + py(v)).rounded() + 0.5
            grid.move(to: Point(x: plot.minX, y: y))
            grid.addLine(to: Point(x: plot.maxX, y: y))
            texts.append(
                (scale.label(for: v), Rect(x: b.minX + insets.minX, y: y - lineHeight / 2, width: yLabelWidth - 6, height: lineHeight), .right))
        }
        let xLabels =
            xIsDate
            ? AxisLabels.dates(
                Date(timeIntervalSinceReferenceDate: xRange.lowerBound), Date(timeIntervalSinceReferenceDate: xRange.upperBound),
                length: plot.width, font: labelFont, calendar: calendar)
            : AxisLabels.values(xRange.lowerBound, xRange.upperBound, length: plot.width, font: labelFont)
        for l in xLabels {
            texts.append((l.text, Rect(x: plot.minX + l.start, y: plot.maxY + 4, width: l.length + 1, height: lineHeight), .left))
        }
        gridLayer.frame = b
        gridLayer.path = grid
        gridLayer.strokeColor = gridColor
        gridLayer.lineWidth = 1
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
            t.frame = texts[i].1
            t.alignmentMode = texts[i].2
            t.fontSize = labelFont.size
            t.fontFamily = labelFont.family
            t.foregroundColor = labelColor
        }

        // Series.
        while seriesLayers.count < data.series.count {
            let fill = GradientLayer(), mask = ShapeLayer(), line = ShapeLayer(), nodes = ShapeLayer(), holes = ShapeLayer()
            for l in [fill, line] as [Layer] {
                l.anchorPoint = .zero
                plotLayer.addSublayer(l)
            }
            for l in [nodes, holes] {
                l.anchorPoint = .zero
                nodeLayer.addSublayer(l)
            }
            mask.anchorPoint = .zero
            fill.mask = mask
            line.fillColor = nil
            line.lineJoin = .round
            line.lineCap = .round
            seriesLayers.append((fill, mask, line, nodes, holes))
        }
        let columns = Swift.max(1, Int((plot.width * contentsScale).rounded(.up)))
        for (s, layers) in seriesLayers.enumerated() {
            let shown = s < data.series.count
            for l in [layers.fill, layers.line, layers.nodes, layers.holes] as [Layer] {
                l.isHidden = !shown
                l.frame = Rect(x: 0, y: 0, width: plot.width, height: plot.height)
            }
            layers.mask.frame = layers.fill.bounds
            guard shown else { continue }
            let series = data.series[s], look = style(s)
            let indices = decimatesDenseSeries ? series.visibleIndices(in: xRange, columns: columns) : Array(series.indices(around: xRange))
            // Runs of points between gaps, in plot coordinates.
            var runs: [[Point]] = [[]]
            for i in indices {
                if series.y[i].isNaN {
                    if !(runs.last?.isEmpty ?? true) { runs.append([]) }
                } else {
                    runs[runs.count - 1].append(Point(x: px(series.x[i]), y: py(series.y[i])))
                }
            }
            runs.removeAll { $0.isEmpty }
            var line = Path(), area = Path()
            let baseY = py(look.fillBaseline ?? scale.lower)
            for run in runs {
                look.mode.addLine(through: run, to: &line)
                if run.count == 1 { line.addLine(to: run[0]) }
                if look.fillColor != nil, let first = run.first, let last = run.last {
                    area.move(to: Point(x: first.x, y: baseY))
                    area.addLine(to: first)
                    for seg in look.mode.segments(through: run) {
                        switch seg {
                        case .line(let p): area.addLine(to: p)
                        case .curve(let p, let c1, let c2): area.addCurve(to: p, control1: c1, control2: c2)
                        }
                    }
                    area.addLine(to: Point(x: last.x, y: baseY))
                    area.closeSubpath()
                }
            }
            layers.line.path = line
            layers.line.strokeColor = look.color
            layers.line.lineWidth = look.lineWidth
            layers.fill.isHidden = look.fillColor == nil
            if let bottom = look.fillColor {
                layers.fill.colors = [look.fillTopColor ?? bottom, bottom]
                layers.mask.path = area
                layers.mask.fillColor = .black
            }
            // Nodes, unless too dense to tell apart.
            let pointsShown = runs.reduce(0) { $0 + $1.count }
            let showNodes = look.nodeRadius > 0 && Double(pointsShown) <= maxNodesPerPoint * plot.width
            var dots = Path(), holes = Path()
            if showNodes {
                for run in runs {
                    // Only the points inside the plot (not the one beyond each end).
                    for p in run where p.x >= -1e-9 && p.x <= plot.width + 1e-9 {
                        let r = look.nodeRadius, h = look.nodeHoleRadius
                        dots.addEllipse(in: Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                        if h > 0 { holes.addEllipse(in: Rect(x: p.x - h, y: p.y - h, width: 2 * h, height: 2 * h)) }
                    }
                }
            }
            layers.nodes.path = dots
            layers.nodes.fillColor = look.color
            layers.holes.path = holes
            layers.holes.fillColor = look.nodeHoleColor
        }

        // The average of the first series' visible points, dashed.
        var average = Path()
        if showsAverageLine, let first = data.series.first {
            let r = first.insertionIndex(xRange.lowerBound)..<first.upperIndex(xRange.upperBound)
            let values = r.map { first.y[$0] }.filter { !$0.isNaN }
            if !values.isEmpty {
                let mean = values.reduce(0, +) / Double(values.count)
                let y = (plot.minY + py(mean)).rounded() + 0.5
                average.move(to: Point(x: plot.minX, y: y))
                average.addLine(to: Point(x: plot.maxX, y: y))
            }
        }
        averageLayer.frame = b
        averageLayer.path = average
        averageLayer.strokeColor = averageLineColor
        averageLayer.lineWidth = 1
        averageLayer.lineDashPattern = [4, 3]
    }
}
