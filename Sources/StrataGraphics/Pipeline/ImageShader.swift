internal import CPixels

/// How images are sampled when drawn scaled or transformed
/// (`CGInterpolationQuality`).
public enum InterpolationQuality: Sendable, Hashable {
    /// Nearest pixel: hard edges, for pixel art and 1:1 drawing.
    case none
    /// Bilinear between the four nearest pixels, from a box-filtered mipmap level
    /// when the image is shrunk to under half its size, so it does not alias.
    case low, medium
    /// Bicubic over the sixteen nearest pixels (the Mitchell–Netravali filter,
    /// B = C = ⅓: sharper than bilinear when enlarging, without the ringing of
    /// sharper cubics), from a mipmap level when shrinking, as with bilinear.
    case high
    /// The same as `.medium`.
    case `default`
}

/// The filter an `ImageShader` samples with.
enum ImageFilter: Sendable {
    case nearest, bilinear, bicubic

    init(_ quality: InterpolationQuality) {
        switch quality {
        case .none: self = .nearest
        case .high: self = .bicubic
        case .low, .medium, .default: self = .bilinear
        }
    }
}

/// Samples an image through the inverse of its placement: drawn images (edges
/// padded) and patterns (padded, repeated or reflected).
struct ImageShader: Shader {
    let pixels: UnsafePointer<UInt32>
    let width: Int, height: Int
    /// Row length in pixels.
    let stride: Int
    /// Device pixel centre → image pixel coordinates.
    let inverse: Transform
    let filter: ImageFilter
    /// What lies beyond the image's edges.
    let spread: GradientSpread
    /// Multiplies every sample (the canvas alpha), 0...255.
    let alpha: UInt32
    /// When the image is drawn 1:1 at a whole-pixel offset (a layer or group
    /// composited back, an image drawn unscaled), device pixel (x, y) is image
    /// pixel (x + dx, y + dy), and rows are copied, not sampled. Nearest and
    /// bilinear give that pixel exactly (weights 1, 0, 0, 0); the Mitchell cubic
    /// would soften it (its side taps weigh ⅟₁₈ each at a pixel centre), so an
    /// unscaled image is copied at every quality, as Skia does for whole-pixel
    /// translations.
    let shift: (dx: Int, dy: Int)?
    /// How the image's columns are copied, not sampled.
    enum ColumnCopy {
        /// Drawn 1:1: device column y is image column y + dx, device rows
        /// x ..< x + count image rows from x + dy.
        case shift(dx: Int, dy: Int)
        /// Moved by a translation alone and sampled nearest: the image
        /// column and row under the run's first pixel centre (the centre
        /// plus these), the rest of the run the rows after it, as a row's
        /// copy takes its columns.
        case offset(tx: Double, ty: Double)
    }
    /// Set on the `transposed()` shader of an image whose rows are copied:
    /// `shade(x:y:)` then copies the image's column, the pixels the
    /// untransposed shader copies a row at a time.
    private(set) var columnCopy: ColumnCopy? = nil

