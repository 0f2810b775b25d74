import Foundation
import Testing

@testable import StrataGraphics

/// Image sampling checked against the filters' formulas, computed here in
/// Double at sample points that are fractional in both axes, so every one of
/// the four (or sixteen) weights takes part.
@Suite struct ImageSamplingTests {
    /// A 4 × 3 image of unrelated premultiplied colours, some translucent.
    static let picture: Image = {
        var bytes: [UInt8] = []
        for y in 0..<3 {
            for x in 0..<4 {
                let a = [255, 200, 90, 255][(x + 2 * y) % 4]
                func c(_ k: Int) -> UInt8 { UInt8((k * 97 + x * 61 + y * 151) % (a + 1)) }
                bytes += [c(1), c(2), c(3), UInt8(a)]
            }
        }
        return try! Image(width: 4, height: 3, premultipliedPixels: bytes)
    }()

    /// The image's premultiplied channels at (x, y), its edges padded.
    static func channels(_ image: Image, _ x: Int, _ y: Int) -> SIMD4<Double> {
        let p = image[min(image.width - 1, max(0, x)), min(image.height - 1, max(0, y))]
        return SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a))
    }

    /// The bilinear formula at image coordinates (u, v) (pixel centres at
    /// half-integers): p00·(1−fx)(1−fy) + p10·fx(1−fy) + p01·(1−fx)fy + p11·fx·fy.
    static func bilinear(_ image: Image, _ u: Double, _ v: Double) -> SIMD4<Double> {
        let fu = u - 0.5, fv = v - 0.5
        let x0 = Int(fu.rounded(.down)), y0 = Int(fv.rounded(.down))
        let fx = fu - Double(x0), fy = fv - Double(y0)
        return channels(image, x0, y0) * ((1 - fx) * (1 - fy)) + channels(image, x0 + 1, y0) * (fx * (1 - fy))
            + channels(image, x0, y0 + 1) * ((1 - fx) * fy) + channels(image, x0 + 1, y0 + 1) * (fx * fy)
    }

    /// Mitchell–Netravali, B = C = 1/3, from its published piecewise form.
    static func mitchell(_ x: Double) -> Double {
        let b = 1.0 / 3, c = 1.0 / 3, d = abs(x)
        if d < 1 { return ((12 - 9 * b - 6 * c) * d * d * d + (-18 + 12 * b + 6 * c) * d * d + (6 - 2 * b)) / 6 }
        if d < 2 { return ((-b - 6 * c) * d * d * d + (6 * b + 30 * c) * d * d + (-12 * b - 48 * c) * d + (8 * b + 24 * c)) / 6 }
        return 0
    }

    static func bicubic(_ image: Image, _ u: Double, _ v: Double) -> SIMD4<Double> {
        let fu = u - 0.5, fv = v - 0.5
        let x0 = Int(fu.rounded(.down)), y0 = Int(fv.rounded(.down))
        var sum = SIMD4<Double>()
        for j in -1...2 {
            for i in -1...2 {
                let w = mitchell(fu - Double(x0 + i)) * mitchell(fv - Double(y0 + j))
                sum += channels(image, x0 + i, y0 + j) * w
            }
        }
        // Clamped to a valid premultiplied pixel.
        let a = min(255, max(0, sum[3]))
        return SIMD4(min(a, max(0, sum[0])), min(a, max(0, sum[1])), min(a, max(0, sum[2])), a)
    }

    /// Draws `picture` with `quality` into a 24 × 20 canvas under `transform`,
    /// into `rect`, and compares every pixel wholly inside the drawn rectangle
    /// with `formula` at that pixel centre's image coordinates. Returns the
    /// largest difference in levels and how many pixels were compared.
    func compare(
        quality: InterpolationQuality, transform: Transform, rect: Rect,
        _ formula: (Image, Double, Double) -> SIMD4<Double>
    ) -> (worst: Double, count: Int) {
        let image = ImageSamplingTests.picture
        let canvas = makeCanvas(24, 20)
        canvas.interpolationQuality = quality
        canvas.concatenate(transform)
        canvas.draw(image, in: rect)
        let imageToDevice = Transform(
            a: rect.width / Double(image.width), b: 0, c: 0, d: rect.height / Double(image.height),
            tx: rect.minX, ty: rect.minY
        ).concatenating(transform)
        let inverse = imageToDevice.inverted()!
        var worst = 0.0, count = 0
        for y in 0..<20 {
            for x in 0..<24 {
                // Only pixels whose whole square lies inside the image.
                let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map {
                    Point(x: Double(x) + $0.0, y: Double(y) + $0.1).applying(inverse)
                }
                guard corners.allSatisfy({ $0.x >= 0 && $0.y >= 0 && $0.x <= Double(image.width) && $0.y <= Double(image.height) })
                else { continue }
                let c = Point(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
                let expected = formula(image, c.x, c.y)
                let p = canvas.bitmap[x, y]
                let got = SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a))
                worst = max(worst, (got - expected).replacing(with: expected - got, where: got .< expected).max())
                count += 1
            }
        }
        return (worst, count)
    }

    /// Rotated and sheared, moved into the canvas.
    static let turned = Transform(translationX: 12, y: 1).concatenating(Transform(a: 0.9, b: 0.35, c: -0.3, d: 0.95, tx: 0, ty: 0))

    @Test func bilinearMatchesTheFormulaWhenScaled() {
        // Scaled and moved only: the axis-aligned loop.
        let r = compare(
            quality: .default, transform: .identity, rect: Rect(x: 0.3, y: 0.7, width: 21.9, height: 17.6),
            ImageSamplingTests.bilinear)
        #expect(r.count > 300)
        #expect(r.worst <= 1.5, "largest difference \(r.worst)")
    }

    @Test func bilinearMatchesTheFormulaWhenRotated() {
        // Rotated and sheared: the general loop.
        let r = compare(
            quality: .medium, transform: ImageSamplingTests.turned, rect: Rect(x: 0.2, y: 0.1, width: 15.3, height: 13.7),
            ImageSamplingTests.bilinear)
        #expect(r.count > 100)
        #expect(r.worst <= 1.5, "largest difference \(r.worst)")
    }

    @Test func bicubicMatchesTheFormula() {
        let scaled = compare(
            quality: .high, transform: .identity, rect: Rect(x: 0.3, y: 0.7, width: 21.9, height: 17.6),
            ImageSamplingTests.bicubic)
        #expect(scaled.count > 300)
        #expect(scaled.worst <= 1, "largest difference \(scaled.worst)")
        let rotated = compare(
            quality: .high, transform: ImageSamplingTests.turned, rect: Rect(x: 0.2, y: 0.1, width: 15.3, height: 13.7),
            ImageSamplingTests.bicubic)
        #expect(rotated.count > 100)
        #expect(rotated.worst <= 1, "largest difference \(rotated.worst)")
    }

    @Test func mixIsTheBilinearFormulaInFixedPoint() {
        // Every weight pair on a grid, corners of unrelated colours.
        let p00 = Pixel(r: 10, g: 200, b: 30, a: 255).packed, p10 = Pixel(r: 250, g: 0, b: 90, a: 255).packed
        let p01 = Pixel(r: 0, g: 40, b: 0, a: 64).packed, p11 = Pixel(r: 128, g: 100, b: 200, a: 200).packed
        for wx in Swift.stride(from: 0, through: 256, by: 16) {
            for wy in Swift.stride(from: 0, through: 256, by: 16) {
                let fx = Double(wx) / 256, fy = Double(wy) / 256
                let got = Pixel(packed: ImageShader.mix(p00, p10, p01, p11, UInt32(wx), UInt32(wy)))
                let corners = [p00, p10, p01, p11].map { Pixel(packed: $0) }
                let weights = [(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy]
                func exact(_ k: KeyPath<Pixel, UInt8>) -> Double {
                    zip(corners, weights).reduce(0) { $0 + Double($1.0[keyPath: k]) * $1.1 }
                }
                for (k, name) in [(\Pixel.r, "r"), (\Pixel.g, "g"), (\Pixel.b, "b"), (\Pixel.a, "a")] {
                    #expect(abs(Double(got[keyPath: k]) - exact(k)) <= 1, "\(name) at wx \(wx), wy \(wy)")
                }
            }
        }
    }

    @Test func mitchellWeightsSumToOne() {
        for i in 0..<32 {
            let t = Float(i) / 32
            let w = ImageShader.cubicWeights(t)
            #expect(abs(w.sum() - 1) < 1e-5)
            for (k, d) in [1 + t, t, 1 - t, 2 - t].enumerated() {
                #expect(abs(Double(w[k]) - ImageSamplingTests.mitchell(Double(d))) < 1e-5)
            }
        }
    }

    /// A 2 × 2 checkerboard enlarged 32 times: bilinear makes a smooth saddle,
    /// with no step between neighbouring pixels larger than the slope allows,
    /// grey in the middle, and the pure colours at the pixel centres.
    @Test func scaledUpCheckerboardIsSmooth() {
        let black = Pixel(r: 0, g: 0, b: 0, a: 255), white = Pixel(r: 255, g: 255, b: 255, a: 255)
        let checks = try! Image(width: 2, height: 2, premultipliedPixels: [black, white, white, black].flatMap { [$0.r, $0.g, $0.b, $0.a] })
        for quality in [InterpolationQuality.default, .high] {
            let canvas = makeCanvas(64, 64)
            canvas.interpolationQuality = quality
            canvas.draw(checks, in: Rect(x: 0, y: 0, width: 64, height: 64))
            let b = canvas.bitmap
            var steepest = 0
            for y in 0..<63 {
                for x in 0..<63 {
                    steepest = max(steepest, abs(Int(b[x, y].r) - Int(b[x + 1, y].r)), abs(Int(b[x, y].r) - Int(b[x, y + 1].r)))
                }
            }
            // Bilinear changes by at most 255/32 a pixel along an axis; the cubic is
            // steeper in the middle (up to 1.5 times), never a jump.
            #expect(steepest <= (quality == .high ? 14 : 9), "\(quality): step of \(steepest)")
            #expect(abs(Int(b[32, 32].r) - 128) <= 8, "\(quality): middle \(b[32, 32])")
            #expect(abs(Int(b[31, 32].r) - Int(b[32, 31].r)) <= 1)
            // Near the pixel centres, the pure colours (the cubic's side taps soften them a little).
            let near = quality == .high ? 40 : 12
            #expect(Int(b[16, 16].r) <= near && Int(b[48, 16].r) >= 255 - near, "\(quality): centres \(b[16, 16]) \(b[48, 16])")
        }
    }

    @Test func bicubicIsSharperThanBilinearAndStaysValid() {
        // A hard edge from opaque red to transparent, enlarged 8 times.
        let red = Pixel(r: 255, g: 0, b: 0, a: 255), clear = Pixel(r: 0, g: 0, b: 0, a: 0)
        let edge = try! Image(width: 4, height: 1, premultipliedPixels: [red, red, clear, clear].flatMap { [$0.r, $0.g, $0.b, $0.a] })
        func row(_ q: InterpolationQuality) -> [Pixel] {
            let canvas = makeCanvas(32, 1)
            canvas.interpolationQuality = q
            canvas.draw(edge, in: Rect(x: 0, y: 0, width: 32, height: 1))
            return (0..<32).map { canvas.bitmap[$0, 0] }
        }
        let linear = row(.default), cubic = row(.high)
        // Colour never exceeds alpha (premultiplied stays valid under negative lobes).
        #expect(cubic.allSatisfy { $0.r <= $0.a && $0.g == 0 && $0.b == 0 })
        // Both cross half way at the edge; the cubic's ramp is steeper.
        #expect(abs(Int(cubic[15].a) + Int(cubic[16].a) - 255) <= 2)
        #expect(Int(cubic[13].a) > Int(linear[13].a) && Int(cubic[18].a) < Int(linear[18].a))
        // Monotone: the Mitchell filter's lobes are too small to ring on one edge.
        #expect(cubic.map(\.a) == cubic.map(\.a).sorted(by: >))
    }

    @Test func highQualityShrinkingUsesMipmaps() {
        let black = Pixel(r: 0, g: 0, b: 0, a: 255), white = Pixel(r: 255, g: 255, b: 255, a: 255)
        var bytes: [UInt8] = []
        for y in 0..<128 { for x in 0..<128 { let p = (x + y) % 2 == 0 ? black : white; bytes += [p.r, p.g, p.b, p.a] } }
        let checks = try! Image(width: 128, height: 128, premultipliedPixels: bytes)
        let canvas = makeCanvas(8, 8)
        canvas.interpolationQuality = .high
        canvas.draw(checks, in: Rect(x: 0, y: 0, width: 8, height: 8))
        for y in 0..<8 { for x in 0..<8 { #expect(abs(Int(canvas.bitmap[x, y].r) - 128) <= 2) } }
    }

    // MARK: - Pattern spreads

    /// A 3 × 1 strip: red, green, blue.
    static let strip = try! Image(width: 3, height: 1, premultipliedPixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255])

    func patternRow(_ spread: GradientSpread, offset: Double) -> [Int] {
        let canvas = makeCanvas(15, 2)
        canvas.interpolationQuality = .none
        canvas.fill(
            Rect(x: 0, y: 0, width: 15, height: 2),
            with: .pattern(ImageSamplingTests.strip, transform: Transform(translationX: offset, y: 0), spread: spread))
        // 0 red, 1 green, 2 blue.
        return (0..<15).map { x in
            let p = canvas.bitmap[x, 1]
            return p.r == 255 ? 0 : (p.g == 255 ? 1 : 2)
        }
    }

    @Test func patternsRepeatReflectAndPad() {
        #expect(patternRow(.repeat, offset: 6) == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])
        #expect(patternRow(.reflect, offset: 6) == [0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2])
        #expect(patternRow(.pad, offset: 6) == [0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 2, 2])
        // Far from the origin, where the period is found in Double.
        #expect(patternRow(.reflect, offset: 6 + 6e9) == patternRow(.reflect, offset: 6))
        #expect(patternRow(.pad, offset: -1e12) == Array(repeating: 2, count: 15))
    }

    @Test func patternsFarAwayAreSampledNotTrapped() {
        // Scaled and 10³⁵ away: the period is taken by an exact remainder (the
        // rounded division left an error of many periods, and Int(_:) trapped).
        for spread in [GradientSpread.repeat, .reflect, .pad] {
            for quality in [InterpolationQuality.none, .default, .high] {
                let canvas = makeCanvas(8, 4)
                canvas.interpolationQuality = quality
                let place = Transform(scaleX: 1.5, y: 1.5).concatenating(Transform(translationX: 1e35, y: -3e37))
                canvas.fill(Rect(x: 0, y: 0, width: 8, height: 4), with: .pattern(ImageSamplingTests.strip, transform: place, spread: spread))
                #expect(coveredArea(canvas.bitmap) > 31.9, "\(spread) \(quality)")
            }
        }
    }

    /// `wrap` (an index inside taken as it is, without a division) is the
    /// spread's arithmetic at every index, inside or out, near and far.
    @Test func wrappingIsTheSpreadsArithmetic() {
        for n in [1, 2, 3, 7, 256] {
            let far = [Int.min + 1, -(1 << 40) - 3, 1 << 40, Int.max - 1]
            for i in Array(-3 * n...3 * n) + far {
                let period = i % n
                #expect(ImageShader.wrap(i, n, .repeat) == (period < 0 ? period + n : period), "repeat \(i) \(n)")
                #expect(ImageShader.wrap(i, n, .pad) == min(max(i, 0), n - 1), "pad \(i) \(n)")
                var twice = i % (2 * n)
                if twice < 0 { twice += 2 * n }
                #expect(ImageShader.wrap(i, n, .reflect) == (twice < n ? twice : 2 * n - 1 - twice), "reflect \(i) \(n)")
            }
        }
    }

    /// `wrapNear` (no division) is `wrap` over every index a reduced
    /// coordinate gives, for every spread and small sizes: repeated or
    /// padded −1 ... n, reflected −1 ... 2n (and a few past either end
    /// padded, as pad reduces to 4 pixels outside).
    @Test func wrappingNearTheImageIsWrapping() {
        for n in 1...6 {
            for i in -5...(2 * n + 4) {
                #expect(ImageShader.wrapNear(i, n, .pad) == ImageShader.wrap(i, n, .pad), "pad \(i) \(n)")
                if i >= -1 && i <= n {
                    #expect(ImageShader.wrapNear(i, n, .repeat) == ImageShader.wrap(i, n, .repeat), "repeat \(i) \(n)")
                }
                if i >= -1 && i <= 2 * n {
                    #expect(ImageShader.wrapNear(i, n, .reflect) == ImageShader.wrap(i, n, .reflect), "reflect \(i) \(n)")
                }
            }
        }
    }

    /// A rotated pattern (the general sampling loop) of a one-pixel image,
    /// repeated or reflected, is that pixel everywhere, by both filters,
    /// and a two-by-one image's columns alternate along x.
    @Test func rotatedPatternsOfTinyImagesWrap() {
        let one = try! Image(width: 1, height: 1, premultipliedPixels: [10, 200, 30, 255])
        for spread in [GradientSpread.repeat, .reflect, .pad] {
            for quality in [InterpolationQuality.none, .default] {
                let canvas = makeCanvas(9, 7)
                canvas.interpolationQuality = quality
                canvas.fill(
                    Rect(x: 0, y: 0, width: 9, height: 7),
                    with: .pattern(one, transform: Transform(rotationAngle: 0.7).scaledBy(x: 2.5, y: 1.5), spread: spread))
                for y in 0..<7 {
                    for x in 0..<9 { #expect(canvas.bitmap[x, y] == Pixel(r: 10, g: 200, b: 30, a: 255), "\(spread) \(quality)") }
                }
            }
        }
        let two = try! Image(width: 2, height: 1, premultipliedPixels: [255, 0, 0, 255, 0, 0, 255, 255])
        let canvas = makeCanvas(8, 3)
        canvas.interpolationQuality = .none
        // A turn of a full revolution is not the identity in Double: the
        // general loop draws it, each pixel its own column.
        canvas.fill(Rect(x: 0, y: 0, width: 8, height: 3), with: .pattern(two, transform: Transform(rotationAngle: 2 * .pi), spread: .repeat))
        for x in 0..<8 { #expect(canvas.bitmap[x, 1].r == (x % 2 == 0 ? 255 : 0), "\(x)") }
    }

    @Test func reflectedPatternsAreSeamlessWhenFiltered() {
        // A horizontal ramp reflected and enlarged: bilinear across the mirrored
        // edge sees the same pixel on both sides, so there is no seam.
        let ramp = try! Image(
            width: 4, height: 1,
            premultipliedPixels: (0..<4).flatMap { x -> [UInt8] in
                let v = UInt8(x * 80); return [v, v, v, 255]
            })
        let canvas = makeCanvas(64, 1)
        canvas.fill(Rect(x: 0, y: 0, width: 64, height: 1), with: .pattern(ramp, transform: Transform(scaleX: 4, y: 1), spread: .reflect))
        let values = (0..<64).map { Int(canvas.bitmap[$0, 0].r) }
        for x in 0..<63 { #expect(abs(values[x] - values[x + 1]) <= 21, "step at \(x): \(values[x]) → \(values[x + 1])") }
        // Repeat has the seam (240 back to 0 within four pixels) that reflect avoids.
        let tiled = makeCanvas(64, 1)
        tiled.fill(Rect(x: 0, y: 0, width: 64, height: 1), with: .pattern(ramp, transform: Transform(scaleX: 4, y: 1)))
        let steps = (0..<63).map { abs(Int(tiled.bitmap[$0, 0].r) - Int(tiled.bitmap[$0 + 1, 0].r)) }
        #expect(steps.max()! > 40)
    }
}
