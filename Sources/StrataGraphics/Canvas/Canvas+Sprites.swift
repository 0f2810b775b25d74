import Foundation
import StrataQueues

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
    ///
    /// On a vector canvas the sprites are one image of the area they cover,
    /// at the device's `rasterScale` (a particle system's thousands of
    /// tinted copies would otherwise be as many images); added sprites
    /// (`plusLighter`) are placed with the device's nearest blend mode.
    public func drawSprites(_ images: [Image], _ sprites: [Sprite], inAnyOrder: Bool = false) {
        guard !state.clip.isEmpty, !images.isEmpty, !sprites.isEmpty else { return }
        if device != nil { return drawSpritesRasterized(images, sprites, inAnyOrder: inAnyOrder) }
        let grouped = inAnyOrder && sprites.count > 64
        let additive = state.blendMode == .plusLighter
        guard additive || state.blendMode == .normal else {
            guard grouped else { return drawSpritesOneByOne(images, sprites) }
            let t = state.transform
            let keys = sprites.map { sprite -> Int in
                let i = sprite.image
                guard i >= 0, i < images.count else { return 0 }
                return Self.bandKey(images[i].width, images[i].height, sprite.transform.concatenating(t))
            }
            drawSpritesOneByOne(images, sprites.indices.sorted { keys[$0] < keys[$1] }.lazy.map { sprites[$0] })
            return
        }
        blitSprites(images, sprites, additive: additive, grouped: grouped)
    }

    /// The sprites on a vector canvas: the page area their corners cover,
    /// drawn as an image.
    func drawSpritesRasterized(_ images: [Image], _ sprites: [Sprite], inAnyOrder: Bool) {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        let t = state.transform
        for sprite in sprites where sprite.image >= 0 && sprite.image < images.count {
            let image = images[sprite.image]
            let m = sprite.transform.concatenating(t)
            for (x, y) in [(0.0, 0.0), (Double(image.width), 0), (0, Double(image.height)), (Double(image.width), Double(image.height))] {
                let p = Point(x: x, y: y).applying(m)
                guard p.x.isFinite, p.y.isFinite else { continue }
                x0 = min(x0, p.x)
                y0 = min(y0, p.y)
                x1 = max(x1, p.x)
                y1 = max(y1, p.y)
            }
        }
        guard x0 < x1, y0 < y1 else { return }
        drawRasterized(over: Rect(x: x0 - 1, y: y0 - 1, width: x1 - x0 + 2, height: y1 - y0 + 2), .sprites(images, sprites, inAnyOrder))
    }

    /// Where a sprite of `width` × `height` pixels under device map `m` falls,
    /// for drawing in any order: its centre's 16-row band, then its x.
    static func bandKey(_ width: Int, _ height: Int, _ m: Transform) -> Int {
        let c = Point(x: Double(width) / 2, y: Double(height) / 2).applying(m)
        let band = c.y.isFinite ? Int(max(-1e6, min(1e6, c.y / 16)).rounded(.down)) : 0
        let column = c.x.isFinite ? Int(max(-1e6, min(1e6, c.x)).rounded(.down)) : 0
        return band * 4_000_000 + column
    }
}

