import Foundation
import StrataGraphics
import StrataLayers
import StrataText

// The x and y ranges shown: zooming, panning and animated moves.
extension LineChartLayer {
    // MARK: Viewport

    /// The x range shown now: `visibleXRange`, or all the data's.
    public var shownXRange: ClosedRange<Double> { visibleXRange ?? data.xRange ?? 0...1 }

    /// Zooms the x axis by `factor` (2 shows half as much) around the data x
    /// `center` (the middle of the shown range by default), within the data
    /// and no narrower than `minimumVisibleFraction` of it. Zooming out past
    /// the data shows all of it.
    public func zoom(by factor: Double, aroundX center: Double? = nil) {
        guard factor.isFinite, factor > 0, let all = data.xRange else { return }
        let shown = shownXRange
        visibleXRange = zoomed(shown, by: factor, around: center, within: all, narrowest: minimumVisibleFraction)
    }

    /// `shown` zoomed by `factor` around `center` (its middle when nil or
    /// not finite), keeping the centre where it is on screen, within `all`
    /// and no narrower than `narrowest` of it; nil when it would show all.
    func zoomed(
        _ shown: ClosedRange<Double>, by factor: Double, around center: Double?, within all: ClosedRange<Double>, narrowest: Double
    ) -> ClosedRange<Double>? {
        let c = center.flatMap { $0.isFinite ? $0 : nil } ?? (shown.lowerBound + shown.upperBound) / 2
        let span = shown.upperBound - shown.lowerBound
        let fullSpan = Swift.max(all.upperBound - all.lowerBound, 1e-300)
        let newSpan = Swift.max(fullSpan * Swift.max(0, narrowest), span / factor)
        guard newSpan < fullSpan else { return nil }
        let t = span > 0 ? (c - shown.lowerBound) / span : 0.5
        return clamped(c - t * newSpan, newSpan, within: all)
    }

    /// The y range shown at the last layout: `yRange`, or the visible
    /// data's widened to nice ticks.
    public var shownYRange: ClosedRange<Double> { yRange ?? laidOutYRange }

    /// Zooms the y axis by `factor` (2 shows half as much) around the value
    /// `center` (the middle by default), within the data's y values and no
    /// narrower than `minimumVisibleYFraction` of them; zooming out past
    /// them goes back to following the visible data (`yRange` nil).
    public func zoomY(by factor: Double, aroundY center: Double? = nil) {
        layoutIfNeeded()
        guard factor.isFinite, factor > 0, let all = data.yRange() else { return }
        yRange = zoomed(shownYRange, by: factor, around: center, within: all, narrowest: minimumVisibleYFraction)
    }

    /// Pans the y axis by `dy` data units (positive shows higher values),
    /// within the data's y values; only a zoomed-in y axis moves.
    public func panY(by dy: Double) {
        guard dy.isFinite, let all = data.yRange(), let shown = yRange else { return }
        yRange = clamped(shown.lowerBound + dy, shown.upperBound - shown.lowerBound, within: all)
    }

    // MARK: Animated viewport

    /// Moves the shown x range to `target` (nil: all the data) over
    /// `duration` seconds, frame by frame (a `DisplayLink` on the layer's
    /// host): each frame shows the range between, with `timingFunction`'s
    /// pacing, its M4 and its y range. A new move, or setting
    /// `visibleXRange` from outside, takes over. Without a host, or for a
    /// duration of 0 or NaN, the range is set at once.
    public func setVisibleXRange(
        _ target: ClosedRange<Double>?, duration: Double, timingFunction: TimingFunction = .easeInEaseOut
    ) {
        viewportLink?.invalidate()
        viewportLink = nil
        let duration = Self.clampedDuration(duration)
        let from = shownXRange, to = target ?? data.xRange ?? from
        guard duration > 0, let host = treeHost, to.lowerBound.isFinite, to.upperBound.isFinite else {
            visibleXRange = target
            return
        }
        let start = host.clock.now
        var lastSet = visibleXRange
        let link = DisplayLink { [weak self] link in
            // Gone, or the range set from outside since the last frame: stop.
            guard let self, self.visibleXRange == lastSet else {
                link.invalidate()
                if self?.viewportLink === link { self?.viewportLink = nil }
                return
            }
            defer { lastSet = self.visibleXRange }
            let t = Swift.min(1, Swift.max(0, (link.timestamp - start) / duration))
            let e = timingFunction.value(at: t)
            if t >= 1 {
                link.invalidate()
                self.viewportLink = nil
                self.visibleXRange = target
            } else {
                let lo = from.lowerBound + (to.lowerBound - from.lowerBound) * e
                let hi = from.upperBound + (to.upperBound - from.upperBound) * e
                self.visibleXRange = lo...Swift.max(lo, hi)
            }
        }
        link.add(to: host)
        viewportLink = link
    }

    /// `moveView(toX:)` animated over `duration` seconds (DGCharts'
    /// `moveViewToAnimated`).
    public func moveView(toX x: Double, duration: Double, timingFunction: TimingFunction = .easeInEaseOut) {
        guard x.isFinite, let all = data.xRange else { return }
        let shown = shownXRange
        setVisibleXRange(clamped(x, shown.upperBound - shown.lowerBound, within: all), duration: duration, timingFunction: timingFunction)
    }

    /// Whether the shown range is being moved by `setVisibleXRange(_:duration:)`.
    public var isMovingViewport: Bool { viewportLink != nil }

    /// Pans by `dx` data units (positive shows later x), within the data.
    public func pan(byX dx: Double) {
        guard dx.isFinite, let all = data.xRange, let shown = visibleXRange else { return }
        visibleXRange = clamped(shown.lowerBound + dx, shown.upperBound - shown.lowerBound, within: all)
    }

    /// Shows x = `x` at the left edge (DGCharts' `moveViewToX`), keeping the
    /// shown span, within the data (`moveView(toX:duration:)` animates).
    public func moveView(toX x: Double) {
        guard x.isFinite, let all = data.xRange else { return }
        let shown = shownXRange
        visibleXRange = clamped(x, shown.upperBound - shown.lowerBound, within: all)
    }

    /// A range of `span` starting at `start`, moved to lie within `all`.
    func clamped(_ start: Double, _ span: Double, within all: ClosedRange<Double>) -> ClosedRange<Double> {
        let s = Swift.max(all.lowerBound, Swift.min(start, all.upperBound - span))
        return s...(s + span)
    }
}
