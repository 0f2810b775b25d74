import Dispatch
import Foundation
import StrataLayers
import StrataText

/// A graph of live samples (a heart-rate trace, a CPU meter, a sensor at
/// 1 kHz) that stays cheap at any rate: the samples are drawn in a row of
/// tall, thin tile layers, and a new sample redraws one tile (two while it is
/// in the previous tile's padding), never the whole graph.
///
/// Tile `t` owns samples `t · samplesPerTile ..< (t + 1) · samplesPerTile`
/// (`GraphTiling`) and draws `paddingSamples` more on each side, so the
/// segments crossing its edges are drawn on both. Tiles are drawn on the
/// shared `QueuePool` from immutable snapshots of the samples
/// (`SampleBuffer.snapshot(_:)`), never by asking the main actor for them,
/// and their images become the tile layers' contents at the next turn. In
/// **scroll** motion the tiles sit in one strip layer that slides left as
/// samples arrive (one position change a sample, however many tiles); the
/// layer of a tile that leaves the left edge becomes the newest tile on the
/// right, cleared first, so its old picture is never shown there. In
/// **sweep** motion (an ECG monitor's) the tiles stay put and a cursor
/// overwrites the trace from left to right, with a short gap ahead of it.
///
/// When a tile holds more samples than pixel columns, it draws each column's
/// M4 (first, last, smallest and largest sample): the same picture as every
/// sample, at most four points a column, computed from the buffer's block
/// summaries and kept for tiles whose samples are all in.
///
/// All series share one sample clock: `append(_:)` adds one sample to each.
/// NaN and ±infinity are gaps: the line breaks there. Set `contentsScale` to the screen's scale for crisp tiles.
@MainActor
open class StreamingGraphLayer: Layer {
    /// How the trace moves as samples arrive.
    public enum Motion: Sendable, Hashable {
        /// The trace slides left; the newest sample is at the right edge.
        case scroll
        /// The trace stays; a cursor overwrites it from left to right.
        case sweep
    }

    /// The values the plot's height shows.
    public enum ValueRange: Sendable, Hashable {
        /// Follows the visible samples: grows at once to include a sample
        /// outside it, shrinks only when the samples use less than
        /// `shrinkThreshold` of it, and always to round tick values.
        case automatic
        /// Always these values (in either order; equal ends get a margin).
        case fixed(Double, Double)
    }

    /// What the graph has done, for tests and benchmarks.
    @_spi(Benchmarks) public struct Statistics: Sendable, Hashable {
        /// Tile layers created (after warm-up, reused instead).
        public var tileLayersCreated = 0
        /// Tile bitmaps created (the drawing threads reuse theirs).
        public var bitmapsCreated = 0
        /// Tile pictures drawn.
        public var tilesDrawn = 0
        /// Of those, the ones of which only the bands an append changed were
        /// drawn again.
        public var tilesDrawnInPart = 0
        /// Tile redraws asked for (a tile marked twice before drawing counts once).
        public var tileRequests = 0
        /// Time spent drawing tiles, on every thread, in seconds.
        public var drawingSeconds = 0.0
    }

    // MARK: Configuration

    /// The look of each series; the number of series is fixed at creation.
    /// Assigning changes looks in order (extra entries are ignored).
    public var series: [GraphSeriesStyle] {
        didSet {
            var s = oldValue
            for i in 0..<Swift.min(s.count, series.count) { s[i] = series[i] }
            if series != s { series = s }
            invalidateTiles()
        }
    }
    /// The width of a tile in points (default 32; at least 1 pixel).
    public var tileWidth = 32.0 { didSet { invalidateTiles() } }
    /// The distance between samples in points (default 1). Rounded so that
    /// a tile holds a whole number of samples: `tileWidth / samplesPerTile`.
    /// Below 1, several samples share a point, and tiles draw their M4.
    public var pointsPerSample = 1.0 { didSet { invalidateTiles() } }
    /// Samples drawn beyond each tile edge (default 2; more when the line is
    /// too wide for them; held within 1 ... 2²⁰).
    public var paddingSamples = 2 { didSet { invalidateTiles() } }
    /// Scroll (default) or sweep.
    public var motion = Motion.scroll { didSet { invalidateTiles() } }
    /// Automatic (default) or fixed.
    public var valueRange = ValueRange.automatic { didSet { setNeedsLayout() } }
    /// The fraction of the automatic range the samples must use before it
    /// shrinks (default 0.4; held within 0 ... 1, NaN counts as 0.4).
    public var shrinkThreshold = 0.4
    /// How long a change of the value range animates (0: at once; default
    /// 0.25 s; held within 0 ... 10 s, NaN counts as 0).
    public var rangeAnimationDuration = 0.25
    /// How long the strip takes to slide by a new sample (0: at once, the
    /// default, right when a frame brings one sample). Set it to the time
    /// between samples for a smooth slide between slower samples. Held
    /// within 0 ... 10 s; NaN counts as 0.
    public var scrollAnimationDuration = 0.0
    /// The gap ahead of the sweep cursor, as a fraction of the width (default 0.04).
    public var sweepGap = 0.04 { didSet { invalidateTiles() } }
    /// The plot's background (tiles are opaque with it).
    public var plotBackgroundColor = Color.white { didSet { invalidateTiles() } }
    /// Horizontal lines at the value ticks (and vertical ones at the time
    /// ticks); nil for none.
    public var gridColor: Color? = Color(white: 0.9) { didSet { invalidateTiles() } }
    /// Whether the value axis's labels are shown at the left.
    public var showsValueAxis = true { didSet { invalidateTiles() } }
    /// Samples per second; when set, a time axis runs along the bottom,
    /// its labels moving with the tiles (scroll motion only).
    public var sampleRate: Double? { didSet { invalidateTiles() } }
    public var labelFont = Font(family: "DejaVu Sans", size: 10, cascadeList: ["WenQuanYi Micro Hei"]) {
        didSet { invalidateTiles() }
    }
    public var labelColor = Color(white: 0.35) { didSet { invalidateTiles() } }
    /// Whether tiles draw on the queue pool (default) or at once, on the
    /// main actor, at the commit.
    public var drawsAsynchronously = true
    /// What assistive tools call the graph; nil: "Streaming graph".
    public var accessibilityTitle: String?
    /// Called on each append (set by a view over the graph, which tells
    /// assistive tools when one listens).
    public var accessibilityValueDidChange: (@MainActor () -> Void)?

    // MARK: State

    /// The samples of each series.
    public let buffers: [SampleBuffer]
    /// Samples appended so far (per series).
    public var count: Int { buffers.first?.count ?? 0 }
    /// The values the plot shows now; nil before the first layout.
    public private(set) var displayedRange: ClosedRange<Double>?
    /// Where the view ends when paused (nil: following the newest sample).
    private var viewEnd: Int?