extension Canvas {
    /// The sprite loop: fixed-point sampling from copies of the images with a
    /// transparent border (so no sample needs a bounds test), a pixel's four
    /// channels at once in 16-bit lanes, integer blending, and the clip mask's
    /// coverage where there is one. The loop is specialised for each of
    /// nearest or bilinear sampling, adding or source-over and with or without
    /// a mask, so the pixel loop tests none of them.
    ///
    /// A large batch (more than about 150,000 pixels) drawn from a thread
    /// that does not run below the main thread is cut into horizontal strips
    /// of about equal work, drawn in parallel on the system's worker threads
    /// (`DispatchQueue.concurrentPerform`, as many as there are active cores;
    /// `threads` overrides the count, for tests). Every strip draws its
    /// sprites in the order given, restricted to its rows, so each pixel sees
    /// the same sequence of sprites as it would on one thread and the result
    /// is the same. With `grouped` the sprites are first put in band order
    /// (`bandKey`, from the same device map each sprite's job is made with).
    func blitSprites(_ images: [Image], _ sprites: [Sprite], additive: Bool, grouped: Bool = false, threads: Int? = nil) {
        let clip = state.clip
        let mask = state.clipMask
        let globalAlpha = max(0, min(1, state.alpha.isNaN ? 0 : state.alpha))
        let nearest = state.interpolationQuality == .none
        // Bordered copies of the images that are used, one after another in one buffer.
        var offsets = [Int](repeating: -1, count: images.count)
        var atlasCount = 0
        for sprite in sprites {
            let i = sprite.image
            guard i >= 0, i < images.count, offsets[i] < 0 else { continue }
            offsets[i] = atlasCount
            atlasCount += (images[i].width + 2) * (images[i].height + 2)
        }
        var atlas = [UInt32](repeating: 0, count: atlasCount)
        for (i, offset) in offsets.enumerated() where offset >= 0 {
            let image = images[i]
            let pw = image.width + 2
            image.pixels.withUnsafeBytes { src in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        atlas[offset + (y + 1) * pw + x + 1] = src.loadUnaligned(fromByteOffset: y * image.bytesPerRow + x * 4, as: UInt32.self)
                    }
                }
            }
        }
        // Each sprite's device map, made once: the band order and the jobs
        // both use it.
        let t = state.transform
        let maps = sprites.map { $0.transform.concatenating(t) }
        var order = Array(sprites.indices)
        if grouped {
            let keys = sprites.indices.map { i -> Int in
                let image = sprites[i].image
                guard image >= 0, image < images.count else { return 0 }
                return Self.bandKey(images[image].width, images[image].height, maps[i])
            }
            order.sort { keys[$0] < keys[$1] }
        }
        var jobs: [SpriteJob] = []
        jobs.reserveCapacity(sprites.count)
        var work = 0
        for index in order {
            let sprite = sprites[index], m = maps[index]
            guard sprite.image >= 0, sprite.image < images.count else { continue }
            let image = images[sprite.image]
            let iw = image.width, ih = image.height
            guard iw > 0, ih > 0 else { continue }
            guard let inv = m.inverted(), m.tx.isFinite, m.ty.isFinite,
                abs(inv.a) < 32768, abs(inv.b) < 32768, abs(inv.c) < 32768, abs(inv.d) < 32768
            else { continue }
            let ca = max(0, min(1, sprite.color.alpha.isNaN ? 0 : sprite.color.alpha)) * globalAlpha
            func channel(_ v: Double) -> UInt16 { UInt16((max(0, min(1, v.isNaN ? 0 : v)) * ca * 256).rounded()) }
            let tint = SIMD4(
                channel(sprite.color.red), channel(sprite.color.green), channel(sprite.color.blue),
                UInt16((ca * 256).rounded()))
            guard tint[3] > 0 || (additive && tint != .zero) else { continue }
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for (px, py) in [(0.0, 0.0), (Double(iw), 0.0), (0.0, Double(ih)), (Double(iw), Double(ih))] {
                let q = Point(x: px, y: py).applying(m)
                minX = min(minX, q.x); maxX = max(maxX, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y)
            }
            guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { continue }
            func clamped(_ v: Double) -> Double { min(1e9, max(-1e9, v)) }
            var box = PixelBox(
                x0: Int(clamped(minX - 1).rounded(.down)), y0: Int(clamped(minY - 1).rounded(.down)),
                x1: Int(clamped(maxX + 1).rounded(.up)), y1: Int(clamped(maxY + 1).rounded(.up)))
            let anchorX = box.x0
            box = box.intersection(clip)
            if let mask { box = box.intersection(mask.box) }
            guard !box.isEmpty else { continue }
            work += box.width * box.height
            jobs.append(
                SpriteJob(
                    offset: offsets[sprite.image], width: iw, height: ih, inverse: inv, tint: tint, box: box,
                    anchorX: anchorX))
        }
        guard !jobs.isEmpty else { return }
        let target = SpriteTarget(
            pixels: self.target.baseAddress.assumingMemoryBound(to: UInt32.self),
            stride: self.target.bytesPerRow / 4, mask: mask)
        let masked = mask != nil, readyJobs = jobs
        atlas.withUnsafeBufferPointer { atlasBuffer in
            let src = SpriteAtlas(pixels: atlasBuffer.baseAddress!)
            @Sendable func draw(rows: Range<Int>) {
                switch (nearest, additive, masked) {
                case (false, true, false): drawSpriteJobs(Off.self, On.self, Off.self, readyJobs, src, target, rows)
                case (false, false, false): drawSpriteJobs(Off.self, Off.self, Off.self, readyJobs, src, target, rows)
                case (true, true, false): drawSpriteJobs(On.self, On.self, Off.self, readyJobs, src, target, rows)
                case (true, false, false): drawSpriteJobs(On.self, Off.self, Off.self, readyJobs, src, target, rows)
                case (false, true, true): drawSpriteJobs(Off.self, On.self, On.self, readyJobs, src, target, rows)
                case (false, false, true): drawSpriteJobs(Off.self, Off.self, On.self, readyJobs, src, target, rows)
                case (true, true, true): drawSpriteJobs(On.self, On.self, On.self, readyJobs, src, target, rows)
                case (true, false, true): drawSpriteJobs(On.self, Off.self, On.self, readyJobs, src, target, rows)
                }
            }
            let threads = threads ?? (!ThreadClass.callerRunsBelowMainThread ? ProcessInfo.processInfo.activeProcessorCount : 1)
            guard threads > 1, work > 150_000, clip.height >= 32 else {
                draw(rows: clip.y0..<clip.y1)
                return
            }
            let strips = Self.strips(of: readyJobs, rows: clip.y0..<clip.y1, count: 2 * threads, work: work)
            DispatchQueue.concurrentPerform(iterations: strips.count) { draw(rows: strips[$0]) }
        }
    }

    /// Cuts `rows` into at most `count` ranges that each hold about the same
    /// number of sprite pixels (by the sprites' boxes, counted in 8-row bins).
    static func strips(of jobs: [SpriteJob], rows: Range<Int>, count: Int, work: Int) -> [Range<Int>] {
        let binRows = 8
        var bins = [Int](repeating: 0, count: (rows.count + binRows - 1) / binRows)
        for job in jobs {
            let y0 = max(job.box.y0, rows.lowerBound), y1 = min(job.box.y1, rows.upperBound)
            var y = y0
            while y < y1 {
                let bin = (y - rows.lowerBound) / binRows
                let end = min(y1, rows.lowerBound + (bin + 1) * binRows)
                bins[bin] += (end - y) * job.box.width
                y = end
            }
        }
        var strips: [Range<Int>] = []
        var start = rows.lowerBound, sum = 0, next = 1
        for (bin, w) in bins.enumerated() {
            sum += w
            let end = min(rows.upperBound, rows.lowerBound + (bin + 1) * binRows)
            if sum * count >= next * work && end > start {
                strips.append(start..<end)
                start = end
                while sum * count >= next * work { next += 1 }
            }
        }
        if start < rows.upperBound { strips.append(start..<rows.upperBound) }
        return strips
    }
}

