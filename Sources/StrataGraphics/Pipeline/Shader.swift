internal import CPixels

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The coverage of a rectangle's three groups of rows (`SpanBlitter.blitRectRows`):
/// for each, its first pixel's, the pixels' between, its last pixel's.
typealias RectRowCovers = ((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))

/// Premultiplied source pixels that vary across the target: what a gradient or an
/// image pattern paints through the coverage of a shape.
protocol Shader {
    /// The sources of pixels `x ..< x + count` of row `y` (device space; sampled
    /// at pixel centres), written to `out`.
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
    /// The source of every pixel of row `y`, when it does not vary along the row:
    /// such rows are blended as a solid colour, the fastest loop there is.
    func rowConstant(y: Int) -> UInt32?
    /// Whether `rowConstant(y:)` has a colour for every row.
    var isRowConstant: Bool { get }
    /// The sources of a span as pixels stored in memory that need no sampling
    /// (an image drawn 1:1), still to be multiplied by `alpha`; nil otherwise.
    func storedRow(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>?
    /// Whether `storedRow` can ever give pixels.
    var mayStoreRows: Bool { get }
    /// What the stored pixels are still to be multiplied by (0...255).
    var alpha: UInt32 { get }
    /// Blends the sources of pixels `x ..< x + count` of row `y` source over
    /// onto `d`, scaled by `mask[i]` where `mask` is given and by `coverage`
    /// otherwise, in one pass, bit for bit as `shade` and then the AVX2
    /// blend; false, having drawn nothing, where the shader has no such
    /// pass for this span. Called only with AVX2.
    func shadeOver(
        x: Int, y: Int, count: Int, onto d: UnsafeMutablePointer<UInt32>, coverage: UInt32, mask: UnsafePointer<UInt8>?
    ) -> Bool
    /// Sweeps rows `0 ..< rows` of a band, shaded as they are swept, as
    /// many as it can in one call (`strata_sweep_linear_rows_avx2` and its
    /// radial, conic and image kin): each row as `rowPaint` and the row
    /// kernel would draw it. Returns how many it swept, from the first: it
    /// stops at a row `rowPaint` would not take. −1, sweeping none, where it
    /// would take no row of the band, whichever (a shader with no such
    /// kernel, or limits that hold for the whole band): the caller then
    /// stops asking. `pixels` is the band's first pixel, `x` and `y` its
    /// device column and row. Called only with AVX2.
    func sweepShadedRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
        width: Int, rows: Int, pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, x: Int, y: Int, evenOdd: Bool
    ) -> Int
    /// The rows of a rectangle `width` pixels wide in three groups one under
    /// the other (`rows`: each group's count; `covers`: each group's
    /// coverage of its first pixel, the pixels between, its last), shaded
    /// and blended source over as many rows to a call as it can
    /// (`strata_rect_linear_rows_avx2` and its radial and conic kin): each
    /// row's sources those `sweepShadedRows` gives a band's row. Returns how
    /// many rows it drew, from the first, stopping where `sweepShadedRows`
    /// would; −1, drawing none, where it would take none whatever the row.
    /// `pixels` is the rectangle's first pixel, `x` and `y` its device
    /// column and row. Called only with AVX2.
    func shadeRectRows(
        pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, width: Int, rows: (Int, Int, Int),
        covers: RectRowCovers, x: Int, y: Int
    ) -> Int
    /// Pixels `x ..< x + count` of row `y` as the row kernel that sweeps and
    /// shades at once takes them (`strata_sweep_shaded_row_avx2`): one piece
    /// of a padded linear gradient (`GradientShader.linearPieces`), or a
    /// padded radial gradient whose focal point is inside its end circle,
    /// or a conic gradient (their parameters written to `parameters`, 192
    /// bytes, which `paint` points to), or a repeated image's row read as it
    /// is (`ImageShader`); false, `paint` untouched, for any other shader or
    /// span.
    func rowPaint(
        x: Int, y: Int, count: Int, into paint: inout strata_row_paint, parameters: UnsafeMutableRawPointer
    ) -> Bool
    /// The same paint with device x and y swapped: its row x is this
    /// shader's column x, so `transposed()!.shade(x: y, y: x, count: n, …)`
    /// gives the sources of pixels (x, y ..< y + n) (at the same pixel
    /// centres, within the rounding of a span's steps). Nil where there is
    /// none. A rectangle a few pixels wide (a stroked frame's side) is
    /// shaded a column at a time with it, not a row at a time, in runs of
    /// `columnRun` rows (at most 64).
    func transposed() -> Self?
    /// The rows of a column shaded at once (`transposed()`): more where a
    /// span's set-up costs more than its pixels.
    var columnRun: Int { get }
}

extension Shader {
    func sweepShadedRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
        width: Int, rows: Int, pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, x: Int, y: Int, evenOdd: Bool
    ) -> Int { -1 }
    func shadeRectRows(
        pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, width: Int, rows: (Int, Int, Int),
        covers: RectRowCovers, x: Int, y: Int
    ) -> Int { -1 }
    var isRowConstant: Bool { false }
    func storedRow(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>? { nil }
    var mayStoreRows: Bool { false }
    var alpha: UInt32 { 255 }
    func shadeOver(
        x: Int, y: Int, count: Int, onto d: UnsafeMutablePointer<UInt32>, coverage: UInt32, mask: UnsafePointer<UInt8>?
    ) -> Bool { false }
    func rowPaint(
        x: Int, y: Int, count: Int, into paint: inout strata_row_paint, parameters: UnsafeMutableRawPointer
    ) -> Bool { false }
    func transposed() -> Self? { nil }
    var columnRun: Int { 64 }
}

extension Transform {
    /// This transform after swapping x and y (`(x, y) ↦ (y, x)` first).
    var afterSwappingAxes: Transform { Transform(a: c, b: d, c: a, d: b, tx: tx, ty: ty) }
}

/// A gradient's lookup table, owned by the shader that reads it (one
/// drawing, on one thread). Entries are made as the pixels need them
/// (`ensure`), eight at a time: a small shape uses a few of the 256, and
/// making all of them cost more than drawing it (an 8 × 8 gradient fill
/// spent a third of its time on its table). A canvas keeps one table and
/// sets it up again for each gradient drawn (`reset`), so drawing a
/// gradient allocates nothing.
final class LookupTable {
    /// The 256 entries, then a transparent one (`entries[256]`, 0) that
    /// the AVX2 kernels read where nothing is drawn, without a branch.
    let entries: UnsafeMutablePointer<UInt32>
    // Both skip Swift's run-time exclusivity checks: a table is used by
    // one drawing on one thread, and no access outlasts a call. The checks
    // cost a small gradient fill a tenth of its instructions.
    /// Bit b: entries 8b ..< 8b + 8 are made.
    @exclusivity(unchecked) private var madeBlocks: UInt32 = 0
    @exclusivity(unchecked) private var plan: GradientTablePlan

    init(_ gradient: Gradient, alpha: Double) {
        entries = .allocate(capacity: 257)
        entries[256] = 0
        plan = GradientTablePlan()
        reset(gradient, alpha: alpha)
    }

    deinit {
        entries.deallocate()
    }

