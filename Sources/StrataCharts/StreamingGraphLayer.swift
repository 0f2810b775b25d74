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
    public struct Statistics: Sendable, Hashable {
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

    // MARK: State

    /// The samples of each series.
    public let buffers: [SampleBuffer]
    /// Samples appended so far (per series).
    public var count: Int { buffers.first?.count ?? 0 }
    /// The values the plot shows now; nil before the first layout.
    public private(set) var displayedRange: ClosedRange<Double>?
    /// Where the view ends when paused (nil: following the newest sample).
    private var viewEnd: Int?

    private let plotLayer = Layer()
    private let stripLayer = Layer()
    private let axisLayer = ValueAxisLayer()
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
    public required init(layer: Layer) {
        let other = layer as? StreamingGraphLayer
        series = other?.series ?? [GraphSeriesStyle(color: .black)]
        buffers = series.map { _ in SampleBuffer(capacity: other?.buffers.first?.capacity ?? 1) }
        super.init(layer: layer)
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
        var n = 0
        for v in samples {
            buffers[0].append(Self.clean(v))
            for b in buffers.dropFirst() { b.append(.nan) }
            n += 1
        }
        noteAppended(n)
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
        if let style {
            let tiling = style.tiling
            let newest = count - 1
            if n > tiling.samplesPerTile * 4 {
                invalidateTiles()
                return
            }
            for i in (newest - n + 1)...newest {
                switch motion {
                case .scroll:
                    for t in tiling.tilesToRedraw(afterAppendingSampleAt: i) where slots[t] != nil { mark(t) }
                case .sweep:
                    for t in sweepTiles(afterAppendingSampleAt: i, style: style) { mark(t) }
                }
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
    public var statistics: Statistics {
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
        guard plot.width > 0, plot.height > 0, plot.width.isFinite, plot.height.isFinite else {
            for t in slots.keys { retire(t) }
            dirty.removeAll()
            return
        }
        let newStyle = makeStyle(plot: plot, axisHeight: axisH, scale: newScale)
        if newStyle != style {
            if let old = style, old.yLower != newStyle.yLower || old.yUpper != newStyle.yUpper, Self.seconds(rangeAnimationDuration) > 0,
                old.tileWidth == newStyle.tileWidth, old.samplesPerTile == newStyle.samplesPerTile
            {
                pendingRangeAnimation = (old.yLower...old.yUpper, newStyle.yLower...newStyle.yUpper)
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
            axisLayer.configure(scale: newScale, style: newStyle)
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
                layer = Layer()
                layer.anchorPoint = .zero
                layer.actions = [
                    "position": .noAction, "bounds": .noAction, "contents": .noAction, "hidden": .noAction,
                    "backgroundColor": .noAction,
                ]
                stripLayer.addSublayer(layer)
                layersCreated += 1
            }
            // Cleared before it is shown again: never the old tile's picture here.
            layer.contents = nil
            layer.backgroundColor = placeholderColor
            layer.contentsScale = style.scale
            layer.frame = frame(ofTile: t, style: style)
            layer.isHidden = false
            slots[t] = Slot(layer: layer)
            mark(t)
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

    /// The sweep slots an append at `index` changes: where the cursor is, the
    /// padding behind it, and the gap it clears ahead.
    private func sweepTiles(afterAppendingSampleAt index: Int, style: GraphTileStyle) -> [Int] {
        let n = sweepLength
        let p = index % n
        let gap = sweepGapSamples
        let pad = style.tiling.paddingSamples
        let lo = Swift.max(0, p - pad), hi = Swift.min(n - 1, p + gap + pad)
        let a = GraphTiling.floorDivision(lo, style.samplesPerTile), b = GraphTiling.floorDivision(hi, style.samplesPerTile)
        return Array(a...b)
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
    /// old range's picture into the new one.
    private func releaseHeld() {
        guard epochWaiting.isEmpty else { return }
        let results = held
        held.removeAll()
        for f in results {
            if let slot = slots[f.tile], slot.request == f.request, f.epoch == epoch { show(f.image, in: slot.layer) }
        }
        if let change = pendingRangeAnimation, let style {
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
                slide.timing.duration = Self.seconds(rangeAnimationDuration)
                slide.timingFunction = .easeInEaseOut
                stripLayer.add(slide, forKey: "range")
            }
        }
    }
}

/// The value axis: the labels of the scale's ticks, right-aligned, never
/// closer than a line apart (every other one dropped until they fit).
@MainActor
final class ValueAxisLayer: Layer {
    private var scale: NiceScale?
    private var style: GraphTileStyle?

    func configure(scale: NiceScale, style: GraphTileStyle) {
        self.scale = scale
        self.style = style
        contentsScale = style.scale
        setNeedsDisplay()
    }

    override func draw(in canvas: Canvas) {
        guard let scale, let style else { return }
        let attributes = TextAttributes(font: style.labelFont, foregroundColor: style.labelColor)
        let lineHeight = style.labelFont.ascent - style.labelFont.descent
        var ticks = scale.ticks
        while ticks.count > 2, abs(style.y(ticks[1]) - style.y(ticks[0])) < lineHeight * 1.3 {
            ticks = ticks.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        }
        for v in ticks {
            let layout = TextLayout(AttributedText(scale.label(for: v), attributes: attributes), width: .infinity)
            var y = style.y(v) - layout.size.height / 2
            y = Swift.min(style.plotHeight - layout.size.height, Swift.max(0, y))
            let x = bounds.width - 6 - layout.size.width
            canvas.draw(layout, at: Point(x: (x * style.scale).rounded() / style.scale, y: (y * style.scale).rounded() / style.scale))
        }
    }
}
