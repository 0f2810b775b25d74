import CPixels
import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// Images and patterns whose sources are runs of one image row (nearest
/// samples moved along x only, or an image drawn 1:1) are blended straight
/// from the row (`ImageShader.shadeOver`), and the mask kernel stores eight
/// fully covered pixels as they are: both must leave the very bytes that
/// shading into a scratch and blending it does.
@Suite struct ImageShaderBlendTests {
    /// Coverage bytes in blocks of eight: none, all full, or mixed (the
    /// kernel's three cases), and a ragged tail.
    private static func mask(_ count: Int, _ r: inout FuzzRandom) -> [UInt8] {
        var m = [UInt8](repeating: 0, count: count)
        var i = 0
        while i < count {
            let kind = r.int(3)
            for j in i..<min(count, i + 8) {
                m[j] = kind == 0 ? 0 : (kind == 1 ? 255 : UInt8(r.int(256)))
            }
            i += 8
        }
        return m
    }

    @Test func maskKernelMatchesTheFormula() {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 77)
        var fullBlocks = 0
        for count in Array(1...40) + [64, 100, 255, 256] {
            for round in 0..<4 {
                let before = (0..<count).map { _ in randomPixel(&r) }
                // Opaque sources in some rounds (stored), transparent in one.
                let sources = (0..<count).map { _ -> UInt32 in
                    round == 0 ? randomPixel(&r) | 0xFF00_0000 : (round == 1 ? 0 : randomPixel(&r))
                }
                let m = Self.mask(count, &r)
                var got = before
                got.withUnsafeMutableBufferPointer { strata_source_over_mask_avx2($0.baseAddress!, sources, count, m) }
                for i in 0..<count {
                    let c = UInt32(m[i])
                    var want = before[i]
                    if c != 0 {
                        let s = c == 255 ? sources[i] : scalePacked(sources[i], c)
                        let keep = 255 - (s >> 24)
                        want = keep == 0 ? s : s &+ scalePacked(before[i], keep)
                    }
                    #expect(got[i] == want, "count \(count) round \(round) pixel \(i) coverage \(c)")
                }
                var i = 0
                while i + 8 <= count {
                    if m[i..<(i + 8)].allSatisfy({ $0 == 255 }) { fullBlocks += 1 }
                    i += 8
                }
            }
        }
        #expect(fullBlocks > 50)
    }

    /// Image-to-device maps (inverses) and filters: moved along x, scaled
    /// along y, far off, 1:1, bilinear, a NaN either way, past 2³¹, scaled
    /// along x; bilinear scaled along y, far down, and at a NaN row.
    static let placements: [(Transform, ImageFilter)] = [
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: -1.3, ty: 0.2), .nearest),
        (Transform(a: 1, b: 0, c: 0, d: 0.61, tx: 3.75, ty: -2.4), .nearest),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: -1_000_003.625, ty: 17.5), .nearest),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: -3), .nearest),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: -12, ty: 2), .bilinear),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0.5), .bilinear),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: .nan, ty: 0), .nearest),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: 0.25, ty: .nan), .nearest),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: 1e12 + 0.25, ty: 0), .nearest),
        (Transform(a: 2, b: 0, c: 0, d: 1, tx: 0.3, ty: 0), .nearest),
        (Transform(a: 1, b: 0, c: 0, d: 0.61, tx: 3.3, ty: -2.45), .bilinear),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: -7.8, ty: 1e9 + 0.3), .bilinear),
        (Transform(a: 1, b: 0, c: 0, d: 1, tx: 0.7, ty: .nan), .bilinear),
    ]

    /// `body` with a shader over random pixels of each size, under each
    /// placement, at full alpha and at 131.
    static func forEachShader(
        sizes: [(Int, Int)], spread: GradientSpread, _ r: inout FuzzRandom,
        _ body: (ImageShader, inout FuzzRandom) -> Void
    ) {
        for (w, h) in sizes {
            let src = (0..<(w * h)).map { _ in randomPixel(&r) }
            for (inverse, filter) in placements {
                for alpha: UInt32 in [255, 131] {
                    src.withUnsafeBufferPointer { px in
                        body(
                            ImageShader(
                                pixels: px.baseAddress!, width: w, height: h, stride: w, inverse: inverse, filter: filter,
                                spread: spread, alpha: alpha), &r)
                    }
                }
            }
        }
    }

    /// Every span `shadeOver` takes, it blends exactly as `shade` then the
    /// AVX2 blend; every span it declines, it leaves alone; and it takes
    /// the spans it is for (nearest, moved along x; 1:1; repeated, or
    /// inside a padded image).
    @Test(arguments: [GradientSpread.pad, .repeat, .reflect])
    func blendingFromTheRowIsShadingThenBlending(spread: GradientSpread) {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 78)
        var took = 0, declined = 0
        Self.forEachShader(sizes: [(7, 5), (40, 9), (1, 2), (3, 2), (8, 3), (16, 3), (17, 2), (32, 3), (33, 2)], spread: spread, &r) { shader, r in
            let (inverse, filter, w, h) = (shader.inverse, shader.filter, shader.width, shader.height)
            for (x, count) in [(-4, 30), (2, 1), (5, 8), (-20, 9), (0, 256), (13, 17), (1, 3)] {
                for y in [-3, 0, 2, 9] {
                    let before = (0..<(count + 16)).map { _ in randomPixel(&r) }
                    let m = Self.mask(count, &r)
                    var sources = [UInt32](repeating: 0, count: count)
                    sources.withUnsafeMutableBufferPointer {
                        shader.shade(x: x, y: y, count: count, into: $0.baseAddress!)
                    }
                    for coverage in [255, 90, -1] {
                        var direct = before, split = before
                        let drew = direct.withUnsafeMutableBufferPointer { d in
                            m.withUnsafeBufferPointer { mp in
                                shader.shadeOver(
                                    x: x, y: y, count: count, onto: d.baseAddress! + 8,
                                    coverage: UInt32(max(coverage, 0)), mask: coverage < 0 ? mp.baseAddress! : nil)
                            }
                        }
                        guard drew else {
                            #expect(direct == before, "declined yet drew: \(inverse) \(x), \(y), \(count)")
                            declined += 1
                            continue
                        }
                        took += 1
                        split.withUnsafeMutableBufferPointer { s in
                            if coverage < 0 {
                                strata_source_over_mask_avx2(s.baseAddress! + 8, sources, count, m)
                            } else {
                                strata_source_over_avx2(s.baseAddress! + 8, sources, count, UInt32(coverage))
                            }
                        }
                        #expect(
                            direct == split,
                            "\(spread) \(inverse) \(filter) alpha \(shader.alpha) \(w)×\(h): span \(x), \(y), \(count) coverage \(coverage)")
                    }
                }
            }
        }
        // What it is for, it takes: a repeated pattern wide enough, or a
        // span inside a padded one; a reflection or an alpha never.
        switch spread {
        case .reflect: #expect(took == 0)
        case .repeat, .pad: #expect(took > 100)
        }
        #expect(declined > 100)
    }

    /// A rectangle's rows taken all at once (`shadeRectRows`, for
    /// `ShaderBlitter.blitRectRows`) leave the bytes that shading each row
    /// and blending it through its group's coverage leave (its first,
    /// middle and last pixels' coverages; one coverage where they are
    /// alike), nothing outside the rectangle touched: images narrower than
    /// a step and wider, rows inside them, wrapping and past their edges,
    /// moved by whole pixels or not, sampled nearest or bilinearly, rows at
    /// NaN; and the kernels decline, drawing nothing, an alpha, a
    /// reflection, rows scaled along x and rows over 256 pixels.
    @Test(arguments: [GradientSpread.pad, .repeat, .reflect])
    func rectangleRowsAtOnceAreEachRowShadedThenBlended(spread: GradientSpread) {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 79)
        var took = 0, declined = 0
        let sizes = [(1, 2), (3, 2), (7, 5), (15, 3), (16, 3), (17, 2), (33, 2), (40, 9), (300, 2)]
        let groups: [(Int, Int, Int)] = [(1, 6, 1), (0, 3, 0), (2, 0, 3), (0, 0, 1)]
        let covers: [RectRowCovers] = [
            ((90, 255, 30), (255, 255, 255), (12, 200, 12)), ((40, 40, 40), (0, 0, 0), (255, 7, 255)),
        ]
        Self.forEachShader(sizes: sizes, spread: spread, &r) { shader, r in
            for (x, width) in [(-4, 30), (2, 1), (5, 2), (-20, 9), (0, 256), (13, 17), (1, 3), (3, 257)] {
                for y in [-3, 2, 9] {
                    for rows in groups {
                        for cover in covers {
                            let height = rows.0 + rows.1 + rows.2
                            let stride = width + 24
                            let before = (0..<(stride * height)).map { _ in randomPixel(&r) }
                            var direct = before, split = before
                            let drew = direct.withUnsafeMutableBufferPointer { d in
                                shader.shadeRectRows(
                                    pixels: d.baseAddress! + 8, pixelStride: stride, width: width, rows: rows, covers: cover,
                                    x: x, y: y)
                            }
                            guard drew >= 0 else {
                                #expect(direct == before, "declined yet drew: \(shader.inverse) \(x), \(y), \(width)")
                                declined += 1
                                continue
                            }
                            took += 1
                            #expect(drew == height)
                            var sources = [UInt32](repeating: 0, count: width)
                            for row in 0..<height {
                                let c = row < rows.0 ? cover.0 : row < rows.0 + rows.1 ? cover.1 : cover.2
                                sources.withUnsafeMutableBufferPointer {
                                    shader.shade(x: x, y: y + row, count: width, into: $0.baseAddress!)
                                }
                                var m = [UInt8](repeating: c.1, count: width)
                                m[0] = c.0
                                m[width - 1] = width == 1 ? c.0 : c.2
                                split.withUnsafeMutableBufferPointer { s in
                                    let d = s.baseAddress! + 8 + row * stride
                                    if m.allSatisfy({ $0 == m[0] }) {
                                        if m[0] != 0 { strata_source_over_avx2(d, sources, width, UInt32(m[0])) }
                                    } else {
                                        strata_source_over_mask_avx2(d, sources, width, m)
                                    }
                                }
                            }
                            #expect(
                                direct == split,
                                "\(spread) \(shader.inverse) \(shader.filter) \(shader.width)×\(shader.height): \(x), \(y), \(width) rows \(rows)"
                            )
                        }
                    }
                }
            }
        }
        switch spread {
        case .reflect: #expect(took == 0)
        case .repeat, .pad: #expect(took > 500)
        }
        #expect(declined > 500)
    }

    /// A row the sweep shades as it goes (`rowPaint`, `STRATA_ROW_IMAGE`)
    /// names the image row and column whose pixels, repeated, are `shade`'s
    /// sources for every pixel of the span; it is given only for a
    /// repeated pattern at full alpha whose samples are the image's own
    /// (nearest, moved along x; or 1:1), and never for a row at NaN.
    @Test(arguments: [GradientSpread.pad, .repeat, .reflect])
    func aPatternsSweptRowIsItsShadedSources(spread: GradientSpread) {
        var r = FuzzRandom(seed: 79)
        var took = 0, declined = 0
        var g = [UInt8](repeating: 0, count: 192)
        Self.forEachShader(sizes: [(7, 5), (40, 9), (33, 2)], spread: spread, &r) { shader, _ in
            let (inverse, filter, w, h) = (shader.inverse, shader.filter, shader.width, shader.height)
            for (x, count) in [(-4, 30), (2, 1), (5, 8), (-20, 9), (0, 7), (13, 17), (-300, 40)] {
                for y in [-3, 0, 2, 9] {
                    var paint = strata_row_paint()
                    guard shader.rowPaint(x: x, y: y, count: count, into: &paint, parameters: &g) else {
                        declined += 1
                        continue
                    }
                    took += 1
                    var sources = [UInt32](repeating: 0, count: count)
                    sources.withUnsafeMutableBufferPointer {
                        shader.shade(x: x, y: y, count: count, into: $0.baseAddress!)
                    }
                    let period = Int(paint.du), start = Int(paint.u0)
                    #expect(paint.kind == STRATA_ROW_IMAGE && period == w && (0..<period).contains(start))
                    let row = (0..<count).map { paint.table[(start + $0) % period] }
                    #expect(row == sources, "\(inverse) \(filter) \(w)×\(h): span \(x), \(y), \(count)")
                }
            }
        }
        switch spread {
        case .repeat: #expect(took > 100)
        case .pad, .reflect: #expect(took == 0)
        }
        #expect(declined > 100)
    }

    /// The rows of a band swept and blended many to a call by `sweep`
    /// (cells, cell stride, bits, words, width, rows, pixels, pixel stride,
    /// even-odd, image, its width and height, the inverse map, x, y; the
    /// rows swept) leave the bytes that shading each row (`shade`) and
    /// blending it through its coverage bytes leave, for images from one
    /// pixel to wider than the row (rows that wrap every pixel, once, or
    /// never), opaque, translucent and transparent pixels, the maps
    /// `map` makes, and both fill rules, the image repeated or padded
    /// (`spread`). Returns the bands drawn.
    static func checkSweptRows(
        seed: UInt64, filter: ImageFilter, spread: GradientSpread = .repeat, map: (inout FuzzRandom, Int) -> Transform,
        sweep: (
            UnsafeMutablePointer<Float>, Int, UnsafeMutablePointer<UInt64>, Int, Int, Int, UnsafeMutablePointer<UInt32>,
            Int, Int32, UnsafePointer<UInt32>, Int, Int, Transform, Int, Int
        ) -> Int
    ) -> (rows: Int, drawn: Int) {
        var r = FuzzRandom(seed: seed)
        var rowsChecked = 0, changed = 0
        let sizes = [(1, 1), (1, 3), (3, 2), (8, 1), (9, 4), (31, 5), (32, 3), (33, 7), (100, 6), (600, 2)]
        for trial in 0..<240 {
            let (w, h) = sizes[trial % sizes.count]
            var image = [UInt32](repeating: 0, count: w * h + 3)
            for k in 0..<(w * h) {
                let al = [0, 255, UInt32(r.int(256))][r.int(3)]
                image[k] = al << 24 | UInt32(r.int(Int(al) + 1)) << 16 | UInt32(r.int(Int(al) + 1)) << 8 | UInt32(r.int(Int(al) + 1))
            }
            let inverse = map(&r, trial)
            let (width, rows) = ([1, 7, 8, 9, 17, 64, 100, 257][r.int(8)], 1 + r.int(6))
            let (x, y) = (r.int(400) - 200, r.int(400) - 200)
            let evenOdd = trial % 2 == 1
            let words = (width + 2 + 63) >> 6, stride = words * 64
            var cells = [Float](repeating: 0, count: stride * rows)
            var bits = [UInt64](repeating: 0, count: words * rows)
            cells.withUnsafeMutableBufferPointer { c in
                bits.withUnsafeMutableBufferPointer { b in
                    for row in 0..<rows {
                        for e in 0..<(1 + r.int(5)) {
                            let xa = Float(r.uniform() * Double(width + 1)), xb = Float(r.uniform() * Double(width + 1))
                            let cover = Float(r.uniform() * 2 - 1) * (e % 2 == 0 ? 1 : -1)
                            addEdgeArea(c.baseAddress! + row * stride, b.baseAddress! + row * words, min(xa, xb), max(xa, xb), cover)
                        }
                    }
                }
            }
            let before = (0..<(width + 8) * rows).map { _ in randomPixel(&r) }
            var fused = before, split = before
            var cellsA = cells, bitsA = bits, cellsB = cells, bitsB = bits
            image.withUnsafeBufferPointer { px in
                let shader = ImageShader(
                    pixels: px.baseAddress!, width: w, height: h, stride: w, inverse: inverse, filter: filter,
                    spread: spread, alpha: 255)
                let swept = sweep(
                    &cellsA, stride, &bitsA, words, width, rows, &fused, width + 8, evenOdd ? 1 : 0, px.baseAddress!, w, h,
                    inverse, x, y)
                #expect(swept == rows, "\(inverse)")
                var bytes = [UInt8](repeating: 0, count: width + 8)
                var runs = [Int](repeating: 0, count: 64)
                var sources = [UInt32](repeating: 0, count: width)
                for row in 0..<rows {
                    // (The coverage kernel writes only its runs' bytes.)
                    bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                    shader.shade(x: x, y: y + row, count: width, into: &sources)
                    cellsB.withUnsafeMutableBufferPointer { c in
                        bitsB.withUnsafeMutableBufferPointer { b in
                            _ = strata_sweep_coverage_avx2(
                                c.baseAddress! + row * stride, b.baseAddress! + row * words, words, width, evenOdd ? 1 : 0,
                                &bytes, &runs, 32)
                        }
                    }
                    split.withUnsafeMutableBufferPointer { s in
                        strata_source_over_mask_avx2(s.baseAddress! + row * (width + 8), sources, width, bytes)
                    }
                }
            }
            for row in 0..<rows {
                let at = row * (width + 8)
                #expect(
                    fused[at..<(at + width)] == split[at..<(at + width)],
                    "\(w)×\(h) \(inverse) \(filter): row \(row) of \(width) at \(x), \(y)")
                #expect(fused[(at + width)..<(at + width + 8)] == before[(at + width)..<(at + width + 8)])
            }
            #expect(cellsA.allSatisfy { $0 == 0 } && bitsA.allSatisfy { $0 == 0 })
            rowsChecked += rows
            if fused != before { changed += 1 }
        }
        return (rowsChecked, changed)
    }

    /// A repeated pattern sampled bilinearly and moved along x only, its
    /// rows swept and blended many to a call
    /// (`strata_sweep_bilinear_rows_avx2`): every weight between columns
    /// and rows, rows scaled, flipped and moved down.
    @Test func bilinearPatternRowsSweptAreShadedThenBlended() {
        guard SolidBlitter.usesAVX2 else { return }
        let (rows, drawn) = Self.checkSweptRows(
            seed: 80, filter: .bilinear,
            map: { r, trial in
                Transform(
                    a: 1, b: 0, c: 0, d: [1.0, -1, 0.37, 2.5, 0][trial % 5], tx: r.uniform() * 2000 - 1000,
                    ty: r.uniform() * 200 - 100)
            },
            sweep: { c, cs, b, words, width, rows, px, ps, eo, image, w, h, m, x, y in
                strata_sweep_bilinear_rows_avx2(c, cs, b, words, width, rows, px, ps, eo, image, w, w, h, m.d, m.tx, m.ty, x, y)
            })
        #expect(rows > 600)
        #expect(drawn > 200, "\(drawn) of 240 bands drawn")
    }

    /// A repeated pattern at any angle, sampled nearest or bilinearly, its
    /// rows swept and blended many to a call
    /// (`strata_sweep_affine_rows_avx2`): turned, scaled, sheared and
    /// flipped maps, far from the image and near it.
    @Test(arguments: [ImageFilter.nearest, .bilinear])
    func turnedPatternRowsSweptAreShadedThenBlended(filter: ImageFilter) {
        guard SolidBlitter.usesAVX2 else { return }
        let (rows, drawn) = Self.checkSweptRows(
            seed: filter == .nearest ? 81 : 82, filter: filter,
            map: { r, trial in
                let angle = r.uniform() * 6.3, scale = [1.0, 0.3, 2.7, 0.05][trial % 4]
                let shear = trial % 3 == 0 ? r.uniform() - 0.5 : 0
                let far = trial % 5 == 0 ? 1e6 : 300.0
                return Transform(
                    a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle) + shear,
                    d: scale * cos(angle) * (trial % 7 == 0 ? -1 : 1), tx: (r.uniform() - 0.5) * far,
                    ty: (r.uniform() - 0.5) * far)
            },
            sweep: { c, cs, b, words, width, rows, px, ps, eo, image, w, h, m, x, y in
                let map = [m.a, m.b, m.c, m.d, m.tx, m.ty]
                return strata_sweep_affine_rows_avx2(
                    c, cs, b, words, width, rows, px, ps, eo, image, w, w, h, map, filter == .bilinear ? 1 : 0, 0, x, y)
            })
        #expect(rows > 600)
        #expect(drawn > 200, "\(drawn) of 240 bands drawn")
    }

    /// `ImageShader.sweepShadedRows` takes a turned repeated pattern's rows
    /// through the affine kernel however narrow the image (one pixel to
    /// narrower than the band, each row wrapping every few pixels) and
    /// leaves the bytes of shading and blending each row: the band is not
    /// handed back to the coverage bytes' path (`checkSweptRows` expects
    /// every row swept).
    @Test(arguments: [ImageFilter.nearest, .bilinear])
    func narrowTurnedPatternsAreSweptManyRowsToACall(filter: ImageFilter) {
        guard SolidBlitter.usesAVX2 else { return }
        let (rows, drawn) = Self.checkSweptRows(
            seed: filter == .nearest ? 83 : 84, filter: filter,
            map: { r, trial in
                let angle = 0.1 + r.uniform() * 6, scale = [1.0, 0.5, 2.0][trial % 3]
                return Transform(
                    a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                    tx: (r.uniform() - 0.5) * 300, ty: (r.uniform() - 0.5) * 300)
            },
            sweep: { c, cs, b, words, width, rows, px, ps, eo, image, w, h, m, x, y in
                let shader = ImageShader(
                    pixels: image, width: w, height: h, stride: w, inverse: m, filter: filter, spread: .repeat,
                    alpha: 255)
                return shader.sweepShadedRows(
                    c, cellStride: cs, b, wordsPerRow: words, width: width, rows: rows, pixels: px, pixelStride: ps,
                    x: x, y: y, evenOdd: eo != 0)
            })
        #expect(rows > 600)
        #expect(drawn > 200, "\(drawn) of 240 bands drawn")
    }

    /// An image drawn turned, scaled or sheared (`draw(_:in:)`: padded, its
    /// edge pixels repeated past it) has its rows swept many to a call
    /// through the affine kernel (`sweepShadedRows`), with the bytes of
    /// shading and blending each row, nearest and bilinear: maps from far
    /// outside the image to inside it, scaled along x only (the bilinear
    /// `shade` takes `strata_scaled_span_avx2` there), turned and flipped.
    /// Moved along x only, a padded image is left to `shade`'s own loops
    /// (−1).
    @Test(arguments: [ImageFilter.nearest, .bilinear])
    func turnedImageRowsSweptAreShadedThenBlended(filter: ImageFilter) {
        guard SolidBlitter.usesAVX2 else { return }
        let (rows, drawn) = Self.checkSweptRows(
            seed: filter == .nearest ? 85 : 86, filter: filter, spread: .pad,
            map: { r, trial in
                // (Unturned, never at scale 1: moved along x only, the
                // image is not the affine kernel's, below.)
                let angle = trial % 4 == 0 ? 0 : r.uniform() * 6.3
                let scale = [1.0, 0.3, 2.7, 0.05, 1.7][trial % 5] + (trial % 4 == 0 && trial % 5 == 0 ? 0.5 : 0)
                let far = trial % 6 == 0 ? 1e5 : 40.0
                return Transform(
                    a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle),
                    d: scale * cos(angle) * (trial % 7 == 0 ? -1 : 1), tx: (r.uniform() - 0.5) * far,
                    ty: (r.uniform() - 0.5) * far)
            },
            sweep: { c, cs, b, words, width, rows, px, ps, eo, image, w, h, m, x, y in
                let shader = ImageShader(
                    pixels: image, width: w, height: h, stride: w, inverse: m, filter: filter, spread: .pad, alpha: 255)
                return shader.sweepShadedRows(
                    c, cellStride: cs, b, wordsPerRow: words, width: width, rows: rows, pixels: px, pixelStride: ps,
                    x: x, y: y, evenOdd: eo != 0)
            })
        #expect(rows > 600)
        // (Far from a padded image, a row reads one edge pixel, which may be
        // transparent: fewer bands change than with a repeat.)
        #expect(drawn > 120, "\(drawn) of 240 bands drawn")
        let image: [UInt32] = [0xFF00_00FF, 0xFF00_FF00, 0xFFFF_0000, 0x8080_8080]
        var (cells, bits) = Self.coveredRows()
        var pixels = [UInt32](repeating: 0, count: 3 * 16)
        image.withUnsafeBufferPointer { px in
            let moved = ImageShader(
                pixels: px.baseAddress!, width: 2, height: 2, stride: 2,
                inverse: Transform(a: 1, b: 0, c: 0, d: 1, tx: 0.3, ty: 0.6), filter: filter, spread: .pad, alpha: 255)
            #expect(
                moved.sweepShadedRows(
                    &cells, cellStride: 64, &bits, wordsPerRow: 1, width: 10, rows: 3, pixels: &pixels, pixelStride: 16,
                    x: 0, y: 0, evenOdd: false) == -1)
        }
        #expect(pixels.allSatisfy { $0 == 0 })
    }

    /// The turned rows' sweep declines an empty image and stops at a row
    /// whose coordinates are not numbers or lie 2⁴⁰ or more from the
    /// image, drawing nothing there.
    @Test func turnedPatternRowsStopWhereTheKernelCannotReach() {
        guard SolidBlitter.usesAVX2 else { return }
        let image: [UInt32] = [0xFF00_00FF, 0xFF00_FF00, 0xFFFF_0000, 0x8080_8080]
        let (cells, bits) = Self.coveredRows()
        var pixels = [UInt32](repeating: 0, count: 3 * 16)
        image.withUnsafeBufferPointer { px in
            var c = cells, b = bits
            func sweep(_ m: [Double], width: Int = 2, height: Int = 2) -> Int {
                strata_sweep_affine_rows_avx2(&c, 64, &b, 1, 10, 3, &pixels, 16, 0, px.baseAddress!, 2, width, height, m, 1, 0, 0, 0)
            }
            #expect(sweep([0.6, 0.8, -0.8, 0.6, 0, 0], width: 0) == -1)
            #expect(sweep([0.6, 0.8, -0.8, 0.6, .nan, 0]) == 0)
            #expect(sweep([0.6, 0.8, -0.8, .infinity, 0, 0]) == 0)
            #expect(sweep([0.6, 0.8, -0.8, 0.6, 0x1p40, 0]) == 0)
            // Row 1's v reaches 2⁴⁰ (d = 2⁴⁰ · 2/3: row 0's center at 0.5 is
            // short of it, row 1's at 1.5 is past): one row.
            #expect(sweep([0.6, 0, 0, 0x1p40 * 2 / 3, 0, 0]) == 1)
            #expect(pixels[16..<48].allSatisfy { $0 == 0 })
        }
        #expect(pixels[0..<10].allSatisfy { $0 != 0 })
    }

    /// Three rows of cells (64 a row, one word of bits each) covered from
    /// their first pixel on.
    static func coveredRows() -> ([Float], [UInt64]) {
        var cells = [Float](repeating: 0, count: 64 * 3), bits = [UInt64](repeating: 0, count: 3)
        cells.withUnsafeMutableBufferPointer { c in
            bits.withUnsafeMutableBufferPointer { b in
                for row in 0..<3 { addEdgeArea(c.baseAddress! + row * 64, b.baseAddress! + row, 0, 0, 1) }
            }
        }
        return (cells, bits)
    }

    /// The bilinear rows' sweep declines what it cannot place (a first
    /// column past 2³¹, an empty image) and stops at a row whose
    /// coordinate is not a number, drawing nothing there.
    @Test func bilinearPatternRowsRefuseWhatTheyCannotPlace() {
        guard SolidBlitter.usesAVX2 else { return }
        let image: [UInt32] = [0xFF00_00FF, 0xFF00_FF00, 0xFFFF_0000, 0x8080_8080]
        let words = 1
        let (cells, bits) = Self.coveredRows()
        var pixels = [UInt32](repeating: 0, count: 3 * 16)
        image.withUnsafeBufferPointer { px in
            var c = cells, b = bits
            #expect(strata_sweep_bilinear_rows_avx2(&c, 64, &b, words, 10, 3, &pixels, 16, 0, px.baseAddress!, 2, 2, 2, 1, 0x1p32, 0, 0, 0) == -1)
            #expect(strata_sweep_bilinear_rows_avx2(&c, 64, &b, words, 10, 3, &pixels, 16, 0, px.baseAddress!, 2, 2, 2, 1, .nan, 0, 0, 0) == -1)
            #expect(strata_sweep_bilinear_rows_avx2(&c, 64, &b, words, 10, 3, &pixels, 16, 0, px.baseAddress!, 0, 0, 2, 1, 0, 0, 0, 0) == -1)
            #expect(pixels.allSatisfy { $0 == 0 })
            // A scale down the rows of zero and a NaN move: the first row's
            // coordinate is not a number.
            #expect(strata_sweep_bilinear_rows_avx2(&c, 64, &b, words, 10, 3, &pixels, 16, 0, px.baseAddress!, 2, 2, 2, 1, 0.3, .nan, 0, 0) == 0)
            #expect(strata_sweep_bilinear_rows_avx2(&c, 64, &b, words, 10, 3, &pixels, 16, 0, px.baseAddress!, 2, 2, 2, .infinity, 0.3, 0, 0, 0) == 0)
            #expect(pixels.allSatisfy { $0 == 0 })
            // Finite: all three rows, every pixel covered drawn.
            #expect(strata_sweep_bilinear_rows_avx2(&c, 64, &b, words, 10, 3, &pixels, 16, 0, px.baseAddress!, 2, 2, 2, 1, 0.3, 0.5, 0, 0) == 3)
            #expect((0..<3).allSatisfy { row in pixels[(row * 16)..<(row * 16 + 10)].allSatisfy { $0 != 0 } })
        }
    }

    /// An image drawn 1:1 with a span inside it, and a wide repeated
    /// pattern moved along x: taken, whatever the span.
    @Test func takesTheSpansItIsFor() {
        guard SolidBlitter.usesAVX2 else { return }
        let (w, h) = (40, 4)
        let src = (0..<(w * h)).map { UInt32($0) | 0xFF00_0000 }
        src.withUnsafeBufferPointer { px in
            let oneToOne = ImageShader(
                pixels: px.baseAddress!, width: w, height: h, stride: w,
                inverse: Transform(a: 1, b: 0, c: 0, d: 1, tx: -10, ty: 0), filter: .bilinear, spread: .pad, alpha: 255)
            let pattern = ImageShader(
                pixels: px.baseAddress!, width: w, height: h, stride: w,
                inverse: Transform(a: 1, b: 0, c: 0, d: 1, tx: -10.4, ty: 0.7), filter: .nearest, spread: .repeat,
                alpha: 255)
            var d = [UInt32](repeating: 0, count: 300)
            d.withUnsafeMutableBufferPointer { p in
                #expect(oneToOne.shadeOver(x: 12, y: 1, count: 30, onto: p.baseAddress!, coverage: 255, mask: nil))
                #expect(!oneToOne.shadeOver(x: 5, y: 1, count: 30, onto: p.baseAddress!, coverage: 255, mask: nil))
                p.update(repeating: 0)
                #expect(pattern.shadeOver(x: -37, y: 9, count: 300, onto: p.baseAddress!, coverage: 255, mask: nil))
            }
            // Pixel (0, 9) samples column ⌊0.5 − 10.4⌋ mod 40 = 30 of row
            // ⌊9.5 + 0.7⌋ mod 4 = 2 (opaque, over nothing: itself).
            #expect(d[37] == src[2 * 40 + 30])
            #expect(d[36] == src[2 * 40 + 29])
        }
    }
}

