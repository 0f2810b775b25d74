import CPixels
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// A random valid premultiplied pixel: alpha often 0 or 255, as in real layers.
func randomPixel(_ r: inout FuzzRandom) -> UInt32 {
    let a: UInt32 =
        switch r.int(4) {
        case 0: 0
        case 1: 255
        default: UInt32(r.int(256))
        }
    func ch() -> UInt32 { a == 0 ? 0 : UInt32(r.int(Int(a) + 1)) }
    return ch() | ch() << 8 | ch() << 16 | a << 24
}

/// The pixel loops for images and groups drawn 1:1 (SIMD, eight at a time)
/// against one-pixel reference formulas, at every length around the vector
/// width so the scalar tails are covered too.
@Suite struct SpanCompositingTests {
    @Test func sourceOverMatchesTheScalarFormula() {
        var r = FuzzRandom(seed: 11)
        for count in 0..<40 {
            let s = (0..<count).map { _ in randomPixel(&r) }
            let d = (0..<count).map { _ in randomPixel(&r) }
            var out = d
            out.withUnsafeMutableBufferPointer { o in
                s.withUnsafeBufferPointer { SpanCompositing.sourceOver(o.baseAddress!, $0.baseAddress!, count: count) }
            }
            for i in 0..<count {
                let keep = 255 - s[i] >> 24
                #expect(out[i] == s[i] &+ scalePacked(d[i], keep), "count \(count) pixel \(i)")
            }
        }
    }

    /// The rectangle kernel (an image drawn 1:1) is the row kernel row by
    /// row: widths around the vector width, strides wider than the rows,
    /// and an image drawn at whole pixels, clipped, is the scalar formula.
    @Test func sourceOverRectanglesAreTheRows() throws {
        guard strata_pixels_have_avx2() != 0 else { return }
        var r = FuzzRandom(seed: 13)
        for round in 0..<300 {
            let width = 1 + r.int(round < 200 ? 40 : 70), height = 1 + r.int(12)
            let sStride = width + r.int(5), dStride = width + r.int(7)
            // Opaque, clear and mixed sources (the sixteen-pixel kernel
            // stores the first, skips the second).
            let s = (0..<(sStride * height)).map { _ in
                round % 3 == 0 ? randomPixel(&r) | 0xFF00_0000 : round % 3 == 1 ? 0 : randomPixel(&r)
            }
            let d = (0..<(dStride * height)).map { _ in randomPixel(&r) }
            var rows = d, rect = d
            rows.withUnsafeMutableBufferPointer { o in
                s.withUnsafeBufferPointer { src in
                    for y in 0..<height {
                        strata_source_over_avx2(o.baseAddress! + y * dStride, src.baseAddress! + y * sStride, width, 255)
                    }
                }
            }
            rect.withUnsafeMutableBufferPointer { o in
                s.withUnsafeBufferPointer { src in
                    strata_source_over_rect_avx2(o.baseAddress!, dStride, src.baseAddress!, sStride, width, height)
                }
            }
            #expect(rect == rows, "\(width) × \(height)")
            // Pixels past the rows' width are untouched.
            for y in 0..<height {
                for x in width..<dStride { #expect(rect[y * dStride + x] == d[y * dStride + x]) }
            }
        }
        // Through the canvas: an image at whole pixels, partly off the
        // canvas, over random pixels.
        let w = 13, h = 9
        let pixels = (0..<(w * h)).map { _ in randomPixel(&r) }
        var bytes: [UInt8] = []
        for p in pixels { bytes += [UInt8(p & 255), UInt8(p >> 8 & 255), UInt8(p >> 16 & 255), UInt8(p >> 24)] }
        let image = try Image(width: w, height: h, premultipliedPixels: bytes)
        let under = (0..<(20 * 16)).map { _ in randomPixel(&r) }
        for (x, y) in [(3, 2), (-4, -3), (12, 10), (0, 0)] {
            let canvas = try Canvas(width: 20, height: 16)
            for i in 0..<(20 * 16) { canvas.bitmap.baseAddress.storeBytes(of: under[i], toByteOffset: i * 4, as: UInt32.self) }
            canvas.draw(image, in: Rect(x: Double(x), y: Double(y), width: Double(w), height: Double(h)))
            for py in 0..<16 {
                for px in 0..<20 {
                    let got = canvas.bitmap.baseAddress.load(fromByteOffset: (py * 20 + px) * 4, as: UInt32.self)
                    let ix = px - x, iy = py - y
                    let before = under[py * 20 + px]
                    guard ix >= 0, ix < w, iy >= 0, iy < h else {
                        #expect(got == before)
                        continue
                    }
                    let src = pixels[iy * w + ix]
                    #expect(got == src &+ scalePacked(before, 255 - src >> 24), "at (\(px), \(py)) drawn at (\(x), \(y))")
                }
            }
        }
    }

    @Test func destinationInMatchesTheBlendMode() {
        // Every source alpha against a spread of destinations, full coverage.
        var r = FuzzRandom(seed: 12)
        let d = (0..<256).map { _ in randomPixel(&r) }
        let s = (0..<256).map { UInt32($0) << 24 | UInt32(r.int($0 + 1)) }
        var out = d
        out.withUnsafeMutableBufferPointer { o in
            s.withUnsafeBufferPointer { SpanCompositing.destinationIn(o.baseAddress!, $0.baseAddress!, count: 256) }
        }
        for i in 0..<256 {
            #expect(out[i] == BlendMode.destinationIn.blend(s[i], d[i], coverage: 255), "alpha \(i)")
        }
        // Partial coverage, one pixel at a time.
        for _ in 0..<2000 {
            let sp = randomPixel(&r), dp = randomPixel(&r), c = UInt32(r.int(256))
            #expect(SpanCompositing.destinationIn(dp, sp, coverage: c) == BlendMode.destinationIn.blend(sp, dp, coverage: c))
        }
    }

    @Test func scaleMatchesScalePacked() {
        var r = FuzzRandom(seed: 13)
        for k in [0, 1, 77, 128, 254, 255] as [UInt32] {
            let s = (0..<21).map { _ in randomPixel(&r) }
            var out = [UInt32](repeating: 0, count: 21)
            out.withUnsafeMutableBufferPointer { o in
                s.withUnsafeBufferPointer { SpanCompositing.scale(o.baseAddress!, from: $0.baseAddress!, count: 21, by: k) }
            }
            #expect(out == s.map { scalePacked($0, k) }, "k \(k)")
        }
    }

    /// A 1:1 image over a background, at whole-pixel offsets that put it partly
    /// outside the canvas, in the modes with fast loops and at two alphas:
    /// every pixel as the per-pixel formula gives it.
    @Test(arguments: [BlendMode.normal, .destinationIn, .copy, .multiply])
    func imagesDrawnOneToOneBlendExactly(mode: BlendMode) throws {
        var r = FuzzRandom(seed: 14)
        let (w, h) = (37, 9)
        let src = (0..<(w * h)).map { _ in randomPixel(&r) }
        let image = try Image(
            width: w, height: h,
            premultipliedPixels: src.flatMap { p in
                [UInt8(p & 255), UInt8(p >> 8 & 255), UInt8(p >> 16 & 255), UInt8(p >> 24)]
            })
        for alpha in [1.0, 0.5] {
            for (ox, oy) in [(3, 2), (-5, -4), (20, 6)] {
                let canvas = makeCanvas(40, 12)
                var background: [UInt32] = []
                for y in 0..<12 {
                    for x in 0..<40 {
                        let p = randomPixel(&r)
                        background.append(p)
                        canvas.bitmap[x, y] = Pixel(packed: p)
                    }
                }
                canvas.blendMode = mode
                canvas.alpha = alpha
                canvas.draw(image, in: Rect(x: Double(ox), y: Double(oy), width: Double(w), height: Double(h)))
                let k = UInt32((alpha * 255).rounded())
                for y in 0..<12 {
                    for x in 0..<40 {
                        let d = background[y * 40 + x]
                        let (ix, iy) = (x - ox, y - oy)
                        var expected = d
                        if ix >= 0, ix < w, iy >= 0, iy < h {
                            let s = k == 255 ? src[iy * w + ix] : scalePacked(src[iy * w + ix], k)
                            switch mode {
                            case .normal: expected = s &+ scalePacked(d, 255 - s >> 24)
                            case .copy: expected = s
                            default: expected = mode.blend(s, d, coverage: 255)
                            }
                        }
                        #expect(canvas.bitmap[x, y].packed == expected, "\(mode) alpha \(alpha) at (\(x), \(y)) offset (\(ox), \(oy))")
                    }
                }
            }
        }
    }

    /// Scaled, unrotated images take a loop of their own; it gives the same
    /// samples as the general bilinear formula, also at the clamped edges.
    @Test func axisAlignedBilinearMatchesTheGeneralSampler() {
        var r = FuzzRandom(seed: 15)
        let (w, h) = (7, 5)
        let src = (0..<(w * h)).map { _ in randomPixel(&r) }
        for inverse in [
            Transform(a: 0.37, b: 0, c: 0, d: 0.61, tx: -1.3, ty: 0.2),
            Transform(a: 2.5, b: 0, c: 0, d: 1.75, tx: -4, ty: -3),
            Transform(a: -0.5, b: 0, c: 0, d: 1, tx: 6, ty: 0.5),
        ] {
            src.withUnsafeBufferPointer { px in
                let shader = ImageShader(
                    pixels: px.baseAddress!, width: w, height: h, stride: w, inverse: inverse,
                    filter: .bilinear, spread: .pad, alpha: 255)
                var out = [UInt32](repeating: 0, count: 30)
                for y in -2..<12 {
                    out.withUnsafeMutableBufferPointer { shader.shade(x: -4, y: y, count: 30, into: $0.baseAddress!) }
                    // The sampler steps along the row by adding, as this does.
                    var ux = inverse.a * (Double(-4) + 0.5) + inverse.tx
                    for i in 0..<30 {
                        let py = Double(y) + 0.5
                        let u = max(-4, min(Double(w) + 4, ux)) - 0.5
                        ux += inverse.a
                        let v = max(-4, min(Double(h) + 4, inverse.d * py + inverse.ty)) - 0.5
                        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                        func at(_ x: Int, _ y: Int) -> UInt32 { px[min(h - 1, max(0, y)) * w + min(w - 1, max(0, x))] }
                        let expected = ImageShader.mix(
                            at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1),
                            UInt32((u - Double(x0)) * 256 + 0.5), UInt32((v - Double(y0)) * 256 + 0.5))
                        #expect(out[i] == expected, "\(inverse) (\(-4 + i), \(y))")
                    }
                }
            }
        }
    }
}

