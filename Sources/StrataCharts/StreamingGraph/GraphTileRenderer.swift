import Dispatch
import Foundation
import StrataGraphics
import StrataQueues
import StrataText

/// What a series looks like.
public struct GraphSeriesStyle: Sendable, Hashable {
    public var color: Color
    public var lineWidth: Double
    /// The colour of the area between the line and `fillBaseline`; nil for none.
    public var fillColor: Color?
    /// The value the fill reaches down (or up) to; nil for the bottom of the plot.
    public var fillBaseline: Double?
    /// What assistive tools call the series ("ECG"); empty: "Series 1", …
    public var name: String

    public init(color: Color, lineWidth: Double = 1.5, fillColor: Color? = nil, fillBaseline: Double? = nil, name: String = "") {
        self.name = name
        self.color = color
        self.lineWidth = lineWidth.isFinite ? min(64, max(0.25, lineWidth)) : 1.5
        self.fillColor = fillColor
        self.fillBaseline = fillBaseline.flatMap { $0.isFinite ? $0 : nil }
    }
}

/// How tiles are cut and drawn: every value a drawing thread needs, and
/// nothing it would have to ask the main actor for.
struct GraphTileStyle: Sendable, Hashable {
    /// Tile size in points, and the pixels per point.
    var tileWidth: Double
    var plotHeight: Double
    var axisHeight: Double
    var scale: Double
    var pointsPerSample: Double
    var samplesPerTile: Int
    /// Pixel columns per tile; when `decimates`, each draws its samples' M4.
    var columnsPerTile: Int
    var decimates: Bool
    /// Samples drawn beyond each edge (whole columns when decimating).
    var paddingSamples: Int
    var paddingColumns: Int
    var yLower: Double
    var yUpper: Double
    var background: Color
    var gridColor: Color?
    var gridValues: [Double]
    var series: [GraphSeriesStyle]
    /// Time ticks every `timeStep` samples (0: no time axis).
    var timeStep: Int
    var sampleRate: Double
    /// The labels' font and colour (the graph's text layers show the labels;
    /// the tiles draw the time ticks in the colour), and the width a time
    /// label is given (the time step leaves room for it).
    var labelFont: Font
    var labelColor: Color
    var labelWidth: Double

    var tileHeight: Double { plotHeight + axisHeight }

    /// The first position of pixel column `g` (columns counted from position 0).
    func columnStart(_ g: Int) -> Int {
        GraphTiling.floorDivision(g * samplesPerTile, columnsPerTile)
    }

    /// The positions tile slot `tile` draws: its own and the padding.
    func drawnPositions(ofTile tile: Int) -> Range<Int> {
        if decimates {
            return columnStart(tile * columnsPerTile - paddingColumns)..<columnStart((tile + 1) * columnsPerTile + paddingColumns)
        }
        let start = tile * samplesPerTile
        return (start - paddingSamples)..<(start + samplesPerTile + paddingSamples)
    }

    /// The tiling appends are marked by: a sample can change a tile whose
    /// drawn positions reach it.
    var tiling: GraphTiling {
        let pad = decimates ? paddingColumns * ((samplesPerTile + columnsPerTile - 1) / columnsPerTile) : paddingSamples
        return GraphTiling(samplesPerTile: samplesPerTile, paddingSamples: pad)
    }

    /// The time ticks (multiples of `timeStep`) in `range`.
    func timeTicks(in range: Range<Int>) -> StrideTo<Int> {
        let first = GraphTiling.floorDivision(range.lowerBound + timeStep - 1, timeStep) * timeStep
        return stride(from: first, to: range.upperBound, by: timeStep)
    }

    /// Where tick `tick` is drawn in a tile whose x = 0 is position `origin`:
    /// the sample's centre, down to a device pixel.
    func tickX(_ tick: Int, origin: Int) -> Double {
        ((Double(tick - origin) + 0.5) * pointsPerSample * scale).rounded(.down) / scale
    }

    func y(_ v: Double) -> Double {
        let y = (yUpper - v) / (yUpper - yLower) * plotHeight
        return y.isNaN ? plotHeight : Swift.min(1e5, Swift.max(-1e5, y))
    }
}

