import CPixels
import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// The gradient kernels that blend as they shade (`Shader.shadeOver`)
/// against shading into a buffer and blending it, and the linear
/// gradient's fixed-point span against its formula.
@Suite struct GradientSpanKernelTests {
    /// A gradient with translucent stops, so that blending shows.
    static let gradient = Gradient(stops: [
        .init(color: Color(red: 0.9, green: 0.1, blue: 0.2, alpha: 0.8), location: 0),
        .init(color: Color(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.35), location: 0.5),
        .init(color: Color(red: 0.2, green: 0.3, blue: 1, alpha: 1), location: 1),
    ])

    static func shader(_ geometry: GradientShader.Geometry) -> GradientShader {
        GradientShader(
            table: LookupTable(gradient, alpha: 0.9), geometry: geometry, spread: .pad, before: true, after: true)
    }

    /// Linear gradients in device space: steep, shallow, flat along the
    /// row, backwards, and all but flat.
    static let linears: [GradientShader.Geometry] = [
        .linear(a: 0.013, b: 0.011, c: -0.4), .linear(a: 0.9, b: -0.2, c: -30), .linear(a: 0, b: 0.05, c: 0.2),
        .linear(a: -0.0042, b: 0.001, c: 1.1), .linear(a: 1e-7, b: 0, c: 0.5),
        // Where sixteen pixels' entries just fit 32 of the table, and eight
        // pixels' (`linear_window_lanes` in CPixels), and just do not.
        .linear(a: 2 / 255, b: 0, c: -0.2), .linear(a: -2.0001 / 255, b: 0.003, c: 1.3),
        .linear(a: 30 / 7 / 255, b: 0, c: -0.1), .linear(a: -4.3 / 255, b: 0, c: 1.2),
    ]

    /// Linear gradients, on spans of 1 to 40 pixels and longer ones, at
    /// coverages from none to full and through masks with empty runs: the
    /// one-pass blend leaves the very bytes that shading then blending
    /// does, and touches nothing outside its span.
    @Test func blendingAsTheyShadeIsShadingThenBlending() {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 421)
        let width = 340
        var checked = 0
        for geometry in Self.linears {
            let shader = Self.shader(geometry)
            for count in Array(1...40) + [63, 255, 256, 300] {
                let x = r.int(width - count + 1) - (count < 30 ? 7 : 0)
                let y = r.int(60) - 10
                let before = (0..<(count + 16)).map { _ -> UInt32 in
                    let a = UInt32(r.int(256))
                    return a << 24 | UInt32(r.int(Int(a) + 1)) << 16 | UInt32(r.int(Int(a) + 1)) << 8 | UInt32(r.int(Int(a) + 1))
                }
                var mask = (0..<count).map { _ in UInt8(r.int(4) == 0 ? 0 : r.int(256)) }
                if count > 20 { for i in 3..<19 { mask[i] = 0 } }
                for coverage in [0, 1, 77, 254, 255, -1] as [Int] {
                    // Pixels 8 ..< 8 + count are the span; 8 on each side must stay.
                    var fused = before, split = before
                    var sources = [UInt32](repeating: 0, count: count)
                    sources.withUnsafeMutableBufferPointer { shader.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
                    let drew = fused.withUnsafeMutableBufferPointer { f in
                        mask.withUnsafeBufferPointer { m in
                            shader.shadeOver(
                                x: x, y: y, count: count, onto: f.baseAddress! + 8, coverage: UInt32(max(coverage, 0)),
                                mask: coverage < 0 ? m.baseAddress! : nil)
                        }
                    }
                    #expect(drew, "\(geometry) count \(count) coverage \(coverage)")
                    split.withUnsafeMutableBufferPointer { s in
                        if coverage < 0 {
                            strata_source_over_mask_avx2(s.baseAddress! + 8, sources, count, mask)
                        } else {
                            strata_source_over_avx2(s.baseAddress! + 8, sources, count, UInt32(coverage))
                        }
                    }
                    #expect(fused == split, "\(geometry) span \(x), \(y), \(count), coverage \(coverage)")
                    checked += 1
                }
            }
        }
        #expect(checked == Self.linears.count * 44 * 6)
    }