/// One sprite, made ready for the pixel loop.
struct SpriteJob {
    /// Where its bordered image starts in the atlas.
    var offset: Int
    var width: Int, height: Int
    /// Device pixels to image pixels.
    var inverse: Transform
    /// Red, green, blue and alpha factors out of 256 (colour times alpha).
    var tint: SIMD4<UInt16>
    /// The device pixels it may touch, within the clip.
    var box: PixelBox
    /// The left edge of its box before clipping, where the pixel loop's
    /// fixed-point steps start.
    var anchorX: Int
}

/// Where sprites are drawn: the target's pixels and the clip mask, if any.
/// The parallel strips each write their own rows and only read the mask.
struct SpriteTarget: @unchecked Sendable {
    // Safe to share between the strips of one `blitSprites` call: each strip
    // writes only the rows in its range, the mask is only read, and the call
    // waits for every strip before it returns.
    let pixels: UnsafeMutablePointer<UInt32>
    let stride: Int
    let mask: ClipMask?
}

/// The bordered images, read by all the strips.
struct SpriteAtlas: @unchecked Sendable {
    // Safe to share: only read, and alive until `blitSprites` has waited for
    // every strip.
    let pixels: UnsafePointer<UInt32>
}

/// Compile-time switches for the specialised sprite loops.
protocol SpriteSwitch { static var on: Bool { get } }
enum On: SpriteSwitch { static var on: Bool { true } }
enum Off: SpriteSwitch { static var on: Bool { false } }