    /// The plot (masking to its bounds), the strip of tiles and time labels
    /// that scrolls in it, and the value axis (internal for the tests).
    let plotLayer = Layer()
    let stripLayer = Layer()
    let axisLayer = ValueAxisLayer()
    /// The time labels: text layers in the strip, reused (`layoutTimeLabels`).
    private var timeLabels: [TimeLabel] = []
    /// The time labels' sizes by text, for `timeLabelSizesFont`.
    private var timeLabelSizes: [String: Size] = [:]
    private var timeLabelSizesFont: Font?
    private var slots: [Int: Slot] = [:]
    private var spare: [Layer] = []
    private var dirty = Set<Int>()
    private var style: GraphTileStyle?
    private var scale: NiceScale?
    private var epoch = 0
    private var nextRequest = 0
    private var baseTile = 0
    private var generation = 0
    private var axisWidth = 0.0
    private var measuredAxis: (scale: NiceScale, font: Font)?
    private var measuredTimeLabel: (Font, Double)?
    private var layersCreated = 0
    private var requests = 0
    private var lastStripX: Double?
    /// Tiles of the current epoch still out, and the results held until they
    /// are all in (a new value range shows in every tile at once).
    private var epochWaiting = Set<Int>()
    private var held: [Finished] = []
    private var pendingRangeAnimation: (from: ClosedRange<Double>, to: ClosedRange<Double>)?
    private let renderer = GraphTileRenderer()
    private let mailbox = Locked<[Finished]>([])
    private let inFlight = DispatchGroup()

    private struct Slot {
        let layer: Layer
        var request = -1
    }

    /// A time label's layer and what it shows now.
    private struct TimeLabel {
        let layer: TextLayer
        /// The tick it labels; nil when hidden.
        var tick: Int?
        var text: AttributedText?
        /// The slide it follows (start x, end x, begin time), if any.
        var slide: [Double]?
    }

    struct Finished: Sendable {
        let tile: Int
        let epoch: Int
        let request: Int
        let image: Image?
    }

    nonisolated(unsafe) private static var generations = 0

    /// A graph of `series` (one series, blue, by default) keeping the newest
    /// `capacity` samples of each (at least 1).
    public init(series: [GraphSeriesStyle] = [GraphSeriesStyle(color: Color(red: 0.1, green: 0.45, blue: 0.9))], capacity: Int = 100_000) {
        let looks = series.isEmpty ? [GraphSeriesStyle(color: .black)] : series
        self.series = looks
        buffers = looks.map { _ in SampleBuffer(capacity: capacity) }
        super.init()
        Self.generations += 1
        generation = Self.generations
        masksToBounds = true
        plotLayer.masksToBounds = true
        plotLayer.anchorPoint = .zero
        stripLayer.anchorPoint = .zero
        axisLayer.anchorPoint = .zero
        // Value labels on their way in or out of the range are hidden beyond
        // the plot's height, as their grid lines are.
        axisLayer.masksToBounds = true
        for l in [plotLayer, stripLayer, axisLayer] {
            l.actions = [
                "position": .noAction, "bounds": .noAction, "contents": .noAction, "transform": .noAction,
                "backgroundColor": .noAction,
            ]
        }
        addSublayer(plotLayer)
        plotLayer.addSublayer(stripLayer)
        addSublayer(axisLayer)
    }

    /// A copy of `layer`'s configuration (its presentation copy), with empty
    /// buffers of the same capacity.
    public required init?(coder: NSCoder) {
        let layer = LayerCopyCoder.model(of: coder)
        let other = layer as? StreamingGraphLayer
        series = other?.series ?? [GraphSeriesStyle(color: .black)]
        buffers = series.map { _ in SampleBuffer(capacity: other?.buffers.first?.capacity ?? 1) }
        super.init(coder: coder)
    }

    // MARK: Appending

    /// Appends one sample to each series, in order (a missing value is a
    /// gap; extra values are ignored).
    public func append(_ samples: Double...) { append(row: samples) }

    /// Appends one sample to each series, in order.
    public func append(row: [Double]) {
        appendWithoutMarking(row)
        noteAppended(1)
    }

    /// Appends samples to the first series (gaps in the others).
    public func append(contentsOf samples: some Sequence<Double>) {
        let done: Void? = samples.withContiguousStorageIfAvailable { append(columns: [$0]) }
        if done == nil { append(columns: [Array(samples)]) }
    }

    /// Appends many samples to every series at once: `columns[s]` holds the
    /// new samples of series `s`, oldest first (one column of a table whose
    /// rows are sample times). A shorter column, or a missing one, is padded
    /// with gaps to the longest; extra columns are ignored. NaN and the
    /// infinities are gaps.
    ///
    /// Samples are copied a chunk at a time, and only the tiles the new
    /// samples reach are drawn again: the way to feed a fast stream, such as
    /// a frame's worth of a sensor sampled at megahertz.
    public func append(columns: [[Double]]) {
        withBuffers(columns, []) { append(columns: $0) }
    }

