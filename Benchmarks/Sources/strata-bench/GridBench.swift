import ArgumentParser
import Dispatch
import Foundation
import StrataGraphics

/// Blend2D's standard grid (`bl_bench`), as ../shared/bench/GRID.md defines
/// it: 29 tests × 6 styles × 6 sizes, each cell's figure the draw calls a
/// millisecond. Prints `strata CELL CALLS_PER_MS`, which `grid.py --against`
/// pairs with Blend2D's figures from the same run.
struct GridBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grid",
        abstract: "Blend2D's standard grid of 1,044 cells: draw calls per millisecond.",
        discussion: """
            Each cell is a test (what is drawn), a style (how it is painted) and a size, drawn \
            exactly as ../shared/bench/GRID.md defines: its random generators, shapes, styles, \
            calls per cell and timing rule (one warm-up round, then the median of five timed \
            rounds; every call builds its own gradient or pattern, as the grid asks). Prints \
            `strata CELL CALLS_PER_MS`; pair it with Blend2D's figures with \
            `grid.py --against strata.txt`.
            """)

    @Option(help: "Cells to run: comma-separated names or shell globs ('Fill*-Solid-*').")
    var cells: String?

    @Flag(help: "The quick subset: sizes 8, 64 and 256 × styles Solid, Linear and PatternBI (261 cells).")
    var quick = false

    @Option(help: "Timed rounds per cell.")
    var rounds = 5

    @Option(help: "Untimed warm-up rounds per cell.")
    var warmup = 1

    @Option(help: "Write each cell's last canvas to DIR/strata-CELL.png.")
    var png: String?

    @Option(help: "The folder of the named shapes (default: ../shared/bench/grid-shapes beside the checkout).")
    var shapes: String?

    @Option(
        help: """
            Threads each cell is drawn on (BandRenderer: the canvas cut into a band a thread, each band \
            making every call). With more than one, lines begin strata-Nt, as GRID.md names an engine \
            drawing on N threads.
            """)
    var threads = 1

    @Flag(help: "Print `CELL GEOMETRY_SUM COLOUR_SUM` for each cell instead of timing (blend2d-grid --checksum's check).")
    var checksum = false

    @Flag(help: "List the cells and stop.")
    var list = false

    func run() throws {
        var chosen = GridCell.all
        if quick { chosen = chosen.filter(\.isQuick) }
        if let cells {
            let patterns = cells.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            chosen = chosen.filter { cell in patterns.contains { fnmatch($0, cell.name, 0) == 0 } }
            guard !chosen.isEmpty else { throw ValidationError("no cell matches \(cells)") }
        }
        if list {
            for cell in chosen { print(cell.name) }
            return
        }
        guard rounds >= 1, warmup >= 0 else { throw ValidationError("--rounds must be at least 1, --warmup at least 0") }
        let shapeFolder =
            shapes
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/bench/grid-shapes")
            .standardized.path
        let library = try GridShapes(folder: shapeFolder)
        if let png { try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true) }
        guard threads >= 1, threads <= 64 else { throw ValidationError("--threads must be 1 to 64") }
        let canvas = try Canvas(width: GridCell.width, height: GridCell.height)
        let renderer = threads > 1 ? BandRenderer(bitmap: canvas.bitmap, threadCount: threads) : nil
        let engine = threads > 1 ? "strata-\(threads)t" : "strata"
        for cell in chosen {
            let calls = GridCalls(cell, shapes: library)
            if checksum {
                print(String(format: "%@ %.6f %@", cell.name, calls.geometrySum, String(calls.colourSum)))
                continue
            }
            let shared = BandCalls(cell, shapes: library)
            if let renderer {
                // Each band's own copy of the calls, made before the rounds.
                renderer.draw { band in _ = shared.calls(for: band) }
            }
            var times: [Double] = []
            for round in 0..<(warmup + rounds) {
                canvas.clear(canvas.bounds)
                calls.prepare(canvas)
                let start = DispatchTime.now().uptimeNanoseconds
                if let renderer {
                    renderer.draw { band in
                        let calls = shared.calls(for: band)
                        calls.prepare(band)
                        calls.draw(on: band)
                    }
                } else {
                    calls.draw(on: canvas)
                }
                let end = DispatchTime.now().uptimeNanoseconds
                if round >= warmup { times.append(Double(end - start) / 1e6) }
            }
            times.sort()
            let mid = times.count / 2
            let median = times.count % 2 == 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2
            print(String(format: "%@ %@ %.3f", engine, cell.name, Double(calls.count) / max(median, 1e-9)))
            if let png { try canvas.makeImage().writePNG(to: "\(png)/strata-\(cell.name).png") }
        }
    }
}