@inline(__always)
private func widen(_ p: UInt32) -> SIMD4<UInt16> {
    SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(p, to: SIMD4<UInt8>.self))
}

@inline(__always)
private func narrow(_ v: SIMD4<UInt16>) -> UInt32 {
    unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: v), to: UInt32.self)
}

/// Two pixels, the first in the low lanes.
@inline(__always)
private func widen(_ p: UInt32, _ q: UInt32) -> SIMD8<UInt16> {
    widen(UInt64(p) | UInt64(q) << 32)
}

@inline(__always)
private func widen(_ p: UInt64) -> SIMD8<UInt16> {
    SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(p, to: SIMD8<UInt8>.self))
}

@inline(__always)
private func narrow(_ v: SIMD8<UInt16>) -> UInt64 {
    unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: v), to: UInt64.self)
}

/// `a × b / 255`, rounded, for lanes where a × b ≤ 255 · 255.
@inline(__always)
private func multiply255(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
    PixelMath.div255(a &* b &+ 128)
}

@inline(__always)
private func multiply255(_ a: SIMD4<UInt16>, _ b: SIMD4<UInt16>) -> SIMD4<UInt16> {
    PixelMath.div255(a &* b &+ 128)
}

/// Narrows `lo..<hi` to a little more than the pixels whose coordinate lies
/// in (-1, limit), where pixel `x0`'s is `start` and each next one's `step`
/// more (`reciprocal` is 1 / `step`, worked out once per sprite).
@inline(__always)
private func narrowSpan(
    _ lo: inout Int, _ hi: inout Int, from x0: Int, start: Double, step: Double, reciprocal: Double,
    limit: Double
) {
    if step == 0 {
        if !(start > -1 && start < limit) { hi = lo }
        return
    }
    // A step this small leaves the span as it is (the loop tests each sample).
    guard abs(step) > 1e-9 else { return }
    var a = (-1 - start) * reciprocal, b = (limit - start) * reciprocal
    if a > b { swap(&a, &b) }
    a = min(1e9, max(-1e9, a))
    b = min(1e9, max(-1e9, b))
    // Floor and ceiling without a call into libm.
    var fa = Int(a), cb = Int(b)
    if Double(fa) > a { fa -= 1 }
    if Double(cb) < b { cb += 1 }
    lo = max(lo, x0 + fa)
    hi = min(hi, x0 + cb + 1)
}

