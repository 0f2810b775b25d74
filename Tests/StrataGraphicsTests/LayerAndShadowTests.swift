import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

@Suite struct LayerAndShadowTests {
    private func twoSquares(_ canvas: Canvas) {
        canvas.fillColor = Color(red: 0, green: 0, blue: 1)
        canvas.fill(Rect(x: 2, y: 2, width: 10, height: 10))
        canvas.fill(Rect(x: 8, y: 8, width: 10, height: 10))
    }

    @Test func layersApplyAlphaToTheGroup() {
        let plain = makeCanvas(20, 20)
        plain.alpha = 0.5
        twoSquares(plain)
        // Without a layer the overlap is drawn twice.
        #expect(plain.bitmap[10, 10].a > plain.bitmap[4, 4].a)
        let grouped = makeCanvas(20, 20)
        grouped.alpha = 0.5
        grouped.beginTransparencyLayer()
        #expect(grouped.alpha == 1)
        twoSquares(grouped)
        grouped.endTransparencyLayer()
        #expect(grouped.alpha == 0.5)
        #expect(grouped.bitmap[10, 10] == grouped.bitmap[4, 4])
        #expect(grouped.bitmap[4, 4] == Pixel(r: 0, g: 0, b: 128, a: 128))
    }

    @Test func layersCompositeWithTheirBlendModeAndClip() {
        let canvas = makeCanvas(20, 20)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        canvas.clip(to: Rect(x: 0, y: 0, width: 10, height: 20))
        canvas.blendMode = .multiply
        canvas.beginTransparencyLayer()
        canvas.fillColor = Color(red: 1, green: 0.5, blue: 0)
        canvas.fill(canvas.bounds)
        canvas.endTransparencyLayer()
        #expect(canvas.bitmap[5, 5] == Pixel(r: 255, g: 128, b: 0, a: 255))
        #expect(canvas.bitmap[15, 5] == Pixel(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func unbalancedCallsAreHarmless() {
        let canvas = makeCanvas(8, 8)
        canvas.endTransparencyLayer()  // none open: ignored
        canvas.beginTransparencyLayer()
        canvas.saveGState()
        canvas.translateBy(x: 3, y: 0)
        canvas.restoreGState()
        canvas.restoreGState()  // would undo the layer's own save: ignored
        canvas.saveGState()  // left open: dropped at the end
        canvas.fillColor = .white
        canvas.fill(Rect(x: 0, y: 0, width: 2, height: 2))
        canvas.endTransparencyLayer()
        #expect(canvas.transform == .identity && coveredArea(canvas.bitmap) == 4)
    }

    /// The box blur's passes (rows a line at a time, columns side by side,
    /// means by a multiplication or, past 4095 values, a division) give the
    /// bytes of the plain running sum along each line, divided: planes of
    /// one value to a few hundred, boxes narrower and wider than the plane,
    /// values of 0, 255 and between (the means' roundings at every
    /// fraction), up to boxes of 4,097 values.
    @Test func boxBlursAreTheirRunningSums() {
        func reference(_ v: inout [UInt8], _ r: Int, lines: Int, lineStep: Int, length: Int, step: Int) {
            let n = 2 * r + 1
            var out = [UInt8](repeating: 0, count: length)
            for line in 0..<lines {
                let base = line * lineStep
                var sum = 0
                for i in -r...r where i >= 0 && i < length { sum += Int(v[base + i * step]) }
                for i in 0..<length {
                    out[i] = UInt8((sum + n / 2) / n)
                    if i + r + 1 < length { sum += Int(v[base + (i + r + 1) * step]) }
                    if i - r >= 0 { sum -= Int(v[base + (i - r) * step]) }
                }
                for i in 0..<length { v[base + i * step] = out[i] }
            }
        }
        var rng = FuzzRandom(seed: 4242)
        var checked = 0
        for (w, h) in [(1, 1), (1, 9), (9, 1), (5, 3), (17, 23), (64, 40), (301, 7)] {
            for r in [1, 2, 3, 7, 12, 20, 40, 300, 2047, 2048] {
                let plane = AlphaPlane(x0: 0, y0: 0, width: w, height: h)
                for i in 0..<(w * h) { plane.values[i] = [0, 255, UInt8(rng.int(256))][rng.int(3)] }
                var rows = plane.values, columns = plane.values
                plane.boxBlurRows(r)
                reference(&rows, r, lines: h, lineStep: w, length: w, step: 1)
                #expect(plane.values == rows, "rows \(w)×\(h) r \(r)")
                plane.values = columns
                plane.boxBlurColumns(r)
                reference(&columns, r, lines: w, lineStep: 1, length: h, step: w)
                #expect(plane.values == columns, "columns \(w)×\(h) r \(r)")
                checked += 1
            }
        }
        #expect(checked == 70)
        // Every sum of n values for a few widths on both sides of 4096, as
        // the division would round it.
        for n in [3, 5, 41, 47, 55, 255, 1001, 4095, 4097, 8191] {
            let divide = BoxDivider(n)
            for sum in stride(from: 0, through: 255 * n, by: max(1, n / 7)) {
                #expect(Int(divide(Int32(sum))) == (sum + n / 2) / n, "n \(n) sum \(sum)")
            }
            for k in 0...255 {
                // Either side of each whole mean.
                for sum in [k * n - n / 2 - 1, k * n - n / 2, k * n + n / 2, k * n + n / 2 + 1] where sum >= 0 && sum <= 255 * n {
                    #expect(Int(divide(Int32(sum))) == (sum + n / 2) / n, "n \(n) sum \(sum)")
                }
            }
        }
    }