    /// Sets the table up for `gradient` at `alpha`: with AVX2, every entry
    /// made at once by `strata_gradient_table_avx2` (the plan's runs, then
    /// the ramp kernel, in one C call: planning in Swift took more than
    /// making the 256 entries, and a small gradient shape makes a table a
    /// call); otherwise planned, no entry made.
    func reset(_ gradient: Gradient, alpha: Double) {
        if SolidBlitter.usesAVX2, LookupTable.stopsAreDoubles {
            let made = gradient.stops.withUnsafeBytes { stops in
                strata_gradient_table_avx2(
                    entries, stops.baseAddress?.assumingMemoryBound(to: Double.self), LookupTable.stopStride,
                    gradient.stops.count, alpha)
            }
            if made != 0 {
                madeBlocks = ~0
                return
            }
        }
        plan.replan(gradient, alpha: alpha)
        madeBlocks = 0
    }

    /// Whether a stop is its colour's red, green, blue and alpha, then its
    /// location, as Doubles: what `strata_gradient_table_avx2` reads.
    /// (`Color` is frozen, its components in that order; a test checks
    /// `Gradient.Stop`'s layout.)
    @inline(__always)
    static var stopsAreDoubles: Bool {
        MemoryLayout<Gradient.Stop>.stride % MemoryLayout<Double>.stride == 0
            && MemoryLayout<Gradient.Stop>.size == 5 * MemoryLayout<Double>.size
    }

    @inline(__always)
    static var stopStride: Int { MemoryLayout<Gradient.Stop>.stride / MemoryLayout<Double>.stride }

    /// Makes every entry not made yet.
    @inline(__always)
    func ensureAll() {
        if madeBlocks != ~0 { make(blocks: ~madeBlocks) }
    }

    /// Makes entry `i` (0 ... 255) if it is not yet.
    @inline(__always)
    func ensure(_ i: Int) {
        let bit: UInt32 = 1 << UInt32(truncatingIfNeeded: i >> 3)
        if madeBlocks & bit == 0 { make(blocks: bit) }
    }

    /// Makes entries `lo ... hi` (within 0 ... 255) that are not yet.
    @inline(__always)
    func ensure(_ lo: Int, _ hi: Int) {
        // The blocks from lo's to hi's.
        let first = UInt32(truncatingIfNeeded: lo >> 3), last = UInt32(truncatingIfNeeded: hi >> 3)
        let through: UInt32 = last == 31 ? ~0 : (1 << (last + 1)) &- 1
        let wanted = through & ~((1 << first) &- 1)
        let missing = wanted & ~madeBlocks
        if missing != 0 { make(blocks: missing) }
    }

    /// Makes the blocks whose bits are set in `missing`, each run of them
    /// at once; with AVX2, every block not yet made (the ramp kernel makes
    /// the whole table in less than it takes to make a few entries apart).
    private func make(blocks missing: UInt32) {
        let missing = SolidBlitter.usesAVX2 ? ~madeBlocks : missing
        var rest = missing
        while rest != 0 {
            let start = rest.trailingZeroBitCount
            let length = (~(rest >> UInt32(start))).trailingZeroBitCount
            plan.fill(entries, (start * 8)..<((start + length) * 8))
            rest &= ~(length == 32 ? ~0 : ((1 << UInt32(length)) &- 1) << UInt32(start))
        }
        madeBlocks |= missing
    }
}

/// Shades linear, radial and conic gradients through a 256-entry lookup table.
struct GradientShader: Shader {
    enum Geometry {
        /// t = a·x + b·y + c at device pixel centres.
        case linear(a: Double, b: Double, c: Double)
        /// Device → user space, then the two-circle equation.
        case radial(inverse: Transform, c0: Point, r0: Double, c1: Point, r1: Double)
        /// Device → user space, then the angle round `center` from `angle`.
        case conic(inverse: Transform, center: Point, angle: Double)
    }

    let table: LookupTable
    let geometry: Geometry
    let spread: GradientSpread
    /// With `.pad`: whether t < 0 and t > 1 draw the end colours (otherwise nothing).
    let before: Bool, after: Bool

    /// The table entry for `t`, or nil where nothing is drawn.
    @inline(__always)
    func index(_ t: Double) -> Int? {
        var u = t
        switch spread {
        case .pad:
            if !(u >= 0) {  // also NaN
                guard before, !u.isNaN else { return nil }
                u = 0
            } else if u > 1 {
                guard after else { return nil }
                u = 1
            }
        case .repeat:
            guard u.isFinite else { return nil }
            u -= u.rounded(.down)
        case .reflect:
            guard u.isFinite else { return nil }
            u = abs(u).truncatingRemainder(dividingBy: 2)
            if u > 1 { u = 2 - u }
        }
        return Int(u * 255 + 0.5)
    }

    @inline(__always)
    func lookup(_ t: Double) -> UInt32 {
        guard let i = index(t) else { return 0 }
        table.ensure(i)
        return table.entries[i]
    }

    var isRowConstant: Bool {
        guard case let .linear(a, _, _) = geometry else { return false }
        return a == 0
    }

    func transposed() -> GradientShader? {
        let swapped: Geometry
        switch geometry {
        case let .linear(a, b, c): swapped = .linear(a: b, b: a, c: c)
        case let .radial(inverse, c0, r0, c1, r1):
            swapped = .radial(inverse: inverse.afterSwappingAxes, c0: c0, r0: r0, c1: c1, r1: r1)
        case let .conic(inverse, center, angle): swapped = .conic(inverse: inverse.afterSwappingAxes, center: center, angle: angle)
        }
        return GradientShader(table: table, geometry: swapped, spread: spread, before: before, after: after)
    }