/// Draws every job's rows within `rows`, in order.
private func drawSpriteJobs<Nearest: SpriteSwitch, Additive: SpriteSwitch, Masked: SpriteSwitch>(
    _: Nearest.Type, _: Additive.Type, _: Masked.Type, _ jobs: [SpriteJob], _ atlas: SpriteAtlas,
    _ target: SpriteTarget, _ rows: Range<Int>
) {
    for job in jobs {
        let y0 = max(job.box.y0, rows.lowerBound), y1 = min(job.box.y1, rows.upperBound)
        guard y0 < y1 else { continue }
        let inv = job.inverse
        let iw = job.width, ih = job.height, pw = iw + 2
        let src = atlas.pixels + job.offset + pw + 1
        let du = Int((inv.a * 65536).rounded()), dv = Int((inv.b * 65536).rounded())
        let uMax = iw << 16, vMax = ih << 16
        let x0 = job.box.x0, x1 = job.box.x1
        let half = Nearest.on ? 0 : 0.5
        let ra = 1 / inv.a, rb = 1 / inv.b
        for y in y0..<y1 {
            let py = Double(y) + 0.5
            let fu0 = inv.a * (Double(x0) + 0.5) + inv.c * py + inv.tx - half
            let fv0 = inv.b * (Double(x0) + 0.5) + inv.d * py + inv.ty - half
            // Only the x where (u, v) can touch the image, give or take a
            // pixel (the loop tests each sample).
            var lo = x0, hi = x1
            narrowSpan(&lo, &hi, from: x0, start: fu0, step: inv.a, reciprocal: ra, limit: Double(iw))
            narrowSpan(&lo, &hi, from: x0, start: fv0, step: inv.b, reciprocal: rb, limit: Double(ih))
            guard lo < hi else { continue }
            let maskRow: UnsafeMutablePointer<UInt8>? = Masked.on ? target.mask!.row(y) : nil
            // Stepped from the sprite's own left edge, not from `lo`: where
            // a span starts (the clip) must not change the samples.
            let ax = job.anchorX
            let fua = inv.a * (Double(ax) + 0.5) + inv.c * py + inv.tx - half
            let fva = inv.b * (Double(ax) + 0.5) + inv.d * py + inv.ty - half
            guard abs(fua) < 1e12, abs(fva) < 1e12 else { continue }
            var u = Int(fua * 65536) &+ (lo - ax) &* du, v = Int(fva * 65536) &+ (lo - ax) &* dv
            let row = target.pixels + y * target.stride
            var x = lo
            if !Nearest.on {
                // Two pixels at a time (eight 16-bit lanes) while both sample
                // inside the bordered image.
                let tint = SIMD8(lowHalf: job.tint, highHalf: job.tint)
                while x + 1 < hi {
                    let u1 = u &+ du, v1 = v &+ dv
                    guard u > -65536, u < uMax, v > -65536, v < vMax, u1 > -65536, u1 < uMax, v1 > -65536, v1 < vMax else {
                        blendSpritePixel(Nearest.self, Additive.self, Masked.self, src, pw, row, maskRow, x, u, v, job.tint, uMax, vMax)
                        blendSpritePixel(Nearest.self, Additive.self, Masked.self, src, pw, row, maskRow, x + 1, u1, v1, job.tint, uMax, vMax)
                        x += 2; u = u1 &+ du; v = v1 &+ dv
                        continue
                    }
                    let a = (v >> 16) &* pw &+ (u >> 16), b = (v1 >> 16) &* pw &+ (u1 >> 16)
                    let a00 = src[a], a10 = src[a &+ 1], a01 = src[a &+ pw], a11 = src[a &+ pw &+ 1]
                    let b00 = src[b], b10 = src[b &+ 1], b01 = src[b &+ pw], b11 = src[b &+ pw &+ 1]
                    defer { x += 2; u = u1 &+ du; v = v1 &+ dv }
                    guard (a00 | a10 | a01 | a11 | b00 | b10 | b01 | b11) != 0 else { continue }
                    let fx = SIMD8(
                        lowHalf: SIMD4(repeating: UInt16(truncatingIfNeeded: (u >> 8) & 0xFF)),
                        highHalf: SIMD4(repeating: UInt16(truncatingIfNeeded: (u1 >> 8) & 0xFF)))
                    let fy = SIMD8(
                        lowHalf: SIMD4(repeating: UInt16(truncatingIfNeeded: (v >> 8) & 0xFF)),
                        highHalf: SIMD4(repeating: UInt16(truncatingIfNeeded: (v1 >> 8) & 0xFF)))
                    let w11 = (fx &* fy) &>> 8, w10 = fx &- w11, w01 = fy &- w11, w00 = 256 &+ w11 &- fx &- fy
                    let sum = widen(a00, b00) &* w00 &+ widen(a10, b10) &* w10 &+ widen(a01, b01) &* w01 &+ widen(a11, b11) &* w11
                    var s = ((sum &>> 8) &* tint) &>> 8
                    if Masked.on {
                        let ka = UInt16(maskRow![x]), kb = UInt16(maskRow![x + 1])
                        guard ka | kb > 0 else { continue }
                        s = multiply255(s, SIMD8(lowHalf: SIMD4(repeating: ka), highHalf: SIMD4(repeating: kb)))
                    }
                    let p = UnsafeMutableRawPointer(row + x)
                    let d = widen(p.loadUnaligned(as: UInt64.self))
                    let out: SIMD8<UInt16>
                    if Additive.on {
                        out = pointwiseMin(d &+ s, SIMD8(repeating: 255))
                    } else {
                        // 255 - alpha for each pixel; where the sample is
                        // clear this keeps the pixel exactly.
                        let alpha = SIMD8(lowHalf: SIMD4(repeating: s[3]), highHalf: SIMD4(repeating: s[7]))
                        let k = 255 &- pointwiseMin(alpha, SIMD8(repeating: 255))
                        out = pointwiseMin(s &+ multiply255(d, k), SIMD8(repeating: 255))
                    }
                    p.storeBytes(of: narrow(out), as: UInt64.self)
                }
            }
            while x < hi {
                blendSpritePixel(Nearest.self, Additive.self, Masked.self, src, pw, row, maskRow, x, u, v, job.tint, uMax, vMax)
                x += 1; u &+= du; v &+= dv
            }
        }
    }
}