    /// Appends many samples to every series at once, from memory the caller
    /// owns (see `append(columns:)`); nothing is kept after the call.
    public func append(columns: [UnsafeBufferPointer<Double>]) {
        let n = columns.prefix(buffers.count).map(\.count).max() ?? 0
        guard n > 0 else { return }
        for (s, buffer) in buffers.enumerated() {
            let column = s < columns.count ? columns[s] : UnsafeBufferPointer(start: nil, count: 0)
            buffer.append(column, replacingNonFinite: true)
            var missing = n - column.count
            while missing > 0 {
                let k = Swift.min(missing, Self.gaps.count)
                Self.gaps.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<k])) }
                missing -= k
            }
        }
        noteAppended(n)
    }

    /// Gaps to pad short columns with.
    private static let gaps = [Double](repeating: .nan, count: 4096)

    /// Calls `body` with `done` followed by pointers to the arrays of
    /// `columns` that come after the first `done.count` (as many as there are
    /// series). Nested: each array is pinned for the whole call.
    private func withBuffers(
        _ columns: [[Double]], _ done: [UnsafeBufferPointer<Double>], _ body: ([UnsafeBufferPointer<Double>]) -> Void
    ) {
        guard done.count < Swift.min(columns.count, buffers.count) else { return body(done) }
        columns[done.count].withUnsafeBufferPointer { withBuffers(columns, done + [$0], body) }
    }

    /// Appends rows: one sample per series each.
    public func append(contentsOf rows: [[Double]]) {
        for row in rows { appendWithoutMarking(row) }
        noteAppended(rows.count)
    }

    /// One sample per series from `row`: missing values, NaN and the
    /// infinities are gaps (no line can be drawn to them, and an automatic
    /// range could not include them).
    private func appendWithoutMarking(_ row: [Double]) {
        for (s, buffer) in buffers.enumerated() { buffer.append(s < row.count ? Self.clean(row[s]) : .nan) }
    }

    private static func clean(_ v: Double) -> Double { v.isFinite ? v : .nan }

    /// A duration setting held within 0 ... 10 seconds (NaN: 0).
    private static func seconds(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(10, Swift.max(0, v)) }

    /// Forgets every sample.
    public func removeAll() {
        for b in buffers { b.removeAll() }
        Self.generations += 1
        generation = Self.generations
        viewEnd = nil
        invalidateTiles()
    }

    private func noteAppended(_ n: Int) {
        guard n > 0 else { return }
        accessibilityValueDidChange?()
        if let style {
            let tiling = style.tiling
            let appended = (count - n)..<count
            switch motion {
            case .scroll:
                guard let tiles = tiling.tilesToRedraw(afterAppending: appended) else { break }
                if tiles.count > slots.count {
                    for t in slots.keys where tiles.contains(t) { mark(t) }
                } else {
                    for t in tiles where slots[t] != nil { mark(t) }
                }
            case .sweep:
                for t in sweepTiles(afterAppending: appended, style: style) { mark(t) }
            }
        }
        setNeedsLayout()
    }

    private func mark(_ tile: Int) {
        if dirty.insert(tile).inserted { requests += 1 }
    }

    private func invalidateTiles() {
        style = nil
        setNeedsLayout()
    }

    // MARK: History

    /// Whether the view follows the newest sample.
    public var isFollowingLiveEdge: Bool { viewEnd == nil }

    /// The indices in view (in scroll motion; the current sweep in sweep motion).
    public var visibleSamples: Range<Int> {
        let end = viewEnd ?? count
        let n = Int((plotWidth / effectivePointsPerSample).rounded(.up))
        return Swift.max(0, end - n)..<end
    }

    /// Stops following the newest sample: the view stays where it is while
    /// samples keep arriving.
    public func pause() {
        guard viewEnd == nil else { return }
        viewEnd = count
    }

    /// Follows the newest sample again.
    public func resume() {
        guard viewEnd != nil else { return }
        viewEnd = nil
        setNeedsLayout()
    }

    /// Moves the paused view by `samples` (negative: back in time), kept
    /// within the buffered history; pauses first if needed.
    public func scroll(by samples: Int) {
        pause()
        let (target, overflow) = (viewEnd ?? count).addingReportingOverflow(samples)
        scroll(toEnd: overflow ? (samples < 0 ? .min : .max) : target)
    }

    /// Shows the view ending at sample `end` (paused; clamped to the history).
    public func scroll(toEnd end: Int) {
        pause()
        // The earliest end that still fills the view with kept samples.
        let earliest = Swift.min(count, buffers[0].startIndex + Int((plotWidth / effectivePointsPerSample).rounded(.up)))
        viewEnd = Swift.min(count, Swift.max(earliest, end))
        setNeedsLayout()
    }

    /// Zooms the time axis by `factor` (2: twice as many points per sample),
    /// keeping the view's end; clamped so a tile holds between 1 and 2³⁰ samples.
    public func zoom(by factor: Double) {
        guard factor > 0, factor.isFinite else { return }
        let width = validTileWidth
        pointsPerSample = Swift.min(width, Swift.max(width / Double(1 << 30), effectivePointsPerSample * factor))
    }

    // MARK: Drawing

    /// Waits for the tiles being drawn and shows them (with a manual clock,
    /// before rendering a frame that must include them).
    public func waitUntilDrawn() {
        for _ in 0..<4 {
            if needsLayout { layoutIfNeeded() }
            inFlight.wait()
            applyFinished()
            if dirty.isEmpty && epochWaiting.isEmpty && !needsLayout { break }
        }
    }

    /// Waits for the tiles being drawn without showing them: they are shown
    /// when the main queue runs (benchmarks time that part apart).
    public func waitUntilDrawnWithoutApplying() {
        if needsLayout { layoutIfNeeded() }
        inFlight.wait()
    }

    /// What the graph has done so far.
    @_spi(Benchmarks) public var statistics: Statistics {
        Statistics(
            tileLayersCreated: layersCreated, bitmapsCreated: renderer.bitmapsCreated, tilesDrawn: renderer.tilesDrawn,
            tilesDrawnInPart: renderer.tilesDrawnInPart, tileRequests: requests, drawingSeconds: renderer.drawingSeconds)
    }

    /// Redraws every tile from scratch (their sealed M4 points are kept).
    public func redrawAllTiles() {
        renderer.forgetDrawings()
        for t in slots.keys { mark(t) }
        setNeedsLayout()
    }

    /// The tiles marked for redraw and not yet sent to be drawn.
    public var tilesAwaitingRedraw: Set<Int> { dirty }

    /// The tiles that have layers now (tile numbers; sweep slots in sweep motion).
    public var tilesInUse: [Int] { slots.keys.sorted() }

    open override func layoutSublayers() {
        super.layoutSublayers()
        layoutGraph()
    }

    /// Where the plot is, in the layer's bounds: the bounds less the value
    /// axis at the left and the time labels at the bottom (as last laid out).
    public var plotFrame: Rect { plotRect }

    private var plotRect: Rect {
        let b = bounds
        let axisH = timeAxisHeight
        let left = showsValueAxis ? axisWidth : 0
        // At most 16,384 pixels of plot (the largest backing image): a wider
        // graph shows its newest 16,384 at the left of its bounds.
        let limit = 16384 / contentsScale
        return Rect(
            x: b.minX + left, y: b.minY, width: Swift.min(limit, Swift.max(0, b.width - left)),
            height: Swift.min(limit, Swift.max(0, b.height - axisH)))
    }

    private var plotWidth: Double { plotRect.width }

    /// The band under the plot where the time labels go.
    private var timeAxisHeight: Double { (motion == .scroll && (sampleRate ?? 0) > 0) ? labelLineHeight + 6 : 0 }

    private var labelLineHeight: Double { (labelFont.ascent - labelFont.descent).rounded(.up) }

    /// `pointsPerSample` as drawn: a tile holds a whole number of samples.
    private var effectivePointsPerSample: Double {
        validTileWidth / Double(samplesPerTile)
    }

    private var samplesPerTile: Int {
        let tw = validTileWidth
        let pps = pointsPerSample.isFinite && pointsPerSample > 0 ? pointsPerSample : 1
        return Swift.max(1, Swift.min(1 << 30, Int((tw / pps).rounded())))
    }

    private var validTileWidth: Double {
        let s = contentsScale
        return tileWidth.isFinite ? Swift.min(1024, Swift.max(1 / s, tileWidth)) : 32
    }

    private func layoutGraph() {
        let newScale = valueScale(plotHeight: plotRect.height)
        if showsValueAxis { updateAxisWidth(for: newScale) }
        let plot = plotRect
        let axisH = timeAxisHeight
        plotLayer.frame = Rect(x: plot.minX, y: plot.minY, width: plot.width, height: plot.height + axisH)
        // Opaque (the usual case), the plot lets the compositor scroll its
        // pixels instead of redrawing them (`FrameCopy`), and shows through
        // tiles not drawn yet. A translucent one is in the tiles alone.
        plotLayer.backgroundColor = placeholderColor == nil ? plotBackgroundColor : nil
        axisLayer.isHidden = !showsValueAxis
        axisLayer.frame = Rect(x: bounds.minX, y: plot.minY, width: plot.minX - bounds.minX, height: plot.height)
        axisLayer.placeLabelsHorizontally()
        guard plot.width > 0, plot.height > 0, plot.width.isFinite, plot.height.isFinite else {
            for t in slots.keys { retire(t) }
            dirty.removeAll()
            hideTimeLabels()
            return
        }
        let newStyle = makeStyle(plot: plot, axisHeight: axisH, scale: newScale)
        if newStyle != style {
            if let old = style, old.yLower != newStyle.yLower || old.yUpper != newStyle.yUpper, Self.seconds(rangeAnimationDuration) > 0,
                old.tileWidth == newStyle.tileWidth, old.samplesPerTile == newStyle.samplesPerTile
            {
                // From the range on screen: a change not shown yet (its
                // pictures still out) was never on screen.
                let shown = pendingRangeAnimation?.from ?? old.yLower...old.yUpper
                pendingRangeAnimation = (shown, newStyle.yLower...newStyle.yUpper)
            } else {
                pendingRangeAnimation = nil
            }
            style = newStyle
            scale = newScale
            displayedRange = newStyle.yLower...newStyle.yUpper
            epoch += 1
            held.removeAll()
            epochWaiting.removeAll()
            dirty.removeAll()
            // The value labels change with the pictures: at once, or when
            // the held pictures are shown (`releaseHeld`).
            if pendingRangeAnimation == nil { axisLayer.configure(scale: newScale, style: newStyle) }
            if !slots.isEmpty && pendingRangeAnimation == nil {
                // A new geometry: the old pictures cannot stand in.
                for (_, slot) in slots { show(nil, in: slot.layer) }
            }
            for t in slots.keys { mark(t) }
        }
        guard let style else { return }
        layoutTiles(style: style, plot: plot)
        applyFinished()
        sendDirtyTiles(style: style)
        if epochWaiting.isEmpty { releaseHeld() }
    }

    /// The value scale for the samples in view (automatic) or the fixed one.
    private func valueScale(plotHeight: Double) -> NiceScale {
        let ticks = Swift.max(2, Int(plotHeight / (labelLineHeight * 4)))
        switch valueRange {
        case .fixed(let a, let b):
            let s = NiceScale(covering: a, b, ticks: ticks)
            // A fixed range is shown as given; the ticks are the nice ones inside it.
            let lo = a.isFinite && b.isFinite && a != b ? Swift.min(a, b) : s.lower
            let hi = a.isFinite && b.isFinite && a != b ? Swift.max(a, b) : s.upper
            return NiceScale(exactly: lo, hi, step: s.step)
        case .automatic:
            var lo = Double.infinity, hi = -Double.infinity
            let visible = visibleRange
            for b in buffers {
                if let e = b.extremes(in: visible) {
                    lo = Swift.min(lo, e.min)
                    hi = Swift.max(hi, e.max)
                }
            }
            lo = Swift.max(lo, -1e300)
            hi = Swift.min(hi, 1e300)
            guard lo <= hi else { return scale ?? NiceScale(covering: 0, 1, ticks: ticks) }
            if let current = scale, lo >= current.lower, hi <= current.upper,
                hi - lo >= (shrinkThreshold.isNaN ? 0.4 : Swift.min(1, Swift.max(0, shrinkThreshold))) * (current.upper - current.lower)
            {
                return current
            }
            let margin = (hi - lo) * 0.05
            return NiceScale(covering: lo - margin, hi + margin, ticks: ticks)
        }
    }

    /// The samples the tiles in view cover.
    private var visibleRange: Range<Int> {
        switch motion {
        case .scroll: return visibleSamples
        case .sweep:
            return Swift.max(0, count - sweepLength)..<count
        }
    }

    private func makeStyle(plot: Rect, axisHeight: Double, scale: NiceScale) -> GraphTileStyle {
        let s = contentsScale
        let tw = validTileWidth
        let spt = samplesPerTile
        let pps = effectivePointsPerSample
        let columns = Swift.max(1, Int((tw * s).rounded()))
        let widest = series.map(\.lineWidth).max() ?? 1.5
        let pad = Swift.max(Swift.min(1 << 20, paddingSamples), Int((0.5 + widest / (2 * pps)).rounded(.up)))
        let padColumns = Int((0.5 + widest * s / 2).rounded(.up)) + 1
        var timeStep = 0, labelWidth = 0.0
        if motion == .scroll, let rate = sampleRate, rate > 0, rate.isFinite {
            labelWidth = timeLabelWidth
            var step = NiceScale.niceNumber(labelWidth * 1.6 / (pps * rate), rounding: false)
            step = Swift.max(step, 1 / rate)
            timeStep = Swift.max(1, Int((step * rate).rounded()))
        }
        return GraphTileStyle(
            tileWidth: tw, plotHeight: plot.height, axisHeight: axisHeight, scale: s, pointsPerSample: pps,
            samplesPerTile: spt, columnsPerTile: columns, decimates: spt >= 4 * columns, paddingSamples: pad,
            paddingColumns: padColumns, yLower: scale.lower, yUpper: scale.upper, background: plotBackgroundColor,
            gridColor: gridColor, gridValues: scale.ticks, series: series, timeStep: timeStep, sampleRate: sampleRate ?? 1,
            labelFont: labelFont, labelColor: labelColor, labelWidth: labelWidth)
    }

    private func measure(_ text: String) -> Double {
        textSize(text, font: labelFont).width
    }

    private func updateAxisWidth(for scale: NiceScale) {
        guard measuredAxis?.scale != scale || measuredAxis?.font != labelFont else { return }
        let widest = scale.ticks.map { measure(scale.label(for: $0)) }.max() ?? 0
        measuredAxis = (scale, labelFont)
        // It only grows, so the plot does not jump back and forth with the labels.
        axisWidth = Swift.max(axisWidth, (widest + 10).rounded(.up))
    }

    /// The width a time label is given (measured once per font).
    private var timeLabelWidth: Double {
        if let (font, width) = measuredTimeLabel, font == labelFont { return width }
        let width = measure("00:00") + 12
        measuredTimeLabel = (labelFont, width)
        return width
    }

    // MARK: Time labels

    /// The time labels shown now, left to right: their texts and layers (in
    /// strip coordinates).
    var shownTimeLabels: [(text: String, layer: TextLayer)] {
        timeLabels.compactMap { l in l.tick.map { ($0, l.text?.string ?? "", l.layer) } }.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
    }

    /// Where a time label goes: centred under its tick, or moved in (`x`).
    struct TimeLabelPlacement: Equatable {
        var tick: Int, text: String, size: Size, centred: Double, x: Double
        var moved: Bool { x != centred }
    }

    /// The space kept between a time label moved in at an end and its neighbour.
    static let timeLabelGap = 4.0

    /// The labels of `placements` (left to right) that are shown: a label
    /// moved in at an end gives way to the neighbour it would come within
    /// `timeLabelGap` of; labels where the tiles drew them stay as they were.
    static func keptTimeLabels(_ placements: [TimeLabelPlacement]) -> [TimeLabelPlacement] {
        var kept: [TimeLabelPlacement] = []
        for p in placements {
            while let last = kept.last, last.moved, last.x + last.size.width + timeLabelGap > p.x { kept.removeLast() }
            if let last = kept.last, p.moved, last.x + last.size.width + timeLabelGap > p.x { continue }
            kept.append(p)
        }
        return kept
    }

    /// No implicit animation for the layers the graph moves itself.
    static let noActions: [String: LayerAction] = [
        "position": .noAction, "bounds": .noAction, "contents": .noAction, "hidden": .noAction, "opacity": .noAction,
        "transform": .noAction, "foregroundColor": .noAction, "fontSize": .noAction, "backgroundColor": .noAction,
    ]

    /// Places the time labels (scroll motion with a sample rate) as text
    /// layers in the strip, so they scroll with the tiles exactly: the strip's
    /// one position change, its slide and the compositor's copy of the plot's
    /// pixels move them too. A label is shown for each tick whose line is in
    /// the plot, centred under it on whole device pixels (where the tiles drew
    /// the labels before). One that would cross the plot's left or right edge
    /// is moved inward to end at it, and hidden if it then comes within
    /// `timeLabelGap` of its neighbour (`AxisLabels`' rule for the ends).
    /// While the strip slides, a label moved in follows the opposite slide
    /// (the same timing), so it stays at the edge, inside the plot all along.
    private func layoutTimeLabels(style: GraphTileStyle, plot: Rect, tiles: ClosedRange<Int>, stripX: Double) {
        let spt = style.samplesPerTile, s = style.scale
        let first = Swift.max(0, tiles.lowerBound * spt), end = (tiles.upperBound + 1) * spt
        guard style.timeStep > 0, first < end else { return hideTimeLabels() }
        if timeLabelSizesFont != style.labelFont || timeLabelSizes.count > 512 {
            timeLabelSizes.removeAll()
            timeLabelSizesFont = style.labelFont
        }
        // Where the strip slides from, while it slides (to `stripX`).
        let slide = stripLayer.animation(forKey: "slide") as? BasicAnimation
        let slideFrom = (slide?.fromValue as? Point).map(\.x)
        /// `x` of a label `w` wide kept inside the plot with the strip at `p`.
        func inside(_ x: Double, _ w: Double, stripAt p: Double) -> Double {
            let left = -p, right = plot.width - p
            var x = x
            if x + w > right { x = ((right - w) * s).rounded(.down) / s }
            if x < left { x = (left * s).rounded(.up) / s }
            return x
        }
        var items: [TimeLabelPlacement] = []
        for tick in style.timeTicks(in: first..<end) {
            let t = GraphTiling.floorDivision(tick, spt)
            let tileX = Double(t - baseTile) * style.tileWidth, tickX = style.tickX(tick, origin: t * spt)
            // Only the ticks whose line is in the plot.
            guard tileX + tickX >= -stripX, tileX + tickX < plot.width - stripX else { continue }
            let text = GraphTimeFormat.label(seconds: Double(tick) / style.sampleRate, step: Double(style.timeStep) / style.sampleRate)
            let size: Size
            if let known = timeLabelSizes[text] {
                size = known
            } else {
                size = textSize(text, font: style.labelFont)
                timeLabelSizes[text] = size
            }
            guard size.width <= plot.width else { continue }
            let centred = tileX + ((tickX - size.width / 2) * s).rounded() / s
            let x = inside(centred, size.width, stripAt: stripX)
            items.append(TimeLabelPlacement(tick: tick, text: text, size: size, centred: centred, x: x))
        }
        let kept = Self.keptTimeLabels(items)
        // The layers of the ticks still shown keep them; the others are free.
        let shown = Set(kept.map(\.tick))
        var unused: [Int] = []
        var byTick: [Int: Int] = [:]
        for i in timeLabels.indices {
            if let t = timeLabels[i].tick, shown.contains(t) { byTick[t] = i } else { unused.append(i) }
        }
        unused.reverse()
        let attributes = TextAttributes(font: style.labelFont, foregroundColor: style.labelColor)
        for item in kept {
            let i: Int
            if let known = byTick[item.tick] {
                i = known
            } else if let reused = unused.popLast() {
                i = reused
            } else {
                let layer = TextLayer()
                layer.anchorPoint = .zero
                layer.actions = Self.noActions
                stripLayer.addSublayer(layer)
                timeLabels.append(TimeLabel(layer: layer))
                i = timeLabels.count - 1
            }
            let text = AttributedText(item.text, attributes: attributes)
            let layer = timeLabels[i].layer
            if timeLabels[i].text != text {
                layer.attributedString = text
                timeLabels[i].text = text
            }
            timeLabels[i].tick = item.tick
            layer.isHidden = false
            // The tiles drew the labels 4 points under the plot.
            layer.frame = Rect(x: item.x, y: style.plotHeight + 4, width: item.size.width, height: item.size.height)
            var follows: [Double]?
            if let slide, let from = slideFrom {
                let start = inside(item.centred, item.size.width, stripAt: from)
                if start != item.x { follows = [start, item.x, slide.timing.beginTime] }
            }
            guard follows != timeLabels[i].slide else { continue }
            timeLabels[i].slide = follows
            if let follows, var counter = slide {
                counter.keyPath = "position.x"
                counter.fromValue = follows[0]
                counter.toValue = follows[1]
                counter.byValue = nil
                layer.add(counter, forKey: "slide")
            } else {
                layer.removeAnimation(forKey: "slide")
            }
        }
        for i in unused { hideTimeLabel(i) }
    }

    private func hideTimeLabels() {
        for i in timeLabels.indices where timeLabels[i].tick != nil { hideTimeLabel(i) }
    }

    private func hideTimeLabel(_ i: Int) {
        timeLabels[i].tick = nil
        timeLabels[i].slide = nil
        timeLabels[i].layer.isHidden = true
        timeLabels[i].layer.removeAnimation(forKey: "slide")
    }

    // MARK: Tiles

    private func layoutTiles(style: GraphTileStyle, plot: Rect) {
        let needed: ClosedRange<Int>
        let tw = style.tileWidth
        switch motion {
        case .scroll:
            let end = viewEnd ?? count
            let visibleCount = Int((plot.width / style.pointsPerSample).rounded(.up)) + 1
            let slideDuration = Self.seconds(scrollAnimationDuration)
            let slide = slideDuration > 0 ? style.samplesPerTile : 0
            let tiling = GraphTiling(samplesPerTile: style.samplesPerTile)
            let newest = tiling.tile(forSample: end - 1)
            let oldest = tiling.tile(forSample: end - visibleCount - slide)
            needed = oldest...Swift.max(oldest, newest)
            if abs(newest - baseTile) > 1 << 20 || slots.isEmpty { rebase(to: oldest, style: style) }
            // The newest sample's centre at the right edge, on whole pixels.
            let x = plot.width - Double(end - baseTile * style.samplesPerTile) * style.pointsPerSample
            let snapped = (x * style.scale).rounded() / style.scale
            if lastStripX != snapped {
                if slideDuration > 0, let last = lastStripX, abs(snapped - last) < plot.width {
                    var move = BasicAnimation(keyPath: "position", from: Point(x: last, y: 0), to: Point(x: snapped, y: 0))
                    move.timing.duration = slideDuration
                    move.timingFunction = .linear
                    stripLayer.add(move, forKey: "slide")
                }
                stripLayer.position = Point(x: snapped, y: 0)
                lastStripX = snapped
            }
        case .sweep:
            if lastStripX != 0 || baseTile != 0 {
                baseTile = 0
                stripLayer.position = .zero
                lastStripX = 0
                for (t, slot) in slots { slot.layer.frame = frame(ofTile: t, style: style) }
            }
            let n = Int((plot.width / tw).rounded(.up))
            needed = 0...Swift.max(0, n - 1)
        }
        stripLayer.bounds = Rect(x: 0, y: 0, width: 0, height: style.tileHeight)
        for t in slots.keys where !needed.contains(t) { retire(t) }
        for t in needed where slots[t] == nil {
            let layer: Layer
            if let reused = spare.popLast() {
                layer = reused
            } else {
                let tileLayer = GraphTileLayer()
                tileLayer.graph = self
                layer = tileLayer
                layer.anchorPoint = .zero
                layer.actions = [
                    "position": .noAction, "bounds": .noAction, "contents": .noAction, "hidden": .noAction,
                    "backgroundColor": .noAction,
                ]
                // Below the time labels.
                stripLayer.insertSublayer(layer, at: 0)
                layersCreated += 1
            }
            (layer as? GraphTileLayer)?.tile = t
            // Cleared before it is shown again: never the old tile's picture here.
            layer.contents = nil
            layer.backgroundColor = placeholderColor
            layer.contentsScale = style.scale
            layer.frame = frame(ofTile: t, style: style)
            layer.isHidden = false
            slots[t] = Slot(layer: layer)
            mark(t)
        }
        if motion == .scroll, let x = lastStripX {
            layoutTimeLabels(style: style, plot: plot, tiles: needed, stripX: x)
        } else {
            hideTimeLabels()
        }
    }

    /// Takes tile `t`'s layer out of view, cleared, for reuse.
    private func retire(_ t: Int) {
        guard let slot = slots.removeValue(forKey: t) else { return }
        slot.layer.isHidden = true
        slot.layer.contents = nil
        spare.append(slot.layer)
        dirty.remove(t)
        epochWaiting.remove(t)
    }

    private func frame(ofTile t: Int, style: GraphTileStyle) -> Rect {
        Rect(x: Double(t - baseTile) * style.tileWidth, y: 0, width: style.tileWidth, height: style.tileHeight)
    }

    /// Moves the strip's origin to tile `tile`, so strip coordinates stay small.
    private func rebase(to tile: Int, style: GraphTileStyle) {
        baseTile = tile
        for (t, slot) in slots { slot.layer.frame = frame(ofTile: t, style: style) }
        lastStripX = nil
        stripLayer.removeAnimation(forKey: "slide")
    }

    /// The sweep slots appending `samples` changes: for each, where the
    /// cursor is, the padding behind it and the gap it clears ahead.
    private func sweepTiles(afterAppending samples: Range<Int>, style: GraphTileStyle) -> [Int] {
        let n = sweepLength
        let spt = style.samplesPerTile
        guard samples.count < n else { return Array(0...((n - 1) / spt)) }
        let gap = sweepGapSamples
        let pad = style.tiling.paddingSamples
        // The positions in one sweep, then (at most once) those of the next.
        let first = samples.lowerBound % n, last = first + samples.count - 1
        let runs = last < n ? [first...last] : [first...(n - 1), 0...(last - n)]
        var tiles = Set<Int>()
        for run in runs {
            let lo = Swift.max(0, run.lowerBound - pad), hi = Swift.min(n - 1, run.upperBound + gap + pad)
            tiles.formUnion(GraphTiling.floorDivision(lo, spt)...GraphTiling.floorDivision(hi, spt))
        }
        return tiles.sorted()
    }

    /// Samples across one sweep (the plot's width).
    private var sweepLength: Int {
        Swift.max(2, Int((plotWidth / effectivePointsPerSample).rounded(.down)))
    }

    /// Samples cleared ahead of the sweep cursor.
    private var sweepGapSamples: Int {
        let n = sweepLength
        return Swift.max(1, Swift.min(n / 2, Int((Double(n) * (sweepGap.isFinite ? Swift.max(0, sweepGap) : 0.04)).rounded())))
    }

    /// Draws tile slot `tile` as vectors into `canvas` (in the tile's
    /// points, clipped to it), from the samples there are now: the tile
    /// layer's drawing on a vector canvas (`GraphTileLayer`).
    fileprivate func drawTile(_ tile: Int, in canvas: Canvas) {
        guard let style, !buffers.isEmpty else { return }
        let range: Range<Int>
        switch motion {
        case .scroll:
            range = style.drawnPositions(ofTile: tile)
        case .sweep:
            let n = sweepLength
            range = Swift.max(0, ((count - 1) / n - 1) * n)..<Swift.max(Swift.max(0, ((count - 1) / n - 1) * n), count)
        }
        let snapshots = buffers.map { $0.snapshot(range) }
        renderer.drawVectors(tile: tile, parts: parts(ofTile: tile, style: style, snapshots: snapshots), style: style, in: canvas)
    }

    /// The stretches tile `tile` draws of each series.
    private func parts(ofTile tile: Int, style: GraphTileStyle, snapshots: [SampleSnapshot]) -> [[GraphTilePart]] {
        let drawn = style.drawnPositions(ofTile: tile)
        let total = count
        func part(_ s: Int, _ positions: Range<Int>, base: Int) -> GraphTilePart? {
            guard !positions.isEmpty else { return nil }
            let indices = (base + positions.lowerBound)..<(base + positions.upperBound)
            let sealed = indices.upperBound <= total && indices.lowerBound >= buffers[s].startIndex
            let key = M4CacheKey(
                generation: generation, series: s, start: indices.lowerBound, end: indices.upperBound,
                samplesPerTile: style.samplesPerTile, columnsPerTile: style.columnsPerTile)
            return GraphTilePart(snapshot: snapshots[s], positions: positions, base: base, isSealed: sealed, cacheKey: key)
        }
        switch motion {
        case .scroll:
            return (0..<buffers.count).map { s in [part(s, drawn, base: 0)].compactMap { $0 } }
        case .sweep:
            let n = sweepLength
            guard total > 0 else { return buffers.map { _ in [] } }
            let cursor = (total - 1) % n, sweep = (total - 1) / n
            let gap = sweepGapSamples
            let lo = Swift.max(0, drawn.lowerBound), hi = Swift.min(n, drawn.upperBound)
            return (0..<buffers.count).map { s in
                var out: [GraphTilePart] = []
                if let p = part(s, lo..<Swift.max(lo, Swift.min(hi, cursor + 1)), base: sweep * n) { out.append(p) }
                let after = Swift.max(lo, cursor + gap + 1)
                if sweep > 0, let p = part(s, after..<Swift.max(after, hi), base: (sweep - 1) * n) {
                    out.append(p)
                }
                return out
            }
        }
    }

    private func sendDirtyTiles(style: GraphTileStyle) {
        guard !dirty.isEmpty else { return }
        let tiles = dirty.sorted()
        dirty.removeAll()
        // One snapshot per series, shared by the tiles: no sample is copied.
        var lo = Int.max, hi = Int.min
        switch motion {
        case .scroll:
            for t in tiles {
                let r = style.drawnPositions(ofTile: t)
                lo = Swift.min(lo, r.lowerBound)
                hi = Swift.max(hi, r.upperBound)
            }
        case .sweep:
            let n = sweepLength
            lo = Swift.max(0, ((count - 1) / n - 1) * n)
            hi = count
        }
        let snapshots = buffers.map { $0.snapshot(lo..<hi) }
        let renderer = self.renderer, mailbox = self.mailbox, epoch = self.epoch
        if !slots.isEmpty && epochWaiting.isEmpty && held.isEmpty && pendingRangeAnimation != nil {
            epochWaiting = Set(tiles)
        }
        for t in tiles {
            guard slots[t] != nil else { continue }
            nextRequest += 1
            let request = nextRequest
            slots[t]!.request = request
            let parts = self.parts(ofTile: t, style: style, snapshots: snapshots)
            if !drawsAsynchronously {
                let image = renderer.draw(tile: t, parts: parts, style: style)
                accept(Finished(tile: t, epoch: epoch, request: request, image: image))
                continue
            }
            inFlight.enter()
            let group = inFlight
            QueuePool.shared.async(.userInteractive) { [weak self] in
                let image = renderer.draw(tile: t, parts: parts, style: style)
                let first = mailbox.withLock { box in
                    box.append(Finished(tile: t, epoch: epoch, request: request, image: image))
                    return box.count == 1
                }
                group.leave()
                if first {
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated { self?.applyFinished() }
                    }
                }
            }
        }
    }

    /// Shows the pictures the drawing threads have finished.
    private func applyFinished() {
        let done = mailbox.withLock { box -> [Finished] in
            let d = box
            box.removeAll()
            return d
        }
        for f in done { accept(f) }
        if epochWaiting.isEmpty { releaseHeld() }
    }

    private func accept(_ f: Finished) {
        guard f.epoch == epoch, let slot = slots[f.tile], slot.request == f.request else { return }
        if !epochWaiting.isEmpty || pendingRangeAnimation != nil {
            held.append(f)
            epochWaiting.remove(f.tile)
            return
        }
        show(f.image, in: slot.layer)
    }

    /// What a tile without a picture shows: nothing when the plot's own
    /// background (opaque) is under it, otherwise the background.
    private var placeholderColor: Color? { plotBackgroundColor.alpha >= 1 ? nil : plotBackgroundColor }

    /// A tile's picture, or its background until it has one (an opaque
    /// picture needs no background under it).
    private func show(_ image: Image?, in layer: Layer) {
        layer.contents = image
        layer.backgroundColor = image == nil ? placeholderColor : nil
    }

    /// Shows the held pictures of a new value range together, sliding the
    /// old range's picture into the new one. Not while a new range's tiles
    /// are still to be sent (`dirty`): between a change of range and the
    /// sending, nothing is waited for yet, and the old pictures must stay.
    private func releaseHeld() {
        guard epochWaiting.isEmpty, pendingRangeAnimation == nil || dirty.isEmpty else { return }
        let results = held
        held.removeAll()
        for f in results {
            if let slot = slots[f.tile], slot.request == f.request, f.epoch == epoch { show(f.image, in: slot.layer) }
        }
        if let change = pendingRangeAnimation, let style, let scale {
            pendingRangeAnimation = nil
            let h = style.plotHeight
            let (o0, o1) = (change.from.lowerBound, change.from.upperBound)
            let (n0, n1) = (change.to.lowerBound, change.to.upperBound)
            // y_old = a · y_new + b maps the new picture onto the old one.
            let a = (n1 - n0) / (o1 - o0)
            let b = (o1 - n1) / (o1 - o0) * h
            if a.isFinite, b.isFinite, a > 0 {
                let from = Transform3D(scaleX: 1, y: a).concatenating(Transform3D(translationX: 0, y: b))
                var slide = BasicAnimation(keyPath: "transform", from: from, to: Transform3D.identity)
                let duration = Self.seconds(rangeAnimationDuration)
                let begin = stripLayer.currentMediaTime
                slide.timing.duration = duration
                slide.timing.beginTime = begin
                slide.timingFunction = .easeInEaseOut
                stripLayer.add(slide, forKey: "range")
                // The value labels move with the grid lines, on the same clock.
                var old = style
                old.yLower = o0
                old.yUpper = o1
                axisLayer.configure(scale: scale, style: style, animatingFrom: old, beginTime: begin, duration: duration)
            } else {
                axisLayer.configure(scale: scale, style: style)
            }
        }
    }
}