/// An image moved without scaling along x (a pattern at a fractional
/// offset) is sampled by mixing columns once and neighbours after
/// (`shadeTranslated`): the same samples as the bilinear formula at each
/// pixel's exact centre, repeated or padded, across the image's seams and
/// off its sides, at any span length and alpha.
@Suite struct TranslatedBilinearTests {
    @Test(arguments: [GradientSpread.pad, .repeat])
    func translatedBilinearMatchesTheFormula(spread: GradientSpread) {
        var r = FuzzRandom(seed: 31)
        let (w, h) = (7, 5)
        let src = (0..<(w * h)).map { _ in randomPixel(&r) }
        func wrapped(_ i: Int, _ n: Int) -> Int {
            spread == .repeat ? ((i % n) + n) % n : min(n - 1, max(0, i))
        }
        for inverse in [
            Transform(a: 1, b: 0, c: 0, d: 1, tx: -1.3, ty: 0.2),
            Transform(a: 1, b: 0, c: 0, d: 0.61, tx: 3.75, ty: -2.4),
            Transform(a: 1, b: 0, c: 0, d: 1, tx: -1_000_003.625, ty: 17.5),
            Transform(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0.5),
        ] {
            for alpha: UInt32 in [255, 131] {
                src.withUnsafeBufferPointer { px in
                    let shader = ImageShader(
                        pixels: px.baseAddress!, width: w, height: h, stride: w, inverse: inverse,
                        filter: .bilinear, spread: spread, alpha: alpha)
                    var out = [UInt32](repeating: 0, count: 256)
                    for (x, count) in [(-4, 30), (2, 1), (5, 8), (-20, 9), (0, 256), (13, 17)] {
                        for y in [-3, 0, 2, 9] {
                            out.withUnsafeMutableBufferPointer { shader.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
                            for i in 0..<count {
                                // The formula at the pixel's centre, exactly.
                                func axis(_ p: Double, _ n: Int) -> (Int, UInt32) {
                                    var s = p
                                    if spread == .pad { s = max(-4, min(Double(n) + 4, s)) }
                                    let f = s - 0.5, whole = f.rounded(.down)
                                    return (Int(whole), UInt32((f - whole) * 256 + 0.5))
                                }
                                let (x0, wx) = axis(Double(x + i) + 0.5 + inverse.tx, w)
                                var sv = inverse.d * (Double(y) + 0.5) + inverse.ty
                                if spread == .repeat { sv = sv.truncatingRemainder(dividingBy: Double(h)) + (sv < 0 ? Double(h) : 0) }
                                let (y0, wy) = axis(sv, h)
                                func at(_ cx: Int, _ cy: Int) -> UInt32 { px[wrapped(cy, h) * w + wrapped(cx, w)] }
                                var expected = ImageShader.mix(at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1), wx, wy)
                                if alpha != 255 { expected = scalePacked(expected, alpha) }
                                #expect(out[i] == expected, "\(spread) \(inverse) alpha \(alpha): (\(x + i), \(y)) of span \(x), \(count)")
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The same for nearest sampling (`copyTranslated`): runs of a source row
/// copied, the pixel the general loop takes at each pixel's centre.
@Test(arguments: [GradientSpread.pad, .repeat])
func translatedNearestMatchesTheFormula(spread: GradientSpread) {
    var r = FuzzRandom(seed: 32)
    let (w, h) = (7, 5)
    let src = (0..<(w * h)).map { _ in randomPixel(&r) }
    func wrapped(_ i: Int, _ n: Int) -> Int { spread == .repeat ? ((i % n) + n) % n : min(n - 1, max(0, i)) }
    for inverse in [
        Transform(a: 1, b: 0, c: 0, d: 1, tx: -1.3, ty: 0.2), Transform(a: 1, b: 0, c: 0, d: 0.61, tx: 3.75, ty: -2.4),
        Transform(a: 1, b: 0, c: 0, d: 1, tx: -1_000_003.625, ty: 17.5),
    ] {
        for alpha: UInt32 in [255, 131] {
            src.withUnsafeBufferPointer { px in
                let shader = ImageShader(
                    pixels: px.baseAddress!, width: w, height: h, stride: w, inverse: inverse, filter: .nearest, spread: spread,
                    alpha: alpha)
                var out = [UInt32](repeating: 0, count: 256)
                for (x, count) in [(-4, 30), (2, 1), (5, 8), (-20, 9), (0, 256)] {
                    for y in [-3, 0, 2, 9] {
                        out.withUnsafeMutableBufferPointer { shader.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
                        for i in 0..<count {
                            var su = Double(x + i) + 0.5 + inverse.tx, sv = inverse.d * (Double(y) + 0.5) + inverse.ty
                            if spread == .pad { (su, sv) = (max(-4, min(Double(w) + 4, su)), max(-4, min(Double(h) + 4, sv))) }
                            var expected = px[wrapped(Int(sv.rounded(.down)), h) * w + wrapped(Int(su.rounded(.down)), w)]
                            if alpha != 255 { expected = scalePacked(expected, alpha) }
                            #expect(out[i] == expected, "\(spread) \(inverse) alpha \(alpha): (\(x + i), \(y))")
                        }
                    }
                }
            }
        }
    }
}

/// A pattern's coordinate moved into its first period without libm's
/// remainder: the remainder's value exactly (or the period's other end, the
/// same place), for coordinates near and far, either side of zero and just
/// either side of whole periods.
@Test func patternRemainderIsTheExactRemainder() {
    var r = FuzzRandom(seed: 8)
    for p in [1.0, 7, 14, 256, 510] {
        var values: [Double] = [
            0, -0.0, p, p.nextDown, p.nextUp, p / 2, -p, 3 * p, -3 * p, 1e-20, -1e-20, 0x1p40 - 1, -(0x1p40 - 1), 0x1p40, 1e35, -1e35,
        ]
        for _ in 0..<2000 {
            let k = Double(r.int(2_000_001) - 1_000_000)
            let base = k * p
            values += [base, base.nextUp, base.nextDown, base + Double(r.int(1000)) / 997 * p, base - 0.5]
        }
        for u in values {
            let got = ImageShader.remainder(u, p)
            var want = u.truncatingRemainder(dividingBy: p)
            if want < 0 { want += p }
            #expect(got >= 0 && got <= p, "\(u) mod \(p): \(got)")
            #expect(got == want || (got == 0 && want == p) || (got == p && want == 0), "\(u) mod \(p): \(got), not \(want)")
        }
    }
}

/// The portable rectangle kernel (`SolidBlitter.blendRows`: blocks of eight
/// lanes with their own source and keep, the last block overlapping the one
/// before it) against the one-pixel formula, at every width from 8 to 40 and
/// with pixels beside the rectangle that must stay as they were. (The AVX2
/// kernel, which takes coverage, is held to the formula through
/// `blitRectRows` below.)
@Suite struct RectangleKernelTests {
    @Test func portableKernelMatchesThePixelFormula() {
        var r = FuzzRandom(seed: 21)
        for width in 8...40 {
            let height = 1 + r.int(4), stride = width + 5
            let before = (0..<(stride * height + 3)).map { _ in randomPixel(&r) }
            func pair() -> (UInt32, UInt32) {
                let s = randomPixel(&r)
                return (s, r.int(3) == 0 ? 255 - s >> 24 : UInt32(r.int(256)))
            }
            let left = pair(), middle = pair(), right = pair()
            var expected = before
            for y in 0..<height {
                for x in 0..<width {
                    let (s, k) = x == 0 ? left : x == width - 1 ? right : middle
                    let i = 2 + y * stride + x
                    expected[i] = s &+ scalePacked(before[i], k)
                }
            }
            var out = before
            out.withUnsafeMutableBufferPointer { o in
                SolidBlitter.blendRows(o.baseAddress! + 2, stride, width, height, left, middle, right)
            }
            let same = out == expected
            #expect(same, "width \(width) height \(height)")
        }
    }
}

extension RectangleKernelTests {
    /// The constant-colour span loop (`SolidBlitter.blend`), portable and AVX2
    /// (whose last eight pixels overlap the block before; from sixteen
    /// pixels, sixteen a step with a masked tail where the processor has
    /// AVX-512), at every length to 40 and longer ones, with the pixels on
    /// either side left alone.
    @Test func spanKernelsMatchThePixelFormula() {
        var r = FuzzRandom(seed: 22)
        let kernels = SolidBlitter.usesAVX2 ? [false, true] : [false]
        for count in Array(0...40) + [47, 48, 49, 63, 64, 65, 100, 255, 256, 1001] {
            let before = (0..<(count + 4)).map { _ in randomPixel(&r) }
            let s = randomPixel(&r), keep = r.int(2) == 0 ? 255 - s >> 24 : UInt32(r.int(256))
            var expected = before
            for i in 2..<(2 + count) { expected[i] = s &+ scalePacked(before[i], keep) }
            for avx2 in kernels {
                var out = before
                out.withUnsafeMutableBufferPointer { SolidBlitter.blend($0.baseAddress! + 2, count, s, keep, avx2: avx2) }
                let same = out == expected
                #expect(same, "count \(count) avx2 \(avx2)")
            }
        }
    }
}

extension RectangleKernelTests {
    /// A solid colour through coverage bytes (`SolidBlitter.maskSpan`), opaque,
    /// translucent and in copy mode, portable and AVX2 (masked loads and stores
    /// under eight pixels, an overlapping last block from eight on), against
    /// the one-pixel formulas, with the pixels on either side left alone.
    @Test func maskKernelsMatchThePixelFormula() {
        var r = FuzzRandom(seed: 23)
        let kernels = SolidBlitter.usesAVX2 ? [false, true] : [false]
        for count in 0...40 {
            for variant in 0..<3 {
                let before = (0..<(count + 4)).map { _ in randomPixel(&r) }
                let mask = (0..<count).map { _ -> UInt8 in
                    switch r.int(4) {
                    case 0: 0
                    case 1: 255
                    default: UInt8(r.int(256))
                    }
                }
                var source = randomPixel(&r)
                if variant == 0 { source |= 0xFF00_0000 }  // opaque: coverage interpolates
                let copy = variant == 2
                var expected = before
                for i in 0..<count {
                    let c = UInt32(mask[i]), d = before[i + 2]
                    if copy || source >> 24 == 255 {
                        expected[i + 2] = c == 0 ? d : c == 255 ? source : SolidBlitter.lerpOne(d, source, c)
                    } else if c != 0 {
                        let s = scalePacked(source, c)
                        expected[i + 2] = s &+ scalePacked(d, 255 - s >> 24)
                    }
                }
                for avx2 in kernels {
                    var out = before
                    out.withUnsafeMutableBufferPointer { o in
                        mask.withUnsafeBufferPointer { m in
                            SolidBlitter.maskSpan(
                                o.baseAddress! + 2, count, m.baseAddress ?? UnsafePointer(bitPattern: 8)!, source,
                                copy: copy, avx2: avx2)
                        }
                    }
                    let same = out == expected
                    #expect(same, "count \(count) variant \(variant) avx2 \(avx2)")
                }
            }
        }
    }
}

/// `Color.byte` rounds v·255 half away from zero without libm: every half,
/// the values an ulp either side of each half, and random values agree with
/// `rounded()`.
@Suite struct ColorByteTests {
    @Test func matchesRoundedEverywhere() {
        func reference(_ v: Double) -> UInt8 {
            guard v > 0 else { return 0 }
            return v >= 1 ? 255 : UInt8((v * 255).rounded())
        }
        var values: [Double] = [0, 1, -0.0, .nan, .infinity, -1, 2, .leastNonzeroMagnitude, 1 - .ulpOfOne]
        for k in 0...255 {
            for h in [Double(k), Double(k) + 0.5] {
                let x = h / 255
                values += [x, x.nextUp, x.nextDown, x.nextUp.nextUp, x.nextDown.nextDown]
            }
        }
        var r = FuzzRandom(seed: 24)
        for _ in 0..<20000 { values.append(Double(r.int(1 << 30)) / Double(1 << 30)) }
        for v in values {
            #expect(Color.byte(v) == reference(v), "\(v)")
        }
    }

    /// `premultipliedPixel` (the four channels at once) against each byte
    /// rounded alone and multiplied by alpha (`Pixel.multiply`), for every
    /// half and the values an ulp either side, alphas among them.
    @Test func premultipliedPixelsAreTheBytesTimesAlpha() {
        var values: [Double] = [0, 1, -0.0, .nan, .infinity, -1, 2, .leastNonzeroMagnitude, 1 - .ulpOfOne]
        for k in 0...255 {
            for h in [Double(k), Double(k) + 0.5] {
                let x = h / 255
                values += [x, x.nextUp, x.nextDown]
            }
        }
        var r = FuzzRandom(seed: 25)
        for _ in 0..<4000 { values.append(Double(r.int(1 << 30)) / Double(1 << 30)) }
        for (i, v) in values.enumerated() {
            let color = Color(
                red: v, green: values[(i * 7 + 3) % values.count], blue: values[(i * 13 + 5) % values.count],
                alpha: values[(i * 31 + 11) % values.count])
            let a = Color.byte(color.alpha)
            let want = Pixel(
                r: Pixel.multiply(Color.byte(color.red), a), g: Pixel.multiply(Color.byte(color.green), a),
                b: Pixel.multiply(Color.byte(color.blue), a), a: a)
            #expect(color.premultipliedPixel == want, "\(color)")
        }
    }
}

/// Hands everything to another blitter, and its rows of cells to the inner
/// blitter's row kernel only when `kernel` is set: otherwise
/// `sweepCoverageRow` sweeps them span by span in Swift.
private struct Routed<Inner: SpanBlitter>: SpanBlitter {
    var inner: Inner
    let kernel: Bool
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        inner.blitSpan(x: x, y: y, count: count, coverage: coverage)
    }
    mutating func blitMask(x: Int, y: Int, count: Int, mask: UnsafePointer<UInt8>) {
        inner.blitMask(x: x, y: y, count: count, mask: mask)
    }
    mutating func blitRect(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8) {
        inner.blitRect(x: x, y: y, width: width, height: height, left: left, middle: middle, right: right)
    }
    mutating func sweepRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>,
        wordsPerRow: Int, width: Int, rows: Int, originX: Int, y: Int, evenOdd: Bool
    ) -> Bool {
        kernel
            && inner.sweepRows(
                cells, cellStride: cellStride, bits, wordsPerRow: wordsPerRow, width: width, rows: rows,
                originX: originX, y: y, evenOdd: evenOdd)
    }
}

/// Opaque white swept over an opaque black row of `width` pixels from
/// `cells` and `bits` (one row; cleared as they are read), through the row
/// kernel (`kernel`) or the Swift sweep.
private func sweepWhiteOverBlack(_ cells: inout [Float], _ bits: inout [UInt64], width: Int, kernel: Bool) throws -> Bitmap {
    let bitmap = try Bitmap(width: width, height: 1)
    for x in 0..<width { bitmap[x, 0] = Pixel(r: 0, g: 0, b: 0, a: 255) }
    let solid = SolidBlitter(bitmap: bitmap, color: Pixel(r: 255, g: 255, b: 255, a: 255), mode: .normal)
    var blitter = Routed(inner: solid, kernel: kernel)
    let words = bits.count
    cells.withUnsafeMutableBufferPointer { cp in
        bits.withUnsafeMutableBufferPointer { bp in
            sweepCoverageRow(
                cp.baseAddress!, bp.baseAddress!, wordsPerRow: words, width: width, originX: 0, y: 0, evenOdd: false,
                &blitter)
        }
    }
    return bitmap
}

/// A closed polygon of 3 to 2 + `sides` random vertices over 300 × 200.
private func randomPolygon(_ r: inout FuzzRandom, sides: Int) -> Path {
    var path = Path()
    for i in 0..<(3 + r.int(sides)) {
        let p = Point(x: Double(r.int(30_000)) / 100, y: Double(r.int(20_000)) / 100)
        if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
    }
    path.closeSubpath()
    return path
}

/// The AVX2 row sweep (`strata_sweep_rows_avx2`, through `SolidBlitter.sweepRows`)
/// against the Swift sweep, on random rows of difference cells: runs of
/// touched cells in and across 64-bit words, cells past the row's end,
/// coverage past 1 and negative, both fill rules, opaque, translucent and
/// copy. The pixels and the cleared cells and bits must come out the same.
@Suite struct RowSweepTests {
    @Test func rowKernelMatchesTheSwiftSweep() throws {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 25)
        for round in 0..<400 {
            let width = 1 + r.int(200)
            let stride = width + 2, words = (stride + 63) >> 6
            var cells = [Float](repeating: 0, count: stride)
            var bits = [UInt64](repeating: 0, count: words)
            // Edges: each adds a ramp of area and marks its cells, as addEdgeArea does.
            for _ in 0..<r.int(6) {
                let a = Float(r.int(width * 100)) / 100, b = min(Float(width), a + Float(r.int(1200)) / 100)
                let d = Float(r.int(400) - 200) / 100
                cells.withUnsafeMutableBufferPointer { c in
                    bits.withUnsafeMutableBufferPointer { addEdgeArea(c.baseAddress!, $0.baseAddress!, a, b, d) }
                }
            }
            let evenOdd = round % 2 == 1
            let mode: BlendMode = round % 5 == 4 ? .copy : .normal
            let alpha = UInt8([255, 128, 0, 77][round % 4])
            let color = Pixel(r: Pixel.multiply(200, alpha), g: Pixel.multiply(30, alpha), b: Pixel.multiply(90, alpha), a: alpha)
            var results: [[UInt32]] = []
            for kernel in [true, false] {
                let bitmap = try Bitmap(width: width + 6, height: 1)
                var f = FuzzRandom(seed: UInt64(round))
                for x in 0..<(width + 6) { bitmap[x, 0] = Pixel(packed: 0xFF00_0000 | UInt32(f.int(1 << 24))) }
                var c = cells, b = bits
                let solid = SolidBlitter(bitmap: bitmap, color: color, mode: mode)
                var blitter = Routed(inner: solid, kernel: kernel)
                c.withUnsafeMutableBufferPointer { cp in
                    b.withUnsafeMutableBufferPointer { bp in
                        sweepCoverageRow(
                            cp.baseAddress!, bp.baseAddress!, wordsPerRow: words, width: width, originX: 3, y: 0,
                            evenOdd: evenOdd, &blitter)
                    }
                }
                #expect(c.allSatisfy { $0 == 0 } && b.allSatisfy { $0 == 0 }, "round \(round): cells left")
                results.append((0..<(width + 6)).map { bitmap[$0, 0].packed })
            }
            let same = results[0] == results[1]
            #expect(same, "round \(round) width \(width)")
        }
    }
}

extension RowSweepTests {
    /// The running sums of eight cells are added in the row kernel's order
    /// (neighbours, then two apart, then the fourth onto the last four), in the
    /// Swift sweep as in the kernel. Cells where the order shows: in sequence,
    /// 0.4 is lost in 1e8 and the third sum is 0; in the kernel's order −1e8
    /// meets 1e8 first and the third sum is 0.4.
    @Test func runningSumsFollowTheKernelsOrder() throws {
        let values: [Float] = [0.4, 1e8, -1e8, 0.25, 0, 0, 0, 0.125]
        var cells = values
        let sums = cells.withUnsafeMutableBufferPointer { prefixSums8($0.baseAddress!, 8) }
        // a = v + its neighbour, b = a + the one two back, then the fourth onto the rest.
        let a: [Float] = [values[0], values[1] + values[0], values[2] + values[1], values[3] + values[2], 0, 0, 0, values[7]]
        let b: [Float] = [a[0], a[1], a[2] + a[0], a[3] + a[1], 0, 0, 0, a[7]]
        let expected: [Float] = [b[0], b[1], b[2], b[3], b[3], b[3], b[3], b[7] + b[3]]
        #expect((0..<8).map { sums[$0] } == expected)
        #expect(sums[2] == 0.4 && sums[3] == 0 && sums[7] == 0.125)
        // Fewer cells: the ones beyond count as zero (the sums beyond them are
        // not used, and need not repeat the last: 1e8 − 1e8 lands there).
        let three = cells.withUnsafeMutableBufferPointer { prefixSums8($0.baseAddress!, 3) }
        #expect((0..<3).map { three[$0] } == [0.4, 1e8, 0.4])

        // The same cells through the row kernel and the Swift sweep.
        guard SolidBlitter.usesAVX2 else { return }
        let width = 12
        var images: [[UInt32]] = []
        for kernel in [true, false] {
            var c = values + [Float](repeating: 0, count: width + 2 - values.count)
            var bits: [UInt64] = [0xFF]
            let bitmap = try sweepWhiteOverBlack(&c, &bits, width: width, kernel: kernel)
            images.append((0..<width).map { bitmap[$0, 0].packed })
            // White over black at coverage 0.4 (102 of 255) where the sum kept it.
            #expect(bitmap[2, 0].r == 102 && bitmap[3, 0].r == 0 && bitmap[7, 0].r == 32, "kernel \(kernel)")
        }
        #expect(images[0] == images[1])

        // A run of eleven cells in a row of thirteen: a block of eight, then
        // the row's last five, with the same order-sensitive cells, which the
        // kernel takes by masked loads, after carrying the first block's sum.
        // The second block's fourth pixel is past the run, and its sum is the
        // block's fourth lane, (0 + −1e8) + (1e8 + 0.4) = 0, not the run's
        // last (0.4): a block takes eight pixels whatever they are.
        var tailImages: [[UInt32]] = []
        for kernel in [true, false] {
            var c: [Float] = [0.25, 0, 0, 0, 0, 0, 0, -0.25, 0.4, 1e8, -1e8] + [Float](repeating: 0, count: 4)
            var bits: [UInt64] = [0x7FF]
            let bitmap = try sweepWhiteOverBlack(&c, &bits, width: 13, kernel: kernel)
            tailImages.append((0..<13).map { bitmap[$0, 0].packed })
            // The first block's sum comes back to 0; then 0.4, 1 and (in the order) 0.4.
            #expect(bitmap[1, 0].r == 64 && bitmap[7, 0].r == 0, "kernel \(kernel)")
            #expect(bitmap[8, 0].r == 102 && bitmap[9, 0].r == 255 && bitmap[10, 0].r == 102, "kernel \(kernel)")
            #expect(bitmap[11, 0].r == 0 && bitmap[12, 0].r == 0, "kernel \(kernel): the block's lanes past the run")
            #expect(c.allSatisfy { $0 == 0 } && bits == [0], "kernel \(kernel): cells left")
        }
        #expect(tailImages[0] == tailImages[1])
    }
}

extension RowSweepTests {
    /// A block of eight from each touched cell not yet swept: one that reaches
    /// over a word's end into the next word, takes a second run inside it, and
    /// leaves the next word's later run to a block of its own; a touched cell
    /// past the row's end is cleared without a pixel. Coverage is each pixel's
    /// running sum, in the kernel and in the Swift sweep, and nothing is left
    /// in the cells or bits.
    @Test func blocksReachAcrossWordsAndRuns() throws {
        let width = 100
        var cells = [Float](repeating: 0, count: width + 2)
        cells[61] = 0.5; cells[62] = 0.25  // a run at 61 ... 62: the block is 61 ..< 69
        cells[66] = -0.25  // a run inside the block, in the next word
        cells[80] = 0.5; cells[81] = -1  // a run the block does not reach
        cells[width] = 0.75  // past the row's end
        let bits: [UInt64] = [1 << 61 | 1 << 62, 1 << 2 | 1 << 16 | 1 << 17 | 1 << 36]
        var expected = [UInt8](repeating: 0, count: width)
        var sum: Float = 0
        for x in 0..<width {
            sum += cells[x]
            expected[x] = coverageByte(sum, false)
        }
        var images: [[UInt8]] = []
        for kernel in [true, false] {
            if kernel && !SolidBlitter.usesAVX2 { continue }
            var c = cells, b = bits
            let bitmap = try sweepWhiteOverBlack(&c, &b, width: width, kernel: kernel)
            #expect(c.allSatisfy { $0 == 0 } && b == [0, 0], "kernel \(kernel): cells left")
            images.append((0..<width).map { bitmap[$0, 0].r })
        }
        for image in images {
            #expect(image == expected)
            #expect(image[61] == 128 && image[63] == 191 && image[66] == 128 && image[70] == 128 && image[81] == 0)
        }
    }

    /// Whole bands through the row kernel (`AreaRasterizer.sweep` hands it every
    /// row at once) against the Swift sweep: random polygons, star-shaped and
    /// self-crossing, both fill rules, bands wider than a 64-bit word of bits.
    @Test func bandsMatchTheSwiftSweep() throws {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 26)
        let rasterizer = AreaRasterizer()
        for round in 0..<60 {
            let path = randomPolygon(&r, sides: 12)
            let rule: FillRule = round % 2 == 0 ? .winding : .evenOdd
            let alpha = UInt8([255, 128, 200][round % 3])
            let color = Pixel(r: Pixel.multiply(20, alpha), g: Pixel.multiply(160, alpha), b: Pixel.multiply(240, alpha), a: alpha)
            let area = PixelBox(x0: 0, y0: 0, x1: 300, y1: 200)
            var images: [[UInt32]] = []
            for kernel in [true, false] {
                let bitmap = try Bitmap(width: 300, height: 200)
                bitmap.fill(with: Pixel(r: 250, g: 250, b: 250, a: 255))
                var blitter = Routed(inner: SolidBlitter(bitmap: bitmap, color: color, mode: .normal), kernel: kernel)
                rasterizer.fill(path, transform: .identity, tolerance: 0.1, rule: rule, area: area, &blitter)
                images.append((0..<200).flatMap { y in (0..<300).map { bitmap[$0, y].packed } })
            }
            let same = images[0] == images[1]
            #expect(same, "round \(round)")
        }
    }
}

extension RowSweepTests {
    /// A vertical gradient (one colour a row) through the row kernel
    /// (`ShaderBlitter.sweepRows`) against the Swift sweep, in source over and copy.
    @Test func rowConstantGradientsMatchTheSwiftSweep() throws {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 27)
        let rasterizer = AreaRasterizer()
        for round in 0..<20 {
            let path = randomPolygon(&r, sides: 10)
            let gradient = Gradient(colors: [
                Color(red: 1, green: 0.2, blue: 0.1, alpha: 0.8), Color(red: 0.1, green: 0.3, blue: 1, alpha: Double(round % 3) / 2),
            ])
            let paint = Paint.linearGradient(gradient, start: Point(x: 0, y: 10), end: Point(x: 0, y: 190))
            let area = PixelBox(x0: 0, y0: 0, x1: 300, y1: 200)
            var images: [[UInt32]] = []
            for kernel in [true, false] {
                let canvas = try Canvas(width: 300, height: 200)
                canvas.blendMode = round % 4 == 3 ? .copy : .normal
                canvas.fillColor = .white
                canvas.fill(canvas.bounds)
                let shaded = try #require(canvas.shaderBlitter(paint, alpha: 1))
                #expect(shaded.shader.isRowConstant)
                var blitter = Routed(inner: shaded, kernel: kernel)
                rasterizer.fill(path, transform: .identity, tolerance: 0.1, rule: .winding, area: area, &blitter)
                let bitmap = canvas.target
                images.append((0..<200).flatMap { y in (0..<300).map { bitmap[$0, y].packed } })
            }
            let same = images[0] == images[1]
            #expect(same, "round \(round)")
        }
    }
}

extension RectangleKernelTests {
    /// One pixel `d` under a solid colour at coverage `c` (0 leaves it), source
    /// over or copy: the one-pixel formula the rectangle kernels are held to.
    static func solidPixel(_ d: UInt32, coverage c: UInt32, color: UInt32, mode: BlendMode) -> UInt32 {
        guard c != 0 else { return d }
        let s = c == 255 ? color : scalePacked(color, c)
        let keep = 255 - (mode == .copy ? c : s >> 24)
        return keep == 0 ? s : s &+ scalePacked(d, keep)
    }

    /// A whole rectangle in one call (`SolidBlitter.blitRectRows`: three groups
    /// of rows, one AVX2 call when it is translucent and eight wide or more,
    /// one block when the coverage is one throughout; with AVX-512, sixteen
    /// lanes a block, the last under a mask) against the one-pixel formula,
    /// for widths 1 to 80, with pixels around it that must stay as they were.
    @Test func rectangleRowsMatchThePixelFormula() throws {
        var r = FuzzRandom(seed: 28)
        for round in 0..<300 {
            let width = 1 + r.int(round < 200 ? 40 : 80), rows = (r.int(3), r.int(5), r.int(3))
            let height = rows.0 + rows.1 + rows.2
            let bitmap = try Bitmap(width: width + 4, height: height + 2)
            for y in 0..<(height + 2) {
                for x in 0..<(width + 4) { bitmap[x, y] = Pixel(packed: randomPixel(&r)) }
            }
            let before = (0..<(height + 2)).map { y in (0..<(width + 4)).map { bitmap[$0, y].packed } }
            func triple() -> (UInt8, UInt8, UInt8) {
                func c() -> UInt8 { [0, 255, UInt8(r.int(256))][r.int(3)] }
                return (c(), c(), c())
            }
            var top = triple(), middle = triple(), bottom = triple()
            if round % 5 == 1 {
                // One coverage throughout (a fill on whole pixels, one block).
                let k = UInt8(1 + r.int(255))
                (top, middle, bottom) = ((k, k, k), (k, k, k), (k, k, k))
            }
            let mode: BlendMode = round % 4 == 3 ? .copy : .normal
            var color = Pixel(packed: randomPixel(&r))
            if round % 3 == 0 { color = Pixel(packed: color.packed | 0xFF00_0000) }
            var blitter = SolidBlitter(bitmap: bitmap, color: color, mode: mode)
            blitter.blitRectRows(x: 2, y: 1, width: width, rows: rows, top: top, middle: middle, bottom: bottom)
            var same = true
            for y in 0..<(height + 2) {
                for x in 0..<(width + 4) {
                    var expected = before[y][x]
                    let ry = y - 1, rx = x - 2
                    if ry >= 0 && ry < height && rx >= 0 && rx < width {
                        let t = ry < rows.0 ? top : ry < rows.0 + rows.1 ? middle : bottom
                        let c = UInt32(rx == 0 ? t.0 : rx == width - 1 ? t.2 : t.1)
                        expected = Self.solidPixel(expected, coverage: c, color: color.packed, mode: mode)
                    }
                    if bitmap[x, y].packed != expected { same = false }
                }
            }
            #expect(same, "round \(round) width \(width) rows \(rows)")
        }
    }
}

extension RectangleKernelTests {
    /// Rectangles 1 to 7 pixels wide (`SolidBlitter.blitRect` with AVX2: one
    /// block of eight lanes a row, `strata_blend_narrow_rect_avx2`) against
    /// the one-pixel formula: anywhere along a row of 40, so that the block
    /// reads and writes back pixels past the rectangle or, within eight of
    /// the row's end, goes under masks; coverages of 0, 255 and between,
    /// source over and copy. Every pixel outside the rectangle stays.
    @Test func narrowRectanglesMatchThePixelFormula() throws {
        var r = FuzzRandom(seed: 29)
        let bitmap = try Bitmap(width: 40, height: 9)
        for round in 0..<400 {
            let width = 1 + r.int(7), height = 1 + r.int(7)
            let x = round % 3 == 0 ? 40 - width - r.int(3) : r.int(41 - width), y = r.int(10 - height)
            for py in 0..<9 { for px in 0..<40 { bitmap[px, py] = Pixel(packed: randomPixel(&r)) } }
            let before = (0..<9).map { py in (0..<40).map { bitmap[$0, py].packed } }
            func c() -> UInt8 { [0, 255, UInt8(r.int(256))][r.int(3)] }
            let (left, middle, right) = (c(), c(), c())
            let mode: BlendMode = round % 4 == 3 ? .copy : .normal
            var color = Pixel(packed: randomPixel(&r))
            if round % 3 == 0 { color = Pixel(packed: color.packed | 0xFF00_0000) }
            var blitter = SolidBlitter(bitmap: bitmap, color: color, mode: mode)
            blitter.blitRect(x: x, y: y, width: width, height: height, left: left, middle: middle, right: right)
            var same = true
            for py in 0..<9 {
                for px in 0..<40 {
                    var expected = before[py][px]
                    let rx = px - x
                    if py >= y && py < y + height && rx >= 0 && rx < width {
                        let k = UInt32(rx == 0 ? left : rx == width - 1 ? right : middle)
                        expected = Self.solidPixel(expected, coverage: k, color: color.packed, mode: mode)
                    }
                    if bitmap[px, py].packed != expected { same = false }
                }
            }
            #expect(same, "round \(round): \(width) × \(height) at \(x), \(y), coverage \(left) \(middle) \(right)")
        }
    }

    /// A shader whose sources tell where the span that shaded them started
    /// and their place in it (and, transposed, which column): a pixel
    /// shaded from another run's start comes out another colour.
    struct RunMarkingShader: Shader {
        let isTransposed: Bool
        var columnRun: Int { 16 }
        func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
            for i in 0..<count {
                out[i] = 0xFF00_0000 | UInt32(x & 0xFF) << 16 | UInt32(i & 0xFF) << 8 | UInt32(y & 0x7F) << 1 | (isTransposed ? 1 : 0)
            }
        }
        func rowConstant(y: Int) -> UInt32? { nil }
        func transposed() -> RunMarkingShader? { RunMarkingShader(isTransposed: !isTransposed) }
    }

    /// A rectangle a few pixels wide shaded a column at a time
    /// (`ShaderBlitter.blitColumns`, a stroked frame's side): each pixel is
    /// the one-pixel formula over the source the transposed shader gives it
    /// in its run (`columnRun` rows counted from `top`), for widths 1 to 4,
    /// heights across runs, linear, radial and conic gradients and a
    /// bilinear pattern; the pixels around it untouched; the same bytes when
    /// its rows are drawn in two calls (as two bands draw it); and within a
    /// few levels of the same rectangle shaded a row at a time (`blitRect`),
    /// so the transposed shaders are this one's paint.
    @Test func narrowShadedRectanglesAreShadedAColumnAtATime() throws {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 31)
        let w = 24, h = 150
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 256 + 2048)
        defer { scratch.deallocate() }
        let gradient = Gradient(stops: [
            .init(color: Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8), location: 0),
            .init(color: Color(red: 0.1, green: 0.7, blue: 0.3, alpha: 1), location: 0.5),
            .init(color: Color(red: 0.2, green: 0.1, blue: 0.9, alpha: 0.6), location: 1),
        ])
        let table = LookupTable(gradient, alpha: 1)
        let turn = Transform(a: 0.96, b: 0.28, c: -0.28, d: 0.96, tx: 3, ty: -7)
        let gradients: [GradientShader.Geometry] = [
            .linear(a: 0.011, b: 0.0061, c: -0.2),
            .radial(inverse: turn, c0: Point(x: 9, y: 60), r0: 0, c1: Point(x: 12, y: 70), r1: 80),
            .conic(inverse: turn, center: Point(x: 11, y: 75), angle: 0.3),
        ]
        var image = [UInt32](repeating: 0, count: 16 * 16)
        for i in image.indices { image[i] = randomPixel(&r) | 0xFF00_0000 }
        try image.withUnsafeBufferPointer { pixels in
            var shaders: [(String, (Bitmap, Int, Int, Int, Int, Int, (UInt8, UInt8, UInt8), Bool) -> Void)] = []
            func add<S: Shader>(_ name: String, _ shader: S) {
                shaders.append(
                    (
                        name,
                        { bitmap, x, y, width, height, top, c, columns in
                            var blitter = ShaderBlitter(shader: shader, bitmap: bitmap, mode: .normal, scratch: scratch)
                            if columns {
                                blitter.blitColumns(
                                    x: x, y: y, width: width, height: height, top: top, left: c.0, middle: c.1, right: c.2)
                            } else {
                                blitter.blitRect(x: x, y: y, width: width, height: height, left: c.0, middle: c.1, right: c.2)
                            }
                        }
                    ))
                // The expected pixels, from the transposed shader.
                expectations[name] = { x, k, py, top in
                    let columns = shader.transposed()!
                    let run = shader.columnRun
                    let start = py - ImageShader.wrap(py - top, run, .repeat)
                    var out = [UInt32](repeating: 0, count: py - start + 1)
                    out.withUnsafeMutableBufferPointer { columns.shade(x: start, y: x + k, count: $0.count, into: $0.baseAddress!) }
                    return out[py - start]
                }
            }
            var expectations: [String: (Int, Int, Int, Int) -> UInt32] = [:]
            for (k, g) in gradients.enumerated() {
                add("gradient \(k)", GradientShader(table: table, geometry: g, spread: .pad, before: true, after: true))
            }
            add("marker", RunMarkingShader(isTransposed: false))
            add(
                "pattern",
                ImageShader(
                    pixels: pixels.baseAddress!, width: 16, height: 16, stride: 16,
                    inverse: Transform(a: 0.7, b: 0.1, c: -0.2, d: 0.9, tx: 0.3, ty: 0.6), filter: .bilinear,
                    spread: .repeat, alpha: 200))
            // Patterns drawn 1:1 (on whole pixels, unscaled): their columns
            // are copied (`ImageShader.columnCopy`), the sides of the
            // frame reaching past the image's edges (16 pixels, drawn over
            // 24 × 150) repeated, padded and reflected.
            let unscaled: [(GradientSpread, ImageFilter, UInt32, Double, Double)] = [
                (.repeat, .nearest, 255, -3, 5), (.repeat, .bilinear, 200, 7, -40), (.pad, .bilinear, 255, -4, 20),
                (.reflect, .nearest, 120, 2, -70), (.repeat, .bicubic, 255, -1, 0),
                // Moved by fractions and sampled nearest: copied too
                // (`ImageShader.columnCopy`).
                (.repeat, .nearest, 255, -3.3, 5.7), (.pad, .nearest, 200, 4.61, -20.2), (.reflect, .nearest, 255, 0.45, -66.9),
            ]
            for (k, (spread, filter, alpha, tx, ty)) in unscaled.enumerated() {
                add(
                    "unscaled \(k)",
                    ImageShader(
                        pixels: pixels.baseAddress!, width: 16, height: 16, stride: 16,
                        inverse: Transform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty), filter: filter, spread: spread,
                        alpha: alpha))
            }
            for round in 0..<400 {
                let (name, draw) = shaders[round % shaders.count]
                let width = 1 + r.int(4), height = 1 + r.int(140)
                let x = r.int(w - width + 1), y = r.int(h - height + 1), top = y - r.int(80)
                func c() -> UInt8 { [0, 255, UInt8(r.int(256))][r.int(3)] }
                let coverage = (c(), c(), c())
                let bitmap = try Bitmap(width: w, height: h)
                for py in 0..<h { for px in 0..<w { bitmap[px, py] = Pixel(packed: randomPixel(&r)) } }
                let before = (0..<h).map { py in (0..<w).map { bitmap[$0, py].packed } }
                draw(bitmap, x, y, width, height, top, coverage, true)
                var same = true
                for py in 0..<h {
                    for px in 0..<w {
                        var expected = before[py][px]
                        let k = px - x
                        if py >= y && py < y + height && k >= 0 && k < width {
                            let cover = UInt32(k == 0 ? coverage.0 : k == width - 1 ? coverage.2 : coverage.1)
                            if cover != 0 {
                                let source = expectations[name]!(x, k, py, top)
                                expected = Self.solidPixel(expected, coverage: cover, color: source, mode: .normal)
                            }
                        }
                        if bitmap[px, py].packed != expected { same = false }
                    }
                }
                #expect(same, "round \(round), \(name): \(width) × \(height) at \(x), \(y) from \(top)")
                // Two calls, cut anywhere: the same bytes.
                let halves = try Bitmap(width: w, height: h)
                for py in 0..<h { for px in 0..<w { halves[px, py] = Pixel(packed: before[py][px]) } }
                let cut = r.int(height + 1)
                draw(halves, x, y, width, cut, top, coverage, true)
                draw(halves, x, y + cut, width, height - cut, top, coverage, true)
                #expect(halves.makeImage().pixels == bitmap.makeImage().pixels, "round \(round), \(name): cut at \(cut)")
                // A row at a time: within a few levels.
                let rows = try Bitmap(width: w, height: h)
                for py in 0..<h { for px in 0..<w { rows[px, py] = Pixel(packed: before[py][px]) } }
                draw(rows, x, y, width, height, top, coverage, false)
                guard name != "marker" else { continue }
                let far = zip(rows.makeImage().pixels, bitmap.makeImage().pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(far <= 4, "round \(round), \(name): \(far) levels from the rows")
                // An image drawn 1:1, or moved and sampled nearest, has no
                // rounding to differ by: its columns are its rows' pixels.
                if name.hasPrefix("unscaled") { #expect(far == 0, "round \(round), \(name): \(far) levels from the rows") }
            }
        }
    }
}

/// The area rasterizer's whole rows eight at a time (`strata_accumulate_area`
/// with AVX2) against the same rows one at a time: the same cells, bit for
/// bit, and the same bits, for edges vertical (rectangles, and what is folded
/// onto the left side), steep (one cell a row), under 1/128 px wide a row
/// across a cell border, slanted (two cells) and shallow (more), long and
/// short, from fractional and whole x, at fractional ends and against both
/// sides of the band.
@Suite struct AccumulateKernelTests {
    @Test func wholeRowsMatchTheRowsOneAtATime() {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 28)
        let width = 200, height = 90, stride = width + 2, words = (stride + 63) >> 6
        for round in 0..<600 {
            var edges: [(Float, Float, Float, Float, Float)] = []
            for _ in 0..<(1 + r.int(4)) {
                let y0 = Float(r.int(height * 64)) / 64, y1 = min(Float(height), y0 + Float(r.int(height * 64)) / 64)
                let slope = [Float(0), 0.005, 0.01, 0.3, 0.7, 1.5, 4, 20][r.int(8)] * (r.int(2) == 0 ? 1 : -1)
                let x0: Float =
                    switch r.int(4) {
                    case 0: Float(r.int(width + 1))
                    case 1: [0, Float(width)][r.int(2)]
                    default: Float(r.int(width * 64)) / 64
                    }
                let x1 = min(Float(width), max(0, x0 + (y1 - y0) * slope))
                edges.append((x0, y0, x1, y1, r.int(2) == 0 ? 1 : -1))
            }
            var results: [([UInt32], [UInt64])] = []
            for avx2: Int32 in [1, 0] {
                var cells = [Float](repeating: 0, count: stride * height)
                var bits = [UInt64](repeating: 0, count: words * height)
                cells.withUnsafeMutableBufferPointer { c in
                    bits.withUnsafeMutableBufferPointer { b in
                        for (x0, y0, x1, y1, dir) in edges {
                            strata_accumulate_area(
                                c.baseAddress!, b.baseAddress!, stride, words, height, x0, y0, x1, y1, dir, avx2)
                        }
                    }
                }
                results.append((cells.map(\.bitPattern), bits))
            }
            #expect(results[0].0 == results[1].0 && results[0].1 == results[1].1, "round \(round): \(edges)")
        }
    }
}