    /// Radial and conic gradients have no one-pass blend (theirs was
    /// slower than shading then blending): `shadeOver` declines and leaves
    /// the pixels alone, and the blitter takes the two passes.
    @Test func curvedGradientsAreShadedThenBlended() {
        let turn = Transform(rotationAngle: 0.4).translatedBy(x: -3, y: 7)
        for geometry in [
            GradientShader.Geometry.radial(inverse: turn, c0: Point(x: 20, y: 15), r0: 0, c1: Point(x: 30, y: 20), r1: 25),
            .conic(inverse: .identity, center: Point(x: 40, y: 3), angle: 0.3),
        ] {
            var d = [UInt32](repeating: 0x8040_2010, count: 40)
            let drew = d.withUnsafeMutableBufferPointer {
                Self.shader(geometry).shadeOver(x: 0, y: 0, count: 40, onto: $0.baseAddress!, coverage: 255, mask: nil)
            }
            #expect(!drew && d.allSatisfy { $0 == 0x8040_2010 }, "\(geometry)")
        }
    }

    /// A linear span's entries are its fixed-point pieces' formula's
    /// (`linearEntry`, what the loop without AVX2 takes) bit for bit, and
    /// within one entry of ⌊clamp(t, 0, 1)·255 + ½⌋ at every pixel, for
    /// gradients from a quarter of a pixel to thousands long, spans inside
    /// them and far outside, forwards and backwards.
    @Test func linearSpansAreTheirFixedPointFormula() {
        var r = FuzzRandom(seed: 422)
        let table = LookupTable(Gradient(colors: [.red, .blue]), alpha: 1)
        table.ensureAll()
        // Entry k's pixel tells k back: a fresh table of distinct values.
        for k in 0..<256 { table.entries[k] = UInt32(k) &* 0x0101_0101 | 0xFF00_0000 }
        var off = 0, total = 0, pieces = 0
        for round in 0..<600 {
            let a = [0.013, -0.02, 0.0007, 0.5, 3.7, -3.9, 0, 1e-9][round % 8] * (0.5 + 0.5 * r.uniform())
            let t0 = (r.uniform() - 0.5) * [1, 4, 40, 4000, 1e9][round % 5]
            let count = 1 + r.int(300)
            let shader = GradientShader(
                table: table, geometry: .linear(a: a, b: 0, c: t0), spread: .pad, before: true, after: true)
            var out = [UInt32](repeating: 7, count: count)
            out.withUnsafeMutableBufferPointer { shader.shade(x: 0, y: 0, count: count, into: $0.baseAddress!) }
            // The first pixel's t, as the shader finds it at its centre.
            let first = a * 0.5 + 0 * 0.5 + t0
            var entries = [Int](repeating: -1, count: count)
            var next = 0
            let fixed = GradientShader.linearPieces(first, a, count: count) { start, n, u0, du in
                #expect(start == next && n > 0, "pieces in order, none empty")
                for i in 0..<n { entries[start + i] = GradientShader.linearEntry(u0, du, i) }
                next = start + n
                pieces += 1
            }
            #expect(fixed && next == count, "a \(a) t0 \(t0) count \(count)")
            for i in 0..<count {
                let k = entries[i]
                #expect(out[i] & 0xFF == UInt32(k), "a \(a) t0 \(t0) pixel \(i) of \(count)")
                let t = first + Double(i) * a
                let exact = Int(min(1, max(0, t)) * 255 + 0.5)
                #expect(abs(k - exact) <= 1, "a \(a) t0 \(t0) pixel \(i)")
                if k != exact { off += 1 }
                total += 1
            }
        }
        // Off by one only within a few 2⁻¹⁶ of an entry's boundary: rarely.
        #expect(total > 50000 && pieces > 700)
        #expect(off * 100 < total)
    }