/// One cell of the grid: a test, a style and a size.
struct GridCell {
    static let width = 512, height = 600

    enum Style: String, CaseIterable { case Solid, Linear, Radial, Conic, PatternNN, PatternBI }

    /// The tests with their calls per cell at sizes 8 to 256.
    static let tests: [(name: String, calls: [Int])] = [
        ("FillAlignedRect", [20000, 20000, 10000, 5000, 1000, 500]),
        ("FillSmoothRect", [20000, 20000, 10000, 2500, 1000, 250]),
        ("FillRotatedRect", [5000, 2500, 2500, 1000, 500, 200]),
        ("FillSmoothRound", [2500, 2500, 1000, 1000, 500, 250]),
        ("FillRotatedRound", [2500, 2500, 1000, 500, 250, 200]),
        ("FillTriangle", [10000, 5000, 5000, 2500, 1000, 500]),
        ("FillPolygon10NZ", [2500, 2500, 2000, 1000, 500, 200]),
        ("FillPolygon10EO", [2500, 2500, 2000, 1000, 500, 200]),
        ("FillPolygon20NZ", [2500, 2000, 1000, 500, 250, 100]),
        ("FillPolygon20EO", [2500, 2000, 1000, 500, 250, 100]),
        ("FillPolygon40NZ", [1000, 1000, 500, 250, 100, 50]),
        ("FillPolygon40EO", [1000, 1000, 500, 250, 100, 50]),
        ("FillButterfly", [250, 250, 250, 200, 100, 100]),
        ("FillFish", [100, 100, 100, 100, 50, 25]),
        ("FillDragon", [100, 100, 100, 100, 50, 50]),
        ("FillWorld", [250, 250, 200, 100, 100, 50]),
        ("StrokeAlignedRect", [5000, 5000, 2500, 1000, 1000, 500]),
        ("StrokeSmoothRect", [5000, 5000, 2500, 2000, 1000, 500]),
        ("StrokeRotatedRect", [2500, 2500, 1000, 1000, 500, 250]),
        ("StrokeSmoothRound", [1000, 500, 500, 250, 250, 250]),
        ("StrokeRotatedRound", [1000, 500, 500, 250, 250, 200]),
        ("StrokeTriangle", [2500, 2500, 2500, 2000, 1000, 500]),
        ("StrokePolygon10", [1000, 1000, 1000, 500, 250, 200]),
        ("StrokePolygon20", [500, 500, 500, 250, 200, 100]),
        ("StrokePolygon40", [250, 250, 250, 200, 100, 50]),
        ("StrokeButterfly", [50, 50, 50, 50, 50, 25]),
        ("StrokeFish", [25, 25, 25, 25, 25, 25]),
        ("StrokeDragon", [25, 25, 25, 25, 25, 25]),
        ("StrokeWorld", [25, 25, 25, 25, 25, 25]),
    ]
    static let sizes = [8, 16, 32, 64, 128, 256]

    let test: String
    let style: Style
    let size: Int
    let calls: Int

    var name: String { "\(test)-\(style.rawValue)-\(size)" }
    var isQuick: Bool { [8, 64, 256].contains(size) && [.Solid, .Linear, .PatternBI].contains(style) }

    /// Every cell, in the tools' order: style, test, size.
    static let all: [GridCell] = Style.allCases.flatMap { style in
        tests.flatMap { test in
            sizes.enumerated().map { i, size in GridCell(test: test.name, style: style, size: size, calls: test.calls[i]) }
        }
    }
}

