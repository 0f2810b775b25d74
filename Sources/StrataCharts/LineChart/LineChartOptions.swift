import Foundation
import StrataGraphics
import StrataLayers
import StrataText

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
