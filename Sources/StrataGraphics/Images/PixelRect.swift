/// A rectangle of whole device pixels, as windows copy and declare them.
package struct PixelRect: Equatable, Sendable {
    package var x: Int, y: Int, width: Int, height: Int

    /// `r` grown to whole pixels and clipped to `width` × `height`; nil when
    /// nothing is left (NaN and huge values included: they are held to the
    /// frame before becoming integers, so 1e30 cannot trap).
    package init?(_ r: Rect, within width: Int, _ height: Int) {
        guard r.origin.x.isFinite, r.origin.y.isFinite, r.size.width.isFinite, r.size.height.isFinite else { return nil }
        func held(_ v: Double, _ limit: Int) -> Int { Int(max(0, min(Double(limit), v))) }
        let x0 = held(r.minX.rounded(.down), width), y0 = held(r.minY.rounded(.down), height)
        let x1 = held(r.maxX.rounded(.up), width), y1 = held(r.maxY.rounded(.up), height)
        guard x1 > x0, y1 > y0 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    package init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// This rectangle within `width` × `height`; nil when nothing is left.
    package func clipped(toWidth width: Int, height: Int) -> PixelRect? {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + self.width), y1 = min(height, y + self.height)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// `count` pixels from Strata's R, G, B, A (premultiplied) to the B, G,
    /// R, A (or X) order X servers and Wayland compositors take.
    @inline(__always)
    package static func swapRedAndBlue(_ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer, count: Int) {
        var i = 0
        while i + 8 <= count {
            let v = source.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
            let swapped = (v & 0xFF00_FF00) | ((v & 0xFF) &<< 16) | ((v &>> 16) & 0xFF)
            target.storeBytes(of: swapped, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            let v = source.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
            target.storeBytes(of: (v & 0xFF00_FF00) | ((v & 0xFF) << 16) | ((v >> 16) & 0xFF), toByteOffset: i * 4, as: UInt32.self)
            i += 1
        }
    }
}
