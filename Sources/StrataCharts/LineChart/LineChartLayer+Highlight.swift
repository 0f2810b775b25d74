import Foundation
import StrataGraphics
import StrataLayers
import StrataText

// The highlighted point: chosen by x or by a point in the layer, shown with
// its marker and callout.
extension LineChartLayer {
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

    func layoutHighlight(plot: Rect, lineHeight: Double, px: (Double) -> Double, py: (Double) -> Double) {
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
}