    func rowConstant(y: Int) -> UInt32? {
        guard case let .linear(a, b, c) = geometry, a == 0 else { return nil }
        return lookup(b * (Double(y) + 0.5) + c)
    }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let py = Double(y) + 0.5
        switch geometry {
        case let .linear(a, b, c):
            var t = a * (Double(x) + 0.5) + b * py + c
            if spread == .pad && before && after {
                // The common case, without a branch per pixel, in fixed
                // point where the span's t stays within range (nearly
                // always): each pixel's u from the span's first.
                let lut = table.entries
                let fixed = GradientShader.linearPieces(t, a, count: count) { start, n, u0, du in
                    table.ensureAll()
                    if SolidBlitter.usesAVX2 {
                        strata_linear_pad_span_avx2(lut, u0, du, out + start, n)
                    } else {
                        for i in 0..<n { out[start + i] = lut[GradientShader.linearEntry(u0, du, i)] }
                    }
                }
                if fixed { return }
                // A gradient a fraction of a pixel long, or t not finite: in Double.
                @inline(__always) func entry(_ v: Double) -> Int { Int((v > 1 ? 1 : (v > 0 ? v : 0)) * 255 + 0.5) }
                table.ensure(0, 255)
                for i in 0..<count { out[i] = lut[entry(t + Double(i) * a)] }
            } else {
                for i in 0..<count {
                    out[i] = lookup(t)
                    t += a
                }
            }
        case let .radial(inverse, c0, r0, c1, r1):
            // Padded: the kernels where the processor has them, else (a focal
            // point inside the end circle) their polynomials in Swift.
            if spread == .pad, before, after, SolidBlitter.usesAVX2 || (r0 == 0 && r1 > 0) {
                let done = withUnsafeTemporaryAllocation(of: Double.self, capacity: 24) { buffer -> Bool in
                    let g = buffer.baseAddress!
                    GradientShader.radialParameters(x, y, count, inverse, c0, r0, c1, r1, g)
                    if SolidBlitter.usesAVX2 {
                        table.ensureAll()
                        GradientShader.radialSpan(table.entries, g, count, out, level: SolidBlitter.kernelLevel)
                        return true
                    }
                    guard g[12] != 0 else { return false }
                    table.ensureAll()
                    for i in 0..<count { out[i] = table.entries[GradientShader.radialFocalEntry(g, i)] }
                    return true
                }
                if done { return }
            }
            let cdx = c1.x - c0.x, cdy = c1.y - c0.y, dr = r1 - r0
            let qa = cdx * cdx + cdy * cdy - dr * dr
            let inverseQa = 1 / qa, sign: Double = qa < 0 ? -1 : 1
            // The span's first pixel from c0 in user space, then a step of
            // the inverse's (a, b) a pixel.
            let p0 = Point(x: Double(x) + 0.5, y: py).applying(inverse)
            let pd0x = p0.x - c0.x, pd0y = p0.y - c0.y
            for i in 0..<count {
                let f = Double(i)
                let (qb, qc) = GradientShader.radialCoefficients(
                    pd0x + f * inverse.a, pd0y + f * inverse.b, cdx, cdy, r0, dr)
                out[i] = lookup(GradientShader.radialT(qa, inverseQa, sign, qb, qc, r0, dr))
            }
        case let .conic(inverse, center, angle):
            let done = withUnsafeTemporaryAllocation(of: Float.self, capacity: 5) { g -> Bool in
                guard GradientShader.conicParameters(x, y, count, inverse, center, angle, g.baseAddress!) else { return false }
                table.ensureAll()
                if SolidBlitter.usesAVX2 {
                    // Eight or sixteen pixels a step, the same operations (the kernels).
                    GradientShader.conicSpan(table.entries, g.baseAddress!, count, out, level: SolidBlitter.kernelLevel)
                    return true
                }
                let lut = table.entries
                for i in 0..<count {
                    let f = Float(i)
                    let dx = g[0] + f * g[2], dy = g[1] + f * g[3]
                    var t = GradientShader.conicTurn(dx, dy) - g[4]
                    t -= t.rounded(.down)
                    out[i] = t.isNaN || dx.isNaN || dy.isNaN ? 0 : lut[Int(t * 255 + 0.5)]
                }
                return true
            }
            if done { return }
            let twoPi = 2 * Double.pi
            for i in 0..<count {
                let p = Point(x: Double(x + i) + 0.5, y: py).applying(inverse)
                var a = atan2(p.y - center.y, p.x - center.x) - angle
                a -= twoPi * (a / twoPi).rounded(.down)
                out[i] = lookup(a / twoPi)
            }
        }
    }

    /// qb and qc of the two-circle equation at offset (pdx, pdy) from c0
    /// (the kernels' operations).
    @inline(__always)
    static func radialCoefficients(
        _ pdx: Double, _ pdy: Double, _ cdx: Double, _ cdy: Double, _ r0: Double, _ dr: Double
    ) -> (qb: Double, qc: Double) {
        (pdx * cdx + pdy * cdy + r0 * dr, pdx * pdx + pdy * pdy - r0 * r0)
    }

    /// The radial kernels' 24 parameters for pixels `x ..< x + count` of row
    /// `y`, written to `g` (`strata_radial_pad_span_avx2`'s layout). The
    /// one-root test (`radialT`'s first) is left out where it fails at
    /// every pixel of the span: qb is linear along it and qc convex, so
    /// |qb| + |qc| is at most their largest at the span's ends (twice that,
    /// for rounding). (`strata_radial_parameters` is the same in C, for the
    /// many-row sweep: a test holds the two to the same values.)
    @inline(__always)
    static func radialParameters(
        _ x: Int, _ y: Int, _ count: Int, _ inverse: Transform, _ c0: Point, _ r0: Double, _ c1: Point, _ r1: Double,
        _ g: UnsafeMutablePointer<Double>
    ) {
        let cdx = c1.x - c0.x, cdy = c1.y - c0.y, dr = r1 - r0
        let qa = cdx * cdx + cdy * cdy - dr * dr
        // The span's first pixel from c0 in user space, then a step of the
        // inverse's (a, b) a pixel.
        let p0 = Point(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
        let pd0x = p0.x - c0.x, pd0y = p0.y - c0.y
        let last = Double(Swift.max(0, count - 1))
        let first = radialCoefficients(pd0x, pd0y, cdx, cdy, r0, dr)
        let end = radialCoefficients(pd0x + last * inverse.a, pd0y + last * inverse.b, cdx, cdy, r0, dr)
        let bound = Swift.max(abs(first.qb), abs(end.qb)) + Swift.max(abs(first.qc), abs(end.qc))
        (g[0], g[1], g[2], g[3]) = (pd0x, pd0y, inverse.a, inverse.b)
        (g[4], g[5], g[6], g[7], g[8], g[9], g[10]) = (cdx, cdy, r0, dr, qa, 1 / qa, qa < 0 ? -1 : 1)
        g[11] = abs(qa) >= 2e-12 * (bound + 1e-300) ? 0 : 1
        // A focal point inside the end circle (SVG's and CSS's usual radial
        // gradient): every pixel takes the larger root, t = (qb − √disc)/qa
        // (qa < 0, so t ≥ 0 and its radius too), with qb linear in the
        // pixel's index and the discriminant quadratic: their coefficients
        // once a span, where the pixels step the general formula's values
        // (a dozen operations a pixel, now five). Far from the circles
        // (the coefficients' squares could overflow) the general loop.
        // (The polynomials' rounding moves t by about 10⁻⁸ of a span's
        // length over the radius: spans of up to 10⁴ radii keep within an
        // entry, with room to spare.)
        let focal =
            r0 == 0 && dr > 0 && qa < 0 && g[11] == 0 && bound < 0x1p100 && abs(qa) < 0x1p100
            && Double(count) <= 1e4 * dr
        (g[12], g[18]) = (0, 0)
        // (The coefficients only where they are read.)
        guard focal else { return }
        let sx = inverse.a, sy = inverse.b
        let qb0 = pd0x * cdx + pd0y * cdy, dqb = sx * cdx + sy * cdy
        let qc0 = pd0x * pd0x + pd0y * pd0y, p = pd0x * sx + pd0y * sy, ss = sx * sx + sy * sy
        (g[13], g[14]) = (qb0, dqb)
        (g[15], g[16], g[17]) = (qb0 * qb0 - qa * qc0, 2 * (qb0 * dqb - qa * p), dqb * dqb - qa * ss)
        g[12] = g[15].isFinite && g[16].isFinite && g[17].isFinite ? 1 : 0
        if g[12] != 0 { radialSingle(g, Double(count)) }
    }

    /// The focal polynomials in single precision where they keep each
    /// pixel's table place within 0.004 of an entry (g[18] = 1), as
    /// Blend2D's pipelines work a radial gradient's pixels out in single
    /// precision: a quarter of the work a pixel, and one square root for
    /// sixteen pixels where there were two. With K = 255/|qa|, the place of
    /// pixel i is 255·t + ½ = B + Bd·i + √(Ddd·(i − iv)² + Dmin) (B, Bd,
    /// iv, Ddd, Dmin in g[19 ... 23]): the discriminant written about its
    /// least value, two terms that are never negative (with the focal
    /// point inside, disc = qb² − qa·qc ≥ 0 everywhere), so its rounding is
    /// relative and nothing cancels under the root. What may cancel is the
    /// linear part against the root: the span is taken only where that
    /// part stays within 2¹³ (its rounding then moves a place by 0.0015 of
    /// an entry at most) and the root's reach from its least value within
    /// 2¹³ entries (0.001). (`strata_radial_parameters` does the same in
    /// C, with contraction off, and a test holds the two to the same bits.)
    @inline(__always)
    static func radialSingle(_ g: UnsafeMutablePointer<Double>, _ n: Double) {
        g[18] = 0
        guard g[17] > 0 else { return }
        let k = 255 * abs(g[9])
        let b = 0.5 - k * g[13], bd = -k * g[14]
        let kk = k * k
        let iv = -g[16] / (2 * g[17])
        let ddd = kk * g[17]
        let dmin = kk * (g[15] - 0.25 * g[16] * g[16] / g[17])
        let linear = k * (abs(g[13]) + abs(g[14]) * n)
        let span = abs(iv) + n
        let reach = ddd * span * span
        guard n >= 1, n <= 0x1p24, linear <= 0x1p13, reach <= 0x1p26, dmin < 0x1p100 else { return }
        (g[19], g[20], g[21]) = (Double(Float(b)), Double(Float(bd)), Double(Float(iv)))
        (g[22], g[23]) = (Double(Float(ddd)), Double(Float(dmin > 0 ? dmin : 0)))
        g[18] = 1
    }

    /// Pixel `i`'s table entry by the single-precision focal polynomials
    /// (`radialSingle`, g[18] = 1): the kernels' operations in their order.
    @inline(__always)
    static func radialSingleEntry(_ g: UnsafePointer<Double>, _ i: Int) -> Int {
        let f = Float(i)
        let u = f - Float(g[21])
        let disc = u * Float(g[22]) * u + Float(g[23])
        let root = (disc > 0 ? disc : 0).squareRoot()
        let place = Float(g[20]) * f + Float(g[19]) + root
        let clamped = place > 0 ? place : 0
        return Int(clamped < 255 ? clamped : 255)
    }

    /// Pixel `i`'s table entry where the radial parameters `g` have a focal
    /// point inside the end circle (g[12] = 1): the kernels' operations,
    /// t = (qb − √max(disc, 0))·(1/qa) with qb = g[13] + i·g[14] and
    /// disc = g[15] + i·(g[16] + i·g[17]), clamped to 0 ... 1; 256 (the
    /// transparent entry) where t is not a number.
    @inline(__always)
    static func radialFocalEntry(_ g: UnsafePointer<Double>, _ i: Int) -> Int {
        if g[18] != 0 { return radialSingleEntry(g, i) }
        let f = Double(i)
        let qb = g[13] + f * g[14]
        let disc = g[15] + f * (g[16] + f * g[17])
        // (max(disc, 0) as the kernels' maxpd: 0 where disc is not a number.)
        let t = (qb - (disc > 0 ? disc : 0).squareRoot()) * g[9]
        guard !t.isNaN else { return 256 }
        let u = t > 0 ? (t < 1 ? t : 1) : 0
        return Int(u * 255 + 0.5)
    }

    /// The conic kernels' 5 parameters for pixels `x ..< x + count` of row
    /// `y`, written to `g`: the span's first pixel from the centre in
    /// Double, then each pixel's offset and turn in single precision
    /// (`conicTurn`), where the offsets stay well within its range (a table
    /// entry is 1/255 of a turn, and the turn is within 3.5·10⁻⁷ of it).
    /// False where they do not (the span is then drawn in Double).
    @inline(__always)
    static func conicParameters(
        _ x: Int, _ y: Int, _ count: Int, _ inverse: Transform, _ center: Point, _ angle: Double,
        _ g: UnsafeMutablePointer<Float>
    ) -> Bool {
        let p0 = Point(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
        let d0x = p0.x - center.x, d0y = p0.y - center.y
        var offset = angle / (2 * Double.pi)
        offset -= offset.rounded(.down)
        let reach = Swift.max(abs(d0x), abs(d0y)) + Double(count) * Swift.max(abs(inverse.a), abs(inverse.b))
        guard reach < 0x1p20, offset.isFinite else { return false }
        (g[0], g[1], g[2], g[3], g[4]) = (Float(d0x), Float(d0y), Float(inverse.a), Float(inverse.b), Float(offset))
        return true
    }

    /// ⌊v⌋ and v rounded half away from zero, for |v| < 2³¹, without a
    /// libm call.
    @inline(__always)
    static func floor32(_ v: Double) -> Int32 {
        let i = Int32(v)
        return Double(i) > v ? i - 1 : i
    }
    @inline(__always)
    static func round32(_ v: Double) -> Int32 { Int32(v < 0 ? v - 0.5 : v + 0.5) }

    /// `linearPieces`' one piece (u0, du) where the whole span, t at its
    /// first pixel and `a` more at each next, lies within t = −1 ... 2;
    /// nil where it does not, or t or a is not finite, or |a| ≥ 4.
    @inline(__always)
    static func linearPiece(_ t: Double, _ a: Double, count: Int) -> (u0: Int32, du: Int32)? {
        guard count > 0, abs(a) < 4 else { return nil }
        let last = t + Double(count - 1) * a
        // (NaN fails every comparison.)
        guard t > -1, t < 2, last > -1, last < 2 else { return nil }
        return (floor32((t * 255 + 0.5) * 65536), round32(a * (255 * 65536)))
    }

    /// A padded linear span (`t` at its first pixel, `a` more at each next)
    /// in 16.16 fixed point of the table entry plus ½, as up to three pieces
    /// handed to `piece` in order: (first pixel, pixel count, u0, du). The
    /// pixels where t is below −1 or above 2 are pieces of one end's entry
    /// (du = 0), the rest one piece from its own first pixel, so u stays
    /// well inside 32 bits over it and the kernels' eight lanes past it. A
    /// pixel's entry is `linearEntry(u0, du, i)` for its place i in its
    /// piece, within 2⁻¹⁶ + i·2⁻¹⁷ of ⌊clamp(t, 0, 1)·255 + ½⌋. False, with
    /// nothing handed, where t or a is not finite or the gradient is under a
    /// quarter of a pixel long (|a| ≥ 4).
    @inline(__always)
    static func linearPieces(
        _ t: Double, _ a: Double, count: Int, _ piece: (_ start: Int, _ count: Int, _ u0: Int32, _ du: Int32) -> Void
    ) -> Bool {
        guard t.isFinite, abs(a) < 4, count > 0 else { return count == 0 && t.isFinite && abs(a) < 4 }
        // Nearly always: the whole span within t = −1 ... 2, one piece.
        if let (u0, du) = linearPiece(t, a, count: count) {
            piece(0, count, u0, du)
            return true
        }
        let du = round32(a * (255 * 65536))
        let last = t + Double(count - 1) * a
        let top = Int32(255 << 16)
        // The pixels with t in −1 ... 2 (give or take a rounding): lo ..< hi.
        var lo = 0, hi = count
        if a != 0 {
            let n = Double(count)
            @inline(__always) func place(_ v: Double) -> Double { Swift.min(Swift.max(v, 0), n) }
            // Pixels before `enter` are beyond the start's side, pixels
            // after `leave` beyond the end's (either may lie off the span).
            let enter = ((a > 0 ? -1 : 2) - t) / a, leave = ((a > 0 ? 2 : -1) - t) / a
            lo = Int(place(enter.rounded(.up)))
            hi = Swift.max(lo, Int(place(leave.rounded(.down) + 1)))
        } else if !(t > -1 && t < 2) {
            lo = count
            hi = count
        }
        // Before and after: the end a piece's t is beyond.
        @inline(__always) func end(_ beyond: Double) -> Int32 { beyond > 0.5 ? top : 0 }
        if lo > 0 { piece(0, lo, end(t), 0) }
        if hi > lo {
            let first = t + Double(lo) * a
            piece(lo, hi - lo, GradientShader.floor32((first * 255 + 0.5) * 65536), du)
        }
        if hi < count { piece(hi, count - hi, end(last), 0) }
        return true
    }

    /// Pixel i's table entry of a fixed-point piece (`linearPieces`): the
    /// kernels' operations.
    @inline(__always)
    static func linearEntry(_ u0: Int32, _ du: Int32, _ i: Int) -> Int {
        let u = u0 &+ Int32(truncatingIfNeeded: i) &* du
        return Int(Swift.min(Swift.max(u, 0), 255 << 16) >> 16)
    }

    @inline(__always)
    func shadeOver(
        x: Int, y: Int, count: Int, onto d: UnsafeMutablePointer<UInt32>, coverage: UInt32, mask: UnsafePointer<UInt8>?
    ) -> Bool {
        // Linear gradients only: radial and conic spans went faster shaded
        // first and blended after (their kernels' long chains before each
        // table lookup held a blend in the same pass up).
        guard case let .linear(a, b, c) = geometry else { return false }
        guard spread == .pad, before, after else { return false }
        let t = a * (Double(x) + 0.5) + b * (Double(y) + 0.5) + c
        let lut = table.entries
        return GradientShader.linearPieces(t, a, count: count) { start, n, u0, du in
            table.ensureAll()
            strata_linear_pad_over_avx2(d + start, lut, u0, du, n, coverage, mask.map { $0 + start })
        }
    }

    func sweepShadedRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
        width: Int, rows: Int, pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, x: Int, y: Int, evenOdd: Bool
    ) -> Int {
        let evenOdd: Int32 = evenOdd ? 1 : 0
        return withBandKernel(
            linear: { table, a, b, c in
                strata_sweep_linear_rows_avx2(
                    cells, cellStride, bits, wordsPerRow, width, rows, pixels, pixelStride, evenOdd, table, a, b, c, x, y)
            },
            radial: { table, k in
                strata_sweep_radial_rows_avx2(
                    cells, cellStride, bits, wordsPerRow, width, rows, pixels, pixelStride, evenOdd, table, k, x, y)
            },
            conic: { table, k in
                strata_sweep_conic_rows_avx2(
                    cells, cellStride, bits, wordsPerRow, width, rows, pixels, pixelStride, evenOdd, table, k, x, y)
            })
    }

    func shadeRectRows(
        pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, width: Int, rows: (Int, Int, Int),
        covers: RectRowCovers, x: Int, y: Int
    ) -> Int {
        withUnsafeBytes(of: rows) { r in
            withUnsafeBytes(of: covers) { c in
                let rows = r.baseAddress!.assumingMemoryBound(to: Int.self)
                let cover = c.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return withBandKernel(
                    linear: { table, a, b, c in
                        strata_rect_linear_rows_avx2(pixels, pixelStride, width, rows, cover, table, a, b, c, x, y)
                    },
                    radial: { table, k in
                        strata_rect_radial_rows_avx2(pixels, pixelStride, width, rows, cover, table, k, x, y)
                    },
                    conic: { table, k in
                        strata_rect_conic_rows_avx2(pixels, pixelStride, width, rows, cover, table, k, x, y)
                    })
            }
        }
    }

    /// The band kernel for this gradient's geometry, handed the table (all
    /// its entries made) and its constants: t = a·x + b·y + c for a linear
    /// gradient; for a radial one the inverse transform's a, b, c, d, tx,
    /// ty, then c0's x and y, r0, c1's x and y, r1; for a conic one the
    /// inverse's six, the centre's x and y, the angle. −1 without a call
    /// where the kernels take no row: a linear or radial gradient not padded
    /// at both ends.
    @inline(__always)
    private func withBandKernel(
        linear: (UnsafePointer<UInt32>, Double, Double, Double) -> Int,
        radial: (UnsafePointer<UInt32>, UnsafePointer<Double>) -> Int,
        conic: (UnsafePointer<UInt32>, UnsafePointer<Double>) -> Int
    ) -> Int {
        // (Padded at both ends, as `rowPaint` takes them; a conic gradient
        // always is.)
        let padded = spread == .pad && before && after
        switch geometry {
        case let .linear(a, b, c):
            guard padded else { return -1 }
            table.ensureAll()
            return linear(table.entries, a, b, c)
        case let .radial(inverse, c0, r0, c1, r1):
            guard padded else { return -1 }
            table.ensureAll()
            let k = (inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty, c0.x, c0.y, r0, c1.x, c1.y, r1)
            return withUnsafeBytes(of: k) { radial(table.entries, $0.baseAddress!.assumingMemoryBound(to: Double.self)) }
        case let .conic(inverse, center, angle):
            table.ensureAll()
            let k = (inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty, center.x, center.y, angle)
            return withUnsafeBytes(of: k) { conic(table.entries, $0.baseAddress!.assumingMemoryBound(to: Double.self)) }
        }
    }

    func rowPaint(
        x: Int, y: Int, count: Int, into paint: inout strata_row_paint, parameters: UnsafeMutableRawPointer
    ) -> Bool {
        switch geometry {
        case let .linear(a, b, c):
            guard spread == .pad, before, after else { return false }
            let t = a * (Double(x) + 0.5) + b * (Double(y) + 0.5) + c
            guard let (u0, du) = GradientShader.linearPiece(t, a, count: count) else { return false }
            table.ensureAll()
            paint = strata_row_paint(kind: STRATA_ROW_LINEAR, table: table.entries, u0: u0, du: du, g: nil, c: nil)
            return true
        case let .radial(inverse, c0, r0, c1, r1):
            guard spread == .pad, before, after else { return false }
            let g = parameters.bindMemory(to: Double.self, capacity: 24)
            GradientShader.radialParameters(x, y, count, inverse, c0, r0, c1, r1, g)
            guard g[12] != 0 else { return false }
            table.ensureAll()
            paint = strata_row_paint(kind: STRATA_ROW_RADIAL_FOCAL, table: table.entries, u0: 0, du: 0, g: g, c: nil)
            return true
        case let .conic(inverse, center, angle):
            let f = parameters.bindMemory(to: Float.self, capacity: 5)
            guard GradientShader.conicParameters(x, y, count, inverse, center, angle, f) else { return false }
            table.ensureAll()
            paint = strata_row_paint(kind: STRATA_ROW_CONIC, table: table.entries, u0: 0, du: 0, g: nil, c: f)
            return true
        }
    }

    /// A padded radial span by the kernel of `level` (2: AVX-512, eight
    /// pixels a step; else AVX2, four), `g` as `strata_radial_pad_span_avx2`
    /// takes it: the two give the same entries (tests compare them).
    static func radialSpan(
        _ table: UnsafePointer<UInt32>, _ g: UnsafePointer<Double>, _ count: Int, _ out: UnsafeMutablePointer<UInt32>, level: Int
    ) {
        if level >= 2 {
            strata_radial_pad_span_avx512(table, g, count, out)
        } else {
            strata_radial_pad_span_avx2(table, g, count, out)
        }
    }

    /// A conic span by the kernel of `level` (2: AVX-512, sixteen pixels a
    /// step; else AVX2, eight), `g` as `strata_conic_span_avx2` takes it:
    /// the two give the same entries (tests compare them).
    static func conicSpan(
        _ table: UnsafePointer<UInt32>, _ g: UnsafePointer<Float>, _ count: Int, _ out: UnsafeMutablePointer<UInt32>, level: Int
    ) {
        if level >= 2 {
            strata_conic_span_avx512(table, g, count, out)
        } else {
            strata_conic_span_avx2(table, g, count, out)
        }
    }

    /// The angle of (dx, dy) from the +x axis towards +y, in turns (0 ... 1):
    /// `atan2(dy, dx) / 2π` wrapped, from an odd polynomial for atan on
    /// 0 ... 1 (`STRATA_CONIC_K0` …) and the octant, in single precision:
    /// within 3.5·10⁻⁷ of a turn. 0 at (0, 0); NaN where both are infinite;
    /// of no meaning where either is NaN (the shader draws nothing there).
    @inline(__always)
    static func conicTurn(_ dx: Float, _ dy: Float) -> Float {
        // (The kernel's operations: its max and min, its division masked
        // to 0 where both are 0, the polynomial in the same order.)
        let ax = abs(dx), ay = abs(dy)
        let mx = ax > ay ? ax : ay, mn = ax < ay ? ax : ay
        let r = mx > 0 ? mn / mx : 0
        let s = r * r
        var p = STRATA_CONIC_K5 * s + STRATA_CONIC_K4
        p = p * s + STRATA_CONIC_K3
        p = p * s + STRATA_CONIC_K2
        p = p * s + STRATA_CONIC_K1
        p = p * s + STRATA_CONIC_K0
        p = p * r
        if ay > ax { p = 0.25 - p }
        if dx < 0 { p = 0.5 - p }
        if dy < 0 { p = 1 - p }
        return p
    }

    /// The largest t with |p − c(t)| = r(t) and r(t) ≥ 0, for
    /// qa·t² − 2·qb·t + qc = 0; NaN where no circle passes through the point.
    /// `inverseQa` is 1/qa and `sign` qa's sign (±1): with the root signed
    /// as qa, (qb + s)/qa is the larger root, a multiplication each.
    @inline(__always)
    static func radialT(
        _ qa: Double, _ inverseQa: Double, _ sign: Double, _ qb: Double, _ qc: Double, _ r0: Double, _ dr: Double
    ) -> Double {
        if abs(qa) < 1e-12 * (abs(qb) + abs(qc) + 1e-300) {
            // One root: the circles grow as fast as their centres move.
            guard qb != 0 else { return .nan }
            let t = qc / (2 * qb)
            return r0 + t * dr >= 0 ? t : .nan
        }
        let disc = qb * qb - qa * qc
        guard disc >= 0 else { return .nan }
        let s = disc.squareRoot() * sign
        let hi = (qb + s) * inverseQa, lo = (qb - s) * inverseQa
        if r0 + hi * dr >= 0 { return hi }
        if r0 + lo * dr >= 0 { return lo }
        return .nan
    }
}