    /// A blurred mask worked out for some rows only has those rows of the
    /// whole mask, byte for byte, and nothing in the others: windows at the
    /// top, the bottom, inside, past either end, a row, none, every row;
    /// blurs from none to wider than the image.
    @Test func aMasksRowsAreTheWholeMasksRows() throws {
        var rng = FuzzRandom(seed: 977)
        var compared = 0
        for (w, h) in [(9, 13), (31, 40), (1, 1)] {
            let bitmap = try Bitmap(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    let a = UInt32([0, 255, rng.int(256)][rng.int(3)])
                    bitmap[x, y] = Pixel(packed: a << 24 | UInt32(rng.int(Int(a) + 1)))
                }
            }
            let image = bitmap.makeImage()
            for blur in [0.0, 1.5, 4, 9, 60] {
                let whole = image.blurredAlphaMask(blur: blur)
                let top = whole.top
                let windows: [Range<Int>] = [
                    top..<(top + 1), top..<0, 0..<h, 2..<5, (h - 1)..<(h + 50), -1000..<(-500), (h + 400)..<(h + 401),
                    5..<5, Int.min..<Int.max, (top - 7)..<(h / 2),
                ]
                for rows in windows {
                    let part = image.blurredAlphaMask(blur: blur, rows: rows)
                    #expect(part.width == whole.width && part.height == whole.height && part.left == whole.left && part.top == top)
                    for j in 0..<whole.height {
                        let k = j + top
                        let line = Array(part.coverage[(j * whole.width)..<((j + 1) * whole.width)])
                        let expected =
                            rows.contains(k)
                            ? Array(whole.coverage[(j * whole.width)..<((j + 1) * whole.width)])
                            : [UInt8](repeating: 0, count: whole.width)
                        #expect(line == expected, "\(w)×\(h) blur \(blur) rows \(rows) row \(k)")
                    }
                    compared += 1
                }
            }
        }
        #expect(compared == 150)
    }

    /// The windowed blur at the edges of its inputs: images without rows or
    /// columns, a blur of NaN, ±infinity, a negative or zero one (no blur:
    /// no margin), 10³⁰ (held to 1000), and windows from Int.min, to
    /// Int.max, empty and past both ends: the whole mask's rows each time,
    /// the others empty, at the whole mask's size.
    @Test func windowedBlursTakeAnyInput() throws {
        for (w, h) in [(0, 0), (5, 0), (0, 5), (3, 2)] {
            let bitmap = try Bitmap(width: w, height: h)
            if w > 0 && h > 0 { bitmap[1, 1] = Pixel(packed: 0xFF00_0000) }
            let image = bitmap.makeImage()
            for blur in [Double.nan, .infinity, -.infinity, -3, 0, 1e30, 2] {
                let whole = image.blurredAlphaMask(blur: blur)
                let margin = blur.isFinite && blur > 0 ? -whole.top : 0
                #expect(whole.top == -margin && whole.left == -margin, "\(w)×\(h) blur \(blur)")
                #expect(whole.width == w + 2 * margin && whole.height == h + 2 * margin)
                if blur == 1e30 {
                    // (Held to 1000: a window of it would only repeat the
                    // other blurs' checks, at a 3,000-pixel margin's cost.)
                    #expect(whole.top == image.blurredAlphaMask(blur: 1000).top)
                    continue
                }
                for rows in [Int.min..<Int.max, Int.min..<0, 0..<Int.max, 1..<1, -5..<(h + 5), Int.max - 1..<Int.max] {
                    let part = image.blurredAlphaMask(blur: blur, rows: rows)
                    #expect(part.width == whole.width && part.height == whole.height && part.top == whole.top)
                    for j in 0..<whole.height {
                        let line = part.coverage[(j * whole.width)..<((j + 1) * whole.width)]
                        let expected = whole.coverage[(j * whole.width)..<((j + 1) * whole.width)]
                        #expect(rows.contains(j + whole.top) ? line == expected : line.allSatisfy { $0 == 0 })
                    }
                }
            }
        }
    }

    @Test func sharpShadowIsTheShapeMoved() {
        let canvas = makeCanvas(30, 30)
        canvas.setShadow(offset: Size(width: 5, height: 3), blur: 0, color: .black)
        canvas.fillColor = .white
        canvas.fill(Rect(x: 5, y: 5, width: 10, height: 10))
        #expect(canvas.bitmap[10, 10] == Pixel(r: 255, g: 255, b: 255, a: 255))  // the shape on top
        #expect(canvas.bitmap[18, 16] == Pixel(r: 0, g: 0, b: 0, a: 255))  // its shadow beyond it
        #expect(canvas.bitmap[21, 10].a == 0 && canvas.bitmap[10, 19].a == 0)  // nothing past the shadow
        #expect(coveredArea(canvas.bitmap) == 100 + 100 - 5 * 7)
    }

    @Test func blurredShadowSpreadsAndKeepsItsInk() {
        let canvas = makeCanvas(60, 60)
        canvas.setShadow(offset: Size(width: 0, height: 0), blur: 8, color: Color(white: 0, alpha: 1))
        canvas.fillColor = Color(white: 1, alpha: 0)  // a transparent shape casts no shadow
        canvas.fill(Rect(x: 20, y: 20, width: 20, height: 20))
        #expect(coveredArea(canvas.bitmap) == 0)
        canvas.strokeColor = .black
        canvas.lineWidth = 4
        canvas.stroke(Rect(x: 20, y: 20, width: 20, height: 20))
        // The blur reaches outside the stroke, fading.
        let edge = canvas.bitmap[15, 30].a
        #expect(edge > 0 && edge < 200)
        #expect(canvas.bitmap[2, 2].a == 0)
    }

    @Test func shadowsFollowEveryKindOfDrawing() {
        let picture = try! Image(width: 1, height: 1, premultipliedPixels: [255, 0, 0, 255])
        let draws: [(Canvas) -> Void] = [
            { $0.fillEllipse(in: Rect(x: 4, y: 4, width: 8, height: 8)) },
            { $0.fill(Path(rect: Rect(x: 4, y: 4, width: 8, height: 8))) },
            { $0.draw(picture, in: Rect(x: 4, y: 4, width: 8, height: 8)) },
            {
                $0.fill(
                    Rect(x: 4, y: 4, width: 8, height: 8),
                    with: .linearGradient(Gradient(colors: [.blue, .blue]), start: .zero, end: Point(x: 1, y: 0)))
            },
        ]
        for (i, draw) in draws.enumerated() {
            let canvas = makeCanvas(24, 24)
            canvas.setShadow(offset: Size(width: 8, height: 8), blur: 0, color: .black)
            draw(canvas)
            #expect(canvas.bitmap[17, 17] == Pixel(r: 0, g: 0, b: 0, a: 255), "drawing \(i)")
        }
    }

    @Test func shadowsTurnOff() {
        let canvas = makeCanvas(20, 20)
        canvas.setShadow(offset: Size(width: 5, height: 5), blur: 2)
        #expect(canvas.shadow?.color == Color(white: 0, alpha: 1.0 / 3))
        canvas.setShadow(offset: Size(width: 5, height: 5), blur: 2, color: nil)
        #expect(canvas.shadow == nil)
        canvas.setShadow(offset: Size(width: .nan, height: 5), blur: 2)
        #expect(canvas.shadow == nil)
        canvas.saveGState()
        canvas.shadow = Shadow(offset: Size(width: 1, height: 1), blur: 0)
        canvas.restoreGState()
        #expect(canvas.shadow == nil)
    }
}

