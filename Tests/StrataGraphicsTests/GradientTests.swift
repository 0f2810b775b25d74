import CPixels
import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

private let red = Color(red: 1, green: 0, blue: 0)
private let blue = Color(red: 0, green: 0, blue: 1)

/// Draws `paint` over a `w` × `h` canvas, returning the bitmap.
private func paintCanvas(_ paint: Paint, _ w: Int = 100, _ h: Int = 1, transform: Transform = .identity) -> Bitmap {
    let canvas = makeCanvas(w, h)
    canvas.concatenate(transform)
    canvas.fill(Rect(x: -1000, y: -1000, width: 3000, height: 3000), with: paint)
    return canvas.bitmap
}

/// Channel-by-channel closeness.

/// The premultiplied pixel of the straight colour `c`.
private func px(_ c: Color) -> Pixel { c.premultipliedPixel }

@Suite struct GradientTests {
    @Test func linearInterpolatesAlongTheAxis() {
        let b = paintCanvas(.linearGradient(Gradient(colors: [red, blue]), start: Point(x: 0, y: 0), end: Point(x: 100, y: 0)))
        for x in [0, 10, 50, 77, 99] {
            let t = (Double(x) + 0.5) / 100
            #expect(near(b[x, 0], px(Color(red: 1 - t, green: 0, blue: t)), 1), "x = \(x): \(b[x, 0])")
        }
    }

    @Test func interpolationIsOnStraightColours() {
        // Opaque red to transparent blue: half way is half-transparent purple, not
        // half-transparent red as premultiplied interpolation would give.
        let g = Gradient(colors: [red, blue.withAlphaComponent(0)])
        let b = paintCanvas(.linearGradient(g, start: Point(x: 0.5, y: 0), end: Point(x: 100.5, y: 0)))
        #expect(near(b[50, 0], Pixel(r: 64, g: 0, b: 64, a: 128), 1), "\(b[50, 0])")
        #expect(g.color(at: 0.5) == Color(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
    }

    @Test func stopsAtLocations() {
        let g = Gradient(colors: [red, .green, blue], locations: [0, 0.2, 1])
        #expect(g.color(at: 0.2) == .green)
        #expect(g.color(at: 0.1) == Color(red: 0.5, green: 0.5, blue: 0))
        let c = g.color(at: 0.6)
        #expect(abs(c.green - 0.5) < 1e-12 && abs(c.blue - 0.5) < 1e-12 && c.red == 0)
        #expect(g.color(at: -1) == red && g.color(at: 2) == blue)
    }

    @Test(arguments: [GradientSpread.pad, .repeat, .reflect])
    func spreadModesBeyondTheEnds(spread: GradientSpread) {
        // The axis covers x 0 … 40; pixel 49 sits at t = 1.2375, pixel 9 at 0.2375.
        let b = paintCanvas(.linearGradient(Gradient(colors: [red, blue]), start: .zero, end: Point(x: 40, y: 0), spread: spread))
        let beyond = b[49, 0]
        switch spread {
        case .pad: #expect(beyond == px(blue))
        case .repeat: #expect(near(beyond, b[9, 0], 1))
        case .reflect: #expect(near(beyond, b[30, 0], 1))  // 2 − 1.2375 = 0.7625, pixel 30
        }
        // And before the start (x < 0 under a translation).
        let shifted = paintCanvas(.linearGradient(Gradient(colors: [red, blue]), start: Point(x: 50, y: 0), end: Point(x: 90, y: 0), spread: spread))
        switch spread {
        case .pad: #expect(shifted[0, 0] == px(red))
        case .repeat: #expect(near(shifted[0, 0], shifted[80, 0], 1))  // t = −1.2375 ≡ 0.7625
        case .reflect: #expect(near(shifted[0, 0], shifted[80, 0], 1))  // mirrored: 1.2375, then 2 − 1.2375
        }
    }

    @Test func radialGradientBetweenConcentricCircles() {
        let g = Gradient(colors: [red, blue])
        let b = paintCanvas(
            .radialGradient(
                g, startCenter: Point(x: 50, y: 50), startRadius: 0,
                endCenter: Point(x: 50, y: 50), endRadius: 40), 100, 100)
        #expect(near(b[50, 50], px(g.color(at: 0.5.squareRoot() / 40)), 1))
        // (70.5, 50.5) is 20.5 from the centre: t ≈ 0.51.
        let t = ((20.5 * 20.5 + 0.5 * 0.5).squareRoot()) / 40
        #expect(near(b[70, 50], px(g.color(at: t)), 1))
        #expect(b[95, 50] == px(blue) && b[1, 1] == px(blue))  // padded beyond the end circle
    }

    @Test func radialGradientWithMovingCentre() {
        // From a point circle at (20, 50) to a circle of radius 30 round (50, 50):
        // the point (80, 50) lies on the end circle, so t = 1 there.
        let g = Gradient(colors: [red, blue])
        let paint = Paint.radialGradient(
            g, startCenter: Point(x: 20, y: 50), startRadius: 0,
            endCenter: Point(x: 50, y: 50), endRadius: 30)
        let b = paintCanvas(paint, 100, 100)
        #expect(near(b[79, 50], px(g.color(at: 1)), 8))
        #expect(near(b[20, 50], px(red), 8))
        // Half way along the axis, (50, 50) is on the circle of t = 0.5? The circle
        // at t has centre 20 + 30t and radius 30t, so its right edge is 20 + 60t:
        // (50.5, 50.5) ≈ t 0.508.
        #expect(near(b[50, 50], px(g.color(at: 0.508)), 3))
    }

    @Test func conicGradientGoesRoundOnce() {
        let g = Gradient(colors: [red, blue])
        let b = paintCanvas(.conicGradient(g, center: Point(x: 50, y: 50), angle: 0), 100, 100)
        // Below the centre (+y) is a quarter turn; left, half; above, three quarters.
        #expect(near(b[50, 90], px(g.color(at: 0.25)), 2))
        #expect(near(b[10, 50], px(g.color(at: 0.5)), 2))
        #expect(near(b[50, 10], px(g.color(at: 0.75)), 2))
        // Starting a quarter turn later moves everything back a quarter.
        let turned = paintCanvas(.conicGradient(g, center: Point(x: 50, y: 50), angle: .pi / 2), 100, 100)
        #expect(near(turned[10, 50], px(g.color(at: 0.25)), 2))
    }

    @Test func gradientsFollowTheTransform() {
        // A vertical axis in user space, rotated a quarter turn: horizontal on screen.
        let g = Gradient(colors: [red, blue])
        let b = paintCanvas(
            .linearGradient(g, start: .zero, end: Point(x: 0, y: 100)), 100, 1,
            transform: Transform(translationX: 100, y: 0).rotated(by: .pi / 2))
        // User (0, y) maps to device (100 − y, 0): t grows leftward.
        #expect(near(b[89, 0], px(g.color(at: 0.105)), 1))
        #expect(near(b[9, 0], px(g.color(at: 0.905)), 1))
    }

