/// One copy of an image drawn by `Canvas.drawSprites`: which image, where
/// (image pixels to user space) and the colour its pixels are multiplied by.
public struct Sprite: Sendable {
    /// An index into the images passed to `drawSprites`.
    public var image: Int
    /// Maps the image's pixel coordinates (0…width, 0…height) to user space.
    public var transform: Transform
    /// Each pixel's red, green, blue and alpha are multiplied by this colour's
    /// (alpha included: a colour with alpha 0.5 draws the image half opaque).
    public var color: Color

    public init(image: Int, transform: Transform, color: Color) {
        self.image = image
        self.transform = transform
        self.color = color
    }
}

extension Canvas {
    /// Draws many small tinted copies of images, as particle systems do: each
    /// sprite's image is sampled bilinearly (nearest with interpolation quality
    /// `.none`) under its transform and the canvas transform, its pixels are
    /// multiplied by the sprite's colour and the canvas alpha, and composited
    /// source-over, or added (`plusLighter`, when that is the blend mode).
    /// Only the footprint of each sprite is visited, so the cost is the pixels
    /// covered. The clip applies; other blend modes draw each sprite through
    /// `draw(_:in:)` with the colour applied to a copy of the image.
    /// Sprites with non-finite or singular transforms, or an image index out of
    /// range, are skipped.
    ///
    /// With `inAnyOrder` (for sprites whose order does not matter: additive
    /// ones, whose sum is the same in any order, or unordered particles) the
    /// sprites are drawn grouped by where they fall, band by band, which keeps
    /// the frame's memory in cache; the result is the same for additive
    /// sprites and may differ where unordered ones overlap.
    public func drawSprites(_ images: [Image], _ sprites: [Sprite], inAnyOrder: Bool = false) {
        if inAnyOrder && sprites.count > 64 {
            let t = state.transform
            let keyed = sprites.map { sprite -> (Int, Sprite) in
                let i = sprite.image
                let w = i >= 0 && i < images.count ? Double(images[i].width) / 2 : 0
                let h = i >= 0 && i < images.count ? Double(images[i].height) / 2 : 0
                let c = Point(x: w, y: h).applying(sprite.transform.concatenating(t))
                let band = c.y.isFinite ? Int(max(-1e6, min(1e6, c.y / 16)).rounded(.down)) : 0
                let column = c.x.isFinite ? Int(max(-1e6, min(1e6, c.x)).rounded(.down)) : 0
                return (band * 4_000_000 + column, sprite)
            }
            drawSprites(images, keyed.sorted { $0.0 < $1.0 }.map(\.1), inAnyOrder: false)
            return
        }
        guard !state.clip.isEmpty, !images.isEmpty else { return }
        let additive = state.blendMode == .plusLighter
        guard additive || state.blendMode == .normal else {
            drawSpritesOneByOne(images, sprites)
            return
        }
        blitSprites(images, sprites, additive: additive)
    }
}