/// Inputs found in review.
@Suite struct CompositingEdgeCaseTests {
    @Test func extremeShadowsAreClampedNotFatal() {
        let canvas = makeCanvas(20, 20)
        canvas.setShadow(offset: .zero, blur: 1e300, color: .black)
        #expect(canvas.shadow?.blur == 1000)
        canvas.shadow = Shadow(offset: Size(width: .nan, height: 0), blur: 0)
        #expect(canvas.shadow == nil)
        canvas.shadow = Shadow(offset: Size(width: 1e19, height: -1e19), blur: 3, color: .black)
        canvas.fillColor = .white
        canvas.fill(Rect(x: 5, y: 5, width: 10, height: 10))
        #expect(coveredArea(canvas.bitmap) == 100)  // the shadow falls far off the canvas
    }

    @Test func shadowedDrawingKeepsTheBlendModesRuleOutsideTheShape() {
        let canvas = makeCanvas(20, 20)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        canvas.blendMode = .sourceIn
        canvas.setShadow(offset: Size(width: 2, height: 2), blur: 0, color: .black)
        canvas.fillColor = Color(red: 1, green: 0, blue: 0)
        canvas.fill(Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(canvas.bitmap[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255))
        #expect(canvas.bitmap[7, 7] == Pixel(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func farOffPatternsDoNotTrap() {
        let image = try! Image(width: 2, height: 1, premultipliedPixels: [255, 0, 0, 255, 0, 0, 255, 255])
        // Translations this large are whole multiples of the 2-pixel pattern
        // (every double past 2⁵³ is even), so the pattern lies as it would
        // at 0: red, blue, red, blue along each row, exactly.
        for t in [Transform(translationX: 1e19, y: 0), Transform(translationX: -3.5e300, y: 7)] {
            let canvas = makeCanvas(4, 4)
            canvas.fill(canvas.bounds, with: .pattern(image, transform: t))
            for y in 0..<4 {
                for x in 0..<4 {
                    #expect(
                        canvas.bitmap[x, y] == (x % 2 == 0 ? Pixel(r: 255, g: 0, b: 0, a: 255) : Pixel(r: 0, g: 0, b: 255, a: 255)),
                        "\(t) at \(x), \(y)")
                }
            }
        }
        // Shrunk to nothing: every pixel covers countless copies, and shows
        // the pattern's colours mixed (opaque, no green, red and blue adding up).
        let canvas = makeCanvas(4, 4)
        canvas.fill(canvas.bounds, with: .pattern(image, transform: Transform(scaleX: 1e-19, y: 1e-19)))
        for y in 0..<4 {
            for x in 0..<4 {
                let p = canvas.bitmap[x, y]
                #expect(p.a == 255 && p.g == 0 && abs(Int(p.r) + Int(p.b) - 255) <= 2, "\(x), \(y): \(p)")
            }
        }
    }