/// The area rasterizer's lines many at a time (`strata_accumulate_lines`,
/// sixteen in the lanes of vectors with AVX-512) against one call each
/// (`strata_accumulate_area`), in the same order: the same cells, bit for
/// bit, and the same bits. Batches of 1 to 40 lines (partial vectors
/// included), short lines within one row and one or two cells, lines
/// crossing into the next row, under 1/128 px wide across a cell border,
/// wide (three cells or more), vertical, on whole rows and cell borders, at
/// both sides of the band and its bottom, lines of three to sixteen rows
/// (their rows' pieces batched with the others') and longer ones (one call
/// each, between the pieces before and after them), and
/// level ones (y0 = y1, at the bottom too) mixed in among them; many land on
/// the same cells (the order counts). A row of cells and bits past the band
/// must stay untouched. (Without AVX-512 both sides are one call a line.)
@Suite struct AccumulateLinesTests {
    @Test func batchesMatchOneCallEach() {
        check(width: 24, height: 20, rounds: 800, lines: 40, seed: 52)
    }

    /// A tall band: lines of up to 300 rows, those over 256 (one call each)
    /// among those whose rows' pieces are batched, and over 256 pieces
    /// waiting at once (added before more are taken).
    @Test func tallBatchesMatchOneCallEach() {
        check(width: 6, height: 300, rounds: 150, lines: 60, seed: 53, reaches: [0.5, 2.5, 40, 250], tall: true)
    }

