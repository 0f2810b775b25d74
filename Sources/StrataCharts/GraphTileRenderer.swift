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

    public init(color: Color, lineWidth: Double = 1.5, fillColor: Color? = nil, fillBaseline: Double? = nil) {
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
    let m4Cache = BoundedCache<M4CacheKey, [ChartSample]>(maxEntries: 4096, maxBytes: 32 << 20)
    private let canvases = Locked<(width: Int, height: Int, free: [CanvasBox])>((0, 0, []))
    private let counters = Locked<(bitmaps: Int, tiles: Int, nanoseconds: UInt64)>((0, 0, 0))

    /// A canvas that moves between threads: only the task that took it from
    /// the pool draws on it until it gives it back, so it is never used by two
    /// threads at once.
    final class CanvasBox: @unchecked Sendable {
        let canvas: Canvas
        init(_ canvas: Canvas) { self.canvas = canvas }
    }

    var bitmapsCreated: Int { counters.value.bitmaps }
    var tilesDrawn: Int { counters.value.tiles }
    var drawingSeconds: Double { Double(counters.value.nanoseconds) / 1e9 }

    /// Draws tile slot `tile` (positions from `tile · samplesPerTile` at x = 0)
    /// of every series' parts; nil for an empty or oversized tile.
    func draw(tile: Int, parts: [[GraphTilePart]], style: GraphTileStyle) -> Image? {
        let w = Int((style.tileWidth * style.scale).rounded(.up)), h = Int((style.tileHeight * style.scale).rounded(.up))
        guard w >= 1, h >= 1, w <= 16384, h <= 16384 else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        guard let box = takeCanvas(width: w, height: h) else { return nil }
        defer { giveBack(box, width: w, height: h) }
        let canvas = box.canvas
        canvas.saveGState()
        defer { canvas.restoreGState() }
        canvas.scaleBy(x: style.scale, y: style.scale)
        if style.background.alpha < 1 { canvas.clear(Rect(x: 0, y: 0, width: style.tileWidth, height: style.tileHeight)) }
        canvas.fillColor = style.background
        canvas.fill(Rect(x: 0, y: 0, width: style.tileWidth, height: style.tileHeight))
        let origin = tile * style.samplesPerTile
        drawGrid(canvas, origin: origin, style: style)
        var lines: [(Path, GraphSeriesStyle)] = []
        for (s, seriesParts) in parts.enumerated() where s < style.series.count {
            let look = style.series[s]
            var line = Path(), area = Path()
            for part in seriesParts {
                let points = samples(of: part, style: style)
                appendPolyline(points, part: part, origin: origin, style: style, look: look, line: &line, area: &area)
            }
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
        if style.timeStep > 0 { drawTimeLabels(canvas, origin: origin, style: style) }
        let image = canvas.makeImage()
        let took = DispatchTime.now().uptimeNanoseconds - start
        counters.withLock {
            $0.tiles += 1
            $0.nanoseconds += took
        }
        return image
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

    private func appendPolyline(
        _ points: [ChartSample], part: GraphTilePart, origin: Int, style: GraphTileStyle, look: GraphSeriesStyle,
        line: inout Path, area: inout Path
    ) {
        let pps = style.pointsPerSample
        let baseY = look.fillBaseline.map { style.y($0) } ?? style.plotHeight
        let shift = part.base + origin
        var run: [Point] = []
        run.reserveCapacity(points.count)
        func flush() {
            guard let first = run.first, let last = run.last else { return }
            line.move(to: first)
            for p in run.dropFirst() { line.addLine(to: p) }
            if run.count == 1 { line.addLine(to: first) }
            if look.fillColor != nil {
                area.move(to: Point(x: first.x, y: baseY))
                for p in run { area.addLine(to: p) }
                area.addLine(to: Point(x: last.x, y: baseY))
                area.closeSubpath()
            }
            run.removeAll(keepingCapacity: true)
        }
        for p in points {
            if p.isBreak {
                flush()
                continue
            }
            run.append(Point(x: (Double(p.index - shift) + 0.5) * pps, y: style.y(p.value)))
        }
        flush()
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

    /// The time labels of the ticks whose labels reach into this tile (a
    /// label across a tile edge is drawn by both tiles, at the same place).
    private func drawTimeLabels(_ canvas: Canvas, origin: Int, style: GraphTileStyle) {
        let reach = Int((style.labelWidth / 2 / style.pointsPerSample).rounded(.up)) + 1
        let attributes = TextAttributes(font: style.labelFont, foregroundColor: style.labelColor)
        canvas.fillColor = style.labelColor
        let hair = 1 / style.scale
        for tick in style.timeTicks(in: Swift.max(0, origin - reach)..<Swift.max(0, origin + style.samplesPerTile + reach)) {
            let x = style.tickX(tick, origin: origin)
            canvas.fill(Rect(x: x, y: style.plotHeight, width: hair, height: 3))
            let text = GraphTimeFormat.label(seconds: Double(tick) / style.sampleRate, step: Double(style.timeStep) / style.sampleRate)
            let layout = TextLayout(AttributedText(text, attributes: attributes), width: .infinity)
            let lx = ((x - layout.size.width / 2) * style.scale).rounded() / style.scale
            canvas.draw(layout, at: Point(x: lx, y: style.plotHeight + 4))
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
