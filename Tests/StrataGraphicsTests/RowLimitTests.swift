import CPixels
import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// A canvas limited to some rows (`limitRows(to:)`, how the compositor draws
/// a frame in bands on several threads) draws those rows exactly as a canvas
/// drawing everything does, whatever it draws.
@Suite struct RowLimitTests {
    /// A drawing, in a canvas 160 × 150, moved down by `dy`.
    typealias Drawing = @Sendable (Canvas) -> Void

    static var curve: Path {
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.addCurve(to: Point(x: 60, y: 40), control1: Point(x: 40, y: -20), control2: Point(x: 0, y: 60))
        p.addLine(to: Point(x: 90, y: 95))
        p.addQuadCurve(to: Point(x: 5, y: 80), control: Point(x: 30, y: 120))
        return p
    }

    /// A zigzag dense enough for the stroke rasterizer's sampled mode.
    static var zigzag: Path {
        var p = Path()
        p.move(to: Point(x: 0, y: 50))
        for i in 1...2000 { p.addLine(to: Point(x: Double(i) * 0.06, y: 50 + (i % 2 == 0 ? 40 : -40) * sin(Double(i) * 0.01))) }
        return p
    }

    /// A comb of vertical teeth, dense enough for the sampled mode, its
    /// teeth on seven columns: many edges at the same x, which the sweep
    /// orders the same way whichever row it starts at.
    static var comb: Path {
        var p = Path()
        p.move(to: Point(x: 20, y: 10))
        for i in 1...1200 {
            p.addLine(to: Point(x: 20 + Double(i % 7) * 0.5, y: i % 2 == 0 ? 10 : 10 + Double(i % 13) * 9))
        }
        return p
    }

    /// Out and back along one line six times (edges tied in every strip),
    /// and a fan of 40 spokes out and back through one point (a knot of 80
    /// edges in the point's row, which the row walk leaves to the strip
    /// walk): strokes for the area mode's walk, not summed.
    static func drawTiedStrokes(_ c: Canvas) {
        var back = Path()
        back.move(to: Point(x: 10, y: 8))
        for i in 0..<12 { back.addLine(to: i % 2 == 0 ? Point(x: 95, y: 70.5) : Point(x: 10, y: 8)) }
        var fan = Path()
        fan.move(to: Point(x: 60, y: 60.3))
        for i in 0..<40 {
            let a = Double(i) * 0.157
            fan.addLine(to: Point(x: 60 + 45 * cos(a), y: 60.3 + 45 * sin(a)))
            fan.addLine(to: Point(x: 60, y: 60.3))
        }
        c.strokeColor = Color(red: 0.8, green: 0.2, blue: 0.1, alpha: 0.7)
        c.lineWidth = 2.5
        c.stroke(back)
        c.lineWidth = 1.5
        c.stroke(fan)
    }