    /// A window of rows (`strata_accumulate_lines_rows`, a thread's band of
    /// a shape across several): the rows in it are the whole accumulation's
    /// rows, bit for bit, batched and one call a line (with and without
    /// AVX2), and no cell or bit outside it is written. Windows empty, of
    /// one row, at the top, at the bottom, inside and whole; lines that
    /// start above it, end below it, cross it, and tall ones of over 256 rows.
    @Test func windowsAreTheWholeAccumulationsRows() {
        check(width: 24, height: 20, rounds: 500, lines: 40, seed: 54, windows: true)
        check(width: 6, height: 300, rounds: 120, lines: 60, seed: 55, reaches: [0.5, 2.5, 40, 250], tall: true, windows: true)
    }

    private func check(
        width: Int, height: Int, rounds: Int, lines count: Int, seed: UInt64,
        reaches: [Float] = [Float(1) / 512, 0.1, 0.5, 1, 1.7, 2.5, 5, 9, 15.5, 19], tall: Bool = false,
        windows: Bool = false
    ) {
        var r = FuzzRandom(seed: seed)
        let stride = width + 2, words = (stride + 63) >> 6
        for round in 0..<rounds {
            var lines: [(Float, Float, Float, Float, Float)] = []
            for _ in 0..<(1 + r.int(count)) {
                var y0: Float =
                    switch r.int(4) {
                    case 0: Float(r.int(height))
                    default: Float(r.int(height * 256)) / 256
                    }
                let reach = reaches[r.int(reaches.count)]
                var y1 = min(Float(height), y0 + max(Float(1) / 1024, Float(r.int(1024)) / 1024 * reach))
                if tall && r.int(6) == 0 {
                    // From the top few rows to the bottom few: 250 to 300
                    // rows, most over 256.
                    y0 = Float(r.int(8 * 256)) / 256
                    y1 = Float(height) - Float(r.int(42 * 256)) / 256
                }
                guard y1 > y0 else { continue }
                let x0: Float =
                    switch r.int(5) {
                    case 0: Float(r.int(width + 1))
                    case 1: [0, Float(width)][r.int(2)]
                    default: Float(r.int(width * 256)) / 256
                    }
                let dx: Float = [0, 1 / 300, 0.004, 0.3, 0.9, 1.6, 4, 12][r.int(8)] * (r.int(2) == 0 ? 1 : -1)
                let x1 = min(Float(width), max(0, x0 + dx))
                lines.append((x0, y0, x1, y1, r.int(2) == 0 ? 1 : -1))
                if r.int(8) == 0 {
                    // A line that does not go down (two Doubles apart can
                    // become one Float), on a row, at the top or at the
                    // band's bottom, where its row would be past the last:
                    // it adds nothing.
                    let y = [y0, 0, Float(height), Float(r.int(height + 1))][r.int(4)]
                    lines.append((x0, y, x1, y, r.int(2) == 0 ? 1 : -1))
                }
            }
            if windows {
                checkWindow(lines, width: width, height: height, random: &r, round: round)
                continue
            }
            var results: [([UInt32], [UInt64])] = []
            for batched in [false, true] {
                // (One row more than the band: it must stay zero.)
                var cells = [Float](repeating: 0, count: stride * (height + 1))
                var bits = [UInt64](repeating: 0, count: words * (height + 1))
                cells.withUnsafeMutableBufferPointer { c in
                    bits.withUnsafeMutableBufferPointer { b in
                        if batched {
                            let x0 = lines.map(\.0), y0 = lines.map(\.1), x1 = lines.map(\.2), y1 = lines.map(\.3)
                            let dir = lines.map(\.4)
                            strata_accumulate_lines(
                                c.baseAddress!, b.baseAddress!, stride, words, height, x0, y0, x1, y1, dir, lines.count,
                                strata_kernel_level())
                        } else {
                            for (x0, y0, x1, y1, dir) in lines {
                                strata_accumulate_area(
                                    c.baseAddress!, b.baseAddress!, stride, words, height, x0, y0, x1, y1, dir,
                                    SolidBlitter.usesAVX2 ? 1 : 0)
                            }
                        }
                    }
                }
                // (−0 and +0 are one value here: a one-cell piece adds a
                // third value of 0 to its first cell.)
                results.append((cells.map { $0 == 0 ? 0 : $0.bitPattern }, bits))
            }
            #expect(results[0].0 == results[1].0 && results[0].1 == results[1].1, "round \(round): \(lines)")
            #expect(results[1].0[(stride * height)...].allSatisfy { $0 == 0 } && results[1].1[(words * height)...].allSatisfy { $0 == 0 })
        }
    }

