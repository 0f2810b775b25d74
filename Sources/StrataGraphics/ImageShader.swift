/// How images are sampled when drawn scaled or transformed
/// (`CGInterpolationQuality`).
public enum InterpolationQuality: Sendable, Hashable {
    /// Nearest pixel: hard edges, for pixel art and 1:1 drawing.
    case none
    /// Bilinear between the four nearest pixels, from a box-filtered mipmap level
    /// when the image is shrunk to under half its size, so it does not alias.
    case low, medium, high
    /// The same as `.medium`.
    case `default`
}

/// Samples an image through the inverse of its placement: for drawn images
/// (edges clamped) and patterns (tiled).
struct ImageShader: Shader {
    let pixels: UnsafePointer<UInt32>
    let width: Int, height: Int
    /// Row length in pixels.
    let stride: Int
    /// Device pixel centre → image pixel coordinates.
    let inverse: Transform
    let bilinear: Bool
    let tile: Bool
    /// Multiplies every sample (the canvas alpha), 0...255.
    let alpha: UInt32
    /// When the image is drawn 1:1 at a whole-pixel offset (a layer or group
    /// composited back, an image drawn unscaled), device pixel (x, y) is image
    /// pixel (x + dx, y + dy), and every filter gives that pixel exactly (the
    /// bilinear weights are then 1, 0, 0, 0): rows are copied, not sampled.
    let shift: (dx: Int, dy: Int)?

