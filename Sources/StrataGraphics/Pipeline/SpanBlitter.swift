/// Where coverage goes: all the scan converters know of the pixels.
@usableFromInline
protocol SpanBlitter {
    /// Pixels `x ..< x + count` of row `y`, all with coverage `coverage` (1...255).
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8)
    /// Pixels `x ..< x + count` of row `y`, pixel `i` with coverage `mask[i]` (0...255).
    mutating func blitMask(x: Int, y: Int, count: Int, mask: UnsafePointer<UInt8>)
    /// Rows `y ..< y + height` of an axis-aligned rectangle `width` pixels wide:
    /// its first column has coverage `left`, its last column `right` and the
    /// columns between `middle` (each 0...255). With `width == 1` only `left` is used.
    mutating func blitRect(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8)
    /// `blitRect`'s rows of a rectangle that, whatever rows a canvas is
    /// limited to (`Canvas.limitRows(to:)`), starts at row `top` (≤ `y`) or
    /// below it: a blitter that shades a narrow rectangle a column at a time
    /// counts its runs from there, so that every band shades each pixel
    /// alike. `blitRect` by default.
    mutating func blitColumns(
        x: Int, y: Int, width: Int, height: Int, top: Int, left: UInt8, middle: UInt8, right: UInt8)
    /// One pixel with coverage `coverage` (1...255).
    mutating func blitPixel(x: Int, y: Int, coverage: UInt8)
    /// An axis-aligned rectangle `width` pixels wide as three groups of rows,
    /// one under the other from row `y`: `rows.0` rows covered as `top`,
    /// `rows.1` as `middle`, `rows.2` as `bottom` (each: first column, the
    /// columns between, last column, as in `blitRect`).
    mutating func blitRectRows(
        x: Int, y: Int, width: Int, rows: (Int, Int, Int), top: (UInt8, UInt8, UInt8),
        middle: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8))
    /// Sweeps `rows` rows of the cell rasterizer's difference cells (see
    /// `sweepCoverageRow`; row `r`'s cells at `cells + r·cellStride`, its bits
    /// at `bits + r·wordsPerRow`, its pixels at row `y + r`) in one call, when
    /// this blitter has a kernel for it; false (touching nothing) to have the
    /// caller sweep them span by span.
    mutating func sweepRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>,
        wordsPerRow: Int, width: Int, rows: Int, originX: Int, y: Int, evenOdd: Bool
    ) -> Bool
    /// A hint that the pixels of this rectangle are about to be blended (a
    /// blitter over memory may start fetching them); does nothing by default.
    func prefetch(x: Int, y: Int, width: Int, height: Int)
}

extension SpanBlitter {
    @inline(__always)
    mutating func blitColumns(
        x: Int, y: Int, width: Int, height: Int, top: Int, left: UInt8, middle: UInt8, right: UInt8
    ) {
        blitRect(x: x, y: y, width: width, height: height, left: left, middle: middle, right: right)
    }

    @inline(__always)
    mutating func blitRectRows(
        x: Int, y: Int, width: Int, rows: (Int, Int, Int), top: (UInt8, UInt8, UInt8),
        middle: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)
    ) {
        blitRectGroups(x: x, y: y, width: width, rows: rows, top: top, middle: middle, bottom: bottom)
    }

    /// `blitRectRows` as one `blitRect` a group.
    @inline(__always)
    mutating func blitRectGroups(
        x: Int, y: Int, width: Int, rows: (Int, Int, Int), top: (UInt8, UInt8, UInt8),
        middle: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)
    ) {
        var row = y
        if rows.0 > 0 {
            blitRect(x: x, y: row, width: width, height: rows.0, left: top.0, middle: top.1, right: top.2)
            row += rows.0
        }
        if rows.1 > 0 {
            blitRect(x: x, y: row, width: width, height: rows.1, left: middle.0, middle: middle.1, right: middle.2)
            row += rows.1
        }
        if rows.2 > 0 {
            blitRect(x: x, y: row, width: width, height: rows.2, left: bottom.0, middle: bottom.1, right: bottom.2)
        }
    }

    @inline(__always)
    func prefetch(x: Int, y: Int, width: Int, height: Int) {}

    @inline(__always)
    mutating func sweepRows(
        _ cells: UnsafeMutablePointer<Float>, cellStride: Int, _ bits: UnsafeMutablePointer<UInt64>,
        wordsPerRow: Int, width: Int, rows: Int, originX: Int, y: Int, evenOdd: Bool
    ) -> Bool { false }

    @inline(__always)
    mutating func blitPixel(x: Int, y: Int, coverage: UInt8) {
        var c = coverage
        blitMask(x: x, y: y, count: 1, mask: &c)
    }
}

/// Rounds coverage to in (255) or out (0) before handing it on: the fallback
/// of aliased drawing for outlines too dense for the pixel-centre sampler,
/// where a pixel more than half covered counts as inside.
struct HardEdgeBlitter<Inner: SpanBlitter>: SpanBlitter {
    var inner: Inner

    @inline(__always) mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        if coverage >= 128 { inner.blitSpan(x: x, y: y, count: count, coverage: 255) }
    }

    mutating func blitMask(x: Int, y: Int, count: Int, mask: UnsafePointer<UInt8>) {
        var i = 0
        while i < count {
            guard mask[i] >= 128 else { i += 1; continue }
            var j = i + 1
            while j < count && mask[j] >= 128 { j += 1 }
            inner.blitSpan(x: x + i, y: y, count: j - i, coverage: 255)
            i = j
        }
    }

    mutating func blitRect(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8) {
        @inline(__always) func hard(_ c: UInt8) -> UInt8 { c >= 128 ? 255 : 0 }
        inner.blitRect(x: x, y: y, width: width, height: height, left: hard(left), middle: hard(middle), right: hard(right))
    }

    @inline(__always) mutating func blitPixel(x: Int, y: Int, coverage: UInt8) {
        if coverage >= 128 { inner.blitSpan(x: x, y: y, count: 1, coverage: 255) }
    }
}

/// One drawing operation's coverage: the shape (a path, a rectangle, a mask,
/// a stroke) handed, span by span, to whichever blitter the paint, blend mode
/// and clip call for. `Canvas` picks the blitter, then the source runs it:
/// Canvas → blitter → coverage source → rasterizer → blitter → pixels, never
/// back into `Canvas`.
protocol CoverageSource {
    func draw<B: SpanBlitter>(_ blitter: inout B)
    /// The device pixels it draws within, where known before it draws (nil
    /// where not): a shaded paint asks for their rows while it sets itself
    /// up (`Canvas.withBlitter`).
    var drawnBox: PixelBox? { get }
}

extension CoverageSource {
    var drawnBox: PixelBox? { nil }
}
