import Foundation
import StrataGraphics
import StrataLayers
import StrataText

/// Where data values land in a chart's plot: x over `xRange` across the
/// plot's width from its left, y over `yRange` up its height from its bottom
/// (y grows down in the plot's coordinates). A range of zero width maps to
/// the middle.
struct PlotMapping: Equatable {
    /// The plot's rectangle in the chart layer.
    var plot: Rect
    var xRange: ClosedRange<Double>
    var yRange: ClosedRange<Double>

    /// The x of value `v` in plot coordinates.
    func x(_ v: Double) -> Double {
        let span = xRange.upperBound - xRange.lowerBound
        return span > 0 ? (v - xRange.lowerBound) / span * plot.width : plot.width / 2
    }

    /// The y of value `v` in plot coordinates.
    func y(_ v: Double) -> Double {
        let span = yRange.upperBound - yRange.lowerBound
        return span > 0 ? (yRange.upperBound - v) / span * plot.height : plot.height / 2
    }
}

/// What the layout of the chart's frame decided: the plot's rectangle and
/// what the axes need to place their labels around it.
struct ChartFrame {
    var plot: Rect
    var yLabelWidth: Double
    var lineHeight: Double
    /// The x labels' turn, in radians.
    var turn: Double
}

// The layout pass: the frame (title, legend, plot), the axes, the series,
// then the overlays, each over one `PlotMapping`.
extension LineChartLayer {
    func layoutChart() {
        let lineHeight = textSize("0", font: labelFont).height
        let xRange = visibleXRange ?? data.xRange ?? 0...1
        let scale = yScale(xRange: xRange)
        laidOutYRange = scale.lower...scale.upper
        let frame = layoutFrame(scale: scale, xRange: xRange, lineHeight: lineHeight)
        let plot = frame.plot
        plotRect = plot
        plotLayer.frame = plot
        nodeLayer.frame = plot
        let map = PlotMapping(plot: plot, xRange: xRange, yRange: scale.lower...scale.upper)
        layoutAxes(map, scale: scale, frame: frame)
        layoutSeries(map, scale: scale)
        animatesNextLayout = false
        layoutValueLabels(plot: plot, lineHeight: lineHeight, xRange: xRange, px: map.x, py: map.y)
        // Limit lines, the average among them.
        var limits = limitLines
        if showsAverageLine, let mean = averageOfFirstSeries(in: xRange) {
            limits.append(
                LimitLine(
                    at: mean, label: averageLineLabel, labelPosition: averageLabelPosition, color: averageLineColor,
                    dashPattern: averageLineDashPattern, labelBackgroundColor: averageLabelBackgroundColor))
        }
        layoutLimits(limits, plot: plot, lineHeight: lineHeight, px: map.x, py: map.y)
        layoutHighlight(plot: plot, lineHeight: lineHeight, px: map.x, py: map.y)
    }

    /// The y axis's scale: `yRange` when set, else nice numbers around the
    /// visible data (and the first series' fill baseline).
    func yScale(xRange: ClosedRange<Double>) -> NiceScale {
        if let yRange {
            return NiceScale(exactly: yRange.lowerBound, yRange.upperBound, step: NiceScale(covering: yRange.lowerBound, yRange.upperBound).step)
        }
        let dataY = data.yRange(inX: xRange) ?? 0...1
        return NiceScale(covering: Swift.min(dataY.lowerBound, style(0).fillBaseline ?? dataY.lowerBound), dataY.upperBound, ticks: 5)
    }

    /// The x axis's labels for a plot `length` points wide.
    func xLabels(xRange: ClosedRange<Double>, length: Double) -> [AxisLabel] {
        xIsDate
            ? AxisLabels.dates(
                Date(timeIntervalSinceReferenceDate: xRange.lowerBound), Date(timeIntervalSinceReferenceDate: xRange.upperBound),
                length: length, font: labelFont, calendar: calendar, rotation: xLabelRotation, format: xLabelFormatter)
            : AxisLabels.values(
                xRange.lowerBound, xRange.upperBound, length: length, font: labelFont, rotation: xLabelRotation, format: xLabelFormatter)
    }