/// A stretch of one series a tile draws: positions `positions` (position 0
/// is sample `base`), the tile's x = 0 at position `origin`.
struct GraphTilePart: Sendable {
    var snapshot: SampleSnapshot
    var positions: Range<Int>
    var base: Int
    /// Whether the stretch's M4 may be kept (its samples are all in).
    var isSealed: Bool
    var cacheKey: M4CacheKey?
}

struct M4CacheKey: Hashable, Sendable {
    var generation: Int
    var series: Int
    var start: Int
    var end: Int
    var samplesPerTile: Int
    var columnsPerTile: Int
}

/// Draws tiles off the main actor into pooled bitmaps.
final class GraphTileRenderer: Sendable {
    /// Sealed stretches' M4 points, bounded.
    let m4Cache = BoundedCache<M4CacheKey, [ChartSample]>(maximumEntries: 4096, maximumBytes: 32 << 20)
    private let canvases = Locked<(width: Int, height: Int, free: [CanvasBox])>((0, 0, []))
    private let counters = Locked<(bitmaps: Int, tiles: Int, partial: Int, nanoseconds: UInt64)>((0, 0, 0, 0))

    /// A canvas that moves between threads: only the task that took it from
    /// the pool draws on it until it gives it back, so it is never used by two
    /// threads at once.
    final class CanvasBox: @unchecked Sendable {
        let canvas: Canvas
        init(_ canvas: Canvas) { self.canvas = canvas }
    }

    var bitmapsCreated: Int { counters.value.bitmaps }
    var tilesDrawn: Int { counters.value.tiles }
    var tilesDrawnInPart: Int { counters.value.partial }

    /// Forgets the last drawings, so that the next drawing of every tile is whole.
    func forgetDrawings() { memos.withLock { $0.removeAll() } }
    var drawingSeconds: Double { Double(counters.value.nanoseconds) / 1e9 }

    /// What a tile slot was last drawn from, and the picture.
    struct Memo: Sendable {
        var style: GraphTileStyle
        /// Per series, the line's points in tile coordinates (NaN: a break).
        var traces: [[Point]]
        var image: Image
    }

    /// The last drawing of the few tiles drawn most recently (the newest
    /// tiles, which appends change), by tile slot.
    private let memos = Locked<[Int: Memo]>([:])
    static let memoLimit = 4
    /// The width of a band, in device pixels.
    static let bandWidth = 8