    private func checkWindow(
        _ lines: [(Float, Float, Float, Float, Float)], width: Int, height: Int, random r: inout FuzzRandom, round: Int
    ) {
        let stride = width + 2, words = (stride + 63) >> 6
        let lo: Int, hi: Int
        switch r.int(6) {
        case 0: (lo, hi) = (0, height)
        case 1: (lo, hi) = (0, 1 + r.int(height))
        case 2: (lo, hi) = (r.int(height), height)
        case 3:
            let k = r.int(height)
            (lo, hi) = (k, k + (r.int(2) == 0 ? 0 : 1))
        default:
            let a = r.int(height + 1), b = r.int(height + 1)
            (lo, hi) = (min(a, b), max(a, b))
        }
        // kind 0: whole, one call a line; 1: batched in the window; 2, 3: one
        // call a line in the window, with AVX2 and without.
        var results: [([UInt32], [UInt64])] = []
        for kind in 0..<4 {
            var cells = [Float](repeating: 0, count: stride * (height + 1))
            var bits = [UInt64](repeating: 0, count: words * (height + 1))
            cells.withUnsafeMutableBufferPointer { c in
                bits.withUnsafeMutableBufferPointer { b in
                    switch kind {
                    case 1:
                        let x0 = lines.map(\.0), y0 = lines.map(\.1), x1 = lines.map(\.2), y1 = lines.map(\.3)
                        let dir = lines.map(\.4)
                        strata_accumulate_lines_rows(
                            c.baseAddress!, b.baseAddress!, stride, words, height, lo, hi, x0, y0, x1, y1, dir,
                            lines.count, strata_kernel_level())
                    default:
                        for (x0, y0, x1, y1, dir) in lines {
                            if kind == 0 {
                                strata_accumulate_area(
                                    c.baseAddress!, b.baseAddress!, stride, words, height, x0, y0, x1, y1, dir,
                                    SolidBlitter.usesAVX2 ? 1 : 0)
                            } else {
                                strata_accumulate_area_rows(
                                    c.baseAddress!, b.baseAddress!, stride, words, height, lo, hi, x0, y0, x1, y1, dir,
                                    kind == 2 && SolidBlitter.usesAVX2 ? 1 : 0)
                            }
                        }
                    }
                }
            }
            results.append((cells.map { $0 == 0 ? 0 : $0.bitPattern }, bits))
        }
        let whole = results[0]
        for kind in 1..<4 {
            let (cells, bits) = results[kind]
            let inCells = (stride * lo)..<(stride * hi), inBits = (words * lo)..<(words * hi)
            #expect(
                Array(cells[inCells]) == Array(whole.0[inCells]) && Array(bits[inBits]) == Array(whole.1[inBits]),
                "round \(round), kind \(kind), rows \(lo)..<\(hi): \(lines)")
            #expect(
                cells[..<inCells.lowerBound].allSatisfy { $0 == 0 } && cells[inCells.upperBound...].allSatisfy { $0 == 0 }
                    && bits[..<inBits.lowerBound].allSatisfy { $0 == 0 } && bits[inBits.upperBound...].allSatisfy { $0 == 0 },
                "round \(round), kind \(kind), rows \(lo)..<\(hi): written outside")
        }
    }
}

