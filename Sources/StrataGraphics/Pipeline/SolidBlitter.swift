// The span-compositing loops for a solid colour: the inner loop of every fill
// (the arithmetic is in PixelMath.swift).
//
// Measured with `strata-bench span` (release build, this project's 2-core AMD
// EPYC machine), one 1920 × 1080 frame blended at half alpha: 0.50 ms this way
// (0.58 ms with the shift-and-add division), against 0.97 ms for the scalar
// two-channel loop alone; an opaque fill is 0.11 ms.
//
// Coverage masks (glyphs, text lines) with an opaque colour, or in copy mode,
// take `lerpMask`: one rounding of s·c + d·(255 − c) instead of two products
// rounded separately, and the coverage bytes spread into lanes by unpacks
// (`pairs`). On the text benchmark's 640 × 2000 drawing this brought the
// mask blending from 0.14 ms to 0.055 ms.

internal import CPixels

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a blitter writes: a bitmap's pixels and row length, without the
/// bitmap. A canvas keeps its target's (`Canvas.targetPixels`), so that
/// making a blitter a draw call takes no reference to the bitmap: the bands
/// of a frame drawn on several threads share one, and each reference taken
/// and dropped was an atomic write to its count that the other cores' next
/// one had to wait for.
struct PixelTarget {
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int

    init(_ bitmap: Bitmap) {
        base = bitmap.baseAddress
        bytesPerRow = bitmap.bytesPerRow
    }

    init(base: UnsafeMutableRawPointer, bytesPerRow: Int) {
        self.base = base
        self.bytesPerRow = bytesPerRow
    }
}

/// Composites one premultiplied colour through coverage into a bitmap.
struct SolidBlitter: SpanBlitter {
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int
    /// The premultiplied source colour, packed.
    let source: UInt32
    /// Copy mode (`R = S·c + D·(1 − c)`) instead of source over.
    let copy: Bool
    /// Any other mode: every pixel goes through `BlendMode.blend`.
    let general: BlendMode?

    init(bitmap: Bitmap, color: Pixel, mode: BlendMode) {
        self.init(pixels: PixelTarget(bitmap), color: color, mode: mode)
    }

    init(pixels: PixelTarget, color: Pixel, mode: BlendMode) {
        base = pixels.base
        bytesPerRow = pixels.bytesPerRow
        source = color.packed
        copy = mode == .copy
        general = mode.isSourceOverOrCopy ? nil : mode
    }

    /// Whether drawing can change nothing (a transparent source over).
    var isNoOp: Bool { general == nil && !copy && source == 0 }

    /// The slow path for the modes without integer loops of their own.
    private func generalSpan(_ mode: BlendMode, _ d: UnsafeMutablePointer<UInt32>, _ count: Int, _ c: (Int) -> UInt32) {
        for i in 0..<count {
            let k = c(i)
            if k != 0 { d[i] = mode.blend(source, d[i], coverage: k) }
        }
    }