/// Composites a shader's sources through coverage into a bitmap.
struct ShaderBlitter<S: Shader>: SpanBlitter {
    let shader: S
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int
    let mode: BlendMode
    /// Sources for up to 256 pixels at a time, then room for
    /// `coverageBytes` coverage bytes (`Canvas.shaderScratch`).
    let scratch: UnsafeMutablePointer<UInt32>
    /// The widest row whose coverage is swept at once (wider rows go span
    /// by span).
    static var coverageBytes: Int { 8192 }
    /// The most runs a row's sweep reports (`strata_sweep_coverage_avx2`):
    /// past them, the last run takes in the rest of the row.
    static var runCapacity: Int { 32 }
    /// The shader's `isRowConstant` and `mayStoreRows`, asked once: a span
    /// that asks neither costs no call (each took a copy of the shader).
    let rowsAreConstant: Bool, mayStoreRows: Bool

    init(shader: S, bitmap: Bitmap, mode: BlendMode, scratch: UnsafeMutablePointer<UInt32>) {
        self.init(shader: shader, pixels: PixelTarget(bitmap), mode: mode, scratch: scratch)
    }

    init(shader: S, pixels: PixelTarget, mode: BlendMode, scratch: UnsafeMutablePointer<UInt32>) {
        self.shader = shader
        rowsAreConstant = shader.isRowConstant
        mayStoreRows = shader.mayStoreRows
        base = pixels.base
        bytesPerRow = pixels.bytesPerRow
        self.mode = mode
        self.scratch = scratch
    }

