import Foundation

/// How far ahead of and behind the visible rows a list keeps cells drawn
/// and data prepared, in screens (viewport heights), ahead meaning in the
/// direction of motion (Texture's `ASRangeTuningParameters`).
public struct ListRangeTuning: Sendable, Hashable {
    /// Cells exist and draw their contents this far ahead …
    public var displayAhead: Double
    /// … and this far behind.
    public var displayBehind: Double
    /// The prefetching data source is asked for this far ahead …
    public var preloadAhead: Double
    /// … and this far behind.
    public var preloadBehind: Double

    /// Values below 0 or not finite count as 0; above 100, as 100.
    public init(displayAhead: Double = 1, displayBehind: Double = 0.5, preloadAhead: Double = 2.5, preloadBehind: Double = 1.5) {
        func clean(_ v: Double) -> Double { v.isFinite ? Swift.max(0, Swift.min(v, 100)) : 0 }
        self.displayAhead = clean(displayAhead)
        self.displayBehind = clean(displayBehind)
        self.preloadAhead = clean(preloadAhead)
        self.preloadBehind = clean(preloadBehind)
    }
}

/// Which rows a list keeps cells for, prefetches and lets draw: the display
/// and preload ranges around the visible rows (`tuning`), and the fling
/// skip of VVebo's feed, as a value of its own.
///
/// When a drag ends with a fling whose rest point (known in closed form) is
/// more than `flingSkipThreshold` rows away, only the rows visible at the
/// rest point and `flingSkipExtraRows` beyond them in the direction of
/// motion draw while it flies; rows passed on the way show their
/// placeholders, unless the fling slows to under `drawingVelocity` near
/// them.
public struct ListRangePolicy: Sendable, Hashable {
    /// The display and preload ranges.
    public var tuning = ListRangeTuning()
    /// Rows a fling must cross before it skips drawing the rows it passes
    /// (VVebo's 8; below 0 counts as 0).
    public var flingSkipThreshold = 8 { didSet { flingSkipThreshold = Swift.max(0, flingSkipThreshold) } }
    /// Rows drawn beyond the rest point's visible rows, in the direction of
    /// motion (VVebo's 3; held to 0…1000).
    public var flingSkipExtraRows = 3 { didSet { flingSkipExtraRows = Swift.min(1000, Swift.max(0, flingSkipExtraRows)) } }
    /// Below this speed (points per second), a skipping fling draws the rows
    /// it shows (NaN or below 0 counts as 0).
    public var drawingVelocity = 600.0 { didSet { if !(drawingVelocity >= 0) { drawingVelocity = 0 } } }

    public init() {}

    /// The span of content, [y0, y1), that the display range covers for a
    /// view of `height` at offset `y` moving down (`ahead`) or up.
    func displaySpan(offset y: Double, height h: Double, movingDown ahead: Bool) -> (Double, Double) {
        (y - h * (ahead ? tuning.displayBehind : tuning.displayAhead), y + h + h * (ahead ? tuning.displayAhead : tuning.displayBehind))
    }

    /// The span the preload range covers.
    func preloadSpan(offset y: Double, height h: Double, movingDown ahead: Bool) -> (Double, Double) {
        (y - h * (ahead ? tuning.preloadBehind : tuning.preloadAhead), y + h + h * (ahead ? tuning.preloadAhead : tuning.preloadBehind))
    }

    /// The rows a fling from offset `y` to rest at `restY` draws while it
    /// flies, or nil when it passes too few rows to skip any.
    func skippingRows(in layout: ListLayout, from y: Double, to restY: Double, height h: Double) -> Range<Int>? {
        let now = layout.rows(in: y, y + h)
        let there = layout.rows(in: restY, restY + h)
        let distance = Swift.max(abs(there.lowerBound - now.lowerBound), abs(there.upperBound - now.upperBound))
        guard distance > flingSkipThreshold, !there.isEmpty else { return nil }
        // The rows visible at rest, plus a few beyond in the direction of motion.
        let down = restY > y
        let lower = down ? there.lowerBound : Swift.max(0, there.lowerBound - flingSkipExtraRows)
        let upper = down ? Swift.min(layout.numberOfRows, there.upperBound + flingSkipExtraRows) : there.upperBound
        return lower..<upper
    }

    /// Whether `row` may draw now: always unless a fling skips, and then
    /// when it is among the fling's rows, or visible while the list moves
    /// slower than `drawingVelocity`.
    func allowsDrawing(_ row: Int, skipping: Range<Int>?, visible: Range<Int>, speed: Double) -> Bool {
        guard let skipping else { return true }
        return skipping.contains(row) || (abs(speed) < drawingVelocity && visible.contains(row))
    }
}