    @inline(__always)
    private func row(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y * bytesPerRow + x * 4).assumingMemoryBound(to: UInt32.self)
    }

    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        let d = row(x, y)
        if let general {
            generalSpan(general, d, count) { _ in UInt32(coverage) }
            return
        }
        let s = coverage == 255 ? source : scalePacked(source, UInt32(coverage))
        // What is left of the destination: 1 − Sa·c for source over, 1 − c for copy.
        let keep = 255 - (copy ? UInt32(coverage) : s >> 24)
        if keep == 0 {
            d.update(repeating: s, count: count)
            return
        }
        SolidBlitter.blend(d, count, s, keep)
    }

    /// The source and what is kept of the destination at coverage `c`.
    @inline(__always)
    private func sourceAndKeep(_ c: UInt8) -> (UInt32, UInt32) {
        let s = c == 255 ? source : scalePacked(source, UInt32(c))
        return (s, 255 - (copy ? UInt32(c) : s >> 24))
    }

    @inline(__always)
    mutating func blitRect(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8) {
        if general != nil {
            for r in 0..<height {
                if left != 0 { blitSpan(x: x, y: y + r, count: 1, coverage: left) }
                if width > 2 && middle != 0 { blitSpan(x: x + 1, y: y + r, count: width - 2, coverage: middle) }
                if width > 1 && right != 0 { blitSpan(x: x + width - 1, y: y + r, count: 1, coverage: right) }
            }
            return
        }
        var d = row(x, y)
        let rowStride = bytesPerRow / 4
        // Everything that does not change from row to row is worked out once.
        let (sl, kl) = sourceAndKeep(left)
        let (sm, km) = sourceAndKeep(middle)
        let (sr, kr) = sourceAndKeep(right)
        let doLeft = left != 0, doRight = right != 0 && width > 1
        let inner = middle != 0 ? width - 2 : 0
        if km == 0, sl == sm, sr == sm, kl == 0, kr == 0, width * 4 == bytesPerRow {
            // A clear of whole rows: one run of stores (a loop of rows took
            // half as long again). With AVX2, 32-byte stores, whatever the
            // colour (`strata_fill_avx2` says why not memset); else memset
            // where the colour's four bytes are equal (transparent, opaque
            // white or black).
            if SolidBlitter.usesAVX2 {
                strata_fill_avx2(d, height * rowStride, sm)
                return
            }
            if sm == (sm & 0xFF) &* 0x0101_0101 {
                memset(d, Int32(sm & 0xFF), height * bytesPerRow)
                return
            }
        }
        if width >= 8 && km != 0 {
            // Translucent rows in eight-pixel blocks; opaque ones (nothing of the
            // destination kept) are stores, below.
            if SolidBlitter.usesAVX2 {
                let row = (left, middle, right)
                blendRectAVX2(x: x, y: y, width: width, rows: (height, 0, 0), top: row, middle: row, bottom: row)
            } else {
                SolidBlitter.blendRows(d, rowStride, width, height, (sl, kl), (sm, km), (sr, kr))
            }
            return
        }
        if width < 8, SolidBlitter.usesAVX2 {
            // A few pixels a row (a stroked frame's sides): each row one
            // block of eight lanes, the pairs set once (a pixel with no
            // coverage, or past the rectangle, keeps its value).
            let room = bytesPerRow / 4 - x
            // (A middle of no coverage is source 0, keep 255 already; a
            // rectangle of one or two columns has no middle lanes.)
            withUnsafeBytes(of: (sl, kl, sm, km, sr, kr)) { pairs in
                strata_blend_narrow_rect_avx2(
                    d, rowStride, width, height, room, pairs.baseAddress!.assumingMemoryBound(to: UInt32.self))
            }
            return
        }
        for _ in 0..<height {
            if doLeft { d[0] = sl &+ scalePacked(d[0], kl) }
            if inner > 0 {
                if km == 0 {
                    (d + 1).update(repeating: sm, count: inner)
                } else {
                    SolidBlitter.blend(d + 1, inner, sm, km)
                }
            }
            if doRight { d[width - 1] = sr &+ scalePacked(d[width - 1], kr) }
            d += rowStride
        }
    }

    /// Whether the AVX2 kernels of `CPixels` run here (asked once, before
    /// `main`: a plain load, read wherever a kernel is chosen).
    @inline(__always) static var usesAVX2: Bool { strata_kernel_level() >= 1 }
    /// The best build of the kernels that have an AVX-512 one (the stroke
    /// row walk, the radial and conic gradients): 2 with AVX-512, 1 with
    /// AVX2, 0 for neither.
    @inline(__always) static var kernelLevel: Int { Int(strata_kernel_level()) }

    /// Rows of a rectangle at least eight pixels wide (the portable kernel; with
    /// AVX2, `strata_blend_rect_avx2` does the same), `d[i] = s + d[i]·keep/255`
    /// with the left column's, the middle's and the right column's source and
    /// keep, in eight-pixel blocks only: the lanes of each block carry their own
    /// pair, worked out once for the rectangle, and the row's last block ends at
    /// its last pixel, with the lanes it shares with the block before it set to
    /// leave their pixels as they are (source 0, keep 255: exact). So no pixel
    /// of a row goes through the scalar loop, and nothing outside the
    /// rectangle is read or written. On the rects scene (10 000 rectangles 4 to
    /// 64 pixels wide) this took the per-row left, right and tail pixels out of
    /// the profile.
    @inline(__always)
    static func blendRows(
        _ d: UnsafeMutablePointer<UInt32>, _ rowStride: Int, _ width: Int, _ height: Int,
        _ left: (UInt32, UInt32), _ middle: (UInt32, UInt32), _ right: (UInt32, UInt32)
    ) {
        // Blocks at 0, 8, … while a pixel is left after them; then the last at width − 8.
        let full = (width - 1) >> 3
        let lastStart = width - 8
        // Lane masks by arithmetic (a lane set through a variable index is a
        // store and a reload, which stalled the rects scene): all ones where
        // the lane's index equals `v`, or is below `t`.
        let index = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7), zero = SIMD8<UInt32>()
        @inline(__always) func equal(_ v: Int) -> SIMD8<UInt32> {
            zero &- (((index ^ SIMD8(repeating: UInt32(v))) &- 1) &>> 31)
        }
        @inline(__always) func below(_ t: Int) -> SIMD8<UInt32> {
            zero &- ((index &- SIMD8(repeating: UInt32(t))) &>> 31)
        }
        @inline(__always) func pick(_ m: SIMD8<UInt32>, _ a: UInt32, _ b: SIMD8<UInt32>) -> SIMD8<UInt32> {
            (SIMD8(repeating: a) & m) | (b & ~m)
        }
        @inline(__always) func lanes(_ start: Int) -> (SIMD8<UInt32>, SIMD16<UInt16>) {
            var s = SIMD8<UInt32>(repeating: middle.0), k = SIMD8<UInt32>(repeating: middle.1)
            if start == 0 {
                let m = equal(0)
                s = pick(m, left.0, s)
                k = pick(m, left.1, k)
            }
            let r = width - 1 - start
            if r < 8 {
                let m = equal(r)
                s = pick(m, right.0, s)
                k = pick(m, right.1, k)
            }
            if start == lastStart {
                // Lanes the block before has done stay as they are.
                let m = below(full * 8 - start)
                s = pick(m, 0, s)
                k = pick(m, 255, k)
            }
            return (s, PixelMath.spread(k))
        }
        let (sFirst, kFirst) = lanes(0)
        let sMid = SIMD8<UInt32>(repeating: middle.0)
        let kMid = SIMD16<UInt16>(repeating: UInt16(middle.1))
        let (sLast, kLast) = lanes(lastStart)
        let rowBytes = rowStride * 4, lastByte = lastStart * 4
        if full > 0 {
            var row = UnsafeMutableRawPointer(d)
            for _ in 0..<height {
                let v = row.loadUnaligned(as: SIMD8<UInt32>.self)
                row.storeBytes(of: sFirst &+ PixelMath.blend8(v, kFirst), as: SIMD8<UInt32>.self)
                var o = 32
                for _ in 1..<full {
                    let w = row.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt32>.self)
                    row.storeBytes(of: sMid &+ PixelMath.blend8(w, kMid), toByteOffset: o, as: SIMD8<UInt32>.self)
                    o += 32
                }
                row += rowBytes
            }
        }
        // The last blocks in a pass of their own: a load that overlaps a store
        // just made (the block before, in the same row) would wait for it.
        var row = UnsafeMutableRawPointer(d) + lastByte
        for _ in 0..<height {
            let v = row.loadUnaligned(as: SIMD8<UInt32>.self)
            row.storeBytes(of: sLast &+ PixelMath.blend8(v, kLast), as: SIMD8<UInt32>.self)
            row += rowBytes
        }
    }

    @inline(__always)
    mutating func blitMask(x: Int, y: Int, count: Int, mask: UnsafePointer<UInt8>) {
        let d = row(x, y)
        if let general {
            generalSpan(general, d, count) { UInt32(mask[$0]) }
            return
        }
        SolidBlitter.maskSpan(d, count, mask, source, copy: copy)
    }

    /// Source over (or copy) of `source` through `count` coverage bytes.
    @inline(__always)
    static func maskSpan(
        _ d: UnsafeMutablePointer<UInt32>, _ count: Int, _ mask: UnsafePointer<UInt8>, _ source: UInt32,
        copy: Bool, avx2: Bool = SolidBlitter.usesAVX2
    ) {
        let lerp = copy || source >> 24 == 255
        if avx2 {
            if count <= 0 { return }
            if lerp {
                strata_lerp_mask_avx2(d, count, mask, source)
            } else {
                strata_blend_mask_avx2(d, count, mask, source)
            }
            return
        }
        if lerp {
            SolidBlitter.lerpMask(d, count, mask, source)
            return
        }
        var i = 0
        // Eight coverage bytes at a time: empty ones skipped and the rest blended
        // as SIMD lanes, each with its own coverage, with the same rounding as
        // `blendOne`.
        let raw = UnsafeMutableRawPointer(d)
        let src = SIMD8<UInt32>(repeating: source)
        while i + 8 <= count {
            let m = UnsafeRawPointer(mask + i).loadUnaligned(as: UInt64.self)
            if m == 0 {
                i += 8
                continue
            }
            let s = PixelMath.blend8(src, SolidBlitter.pairs(m))
            let keep = SIMD8<UInt32>(repeating: 255) &- (s &>> 24)
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
            let out = s &+ PixelMath.blend8(v, unsafeBitCast(keep | (keep &<< 16), to: SIMD16<UInt16>.self))
            raw.storeBytes(of: out, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            SolidBlitter.blendOne(d + i, UInt32(mask[i]), source, copy)
            i += 1
        }
    }

    /// Eight coverage bytes (little-endian in `m`) each in two 16-bit lanes:
    /// c0, c0, c1, c1, …, the layout that meets a pixel's two channel pairs.
    /// Written as lanes of a vector (not shifts of an integer) so that the
    /// compiler makes byte and word unpacks of it.
    @inline(__always)
    static func pairs(_ m: UInt64) -> SIMD16<UInt16> {
        let b = unsafeBitCast(SIMD2<UInt64>(m, 0), to: SIMD16<UInt8>.self)
        let z = SIMD16<UInt8>()
        // Bytes with zeros between them: eight 16-bit lanes c0 … c7.
        let w = unsafeBitCast(
            SIMD16<UInt8>(
                b[0], z[0], b[1], z[1], b[2], z[2], b[3], z[3],
                b[4], z[4], b[5], z[5], b[6], z[6], b[7], z[7]), to: SIMD8<UInt16>.self)
        // Each lane twice.
        return SIMD16<UInt16>(
            w[0], w[0], w[1], w[1], w[2], w[2], w[3], w[3],
            w[4], w[4], w[5], w[5], w[6], w[6], w[7], w[7])
    }

    /// `d = (s·c + d·(255 − c)) / 255` per channel, rounded once: source over
    /// with an opaque source, or copy with any source, through coverage `mask`.
    /// Each 16-bit lane's sum is at most 255·255 + 128, so it cannot overflow.
    /// Full coverage stores the source in both modes.
    @inline(__always)
    static func lerpMask(_ d: UnsafeMutablePointer<UInt32>, _ count: Int, _ mask: UnsafePointer<UInt8>, _ source: UInt32) {
        let raw = UnsafeMutableRawPointer(d)
        let lowBytes = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let srb = unsafeBitCast(SIMD8<UInt32>(repeating: source & 0x00FF_00FF), to: SIMD16<UInt16>.self)
        let sag = unsafeBitCast(SIMD8<UInt32>(repeating: (source >> 8) & 0x00FF_00FF), to: SIMD16<UInt16>.self)
        let bias = SIMD16<UInt16>(repeating: 0x80), full = SIMD16<UInt16>(repeating: 255)
        var i = 0
        while i + 8 <= count {
            let m = UnsafeRawPointer(mask + i).loadUnaligned(as: UInt64.self)
            if m == 0 {
                i += 8
                continue
            }
            if m == ~0 {
                (d + i).update(repeating: source, count: 8)
                i += 8
                continue
            }
            let c = pairs(m)
            let k = full &- c
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
            let rb = PixelMath.div255(unsafeBitCast(v & lowBytes, to: SIMD16<UInt16>.self) &* k &+ srb &* c &+ bias)
            let ag = PixelMath.div255(unsafeBitCast((v &>> 8) & lowBytes, to: SIMD16<UInt16>.self) &* k &+ sag &* c &+ bias)
            let out = unsafeBitCast(rb, to: SIMD8<UInt32>.self) | (unsafeBitCast(ag, to: SIMD8<UInt32>.self) &<< 8)
            raw.storeBytes(of: out, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            let c = UInt32(mask[i])
            if c != 0 { d[i] = c == 255 ? source : lerpOne(d[i], source, c) }
            i += 1
        }
    }

    /// One pixel of `lerpMask`.
    @inline(__always)
    static func lerpOne(_ d: UInt32, _ s: UInt32, _ c: UInt32) -> UInt32 {
        let k = 255 - c
        var rb = (d & 0x00FF_00FF) &* k &+ (s & 0x00FF_00FF) &* c &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((d >> 8) & 0x00FF_00FF) &* k &+ ((s >> 8) & 0x00FF_00FF) &* c &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    @inline(__always)
    func prefetch(x: Int, y: Int, width: Int, height: Int) {
        strata_prefetch_rows(row(x, y), bytesPerRow, width * 4, height)
    }

    /// A translucent rectangle eight pixels wide or more goes to one AVX2 call
    /// for all its rows (`strata_blend_rect_avx2`: the lane vectors of each
    /// group worked out there); an opaque one keeps the stores (and memset)
    /// of `blitRect`.
    @inline(__always)
    mutating func blitRectRows(
        x: Int, y: Int, width: Int, rows: (Int, Int, Int), top: (UInt8, UInt8, UInt8),
        middle: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)
    ) {
        let opaque = middle.1 == 255 && (copy || source >> 24 == 255)
        guard general == nil, SolidBlitter.usesAVX2, width >= 8, !opaque else {
            blitRectGroups(x: x, y: y, width: width, rows: rows, top: top, middle: middle, bottom: bottom)
            return
        }
        let c = middle.1
        if top == middle, bottom == middle, middle.0 == c, middle.2 == c, c != 0 {
            // One coverage throughout (a fill on whole pixels): one block,
            // none of the three groups' set-up.
            let (s, keep) = sourceAndKeep(c)
            strata_blend_block_avx2(row(x, y), bytesPerRow / 4, width, rows.0 + rows.1 + rows.2, s, keep)
            return
        }
        blendRectAVX2(x: x, y: y, width: width, rows: rows, top: top, middle: middle, bottom: bottom)
    }

    /// `strata_blend_rect_avx2` over three groups of rows (AVX2, source over or
    /// copy, a rectangle at least eight pixels wide).
    @inline(__always)
    private func blendRectAVX2(
        x: Int, y: Int, width: Int, rows: (Int, Int, Int), top: (UInt8, UInt8, UInt8),
        middle: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)
    ) {
        withUnsafeBytes(of: (top.0, top.1, top.2, middle.0, middle.1, middle.2, bottom.0, bottom.1, bottom.2)) { c in
            withUnsafeBytes(of: rows) { r in
                strata_blend_rect_avx2(
                    row(x, y), bytesPerRow / 4, width, r.baseAddress!.assumingMemoryBound(to: Int.self),
                    c.baseAddress!.assumingMemoryBound(to: UInt8.self), source, copy ? 1 : 0)
            }
        }
    }

    @inline(__always)
    mutating func sweepRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>,
        wordsPerRow: Int, width: Int, rows: Int, originX: Int, y: Int, evenOdd: Bool
    ) -> Bool {
        guard general == nil, SolidBlitter.usesAVX2 else { return false }
        strata_sweep_rows_avx2(
            cells, cellStride, bits, wordsPerRow, width, rows, row(originX, y), bytesPerRow / 4, evenOdd ? 1 : 0,
            source, copy ? 1 : 0)
        return true
    }

    @inline(__always)
    mutating func blitPixel(x: Int, y: Int, coverage: UInt8) {
        if let general {
            let d = row(x, y)
            d.pointee = general.blend(source, d.pointee, coverage: UInt32(coverage))
            return
        }
        SolidBlitter.blendOne(row(x, y), UInt32(coverage), source, copy)
    }

    /// One pixel at coverage `c`.
    @inline(__always)
    static func blendOne(_ d: UnsafeMutablePointer<UInt32>, _ c: UInt32, _ source: UInt32, _ copy: Bool) {
        if c == 0 { return }
        let s = c == 255 ? source : scalePacked(source, c)
        let keep = 255 - (copy ? c : s >> 24)
        d.pointee = keep == 0 ? s : s &+ scalePacked(d.pointee, keep)
    }

    /// `d[i] = s + d[i]·keep/255` for `count` pixels.
    @inline(__always)
    static func blend(
        _ d: UnsafeMutablePointer<UInt32>, _ count: Int, _ s: UInt32, _ keep: UInt32, avx2: Bool = SolidBlitter.usesAVX2
    ) {
        if avx2 && count >= 8 {
            strata_blend_span_avx2(d, count, s, keep)
            return
        }
        var i = 0
        let raw = UnsafeMutableRawPointer(d)
        if count >= 4 {
            let k8 = SIMD16<UInt16>(repeating: UInt16(keep))
            let src8 = SIMD8<UInt32>(repeating: s)
            while i + 16 <= count {
                let v0 = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
                let v1 = raw.loadUnaligned(fromByteOffset: i * 4 + 32, as: SIMD8<UInt32>.self)
                raw.storeBytes(of: PixelMath.blend8(v0, k8) &+ src8, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
                raw.storeBytes(of: PixelMath.blend8(v1, k8) &+ src8, toByteOffset: i * 4 + 32, as: SIMD8<UInt32>.self)
                i += 16
            }
            if i + 8 <= count {
                let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
                raw.storeBytes(of: PixelMath.blend8(v, k8) &+ src8, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
                i += 8
            }
            if i + 4 <= count {
                let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt32>.self)
                let k4 = SIMD8<UInt16>(repeating: UInt16(keep))
                raw.storeBytes(of: PixelMath.blend4(v, k4) &+ SIMD4<UInt32>(repeating: s), toByteOffset: i * 4, as: SIMD4<UInt32>.self)
                i += 4
            }
        }
        while i < count {
            d[i] = s &+ scalePacked(d[i], keep)
            i += 1
        }
    }
}