extension Canvas {
    /// The sprite loop: fixed-point sampling from copies of the images with a
    /// transparent border (so no sample needs a bounds test), two channels at
    /// a time, integer blending, and the clip mask's coverage where there is one.
    func blitSprites(_ images: [Image], _ sprites: [Sprite], additive: Bool) {
        let clip = state.clip
        let mask = state.clipMask
        let globalAlpha = max(0, min(1, state.alpha.isNaN ? 0 : state.alpha))
        let nearest = state.interpolationQuality == .none
        let target = self.target
        let dstStride = target.bytesPerRow / 4
        let dst = target.baseAddress.assumingMemoryBound(to: UInt32.self)
        // Bordered copies, made once per call.
        var padded: [[UInt32]?] = Array(repeating: nil, count: images.count)
        for sprite in sprites {
            let i = sprite.image
            guard i >= 0, i < images.count, padded[i] == nil else { continue }
            let image = images[i]
            let pw = image.width + 2
            var p = [UInt32](repeating: 0, count: pw * (image.height + 2))
            image.pixels.withUnsafeBytes { src in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        p[(y + 1) * pw + x + 1] = src.loadUnaligned(fromByteOffset: y * image.bytesPerRow + x * 4, as: UInt32.self)
                    }
                }
            }
            padded[i] = p
        }
        for sprite in sprites {
            guard sprite.image >= 0, sprite.image < images.count, let pad = padded[sprite.image] else { continue }
            let image = images[sprite.image]
            let iw = image.width, ih = image.height, pw = iw + 2
            guard iw > 0, ih > 0 else { continue }
            let m = sprite.transform.concatenating(state.transform)
            guard let inv = m.inverted(), m.tx.isFinite, m.ty.isFinite,
                  abs(inv.a) < 32768, abs(inv.b) < 32768, abs(inv.c) < 32768, abs(inv.d) < 32768 else { continue }
            let ca = max(0, min(1, sprite.color.alpha.isNaN ? 0 : sprite.color.alpha)) * globalAlpha
            func channel(_ v: Double) -> UInt32 { UInt32((max(0, min(1, v.isNaN ? 0 : v)) * ca * 256).rounded()) }
            let mr = channel(sprite.color.red), mg = channel(sprite.color.green), mb = channel(sprite.color.blue)
            let ma = UInt32((ca * 256).rounded())
            guard ma > 0 || (additive && (mr | mg | mb) > 0) else { continue }
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for (px, py) in [(0.0, 0.0), (Double(iw), 0.0), (0.0, Double(ih)), (Double(iw), Double(ih))] {
                let q = Point(x: px, y: py).applying(m)
                minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
            }
            guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { continue }
            let x0 = max(clip.x0, Int((minX - 1).rounded(.down))), x1 = min(clip.x1, Int((maxX + 1).rounded(.up)))
            let y0 = max(clip.y0, Int((minY - 1).rounded(.down))), y1 = min(clip.y1, Int((maxY + 1).rounded(.up)))
            guard x0 < x1, y0 < y1 else { continue }
            let du = Int(inv.a * 65536), dv = Int(inv.b * 65536)
            let uMin = -65536, uMax = iw << 16, vMin = -65536, vMax = ih << 16
            pad.withUnsafeBufferPointer { pb in
                let src = pb.baseAddress!
                for y in y0..<y1 {
                    let py = Double(y) + 0.5
                    let fu0 = inv.a * (Double(x0) + 0.5) + inv.c * py + inv.tx - (nearest ? 0 : 0.5)
                    let fv0 = inv.b * (Double(x0) + 0.5) + inv.d * py + inv.ty - (nearest ? 0 : 0.5)
                    // Only the x where (u, v) can touch the image.
                    var lo = x0, hi = x1
                    for (start, step, limit) in [(fu0, inv.a, Double(iw)), (fv0, inv.b, Double(ih))] {
                        if step == 0 {
                            if !(start > -1 && start < limit) { hi = lo }
                            continue
                        }
                        var a = (-1 - start) / step, b = (limit - start) / step
                        if a > b { swap(&a, &b) }
                        lo = max(lo, x0 + Int(max(-1e9, a).rounded(.down)))
                        hi = min(hi, x0 + Int(min(1e9, b).rounded(.up)) + 1)
                    }
                    guard lo < hi else { continue }
                    var maskRow: UnsafeMutablePointer<UInt8>?
                    if let mask {
                        // Outside the mask's box the clip lets nothing through.
                        guard y >= mask.box.y0, y < mask.box.y1 else { continue }
                        lo = max(lo, mask.box.x0)
                        hi = min(hi, mask.box.x1)
                        guard lo < hi else { continue }
                        maskRow = mask.row(y)
                    }
                    var u = Int((fu0 + inv.a * Double(lo - x0)) * 65536), v = Int((fv0 + inv.b * Double(lo - x0)) * 65536)
                    let row = dst + y * dstStride
                    for x in lo..<hi {
                        defer { u &+= du; v &+= dv }
                        guard u > uMin, u < uMax, v > vMin, v < vMax else { continue }
                        var r: UInt32, g: UInt32, b: UInt32, a: UInt32
                        if nearest {
                            let t = src[((v >> 16) &+ 1) &* pw &+ (u >> 16) &+ 1]
                            guard t != 0 else { continue }
                            r = t & 0xFF; g = (t >> 8) & 0xFF; b = (t >> 16) & 0xFF; a = t >> 24
                        } else {
                            let base = ((v >> 16) &+ 1) &* pw &+ (u >> 16) &+ 1
                            let t00 = src[base], t10 = src[base &+ 1], t01 = src[base &+ pw], t11 = src[base &+ pw &+ 1]
                            guard (t00 | t10 | t01 | t11) != 0 else { continue }
                            let fx = UInt32((u >> 8) & 0xFF), fy = UInt32((v >> 8) & 0xFF)
                            let w11 = (fx &* fy) >> 8, w10 = fx &- w11, w01 = fy &- w11, w00 = 256 &+ w11 &- fx &- fy
                            let rb = ((t00 & 0xFF00FF) &* w00 &+ (t10 & 0xFF00FF) &* w10 &+ (t01 & 0xFF00FF) &* w01
                                      &+ (t11 & 0xFF00FF) &* w11) >> 8
                            let ag = (((t00 >> 8) & 0xFF00FF) &* w00 &+ ((t10 >> 8) & 0xFF00FF) &* w10
                                      &+ ((t01 >> 8) & 0xFF00FF) &* w01 &+ ((t11 >> 8) & 0xFF00FF) &* w11) >> 8
                            r = rb & 0xFF; b = (rb >> 16) & 0xFF; g = ag & 0xFF; a = (ag >> 16) & 0xFF
                        }
                        r = (r &* mr) >> 8; g = (g &* mg) >> 8; b = (b &* mb) >> 8; a = (a &* ma) >> 8
                        if let maskRow {
                            let k = UInt32(maskRow[x])
                            guard k > 0 else { continue }
                            r = (r &* k &* 257 &+ 32896) >> 16; g = (g &* k &* 257 &+ 32896) >> 16
                            b = (b &* k &* 257 &+ 32896) >> 16; a = (a &* k &* 257 &+ 32896) >> 16
                        }
                        let d = row[x]
                        var dr = d & 0xFF, dg = (d >> 8) & 0xFF, db = (d >> 16) & 0xFF, da = d >> 24
                        if additive {
                            dr = min(255, dr &+ r); dg = min(255, dg &+ g); db = min(255, db &+ b); da = min(255, da &+ a)
                        } else {
                            guard a > 0 || (r | g | b) > 0 else { continue }
                            let k = 255 - min(255, a)
                            dr = min(255, r &+ (dr &* k &* 257 &+ 32896) >> 16)
                            dg = min(255, g &+ (dg &* k &* 257 &+ 32896) >> 16)
                            db = min(255, b &+ (db &* k &* 257 &+ 32896) >> 16)
                            da = min(255, a &+ (da &* k &* 257 &+ 32896) >> 16)
                        }
                        row[x] = dr | (dg << 8) | (db << 16) | (da << 24)
                    }
                }
            }
        }
    }

    /// The general path for other blend modes: each sprite as a tinted image.
    func drawSpritesOneByOne(_ images: [Image], _ sprites: [Sprite]) {
        for sprite in sprites where sprite.image >= 0 && sprite.image < images.count {
            let image = images[sprite.image]
            saveGState()
            concatenate(sprite.transform)
            draw(image.multiplied(by: sprite.color), in: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
            restoreGState()
        }
    }
}