/// The grid's SplitMix64 and its derived values, exactly as GRID.md writes
/// them (no fused multiply-add in `range`).
struct GridRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    mutating func range(_ a: Double, _ b: Double) -> Double {
        let t = unit() * (b - a)
        return a + t
    }
    mutating func int(_ a: Int, _ b: Int) -> Int { Int(range(Double(a), Double(b))) }
    mutating func argb() -> UInt32 { UInt32(truncatingIfNeeded: next() >> 32) }
}

/// The four named shapes, in unit coordinates (x across [0, 1]).
struct GridShapes {
    let paths: [String: Path]

    init(folder: String) throws {
        var paths: [String: Path] = [:]
        for name in ["butterfly", "fish", "dragon", "world"] {
            let file = "\(folder)/\(name).svgpath"
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("cannot read \(file) (give the shapes' folder with --shapes)")
            }
            paths[name] = try Self.parse(text, file: file)
        }
        self.paths = paths
    }

    /// SVG path data of absolute M, L, C and Z, one command per line.
    static func parse(_ text: String, file: String) throws -> Path {
        var path = Path()
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ")
            guard let command = parts.first else { continue }
            let v = parts.dropFirst().compactMap { Double($0) }
            func point(_ i: Int) -> Point { Point(x: v[2 * i], y: v[2 * i + 1]) }
            switch (command, v.count) {
            case ("M", 2): path.move(to: point(0))
            case ("L", 2): path.addLine(to: point(0))
            case ("C", 6): path.addCurve(to: point(2), control1: point(0), control2: point(1))
            case ("Z", 0): path.closeSubpath()
            default: throw ValidationError("\(file): cannot read '\(line)'")
            }
        }
        return path
    }
}

/// A cell's calls for the bands drawing them (`--threads`): each band
/// draws from a copy of its own (the same values, generated again), as
/// Blend2D's workers read what its one calling thread recorded. With one
/// copy shared, every band copying an image or a polygon's vertices out of
/// the same array retained the same object: an atomic add on one cache
/// line that all the cores took turns at, which cost more than the call
/// itself (a 16-core machine drew an 8-pixel pattern rectangle on 16
/// threads six times slower than on one).
///
/// `@unchecked Sendable`: the copies are behind a lock; each `GridCalls`
/// is used by the one band it was made for (one thread at a time), and
/// the cell and the shapes are only read.
final class BandCalls: @unchecked Sendable {
    private let cell: GridCell
    private let shapes: GridShapes
    private let lock = NSLock()
    private var copies: [ObjectIdentifier: GridCalls] = [:]

    init(_ cell: GridCell, shapes: GridShapes) {
        self.cell = cell
        self.shapes = shapes
    }

    /// The calls of the band `canvas` draws, made the first time it asks.
    func calls(for canvas: Canvas) -> GridCalls {
        lock.lock()
        defer { lock.unlock() }
        if let calls = copies[ObjectIdentifier(canvas)] { return calls }
        let calls = GridCalls(cell, shapes: shapes)
        copies[ObjectIdentifier(canvas)] = calls
        return calls
    }
}

/// A cell's calls, generated before timing, and how they are drawn.
final class GridCalls {
    enum Kind { case alignedRect, smoothRect, round, polygon, shape }

    let cell: GridCell
    let count: Int
    let fill: Bool
    let rotated: Bool
    let kind: Kind
    let evenOdd: Bool
    /// Per call: the style rectangle's corner (x, y or bx, by).
    var origins: [Point] = []
    /// Per call: the corner radius (round tests).
    var radii: [Double] = []
    /// Per call: the polygon's vertices (polygon tests), flattened.
    var vertices: [Point] = []
    var verticesPerCall = 0
    /// Per call: the colours (one for Solid, three for the gradients).
    var colours: [Color] = []
    /// The scaled named shape (shape tests).
    var shape = Path()
    /// The four pattern images at the cell's size.
    var images: [Image] = []
    /// The checksums GRID.md defines.
    private(set) var geometrySum = 0.0
    private(set) var colourSum: UInt64 = 0