    init(pixels: UnsafePointer<UInt32>, width: Int, height: Int, stride: Int, inverse: Transform,
         bilinear: Bool, tile: Bool, alpha: UInt32) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.inverse = inverse
        self.bilinear = bilinear
        self.tile = tile
        self.alpha = alpha
        let m = inverse
        if !tile, m.a == 1, m.b == 0, m.c == 0, m.d == 1, abs(m.tx) < 1e15, abs(m.ty) < 1e15,
           m.tx == m.tx.rounded(), m.ty == m.ty.rounded() {
            shift = (Int(m.tx), Int(m.ty))
        } else {
            shift = nil
        }
    }

    func rowConstant(y: Int) -> UInt32? { nil }

    /// The image's own pixels for a span, when it is drawn 1:1 and the span lies
    /// inside it, with the alpha they are still to be multiplied by.
    @inline(__always)
    func storedRow(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>? {
        guard let (dx, dy) = shift else { return nil }
        let ix = x + dx, iy = y + dy
        guard ix >= 0, ix + count <= width, iy >= 0, iy < height else { return nil }
        return pixels + iy * stride + ix
    }

    @inline(__always)
    private func wrap(_ i: Int, _ n: Int) -> Int {
        if tile {
            let r = i % n
            return r < 0 ? r + n : r
        }
        return i < 0 ? 0 : (i >= n ? n - 1 : i)
    }

    @inline(__always)
    private func fetch(_ x: Int, _ y: Int) -> UInt32 {
        pixels[wrap(y, height) * stride + wrap(x, width)]
    }

    /// ⌊v⌋ for v ≥ −3 (every clamped or wrapped coordinate here): a truncating
    /// conversion, where `rounded(.down)` is a call into libm on baseline x86-64.
    @inline(__always)
    private func floorInt(_ v: Double) -> Int { Int(v + 3) - 3 }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
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
            if alpha != 255 { PixelLoops.scale(out, from: out, count: count, by: alpha) }
            return
        }
        let m = inverse
        if bilinear, !tile, m.b == 0, m.c == 0 {
            shadeAxisAligned(x: x, y: y, count: count, into: out)
            return
        }
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        var u = m.a * px + m.c * py + m.tx
        var v = m.b * px + m.d * py + m.ty
        let w = Double(width), h = Double(height)
        for i in 0..<count {
            var s: UInt32
            // Tiles repeat, so far-off coordinates are first brought back into the
            // image in Double (where Int(_:) cannot overflow); clamped images
            // simply clamp.
            let su = tile ? u - (u / w).rounded(.down) * w : max(-2, min(w + 2, u))
            let sv = tile ? v - (v / h).rounded(.down) * h : max(-2, min(h + 2, v))
            if !(su.isFinite && sv.isFinite) {
                s = 0
            } else if !bilinear {
                s = fetch(floorInt(su), floorInt(sv))
            } else {
                // Between the four pixel centres around (u, v), weights in 1/256.
                let fu = su - 0.5, fv = sv - 0.5
                let x0 = floorInt(fu), y0 = floorInt(fv)
                let wx = UInt32((fu - Double(x0)) * 256), wy = UInt32((fv - Double(y0)) * 256)
                s = ImageShader.mix(fetch(x0, y0), fetch(x0 + 1, y0), fetch(x0, y0 + 1), fetch(x0 + 1, y0 + 1), wx, wy)
            }
            out[i] = alpha == 255 ? s : scalePacked(s, alpha)
            u += m.a
            v += m.b
        }
    }

    /// Bilinear sampling of an image that is only scaled and moved (the common
    /// case: contents stretched by gravity): the two source rows are the same
    /// for the whole span. The same samples as the general loop, found with
    /// less work per pixel.
    private func shadeAxisAligned(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let m = inverse
        let w = Double(width), h = Double(height)
        var u = m.a * (Double(x) + 0.5) + m.tx
        let sv = max(-2, min(h + 2, m.d * (Double(y) + 0.5) + m.ty))
        guard sv.isFinite else {
            out.update(repeating: 0, count: count)
            return
        }
        let fv = sv - 0.5
        let y0 = floorInt(fv)
        let wy = UInt32((fv - Double(y0)) * 256)
        let r0 = pixels + wrap(y0, height) * stride, r1 = pixels + wrap(y0 + 1, height) * stride
        let last = width - 1
        for i in 0..<count {
            let su = max(-2, min(w + 2, u))
            var s: UInt32 = 0
            if su.isFinite {
                let fu = su - 0.5
                let x0 = floorInt(fu)
                let wx = UInt32(truncatingIfNeeded: Int((fu - Double(x0)) * 256))
                let xa = x0 < 0 ? 0 : (x0 > last ? last : x0)
                let xb = x0 < -1 ? 0 : (x0 >= last ? last : x0 + 1)
                s = ImageShader.mix(r0[xa], r0[xb], r1[xa], r1[xb], wx, wy)
            }
            out[i] = alpha == 255 ? s : scalePacked(s, alpha)
            u += m.a
        }
    }

    /// The four pixels around a sample point mixed by weights `wx`, `wy`
    /// (1/256 units). The weights sum to 256, so each 16-bit half of the sums
    /// stays under 2¹⁶.
    @inline(__always)
    static func mix(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ wx: UInt32, _ wy: UInt32) -> UInt32 {
        // wx, wy ≤ 256, so no product or difference can overflow.
        let w00 = (256 &- wx) &* (256 &- wy) >> 8, w10 = wx &* (256 &- wy) >> 8
        let w01 = (256 &- wx) &* wy >> 8
        let w11 = 256 &- w00 &- w10 &- w01
        let low: UInt32 = 0x00FF_00FF
        var rb: UInt32 = (p00 & low) &* w00
        rb = rb &+ (p10 & low) &* w10
        rb = rb &+ (p01 & low) &* w01
        rb = rb &+ (p11 & low) &* w11
        rb = ((rb &+ 0x0080_0080) >> 8) & low
        var ag: UInt32 = ((p00 >> 8) & low) &* w00
        ag = ag &+ ((p10 >> 8) & low) &* w10
        ag = ag &+ ((p01 >> 8) & low) &* w01
        ag = ag &+ ((p11 >> 8) & low) &* w11
        ag = (ag &+ 0x0080_0080) & 0xFF00_FF00
        return rb | ag
    }
}