    @Test func degenerateGradients() {
        // No stops: nothing. One stop: its colour everywhere.
        #expect(coveredArea(paintCanvas(.linearGradient(Gradient(stops: []), start: .zero, end: Point(x: 10, y: 0)))) == 0)
        let one = paintCanvas(.linearGradient(Gradient(colors: [blue]), start: .zero, end: Point(x: 10, y: 0)))
        #expect(one[0, 0] == px(blue) && one[99, 0] == px(blue))
        // NaN locations are dropped.
        let g = Gradient(stops: [.init(color: red, location: .nan), .init(color: blue, location: 0.5)])
        #expect(g.stops.count == 1)
        // NaN colour components count as 0 (Color's rule), rather than poisoning the table.
        let nanColor = paintCanvas(
            .linearGradient(
                Gradient(colors: [Color(red: .nan, green: .nan, blue: 0, alpha: .nan), blue]),
                start: .zero, end: Point(x: 100, y: 0)))
        #expect(
            nanColor[0, 0].a <= 3 && near(nanColor[99, 0], px(blue), 3)
                && near(nanColor[50, 0], px(Color(red: 0, green: 0, blue: 0.505, alpha: 0.505)), 2))
        // Coincident ends: everything is past the end, padded with the last colour.
        let point = paintCanvas(.linearGradient(Gradient(colors: [red, blue]), start: Point(x: 5, y: 0), end: Point(x: 5, y: 0)))
        #expect(point[0, 0] == px(blue))
        // A radial gradient between two point circles at one place covers nothing.
        let none = paintCanvas(
            .radialGradient(
                Gradient(colors: [red, blue]), startCenter: Point(x: 5, y: 0), startRadius: 0,
                endCenter: Point(x: 5, y: 0), endRadius: 0))
        #expect(coveredArea(none) == 0)
        // NaN geometry draws nothing rather than garbage.
        let nan = paintCanvas(.linearGradient(Gradient(colors: [red, blue]), start: Point(x: .nan, y: 0), end: Point(x: 5, y: 0)))
        #expect(coveredArea(nan) == 0)
        // A singular transform draws nothing.
        let flat = paintCanvas(
            .linearGradient(Gradient(colors: [red, blue]), start: .zero, end: Point(x: 5, y: 0)),
            transform: Transform(scaleX: 0, y: 1))
        #expect(coveredArea(flat) == 0)
    }

    @Test func drawGradientFillsTheClipAndHonoursOptions() {
        let g = Gradient(colors: [red, blue])
        let canvas = makeCanvas(100, 10)
        canvas.clip(to: Rect(x: 0, y: 0, width: 100, height: 5))
        canvas.drawLinearGradient(g, start: Point(x: 20, y: 0), end: Point(x: 80, y: 0))
        // Inside the gradient only, and inside the clip only.
        #expect(canvas.bitmap[10, 2].a == 0 && canvas.bitmap[90, 2].a == 0)
        #expect(canvas.bitmap[50, 2].a == 255 && canvas.bitmap[50, 7].a == 0)
        canvas.drawLinearGradient(
            g, start: Point(x: 20, y: 0), end: Point(x: 80, y: 0),
            options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        #expect(canvas.bitmap[10, 2] == px(red) && canvas.bitmap[90, 2] == px(blue))
        canvas.drawRadialGradient(g, startCenter: Point(x: 50, y: 2), startRadius: 0, endCenter: Point(x: 50, y: 2), endRadius: 3)
        #expect(canvas.bitmap[50, 2] == px(g.color(at: 0.5.squareRoot() / 3)) || near(canvas.bitmap[50, 2], px(g.color(at: 0.24)), 1))
        canvas.drawConicGradient(g, center: Point(x: 50, y: 2), angle: 0)
        #expect(canvas.bitmap[50, 7].a == 0)
    }

    @Test func gradientFillsAreAntiAliasedAndAlphaScaled() {
        let canvas = makeCanvas(20, 4)
        canvas.alpha = 0.5
        canvas.fill(
            Rect(x: 2.5, y: 0, width: 10, height: 4), with: .linearGradient(Gradient(colors: [red, red]), start: .zero, end: Point(x: 20, y: 0)))
        #expect(canvas.bitmap[2, 1] == Pixel(r: 64, g: 0, b: 0, a: 64))
        #expect(canvas.bitmap[5, 1] == Pixel(r: 128, g: 0, b: 0, a: 128))
        // Strokes take paints too.
        canvas.alpha = 1
        var line = Path()
        line.move(to: Point(x: 0, y: 3.5))
        line.addLine(to: Point(x: 20, y: 3.5))
        canvas.stroke(line, with: .linearGradient(Gradient(colors: [blue, blue]), start: .zero, end: Point(x: 20, y: 0)))
        #expect(canvas.bitmap[15, 3] == px(blue))
    }
}

/// The lookup table every gradient fill makes, stepped in fixed point,
/// against each entry worked out alone (`color(at:)`, premultiplied).
@Suite struct GradientTableTests {
    @Test func everyEntryMatchesTheColourAtItsPlace() {
        var random = SplitMix64(seed: 42)
        func unit() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        for n in 0..<300 {
            // One to five stops, in order, some at the ends, some coinciding.
            let count = 1 + Int(random.next() % 5)
            var places = (0..<count).map { _ in unit() }.sorted()
            if n % 3 == 0 { places[0] = 0 }
            if n % 5 == 0 { places[count - 1] = 1 }
            if n % 7 == 0, count > 2 { places[2] = places[1] }
            let stops = places.map { Gradient.Stop(color: Color(red: unit(), green: unit(), blue: unit(), alpha: unit()), location: $0) }
            let gradient = Gradient(stops: stops)
            let alpha = n % 4 == 0 ? 1 : unit()
            let table = gradient.lookupTable(alpha: alpha)
            #expect(table.count == 256)
            for i in 0..<256 {
                var c = gradient.color(at: Double(i) / 255)
                c.alpha *= alpha
                let want = c.premultipliedPixel, got = Pixel(packed: table[i])
                let off = [Int(want.r) - Int(got.r), Int(want.g) - Int(got.g), Int(want.b) - Int(got.b), Int(want.a) - Int(got.a)]
                #expect(off.allSatisfy { abs($0) <= 1 }, "gradient \(n), entry \(i): \(want) against \(got)")
            }
        }
        // Stops outside 0...1, and none.
        let outside = Gradient(stops: [.init(color: .white, location: -0.5), .init(color: .black, location: 1.5)])
        let table = outside.lookupTable(alpha: 1)
        for i in [0, 100, 255] {
            let want = outside.color(at: Double(i) / 255).premultipliedPixel, got = Pixel(packed: table[i])
            #expect(abs(Int(want.r) - Int(got.r)) <= 1 && want.a == got.a, "entry \(i): \(want) against \(got)")
        }
        #expect(Gradient(stops: []).lookupTable(alpha: 1) == [UInt32](repeating: 0, count: 256))
    }