    /// Draws tile slot `tile` (positions from `tile · samplesPerTile` at x = 0)
    /// of every series' parts; nil for an empty or oversized tile.
    ///
    /// A tile still taking samples is drawn in vertical bands `bandWidth`
    /// pixels wide, each clipped to itself and drawn from the points near it
    /// alone (`bandRange`), so a band's pixels depend only on those points.
    /// An append changes the points near the tile's right end: the bands
    /// whose points did not change keep their pixels from the tile's last
    /// picture, and only the others are drawn again. A tile whose samples are
    /// all in (sealed) is drawn whole, as one band; its last drawing is that
    /// one. So a graph fed frame by frame and one fed at once show the same
    /// pixels (the tests compare them exactly). Drawing only the changed end
    /// of one whole-tile drawing, clipped, would not be exact: a clipped
    /// stroke differs from the whole one by a level in a few pixels
    /// (docs/Architecture.md).
    func draw(tile: Int, parts: [[GraphTilePart]], style: GraphTileStyle) -> Image? {
        let w = Int((style.tileWidth * style.scale).rounded(.up)), h = Int((style.tileHeight * style.scale).rounded(.up))
        guard w >= 1, h >= 1, w <= 16384, h <= 16384 else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        let origin = tile * style.samplesPerTile
        let traces = self.traces(parts, origin: origin, style: style)
        var previous = memos.withLock { $0[tile] }
        if let p = previous, p.style != style || p.image.width != w || p.image.height != h || p.traces.count != traces.count {
            previous = nil
        }
        let reaches = style.series.map { Self.reach($0.lineWidth, scale: style.scale) }
        // A tile whose samples are all in is drawn whole, in one band: it
        // will not change again, and one pass is the cheapest (so a graph's
        // first frame is not slowed by bands).
        let sealed = parts.allSatisfy { $0.allSatisfy(\.isSealed) }
        let bandWidth = sealed ? w : Self.bandWidth
        let bands = (w + bandWidth - 1) / bandWidth
        var changed: [Int] = []
        var ranges: [[ClosedRange<Int>?]] = []
        // Whether each trace is in order, found once, not once a band.
        let inOrder = traces.map(Self.isInOrder), oldInOrder = previous?.traces.map(Self.isInOrder) ?? []
        for band in 0..<bands {
            let x0 = Double(band * bandWidth) / style.scale, x1 = Double((band + 1) * bandWidth) / style.scale
            let r = traces.indices.map { Self.bandRange(traces[$0], x0 - reaches[$0], x1 + reaches[$0], inOrder: inOrder[$0]) }
            ranges.append(r)
            if let previous {
                let same = traces.indices.allSatisfy { s in
                    let old = Self.bandRange(previous.traces[s], x0 - reaches[s], x1 + reaches[s], inOrder: oldInOrder[s])
                    return Self.samePoints(previous.traces[s], old, traces[s], r[s])
                }
                if same { continue }
            }
            changed.append(band)
        }
        if let previous, changed.isEmpty {
            count(start, partial: true)
            return previous.image
        }
        guard let box = takeCanvas(width: w, height: h) else { return nil }
        defer { giveBack(box, width: w, height: h) }
        let canvas = box.canvas
        if let previous, changed.count < bands { canvas.bitmap.copyPixels(of: previous.image) }
        canvas.saveGState()
        defer { canvas.restoreGState() }
        canvas.scaleBy(x: style.scale, y: style.scale)
        for band in changed {
            canvas.saveGState()
            let x0 = Double(band * bandWidth) / style.scale
            canvas.clip(to: Rect(x: x0, y: 0, width: Double(bandWidth) / style.scale, height: style.tileHeight))
            paint(canvas, traces: traces, ranges: ranges[band], origin: origin, style: style)
            canvas.restoreGState()
        }
        let image = canvas.makeImage()
        memos.withLock { memos in
            memos[tile] = Memo(style: style, traces: traces, image: image)
            // Only the newest tiles change; the oldest memo goes first.
            while memos.count > Self.memoLimit, let oldest = memos.keys.min() { memos[oldest] = nil }
        }
        count(start, partial: previous != nil && changed.count < bands)
        return image
    }

    /// Per series, the line's points in the tile's coordinates (x = 0 at
    /// position `origin`; NaN: a break).
    func traces(_ parts: [[GraphTilePart]], origin: Int, style: GraphTileStyle) -> [[Point]] {
        var traces: [[Point]] = []
        for (s, seriesParts) in parts.enumerated() where s < style.series.count {
            var trace: [Point] = []
            for part in seriesParts { appendTrace(samples(of: part, style: style), part: part, origin: origin, style: style, into: &trace) }
            traces.append(trace)
        }
        return traces
    }

    /// Draws tile slot `tile` whole into `canvas` (in the tile's points):
    /// the same calls as its picture, on any canvas (a vector one, for a
    /// document).
    func drawVectors(tile: Int, parts: [[GraphTilePart]], style: GraphTileStyle, in canvas: Canvas) {
        let origin = tile * style.samplesPerTile
        let traces = self.traces(parts, origin: origin, style: style)
        canvas.saveGState()
        defer { canvas.restoreGState() }
        paint(canvas, traces: traces, ranges: traces.map { $0.isEmpty ? nil : 0...($0.count - 1) }, origin: origin, style: style)
    }

    /// Draws a band of a tile (the canvas clipped to it): background, grid,
    /// fills, lines and time ticks, the lines from the points `ranges` picks.
    private func paint(_ canvas: Canvas, traces: [[Point]], ranges: [ClosedRange<Int>?], origin: Int, style: GraphTileStyle) {
        if style.background.alpha < 1 { canvas.clear(Rect(x: 0, y: 0, width: style.tileWidth, height: style.tileHeight)) }
        canvas.fillColor = style.background
        canvas.fill(Rect(x: 0, y: 0, width: style.tileWidth, height: style.tileHeight))
        drawGrid(canvas, origin: origin, style: style)
        var lines: [(Path, GraphSeriesStyle)] = []
        for (s, trace) in traces.enumerated() {
            let look = style.series[s]
            var line = Path(), area = Path()
            if let r = ranges[s] { Self.appendPaths(trace[r], look: look, style: style, line: &line, area: &area) }
            if let fill = look.fillColor, !area.isEmpty {
                canvas.fillColor = fill
                canvas.fill(area)
            }
            lines.append((line, look))
        }
        canvas.lineJoin = .round
        canvas.lineCap = .round
        for (line, look) in lines where !line.isEmpty {
            canvas.strokeColor = look.color
            canvas.lineWidth = look.lineWidth
            canvas.stroke(line)
        }
        if style.timeStep > 0 { drawTimeTicks(canvas, origin: origin, style: style) }
    }