/// The value axis: a text layer per tick label, right-aligned at the axis,
/// centred on its tick but kept within the plot's height, never closer than
/// 1.3 lines apart (every other one dropped until they fit).
///
/// A change of scale that the strip animates (`configure(…animatingFrom:…)`)
/// moves each label from where its value was on the old scale to where it is
/// on the new one, with the strip's duration, timing function and begin time:
/// labels of both scales move, labels new to the scale fade in on the way and
/// labels leaving it fade out (`move(_:value:height:from:to:beginTime:duration:)`
/// shows why they stay on their grid lines). The labels are pooled, keyed by
/// tick value.
@MainActor
final class ValueAxisLayer: Layer {
    struct Label {
        let layer: TextLayer
        var value: Double
        var size: Size
    }

    /// The labels of the current scale, in tick order.
    private(set) var labels: [Label] = []
    /// Labels of the previous scale fading out (hidden when done).
    private(set) var leaving: [Label] = []
    private var spare: [TextLayer] = []
    private var style: GraphTileStyle?
    private var sizes: [String: Size] = [:]
    private var sizesFont: Font?

    /// Shows `scale`'s labels for `style`. With `old` (the same geometry on
    /// the old value range) and a duration, they move there from the old
    /// scale's places, starting at `beginTime`; otherwise they are there at once.
    func configure(
        scale: NiceScale, style: GraphTileStyle, animatingFrom old: GraphTileStyle? = nil, beginTime: Double = 0, duration: Double = 0
    ) {
        self.style = style
        let animated = old != nil && duration > 0
        for l in leaving { recycle(l.layer) }
        leaving.removeAll()
        if sizesFont != style.labelFont || sizes.count > 512 {
            sizes.removeAll()
            sizesFont = style.labelFont
        }
        let attributes = TextAttributes(font: style.labelFont, foregroundColor: style.labelColor)
        var previous = labels
        labels.removeAll()
        let tolerance = Swift.max(0, scale.step * 1e-6)
        for v in Self.shownTicks(scale: scale, style: style) {
            let text = scale.label(for: v)
            let size = measure(text, font: style.labelFont)
            let layer: TextLayer, isNew: Bool
            if let i = previous.firstIndex(where: { abs($0.value - v) <= tolerance }) {
                layer = previous.remove(at: i).layer
                isNew = false
            } else {
                layer = take()
                isNew = true
            }
            layer.attributedString = AttributedText(text, attributes: attributes)
            layer.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
            layer.position = Point(x: x(width: size.width), y: Self.top(v, height: size.height, style: style))
            layer.opacity = 1
            if let old, animated {
                move(layer, value: v, height: size.height, from: old, to: style, beginTime: beginTime, duration: duration)
                if isNew {
                    fade(layer, from: 0, to: 1, beginTime: beginTime, duration: duration)
                } else {
                    layer.removeAnimation(forKey: "fade")
                }
            } else {
                layer.removeAllAnimations()
            }
            labels.append(Label(layer: layer, value: v, size: size))
        }
        // Only on the old scale: to the new scale's place, fading out.
        for l in previous {
            guard let old, animated else {
                recycle(l.layer)
                continue
            }
            l.layer.position = Point(x: l.layer.position.x, y: Self.place(l.value, height: l.size.height, style: style))
            l.layer.opacity = 0
            move(l.layer, value: l.value, height: l.size.height, from: old, to: style, beginTime: beginTime, duration: duration)
            fade(l.layer, from: 1, to: 0, beginTime: beginTime, duration: duration)
            leaving.append(l)
        }
    }