    init(_ cell: GridCell, shapes: GridShapes) {
        self.cell = cell
        count = cell.calls
        fill = cell.test.hasPrefix("Fill")
        let test = cell.test.dropFirst(fill ? 4 : 6)
        rotated = test.hasPrefix("Rotated")
        evenOdd = test.hasSuffix("EO")
        if test.hasSuffix("AlignedRect") {
            kind = .alignedRect
        } else if test.hasSuffix("Rect") {
            kind = .smoothRect
        } else if test.hasSuffix("Round") {
            kind = .round
        } else if test.hasPrefix("Triangle") || test.hasPrefix("Polygon") {
            kind = .polygon
            verticesPerCall = test.hasPrefix("Triangle") ? 3 : Int(test.dropFirst(7).prefix { $0.isNumber }) ?? 10
        } else {
            kind = .shape
            shape = shapes.paths[test.lowercased()] ?? Path()
            let s = Double(cell.size)
            shape.apply(Transform(scaleX: s, y: s))
        }
        generate()
        if cell.style == .PatternNN || cell.style == .PatternBI { images = (0..<4).map { Self.patternImage($0, size: cell.size) } }
    }

    private func generate() {
        var coord = GridRandom(state: 0x19AE_0DDA_E3FA_7391)
        var colour = GridRandom(state: 0x94BD_7A49_9AD1_0011)
        var extra = GridRandom(state: 0x1ABD_9CC9_CAF0_F123)
        let s = cell.size, sd = Double(cell.size)
        let w = GridCell.width, h = GridCell.height
        for _ in 0..<count {
            switch kind {
            case .alignedRect:
                let x = coord.int(0, w - s), y = coord.int(0, h - s)
                geometrySum += Double(x)
                geometrySum += Double(y)
                origins.append(Point(x: Double(x), y: Double(y)))
            case .smoothRect, .round, .shape, .polygon:
                if kind == .round {
                    let r = extra.range(4, 40)
                    geometrySum += r
                    radii.append(min(r, sd / 2))
                }
                let x = coord.range(0, Double(w - s)), y = coord.range(0, Double(h - s))
                geometrySum += x
                geometrySum += y
                origins.append(Point(x: x, y: y))
                if kind == .polygon {
                    for _ in 0..<verticesPerCall {
                        let px = coord.range(x, x + sd)
                        geometrySum += px
                        let py = coord.range(y, y + sd)
                        geometrySum += py
                        vertices.append(Point(x: px, y: py))
                    }
                }
            }
            let n: Int
            switch cell.style {
            case .Solid: n = 1
            case .Linear, .Radial, .Conic: n = 3
            case .PatternNN, .PatternBI: n = 0
            }
            for _ in 0..<n {
                let c = colour.argb()
                colourSum &+= UInt64(c)
                colours.append(
                    Color(
                        red: Double((c >> 16) & 0xFF) / 255, green: Double((c >> 8) & 0xFF) / 255, blue: Double(c & 0xFF) / 255,
                        alpha: Double(c >> 24) / 255))
            }
        }
    }

    /// Pattern image `k` at size `s`: an 8 × 8 checkerboard of an opaque
    /// ramp and translucent grey, premultiplied.
    static func patternImage(_ k: Int, size s: Int) -> Image {
        var bytes = [UInt8](repeating: 0, count: s * s * 4)
        for y in 0..<s {
            for x in 0..<s {
                let i = (y * s + x) * 4
                if ((8 * x / s) + (8 * y / s)) % 2 == 0 {
                    bytes[i] = UInt8(255 * x / max(1, s - 1))
                    bytes[i + 1] = UInt8(255 * y / max(1, s - 1))
                    bytes[i + 2] = UInt8(32 + 64 * k)
                    bytes[i + 3] = 255
                } else {
                    bytes[i] = 64
                    bytes[i + 1] = 64
                    bytes[i + 2] = 64
                    bytes[i + 3] = 128
                }
            }
        }
        return try! Image(width: s, height: s, premultipliedPixels: bytes)
    }

    /// The round's state: stroke parameters and pattern sampling (untimed).
    func prepare(_ canvas: Canvas) {
        canvas.blendMode = .normal
        canvas.lineWidth = 2
        canvas.lineJoin = .miter
        canvas.miterLimit = 4
        canvas.lineCap = .butt
        canvas.interpolationQuality = cell.style == .PatternNN ? .none : .low
    }