    private func count(_ start: UInt64, partial: Bool) {
        let took = DispatchTime.now().uptimeNanoseconds - start
        counters.withLock {
            $0.tiles += 1
            $0.partial += partial ? 1 : 0
            $0.nanoseconds += took
        }
    }

    /// The points of `trace` a band between x = `lo` and `hi` (its sides
    /// widened by the line's reach) draws: from the last point left of `lo`
    /// to the first right of `hi`, so that every segment that can reach the
    /// band is there and no point beyond those can change it. The whole trace
    /// if its x ever decreases (`inOrder` false: points are in time order,
    /// so it is not); nil for an empty trace.
    static func bandRange(_ trace: [Point], _ lo: Double, _ hi: Double, inOrder: Bool) -> ClosedRange<Int>? {
        guard !trace.isEmpty else { return nil }
        guard inOrder else { return 0...(trace.count - 1) }
        var first = 0, last = trace.count - 1
        for (i, p) in trace.enumerated() where !p.x.isNaN {
            if p.x < lo { first = i }
            if p.x > hi {
                last = i
                break
            }
        }
        return first...last
    }

    /// Whether a trace's x never decreases (breaks aside).
    static func isInOrder(_ trace: [Point]) -> Bool {
        var lastX = -Double.infinity
        for p in trace where !p.x.isNaN {
            if p.x < lastX { return false }
            lastX = p.x
        }
        return true
    }

    /// Whether two bands' point ranges hold the same points.
    static func samePoints(_ a: [Point], _ ra: ClosedRange<Int>?, _ b: [Point], _ rb: ClosedRange<Int>?) -> Bool {
        guard let ra, let rb else { return ra == nil && rb == nil }
        guard ra.count == rb.count else { return false }
        for (i, j) in zip(ra, rb) {
            let p = a[i], q = b[j]
            if p != q && !(p.x.isNaN && q.x.isNaN) { return false }
        }
        return true
    }

    /// How far from its points a line's pixels can reach, in points: a round
    /// join's or cap's polygon (pushed out to keep the arc's area, by at most
    /// √(π/2)), and two device pixels (anti-aliasing, and the edges cut at a
    /// band's sides).
    static func reach(_ lineWidth: Double, scale: Double) -> Double {
        lineWidth / 2 * (Double.pi / 2).squareRoot() + 2 / scale
    }

    /// The points a part draws: every sample, or its M4 per pixel column.
    func samples(of part: GraphTilePart, style: GraphTileStyle) -> [ChartSample] {
        guard style.decimates else {
            return part.snapshot.points(in: (part.base + part.positions.lowerBound)..<(part.base + part.positions.upperBound))
        }
        if let key = part.cacheKey, part.isSealed, let kept = m4Cache.value(for: key) { return kept }
        let a = part.positions.lowerBound, b = part.positions.upperBound
        let g0 = GraphTiling.floorDivision(a * style.columnsPerTile, style.samplesPerTile)
        var columns: [Range<Int>] = []
        var g = g0
        while true {
            let s = Swift.max(a, style.columnStart(g)), e = Swift.min(b, style.columnStart(g + 1))
            if s >= b { break }
            if s < e { columns.append((part.base + s)..<(part.base + e)) }
            g += 1
        }
        let points = part.snapshot.m4(columns: columns)
        if let key = part.cacheKey, part.isSealed {
            m4Cache.insert(points, for: key, bytes: points.count * MemoryLayout<ChartSample>.stride + 64)
        }
        return points
    }