@Suite struct ShadedRectangleTests {
    /// A shaded rectangle with edges of their own coverage (`blitRect`: one
    /// coverage mask a rectangle with AVX2, three blends a row elsewhere) is
    /// each row's three parts blitted as spans, bit for bit: every width
    /// from 1 to 12 and the widest at once, partly transparent gradients over
    /// random pixels, edge coverages from 0 to 255, in three blend modes.
    @Test(arguments: [BlendMode.normal, .copy, .multiply])
    func rectanglesAreTheirRowsParts(_ mode: BlendMode) throws {
        var r = FuzzRandom(seed: 31)
        let gradient = Gradient(colors: [
            Color(red: 1, green: 0.2, blue: 0, alpha: 0.9), Color(red: 0, green: 0.5, blue: 1, alpha: 0.3),
            Color(red: 0.2, green: 1, blue: 0.4, alpha: 1),
        ])
        for width in Array(1...12) + [255, 256] {
            let left = UInt8(r.int(256)), middle = UInt8(r.int(256)), right = [0, 255, UInt8(r.int(256))][r.int(3)]
            var pictures: [[UInt32]] = []
            for whole in [true, false] {
                var seed = FuzzRandom(seed: UInt64(width))
                let canvas = makeCanvas(300, 6)
                for y in 0..<6 {
                    for x in 0..<300 {
                        let a = UInt8(128 + seed.int(128))
                        canvas.bitmap[x, y] = Pixel(
                            r: UInt8(seed.int(Int(a) + 1)), g: UInt8(seed.int(Int(a) + 1)), b: UInt8(seed.int(Int(a) + 1)), a: a)
                    }
                }
                canvas.blendMode = mode
                var made: ShaderBlitter<GradientShader>?
                let geometry: (Transform) -> GradientShader.Geometry = { _ in .linear(a: 1 / 40, b: 1 / 9, c: -0.2) }
                canvas.withGradientBlitter(gradient, alpha: 1, spread: .pad, ends: nil, { made = $0 }, geometry)
                var blitter = try #require(made)
                if whole {
                    blitter.blitRect(x: 20, y: 1, width: width, height: 4, left: left, middle: middle, right: right)
                } else {
                    for y in 1..<5 {
                        if width == 1 {
                            blitter.blitSpan(x: 20, y: y, count: 1, coverage: left)
                            continue
                        }
                        blitter.blitSpan(x: 20, y: y, count: 1, coverage: left)
                        if width > 2 { blitter.blitSpan(x: 21, y: y, count: width - 2, coverage: middle) }
                        blitter.blitSpan(x: 20 + width - 1, y: y, count: 1, coverage: right)
                    }
                }
                pictures.append((0..<6).flatMap { y in (0..<300).map { canvas.bitmap[$0, y].packed } })
            }
            #expect(pictures[0] == pictures[1], "width \(width) \(left) \(middle) \(right)")
        }
    }
}