    static let drawings: [(String, Drawing)] = [
        ("strokes tied and knotted", { c in drawTiedStrokes(c) }),
        (
            "fill",
            { c in
                c.fillColor = Color(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.7)
                c.fill(curve, rule: .evenOdd)
            }
        ),
        (
            "stroke",
            { c in
                c.strokeColor = .blue
                c.lineWidth = 3.3
                c.stroke(curve)
            }
        ),
        (
            "dashed stroke",
            { c in
                c.strokeColor = .red
                c.lineWidth = 1.7
                c.setLineDash(phase: 0.4, lengths: [5, 3])
                c.stroke(curve)
            }
        ),
        (
            "dense stroke",
            { c in
                c.strokeColor = .black
                c.lineWidth = 1
                c.stroke(zigzag)
            }
        ),
        (
            "dense stroke with ties",
            { c in
                c.strokeColor = Color(red: 0.1, green: 0.4, blue: 0.9, alpha: 0.8)
                c.lineWidth = 1.25
                c.lineJoin = .round
                c.stroke(comb)
            }
        ),
        (
            "dense aliased stroke",
            { c in
                c.shouldAntialias = false
                c.strokeColor = .black
                c.stroke(zigzag)
                c.stroke(comb)
            }
        ),
        (
            "dense stroke past the edge budget",
            { c in
                // The budget runs out only with the rows outside a limit
                // counted: a limited canvas must give up where the whole does.
                c.strokeRasterizer.maxEdges = 3000
                c.strokeColor = .black
                c.lineWidth = 1
                c.stroke(zigzag)
                c.strokeRasterizer.maxEdges = 2_000_000
            }
        ),
        (
            "aliased",
            { c in
                c.shouldAntialias = false
                c.fillColor = .green
                c.fill(curve)
                c.strokeColor = .black
                c.stroke(curve)
            }
        ),
        (
            "shaded frames",
            { c in
                // Sides tall enough for several runs of columns
                // (`ShaderBlitter.blitColumns`), on whole pixels and off them.
                let g = Gradient(stops: [
                    .init(color: Color(red: 0.9, green: 0.1, blue: 0.2, alpha: 0.7), location: 0),
                    .init(color: Color(red: 0.1, green: 0.8, blue: 0.4, alpha: 1), location: 0.5),
                    .init(color: Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 0.5), location: 1),
                ])
                c.lineWidth = 2
                c.stroke(
                    Path(rect: Rect(x: -0.3, y: -15, width: 30, height: 120)),
                    with: .linearGradient(g, start: Point(x: 0, y: -15), end: Point(x: 30, y: 105)))
                c.lineWidth = 3
                c.stroke(
                    Path(rect: Rect(x: 40.25, y: -12.6, width: 25.5, height: 118.2)),
                    with: .radialGradient(
                        g, startCenter: Point(x: 45, y: 30), startRadius: 0, endCenter: Point(x: 52, y: 45), endRadius: 70))
                c.stroke(
                    Path(rect: Rect(x: 75.5, y: -5.5, width: 20, height: 110)),
                    with: .conicGradient(g, center: Point(x: 85, y: 50), angle: 0.4))
                var bytes = [UInt8](repeating: 0, count: 8 * 8 * 4)
                for i in 0..<64 { bytes[4 * i] = UInt8(i * 4); bytes[4 * i + 1] = UInt8(255 - i * 3); bytes[4 * i + 3] = 255 }
                if let image = try? Image(width: 8, height: 8, premultipliedPixels: bytes) {
                    c.interpolationQuality = .low
                    c.stroke(
                        Path(rect: Rect(x: 105.6, y: -14.2, width: 15, height: 119)),
                        with: .pattern(image, transform: Transform(a: 1.3, b: 0.2, c: -0.1, d: 1.1, tx: 0.4, ty: 0.7), spread: .repeat))
                }
            }
        ),
        (
            "ellipse",
            { c in
                c.fillColor = Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 0.8)
                c.fillEllipse(in: Rect(x: 3.3, y: 4.7, width: 97.1, height: 83.9))
            }
        ),
        (
            "clipped",
            { c in
                c.clip(to: Path(ellipseIn: Rect(x: 10.5, y: 8.25, width: 80, height: 90)))
                c.fillColor = .red
                c.fill(Rect(x: 0, y: 0, width: 200, height: 200))
                c.clip(to: curve)
                c.fillColor = .blue
                c.fill(Rect(x: 0, y: 0, width: 200, height: 200))
            }
        ),
        (
            "shadow",
            { c in
                c.setShadow(offset: Size(width: 3, height: 7), blur: 9, color: Color(red: 0, green: 0, blue: 0.3, alpha: 0.6))
                c.fillColor = .red
                c.fill(curve)
                c.setShadow(offset: Size(width: -2, height: -11), blur: 2.5)
                c.strokeColor = .green
                c.lineWidth = 4
                c.stroke(curve)
            }
        ),
        (
            "layer with a shadow, clipped",
            { c in
                c.clip(to: Path(ellipseIn: Rect(x: -10, y: -15, width: 120, height: 130)))
                c.setShadow(offset: Size(width: 4, height: 12), blur: 6)
                c.alpha = 0.8
                c.beginTransparencyLayer()
                c.fillColor = .blue
                c.fill(Rect(x: 10.5, y: 12.25, width: 50, height: 40))
                c.fillColor = Color(red: 1, green: 0.9, blue: 0)
                c.fillEllipse(in: Rect(x: 30, y: 30, width: 60, height: 70))
                c.endTransparencyLayer()
            }
        ),
        (
            "rotated",
            { c in
                c.rotate(by: 0.3)
                c.fillColor = Color(red: 0.5, green: 0.1, blue: 0.7, alpha: 1)
                c.fill(Rect(x: 20.5, y: -10.2, width: 60, height: 70))
                c.fill(
                    Path(ellipseIn: Rect(x: 5, y: 30, width: 70, height: 50)),
                    with: .linearGradient(Gradient(colors: [.red, .blue], locations: [0, 1]), start: .zero, end: Point(x: 80, y: 60)))
            }
        ),
    ]

    /// The tied and knotted strokes go through the area mode's walk, a row
    /// of the fan left to the strip walk: what the band test above needs of
    /// them to test the walk's start at a band's first row.
    @Test func tiedStrokesAreWalkedNotSummed() throws {
        let canvas = try Canvas(width: 160, height: 150)
        canvas.translateBy(x: 20.3, y: 23.71)
        Self.drawTiedStrokes(canvas)
        #expect(canvas.strokeRasterizer.sparseFilled == 0 && canvas.strokeRasterizer.ringsFilled == 0)
        #expect(canvas.strokeRasterizer.rowsLeftToStrips > 0)
    }

    @Test func limitedRowsAreTheRowsOfTheWholeDrawing() throws {
        for (name, draw) in Self.drawings {
            for dy in [0.0, 0.37, 3.71, 10.5, 17.13] {
                func drawing(_ c: Canvas) {
                    c.translateBy(x: 20.3, y: 20 + dy)
                    draw(c)
                }
                let whole = try Canvas(width: 160, height: 150)
                drawing(whole)
                let expected = whole.makeImage()
                // (81 and 98: bands that start just below the fan's hub in
                // the tied strokes, a row left to the strip walk, for the
                // moves 0 and 17.13.)
                for (top, bottom) in [(0, 37), (37, 38), (38, 75), (61, 101), (100, 150), (13, 140), (81, 98), (98, 150)] {
                    let part = try Canvas(width: 160, height: 150)
                    part.limitRows(to: top..<bottom)
                    drawing(part)
                    let image = part.makeImage()
                    let rowBytes = expected.bytesPerRow
                    var wrong: [Int] = []
                    for y in 0..<150 {
                        let row = expected.pixels[(y * rowBytes)..<((y + 1) * rowBytes)], got = image.pixels[(y * rowBytes)..<((y + 1) * rowBytes)]
                        let inside = y >= top && y < bottom
                        // Inside the rows: the whole drawing's; outside: untouched.
                        if inside ? row != got : got.contains(where: { $0 != 0 }) { wrong.append(y) }
                    }
                    #expect(wrong.isEmpty, "\(name), moved \(dy), rows \(top)..<\(bottom): rows \(wrong.prefix(8)) differ")
                }
            }
        }
    }

    /// Filled curves in limited rows: pieces whose lines would all lie
    /// beyond the rows are not flattened (`CurveFlattener.beyondRows`), and
    /// the rows are the whole drawing's, bit for bit. Random closed paths of
    /// cubics, quadratics and lines, some bulging far past their ends (a
    /// piece wholly below the rows whose curve bows up towards them), some
    /// reaching past the canvas, under a scale and a turn, in windows of one
    /// row to many at the top, the bottom and inside. (Culling pieces that
    /// reach half their height into the rows fails it.)
    @Test func curvesBeyondTheRowsAreTheSameInTheRows() throws {
        var r = FuzzRandom(seed: 61)
        func value(_ range: Int) -> Double { Double(r.int(range * 16)) / 16 - 20 }
        for round in 0..<60 {
            var path = Path()
            path.move(to: Point(x: value(200), y: value(190)))
            for _ in 0..<(3 + r.int(5)) {
                let end = Point(x: value(200), y: value(190))
                switch r.int(4) {
                case 0:
                    path.addLine(to: end)
                case 1:
                    path.addQuadCurve(to: end, control: Point(x: value(200), y: value(190)))
                default:
                    // (Now and then control points far above or below the ends.)
                    let far = r.int(3) == 0 ? Double(r.int(2) == 0 ? -60 : 60) : 0
                    path.addCurve(
                        to: end, control1: Point(x: value(200), y: value(190) + far),
                        control2: Point(x: value(200), y: value(190) + far))
                }
            }
            path.closeSubpath()
            let turn = Double(r.int(100)) / 100, scale = 0.6 + Double(r.int(10)) / 10
            let evenOdd = r.int(2) == 0
            func drawing(_ c: Canvas) {
                c.translateBy(x: 80, y: 75)
                c.rotate(by: turn)
                c.scaleBy(x: scale, y: scale)
                c.translateBy(x: -80, y: -75)
                c.fillColor = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.8)
                c.fill(path, rule: evenOdd ? .evenOdd : .winding)
            }
            let whole = try Canvas(width: 160, height: 150)
            drawing(whole)
            let expected = whole.makeImage()
            let rowBytes = expected.bytesPerRow
            for (top, bottom) in [(0, 1), (0, 30), (30, 31), (31, 75), (60, 100), (74, 76), (120, 150), (149, 150)] {
                let part = try Canvas(width: 160, height: 150)
                part.limitRows(to: top..<bottom)
                drawing(part)
                let image = part.makeImage()
                let wrong = (top..<bottom).filter { y in
                    let rows = (y * rowBytes)..<((y + 1) * rowBytes)
                    return expected.pixels[rows] != image.pixels[rows]
                }
                #expect(wrong.isEmpty, "round \(round), rows \(top)..<\(bottom): rows \(wrong.prefix(8)) differ")
            }
        }
    }

    /// A shape drawn in limited rows leaves nothing behind in the cell
    /// rasterizer for the next shape, drawn over all rows: only the limited
    /// rows' cells were written (`strata_accumulate_lines_rows`), and they
    /// were swept. (With every row's cells written and the rows outside
    /// the limit not cleared, the same polygon drawn again fails.) Rows outside the limit are the second shape's alone;
    /// rows inside are both shapes', as a canvas limited to them throughout
    /// draws them.
    @Test func aShapeInLimitedRowsLeavesTheCellsClean() throws {
        let first: [Point] = [Point(x: 3.3, y: 1.7), Point(x: 70.2, y: 12.5), Point(x: 40.6, y: 58.1), Point(x: 9.4, y: 44.9)]
        var curve = Path()
        curve.move(to: Point(x: 10.5, y: 2.25))
        curve.addCurve(to: Point(x: 75, y: 55.5), control1: Point(x: 90, y: 0), control2: Point(x: 20, y: 70))
        curve.addLine(to: Point(x: 4.75, y: 40.3))
        curve.closeSubpath()
        let seconds: [(String, (Canvas) -> Void)] = [
            // (The same area: its cells where the first shape's were.)
            ("the same polygon", { $0.fill(polygon: first[...], with: .color(.blue)) }),
            ("polygon", { $0.fill(polygon: [Point(x: 60.1, y: 0.4), Point(x: 78.9, y: 30.3), Point(x: 1.2, y: 59.6)], with: .color(.blue)) }),
            ("curve", { $0.fill(curve, with: .color(.blue)) }),
            ("ring", { $0.stroke(roundedRect: Rect(x: 6.5, y: 4.25, width: 60, height: 50), cornerWidth: 9, cornerHeight: 9, with: .color(.blue)) }),
        ]
        for (name, second) in seconds {
            for (top, bottom) in [(10, 20), (0, 1), (37, 60), (25, 26)] {
                let canvas = try Canvas(width: 80, height: 60)
                canvas.saveGState()
                canvas.limitRows(to: top..<bottom)
                canvas.fill(polygon: first[...], with: .color(.red))
                canvas.restoreGState()
                second(canvas)
                let alone = try Canvas(width: 80, height: 60)
                second(alone)
                let limited = try Canvas(width: 80, height: 60)
                limited.limitRows(to: top..<bottom)
                limited.fill(polygon: first[...], with: .color(.red))
                second(limited)
                let got = canvas.makeImage(), outside = alone.makeImage(), inside = limited.makeImage()
                let rowBytes = got.bytesPerRow
                let wrong = (0..<60).filter { y in
                    let rows = (y * rowBytes)..<((y + 1) * rowBytes)
                    return got.pixels[rows] != (y >= top && y < bottom ? inside : outside).pixels[rows]
                }
                #expect(wrong.isEmpty, "\(name), rows \(top)..<\(bottom): rows \(wrong.prefix(8)) differ")
            }
        }
    }

    /// The limit is part of the graphics state, and a limit past the canvas
    /// or empty draws nothing outside it.
    @Test func theLimitIsRestoredAndHeldToTheCanvas() throws {
        let c = try Canvas(width: 20, height: 20)
        func rowsDrawn() -> [Int] {
            let image = c.makeImage()
            return (0..<20).filter { y in image.pixels[(y * 20 * 4)..<((y + 1) * 20 * 4)].contains { $0 != 0 } }
        }
        c.saveGState()
        c.limitRows(to: 5..<8)
        // The clip is reported as without the limit, so that a drawing that
        // asks for it draws the same in every band.
        #expect(c.clipBoundingBox == Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(c.clipCoverage(x: 3, y: 15) == 255)
        c.fillColor = .red
        c.fill(Rect(x: 0, y: 0, width: 20, height: 10))
        #expect(rowsDrawn() == [5, 6, 7])
        c.restoreGState()
        c.fill(Rect(x: 0, y: 10, width: 20, height: 2))
        #expect(rowsDrawn() == [5, 6, 7, 10, 11])
        let e = try Canvas(width: 20, height: 20)
        e.limitRows(to: 30..<40)
        e.fillColor = .red
        e.fill(Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(e.makeImage().pixels.allSatisfy { $0 == 0 })
        let d = try Canvas(width: 20, height: 20)
        d.limitRows(to: 5..<5)
        d.fill(Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(d.makeImage().pixels.allSatisfy { $0 == 0 })
    }
}

/// `BandRenderer`: a picture drawn on several threads is the picture one
/// canvas draws.
@Suite struct BandRendererTests {
    @Test func theRasterScenesOnThreeThreadsAreTheScenesOnOne() throws {
        for scene in RasterScene.allCases {
            let data = scene.generate()
            let one = try Canvas(width: RasterScene.width, height: RasterScene.height)
            scene.draw(data, on: one)
            let bitmap = try Bitmap(width: RasterScene.width, height: RasterScene.height)
            let renderer = BandRenderer(bitmap: bitmap, threadCount: 3)
            #expect(renderer.bands.count == 3)
            // Twice: the canvases are kept from one picture to the next.
            for _ in 0..<2 {
                renderer.draw { scene.draw(data, on: $0) }
                #expect(bitmap.makeImage() == one.makeImage(), "\(scene)")
            }
        }
    }

    /// A picture that leaves a state saved and a layer begun does not
    /// change the next one.
    @Test func whatAPictureLeavesIsUndone() throws {
        let bitmap = try Bitmap(width: 60, height: 64)
        let renderer = BandRenderer(bitmap: bitmap, threadCount: 2)
        renderer.draw { c in
            c.saveGState()
            c.translateBy(x: 30, y: 0)
            c.alpha = 0.2
            c.beginTransparencyLayer()
            c.fill(Rect(x: 0, y: 0, width: 10, height: 64))
        }
        let first = bitmap.makeImage()
        // The layer was ended and composited: faint black at x 30 ..< 40.
        #expect(first.pixels[(10 * 60 + 35) * 4 + 3] == 51 && first.pixels[(10 * 60 + 5) * 4 + 3] == 0)
        renderer.draw { c in c.fill(Rect(x: 0, y: 0, width: 10, height: 64)) }
        // Not moved, not faint, not into a layer left open.
        let expected = try Canvas(width: 60, height: 64)
        expected.draw(first, atDeviceX: 0, y: 0)
        expected.fill(Rect(x: 0, y: 0, width: 10, height: 64))
        #expect(bitmap.makeImage() == expected.makeImage())
    }

    /// Bands move towards an equal share of the time they took, half way
    /// at a time, 16 rows each at least, and not for an even picture or
    /// times that are not positive numbers; the pictures stay one canvas's.
    @Test func bandsMoveTowardsAnEqualShareOfTheTime() throws {
        let bitmap = try Bitmap(width: 100, height: 400)
        let renderer = BandRenderer(bitmap: bitmap, threadCount: 2)
        #expect(renderer.bands == [0..<200, 200..<400])
        // Band 0 took three times band 1: an equal share ends at 2/3 of
        // band 0 (row 133.3), and the edge goes half way there.
        renderer.rebalance(costs: [3, 1])
        #expect(renderer.bands == [0..<167, 167..<400])
        // Within 5 % of even, or times that are not positive numbers: no move.
        for costs in [[1.04, 1], [.nan, 1], [0, 1], [1, -1], [.infinity, 1], [1]] {
            renderer.rebalance(costs: costs)
            #expect(renderer.bands == [0..<167, 167..<400], "\(costs)")
        }
        // Three bands, nearly all the time in the last: each keeps 16 rows.
        let three = BandRenderer(bitmap: bitmap, threadCount: 3)
        #expect(three.bands == [0..<133, 133..<266, 266..<400])
        three.rebalance(costs: [1, 1, 1e6])
        #expect(three.bands == [0..<222, 222..<311, 311..<400])
        for _ in 0..<12 { three.rebalance(costs: [1, 1, 1e6]) }
        #expect(three.bands == [0..<368, 368..<384, 384..<400])
        // The pictures after a move are one canvas's.
        for scene in [RasterScene.area, .circles] {
            let data = scene.generate()
            let one = try Canvas(width: RasterScene.width, height: RasterScene.height)
            scene.draw(data, on: one)
            let big = try Bitmap(width: RasterScene.width, height: RasterScene.height)
            let moved = BandRenderer(bitmap: big, threadCount: 3)
            for costs in [[5.0, 1, 1], [1, 1, 9], [1, 4, 1]] {
                moved.rebalance(costs: costs)
                moved.draw { scene.draw(data, on: $0) }
                #expect(big.makeImage() == one.makeImage(), "\(scene) \(moved.bands)")
            }
        }
    }

    /// A picture heavy at the top: after a few pictures the top band is
    /// the smaller (each band's work is timed as it draws).
    @Test func bandsFollowWhereThePictureIsHeavy() throws {
        let bitmap = try Bitmap(width: 200, height: 400)
        let renderer = BandRenderer(bitmap: bitmap, threadCount: 2)
        for _ in 0..<6 {
            renderer.draw { c in
                // Thousands of small shapes in the top 40 rows, one fill below.
                for i in 0..<4000 {
                    c.fillEllipse(in: Rect(x: Double(i % 190), y: Double(i % 37), width: 3.5, height: 3.5))
                }
                c.fill(Rect(x: 0, y: 200, width: 200, height: 200))
            }
        }
        #expect(renderer.bands[0].count < 120, "\(renderer.bands)")
    }

    @Test func bandsAreHeldToTheBitmapAndTheLimits() throws {
        let small = try Bitmap(width: 10, height: 40)
        #expect(BandRenderer(bitmap: small, threadCount: 8).bands == [0..<20, 20..<40])
        #expect(BandRenderer(bitmap: small, threadCount: 0).threadCount == 1)
        #expect(BandRenderer(bitmap: small, threadCount: 500).threadCount == 64)
        let empty = try Bitmap(width: 0, height: 0)
        Canvas.draw(into: empty, threadCount: 4) { $0.fill(Rect(x: 0, y: 0, width: 5, height: 5)) }
        // One thread: one band, the whole bitmap.
        let one = BandRenderer(bitmap: small, threadCount: 1)
        #expect(one.bands == [0..<40])
        one.draw { $0.fill(Rect(x: 0, y: 0, width: 10, height: 40)) }
        #expect(small.makeImage().pixels.allSatisfy { $0 == 0 || $0 == 255 } && small.makeImage().pixels[3] == 255)
    }
}

/// The order the sampled and aliased sweeps sort their active edges in
/// depends on the edges alone: a band that starts its sweep at its own
/// first row sorts the edges crossing it afresh, and must get the order the
/// walk from the top reached, ties and all.
@Suite struct StripOrderTests {
    /// Edges on few columns and slopes, so that many tie on x and on more.
    static func edges(_ count: Int, seed: UInt64) -> [ActiveEdge] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let column = Float(Int(random.uniform() * 4)) * 0.5
            let slope = Float(Int(random.uniform() * 3)) - 1
            let first = Int32(random.uniform() * 3)
            let last = first + 1 + Int32(random.uniform() * 3)
            let up = random.uniform() < 0.5
            return ActiveEdge(
                x: column, xRef: column - Float(Int(random.uniform() * 2)) * slope, dxdY: slope, top: 0,
                first: first, last: last, fFirst: up ? -65536 : 65536, fLast: up ? -65536 : 65536)
        }
    }

    static func fields(_ e: ActiveEdge) -> [Float] {
        [e.x, e.xRef, e.dxdY, e.top, Float(e.first), Float(e.last), Float(e.fFirst), Float(e.fLast)]
    }

    /// A long list far out of order (`radixSortByKey`, past the insertion
    /// sort's budget) comes out in the comparison sort's order: x across the
    /// floats' range (negative, −0 and +0, whole and fractional, ties in x
    /// broken by the other values, edges equal in every value), lists of 64
    /// to 5,000, shuffled and reversed; and the insertion sort that gives up
    /// reaches the same order.
    @Test func longListsSortToTheComparisonSortsOrder() throws {
        let rasterizer = StrokeRasterizer()
        var random = SplitMix64(seed: 77)
        for (round, n) in [64, 65, 257, 300, 1000, 5000, 2048].enumerated() {
            var list = Self.edges(n, seed: UInt64(round))
            for i in list.indices {
                switch Int(random.uniform() * 5) {
                case 0: list[i].x = -list[i].x - Float(Int(random.uniform() * 3))
                case 1: list[i].x = random.uniform() < 0.5 ? -0.0 : 0
                case 2: list[i].x = Float(random.uniform() * 600 - 100)
                case 3: list[i].x *= 1e-30
                default: break
                }
            }
            if round == 6 { list.reverse() }
            var expected = list
            expected.sort(by: StrokeRasterizer.precedes)
            var sorted = list
            sorted.withUnsafeMutableBufferPointer { rasterizer.radixSortByKey($0.baseAddress!, $0.count) }
            #expect(sorted.map(Self.fields) == expected.map(Self.fields), "\(n) edges")
            var insertion = list
            insertion.withUnsafeMutableBufferPointer { rasterizer.sortByKey($0.baseAddress!, $0.count) }
            #expect(insertion.map(Self.fields) == expected.map(Self.fields), "\(n) edges, by sortByKey")
        }
    }

    @Test func anyStartingOrderSortsToOneOrder() throws {
        let rasterizer = StrokeRasterizer()
        for seed in 0..<40 as Range<UInt64> {
            let edges = Self.edges(60, seed: seed)
            var orders: [[[Float]]] = []
            var random = SplitMix64(seed: seed + 1000)
            for round in 0..<4 {
                var list = edges
                // Shuffled differently each round; one round reversed.
                if round == 3 {
                    list.reverse()
                } else {
                    for i in stride(from: list.count - 1, to: 0, by: -1) {
                        list.swapAt(i, Int(random.uniform() * Double(i + 1)))
                    }
                }
                list.withUnsafeMutableBufferPointer { rasterizer.sortByKey($0.baseAddress!, $0.count) }
                orders.append(list.map(Self.fields))
            }
            #expect(orders.allSatisfy { $0 == orders[0] }, "seed \(seed)")
        }
    }
}