    /// Keeps the labels right-aligned at the axis when its width changes.
    func placeLabelsHorizontally() {
        for l in labels + leaving {
            let x = x(width: l.size.width)
            if l.layer.position.x != x { l.layer.position = Point(x: x, y: l.layer.position.y) }
        }
    }

    /// The ticks labelled: every other one dropped until they are 1.3 lines apart.
    static func shownTicks(scale: NiceScale, style: GraphTileStyle) -> [Double] {
        let lineHeight = style.labelFont.ascent - style.labelFont.descent
        var ticks = scale.ticks
        while ticks.count > 2, abs(style.y(ticks[1]) - style.y(ticks[0])) < lineHeight * 1.3 {
            ticks = ticks.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        }
        return ticks
    }

    /// The top of `v`'s label (`height` tall) at rest: centred on its tick,
    /// kept within the plot's height, on whole device pixels.
    static func top(_ v: Double, height: Double, style: GraphTileStyle) -> Double {
        let y = Swift.min(style.plotHeight - height, Swift.max(0, style.y(v) - height / 2))
        return (y * style.scale).rounded() / style.scale
    }

    /// The left of a label `width` wide, 6 points from the axis's right end,
    /// on whole device pixels.
    private func x(width: Double) -> Double {
        let s = style?.scale ?? contentsScale
        return ((bounds.width - 6 - width) * s).rounded() / s
    }

