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

    func rowConstant(y: Int) -> UInt32? { nil }

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

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let m = inverse
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
                s = fetch(Int(su.rounded(.down)), Int(sv.rounded(.down)))
            } else {
                // Between the four pixel centres around (u, v), weights in 1/256.
                let fu = su - 0.5, fv = sv - 0.5
                let iu = fu.rounded(.down), iv = fv.rounded(.down)
                let wx = UInt32((fu - iu) * 256), wy = UInt32((fv - iv) * 256)
                let x0 = Int(iu), y0 = Int(iv)
                let p00 = fetch(x0, y0), p10 = fetch(x0 + 1, y0), p01 = fetch(x0, y0 + 1), p11 = fetch(x0 + 1, y0 + 1)
                let w00 = (256 - wx) * (256 - wy) >> 8, w10 = wx * (256 - wy) >> 8
                let w01 = (256 - wx) * wy >> 8
                let w11 = 256 - w00 - w10 - w01
                // Weights sum to 256, so each 16-bit half stays under 2¹⁶.
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
                s = rb | ag
            }
            out[i] = alpha == 255 ? s : scalePacked(s, alpha)
            u += m.a
            v += m.b
        }
    }
}
