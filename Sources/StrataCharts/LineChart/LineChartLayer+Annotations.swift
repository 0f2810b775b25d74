import Foundation
import StrataGraphics
import StrataLayers
import StrataText

// Limit lines (the average among them) and the values written above the
// points.
extension LineChartLayer {
    /// The mean of the first series' points in `range` (gaps skipped).
    func averageOfFirstSeries(in range: ClosedRange<Double>) -> Double? {
        guard let first = data.series.first else { return nil }
        let a = first.insertionIndex(range.lowerBound)
        return first.yMean(in: a..<Swift.max(a, first.upperIndex(range.upperBound)))
    }

    func layoutLimits(
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

    /// Writes the visible points' values above them, series by series, left
    /// to right, dropping each label that would meet one already placed.
    func layoutValueLabels(
        plot: Rect, lineHeight: Double, xRange: ClosedRange<Double>, px: (Double) -> Double, py: (Double) -> Double
    ) {
        valueLabels.frame = bounds
        var placed: [(Rect, String, Color)] = []
        if showsValues {
            for (s, series) in data.series.enumerated() {
                let range = series.insertionIndex(xRange.lowerBound)..<series.upperIndex(xRange.upperBound)
                guard range.count <= maximumValueLabels else { continue }
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
