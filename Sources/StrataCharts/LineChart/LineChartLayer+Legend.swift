import Foundation
import StrataGraphics
import StrataLayers
import StrataText

// The legend: entries wrapped onto rows above or below the plot.
extension LineChartLayer {
    /// The most rows the legend wraps onto; entries past them are left out.
    static let maximumLegendRows = 4

    /// The legend's entries (series index and name) and where each goes: its
    /// row and x, wrapping onto a new row when the width is used up.
    func legendPlaces(lineHeight: Double) -> (entries: [(Int, String)], places: [(row: Int, x: Double)?], rows: Int) {
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
    func legendFormWidth(_ s: Int, lineHeight: Double) -> Double {
        let box = Swift.min(12, lineHeight * 0.8)
        return legendForm == .line && !style(s).lineDashPattern.isEmpty ? 2 * box : box
    }

    /// The legend's height: its rows, each a line and 2 points apart, and 6
    /// points below.
    func legendHeight(lineHeight: Double) -> Double {
        guard legendPosition != nil else { return 0 }
        let rows = Swift.max(1, legendPlaces(lineHeight: lineHeight).rows)
        return Double(rows) * (lineHeight + 2) - 2 + 6
    }

    func layoutLegend(y: Double, lineHeight: Double) {
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
}