/// A shaded row is swept into runs split at sixteen or more uncovered
/// pixels (`strata_sweep_coverage_avx2`), at most `ShaderBlitter.runCapacity`
/// of them: shapes far apart in one path, near each other, and more of them
/// in a row than there are runs give the pixels of each shape drawn alone
/// (they share no pixel; within a level, the running sum's rounding), for a
/// gradient that blends as it shades, one that shades first, and a pattern
/// blended from its rows.
@Suite struct ShadedRunTests {
    static let pattern: Image = {
        var r = FuzzRandom(seed: 5)
        let bytes = (0..<(48 * 8)).flatMap { _ -> [UInt8] in
            let a = UInt8(r.int(256))
            return [UInt8(r.int(Int(a) + 1)), UInt8(r.int(Int(a) + 1)), UInt8(r.int(Int(a) + 1)), a]
        }
        return try! Image(width: 48, height: 8, premultipliedPixels: bytes)
    }()

    static let paints: [Paint] = [
        .linearGradient(
            Gradient(colors: [.red, Color(red: 0, green: 1, blue: 0, alpha: 0.5), .blue]), start: Point(x: 3, y: 0),
            end: Point(x: 1500, y: 40)),
        .radialGradient(
            Gradient(colors: [.red, .blue]), startCenter: Point(x: 700, y: 20), startRadius: 0,
            endCenter: Point(x: 720, y: 25), endRadius: 800),
        .pattern(pattern, transform: Transform(translationX: 5.3, y: 1.6), spread: .repeat),
    ]