    /// Places the title and the legend, and finds the plot's rectangle: the
    /// view-port insets when set, else what the margins, the title, the
    /// legend and the axes' labels leave, on whole device pixels (so that
    /// M4's columns are the pixel columns).
    func layoutFrame(scale: NiceScale, xRange: ClosedRange<Double>, lineHeight: Double) -> ChartFrame {
        let b = bounds
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
        let xLabelDepth: Double = {
            guard turn != 0 else { return lineHeight }
            // Measured on labels for about the plot's width.
            let guess = xLabels(xRange: xRange, length: Swift.max(1, b.width - margins.horizontal - yLabelWidth))
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
        return ChartFrame(plot: plot, yLabelWidth: yLabelWidth, lineHeight: lineHeight, turn: turn)
    }

    /// The grid, the axis line and ticks, and the axes' labels.
    func layoutAxes(_ map: PlotMapping, scale: NiceScale, frame: ChartFrame) {
        let b = bounds, plot = map.plot, lineHeight = frame.lineHeight, yLabelWidth = frame.yLabelWidth, turn = frame.turn
        var grid = Path()
        var texts: [(String, Rect, TextAlignment, Double)] = []
        for v in scale.ticks {
            let y = (plot.minY + map.y(v)).rounded() + 0.5
            grid.move(to: Point(x: plot.minX, y: y))
            grid.addLine(to: Point(x: plot.maxX, y: y))
            let labelX = yAxisPosition == .left ? plot.minX - yLabelWidth : plot.maxX + 6
            texts.append(
                (
                    yLabel(v, scale), Rect(x: labelX, y: y - lineHeight / 2, width: yLabelWidth - 6, height: lineHeight),
                    yAxisPosition == .left ? .right : .left, 0
                ))
        }
        let xLabels = xLabels(xRange: map.xRange, length: plot.width)
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
        layoutLabels(texts)
    }

    /// The axes' label layers: each text in its rectangle, aligned, turned
    /// about its centre by its angle; layers left over are hidden.
    func layoutLabels(_ texts: [(String, Rect, TextAlignment, Double)]) {
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
    }

    /// Each series' layers: its runs of points between gaps, mapped into the
    /// plot (decimated to M4 over the device columns when dense), its line,
    /// fill, nodes and value colours, and the move from the old data.
    func layoutSeries(_ map: PlotMapping, scale: NiceScale) {
        let plot = map.plot
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
        let (allRuns, allRunIndices) = seriesRuns(map)
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
            let baseY = map.y(look.fillBaseline ?? scale.lower)
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
                let y0 = map.y(top.value) / plot.height, y1 = map.y(bottom.value) / plot.height
                layers.shade.colors = stops.count == 1 ? [top.color, top.color] : stops.map(\.color)
                layers.shade.startPoint = Point(x: 0.5, y: y0)
                layers.shade.endPoint = Point(x: 0.5, y: y1 > y0 ? y1 : y0 + 1e-9)
                layers.shade.locations =
                    stops.count == 1 || y1 <= y0 ? nil : stops.map { (map.y($0.value) / plot.height - y0) / (y1 - y0) }
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
    }

    /// Every series' runs of points between gaps, in plot coordinates, with
    /// their indices (a band's fill needs its partner's); dense series
    /// decimated to M4 over the device columns (a plot wider than any bitmap
    /// gets a bitmap's worth).
    func seriesRuns(_ map: PlotMapping) -> (runs: [[[Point]]], indices: [[[Int]]]) {
        let plot = map.plot
        let columns = Int(Swift.min(16_384, Swift.max(1, (plot.width * contentsScale).rounded(.up))))
        var allRuns: [[[Point]]] = [], allRunIndices: [[[Int]]] = []
        for series in data.series {
            let indices = decimatesDenseSeries ? series.visibleIndices(in: map.xRange, columns: columns) : Array(series.indices(around: map.xRange))
            var runs: [[Point]] = [[]], runIndices: [[Int]] = [[]]
            for i in indices {
                if series.y[i].isNaN {
                    if !(runs.last?.isEmpty ?? true) {
                        runs.append([])
                        runIndices.append([])
                    }
                } else {
                    runs[runs.count - 1].append(Point(x: map.x(series.x[i]), y: map.y(series.y[i])))
                    runIndices[runIndices.count - 1].append(i)
                }
            }
            allRuns.append(runs.filter { !$0.isEmpty })
            allRunIndices.append(runIndices.filter { !$0.isEmpty })
        }
        return (allRuns, allRunIndices)
    }
}