    /// Appends a part's points to a trace, in tile coordinates; a gap is a
    /// point with NaN coordinates, and so is the end of the part.
    private func appendTrace(
        _ points: [ChartSample], part: GraphTilePart, origin: Int, style: GraphTileStyle, into trace: inout [Point]
    ) {
        let pps = style.pointsPerSample
        let shift = part.base + origin
        trace.reserveCapacity(trace.count + points.count + 1)
        for p in points {
            trace.append(p.isBreak ? Point(x: .nan, y: .nan) : Point(x: (Double(p.index - shift) + 0.5) * pps, y: style.y(p.value)))
        }
        trace.append(Point(x: .nan, y: .nan))
    }

    /// The line through a trace's runs, and the area between them and the
    /// series' baseline.
    private static func appendPaths(
        _ trace: ArraySlice<Point>, look: GraphSeriesStyle, style: GraphTileStyle, line: inout Path, area: inout Path
    ) {
        let baseY = look.fillBaseline.map { style.y($0) } ?? style.plotHeight
        var i = trace.startIndex
        while i < trace.endIndex {
            guard !trace[i].x.isNaN else {
                i += 1
                continue
            }
            var j = i
            while j < trace.endIndex, !trace[j].x.isNaN { j += 1 }
            let run = trace[i..<j]
            line.move(to: run.first!)
            for p in run.dropFirst() { line.addLine(to: p) }
            if run.count == 1 { line.addLine(to: run.first!) }
            if look.fillColor != nil {
                area.move(to: Point(x: run.first!.x, y: baseY))
                for p in run { area.addLine(to: p) }
                area.addLine(to: Point(x: run.last!.x, y: baseY))
                area.closeSubpath()
            }
            i = j
        }
    }

    private func drawGrid(_ canvas: Canvas, origin: Int, style: GraphTileStyle) {
        guard let grid = style.gridColor else { return }
        canvas.fillColor = grid
        let hair = 1 / style.scale
        for v in style.gridValues {
            let y = (style.y(v) * style.scale).rounded(.down) / style.scale
            canvas.fill(Rect(x: 0, y: Swift.min(style.plotHeight - hair, y), width: style.tileWidth, height: hair))
        }
        guard style.timeStep > 0 else { return }
        for tick in style.timeTicks(in: origin..<(origin + style.samplesPerTile)) {
            canvas.fill(Rect(x: style.tickX(tick, origin: origin), y: 0, width: hair, height: style.plotHeight))
        }
    }

    /// The time axis's tick marks under the plot, at the ticks this tile
    /// owns (from 0 on). The labels are not in the tiles: the graph shows them
    /// in text layers that scroll with the tiles and stay inside the plot at
    /// its ends (`StreamingGraphLayer.layoutTimeLabels`).
    private func drawTimeTicks(_ canvas: Canvas, origin: Int, style: GraphTileStyle) {
        canvas.fillColor = style.labelColor
        let hair = 1 / style.scale
        for tick in style.timeTicks(in: Swift.max(0, origin)..<Swift.max(0, origin + style.samplesPerTile)) {
            canvas.fill(Rect(x: style.tickX(tick, origin: origin), y: style.plotHeight, width: hair, height: 3))
        }
    }

    private func takeCanvas(width: Int, height: Int) -> CanvasBox? {
        let reused: CanvasBox? = canvases.withLock { pool in
            if pool.width != width || pool.height != height {
                pool = (width, height, [])
                return nil
            }
            return pool.free.popLast()
        }
        if let reused { return reused }
        guard let canvas = try? Canvas(width: width, height: height) else { return nil }
        counters.withLock { $0.bitmaps += 1 }
        return CanvasBox(canvas)
    }

    private func giveBack(_ box: CanvasBox, width: Int, height: Int) {
        canvases.withLock { pool in
            if pool.width == width, pool.height == height, pool.free.count < 8 { pool.free.append(box) }
        }
    }
}

/// Time labels: `m:ss` from a minute up, seconds below, with the decimals the
/// step needs.
enum GraphTimeFormat {
    static func label(seconds: Double, step: Double) -> String {
        if step >= 1 && seconds >= 60 {
            let s = Int(seconds.rounded())
            let m = s / 60
            if m >= 60 { return "\(m / 60):" + pad(m % 60) + ":" + pad(s % 60) }
            return "\(m):" + pad(s % 60)
        }
        let digits = step >= 1 ? 0 : Swift.min(6, Int((-log10(step)).rounded(.up)))
        return String(format: "%.*f", digits, seconds) + "s"
    }

    private static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