    // (A run ends at its last block's end, up to seven pixels past a
    // shape: gaps of 30 and more always split, 5 never.)
    @Test(arguments: [(9, 30), (9, 5), (3, 26), (14, 40)])
    func runsAreTheShapesDrawnAlone(size: Int, gap: Int) {
        let count = 50  // more than the runs a row reports
        let width = count * (size + gap) + 30
        for (k, paint) in Self.paints.enumerated() {
            var path = Path()
            var shapes: [Path] = []
            for i in 0..<count {
                // Triangles and quadrilaterals at fractional places: edges of
                // their own coverage, and inside pixels fully covered.
                let x = 10.3 + Double(i * (size + gap)), y = 4.6 + Double(i % 3)
                func add(_ p: inout Path) {
                    if i % 2 == 0 {
                        // (A quadrilateral, not a rectangle: a rectangle
                        // drawn alone takes the rectangle path.)
                        let s = Double(size)
                        p.move(to: Point(x: x, y: y))
                        p.addLine(to: Point(x: x + s, y: y + 0.5))
                        p.addLine(to: Point(x: x + s, y: y + s))
                        p.addLine(to: Point(x: x, y: y + s))
                        p.closeSubpath()
                    } else {
                        p.move(to: Point(x: x, y: y))
                        p.addLine(to: Point(x: x + Double(size), y: y + 2))
                        p.addLine(to: Point(x: x + 1, y: y + Double(size)))
                        p.closeSubpath()
                    }
                }
                var one = Path()
                add(&one)
                add(&path)
                shapes.append(one)
            }
            let together = makeCanvas(width, 30), apart = makeCanvas(width, 30)
            together.interpolationQuality = .none
            apart.interpolationQuality = .none
            together.fill(path, with: paint)
            for one in shapes { apart.fill(one, with: paint) }
            // Within a level: the row's running sum carries the rounding of
            // the shapes to its left (a few edge pixels a level apart), where
            // a run lost or run on would be whole shapes apart. (The linear
            // gradient steps each pixel's entry from its run's first in
            // fixed point: an entry apart, a few levels.)
            var worst = 0, differing = 0
            for y in 0..<30 {
                for x in 0..<width {
                    let a = together.bitmap[x, y], b = apart.bitmap[x, y]
                    let d = max(
                        abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)),
                        abs(Int(a.a) - Int(b.a)))
                    worst = max(worst, d)
                    if d != 0 { differing += 1 }
                }
            }
            #expect(worst <= (k == 0 ? 4 : 1), "paint \(k) size \(size) gap \(gap)")
            #expect(differing < count * size, "paint \(k) size \(size) gap \(gap)")
            // Something was drawn at the far end too.
            let last = 10 + (count - 1) * (size + gap) + 1
            #expect(together.bitmap[last, 6 + (count - 1) % 3].a > 0 || k == 2, "paint \(k)")
        }
    }
}