    /// Spans far outside the gradient take its end colours through the
    /// fixed-point kernels; gradients under a quarter of a pixel long, or
    /// not finite, are left to `shade`, which draws them in Double (the end
    /// colours), and `shadeOver` blends nothing.
    @Test func spansFarOutsideOrNotFiniteTakeTheEndColours() {
        guard SolidBlitter.usesAVX2 else { return }
        for (a, c, fixed) in [
            (0.01, 1e7, true), (-0.01, -1e7, true), (0, 1e300, true), (0.01, -1e12, true),
            (1e9, 0, false), (Double.nan, 0, false), (0.01, .infinity, false), (-4, 0.3, false),
        ] {
            let shader = Self.shader(.linear(a: a, b: 0, c: c))
            var d = [UInt32](repeating: 0x8040_2010, count: 40)
            let drew = d.withUnsafeMutableBufferPointer {
                shader.shadeOver(x: 0, y: 0, count: 40, onto: $0.baseAddress!, coverage: 255, mask: nil)
            }
            #expect(drew == fixed, "a \(a) c \(c)")
            var out = [UInt32](repeating: 1, count: 40)
            out.withUnsafeMutableBufferPointer { shader.shade(x: 0, y: 0, count: 40, into: $0.baseAddress!) }
            let first = shader.table.entries[0], last = shader.table.entries[255]
            #expect(out.allSatisfy { $0 == first || $0 == last }, "a \(a) c \(c)")
            if !fixed { #expect(d.allSatisfy { $0 == 0x8040_2010 }) }
        }
    }

    /// A row swept and shaded in one pass (`strata_sweep_shaded_row_avx2`:
    /// padded linear gradients, radial ones whose focal point is inside
    /// their end circle, conic ones, repeated image rows of any period and
    /// starting column) leaves the bytes that sweeping the row into
    /// coverage bytes and then blending the gradient's span through them
    /// does: rows of lone edges, of edges far apart (gaps swept at one
    /// coverage), covering to the row's end, of every width from 1 to 70
    /// and wider, both fill rules. The cells and bits are left zero, and
    /// the pixels past the row untouched.
    @Test func sweepingAsTheyShadeIsSweepingThenBlending() {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 977)
        let table = LookupTable(Self.gradient, alpha: 0.85)
        table.ensureAll()
        var checked = [0, 0, 0, 0], changed = 0
        var g = [Double](repeating: 0, count: 24), f = [Float](repeating: 0, count: 5)
        for width in Array(1...70) + [127, 128, 129, 300, 517] {
            let words = (width + 2 + 63) >> 6
            for trial in 0..<32 {
                let evenOdd = (trial / 4) % 2 == 1, kind = trial % 4
                var cells = [Float](repeating: 0, count: words * 64)
                var bits = [UInt64](repeating: 0, count: words)
                // Edges: a few, sometimes two far apart, sometimes one
                // left open so the coverage runs on to the row's end.
                let edges = 1 + r.int(trial < 8 ? 3 : 7)
                cells.withUnsafeMutableBufferPointer { c in
                    bits.withUnsafeMutableBufferPointer { b in
                        for e in 0..<edges {
                            let xa = Float(r.uniform() * Double(width + 1)), xb = Float(r.uniform() * Double(width + 1))
                            let d = Float(r.uniform() * 2 - 1) * (e % 2 == 0 ? 1 : -1)
                            addEdgeArea(c.baseAddress!, b.baseAddress!, min(xa, xb), max(xa, xb), d)
                        }
                    }
                }
                let before = (0..<(width + 8)).map { _ -> UInt32 in
                    let al = UInt32(r.int(256))
                    return al << 24 | UInt32(r.int(Int(al) + 1)) << 16 | UInt32(r.int(Int(al) + 1)) << 8 | UInt32(r.int(Int(al) + 1))
                }
                var fused = before, split = before
                var cellsA = cells, bitsA = bits, cellsB = cells, bitsB = bits
                var bytes = [UInt8](repeating: 0, count: width + 8)
                var runs = [Int](repeating: 0, count: 64)
                var sources = [UInt32](repeating: 0, count: width + 8)
                var paint = strata_row_paint()
                // Turned and scaled maps for the curved gradients.
                let angle = r.uniform() * 6.3, scale = 0.2 + r.uniform() * 3
                let inverse = Transform(
                    a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                    tx: r.uniform() * 40 - 20, ty: r.uniform() * 40 - 20)
                let (x, y) = (r.int(200) - 100, r.int(200) - 100)
                switch kind {
                case 1:
                    // A focal point inside the end circle, the row somewhere
                    // around the circles.
                    let c1 = Point(x: r.uniform() * 100 - 50, y: r.uniform() * 100 - 50), r1 = 2 + r.uniform() * 150
                    let c0 = Point(x: c1.x + (r.uniform() - 0.5) * r1, y: c1.y + (r.uniform() - 0.5) * r1)
                    GradientShader.radialParameters(x, y, width, inverse, c0, 0, c1, r1, &g)
                    guard g[12] == 1 else { continue }
                    GradientShader.radialSpan(table.entries, g, width, &sources, level: SolidBlitter.kernelLevel)
                    g.withUnsafeBufferPointer { gp in
                        paint = strata_row_paint(
                            kind: STRATA_ROW_RADIAL_FOCAL, table: table.entries, u0: 0, du: 0, g: gp.baseAddress!, c: nil)
                        strata_sweep_shaded_row_avx2(&cellsA, &bitsA, words, width, &fused, evenOdd ? 1 : 0, &paint)
                    }
                case 2:
                    // A centre near the row or far from it.
                    let centre = Point(x: r.uniform() * 300 - 150, y: r.uniform() * 300 - 150)
                    guard GradientShader.conicParameters(x, y, width, inverse, centre, r.uniform() * 7, &f) else { continue }
                    GradientShader.conicSpan(table.entries, f, width, &sources, level: SolidBlitter.kernelLevel)
                    f.withUnsafeBufferPointer { fp in
                        paint = strata_row_paint(
                            kind: STRATA_ROW_CONIC, table: table.entries, u0: 0, du: 0, g: nil, c: fp.baseAddress!)
                        strata_sweep_shaded_row_avx2(&cellsA, &bitsA, words, width, &fused, evenOdd ? 1 : 0, &paint)
                    }
                case 3:
                    // An image row a pixel to a few hundred long, opaque,
                    // translucent and transparent runs, from any column:
                    // rows that wrap once, many times, or never.
                    let period = [1, 3, 7, 8, 9, 31, 32, 100, 600][r.int(9)]
                    let start = r.int(period)
                    var image = [UInt32](repeating: 0, count: period)
                    var k = 0
                    while k < period {
                        let run = 1 + r.int(12), al = [0, 255, UInt32(r.int(256))][r.int(3)]
                        let pixel = al << 24 | UInt32(r.int(Int(al) + 1)) << 16 | UInt32(r.int(Int(al) + 1)) << 8 | UInt32(r.int(Int(al) + 1))
                        for j in k..<min(period, k + run) { image[j] = pixel }
                        k += run
                    }
                    for i in 0..<width { sources[i] = image[(start + i) % period] }
                    image.withUnsafeBufferPointer { ip in
                        paint = strata_row_paint(
                            kind: STRATA_ROW_IMAGE, table: ip.baseAddress!, u0: Int32(start), du: Int32(period), g: nil, c: nil)
                        strata_sweep_shaded_row_avx2(&cellsA, &bitsA, words, width, &fused, evenOdd ? 1 : 0, &paint)
                    }
                default:
                    // 16.16 positions across the whole gradient, forwards or back.
                    let t0 = r.uniform() * 2.6 - 0.8, span = (r.uniform() * 2.4 - 1.2)
                    let a = span / Double(max(width, 1))
                    guard let (u0, du) = GradientShader.linearPiece(t0, a, count: width) else { continue }
                    strata_linear_pad_span_avx2(table.entries, u0, du, &sources, width)
                    paint = strata_row_paint(kind: STRATA_ROW_LINEAR, table: table.entries, u0: u0, du: du, g: nil, c: nil)
                    strata_sweep_shaded_row_avx2(&cellsA, &bitsA, words, width, &fused, evenOdd ? 1 : 0, &paint)
                }
                _ = strata_sweep_coverage_avx2(&cellsB, &bitsB, words, width, evenOdd ? 1 : 0, &bytes, &runs, 32)
                strata_source_over_mask_avx2(&split, sources, width, bytes)
                let name = "\(["linear", "radial", "conic", "image"][kind]) width \(width) trial \(trial)"
                #expect(fused == split, "\(name)")
                #expect(cellsA.allSatisfy { $0 == 0 } && bitsA.allSatisfy { $0 == 0 }, "\(name)")
                #expect(fused[width...] == before[width...], "\(name)")
                checked[kind] += 1
                if fused != before { changed += 1 }
            }
        }
        // (Linear spans that would leave t = −1 ... 2 are not one piece,
        // and radial ones too far out for the focal polynomials: skipped.)
        #expect(checked.allSatisfy { $0 > 450 }, "\(checked) rows")
        #expect(changed > checked.reduce(0, +) * 3 / 4, "\(changed) rows drawn")
    }