    /// Where it writes.
    var pixels: PixelTarget { PixelTarget(base: base, bytesPerRow: bytesPerRow) }

    @inline(__always)
    private func row(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y * bytesPerRow + x * 4).assumingMemoryBound(to: UInt32.self)
    }

    /// A small band's pixels asked for while its edges are added, as the
    /// solid colour's blitter does (`AreaRasterizer`'s `prefetch`).
    @inline(__always)
    func prefetch(x: Int, y: Int, width: Int, height: Int) {
        guard SolidBlitter.usesAVX2, mode.isSourceOverOrCopy else { return }
        strata_prefetch_rows(row(x, y), bytesPerRow, width * 4, height)
    }

    /// Blends `count` sources at constant coverage `c` over `d` in `mode`;
    /// `src` may be overwritten. (Static: a method on the blitter, left out
    /// of line, took a copy of it at every call.)
    @inline(__always)
    private static func blend(
        _ mode: BlendMode, _ d: UnsafeMutablePointer<UInt32>, _ src: UnsafeMutablePointer<UInt32>, _ count: Int,
        _ c: UInt32
    ) {
        switch mode {
        case .normal:
            if SolidBlitter.usesAVX2 {
                strata_source_over_avx2(d, src, count, c)
                return
            }
            if c != 255 { SpanCompositing.scale(src, from: src, count: count, by: c) }
            SpanCompositing.sourceOver(d, src, count: count)
            return
        case .destinationIn:
            if c == 255 {
                SpanCompositing.destinationIn(d, src, count: count)
            } else {
                for i in 0..<count { d[i] = SpanCompositing.destinationIn(d[i], src[i], coverage: c) }
            }
            return
        default:
            break
        }
        if !mode.isSourceOverOrCopy {
            for i in 0..<count { d[i] = mode.blend(src[i], d[i], coverage: c) }
            return
        }
        let copy = mode == .copy
        for i in 0..<count {
            let s = c == 255 ? src[i] : scalePacked(src[i], c)
            let keep = 255 - (copy ? c : s >> 24)
            d[i] = keep == 0 ? s : s &+ scalePacked(d[i], keep)
        }
    }

    /// Covered pixels `lo ..< hi` of row `y` through their coverage bytes,
    /// for a shader that shades first: each stretch between eight
    /// uncovered bytes, 256 sources at a time.
    @inline(__always)
    private func shadeRun(_ lo: Int, _ hi: Int, _ coverage: UnsafeMutablePointer<UInt8>, originX: Int, y: Int) {
        @inline(__always) func empty8(_ i: Int) -> Bool {
            UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self) == 0
        }
        var start = lo
        while start < hi {
            while start + 8 <= hi && empty8(start) { start += 8 }
            while start < hi && coverage[start] == 0 { start += 1 }
            guard start < hi else { break }
            var end = start + 1
            while end < hi && !(end + 8 <= hi && empty8(end)) { end = min(end + 8, hi) }
            var at = start
            while at < end {
                let n = min(256, end - at)
                shader.shade(x: originX + at, y: y, count: n, into: scratch)
                strata_source_over_mask_avx2(row(originX + at, y), scratch, n, coverage + at)
                at += n
            }
            start = end
        }
    }

    /// A shader with one colour a row (a vertical linear gradient) sweeps its
    /// rows in the solid colour's row kernel, each with its own colour.
    @inline(__always)
    func sweepRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>,
        wordsPerRow: Int, width: Int, rows: Int, originX: Int, y: Int, evenOdd: Bool
    ) -> Bool {
        guard SolidBlitter.usesAVX2, mode.isSourceOverOrCopy else { return false }
        guard rowsAreConstant else {
            // Each row's coverage bytes made at once (the spans' own bytes),
            // then the row's covered pixels shaded and blended in one call
            // each: a shape's row took a shade and a blend a block of eight.
            guard mode == .normal, width <= ShaderBlitter.coverageBytes else { return false }
            let coverage = UnsafeMutableRawPointer(scratch + 256).assumingMemoryBound(to: UInt8.self)
            let capacity = ShaderBlitter.runCapacity
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * capacity) { buffer in
                withUnsafeTemporaryAllocation(byteCount: 192, alignment: 16) { parameters in
                    let runs = buffer.baseAddress!, g = parameters.baseAddress!
                    var paint = strata_row_paint()
                    // A gradient's or a pattern's rows many to a call, each
                    // worked out there (a row's paint in Swift and a call a
                    // row were a tenth to a fifth of a gradient triangle's
                    // instructions); a row it stops at goes the way below,
                    // then the rest to it again, unless it takes none of
                    // the band's.
                    var r = 0, manyRows = true
                    while r < rows {
                        if manyRows {
                            let swept = shader.sweepShadedRows(
                                cells + r * cellStride, cellStride: cellStride, bits + r * wordsPerRow,
                                wordsPerRow: wordsPerRow, width: width, rows: rows - r, pixels: row(originX, y + r),
                                pixelStride: bytesPerRow / 4, x: originX, y: y + r, evenOdd: evenOdd)
                            if swept < 0 { manyRows = false } else { r += swept }
                            if r == rows { break }
                        }
                        defer { r += 1 }
                        if shader.rowPaint(x: originX, y: y + r, count: width, into: &paint, parameters: g) {
                            // A gradient's or a pattern's row shaded as it is swept, block by
                            // block (no coverage bytes, no runs).
                            strata_sweep_shaded_row_avx2(
                                cells + r * cellStride, bits + r * wordsPerRow, wordsPerRow, width, row(originX, y + r),
                                evenOdd ? 1 : 0, &paint)
                            continue
                        }
                        // The row's runs of covered pixels, split where sixteen
                        // or more are uncovered (a stroked ring's row is its two
                        // sides a few pixels wide, and its inside was shaded).
                        let count = strata_sweep_coverage_avx2(
                            cells + r * cellStride, bits + r * wordsPerRow, wordsPerRow, width, evenOdd ? 1 : 0, coverage,
                            runs, capacity)
                        // The same places two rows down asked for now: a ring's
                        // side is a new cache line every row, and the shading
                        // between two runs' blends kept the processor from
                        // reaching the next one's pixels early.
                        if r + 2 < rows { strata_prefetch_runs(row(originX, y + r + 2), runs, count) }
                        for k in 0..<count {
                            // (A run may end in a few uncovered bytes of its last
                            // block. Trimming them measured slower: the kernels
                            // then end most runs in a masked tail, where a whole
                            // block of eight was cheaper. A padded image's span
                            // that runs past the image for them is shaded first.)
                            let lo = runs[2 * k], hi = runs[2 * k + 1]
                            // A shader that blends as it shades takes a run
                            // through its bytes at once: its kernel skips eight
                            // empty bytes in a few instructions.
                            if shader.shadeOver(
                                x: originX + lo, y: y + r, count: hi - lo, onto: row(originX + lo, y + r), coverage: 255,
                                mask: coverage + lo)
                            {
                                continue
                            }
                            shadeRun(lo, hi, coverage, originX: originX, y: y + r)
                        }
                    }
                }
            }
            return true
        }
        let copy: Int32 = mode == .copy ? 1 : 0
        for r in 0..<rows {
            strata_sweep_rows_avx2(
                cells + r * cellStride, 0, bits + r * wordsPerRow, wordsPerRow, width, 1, row(originX, y + r), 0,
                evenOdd ? 1 : 0, shader.rowConstant(y: y + r) ?? 0, copy)
        }
        return true
    }

    func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        if rowsAreConstant, let constant = shader.rowConstant(y: y) {
            var solid = SolidBlitter(pixels: pixels, color: Pixel(packed: constant), mode: mode)
            solid.blitSpan(x: x, y: y, count: count, coverage: coverage)
            return
        }
        if mayStoreRows, coverage == 255, let stored = shader.storedRow(x: x, y: y, count: count), shader.alpha == 255 {
            // An image drawn 1:1: blended straight from its pixels.
            switch mode {
            case .normal: SpanCompositing.sourceOver(row(x, y), stored, count: count); return
            case .destinationIn: SpanCompositing.destinationIn(row(x, y), stored, count: count); return
            case .copy: row(x, y).update(from: stored, count: count); return
            default: break
            }
        }
        if mode == .normal, SolidBlitter.usesAVX2,
            shader.shadeOver(x: x, y: y, count: count, onto: row(x, y), coverage: UInt32(coverage), mask: nil)
        {
            return
        }
        var done = 0
        while done < count {
            let n = min(256, count - done)
            shader.shade(x: x + done, y: y, count: n, into: scratch)
            ShaderBlitter.blend(mode, row(x + done, y), scratch, n, UInt32(coverage))
            done += n
        }
    }

    func blitMask(x: Int, y: Int, count: Int, mask: UnsafePointer<UInt8>) {
        if rowsAreConstant, let constant = shader.rowConstant(y: y) {
            var solid = SolidBlitter(pixels: pixels, color: Pixel(packed: constant), mode: mode)
            solid.blitMask(x: x, y: y, count: count, mask: mask)
            return
        }
        if mode == .normal, SolidBlitter.usesAVX2,
            shader.shadeOver(x: x, y: y, count: count, onto: row(x, y), coverage: 255, mask: mask)
        {
            return
        }
        if count > 256 {
            // More than the scratch holds: in pieces.
            var done = 0
            while done < count {
                let n = min(256, count - done)
                blitMask(x: x + done, y: y, count: n, mask: mask + done)
                done += n
            }
            return
        }
        shader.shade(x: x, y: y, count: count, into: scratch)
        let d = row(x, y)
        if mode == .normal, SolidBlitter.usesAVX2 {
            strata_source_over_mask_avx2(d, scratch, count, mask)
            return
        }
        if !mode.isSourceOverOrCopy {
            for i in 0..<count where mask[i] != 0 { d[i] = mode.blend(scratch[i], d[i], coverage: UInt32(mask[i])) }
            return
        }
        let copy = mode == .copy
        for i in 0..<count {
            let c = UInt32(mask[i])
            if c == 0 { continue }
            let s = c == 255 ? scratch[i] : scalePacked(scratch[i], c)
            let keep = 255 - (copy ? c : s >> 24)
            d[i] = keep == 0 ? s : s &+ scalePacked(d[i], keep)
        }
    }

    /// A rectangle a few pixels wide (a stroked frame's side) shaded a
    /// column at a time (`Shader.transposed()`), in runs of `columnRun` rows
    /// counted from `top`, then blended a row at a time from the columns;
    /// a row at a time paid a shader's set-up for every two or three pixels.
    /// Wider rectangles, and shaders without columns, go to `blitRect`.
    func blitColumns(x: Int, y: Int, width: Int, height: Int, top: Int, left: UInt8, middle: UInt8, right: UInt8) {
        guard width > 0, height > 0 else { return }
        guard width <= 4, mode == .normal, SolidBlitter.usesAVX2, !rowsAreConstant, let columns = shader.transposed()
        else {
            return blitRect(x: x, y: y, width: width, height: height, left: left, middle: middle, right: right)
        }
        // Column c's coverage in lane c (the kernel reads the first `width`).
        let coverage = (left, width == 2 ? right : middle, width == 4 ? middle : right, right)
        let run = shader.columnRun
        withUnsafeBytes(of: coverage) { c in
            var from = y
            let bottom = y + height
            while from < bottom {
                // The run holding row `from`, counted from `top`: its place
                // in a period of `run` rows, as a repeated pattern's.
                let start = from - ImageShader.wrap(from - top, run, .repeat), end = min(start + run, bottom)
                for k in 0..<width where c[k] != 0 {
                    columns.shade(x: start, y: x + k, count: end - start, into: scratch + k * run)
                }
                strata_source_over_columns_avx2(
                    row(x, from), bytesPerRow / 4, scratch + (from - start), run, width, end - from,
                    c.baseAddress!.assumingMemoryBound(to: UInt8.self))
                from = end
            }
        }
    }

    func blitRect(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8) {
        let cover = (left, middle, right)
        blitRectRows(x: x, y: y, width: width, rows: (height, 0, 0), top: cover, middle: cover, bottom: cover)
    }

    func blitRectRows(
        x: Int, y: Int, width: Int, rows: (Int, Int, Int), top: (UInt8, UInt8, UInt8), middle: (UInt8, UInt8, UInt8),
        bottom: (UInt8, UInt8, UInt8)
    ) {
        guard width > 0 else { return }
        var remaining = (max(rows.0, 0), max(rows.1, 0), max(rows.2, 0))
        var y = y
        /// Takes `n` rows off the top of the groups left.
        func drop(_ n: Int) {
            var n = n
            let a = min(n, remaining.0)
            remaining.0 -= a
            n -= a
            let b = min(n, remaining.1)
            remaining.1 -= b
            remaining.2 -= n - b
            y += a + n
        }
        if mode == .normal, SolidBlitter.usesAVX2, !rowsAreConstant {
            // A gradient's rows many to a call, all three groups, each row's
            // paint worked out and its parts blended there (a row's paint in
            // Swift, and a kernel's set-up for each part, were a fifth of a
            // large radial rectangle's time, and a call a group a twentieth
            // of a small linear one's); a row the kernel stops at goes the
            // way below, then the rest to it again, unless it takes none.
            while remaining.0 + remaining.1 + remaining.2 > 0 {
                let drawn = shader.shadeRectRows(
                    pixels: row(x, y), pixelStride: bytesPerRow / 4, width: width, rows: remaining,
                    covers: (top, middle, bottom), x: x, y: y)
                if drawn < 0 { break }
                drop(drawn)
                guard remaining.0 + remaining.1 + remaining.2 > 0 else { return }
                let c = remaining.0 > 0 ? top : remaining.1 > 0 ? middle : bottom
                blitRectRowByRow(x: x, y: y, width: width, height: 1, left: c.0, middle: c.1, right: c.2)
                drop(1)
            }
        }
        let (r0, r1, r2) = remaining
        if r0 > 0 { blitRectRowByRow(x: x, y: y, width: width, height: r0, left: top.0, middle: top.1, right: top.2) }
        if r1 > 0 {
            blitRectRowByRow(x: x, y: y + r0, width: width, height: r1, left: middle.0, middle: middle.1, right: middle.2)
        }
        if r2 > 0 {
            blitRectRowByRow(x: x, y: y + r0 + r1, width: width, height: r2, left: bottom.0, middle: bottom.1, right: bottom.2)
        }
    }

    /// `blitRect` a row at a time, through `shade` or `shadeOver`.
    private func blitRectRowByRow(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8) {
        // One coverage across (a rectangle on whole pixels): one span a row.
        let uniform = width == 1 || (left == right && (width == 2 || middle == left))
        if uniform {
            if left != 0 { for r in 0..<height { blitSpan(x: x, y: y + r, count: width, coverage: left) } }
            return
        }
        // Edges of their own: each row shaded once, its three parts blended
        // with their coverages (a shader's set-up per span cost more than
        // the pixels of a small rectangle); with AVX2, in one pass over the
        // row's coverage bytes (a stroked frame's sides are rectangles two
        // or three pixels wide, a blend each a pixel otherwise).
        if width <= 256 && mode.isSourceOverOrCopy && !rowsAreConstant {
            if mode == .normal, SolidBlitter.usesAVX2 {
                let mask = UnsafeMutableRawPointer(scratch + 256).assumingMemoryBound(to: UInt8.self)
                mask[0] = left
                if width > 2 { (mask + 1).update(repeating: middle, count: width - 2) }
                mask[width - 1] = right
                for r in 0..<height
                where !shader.shadeOver(x: x, y: y + r, count: width, onto: row(x, y + r), coverage: 255, mask: mask) {
                    shader.shade(x: x, y: y + r, count: width, into: scratch)
                    strata_source_over_mask_avx2(row(x, y + r), scratch, width, mask)
                }
                return
            }
            for r in 0..<height {
                shader.shade(x: x, y: y + r, count: width, into: scratch)
                let d = row(x, y + r)
                if left != 0 { ShaderBlitter.blend(mode, d, scratch, 1, UInt32(left)) }
                if width > 2 && middle != 0 { ShaderBlitter.blend(mode, d + 1, scratch + 1, width - 2, UInt32(middle)) }
                if width > 1 && right != 0 {
                    ShaderBlitter.blend(mode, d + width - 1, scratch + width - 1, 1, UInt32(right))
                }
            }
            return
        }
        for r in 0..<height {
            if left != 0 { blitSpan(x: x, y: y + r, count: 1, coverage: left) }
            if width > 2 && middle != 0 { blitSpan(x: x + 1, y: y + r, count: width - 2, coverage: middle) }
            if width > 1 && right != 0 { blitSpan(x: x + width - 1, y: y + r, count: 1, coverage: right) }
        }
    }
}