/// `strata_scaled_span_avx2` (a padded image scaled along a row, each
/// column mixed between the rows once) gives the affine kernel's pixels.
@Suite struct ScaledSpanKernelTests {
    @Test func scaledSpansAreTheAffineKernelsSpans() {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 31)
        var taken = 0
        for trial in 0..<3000 {
            let width = 1 + r.int(60), height = 1 + r.int(40)
            let stride = width + r.int(3)
            let pixels = (0..<(stride * height)).map { _ in randomPixel(&r) }
            // Scales from a 16th (a strong reduction the kernel declines) to
            // 40 times, either way along x; the span starting before, on and
            // past the image; rows above, on, between and below its rows.
            let scale = [1.0 / 16, 0.3, 0.5, 0.999, 1, 1.7, 3, 7.5, 40][r.int(9)]
            let du = (r.int(2) == 0 ? 1 : -1) / scale
            let u0 = Double(r.int(Int(Double(width) * 1.6) + 20)) - 10 + r.uniform()
            let v0 = [-3.7, -0.2, 0.5, 0.73, Double(height) / 2 + 0.31, Double(height) - 0.5, Double(height) + 2.2][r.int(7)]
            let count = [1, 2, 7, 8, 9, 15, 16, 17, 63, 200, 1200][r.int(11)]
            var expected = [UInt32](repeating: 0, count: count), got = [UInt32](repeating: 7, count: count)
            strata_affine_span_avx2(pixels, stride, width, height, u0, v0, du, 0, count, &expected, 1, 1)
            let done = strata_scaled_span_avx2(pixels, stride, width, height, u0, v0, du, count, &got)
            if done != 0 {
                taken += 1
                let first = got.indices.first { got[$0] != expected[$0] }
                #expect(first == nil, "trial \(trial): \(width)×\(height) u0 \(u0) du \(du) v0 \(v0) count \(count)")
            } else {
                // Declined: nothing written, and only for a reduction (up to
                // a pixel a column, a span reads at most count + 2 columns).
                #expect(got.allSatisfy { $0 == 7 })
                #expect(abs(du) > 1)
            }
        }
        #expect(taken > 2000)
    }
}