    /// Where `v`'s label sits on `style`'s scale: its place at rest when `v`
    /// is in the range, else centred on where its grid line would be, outside
    /// the plot's height (where the axis, masking to its bounds, hides it as
    /// the plot hides the line).
    static func place(_ v: Double, height: Double, style: GraphTileStyle) -> Double {
        let slack = (style.yUpper - style.yLower) * 1e-9
        guard v < style.yLower - slack || v > style.yUpper + slack else { return top(v, height: height, style: style) }
        return style.y(v) - height / 2
    }

    /// Animates the top of `v`'s label from its place on `old` to its place
    /// on `new`, with the strip's grid line of `v`.
    ///
    /// The strip animates its transform from `scale(1, a)` then
    /// `translate(0, b)` (which maps the new picture onto the old one:
    /// a·y_new(v) + b = y_old(v)) to the identity, with this duration, begin
    /// time and timing function. Transforms interpolate by their decomposed
    /// parts (`DecomposedTransform`): with no rotation, skew or perspective
    /// here, the y scale and the y translation go linearly, so at the eased
    /// fraction F the grid line of `v` is at
    /// (a + (1 − a)·F)·y_new + (1 − F)·b = (1 − F)·y_old + F·y_new,
    /// the straight line between its two places at the same F. A label
    /// centred on its line at both ends, animated linearly between them with
    /// the same duration, begin time and timing function, is therefore
    /// centred on it at every frame (within half a pixel: its ends are on
    /// whole pixels, as the still labels are). A label kept within the plot's
    /// height at an end (the top or bottom tick) is off its line by up to
    /// half its height there, and that offset goes linearly in between.
    private func move(
        _ layer: TextLayer, value v: Double, height: Double, from old: GraphTileStyle, to new: GraphTileStyle, beginTime: Double,
        duration: Double
    ) {
        let y0 = Self.place(v, height: height, style: old), y1 = Self.place(v, height: height, style: new)
        guard y0 != y1 else { return layer.removeAnimation(forKey: "rescale") }
        var a = BasicAnimation(keyPath: "position.y", from: y0, to: y1, duration: duration)
        a.timingFunction = .easeInEaseOut
        a.timing.beginTime = beginTime
        layer.add(a, forKey: "rescale")
    }