    /// The paint of call `i` on its style rectangle at `origin`.
    @inline(__always)
    private func paint(_ i: Int, _ origin: Point) -> Paint {
        let s = Double(cell.size)
        switch cell.style {
        case .Solid:
            return .color(colours[i])
        case .Linear:
            let g = Gradient(stops: [
                .init(color: colours[3 * i], location: 0), .init(color: colours[3 * i + 1], location: 0.5),
                .init(color: colours[3 * i + 2], location: 1),
            ])
            return .linearGradient(
                g, start: Point(x: origin.x + 0.2 * s, y: origin.y + 0.2 * s), end: Point(x: origin.x + 0.8 * s, y: origin.y + 0.8 * s))
        case .Radial:
            let g = Gradient(stops: [
                .init(color: colours[3 * i], location: 0), .init(color: colours[3 * i + 1], location: 0.5),
                .init(color: colours[3 * i + 2], location: 1),
            ])
            let c = Point(x: origin.x + s / 2, y: origin.y + s / 2), r = s / 2
            return .radialGradient(g, startCenter: Point(x: c.x - r / 2, y: c.y - r / 2), startRadius: 0, endCenter: c, endRadius: r)
        case .Conic:
            let g = Gradient(stops: [
                .init(color: colours[3 * i], location: 0), .init(color: colours[3 * i + 1], location: 0.33),
                .init(color: colours[3 * i + 2], location: 0.66), .init(color: colours[3 * i], location: 1),
            ])
            return .conicGradient(g, center: Point(x: origin.x + s / 2, y: origin.y + s / 2), angle: 0)
        case .PatternNN, .PatternBI:
            return .pattern(images[i % 4], transform: Transform(translationX: origin.x, y: origin.y), spread: .repeat)
        }
    }

    /// The N calls, in order.
    func draw(on canvas: Canvas) {
        let s = Double(cell.size)
        let rule: FillRule = evenOdd ? .evenOdd : .winding
        let isPattern = cell.style == .PatternNN || cell.style == .PatternBI
        for i in 0..<count {
            let origin = origins[i]
            if rotated {
                canvas.saveGState()
                let a = 0.01 * Double(i)
                canvas.translateBy(x: 256, y: 300)
                canvas.rotate(by: a)
                canvas.translateBy(x: -256, y: -300)
            }
            switch kind {
            case .alignedRect, .smoothRect:
                let rect = Rect(x: origin.x, y: origin.y, width: s, height: s)
                if fill {
                    // A rectangle filled with its pattern is the image drawn there.
                    if isPattern { canvas.draw(images[i % 4], in: rect) } else { canvas.fill(rect, with: paint(i, origin)) }
                } else {
                    canvas.stroke(rect, with: paint(i, origin))
                }
            case .round:
                let r = radii[i]
                let box = Rect(x: origin.x, y: origin.y, width: s, height: s)
                if fill {
                    canvas.fill(roundedRect: box, cornerWidth: r, cornerHeight: r, with: paint(i, origin))
                } else {
                    canvas.stroke(roundedRect: box, cornerWidth: r, cornerHeight: r, with: paint(i, origin))
                }
            case .polygon:
                // The canvas's polygon calls, as Blend2D's are its polygon
                // geometry: no path of the call's own.
                let first = i * verticesPerCall
                let polygon = vertices[first..<(first + verticesPerCall)]
                if fill {
                    canvas.fill(polygon: polygon, with: paint(i, origin), rule: rule)
                } else {
                    canvas.stroke(polygon: polygon, with: paint(i, origin))
                }
            case .shape:
                canvas.saveGState()
                canvas.translateBy(x: origin.x, y: origin.y)
                // The paint in the shape's own (translated) space.
                let local = paint(i, Point(x: 0, y: 0))
                if fill { canvas.fill(shape, with: local, rule: rule) } else { canvas.stroke(shape, with: local) }
                canvas.restoreGState()
            }
            if rotated { canvas.restoreGState() }
        }
    }
}