@Suite struct AffinePatternKernelTests {
    /// A repeated pattern or a padded image under a rotation, skew or
    /// scale, sampled by the AVX2 kernel (`ImageShader.shade`), is the
    /// sampling loops' pixels (`shadeAffine`) bit for bit, and each pixel is
    /// the nearest texel or the bilinear mix of the four around its centre,
    /// wrapped or clamped; for images from 1 × 1 up, spans from 1 pixel to
    /// 256, coordinates near zero and far off, alpha or not.
    @Test(arguments: [ImageFilter.nearest, .bilinear], [GradientSpread.repeat, .pad])
    func rotatedPatternsAreTheLoopsPixels(_ filter: ImageFilter, _ spread: GradientSpread) {
        func wrapped(_ i: Int, _ n: Int) -> Int { spread == .pad ? min(n - 1, max(0, i)) : ((i % n) + n) % n }
        func reduced(_ u: Double, _ n: Int) -> Double {
            spread == .pad ? max(-4, min(Double(n) + 4, u)) : ImageShader.remainder(u, Double(n))
        }
        var r = FuzzRandom(seed: 90)
        var checked = 0
        for (w, h) in [(1, 1), (1, 7), (5, 1), (3, 4), (16, 16), (37, 23)] {
            let src = (0..<(w * h)).map { _ -> UInt32 in
                let a = UInt32(r.int(256))
                let c = { UInt32(r.int(Int(a) + 1)) }
                return a << 24 | c() << 16 | c() << 8 | c()
            }
            for round in 0..<12 {
                let angle = r.uniform() * 7 - 3.5
                let scale = [0.3, 1, 2.7][round % 3]
                var inverse = Transform(rotationAngle: angle).scaledBy(x: scale, y: scale * (0.5 + r.uniform()))
                inverse.c += r.uniform() - 0.5
                inverse.tx = [0, -3.5, 1e6 + 0.25, -7e9][round % 4] + r.uniform()
                inverse.ty = [0, 11.75, -2e6, 3e9][(round / 4) % 4] + r.uniform()
                let alpha: UInt32 = round % 5 == 0 ? 97 : 255
                src.withUnsafeBufferPointer { px in
                    let shader = ImageShader(
                        pixels: px.baseAddress!, width: w, height: h, stride: w, inverse: inverse,
                        filter: filter, spread: spread, alpha: alpha)
                    var fast = [UInt32](repeating: 0, count: 256), loop = fast
                    for (x, count) in [(-4, 30), (2, 1), (5, 8), (-20, 9), (0, 256), (13, 17), (7, 7)] {
                        let y = r.int(40) - 20
                        fast.withUnsafeMutableBufferPointer { shader.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
                        let m = shader.inverse
                        let px0 = Double(x) + 0.5, py = Double(y) + 0.5
                        let u = m.a * px0 + m.c * py + m.tx, v = m.b * px0 + m.d * py + m.ty
                        loop.withUnsafeMutableBufferPointer { shader.shadeAffine(u: u, v: v, count: count, into: $0.baseAddress!) }
                        #expect(Array(fast[0..<count]) == Array(loop[0..<count]), "\(w)×\(h) \(inverse) span \(x), \(y), \(count)")
                        // The first and last pixels against the formula.
                        for i in [0, count - 1] {
                            let su = reduced(u + Double(i) * m.a, w)
                            let sv = reduced(v + Double(i) * m.b, h)
                            func at(_ cx: Int, _ cy: Int) -> UInt32 { px[wrapped(cy, h) * w + wrapped(cx, w)] }
                            var expected: UInt32
                            if filter == .nearest {
                                expected = at(Int(su.rounded(.down)), Int(sv.rounded(.down)))
                            } else {
                                let fu = su - 0.5, fv = sv - 0.5
                                let x0 = fu.rounded(.down), y0 = fv.rounded(.down)
                                let wx = UInt32((fu - x0) * 256 + 0.5), wy = UInt32((fv - y0) * 256 + 0.5)
                                let cx = Int(x0), cy = Int(y0)
                                expected = ImageShader.mix(at(cx, cy), at(cx + 1, cy), at(cx, cy + 1), at(cx + 1, cy + 1), wx, wy)
                            }
                            if alpha != 255 { expected = scalePacked(expected, alpha) }
                            #expect(fast[i] == expected, "\(w)×\(h) \(inverse) pixel \(i) of span \(x), \(y), \(count)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 6 * 12 * 7 * 2)
    }
}