    private func fade(_ layer: TextLayer, from: Double, to: Double, beginTime: Double, duration: Double) {
        var a = BasicAnimation(keyPath: "opacity", from: from, to: to, duration: duration)
        a.timingFunction = .easeInEaseOut
        a.timing.beginTime = beginTime
        if to == 0 {
            // Gone when it has faded (a label reused before that is not hidden:
            // replacing the animation tells it it did not finish).
            a.completion = { [weak layer] finished in
                if finished { layer?.isHidden = true }
            }
        }
        layer.add(a, forKey: "fade")
    }

    private func measure(_ text: String, font: Font) -> Size {
        if let known = sizes[text] { return known }
        let size = textSize(text, font: font)
        sizes[text] = size
        return size
    }

    private func take() -> TextLayer {
        let layer: TextLayer
        if let reused = spare.popLast() {
            layer = reused
        } else {
            layer = TextLayer()
            layer.anchorPoint = .zero
            layer.actions = StreamingGraphLayer.noActions
            addSublayer(layer)
        }
        layer.isHidden = false
        return layer
    }

    private func recycle(_ layer: TextLayer) {
        layer.removeAllAnimations()
        layer.isHidden = true
        layer.opacity = 1
        spare.append(layer)
    }
}

/// A tile of a streaming graph. Its picture is drawn on the queue pool and
/// set as its contents; on a vector canvas (`Layer.render(in:)` into a PDF
/// page or an SVG drawing) it draws again as vectors, from the graph's
/// samples, so the trace is as sharp as the rest of the page.
@MainActor
final class GraphTileLayer: Layer {
    weak var graph: StreamingGraphLayer?
    /// The tile slot shown (`GraphTiling`).
    var tile = 0