    /// The ramp kernel (`strata_gradient_ramp_avx2`, eight entries a
    /// block) against its one-entry arithmetic, bit for bit, for every
    /// count up to 40 and near 256, ramps that leave 0 ... 255 both ways,
    /// and the entries past the count left as they were.
    @Test func theRampKernelIsItsArithmetic() {
        guard SolidBlitter.usesAVX2 else { return }
        var random = SplitMix64(seed: 43)
        func value(_ limit: Int) -> Int32 { Int32(Int(random.next() % UInt64(2 * limit)) - limit) }
        for count in Array(1...40) + [127, 128, 129, 241, 255, 256] {
            for trial in 0..<8 {
                // Ramps within 0 ... 255 and past it both ways; the last two
                // at the table kernel's limits (starts within ±2³⁰, steps
                // within ±2²², every sum within 32 bits).
                let wide = trial >= 6
                let start = (0..<4).map { _ in wide ? value(1 << 30 - 1) : value(1 << 24) + (255 << 15) }
                let step = (0..<4).map { _ in wide ? value(1 << 22 - 1) : value(1 << 18) }
                var out = [UInt32](repeating: 0xDEAD_BEEF, count: 260)
                start.withUnsafeBufferPointer { s in
                    step.withUnsafeBufferPointer { d in strata_gradient_ramp_avx2(&out, count, s.baseAddress!, d.baseAddress!) }
                }
                func level(_ c: Int, _ j: Int) -> UInt32 {
                    UInt32(min(max((start[c] &+ Int32(j) &* step[c]) >> 16, 0), 255))
                }
                func multiply(_ x: UInt32, _ a: UInt32) -> UInt32 {
                    let t = x * a + 128
                    return (t + (t >> 8)) >> 8
                }
                let want = (0..<260).map { j -> UInt32 in
                    guard j < count else { return 0xDEAD_BEEF }
                    let a = level(3, j)
                    return multiply(level(0, j), a) | multiply(level(1, j), a) << 8 | multiply(level(2, j), a) << 16 | a << 24
                }
                #expect(out == want, "count \(count), start \(start), step \(step)")
            }
        }
    }

    /// The whole table made at once in C (`strata_gradient_table_avx2`,
    /// what a canvas's table does with AVX2) is the plan's table byte for
    /// byte: stops apart by a ten-billionth or nothing, colours at their
    /// ends, one stop, none, and canvas alphas of 0, NaN and infinity (the
    /// kernel declines those its 32 bits cannot hold; the plan makes them).
    @Test func theTableKernelIsThePlan() {
        // What the kernel reads: a stop as five Doubles, colour then place.
        #expect(MemoryLayout<Gradient.Stop>.offset(of: \.location) == 32)
        let color = Color(red: 0.125, green: 0.25, blue: 0.5, alpha: 0.75)
        #expect(withUnsafeBytes(of: color) { Array($0.bindMemory(to: Double.self)) } == [0.125, 0.25, 0.5, 0.75])
        #expect(LookupTable.stopsAreDoubles && LookupTable.stopStride == 5)
        var random = SplitMix64(seed: 11)
        func unit() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        func end() -> Double { [0, 1, unit()][Int(random.next() % 3)] }
        var gradients: [Gradient] = [Gradient(stops: []), Gradient(colors: [.red]), Gradient(colors: [.white, .clear])]
        for n in 0..<120 {
            let count = 2 + Int(random.next() % 4)
            var places = (0..<count).map { _ in unit() }.sorted()
            if n % 3 == 0 { places[1] = places[0] + [1e-10, 1e-300, 0][n % 9 / 3] }
            places = places.map { min($0, 1) }.sorted()
            gradients.append(
                Gradient(stops: places.map { Gradient.Stop(color: Color(red: end(), green: end(), blue: end(), alpha: end()), location: $0) }))
        }
        var declined = 0
        for (n, gradient) in gradients.enumerated() {
            for alpha in [1, unit(), 0, .nan, .infinity] {
                let plan = gradient.lookupTable(alpha: alpha)
                guard SolidBlitter.usesAVX2 else { continue }
                var out = [UInt32](repeating: 0xDEAD_BEEF, count: 256)
                let made = gradient.stops.withUnsafeBytes { stops in
                    strata_gradient_table_avx2(
                        &out, stops.baseAddress?.assumingMemoryBound(to: Double.self), 5, gradient.stops.count, alpha)
                }
                if made == 0 {
                    declined += 1
                } else {
                    let wrong = (0..<256).first { out[$0] != plan[$0] }
                    #expect(wrong == nil, "gradient \(n), alpha \(alpha)")
                }
                // A canvas's table: the kernel's or, where it declines, the plan's.
                let table = LookupTable(gradient, alpha: alpha)
                table.ensureAll()
                let wrong = (0..<256).first { table.entries[$0] != plan[$0] }
                #expect(wrong == nil, "gradient \(n), alpha \(alpha)")
            }
        }
        // Infinite alphas and spans of 1e-300 decline; most tables do not.
        #expect(!SolidBlitter.usesAVX2 || (declined > 0 && declined < 2 * gradients.count))
    }

    /// A shader makes only the table entries its pixels reach, in any order:
    /// each the same bytes as the whole table made at once.
    @Test func entriesMadeOnDemandAreTheWholeTables() {
        var random = SplitMix64(seed: 7)
        func unit() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        for n in 0..<200 {
            let count = 1 + Int(random.next() % 5)
            var places = (0..<count).map { _ in unit() * 1.4 - 0.2 }.sorted()
            if n % 7 == 0, count > 2 { places[2] = places[1] }
            let gradient = Gradient(
                stops: places.map { Gradient.Stop(color: Color(red: unit(), green: unit(), blue: unit(), alpha: unit()), location: $0) })
            let alpha = n % 4 == 0 ? 1 : unit()
            let whole = gradient.lookupTable(alpha: alpha)
            let table = LookupTable(gradient, alpha: alpha)
            // Ranges below, above and across what is made.
            for _ in 0..<6 {
                let a = Int(random.next() % 256), b = Int(random.next() % 256)
                table.ensure(min(a, b), max(a, b))
                for i in min(a, b)...max(a, b) where table.entries[i] != whole[i] {
                    Issue.record("gradient \(n), entry \(i)")
                    return
                }
            }
        }
        // Drawn: a small and a large rectangle through the lazily made table
        // show the whole table's entries.
        let gradient = Gradient(colors: [.red, Color(red: 0, green: 1, blue: 0, alpha: 0.5), .blue], locations: [0, 0.3, 1])
        for size in [6.0, 200.0] {
            let canvas = try! Canvas(width: 220, height: 40)
            canvas.fill(
                Rect(x: 3.5, y: 2, width: size, height: 30),
                with: .linearGradient(gradient, start: Point(x: 3.5, y: 0), end: Point(x: 3.5 + size, y: 0)))
            let whole = gradient.lookupTable(alpha: 1)
            for x in 4..<Int(3 + size) {
                // The entry at the pixel's centre (or, where t falls within a
                // rounding of an entry's edge, its neighbour).
                let t = (Double(x) + 0.5 - 3.5) / size
                let k = Int(min(1, max(0, t)) * 255 + 0.5)
                let near = [k - 1, k, k + 1].filter { (0..<256).contains($0) }.map { Pixel(packed: whole[$0]) }
                #expect(near.contains(canvas.bitmap[x, 10]), "size \(size), x \(x)")
            }
        }
    }
}