    init(
        pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int, inverse: Transform,
        filter: ImageFilter, spread: GradientSpread, alpha: UInt32
    ) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        // A repeated or reflected pattern placed far off is moved back by
        // whole periods first (an exact remainder), so that the pixel centres'
        // halves still count: at a translation of 10¹⁹ one unit of a Double is
        // 2048 pixels, and every sample fell between two texels. Below 2³²
        // (where a Double still holds a pixel to a millionth) translations are
        // left exactly as they are.
        var m = inverse
        if spread != .pad {
            let periodX = Double(spread == .repeat ? width : 2 * width)
            let periodY = Double(spread == .repeat ? height : 2 * height)
            if abs(m.tx) >= 0x1p32 { m.tx = m.tx.truncatingRemainder(dividingBy: periodX) }
            if abs(m.ty) >= 0x1p32 { m.ty = m.ty.truncatingRemainder(dividingBy: periodY) }
        }
        self.inverse = m
        self.filter = filter
        self.spread = spread
        self.alpha = alpha
        if m.a == 1, m.b == 0, m.c == 0, m.d == 1, abs(m.tx) < 1e15, abs(m.ty) < 1e15,
            m.tx == m.tx.rounded(), m.ty == m.ty.rounded()
        {
            shift = (Int(m.tx), Int(m.ty))
        } else {
            shift = nil
        }
    }

    func rowConstant(y: Int) -> UInt32? { nil }

    /// Runs of 16: a span's set-up costs less than a gradient's, its
    /// pixels more.
    var columnRun: Int { 16 }

    /// Sampled through the placement after swapping x and y; for an image
    /// whose rows are copied, its columns copied too (`columnCopy`): the
    /// sides of a frame stroked with a pattern placed on whole pixels went
    /// a row of two pixels at a time, a kernel call each.
    func transposed() -> ImageShader? {
        var t = ImageShader(
            pixels: pixels, width: width, height: height, stride: stride, inverse: inverse.afterSwappingAxes,
            filter: filter, spread: spread, alpha: alpha)
        let m = inverse
        if let (dx, dy) = shift {
            t.columnCopy = .shift(dx: dx, dy: dy)
        } else if filter == .nearest, m.a == 1, m.b == 0, m.c == 0, m.d == 1, abs(m.tx) < 0x1p31, abs(m.ty) < 0x1p31 {
            t.columnCopy = .offset(tx: m.tx, ty: m.ty)
        }
        return t
    }

    var mayStoreRows: Bool { shift != nil }

    /// The image's own pixels for a span, when it is drawn 1:1 and the span lies
    /// inside it, with the alpha they are still to be multiplied by.
    @inline(__always)
    func storedRow(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>? {
        guard let (dx, dy) = shift else { return nil }
        let ix = x + dx, iy = y + dy
        guard ix >= 0, ix + count <= width, iy >= 0, iy < height else { return nil }
        return pixels + iy * stride + ix
    }

    /// Index `i` brought into 0..<n as the spread says: clamped, repeated, or
    /// reflected (… 1 0 | 0 1 … n−1 | n−1 n−2 …).
    @inline(__always)
    private func wrap(_ i: Int, _ n: Int) -> Int { ImageShader.wrap(i, n, spread) }

    /// `wrap` for any spread. An index already inside (a pattern's row or
    /// column is, nearly always, where the pattern lies over the shape)
    /// comes back without a division: two a row, for a pattern swept a row
    /// at a time, cost a large pattern triangle a twentieth of its samples.
    @inline(__always)
    static func wrap(_ i: Int, _ n: Int, _ spread: GradientSpread) -> Int {
        if UInt(bitPattern: i) < UInt(bitPattern: n) { return i }
        switch spread {
        case .pad:
            return i < 0 ? 0 : (i >= n ? n - 1 : i)
        case .repeat:
            let r = i % n
            return r < 0 ? r + n : r
        case .reflect:
            var r = i % (2 * n)
            if r < 0 { r += 2 * n }
            return r < n ? r : 2 * n - 1 - r
        }
    }

    /// A coordinate along a side of `n` pixels brought near the image in Double,
    /// before it becomes an `Int`: clamped a few pixels outside it, or moved by
    /// whole periods into the first one. The remainder is exact in floating
    /// point whatever the magnitude (`u − ⌊u/w⌋·w` is not: at 10³⁵ its error
    /// is many periods, and the conversion trapped).
    ///
    /// Below 2⁴⁰ the whole periods are counted by a truncating conversion
    /// and taken off in one subtraction, exact as the remainder is (the two
    /// lie within a period of each other), without its libm call, which
    /// took a fifth of a rotated pattern's time.
    @inline(__always)
    private func reduce(_ u: Double, _ n: Int) -> Double {
        let w = Double(n)
        switch spread {
        case .pad: return max(-4, min(w + 4, u))
        case .repeat:
            return ImageShader.remainder(u, w)
        case .reflect:
            return ImageShader.remainder(u, 2 * w)
        }
    }

    /// `u` moved by whole periods `p` into 0 ... p (p itself only where
    /// the last addition rounds up to it). A `u` already inside is itself,
    /// without the division (a pattern's row each, where the pattern lies
    /// over the shape).
    @inline(__always)
    static func remainder(_ u: Double, _ p: Double) -> Double {
        if u >= 0 && u < p { return u }
        guard abs(u) < 0x1p40 else {
            let r = u.truncatingRemainder(dividingBy: p)
            return r < 0 ? r + p : r
        }
        let q = u / p
        var k = Int(q)
        if Double(k) > q { k -= 1 }
        let r = u - Double(k) * p
        return r < 0 ? r + p : (r >= p ? r - p : r)
    }

    /// `wrap` for an index from a reduced coordinate (`reduce`), without its
    /// divisions: repeated, such an index lies within −1 ... n (a period and
    /// a pixel either side is allowed), reflected within −1 ... 2n. Two
    /// integer divisions a fetch were most of a rotated pattern's time.
    @inline(__always)
    private func wrapNear(_ i: Int, _ n: Int) -> Int { ImageShader.wrapNear(i, n, spread) }

    @inline(__always)
    static func wrapNear(_ i: Int, _ n: Int, _ spread: GradientSpread) -> Int {
        switch spread {
        case .pad:
            return wrap(i, n, .pad)  // (a clamp, without division already)
        case .repeat:
            return i < 0 ? i + n : (i >= n ? i - n : i)
        case .reflect:
            let r = i < 0 ? i + 2 * n : (i >= 2 * n ? i - 2 * n : i)
            return r < n ? r : 2 * n - 1 - r
        }
    }

    /// ⌊v⌋ for v ≥ −8 (every reduced coordinate here): a truncating conversion,
    /// where `rounded(.down)` is a call into libm on baseline x86-64.
    @inline(__always)
    private func floorInt(_ v: Double) -> Int { Int(v + 8) - 8 }

    /// A bilinear weight in 1/256 from the fraction `f` in 0..<1, rounded.
    @inline(__always)
    private static func weight(_ f: Double) -> UInt32 { UInt32(truncatingIfNeeded: Int(f * 256 + 0.5)) }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        if let columnCopy {
            switch columnCopy {
            case .shift(let dx, let dy):
                copyColumn(x: x, y: y, count: count, into: out, dx: dx, dy: dy)
            case .offset(let tx, let ty):
                // (Device column y, rows x ..< x + count: the image's column
                // and first row under the first pixel's centre.)
                let dx = Int((Double(y) + 0.5 + tx).rounded(.down)) - y
                let dy = Int((Double(x) + 0.5 + ty).rounded(.down)) - x
                copyColumn(x: x, y: y, count: count, into: out, dx: dx, dy: dy)
            }
            return
        }
        if let (dx, dy) = shift {
            // 1:1: copy the row, the edge pixels repeated where it runs outside.
            let row = pixels + wrap(y + dy, height) * stride
            var i = 0
            while i < count {
                let ix = x + i + dx
                if ix >= 0 && ix < width {
                    let n = min(count - i, width - ix)
                    (out + i).update(from: row + ix, count: n)
                    i += n
                } else {
                    out[i] = row[wrap(ix, width)]
                    i += 1
                }
            }
            if alpha != 255 { SpanCompositing.scale(out, from: out, count: count, by: alpha) }
            return
        }
        let m = inverse
        if filter == .bilinear, m.a == 1, m.b == 0, m.c == 0, spread != .reflect, SolidBlitter.usesAVX2,
            shadeTranslated(x: x, y: y, count: count, into: out)
        {
            return
        }
        if filter == .nearest, m.a == 1, m.b == 0, m.c == 0, spread != .reflect,
            copyTranslated(x: x, y: y, count: count, into: out)
        {
            return
        }
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let u = m.a * px + m.c * py + m.tx
        let v = m.b * px + m.d * py + m.ty
        if SolidBlitter.usesAVX2, spread != .reflect, filter != .bicubic, affineKernelFits {
            // A pattern or image at any angle, eight pixels a step (the
            // kernel's operations are the loops' below), where the span's
            // coordinates are within the kernel's reach: u and v are linear
            // along it, so its ends bound them. An image only scaled
            // (contents stretched to a layer's bounds) comes here too, not to
            // the axis-aligned loop below: composite-full-4k's frame took
            // 0.91 of its time so.
            let last = Double(Swift.max(0, count - 1))
            let reach = Swift.max(
                Swift.max(abs(u), abs(u + last * m.a)), Swift.max(abs(v), abs(v + last * m.b)))
            if reach < 0x1p40 {
                // Only scaled (or sheared along x) and padded: the span
                // reads one pair of rows, each column mixed between them
                // once (the frame took 0.91 of its time again); the affine
                // kernel's pixels. It declines strong reductions.
                let scaled =
                    filter == .bilinear && spread == .pad && m.b == 0
                    && strata_scaled_span_avx2(pixels, stride, width, height, u, v, m.a, count, out) != 0
                if !scaled {
                    strata_affine_span_avx2(
                        pixels, stride, width, height, u, v, m.a, m.b, count, out, filter == .bilinear ? 1 : 0,
                        spread == .pad ? 1 : 0)
                }
                if alpha != 255 { SpanCompositing.scale(out, from: out, count: count, by: alpha) }
                return
            }
        }
        if filter == .bilinear, spread == .pad, m.b == 0, m.c == 0 {
            shadeAxisAligned(x: x, y: y, count: count, into: out)
            return
        }
        shadeAffine(u: u, v: v, count: count, into: out)
    }

    /// A column of the image moved by whole pixels (`transposed()`: device
    /// column y is image column y + dx, device rows x ..< x + count image
    /// rows from x + dy), the edge pixels repeated where it runs outside,
    /// as a row's copy repeats them.
    @inline(__always)
    private func copyColumn(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, dx: Int, dy: Int) {
        let column = pixels + wrap(y + dx, width)
        var iy = x + dy
        for i in 0..<count {
            out[i] = column[wrap(iy, height) * stride]
            iy += 1
        }
        if alpha != 255 { SpanCompositing.scale(out, from: out, count: count, by: alpha) }
    }

    /// Blends straight from the image's row where a span's sources are runs
    /// of it (nearest samples of an image moved along x only, or an image
    /// drawn 1:1), repeated or inside a padded image: the runs went through
    /// the scratch (a copy, then the blend). The same kernels as `shade`
    /// then the blend, so the same bits. An image up to 32 pixels wide
    /// whose span wraps or passes its edge is picked from its row in
    /// registers where the kernels have AVX-512, copied out eight at a time
    /// with AVX2 (`strata_source_over_image_row`). False where the span
    /// needs more (an alpha, a reflection, a wider padded image's edge, a
    /// narrow image's wraps or edge without AVX2).
    func shadeOver(
        x: Int, y: Int, count: Int, onto d: UnsafeMutablePointer<UInt32>, coverage: UInt32, mask: UnsafePointer<UInt8>?
    ) -> Bool {
        guard alpha == 255, spread != .reflect, count > 0, let (row, column) = unsampledRow(x: x, y: y) else { return false }
        // (Not a number: `shade` gives transparent sources, which blend to nothing.)
        guard let source = row else { return true }
        var c = column
        if spread == .repeat {
            // A span's column is most often within the first period or the
            // next (a pattern placed near the shape): no division there.
            if c < 0 || c >= 2 * width {
                c = wrap(c, width)
            } else if c >= width {
                c -= width
            }
            if width < 32 && count > width - c {
                // A narrow image's periods picked from its row in registers
                // (with AVX-512), or copied out eight at a time (AVX2): a
                // call a period, or the sources copied out by `shade`, made
                // a small pattern's shapes 1.5–2 times Blend2D's time.
                return strata_source_over_image_row(d, source, width, c, count, coverage, mask, 1) != 0
            }
        } else if c < 0 || c > width - count {
            // Past a narrow image's edge (an image drawn between pixels):
            // its edge pixels held, picked from the row in registers.
            return width <= 32 && strata_source_over_image_row(d, source, width, c, count, coverage, mask, 0) != 0
        }
        var i = 0
        while i < count {
            if c >= width { c = 0 }
            let n = min(count - i, width - c)
            if let mask {
                strata_source_over_mask_avx2(d + i, source + c, n, mask + i)
            } else {
                strata_source_over_avx2(d + i, source + c, n, coverage)
            }
            i += n
            c += n
        }
        return true
    }

    /// A rectangle's rows (`ShaderBlitter.blitRectRows`) of an image moved
    /// without scaling along x, at full alpha, repeated or padded, up to 256
    /// pixels wide: every row in one call, the same bytes as
    /// `shadeOver`'s or `shade`'s a row at a time. Rows whose sources are
    /// the image's own pixels (`unsampledRow`) go to
    /// `strata_rect_image_rows` (AVX-512 or AVX2); rows sampled bilinearly
    /// (`shadeTranslated`), up to 48 pixels wide, to
    /// `strata_rect_bilinear_rows` (AVX-512 or AVX2). (A row at
    /// a time, the calls and each row's set-up were a third of an 8-pixel
    /// image's time drawn between pixels, and a wide padded image's edge
    /// went through the scratch.) −1 for any other rows.
    func shadeRectRows(
        pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, width count: Int, rows: (Int, Int, Int),
        covers: RectRowCovers, x: Int, y: Int
    ) -> Int {
        guard alpha == 255, spread != .reflect, count <= 256, columnCopy == nil else { return -1 }
        let m = inverse
        // (Bilinear rows wider than 48 pixels measured 6–13 % slower so:
        // there a row's set-up is little of its time, and the AVX2 mixes
        // and blends a row at a time do as well.)
        let translated = shift == nil && filter == .bilinear && m.a == 1 && m.b == 0 && m.c == 0 && count <= 48
        guard translated || isUnsampledAlongRows else { return -1 }
        return withUnsafeBytes(of: rows) { r in
            withUnsafeBytes(of: covers) { cover in
                let rows = r.baseAddress!.assumingMemoryBound(to: Int.self)
                let cover = cover.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if translated {
                    return strata_rect_bilinear_rows(
                        pixels, pixelStride, count, rows, cover, self.pixels, stride, width, height, m.d, m.tx, m.ty, x, y,
                        spread == .repeat ? 1 : 0)
                }
                guard let (_, column) = unsampledRow(x: x, y: y), abs(column) <= 1 << 24 else { return -1 }
                return strata_rect_image_rows(
                    pixels, pixelStride, count, rows, cover, self.pixels, stride, width, height, shift != nil ? 1 : 0,
                    shift?.dy ?? 0, m.d, m.ty, y, spread == .repeat ? wrap(column, width) : column, spread == .repeat ? 1 : 0)
            }
        }
    }

    /// Where the sources of row y's pixels from x on are the image's own
    /// pixels, unsampled (an image drawn 1:1, or a nearest-neighbour pattern
    /// moved along the row by a translation alone): the image row and pixel
    /// x's column (not yet wrapped). The row is nil where its coordinate is
    /// not a number (`shade` gives transparent sources there); nil for any
    /// other placement.
    @inline(__always)
    private func unsampledRow(x: Int, y: Int) -> (row: UnsafePointer<UInt32>?, column: Int)? {
        if let (dx, dy) = shift {
            return (pixels + wrap(y + dy, height) * stride, x + dx)
        }
        guard isUnsampledAlongRows else { return nil }
        let m = inverse
        let u0 = Double(x) + 0.5 + m.tx
        guard abs(u0) < 0x1p31 else { return nil }
        let sv = reduce(m.d * (Double(y) + 0.5) + m.ty, height)
        guard sv.isFinite else { return (nil, 0) }
        // (A reduced coordinate's row is within a pixel of the image: no
        // division; nor a libm call for the column's floor.)
        let whole = Int(u0)
        return (pixels + wrapNear(floorInt(sv), height) * stride, Double(whole) > u0 ? whole - 1 : whole)
    }

    /// Whether a row's samples are the image's pixels as they are: moved by
    /// whole pixels, or unscaled along x and taken at the nearest pixel
    /// (`unsampledRow`).
    private var isUnsampledAlongRows: Bool {
        shift != nil || (filter == .nearest && inverse.a == 1 && inverse.b == 0 && inverse.c == 0)
    }

    /// Whether the row kernel takes `count` pixels of such rows as an image
    /// row (`STRATA_ROW_IMAGE`): repeated, at full alpha, and not so narrow
    /// that it wraps every few pixels (a piece each: its rows go the way of
    /// `shadeOver`'s narrow images, through `shade`).
    private func rowKernelTakesRows(count: Int) -> Bool {
        alpha == 255 && spread == .repeat && (width >= 32 || count <= width) && width <= Int(Int32.max)
    }

    /// A repeated pattern's row whose sources are the image's pixels as
    /// they are (`unsampledRow`) is swept and blended in one pass
    /// (`STRATA_ROW_IMAGE`): no coverage bytes, no runs.
    func rowPaint(
        x: Int, y: Int, count: Int, into paint: inout strata_row_paint, parameters: UnsafeMutableRawPointer
    ) -> Bool {
        guard rowKernelTakesRows(count: count), let (row, column) = unsampledRow(x: x, y: y), let source = row
        else { return false }
        paint = strata_row_paint(
            kind: STRATA_ROW_IMAGE, table: source, u0: Int32(wrap(column, width)), du: Int32(width), g: nil, c: nil)
        return true
    }

    /// The rows `rowPaint` takes swept many to a call
    /// (`strata_sweep_image_rows_avx2`, each row's image row worked out
    /// there as `unsampledRow` does): `rowPaint`'s conditions, checked once.
    /// A repeated pattern sampled bilinearly and moved along x only is
    /// swept the same way (`strata_sweep_bilinear_rows_avx2`: each pixel
    /// mixed from its four image pixels as it is blended, as
    /// `shadeTranslated` mixes them), where it would otherwise be shaded
    /// into a scratch a run at a time and blended through coverage bytes;
    /// one at any other angle or scale, through the affine kernel
    /// (`strata_sweep_affine_rows_avx2`), at full alpha, repeated or padded,
    /// however narrow.
    func sweepShadedRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>, wordsPerRow: Int,
        width count: Int, rows: Int, pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, x: Int, y: Int, evenOdd: Bool
    ) -> Int {
        let m = inverse
        guard isUnsampledAlongRows else {
            guard alpha == 255, spread == .repeat || spread == .pad else { return -1 }
            if m.a == 1, m.b == 0, m.c == 0 {
                // (Padded and moved along x only, `shade` takes its own
                // loops.)
                guard spread == .repeat else { return -1 }
            }
            if filter == .bilinear, m.a == 1, m.b == 0, m.c == 0 {
                // (Image rows, as below: a narrow one's cut where it wraps.)
                guard rowKernelTakesRows(count: count) else { return -1 }
                return strata_sweep_bilinear_rows_avx2(
                    cells, cellStride, bits, wordsPerRow, count, rows, pixels, pixelStride, evenOdd ? 1 : 0, self.pixels,
                    stride, width, height, m.d, m.tx, m.ty, x, y)
            }
            // At any other angle or scale, the affine kernel's pixels (as
            // `shade` takes them from it), each block of eight as it is
            // blended, however narrow the image: the kernel wraps or clamps
            // each pixel's coordinates, with no image rows to cut in pieces.
            // Padded, that is an image drawn turned (`draw(_:in:)`): its
            // edge pixels' rows went through coverage bytes a run at a time,
            // an 8-pixel turned image at 0.4 of Blend2D's calls.
            // (Moved along x only, it is sampled nearest, taken below as an
            // unsampled row, or bicubic.)
            guard columnCopy == nil, filter != .bicubic, affineKernelFits else { return -1 }
            let map = (m.a, m.b, m.c, m.d, m.tx, m.ty)
            return withUnsafeBytes(of: map) { raw in
                strata_sweep_affine_rows_avx2(
                    cells, cellStride, bits, wordsPerRow, count, rows, pixels, pixelStride, evenOdd ? 1 : 0, self.pixels,
                    stride, width, height, raw.assumingMemoryBound(to: Double.self).baseAddress!,
                    filter == .bilinear ? 1 : 0, spread == .pad ? 1 : 0, x, y)
            }
        }
        guard rowKernelTakesRows(count: count) else { return -1 }
        return strata_sweep_image_rows_avx2(
            cells, cellStride, bits, wordsPerRow, count, rows, pixels, pixelStride, evenOdd ? 1 : 0, self.pixels, stride,
            width, height, shift == nil ? 0 : 1, shift?.dx ?? 0, shift?.dy ?? 0, m.d, m.tx, m.ty, x, y)
    }

    /// Whether `strata_affine_span_avx2` can index the image (its indices
    /// are 32-bit).
    private var affineKernelFits: Bool { stride &* height < Int(Int32.max) && width < Int(Int32.max) / 2 }

    /// The sampling loops for any affine map, from image point (u, v) at the
    /// span's first pixel: pixel i at (u + i·a, v + i·b), the inverse's a and
    /// b (`strata_affine_span_avx2` does the same for a repeat or a pad).
    func shadeAffine(u: Double, v: Double, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let m = inverse
        // One loop a filter (the filter's switch out of the loop), indices
        // wrapped without division (`wrapNear`) and their arithmetic
        // unchecked: they lie within the image.
        switch filter {
        case .nearest:
            for i in 0..<count {
                let f = Double(i)
                let su = reduce(u + f * m.a, width), sv = reduce(v + f * m.b, height)
                out[i] =
                    su.isFinite && sv.isFinite
                    ? pixels[wrapNear(floorInt(sv), height) &* stride &+ wrapNear(floorInt(su), width)] : 0
            }
        case .bilinear:
            for i in 0..<count {
                let f = Double(i)
                let su = reduce(u + f * m.a, width), sv = reduce(v + f * m.b, height)
                guard su.isFinite && sv.isFinite else {
                    out[i] = 0
                    continue
                }
                // Between the four pixel centres around (u, v), the two
                // columns and rows wrapped once each.
                let fu = su - 0.5, fv = sv - 0.5
                let x0 = floorInt(fu), y0 = floorInt(fv)
                let wx = ImageShader.weight(fu - Double(x0)), wy = ImageShader.weight(fv - Double(y0))
                let c0 = wrapNear(x0, width), c1 = wrapNear(x0 &+ 1, width)
                let r0 = pixels + wrapNear(y0, height) &* stride, r1 = pixels + wrapNear(y0 &+ 1, height) &* stride
                out[i] = ImageShader.mix(r0[c0], r0[c1], r1[c0], r1[c1], wx, wy)
            }
        case .bicubic:
            for i in 0..<count {
                let f = Double(i)
                let su = reduce(u + f * m.a, width), sv = reduce(v + f * m.b, height)
                out[i] = su.isFinite && sv.isFinite ? bicubic(su, sv) : 0
            }
        }
        if alpha != 255 { SpanCompositing.scale(out, from: out, count: count, by: alpha) }
    }

    /// Bilinear sampling of an image that is only scaled and moved (the common
    /// case: contents stretched by gravity): the two source rows are the same
    /// for the whole span. The same samples as the general loop, found with
    /// less work per pixel; where `strata_affine_span_avx2` cannot take the
    /// span (no AVX2, or coordinates beyond its reach).
    private func shadeAxisAligned(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let m = inverse
        let w = Double(width), h = Double(height)
        var u = m.a * (Double(x) + 0.5) + m.tx
        let sv = max(-4, min(h + 4, m.d * (Double(y) + 0.5) + m.ty))
        guard sv.isFinite else {
            out.update(repeating: 0, count: count)
            return
        }
        let fv = sv - 0.5
        let y0 = floorInt(fv)
        let wy = ImageShader.weight(fv - Double(y0))
        let r0 = pixels + wrap(y0, height) * stride, r1 = pixels + wrap(y0 + 1, height) * stride
        let last = width - 1
        // The two columns mixed between the rows, kept while the samples stay
        // between the same columns (most of an enlargement): one lerp a pixel
        // instead of three.
        var column = Int.min
        var left: UInt32 = 0, right: UInt32 = 0
        for i in 0..<count {
            let su = max(-4, min(w + 4, u))
            var s: UInt32 = 0
            if su.isFinite {
                let fu = su - 0.5
                let x0 = floorInt(fu)
                let wx = ImageShader.weight(fu - Double(x0))
                if x0 != column {
                    let xa = x0 < 0 ? 0 : (x0 > last ? last : x0)
                    let xb = x0 < -1 ? 0 : (x0 >= last ? last : x0 + 1)
                    left = ImageShader.lerp(r0[xa], r1[xa], wy)
                    right = ImageShader.lerp(r0[xb], r1[xb], wy)
                    column = x0
                }
                s = ImageShader.lerp(left, right, wx)
            }
            out[i] = alpha == 255 ? s : scalePacked(s, alpha)
            u += m.a
        }
    }

    /// Bilinear sampling of an image moved along x without scaling (a
    /// pattern or an image drawn at a fractional offset, scaled or not
    /// vertically): every pixel of the span lies the same fraction past its
    /// column, so the two rows are mixed once a column (`strata_lerp_rows_avx2`)
    /// and each pixel is its column mixed with the next by that one weight
    /// (`strata_lerp_neighbours_avx2`). The samples are taken at the pixel
    /// centres exactly. False (nothing written) for a span too far from
    /// the image for whole columns to count exactly.
    private func shadeTranslated(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) -> Bool {
        guard let (u0, sv) = translatedSpan(x: x, y: y, count: count, into: out) else { return false }
        guard let sv else { return true }
        let fv = sv - 0.5
        let y0 = floorInt(fv)
        let wy = ImageShader.weight(fv - Double(y0))
        let r0 = pixels + wrap(y0, height) * stride, r1 = pixels + wrap(y0 + 1, height) * stride
        // The first sample's column, brought into the image as the spread
        // says (a repeat moves it by whole widths; a pad keeps it, and the
        // columns off the image take the edge's), and the weight of the next.
        let f = u0 - 0.5
        let whole = f.rounded(.down)
        let wx = ImageShader.weight(f - whole)
        var column = Int(whole)
        if spread == .repeat { column = wrap(column, width) }
        // Columns column ..< column + count + 1, mixed between the rows: in
        // `out` but the last, kept apart (`last`).
        var last: UInt32 = 0
        var i = 0, c = column
        while i <= count {
            if spread == .repeat && c >= width { c = 0 }
            // A run of columns on the image, or off a padded image's side
            // (its edge column, repeated).
            let n: Int, source: Int, onImage: Bool
            if c < 0 {
                (n, source, onImage) = (min(count + 1 - i, -c), 0, false)
            } else if c >= width {
                (n, source, onImage) = (count + 1 - i, width - 1, false)
            } else {
                (n, source, onImage) = (min(count + 1 - i, width - c), c, true)
            }
            let into = min(n, count - i)
            if onImage {
                if into > 0 { strata_lerp_rows_avx2(r0 + source, r1 + source, into, wy, out + i) }
                if i + n > count { last = ImageShader.lerp(r0[source + count - i], r1[source + count - i], wy) }
            } else {
                let edge = ImageShader.lerp(r0[source], r1[source], wy)
                if into > 0 { (out + i).update(repeating: edge, count: into) }
                if i + n > count { last = edge }
            }
            i += n
            c += n
        }
        strata_lerp_neighbours_avx2(out, count, last, wx)
        if alpha != 255 { SpanCompositing.scale(out, from: out, count: count, by: alpha) }
        return true
    }

    /// Where a span of an image moved along x without scaling starts: the
    /// first pixel centre's x in the image, and the row's y brought near
    /// the image (nil, with the span written transparent, where it is not a
    /// number); nil where the span is too far from the image for whole
    /// columns to count exactly (nothing written).
    @inline(__always)
    private func translatedSpan(
        x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>
    ) -> (u0: Double, sv: Double?)? {
        let u0 = Double(x) + 0.5 + inverse.tx
        guard count > 0, abs(u0) < 0x1p31 else { return nil }
        let sv = reduce(inverse.d * (Double(y) + 0.5) + inverse.ty, height)
        guard sv.isFinite else {
            out.update(repeating: 0, count: count)
            return (u0, nil)
        }
        return (u0, sv)
    }

    /// Nearest sampling of an image moved along x without scaling (a
    /// pattern sampled nearest): pixel k's column is the first's plus k, so
    /// the span is runs of one source row copied, wrapped or padded. The
    /// pixels are the general loop's at the pixel centres exactly. False
    /// (nothing written) for a span too far from the image for whole
    /// columns to count exactly.
    private func copyTranslated(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) -> Bool {
        guard let (u0, sv) = translatedSpan(x: x, y: y, count: count, into: out) else { return false }
        guard let sv else { return true }
        let source = pixels + wrap(floorInt(sv), height) * stride
        var c = Int(u0.rounded(.down))
        if spread == .repeat { c = wrap(c, width) }
        var i = 0
        while i < count {
            if spread == .repeat && c >= width { c = 0 }
            let n: Int
            if c < 0 {
                n = min(count - i, -c)
                (out + i).update(repeating: source[0], count: n)
            } else if c >= width {
                n = count - i
                (out + i).update(repeating: source[width - 1], count: n)
            } else {
                n = min(count - i, width - c)
                (out + i).update(from: source + c, count: n)
            }
            i += n
            c += n
        }
        if alpha != 255 { SpanCompositing.scale(out, from: out, count: count, by: alpha) }
        return true
    }

    /// `a` and `b` mixed as `a·(256 − w) + b·w` over 256, each channel rounded
    /// to nearest; `w` in 0...256. Two channels a multiply: each 16-bit half of
    /// the sums stays under 255·256 + 128 < 2¹⁶. Premultiplied pixels stay valid
    /// (a colour channel never exceeds alpha), since both use the same weights.
    @inline(__always)
    static func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
        let low: UInt32 = 0x00FF_00FF
        let iw = 256 &- w
        let rb = (((a & low) &* iw &+ (b & low) &* w &+ 0x0080_0080) >> 8) & low
        let ag = (((a >> 8) & low) &* iw &+ ((b >> 8) & low) &* w &+ 0x0080_0080) & ~low
        return rb | ag
    }

    /// The four pixels around a sample point mixed by weights `wx`, `wy`
    /// (1/256 units, 0...256): between the rows in both columns, then between
    /// the columns (the order the axis-aligned loop uses, so both give the same
    /// pixels).
    /// Each of the three steps rounds to nearest, so a channel is within one
    /// level of the exact bilinear value
    /// `p00·(1−fx)(1−fy) + p10·fx(1−fy) + p01·(1−fx)fy + p11·fx·fy`.
    @inline(__always)
    static func mix(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ wx: UInt32, _ wy: UInt32) -> UInt32 {
        lerp(lerp(p00, p01, wy), lerp(p10, p11, wy), wx)
    }

    /// The Mitchell–Netravali cubic (B = C = ⅓) at distance `d` from a tap's
    /// centre, 0 ≤ d < 2. The weights of the four taps around a point sum to 1.
    @inline(__always)
    static func mitchell(_ d: Float) -> Float {
        let d2 = d * d, d3 = d2 * d
        if d < 1 { return (7 * d3 - 12 * d2 + 16.0 / 3) / 6 }
        return (-7.0 / 3 * d3 + 12 * d2 - 20 * d + 32.0 / 3) / 6
    }

    /// The four tap weights for a sample a fraction `t` (0..<1) past the first
    /// inner tap.
    @inline(__always)
    static func cubicWeights(_ t: Float) -> SIMD4<Float> {
        SIMD4(mitchell(1 + t), mitchell(t), mitchell(1 - t), mitchell(2 - t))
    }

    /// The sixteen pixels around (su, sv) (reduced image coordinates) filtered by
    /// the Mitchell cubic. The filter has small negative lobes, so the result is
    /// clamped to a valid premultiplied pixel (0...255, colour ≤ alpha).
    @inline(__always)
    private func bicubic(_ su: Double, _ sv: Double) -> UInt32 {
        let fu = su - 0.5, fv = sv - 0.5
        let x0 = floorInt(fu), y0 = floorInt(fv)
        let wx = ImageShader.cubicWeights(Float(fu - Double(x0))), wy = ImageShader.cubicWeights(Float(fv - Double(y0)))
        let cols = SIMD4(wrap(x0 - 1, width), wrap(x0, width), wrap(x0 + 1, width), wrap(x0 + 2, width))
        var sum = SIMD4<Float>()
        for j in 0..<4 {
            let row = pixels + wrap(y0 - 1 + j, height) * stride
            var line = SIMD4<Float>()
            for i in 0..<4 {
                let p = row[cols[i]]
                let c = SIMD4<Float>(Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24))
                line += c * wx[i]
            }
            sum += line * wy[j]
        }
        let a = min(255, max(0, sum[3])).rounded()
        let c = SIMD4<Float>(repeating: 0).replacing(with: sum, where: sum .> 0)
            .replacing(with: SIMD4(repeating: a), where: sum .> SIMD4(repeating: a)).rounded(.toNearestOrEven)
        return UInt32(c[0]) | UInt32(c[1]) << 8 | UInt32(c[2]) << 16 | UInt32(a) << 24
    }
}
