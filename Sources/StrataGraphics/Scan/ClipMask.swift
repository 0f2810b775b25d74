/// An anti-aliased clip: a coverage byte for each pixel of a box. Made by
/// `Canvas.clip(to:rule:)`, never changed afterwards, and shared by the graphics
/// states saved while it is in force.
final class ClipMask {
    let box: PixelBox
    /// `box.width × box.height` coverage bytes, row by row.
    let coverage: UnsafeMutablePointer<UInt8>

    init(box: PixelBox) {
        self.box = box
        let count = max(1, box.width * box.height)
        coverage = .allocate(capacity: count)
        coverage.initialize(repeating: 0, count: count)
    }

    deinit { coverage.deallocate() }

    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        coverage + (y - box.y0) * box.width - box.x0
    }

    /// The coverage of device pixel (x, y), 0 outside the box.
    func value(x: Int, y: Int) -> UInt8 {
        guard x >= box.x0, x < box.x1, y >= box.y0, y < box.y1 else { return 0 }
        return row(y)[x]
    }
}

/// Writes coverage into a clip mask, multiplied by an earlier mask when there
/// is one (clips only ever narrow).
struct MaskWriter: SpanBlitter {
    let mask: ClipMask
    let previous: ClipMask?

    @inline(__always)
    private func put(_ x: Int, _ y: Int, _ c: UInt8) {
        var v = c
        if let previous { v = Pixel.multiply(v, previous.value(x: x, y: y)) }
        mask.row(y)[x] = v
    }

    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        for i in 0..<count { put(x + i, y, coverage) }
    }

    mutating func blitMask(x: Int, y: Int, count: Int, mask: UnsafePointer<UInt8>) {
        for i in 0..<count { put(x + i, y, mask[i]) }
    }

    mutating func blitRect(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8) {
        for r in 0..<height {
            put(x, y + r, left)
            if width > 2 { blitSpan(x: x + 1, y: y + r, count: width - 2, coverage: middle) }
            if width > 1 { put(x + width - 1, y + r, right) }
        }
    }
}

/// Draws through a clip mask: every coverage is multiplied by the mask's.
struct MaskedBlitter<Inner: SpanBlitter>: SpanBlitter {
    var inner: Inner
    let mask: ClipMask
    /// Room for 256 combined coverage values.
    let scratch: UnsafeMutablePointer<UInt8>

    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        let m = mask.row(y)
        var done = 0
        while done < count {
            let n = min(256, count - done)
            for i in 0..<n { scratch[i] = Pixel.multiply(m[x + done + i], coverage) }
            inner.blitMask(x: x + done, y: y, count: n, mask: scratch)
            done += n
        }
    }

    mutating func blitMask(x: Int, y: Int, count: Int, mask cover: UnsafePointer<UInt8>) {
        let m = mask.row(y)
        var done = 0
        while done < count {
            let n = min(256, count - done)
            for i in 0..<n { scratch[i] = Pixel.multiply(m[x + done + i], cover[done + i]) }
            inner.blitMask(x: x + done, y: y, count: n, mask: scratch)
            done += n
        }
    }

    mutating func blitRect(x: Int, y: Int, width: Int, height: Int, left: UInt8, middle: UInt8, right: UInt8) {
        for r in 0..<height {
            let m = mask.row(y + r)
            var done = 0
            while done < width {
                let n = min(256, width - done)
                for i in 0..<n {
                    let column = done + i
                    let c = column == 0 ? left : (column == width - 1 ? right : middle)
                    scratch[i] = Pixel.multiply(m[x + column], c)
                }
                inner.blitMask(x: x + done, y: y + r, count: n, mask: scratch)
                done += n
            }
        }
    }
}