    @Test(.tags(.slow)) func tallStrokesDoNotDrift() {
        // Summing a step per sample line in Float used to carry this line about a
        // pixel off by the bottom of a 4096-row canvas.
        let canvas = makeCanvas(1024, 4096)
        canvas.strokeColor = .white
        canvas.lineWidth = 2
        var p = Path()
        p.move(to: Point(x: 600, y: 0))
        p.addLine(to: Point(x: 702, y: 4096))
        canvas.stroke(p)
        // Near the bottom (y = 4090.5) the centre is at x = 701.85: pixels 700–702 are inked,
        // and the ink's centre of mass sits on the line.
        var mass = 0.0, moment = 0.0
        for x in 690..<714 {
            let a = Double(canvas.bitmap[x, 4090].a)
            mass += a; moment += a * (Double(x) + 0.5)
        }
        #expect(abs(moment / mass - (600 + 102 * 4090.5 / 4096)) < 0.05)
    }

    @Test func trimmingDoesNotLeaveDotsAtSubpathEnds() {
        var p = Path()
        p.move(to: Point(x: 2, y: 5)); p.addLine(to: Point(x: 12, y: 5))
        p.move(to: Point(x: 2, y: 15)); p.addLine(to: Point(x: 12, y: 15))
        let half = PathMeasure(p).trimmed(from: 0, to: 0.5)
        #expect(half.elements == [.move(to: Point(x: 2, y: 5)), .line(to: Point(x: 12, y: 5))])
        let other = PathMeasure(p).trimmed(from: 0.5, to: 1)
        #expect(other.elements == [.move(to: Point(x: 2, y: 15)), .line(to: Point(x: 12, y: 15))])
    }

    @Test func nearReversalsWithHugeMiterLimitsDoNotSpikeBackwards() {
        let canvas = makeCanvas(40, 20)
        canvas.strokeColor = .white
        canvas.strokeStyle = StrokeStyle(lineWidth: 2, lineJoin: .miter, miterLimit: 1e4)
        var p = Path()
        p.move(to: Point(x: 10, y: 10))
        p.addLine(to: Point(x: 30, y: 10))
        p.addLine(to: Point(x: 10, y: 10.02))  // back, turning left by almost 180°
        canvas.stroke(p)
        #expect((0..<8).allSatisfy { canvas.bitmap[$0, 10].a == 0 })
    }
}