/// One pixel of the sprite loop.
@inline(__always)
private func blendSpritePixel<Nearest: SpriteSwitch, Additive: SpriteSwitch, Masked: SpriteSwitch>(
    _: Nearest.Type, _: Additive.Type, _: Masked.Type, _ src: UnsafePointer<UInt32>, _ pw: Int,
    _ row: UnsafeMutablePointer<UInt32>, _ maskRow: UnsafeMutablePointer<UInt8>?, _ x: Int, _ u: Int, _ v: Int,
    _ tint: SIMD4<UInt16>, _ uMax: Int, _ vMax: Int
) {
    guard u > -65536, u < uMax, v > -65536, v < vMax else { return }
    var s: SIMD4<UInt16>
    if Nearest.on {
        let t = src[(v >> 16) &* pw &+ (u >> 16)]
        guard t != 0 else { return }
        s = (widen(t) &* tint) &>> 8
    } else {
        let base = (v >> 16) &* pw &+ (u >> 16)
        let t00 = src[base], t10 = src[base &+ 1], t01 = src[base &+ pw], t11 = src[base &+ pw &+ 1]
        guard (t00 | t10 | t01 | t11) != 0 else { return }
        let fx = UInt16(truncatingIfNeeded: (u >> 8) & 0xFF), fy = UInt16(truncatingIfNeeded: (v >> 8) & 0xFF)
        let w11 = (fx &* fy) &>> 8, w10 = fx &- w11, w01 = fy &- w11, w00 = 256 &+ w11 &- fx &- fy
        let sum = widen(t00) &* w00 &+ widen(t10) &* w10 &+ widen(t01) &* w01 &+ widen(t11) &* w11
        s = ((sum &>> 8) &* tint) &>> 8
    }
    if Masked.on {
        let k = UInt16(maskRow![x])
        guard k > 0 else { return }
        s = multiply255(s, SIMD4(repeating: k))
    }
    let d = widen(row[x])
    if Additive.on {
        row[x] = narrow(pointwiseMin(d &+ s, SIMD4(repeating: 255)))
    } else {
        guard s != .zero else { return }
        let k = 255 &- Swift.min(255, s[3])
        row[x] = narrow(pointwiseMin(s &+ multiply255(d, SIMD4(repeating: k)), SIMD4(repeating: 255)))
    }
}

extension Canvas {
    /// The general path for other blend modes: each sprite as a tinted image.
    func drawSpritesOneByOne(_ images: [Image], _ sprites: some Sequence<Sprite>) {
        for sprite in sprites where sprite.image >= 0 && sprite.image < images.count {
            let image = images[sprite.image]
            saveGState()
            concatenate(sprite.transform)
            draw(image.multiplied(by: sprite.color), in: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
            restoreGState()
        }
    }
}
