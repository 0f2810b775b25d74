import Foundation
import StrataGraphics
import StrataText

/// The size of `text` set on one line in `font` (what every chart label
/// measures before it is placed).
func textSize(_ text: String, font: Font) -> Size {
    TextLayout(AttributedText(text, attributes: TextAttributes(font: font)), width: .infinity).size
}

/// A label along an axis: its text, measured, centred on `position` (points
/// along the axis) unless kept inside the axis at its ends.
public struct AxisLabel: Sendable, Equatable {
    /// The tick's value: a number, or a date's seconds since the reference date.
    public var value: Double
    public var text: String
    /// Where the tick is along the axis, in points.
    public var position: Double
    /// The label's extent along the axis, in points.
    public var length: Double
    /// Where the label starts along the axis: centred on the tick, moved
    /// inward when it would stick out of the axis.
    public var start: Double

    public var end: Double { start + length }
}

/// Labels that never overlap and never stick out of the axis.
///
/// Labels are measured with StrataText. If they do not fit, fewer ticks are
/// asked of the scale (a coarser nice step, not every other label of the
/// same step), until every label is at least `gap` from the next; the first
/// and last are moved inward so they end inside the axis (DGCharts'
/// `avoidFirstLastClipping`, always on). When even two ticks do not fit, the
/// first and the last alone are kept if they fit, else the first.
public enum AxisLabels {
    /// Labels for a value axis of `length` points over `lower ... upper`.
    /// `vertical` measures the labels' height instead of their width (a
    /// y-axis). At most `maximumTicks` ticks (2…1000). Labels turned by
    /// `rotation` degrees take `width·|cos| + height·|sin|` along the axis.
    /// `format` writes a tick's label instead of the scale.
    public static func values(
        _ lower: Double, _ upper: Double, length: Double, font: Font, maximumTicks: Int = 10, gap: Double = 6,
        vertical: Bool = false, rotation: Double = 0, format: ((Double) -> String)? = nil
    ) -> [AxisLabel] {
        fit(length: length, maximumTicks: maximumTicks, gap: gap) { n in
            let scale = NiceScale(covering: lower, upper, ticks: n)
            return place(
                scale.ticks.map { ($0, format?($0) ?? scale.label(for: $0)) }, lower: scale.lower, upper: scale.upper, length: length,
                font: font, vertical: vertical, rotation: rotation)
        }
    }

    /// Labels for a date axis of `length` points over `lower ... upper`:
    /// `DateScale.labels(for:)`, with the year on the first and where it
    /// changes, unless `format` writes them.
    public static func dates(
        _ lower: Date, _ upper: Date, length: Double, font: Font, calendar: Calendar = .current, maximumTicks: Int = 10,
        gap: Double = 8, rotation: Double = 0, format: ((Double) -> String)? = nil
    ) -> [AxisLabel] {
        fit(length: length, maximumTicks: maximumTicks, gap: gap) { n in
            let scale = DateScale(covering: lower, upper, ticks: n, calendar: calendar)
            let a = scale.lower.timeIntervalSinceReferenceDate, b = scale.upper.timeIntervalSinceReferenceDate
            // The scale's labels say the year on the first and where it changes.
            let texts = format == nil ? scale.labels(for: scale.ticks) : scale.ticks.map { format!($0.timeIntervalSinceReferenceDate) }
            return place(
                zip(scale.ticks, texts).map { ($0.timeIntervalSinceReferenceDate, $1) }, lower: a, upper: b, length: length, font: font,
                vertical: false, rotation: rotation)
        }
    }

    /// Tries `make(n)` for n from `maximumTicks` down to 2 and returns the first
    /// set that fits; then the ends alone, then the first alone.
    static func fit(length: Double, maximumTicks: Int, gap: Double, _ make: (Int) -> [AxisLabel]) -> [AxisLabel] {
        guard length.isFinite, length > 0 else { return [] }
        let gap = gap.isFinite ? Swift.max(0, gap) : 6
        var n = Swift.max(2, Swift.min(1000, maximumTicks))
        var last: [AxisLabel] = []
        var tried = Set<[Double]>()
        while n >= 2 {
            let labels = make(n)
            // Fewer asked can give the same ticks: skip repeats.
            if tried.insert(labels.map(\.value)).inserted {
                if fits(labels, length: length, gap: gap) { return labels }
                last = labels
            }
            n -= 1
        }
        guard let first = last.first else { return [] }
        if let end = last.last, last.count > 1, fits([first, end], length: length, gap: gap) { return [first, end] }
        return first.length <= length ? [first] : []
    }

    /// Whether labels are in order, at least `gap` apart and inside the axis.
    public static func fits(_ labels: [AxisLabel], length: Double, gap: Double) -> Bool {
        for (i, l) in labels.enumerated() {
            if l.start < -1e-9 || l.end > length + 1e-9 { return false }
            if i > 0, labels[i - 1].end + gap > l.start + 1e-9 { return false }
        }
        return true
    }

    /// Measures and places labels of values in `lower ... upper` along an
    /// axis of `length` points (ticks outside the range are dropped).
    static func place(
        _ ticks: [(Double, String)], lower: Double, upper: Double, length: Double, font: Font, vertical: Bool,
        rotation: Double = 0
    ) -> [AxisLabel] {
        let turn = rotation.isFinite ? rotation * .pi / 180 : 0
        let span = upper - lower
        var out: [AxisLabel] = []
        for (value, text) in ticks {
            let position = span > 0 ? (value - lower) / span * length : 0
            guard position >= -1e-9, position <= length + 1e-9 else { continue }
            let size = textSize(text, font: font)
            let along = vertical ? size.height : size.width, across = vertical ? size.width : size.height
            let extent = turn == 0 ? along : along * abs(cos(turn)) + across * abs(sin(turn))
            let start = Swift.min(Swift.max(0, position - extent / 2), Swift.max(0, length - extent))
            out.append(AxisLabel(value: value, text: text, position: position, length: extent, start: start))
        }
        return out
    }
}