/// The pixels of a gradient fill: each the table's entry for the pixel's
/// centre, through the coverage a solid fill of the same shape gives it.
@Suite struct GradientFillPixelTests {
    /// A polygon filled with a linear gradient (its rows swept at once,
    /// shaded and blended in one call each) is, pixel for pixel, the table's
    /// entry at the pixel (or a neighbour, where t falls on an entry's edge)
    /// through the polygon's coverage, over what was there.
    @Test(arguments: [FillRule.winding, .evenOdd])
    func polygonFillIsTheTableThroughTheCoverage(rule: FillRule) {
        var path = Path()
        path.move(to: Point(x: 3.3, y: 2.2))
        path.addLine(to: Point(x: 61.7, y: 9.1))
        path.addLine(to: Point(x: 12.4, y: 38.6))
        path.addLine(to: Point(x: 55.2, y: 30.3))
        path.addLine(to: Point(x: 30.5, y: 1.4))
        path.closeSubpath()
        checkShadedThroughCoverage(width: 64, start: Point(x: 5, y: 4), end: Point(x: 58, y: 33)) { canvas, paint in
            if let paint { canvas.fill(path, with: paint, rule: rule) } else { canvas.fill(path, rule: rule) }
        }
    }

    /// A stroke wider than the 256 sources a shader makes at a time, its
    /// rows two runs of coverage with nothing between: the same.
    @Test func wideStrokeIsTheTableThroughTheCoverage() {
        let path = Path(ellipseIn: Rect(x: 4.3, y: 3.6, width: 590.4, height: 32.2))
        checkShadedThroughCoverage(width: 600, start: Point(x: 10, y: 0), end: Point(x: 590, y: 40)) { canvas, paint in
            canvas.lineWidth = 2.5
            if let paint { canvas.stroke(path, with: paint) } else { canvas.stroke(path) }
        }
    }

    /// Rectangles filled with a linear gradient (many rows to a call, each
    /// row's first pixel, middle and last pixel blended at their own
    /// coverage): on whole pixels, with fractional edges, one and two
    /// pixels wide, and wider than the kernel's stretches of 256 pixels.
    @Test(arguments: [
        Rect(x: 5, y: 4, width: 50, height: 30), Rect(x: 3.3, y: 2.7, width: 40.4, height: 31.2),
        Rect(x: 10.2, y: 1.5, width: 0.6, height: 30), Rect(x: 20.5, y: 3.25, width: 1.5, height: 20.5),
        Rect(x: 4.3, y: 6.6, width: 590.4, height: 25.1), Rect(x: 0, y: 0, width: 300.5, height: 40),
    ])
    func rectangleFillIsTheTableThroughTheCoverage(rect: Rect) {
        // (Each covers at least its rows' 20 pixels.)
        checkShadedThroughCoverage(
            width: 600, start: Point(x: 10, y: 0), end: Point(x: 590, y: 40), covering: 20
        ) { canvas, paint in
            if let paint { canvas.fill(rect, with: paint) } else { canvas.fill(rect) }
        }
    }