    /// The radial parameters in C (`strata_radial_parameters`, what the
    /// many-row sweeps work out, four rows at a time, their band's
    /// constants once; there only with AVX2) are Swift's
    /// (`GradientShader.radialParameters`) bit for bit: every value the
    /// kernels read, the focal polynomials' where there are any, for focal
    /// points inside, on and outside the end circle, both radii, tiny and
    /// huge circles, turned and sheared maps, near and far spans.
    @Test func radialParametersInCAreSwifts() {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: 515)
        var focal = 0, general = 0, single = 0
        for trial in 0..<4000 {
            let scale = [1.0, 0.2 + r.uniform() * 3, 1e-6, 1e6][trial % 4]
            let angle = r.uniform() * 6.3, shear = trial % 3 == 0 ? r.uniform() - 0.5 : 0
            let inverse = Transform(
                a: scale * cos(angle), b: scale * sin(angle), c: scale * (shear - sin(angle)), d: scale * cos(angle),
                tx: r.uniform() * 400 - 200, ty: r.uniform() * 400 - 200)
            let c1 = Point(x: r.uniform() * 200 - 100, y: r.uniform() * 200 - 100)
            let r1 = [2 + r.uniform() * 150, r.uniform() * 0.01, 1e9 * r.uniform()][trial % 3]
            let reach = [0.5, 1.0, 3.0][trial % 5 % 3]
            let c0 = Point(x: c1.x + (r.uniform() - 0.5) * reach * r1, y: c1.y + (r.uniform() - 0.5) * reach * r1)
            let r0 = trial % 7 == 0 ? r.uniform() * r1 : 0
            let (x, y, count) = (r.int(4000) - 2000, r.int(4000) - 2000, 1 + r.int(600))
            var swift = [Double](repeating: -1, count: 24), c = [Double](repeating: -1, count: 24)
            GradientShader.radialParameters(x, y, count, inverse, c0, r0, c1, r1, &swift)
            let k = [inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty, c0.x, c0.y, r0, c1.x, c1.y, r1]
            strata_radial_parameters(&c, k, x, y, count)
            let read = swift[12] == 1 ? 24 : 13
            let same = (0..<read).allSatisfy { swift[$0].bitPattern == c[$0].bitPattern || (swift[$0].isNaN && c[$0].isNaN) }
            #expect(same, "trial \(trial): \(swift[..<read]) against \(c[..<read])")
            if swift[12] == 1 { focal += 1 } else { general += 1 }
            if swift[18] == 1 { single += 1 }
        }
        #expect(focal > 1000 && general > 1000, "\(focal) focal, \(general) not")
        #expect(single > 200 && single < focal, "\(single) of \(focal) focal spans in single precision")
    }

    /// A shader for the band kernels' tests, of `kind` ("linear", "radial",
    /// "conic" or "image", the last repeating `image`), for a band at (x, y):
    /// each kind's taken and refused cases in turn with `trial`.
    static func bandShader(
        _ kind: String, trial: Int, x: Int, y: Int, image: UnsafeMutablePointer<UInt32>, imageWidth: Int, imageHeight: Int,
        _ r: inout FuzzRandom
    ) -> any Shader {
        if kind == "image" {
            // Moved by whole pixels, near or far; by fractions,
            // unscaled or scaled down the rows; or by a NaN.
            let whole = trial % 3 == 0
            let far = trial % 4 == 1 ? 1e9 : 1.0
            let tx = (r.uniform() * 400 - 200) * far, ty = (r.uniform() * 400 - 200) * far
            let d = whole ? 1 : [1, 0.5 + r.uniform() * 3][trial % 2]
            let inverse = Transform(
                a: 1, b: 0, c: 0, d: d, tx: whole ? tx.rounded() : tx, ty: trial % 11 == 10 ? .nan : (whole ? ty.rounded() : ty))
            return ImageShader(
                pixels: image, width: imageWidth, height: imageHeight, stride: imageWidth, inverse: inverse,
                filter: .nearest, spread: .repeat, alpha: 255)
        } else if kind == "conic" {
            // A centre near the band or far out (past 2²⁰ pixels
            // the kernel's single precision is refused), turned,
            // scaled and sheared.
            let angle = r.uniform() * 6.3, scale = 0.2 + r.uniform() * 3
            let inverse = Transform(
                a: scale * cos(angle), b: scale * sin(angle), c: scale * (0.3 - sin(angle)), d: scale * cos(angle),
                tx: r.uniform() * 40 - 20, ty: r.uniform() * 40 - 20)
            let far = [1.0, 1.0, 3e6, 1.0][trial % 4]
            let centre = Point(x: (r.uniform() * 300 - 150) * far, y: (r.uniform() * 300 - 150) * far)
            let start = trial % 6 == 5 ? .nan : r.uniform() * 20 - 10
            return Self.shader(.conic(inverse: inverse, center: centre, angle: start))
        } else if kind == "radial" {
            // A focal point inside the end circle, the band around
            // the circles or far out (the polynomials refuse spans
            // over 10⁴ radii), turned and scaled.
            let angle = r.uniform() * 6.3, scale = 0.2 + r.uniform() * 3
            let inverse = Transform(
                a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle),
                tx: r.uniform() * 40 - 20, ty: r.uniform() * 40 - 20)
            let c1 = Point(x: r.uniform() * 100 - 50, y: r.uniform() * 100 - 50)
            let r1 = trial % 4 == 3 ? 0.0004 + r.uniform() * 0.004 : 2 + r.uniform() * 150
            let c0 = Point(x: c1.x + (r.uniform() - 0.5) * r1, y: c1.y + (r.uniform() - 0.5) * r1)
            return Self.shader(.radial(inverse: inverse, c0: c0, r0: 0, c1: c1, r1: r1))
        } else {
            // Gradients along and across the rows, some leaving
            // −1 ... 2 part of the way down, a few too steep.
            let a = [r.uniform() * 0.02 - 0.01, r.uniform() * 0.4 - 0.2, 4.5][trial % 6 == 5 ? 2 : trial % 2]
            let b = (r.uniform() - 0.5) * [0.05, 0.6][trial % 3 == 0 ? 1 : 0]
            let c = 0.5 - a * Double(x) - b * Double(y) + (r.uniform() - 0.5) * 1.5
            return Self.shader(.linear(a: a, b: b, c: c))
        }
    }

    /// A linear, radial or conic gradient's rows, or a repeated image's,
    /// swept in one call (`Shader.sweepShadedRows`:
    /// `strata_sweep_linear_rows_avx2` and its kin) are each row's own piece
    /// (`rowPaint`) swept by the row kernel: the same pixels and cleared
    /// cells, row for row, up to the first row `rowPaint` does not take
    /// (a linear span leaving t = −1 ... 2, a radial one too far out for
    /// the focal polynomials, a conic one 2²⁰ pixels from its centre),
    /// where it stops, that row and those after it
    /// left as they were; none for a gradient under a quarter of a pixel.
    @Test(arguments: ["linear", "radial", "conic", "image"])
    func manyRowsAreEachRowsPiece(kind: String) {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: ["linear": 4242, "radial": 4243, "conic": 4244, "image": 4245][kind]!)
        // A repeated image of random pixels (opaque, translucent, clear).
        let (imageWidth, imageHeight) = (37, 19)
        let image = UnsafeMutablePointer<UInt32>.allocate(capacity: imageWidth * imageHeight)
        defer { image.deallocate() }
        for i in 0..<(imageWidth * imageHeight) {
            let al = [0, 255, UInt32(r.int(256))][r.int(3)]
            image[i] = al << 24 | UInt32(r.int(Int(al) + 1)) << 16 | UInt32(r.int(Int(al) + 1)) << 8 | UInt32(r.int(Int(al) + 1))
        }
        var stopped = 0, whole = 0, none = 0, refused = 0
        let parameters = UnsafeMutableRawPointer.allocate(byteCount: 192, alignment: 16)
        defer { parameters.deallocate() }
        for width in Array(1...40) + [63, 64, 65, 129, 300] {
            let words = (width + 2 + 63) >> 6, stride = width + 2
            for trial in 0..<12 {
                let rows = 1 + r.int(12), evenOdd = trial % 2 == 1
                let (x, y) = (r.int(200) - 100, r.int(200) - 100)
                let shader = Self.bandShader(
                    kind, trial: trial, x: x, y: y, image: image, imageWidth: imageWidth, imageHeight: imageHeight, &r)
                var cells = [Float](repeating: 0, count: stride * rows)
                var bits = [UInt64](repeating: 0, count: words * rows)
                cells.withUnsafeMutableBufferPointer { cp in
                    bits.withUnsafeMutableBufferPointer { bp in
                        for row in 0..<rows {
                            for e in 0..<(1 + r.int(4)) {
                                let xa = Float(r.uniform() * Double(width + 1)), xb = Float(r.uniform() * Double(width + 1))
                                addEdgeArea(
                                    cp.baseAddress! + row * stride, bp.baseAddress! + row * words, min(xa, xb), max(xa, xb),
                                    Float(r.uniform()) * (e % 2 == 0 ? 1 : -1))
                            }
                        }
                    }
                }
                let pixelStride = width + 8
                let before = (0..<(pixelStride * rows)).map { _ -> UInt32 in
                    let al = UInt32(r.int(256))
                    return al << 24 | UInt32(r.int(Int(al) + 1)) << 16 | UInt32(r.int(Int(al) + 1)) << 8 | UInt32(r.int(Int(al) + 1))
                }
                var together = before, apart = before
                var cellsA = cells, bitsA = bits, cellsB = cells, bitsB = bits
                let swept = shader.sweepShadedRows(
                    &cellsA, cellStride: stride, &bitsA, wordsPerRow: words, width: width, rows: rows, pixels: &together,
                    pixelStride: pixelStride, x: x, y: y, evenOdd: evenOdd)
                // Row by row, as the blitter's loop did it.
                var expected = 0
                var paint = strata_row_paint()
                for row in 0..<rows {
                    guard shader.rowPaint(x: x, y: y + row, count: width, into: &paint, parameters: parameters) else { break }
                    cellsB.withUnsafeMutableBufferPointer { cp in
                        bitsB.withUnsafeMutableBufferPointer { bp in
                            apart.withUnsafeMutableBufferPointer { pp in
                                strata_sweep_shaded_row_avx2(
                                    cp.baseAddress! + row * stride, bp.baseAddress! + row * words, words, width,
                                    pp.baseAddress! + row * pixelStride, evenOdd ? 1 : 0, &paint)
                            }
                        }
                    }
                    expected += 1
                }
                let name = "width \(width) trial \(trial)"
                // (−1: none of the band's rows, whichever; then none is.)
                #expect(swept == expected || (swept == -1 && expected == 0), "\(name)")
                #expect(together == apart, "\(name)")
                #expect(cellsA == cellsB && bitsA == bitsB, "\(name)")
                if swept <= 0 { none += 1 } else if swept < rows { stopped += 1 } else { whole += 1 }
                if swept == -1 { refused += 1 }
            }
        }
        // (Other bands' rows are all taken or all refused but for rounding
        // at the limits, which hold for the whole band; the images here
        // are refused only for the NaN.)
        let counts = "\(none) none (\(refused) refused whole), \(stopped) stopped, \(whole) whole"
        #expect((none > 10 || kind == "image") && (kind != "linear" || stopped > 10) && whole > 100, "\(counts)")
        // Every gradient refuses some bands whole (too steep, too small a
        // circle, a NaN angle); the images here only a NaN row.
        #expect(kind == "image" || refused > 10, "\(counts)")
    }

    /// A gradient's rectangle drawn many rows to a call
    /// (`Shader.shadeRectRows`: `strata_rect_linear_rows_avx2` and its
    /// kin), in three groups of rows each covered alike (its first pixel,
    /// the pixels between, its last pixel, each 0, 255 or between), is each
    /// row swept by the row kernel with its group's coverage in its cells:
    /// the same pixels, row for row, up to the first row `rowPaint` does
    /// not take, where it stops; none where the sweep would take none.
    /// Widths across the kernel's stretches of 256 pixels, 1 and 2 pixels
    /// wide, empty groups, all three coverages alike.
    @Test(arguments: ["linear", "radial", "conic"])
    func rectangleRowsAreTheSweptRows(kind: String) {
        guard SolidBlitter.usesAVX2 else { return }
        var r = FuzzRandom(seed: ["linear": 5151, "radial": 5152, "conic": 5153][kind]!)
        var stopped = 0, whole = 0, none = 0
        let parameters = UnsafeMutableRawPointer.allocate(byteCount: 192, alignment: 16)
        defer { parameters.deallocate() }
        var unused: UInt32 = 0
        for width in Array(1...20) + [31, 63, 64, 65, 255, 256, 257, 300, 511, 512, 513, 700] {
            let words = (width + 2 + 63) >> 6, stride = width + 2
            for trial in 0..<12 {
                let (x, y) = (r.int(200) - 100, r.int(200) - 100)
                let shader = Self.bandShader(kind, trial: trial, x: x, y: y, image: &unused, imageWidth: 1, imageHeight: 1, &r)
                func level() -> UInt8 { [0, 255, UInt8(r.int(256))][r.int(3)] }
                func cover() -> (UInt8, UInt8, UInt8) {
                    if r.int(5) == 0 {
                        let c = level()
                        return (c, c, c)
                    }
                    return (level(), level(), level())
                }
                let groups = (r.int(3), 1 + r.int(7), r.int(3))
                let covers = (cover(), cover(), cover())
                let rows = groups.0 + groups.1 + groups.2
                let pixelStride = width + 8
                let before = (0..<(pixelStride * rows)).map { _ -> UInt32 in
                    let al = UInt32(r.int(256))
                    return al << 24 | UInt32(r.int(Int(al) + 1)) << 16 | UInt32(r.int(Int(al) + 1)) << 8 | UInt32(r.int(Int(al) + 1))
                }
                var together = before, apart = before
                let drawn = shader.shadeRectRows(
                    pixels: &together, pixelStride: pixelStride, width: width, rows: groups, covers: covers, x: x, y: y)
                var expected = 0
                var paint = strata_row_paint()
                for row in 0..<rows {
                    guard shader.rowPaint(x: x, y: y + row, count: width, into: &paint, parameters: parameters) else { break }
                    // The row's cells: running sums of its group's coverages.
                    let c = row < groups.0 ? covers.0 : row < groups.0 + groups.1 ? covers.1 : covers.2
                    var cells = [Float](repeating: 0, count: stride)
                    var bits = [UInt64](repeating: 0, count: words)
                    let (left, middle, right) = (Float(c.0) / 255, Float(c.1) / 255, Float(c.2) / 255)
                    func add(_ i: Int, _ v: Float) {
                        cells[i] += v
                        bits[i >> 6] |= 1 << UInt64(i & 63)
                    }
                    add(0, left)
                    if width > 2 {
                        add(1, middle - left)
                        add(width - 1, right - middle)
                    } else if width == 2 {
                        add(1, right - left)
                    }
                    add(width, -(width == 1 ? left : right))
                    apart.withUnsafeMutableBufferPointer { pp in
                        strata_sweep_shaded_row_avx2(&cells, &bits, words, width, pp.baseAddress! + row * pixelStride, 0, &paint)
                    }
                    expected += 1
                }
                let name = "width \(width) trial \(trial) rows \(groups) covers \(covers)"
                #expect(drawn == expected || (drawn == -1 && expected == 0), "\(name): \(drawn) rows, \(expected) expected")
                #expect(together == apart, "\(name)")
                if drawn <= 0 { none += 1 } else if drawn < rows { stopped += 1 } else { whole += 1 }
            }
        }
        #expect(none > 10 && whole > 100 && (kind != "linear" || stopped > 5), "\(none) none, \(stopped) stopped, \(whole) whole")
    }
}