    override var drawsVectorContents: Bool { graph != nil && contents != nil }

    override func draw(in canvas: Canvas) {
        graph?.drawTile(tile, in: canvas)
    }
}

// What a streaming graph tells assistive tools: its title and the latest
// sample of each series, as a live value a screen reader reads as it
// changes (politely, at most once a second).
extension StreamingGraphLayer: AccessibilityLiveLayer {
    /// The title (or "Streaming graph") and "Latest: ECG 0.53." (each
    /// series by its name, or "Series 1", …; "No data" before the first
    /// sample). No points: there are too many, and they move.
    public var layerAccessibility: LayerAccessibility? {
        let label = accessibilityTitle ?? "Streaming graph"
        guard count > 0 else { return LayerAccessibility(label: label, summary: "No data", isChart: true, items: [], isLive: true) }
        let latest = buffers.enumerated().map { i, buffer -> String in
            let name = i < series.count && !series[i].name.isEmpty ? series[i].name : "Series \(i + 1)"
            let value = buffer[buffer.count - 1]
            return "\(name) \(value.isFinite ? LineChartLayer.valueText(value) : "no value")"
        }
        return LayerAccessibility(label: label, summary: "Latest: " + latest.joined(separator: ", ") + ".", isChart: true, items: [], isLive: true)
    }
}