    /// A rectangle filled with a radial or conic gradient (many rows to a
    /// call) is the same rectangle filled as a path (its rows swept with
    /// the same sources), to within the rounding of their coverage, with a
    /// translucent gradient over a background and under a scaling.
    @Test func curvedGradientRectanglesAreTheirPaths() {
        let gradient = Gradient(colors: [
            Color(red: 1, green: 0.2, blue: 0, alpha: 0.9), Color(red: 0, green: 0.5, blue: 1, alpha: 0.6),
            Color(red: 0.3, green: 0.9, blue: 0.2, alpha: 1),
        ])
        let paints: [Paint] = [
            .radialGradient(gradient, startCenter: Point(x: 60, y: 15), startRadius: 0, endCenter: Point(x: 70, y: 20), endRadius: 45),
            .conicGradient(gradient, center: Point(x: 150, y: 18), angle: 0.7),
        ]
        let rects = [
            Rect(x: 5, y: 4, width: 50, height: 30), Rect(x: 3.3, y: 2.7, width: 140.4, height: 31.2),
            Rect(x: 10.2, y: 1.5, width: 0.6, height: 30), Rect(x: 20.5, y: 3.25, width: 1.5, height: 20.5),
            Rect(x: 4.3, y: 6.6, width: 290.4, height: 25.1),
        ]
        for paint in paints {
            for rect in rects {
                for scale in [1.0, 1.5] {
                    func draw(_ fill: (Canvas) -> Void) -> Bitmap {
                        let canvas = makeCanvas(450, 60)
                        canvas.fillColor = Color(red: 0.2, green: 0.45, blue: 0.1, alpha: 0.8)
                        canvas.fill(Rect(x: 0, y: 0, width: 450, height: 60))
                        canvas.scaleBy(x: scale, y: scale)
                        fill(canvas)
                        return canvas.bitmap
                    }
                    let asRect = draw { $0.fill(rect, with: paint) }
                    let asPath = draw { $0.fill(Path(rect: rect), with: paint) }
                    var worst = 0, changed = 0
                    for y in 0..<60 {
                        for x in 0..<450 {
                            let a = asRect[x, y], b = asPath[x, y]
                            worst = max(
                                worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)),
                                abs(Int(a.a) - Int(b.a)))
                            if a != Pixel(r: 41, g: 92, b: 20, a: 204) { changed += 1 }
                        }
                    }
                    #expect(worst <= 2, "\(paint) \(rect) scale \(scale): \(worst) levels")
                    #expect(changed > Int(rect.width * rect.height * scale * scale / 2), "\(rect) scale \(scale)")
                }
            }
        }
    }

    /// Draws with `draw` in white (nil paint) on a clear canvas, for the
    /// coverage, and with a linear gradient over a background, and checks
    /// each pixel of the second against the table through the first (more
    /// than `covering` pixels covered).
    private func checkShadedThroughCoverage(
        width: Int, start: Point, end: Point, covering: Int = 600, _ draw: (Canvas, Paint?) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let gradient = Gradient(colors: [Color(red: 1, green: 0.2, blue: 0, alpha: 0.9), Color(red: 0, green: 0.5, blue: 1, alpha: 0.6)])
        let background = Pixel(r: 40, g: 90, b: 20, a: 200)
        let coverage = makeCanvas(width, 40)
        coverage.fillColor = .white
        coverage.strokeColor = .white
        draw(coverage, nil)
        let shaded = makeCanvas(width, 40)
        shaded.fillColor = Color(red: 40 / 200, green: 90 / 200, blue: 20 / 200, alpha: 200 / 255)
        shaded.fill(Rect(x: 0, y: 0, width: Double(width), height: 40))
        #expect(shaded.bitmap[0, 0] == background, sourceLocation: sourceLocation)
        draw(shaded, .linearGradient(gradient, start: start, end: end))

        let table = gradient.lookupTable(alpha: 1)
        let vx = end.x - start.x, vy = end.y - start.y, l2 = vx * vx + vy * vy
        var covered = 0, wrong = 0
        for y in 0..<40 {
            for x in 0..<width {
                let c = UInt32(coverage.bitmap[x, y].a)
                let got = shaded.bitmap[x, y]
                guard c > 0 else {
                    if got != background { wrong += 1 }
                    #expect(wrong > 3 || got == background, "(\(x), \(y)) outside the shape", sourceLocation: sourceLocation)
                    continue
                }
                covered += 1
                let t = ((Double(x) + 0.5 - start.x) * vx + (Double(y) + 0.5 - start.y) * vy) / l2
                let k = Int(min(1, max(0, t)) * 255 + 0.5)
                let expected = [k - 1, k, k + 1].filter { (0..<256).contains($0) }.map { entry -> Pixel in
                    let s = c == 255 ? table[entry] : scalePacked(table[entry], c)
                    return Pixel(packed: s &+ scalePacked(background.packed, 255 - (s >> 24)))
                }
                if !expected.contains(got) { wrong += 1 }
                #expect(
                    wrong > 3 || expected.contains(got), "(\(x), \(y)) coverage \(c): \(got), not one of \(expected)",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(wrong == 0 && covered > covering, "\(wrong) pixels wrong, \(covered) covered", sourceLocation: sourceLocation)
    }

    /// A canvas keeps one gradient table and sets it up again for the next
    /// gradient: the second gradient drawn shows its own colours, as on a
    /// fresh canvas, even where the first made every entry.
    @Test func theNextGradientDoesNotSeeTheLastOnesTable() {
        let first = Gradient(colors: [.white, .black])
        let second = Gradient(stops: [.init(color: .clear, location: 0), .init(color: Color(red: 0.2, green: 0.9, blue: 0.3), location: 1)])
        let paint = Paint.linearGradient(second, start: Point(x: 0, y: 0), end: Point(x: 50, y: 0))
        let reused = makeCanvas(50, 24)
        reused.fill(Rect(x: 0, y: 0, width: 50, height: 4), with: .linearGradient(first, start: .zero, end: Point(x: 50, y: 0)))
        reused.fill(Rect(x: 0, y: 4, width: 50, height: 4), with: paint)
        let fresh = makeCanvas(50, 8)
        fresh.fill(Rect(x: 0, y: 4, width: 50, height: 4), with: paint)
        for x in 0..<50 { #expect(reused.bitmap[x, 5] == fresh.bitmap[x, 5], "x \(x)") }
        // A gradient drawn inside another's drawing (a pattern of a
        // gradient, shadows) gets a table of its own; afterwards the spare
        // one is still set up afresh for each.
        reused.setShadow(offset: Size(width: 1, height: 1), blur: 2, color: .black)
        reused.fill(Rect(x: 10, y: 16, width: 20, height: 4), with: paint)
        reused.setShadow(offset: .zero, blur: 0, color: nil)
        reused.fill(Rect(x: 0, y: 4, width: 50, height: 4), with: paint)
        let again = makeCanvas(50, 8)
        again.fill(Rect(x: 0, y: 4, width: 50, height: 4), with: paint)
        again.fill(Rect(x: 0, y: 4, width: 50, height: 4), with: paint)
        for x in 0..<50 { #expect(reused.bitmap[x, 6] == again.bitmap[x, 6], "x \(x)") }
    }

    /// A segment a few ulps long between two stops, with an entry in it,
    /// has steps past any integer: it is drawn (its entry the colour there,
    /// the entries after it the end's), where making its table trapped.
    @Test func aSegmentOfAFewUlpsDoesNotTrap() {
        let edge = 77.0 / 255
        let gradient = Gradient(stops: [
            .init(color: .black, location: 0), .init(color: .white, location: edge.nextDown.nextDown),
            .init(color: Color(red: 1, green: 0, blue: 0), location: edge), .init(color: .blue, location: 1),
        ])
        let table = gradient.lookupTable(alpha: 1)
        #expect(table.count == 256)
        #expect(Pixel(packed: table[77]) == Color(red: 1, green: 0, blue: 0).premultipliedPixel)
        let canvas = makeCanvas(256, 1)
        canvas.fill(Rect(x: 0, y: 0, width: 256, height: 1), with: .linearGradient(gradient, start: Point(x: 0.5, y: 0), end: Point(x: 255.5, y: 0)))
        #expect(canvas.bitmap[255, 0] == Color.blue.premultipliedPixel)
    }
}

/// The radial kernel (four pixels a step) against the shader's own
/// formula (`radialT`, then the padded table entry) at every pixel, for
/// focal and concentric gradients, circles that grow as fast as their
/// centres move (one root), and points no circle passes through; where
/// the focal point lies inside the end circle, against the polynomials'
/// entry (`radialFocalEntry`), and within an entry of the formula's.
@Test func radialKernelIsTheFormula() {
    let gradient = Gradient(colors: [.red, Color(red: 0, green: 1, blue: 0, alpha: 0.4), .blue])
    let table = gradient.lookupTable(alpha: 1)
    let cases: [(Point, Double, Point, Double)] = [
        (Point(x: 20, y: 15), 0, Point(x: 30, y: 20), 25), (Point(x: 30, y: 20), 5, Point(x: 30, y: 20), 25),
        (Point(x: 10, y: 20), 5, Point(x: 40, y: 20), 35), (Point(x: 5, y: 5), 10, Point(x: 50, y: 30), 4),
        (Point(x: 30, y: 20), 12, Point(x: 31, y: 20), 2),
    ]
    for (c0, r0, c1, r1) in cases {
        let canvas = makeCanvas(61, 41)
        canvas.fill(
            Rect(x: 0, y: 0, width: 61, height: 41),
            with: .radialGradient(gradient, startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1))
        let cdx = c1.x - c0.x, cdy = c1.y - c0.y, dr = r1 - r0, qa = cdx * cdx + cdy * cdy - dr * dr
        let inverseQa = 1 / qa, sign: Double = qa < 0 ? -1 : 1
        var wrong = 0, focalRows = 0
        let g = UnsafeMutablePointer<Double>.allocate(capacity: 24)
        defer { g.deallocate() }
        for y in 0..<41 {
            GradientShader.radialParameters(0, y, 61, .identity, c0, r0, c1, r1, g)
            if g[12] != 0 { focalRows += 1 }
            for x in 0..<61 {
                // Each row is one span from x = 0.
                let pdx = (0.5 - c0.x) + Double(x), pdy = Double(y) + 0.5 - c0.y
                let qb = pdx * cdx + pdy * cdy + r0 * dr, qc = pdx * pdx + pdy * pdy - r0 * r0
                let t = GradientShader.radialT(qa, inverseQa, sign, qb, qc, r0, dr)
                var expected = t.isNaN ? Pixel(r: 0, g: 0, b: 0, a: 0) : Pixel(packed: table[Int(min(1, max(0, t)) * 255 + 0.5)])
                if g[12] != 0 {
                    let entry = GradientShader.radialFocalEntry(g, x)
                    #expect(t.isNaN || abs(entry - Int(min(1, max(0, t)) * 255 + 0.5)) <= 1)
                    expected = Pixel(packed: table[entry])
                }
                if canvas.bitmap[x, y] != expected { wrong += 1 }
                #expect(wrong > 3 || canvas.bitmap[x, y] == expected, "\(c0) \(r0) \(c1) \(r1) at (\(x), \(y))")
            }
        }
        #expect(wrong == 0)
        // The focal point inside: every row takes the polynomials.
        #expect(focalRows == (r0 == 0 && qa < 0 ? 41 : 0), "\(c0) \(r0) \(c1) \(r1)")
    }
}

/// `conicTurn` against `atan2` (in turns, wrapped into 0 ..< 1) on a spread
/// of points at every angle and many scales, within 3.5·10⁻⁷ of a turn, and
/// its defined values at the centre and at infinity.
@Test func conicTurnIsTheAngle() {
    var worst = 0.0
    for scale in [1e-6, 0.01, 0.5, 1, 7.25, 300, 1e5] {
        for k in 0..<4000 {
            let a = Double(k) / 4000 * 2 * Double.pi + 1e-4
            for (dx, dy) in [(cos(a), sin(a)), (cos(a), 0.37 * sin(a))] {
                let x = Float(dx * scale), y = Float(dy * scale)
                var exact = atan2(Double(y), Double(x)) / (2 * Double.pi)
                exact -= exact.rounded(.down)
                let turn = Double(GradientShader.conicTurn(x, y))
                var d = abs(turn - exact)
                d = min(d, 1 - d)  // 0 and 1 are the same turn
                worst = max(worst, d)
            }
        }
    }
    #expect(worst <= 3.5e-7, "worst \(worst)")
    // The axes and diagonals exactly.
    #expect(GradientShader.conicTurn(1, 0) == 0)
    #expect(GradientShader.conicTurn(0, 2) == 0.25)
    #expect(GradientShader.conicTurn(-3, 0) == 0.5)
    #expect(GradientShader.conicTurn(0, -4) == 0.75)
    #expect(abs(GradientShader.conicTurn(5, 5) - 0.125) < 3e-7)
    #expect(abs(GradientShader.conicTurn(-5, -5) - 0.625) < 3e-7)
    // The centre is 0; one infinite coordinate is its axis; both infinite
    // is NaN (drawn as nothing).
    #expect(GradientShader.conicTurn(0, 0) == 0)
    #expect(GradientShader.conicTurn(.infinity, 3) == 0)
    #expect(GradientShader.conicTurn(3, -.infinity) == 0.75)
    #expect(GradientShader.conicTurn(.infinity, .infinity).isNaN)
}

/// A conic gradient's pixels are `conicTurn`'s table entries (eight pixels
/// a step in the kernel where the processor has AVX2, the Swift loop
/// elsewhere: the same operations), under a rotated and scaled transform
/// and at several starting angles, each row one span from its first pixel.
/// Far from the centre (a span reaching past 2²⁰ from it) the angle is
/// atan2's in Double.
@Test func conicKernelIsTheFormula() {
    let gradient = Gradient(colors: [.red, Color(red: 0, green: 1, blue: 0, alpha: 0.4), .blue, .red])
    let table = gradient.lookupTable(alpha: 1)
    let transforms = [
        Transform.identity, Transform(rotationAngle: 0.3).scaledBy(x: 1.5, y: 0.75),
        Transform(translationX: 7.25, y: -3).rotated(by: -2.1),
    ]
    for transform in transforms {
        for (center, angle) in [(Point(x: 30.3, y: 20.6), 0.0), (Point(x: 0, y: 0), 1.2), (Point(x: 44, y: 9.5), -4.5)] {
            let canvas = makeCanvas(61, 41)
            canvas.concatenate(transform)
            let inverse = canvas.transform.inverted()!
            canvas.fill(
                Rect(x: -1000, y: -1000, width: 2000, height: 2000),
                with: .conicGradient(gradient, center: center, angle: angle))
            var offset = angle / (2 * Double.pi)
            offset -= offset.rounded(.down)
            var wrong = 0
            for y in 0..<41 {
                let p0 = Point(x: 0.5, y: Double(y) + 0.5).applying(inverse)
                let d0x = Float(p0.x - center.x), d0y = Float(p0.y - center.y)
                for x in 0..<61 {
                    let f = Float(x)
                    var t = GradientShader.conicTurn(d0x + f * Float(inverse.a), d0y + f * Float(inverse.b)) - Float(offset)
                    t -= t.rounded(.down)
                    let expected = Pixel(packed: table[Int(t * 255 + 0.5)])
                    if canvas.bitmap[x, y] != expected { wrong += 1 }
                    #expect(wrong > 3 || canvas.bitmap[x, y] == expected, "\(transform) \(center) \(angle) at (\(x), \(y))")
                }
            }
            #expect(wrong == 0)
        }
    }
    // Far away: atan2 in Double.
    let far = makeCanvas(8, 1)
    let center = Point(x: 3e6, y: 0.5)
    far.fill(Rect(x: 0, y: 0, width: 8, height: 1), with: .conicGradient(gradient, center: center, angle: 0))
    for x in 0..<8 {
        var a = atan2(0.5 - center.y, Double(x) + 0.5 - center.x) / (2 * Double.pi)
        a -= a.rounded(.down)
        #expect(far.bitmap[x, 0] == Pixel(packed: table[Int(a * 255 + 0.5)]))
    }
    // A NaN angle is 0 (`Canvas`'s rule for a conic paint).
    let nan = makeCanvas(8, 8), zero = makeCanvas(8, 8)
    nan.fill(Rect(x: 0, y: 0, width: 8, height: 8), with: .conicGradient(gradient, center: Point(x: 4, y: 4), angle: .nan))
    zero.fill(Rect(x: 0, y: 0, width: 8, height: 8), with: .conicGradient(gradient, center: Point(x: 4, y: 4), angle: 0))
    #expect(nan.bitmap.makeImage() == zero.bitmap.makeImage())
}

/// The AVX-512 radial kernel (eight pixels a step) gives the AVX2 kernel's
/// entries on spans of every length from 1 to 300, for focal, concentric
/// and one-root geometry, with and without the one-root test, under
/// rotated steps (where the processor has AVX-512; else there is one).
@Test func radialKernelsAgree() {
    guard SolidBlitter.kernelLevel == 2 else { return }
    // Entry i is i + 1, so every index shows; the 257th is 0.
    let table = (0..<256).map { UInt32($0 + 1) } + [0]
    var rng = SystemRandomNumberGenerator()
    let shapes: [(Double, Double, Double, Double)] = [(10, 5, 0, 40), (0, 0, 5, 30), (20, 0, 2, 22), (3, -4, 12, 2)]
    var compared = 0, shortLoops = 0, singleLoops = 0, differing = 0
    for (cdx, cdy, r0, r1) in shapes {
        for count in 1...300 {
            let dr = r1 - r0, qa = cdx * cdx + cdy * cdy - dr * dr
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
            var g = [
                Double.random(in: -60...60, using: &rng), Double.random(in: -60...60, using: &rng), cos(angle) * 0.7, sin(angle) * 0.7,
                cdx, cdy, r0, dr, qa, 1 / qa, qa < 0 ? -1 : 1, Double(count % 2), 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0,
            ]
            if count % 7 == 0 { g[11] = 1 }
            var a = [UInt32](repeating: 9, count: count), b = [UInt32](repeating: 7, count: count)
            GradientShader.radialSpan(table, g, count, &a, level: 1)
            GradientShader.radialSpan(table, g, count, &b, level: 2)
            #expect(a == b, "\(cdx) \(cdy) \(r0) \(r1) count \(count)")
            compared += count
            // A focal point inside the end circle: the kernels' polynomial
            // loop, the same entries at both widths and in Swift
            // (`radialFocalEntry`), and within an entry of the general loop.
            if r0 == 0, qa < 0 {
                g[11] = 0
                var general = [UInt32](repeating: 5, count: count)
                GradientShader.radialSpan(table, g, count, &general, level: 1)
                let (pdx, pdy, sx, sy) = (g[0], g[1], g[2], g[3])
                let qb0 = pdx * cdx + pdy * cdy, dqb = sx * cdx + sy * cdy
                g[12] = 1
                (g[13], g[14]) = (qb0, dqb)
                g[15] = qb0 * qb0 - qa * (pdx * pdx + pdy * pdy)
                g[16] = 2 * (qb0 * dqb - qa * (pdx * sx + pdy * sy))
                g[17] = dqb * dqb - qa * (sx * sx + sy * sy)
                /// Swift's entries (`radialFocalEntry`), which both kernels' must be.
                func kernelsAgree(_ what: String) -> [UInt32] {
                    let swift = g.withUnsafeBufferPointer { p in
                        (0..<count).map { table[GradientShader.radialFocalEntry(p.baseAddress!, $0)] }
                    }
                    for level in [1, 2] {
                        var short = [UInt32](repeating: 3, count: count)
                        GradientShader.radialSpan(table, g, count, &short, level: level)
                        #expect(short == swift, "\(cdx) \(cdy) \(r1) count \(count) level \(level)\(what)")
                    }
                    return swift
                }
                let double = kernelsAgree("")
                let apartInDouble = zip(double, general).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(apartInDouble <= 1, "\(cdx) \(cdy) \(r1) count \(count)")
                shortLoops += 1
                // In single precision, where the span allows it: the same
                // entries at both widths and in Swift, within an entry of
                // the general loop, and mostly its very entries.
                GradientShader.radialSingle(&g, Double(count))
                if g[18] == 1 {
                    let single = kernelsAgree(", single")
                    let apart = zip(single, general).map { abs(Int($0) - Int($1)) }
                    #expect(apart.allSatisfy { $0 <= 1 }, "\(cdx) \(cdy) \(r1) count \(count), single")
                    differing += apart.filter { $0 != 0 }.count
                    singleLoops += 1
                }
            }
        }
    }
    #expect(compared == 4 * 300 * 301 / 2)
    #expect(shortLoops == 300)
    // Most spans go in single precision, and it moves few pixels to the
    // next entry: fewer than one in a hundred.
    #expect(singleLoops > 200, "\(singleLoops) spans in single precision")
    #expect(differing * 100 < 300 * 301 / 2, "\(differing) pixels on another entry")
}

/// The AVX-512 kernels take sixteen pixels' entries from the 32 or 64
/// entries of the table they fall within, by permutations, where they do
/// (`window16` in CPixels): wide, gentle radial and conic gradients, whose
/// pixels lie an entry or a few apart, so that windows of both sizes are
/// taken and missed, near both ends of the table (the windows' starts held
/// back from its end), give the AVX2 kernels' entries, which load each one
/// by one, and for the radial ones Swift's (`radialFocalEntry`).
@Test func windowedLookupsAreLoadedLookups() {
    guard SolidBlitter.kernelLevel == 2 else { return }
    // Entry i is i + 1, so every index shows; the 257th is 0.
    let table = (0..<256).map { UInt32($0 + 1) } + [0]
    var rng = SystemRandomNumberGenerator()
    var radialSpans = 0, conicSpans = 0
    for r1 in [45.0, 150, 400, 1500] {
        for count in stride(from: 16, through: 300, by: 7) {
            let (cdx, cdy, r0) = (r1 / 5, -r1 / 7, 0.0)
            let dr = r1 - r0, qa = cdx * cdx + cdy * cdy - dr * dr
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng), step = [0.3, 1, 2.5][count % 3]
            let (pdx, pdy) = (Double.random(in: -1.3...1.3, using: &rng) * r1, Double.random(in: -1.3...1.3, using: &rng) * r1)
            let (sx, sy) = (cos(angle) * step, sin(angle) * step)
            var g = [Double](repeating: 0, count: 24)
            (g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]) = (pdx, pdy, sx, sy, cdx, cdy, r0, dr)
            (g[8], g[9], g[10], g[11], g[12]) = (qa, 1 / qa, qa < 0 ? -1 : 1, 0, 1)
            let qb0 = pdx * cdx + pdy * cdy, dqb = sx * cdx + sy * cdy
            (g[13], g[14]) = (qb0, dqb)
            g[15] = qb0 * qb0 - qa * (pdx * pdx + pdy * pdy)
            g[16] = 2 * (qb0 * dqb - qa * (pdx * sx + pdy * sy))
            g[17] = dqb * dqb - qa * (sx * sx + sy * sy)
            for single in [false, true] {
                if single {
                    GradientShader.radialSingle(&g, Double(count))
                    if g[18] != 1 { continue }
                }
                let swift = g.withUnsafeBufferPointer { p in
                    (0..<count).map { table[GradientShader.radialFocalEntry(p.baseAddress!, $0)] }
                }
                var a = [UInt32](repeating: 9, count: count), b = [UInt32](repeating: 7, count: count)
                GradientShader.radialSpan(table, g, count, &a, level: 1)
                GradientShader.radialSpan(table, g, count, &b, level: 2)
                #expect(a == swift && b == swift, "radius \(r1) count \(count) step \(step) single \(single)")
                radialSpans += 1
            }
            // A conic gradient's span as far from its centre as the radius.
            let turn = Float.random(in: 0..<(2 * .pi), using: &rng)
            let c: [Float] = [Float(pdx), Float(pdy), Float(sx) * cos(turn), Float(sx) * sin(turn), Float.random(in: 0..<1, using: &rng)]
            var ca = [UInt32](repeating: 9, count: count), cb = [UInt32](repeating: 7, count: count)
            GradientShader.conicSpan(table, c, count, &ca, level: 1)
            GradientShader.conicSpan(table, c, count, &cb, level: 2)
            #expect(ca == cb, "conic \(c) count \(count)")
            conicSpans += 1
        }
    }
    #expect(conicSpans == 4 * 41 && radialSpans > 4 * 41)
}

/// The radial kernels' parameters ask for the polynomial loop exactly
/// where the focal point lies inside the end circle (and the circles are
/// within reach), and a gradient drawn with it gives the pixels of its
/// Swift operations (`radialFocalEntry`), each within an entry of the
/// general formula's (`radialT`).
@Test func focalInsideRadialIsTheFormula() {
    let inside = UnsafeMutablePointer<Double>.allocate(capacity: 24)
    defer { inside.deallocate() }
    func short(_ c0: Point, _ r0: Double, _ c1: Point, _ r1: Double) -> Double {
        GradientShader.radialParameters(3, 4, 20, .identity, c0, r0, c1, r1, inside)
        return inside[12]
    }
    #expect(short(Point(x: 10, y: 10), 0, Point(x: 14, y: 12), 20) == 1)
    #expect(short(Point(x: 14, y: 12), 0, Point(x: 14, y: 12), 20) == 1)  // concentric
    #expect(short(Point(x: 10, y: 10), 2, Point(x: 14, y: 12), 20) == 0)  // a focal circle
    #expect(short(Point(x: 10, y: 10), 0, Point(x: 40, y: 12), 20) == 0)  // focal point outside
    #expect(short(Point(x: 10, y: 10), 0, Point(x: 30, y: 10), 20) == 0)  // on the circle: one root
    #expect(short(Point(x: 10, y: 10), 20, Point(x: 14, y: 12), 0) == 0)  // shrinking
    #expect(short(Point(x: 1e60, y: 10), 0, Point(x: 1e60, y: 12), 20) == 0)  // out of reach
    #expect(short(Point(x: 10, y: 10), 0, Point(x: 10, y: 10), 1e-3) == 0)  // a span of 2·10⁴ radii
    #expect(short(Point(x: 10, y: 10), 0, Point(x: 29.9, y: 10), 20) == 1)  // near the circle
    // Drawn: each pixel the table entry of radialT at its centre.
    let gradient = Gradient(colors: [.red, Color(red: 0, green: 1, blue: 0, alpha: 0.4), .blue])
    let table = gradient.lookupTable(alpha: 1)
    let (c0, c1, r1) = (Point(x: 21.3, y: 17.8), Point(x: 30.5, y: 25.25), 26.0)
    let canvas = makeCanvas(61, 47)
    canvas.fill(
        Rect(x: 0, y: 0, width: 61, height: 47),
        with: .radialGradient(gradient, startCenter: c0, startRadius: 0, endCenter: c1, endRadius: r1))
    let cdx = c1.x - c0.x, cdy = c1.y - c0.y
    let qa = cdx * cdx + cdy * cdy - r1 * r1
    var wrong = 0, apart = 0
    for y in 0..<47 {
        GradientShader.radialParameters(0, y, 61, .identity, c0, 0, c1, r1, inside)
        #expect(inside[12] == 1)
        for x in 0..<61 {
            let expected = Pixel(packed: table[GradientShader.radialFocalEntry(inside, x)])
            if canvas.bitmap[x, y] != expected { wrong += 1 }
            // (Each row's offsets from its first pixel's, as the shader steps.)
            let pdx = (0.5 - c0.x) + Double(x), pdy = (Double(y) + 0.5 - c0.y) + Double(x) * 0
            let (qb, qc) = GradientShader.radialCoefficients(pdx, pdy, cdx, cdy, 0, r1)
            let t = GradientShader.radialT(qa, 1 / qa, qa < 0 ? -1 : 1, qb, qc, 0, r1)
            let formula = Int(min(max(t, 0), 1) * 255 + 0.5)
            apart = max(apart, abs(formula - GradientShader.radialFocalEntry(inside, x)))
        }
    }
    #expect(wrong == 0)
    #expect(apart <= 1)
}

/// The AVX-512 conic kernel (sixteen pixels a step) gives the AVX2
/// kernel's entries on spans of every length from 1 to 300, through the
/// centre and beside it, at several starting turns (where the processor
/// has AVX-512).
@Test func conicKernelsAgree() {
    guard SolidBlitter.kernelLevel == 2 else { return }
    let table = (0..<256).map { UInt32($0 + 1) } + [0]
    var rng = SystemRandomNumberGenerator()
    for count in 1...300 {
        let angle = Float.random(in: 0..<(2 * .pi), using: &rng)
        let g: [Float] = [
            Float.random(in: -150...10, using: &rng), Float.random(in: -5...5, using: &rng), cos(angle), sin(angle),
            Float.random(in: 0..<1, using: &rng),
        ]
        var a = [UInt32](repeating: 9, count: count), b = [UInt32](repeating: 7, count: count)
        GradientShader.conicSpan(table, g, count, &a, level: 1)
        GradientShader.conicSpan(table, g, count, &b, level: 2)
        #expect(a == b, "count \(count) \(g)")
    }
}
