extension Image {
    /// The image at half the size (rounded up), each pixel the average of the 2 × 2
    /// block it replaces (a box filter on premultiplied values; an odd last row or
    /// column is averaged with itself). One level of a mipmap chain.
    public func halved() -> Image {
        let w = (width + 1) / 2, h = (height + 1) / 2
        guard width > 1 || height > 1 else { return self }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let y0 = min(2 * y, height - 1), y1 = min(2 * y + 1, height - 1)
                    for x in 0..<w {
                        let x0 = min(2 * x, width - 1), x1 = min(2 * x + 1, width - 1)
                        for c in 0..<4 {
                            let sum =
                                Int(src[y0 * bytesPerRow + x0 * 4 + c]) + Int(src[y0 * bytesPerRow + x1 * 4 + c])
                                + Int(src[y1 * bytesPerRow + x0 * 4 + c]) + Int(src[y1 * bytesPerRow + x1 * 4 + c])
                            dst[(y * w + x) * 4 + c] = UInt8((sum + 2) / 4)
                        }
                    }
                }
            }
        }
        return Image(uncheckedWidth: w, height: h, bytesPerRow: w * 4, pixels: out)
    }

    /// The level of the mipmap chain for drawing at `scale` device pixels per image
    /// pixel: the image halved ⌊log₂(1/scale)⌋ times, so that a bilinear sample
    /// of the level never skips source pixels. The image itself at scale ≥ ½.
    func mipmapLevel(forScale scale: Double) -> Image {
        var level = self
        var s = scale
        while s < 0.5 && (level.width > 1 || level.height > 1) {
            level = level.halved()
            s *= 2
        }
        return level
    }
}
