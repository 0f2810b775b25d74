/// How the ends of open subpaths are drawn (`CGLineCap`).
public enum LineCap: Sendable, Hashable {
    /// The stroke ends exactly at the end point.
    case butt
    /// A half disc of the line's width around the end point.
    case round
    /// The stroke goes on half the line's width past the end point.
    case square
}

/// How corners between segments are drawn (`CGLineJoin`).
public enum LineJoin: Sendable, Hashable {
    /// The outer edges are extended until they meet, unless the miter would be
    /// longer than `miterLimit` line widths: then the corner is bevelled.
    case miter
    /// A circular arc of the line's width around the corner.
    case round
    /// The corner is cut straight across.
    case bevel
}

/// Everything that shapes a stroke: what `CGContext`'s line parameters set.
///
/// Bad values have defined meanings: a negative or NaN `lineWidth` strokes
/// nothing; a `lineWidth` of 0 draws the thinnest visible line (one device pixel);
/// a `miterLimit` below 1 or NaN counts as 1 (every miter is bevelled); a dash
/// pattern that is empty, all zeros, or has a negative or non-finite length draws
/// a solid line.
public struct StrokeStyle: Sendable, Hashable {
    public var lineWidth: Double
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    public var miterLimit: Double
    /// Where in the dash pattern each subpath starts, in user-space units.
    public var dashPhase: Double
    /// Alternating lengths of dashes and gaps; empty for a solid line.
    public var dashLengths: [Double]

    public init(
        lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
        miterLimit: Double = 10, dashPhase: Double = 0, dashLengths: [Double] = []
    ) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dashPhase = dashPhase
        self.dashLengths = dashLengths
    }

    /// The dash pattern, or `nil` when the stroke is solid.
    /// Where `pattern` (valid dashes) stands at the start of each subpath:
    /// the entry and what is left of it once `dashPhase` has been walked.
    static func dashStart(_ pattern: [Double], phase: Double) -> (index: Int, remaining: Double) {
        var index = 0
        var remaining = pattern.first ?? 0
        guard !pattern.isEmpty else { return (index, remaining) }
        let period = pattern.reduce(0, +)
        var offset = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
        if offset < 0 { offset += period }
        while offset > 0 {
            if offset >= remaining {
                offset -= remaining
                index = (index + 1) % pattern.count
                remaining = pattern[index]
            } else {
                remaining -= offset
                offset = 0
            }
        }
        return (index, remaining)
    }

    var validDashes: [Double]? {
        guard !dashLengths.isEmpty, dashLengths.allSatisfy({ $0 >= 0 && $0.isFinite }),
            dashLengths.contains(where: { $0 > 0 })
        else { return nil }
        // An odd count repeats once more, as in Core Graphics and SVG.
        return dashLengths.count % 2 == 1 ? dashLengths + dashLengths : dashLengths
    }
}