/// A dense outline whose edges come in no order along x (a coastline, a
/// scatter of marks) is put in order of columns before the sampled and
/// aliased sweeps (`StrokeRasterizer.sortedByColumns`): the pixels are
/// those of the same outline arriving in order of x, bit for bit.
@Suite struct ColumnOrderTests {
    /// `count` small closed quadrilaterals at random places in a 90 × 70
    /// box, in the order drawn, or in order of x (then no edge of the
    /// outline, stroked 0.4 wide, is a pixel left of the one before).
    static func marks(_ count: Int, inOrderOfX: Bool) -> Path {
        var random = SplitMix64(seed: 4242)
        var marks: [[Point]] = (0..<count).map { _ in
            let x = 5 + random.uniform() * 90, y = 5 + random.uniform() * 70
            return (0..<4).map { k in
                let a = Double(k) * Double.pi / 2 + random.uniform()
                return Point(x: x + 0.2 * cos(a), y: y + 0.15 * sin(a))
            }
        }
        if inOrderOfX { marks.sort { $0[0].x < $1[0].x } }
        var path = Path()
        for m in marks {
            path.addLines(between: m)
            path.closeSubpath()
        }
        return path
    }

    static func draw(_ path: Path, antialiased: Bool) -> Canvas {
        let canvas = makeCanvas(100, 80)
        canvas.shouldAntialias = antialiased
        canvas.strokeColor = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.8)
        canvas.strokeStyle = StrokeStyle(lineWidth: 0.4, lineJoin: .miter, miterLimit: 4)
        canvas.stroke(path)
        return canvas
    }

    /// `sortedByColumn` hands back every edge once, in order of x cut to
    /// 1/`columnFineness` of a column, x clamped to the area (below 0 and
    /// past the width, on the cuts and between them), keeping the order
    /// the edges came in within a cut; the fineness is 16 where the edges
    /// are many for the width, less where they are few, never under 1.
    @Test(arguments: [(8, 40, 16), (8, 400, 16), (300, 64, 1), (100, 300, 8), (1000, 5000, 16)])
    func edgesComeInOrderOfFineColumns(width: Int, count: Int, fineness: Int) {
        #expect(StrokeRasterizer.columnFineness(width: width, count: count) == fineness)
        let rasterizer = StrokeRasterizer()
        rasterizer.begin(PixelBox(x0: 0, y0: 0, x1: width, y1: 10))
        var random = SplitMix64(seed: UInt64(width * 7 + count))
        for i in 0..<count {
            var x = Float(random.uniform() * Double(width + 4) - 2)
            if i % 5 == 0 { x = Float(Int(x * 16)) / 16 }  // on a cut
            rasterizer.edges.append(
                ActiveEdge(x: x, xRef: Float(i), dxdY: 0, top: 0, first: 0, last: 1, fFirst: 65536, fLast: 65536))
        }
        let maxX = Float(width)
        let out = rasterizer.sortedByColumn(count, maxX: maxX)
        let f = Float(fineness)
        func cut(_ e: ActiveEdge) -> Int { Int(max(0, min(maxX * f, e.x * f))) }
        var seen = Set<Float>()
        for i in 0..<count {
            seen.insert(out[i].xRef)
            if i > 0 {
                #expect(cut(out[i - 1]) <= cut(out[i]), "edge \(i)")
                // (xRef numbers the edges in the order they came.)
                if cut(out[i - 1]) == cut(out[i]) { #expect(out[i - 1].xRef < out[i].xRef) }
            }
        }
        #expect(seen.count == count)
    }

    @Test(arguments: [true, false]) func edgesOutOfOrderDrawAsInOrder(antialiased: Bool) {
        // 1,600 marks: 6,400 points over 180 pixels of width and height,
        // dense enough for the sampled mode; overlapping here and there.
        let scattered = Self.draw(Self.marks(1600, inOrderOfX: false), antialiased: antialiased)
        let ordered = Self.draw(Self.marks(1600, inOrderOfX: true), antialiased: antialiased)
        #expect(scattered.strokeRasterizer.sortedByColumns == 1)
        // (Aliased, an edge's key is its x at a pixel row's centre line,
        // which a short slanted edge may reach only past its end: some steps
        // back by more than a pixel, and the outline is put in order too.)
        if antialiased { #expect(ordered.strokeRasterizer.sortedByColumns == 0) }
        let a = scattered.makeImage().pixels, b = ordered.makeImage().pixels
        let differing = zip(a, b).filter { $0 != $1 }.count
        #expect(differing == 0)
        #expect(a.contains { $0 != 0 })
    }
}
