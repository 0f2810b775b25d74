import Foundation
import Testing

@testable import StrataGraphics

@Suite struct CanvasTests {
    @Test func flatnessIsPartOfTheGraphicsState() {
        let canvas = makeCanvas(40, 40)
        canvas.flatness = 0.5
        canvas.saveGState()
        canvas.flatness = 2
        #expect(canvas.flatness == 2)
        canvas.restoreGState()
        #expect(canvas.flatness == 0.5)
        // Kept within its range; NaN is the default.
        canvas.flatness = .nan
        #expect(canvas.flatness == 0.1)
        canvas.flatness = 0
        #expect(canvas.flatness == 0.001)
        canvas.flatness = .infinity
        #expect(canvas.flatness == 1000)
        // A coarse flatness draws a circle as a polygon inside it: less area.
        func area(_ flatness: Double) -> Int {
            let c = makeCanvas(40, 40)
            c.flatness = flatness
            c.fillColor = .white
            c.fill(Path(ellipseIn: Rect(x: 2, y: 2, width: 36, height: 36)))
            var sum = 0
            for y in 0..<40 { for x in 0..<40 { sum += Int(c.bitmap[x, y].a) } }
            return sum
        }
        #expect(area(4) < area(0.1))
    }

    @Test func sourceOverBlendsPremultiplied() {
        let canvas = makeCanvas(4, 4)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        canvas.fillColor = Color(red8: 255, green8: 0, blue8: 0, alpha8: 128)
        canvas.fill(Rect(x: 0, y: 0, width: 4, height: 4))
        // R = 128 + 255·127/255 = 255, G = B = 0 + 255·127/255 = 127.
        #expect(canvas.bitmap[1, 1] == Pixel(r: 255, g: 127, b: 127, a: 255))
    }

    @Test func longSpansBlendLikeShortOnes() {
        // The vector loop (8 pixels at a time) and the scalar tail must agree.
        let canvas = makeCanvas(37, 2)
        for x in 0..<37 { canvas.bitmap[x, 0] = Pixel(r: UInt8(x * 3), g: UInt8(x * 5), b: UInt8(x * 7), a: 255) }
        for x in 0..<37 { canvas.bitmap[x, 1] = canvas.bitmap[x, 0] }
        canvas.fillColor = Color(red8: 10, green8: 200, blue8: 90, alpha8: 77)
        canvas.fill(Rect(x: 0, y: 0, width: 37, height: 1))
        for x in 0..<37 {
            canvas.fill(Rect(x: Double(x), y: 1, width: 1, height: 1))
        }
        for x in 0..<37 { #expect(canvas.bitmap[x, 0] == canvas.bitmap[x, 1], "pixel \(x)") }
        let s = Color(red8: 10, green8: 200, blue8: 90, alpha8: 77).premultipliedPixel
        let d = Pixel(r: 60, g: 100, b: 140, a: 255)  // the original pixel 20
        #expect(
            canvas.bitmap[20, 0]
                == Pixel(
                    r: s.r + Pixel.multiply(d.r, 178), g: s.g + Pixel.multiply(d.g, 178),
                    b: s.b + Pixel.multiply(d.b, 178), a: 255))
    }

    @Test(arguments: [BlendMode.normal, .copy])
    func maskBlendsRoundOnceForEveryCoverage(mode: BlendMode) {
        // Every coverage 0…255 in one mask row (vector groups of 8 and a scalar
        // tail of 3), over a varied background: each channel must be
        // round((s·c + d·(255 − c)) / 255) for an opaque source over and for
        // copy with a translucent one, computed here in Double.
        let width = 259
        let canvas = makeCanvas(width, 1)
        var background: [Pixel] = []
        for x in 0..<width {
            let p = Pixel(r: UInt8(x * 7 % 256), g: UInt8(x * 13 % 256), b: UInt8(255 - x % 256), a: 255)
            canvas.bitmap[x, 0] = p
            background.append(p)
        }
        let coverage = (0..<width).map { UInt8($0 % 256) }
        let color = mode == .copy ? Color(red8: 200, green8: 40, blue8: 120, alpha8: 180) : Color(red8: 30, green8: 220, blue8: 90)
        let s = color.premultipliedPixel
        canvas.blendMode = mode
        canvas.draw(
            CoverageMask(width: width, height: 1, left: 0, top: 0, coverage: coverage), atDeviceX: 0, y: 0,
            with: .color(color))
        func lerp(_ s: UInt8, _ d: UInt8, _ c: UInt8) -> UInt8 {
            let sum: Double = Double(s) * Double(c) + Double(d) * Double(255 - c)
            return UInt8(sum / 255 + 0.5)
        }
        for x in 0..<width {
            let c = coverage[x], d = background[x]
            var want = d
            if c != 0 {
                want = Pixel(r: lerp(s.r, d.r, c), g: lerp(s.g, d.g, c), b: lerp(s.b, d.b, c), a: lerp(s.a, d.a, c))
            }
            #expect(canvas.bitmap[x, 0] == want, "coverage \(c)")
        }
    }

    @Test(arguments: [Color.white, .black, .clear, Color(red8: 10, green8: 20, blue8: 30)])
    func wholeCanvasFillsReachEveryPixelAndNoMore(color: Color) throws {
        // A fill of the whole canvas is one run of stores (`strata_fill_avx2`:
        // a first block, aligned blocks, a last block, or pixel by pixel
        // under eight), or without AVX2 a memset where the colour's four
        // bytes are equal and rows otherwise. Each must cover exactly the
        // canvas, whatever its size, and a clipped fill only its rect.
        let want = color.premultipliedPixel
        for (width, height) in [(37, 5), (1, 1), (3, 2), (8, 1), (9, 1), (4, 4), (17, 3)] {
            let canvas = makeCanvas(width, height)
            canvas.bitmap.fill(with: Pixel(r: 1, g: 2, b: 3, a: 4))
            canvas.blendMode = .copy
            canvas.fillColor = color
            canvas.fill(canvas.bounds)
            for y in 0..<height {
                for x in 0..<width { #expect(canvas.bitmap[x, y] == want, "\(width) × \(height) at (\(x), \(y))") }
            }
        }
        let sub = try Canvas(width: 37, height: 5)
        sub.fillColor = color
        sub.fill(Rect(x: 0, y: 1, width: 37, height: 2))
        for y in 0..<5 {
            for x in 0..<37 {
                #expect(sub.bitmap[x, y] == (y == 1 || y == 2 ? want : .transparent), "(\(x), \(y))")
            }
        }
    }

    @Test func copyModeReplacesInsideTheShape() {
        let canvas = makeCanvas(4, 1)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        canvas.blendMode = .copy
        canvas.fillColor = Color(red8: 0, green8: 0, blue8: 255, alpha8: 128)
        canvas.fill(Rect(x: 1, y: 0, width: 1.5, height: 1))
        #expect(canvas.bitmap[0, 0] == Pixel(r: 255, g: 255, b: 255, a: 255))
        #expect(canvas.bitmap[1, 0] == Pixel(r: 0, g: 0, b: 128, a: 128))
        // Half covered: half the old white, half the new half-transparent blue.
        #expect(canvas.bitmap[2, 0] == Pixel(r: 127, g: 127, b: 191, a: 191))
    }

    @Test func globalAlphaScalesTheSource() {
        let canvas = makeCanvas(2, 2)
        canvas.alpha = 0.5
        canvas.fillColor = Color(red: 1, green: 0, blue: 0)
        canvas.fill(canvas.bounds)
        #expect(canvas.bitmap[0, 0] == Pixel(r: 128, g: 0, b: 0, a: 128))
        canvas.alpha = -3
        #expect(canvas.alpha == 0)
        canvas.alpha = .nan
        #expect(canvas.alpha == 0)
    }

    @Test func clipRectLimitsDrawing() {
        let canvas = makeCanvas(10, 10)
        canvas.clip(to: Rect(x: 2, y: 3, width: 4, height: 5))
        canvas.fillColor = .white
        canvas.fill(Path(ellipseIn: Rect(x: -50, y: -50, width: 110, height: 110)))
        #expect(coveredArea(canvas.bitmap) == 20)
        #expect(canvas.bitmap[1, 4].a == 0 && canvas.bitmap[2, 4].a == 255 && canvas.bitmap[5, 7].a == 255 && canvas.bitmap[6, 7].a == 0)
        // Clips only ever shrink.
        canvas.clip(to: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(canvas.clipBoundingBox == Rect(x: 2, y: 3, width: 4, height: 5))
        canvas.clip(to: Rect(x: 50, y: 50, width: 1, height: 1))
        #expect(canvas.clipBoundingBox.isNull)
        canvas.fill(canvas.bounds)
        #expect(coveredArea(canvas.bitmap) == 20)
    }

    @Test func fractionalClipRectsHaveAntiAliasedEdges() {
        let canvas = makeCanvas(10, 10)
        canvas.clip(to: Rect(x: 1.5, y: 2, width: 3, height: 2))
        #expect(canvas.clipBoundingBox == Rect(x: 1, y: 2, width: 4, height: 2))
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        #expect(canvas.bitmap[1, 2].a == 128 && canvas.bitmap[2, 2].a == 255 && canvas.bitmap[4, 3].a == 128)
        #expect(abs(coveredArea(canvas.bitmap) - 6) < 0.01)
        canvas.clip(to: Rect(x: .nan, y: 0, width: 1, height: 1))
        #expect(canvas.clipBoundingBox.isNull)
    }

    @Test func saveAndRestoreTheGraphicsState() {
        let canvas = makeCanvas(10, 10)
        canvas.fillColor = .red
        canvas.saveGState()
        canvas.translateBy(x: 5, y: 5)
        canvas.clip(to: Rect(x: 0, y: 0, width: 2, height: 2))
        canvas.fillColor = .blue
        canvas.alpha = 0.5
        canvas.blendMode = .copy
        canvas.fill(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(canvas.bitmap[5, 5] == Pixel(r: 0, g: 0, b: 128, a: 128) && canvas.bitmap[7, 7].a == 0)
        canvas.restoreGState()
        #expect(canvas.transform == .identity && canvas.fillColor == .red && canvas.alpha == 1 && canvas.blendMode == .normal)
        #expect(canvas.clipBoundingBox == canvas.bounds)
        canvas.restoreGState()  // unbalanced: ignored
        canvas.fill(Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(canvas.bitmap[0, 0] == Pixel(r: 255, g: 0, b: 0, a: 255))
    }

    /// Saves nested past the states' first room (eight), each level with a
    /// dash pattern and an anti-aliased clip of its own (the state's
    /// counted references), restored one by one: each level comes back as
    /// it was, and what it draws is clipped as at first.
    @Test func deeplyNestedStatesComeBackInOrder() {
        let canvas = makeCanvas(64, 8)
        for level in 0..<40 {
            canvas.lineWidth = Double(level + 1)
            canvas.setLineDash(phase: 0, lengths: [Double(level + 1), 1])
            canvas.clip(to: Path(ellipseIn: Rect(x: 0.5, y: 0.5, width: 63 - Double(level), height: 7)))
            canvas.saveGState()
        }
        for level in stride(from: 39, through: 0, by: -1) {
            canvas.restoreGState()
            #expect(canvas.lineWidth == Double(level + 1))
            #expect(canvas.strokeStyle.dashLengths == [Double(level + 1), 1])
            #expect(canvas.clipBoundingBox.maxX <= 64 - Double(level))
        }
        // The first level's clip still holds after all the others are gone.
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        #expect(canvas.bitmap[0, 0].a < 255 && canvas.bitmap[32, 4].a == 255)
        canvas.restoreGState()
        canvas.restoreGState()  // nothing saved: ignored
        #expect(canvas.lineWidth == 1 && canvas.strokeStyle.dashLengths == [1, 1])
        // Saved and left: dropped with the canvas (its states destroyed).
        for _ in 0..<100 { canvas.saveGState() }
    }

    @Test func transformsMoveWhatIsDrawn() {
        let canvas = makeCanvas(20, 20)
        canvas.fillColor = .white
        canvas.translateBy(x: 10, y: 10)
        canvas.scaleBy(x: 2, y: 2)
        canvas.fill(Rect(x: 0, y: 0, width: 2, height: 2))  // device (10, 10) … (14, 14)
        #expect(coveredArea(canvas.bitmap) == 16 && canvas.bitmap[10, 10].a == 255 && canvas.bitmap[14, 14].a == 0)
        canvas.rotate(by: .pi / 4)
        let before = coveredArea(canvas.bitmap)
        canvas.fill(Rect(x: -2, y: -2, width: 1, height: 1))  // rotated: goes through the path filler
        #expect(coveredArea(canvas.bitmap) > before)
        let t = canvas.transform
        #expect(abs(t.tx - 10) < 1e-12 && abs(t.a - 2 * cos(Double.pi / 4)) < 1e-12)
    }

    @Test func clearMakesPixelsTransparent() {
        let canvas = makeCanvas(4, 4)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        canvas.alpha = 0.3
        canvas.clear(Rect(x: 1, y: 1, width: 2, height: 2))
        #expect(canvas.bitmap[1, 1] == .transparent && canvas.bitmap[0, 0].a == 255 && coveredArea(canvas.bitmap) == 12)
        #expect(canvas.alpha == 0.3)
    }

    @Test func badSizesThrow() {
        #expect(throws: GraphicsError.self) { try Canvas(width: -1, height: 10) }
        #expect(throws: GraphicsError.self) { try Bitmap(width: 10, height: -5) }
        #expect(throws: GraphicsError.self) { try Bitmap(width: 100_000, height: 1) }
        #expect(throws: GraphicsError.self) { try Bitmap(width: 60_000, height: 60_000) }
        do {
            _ = try Bitmap(width: -1, height: 2)
        } catch {
            #expect(error.description.contains("must not be negative"))
        }
        let empty = try! Bitmap(width: 0, height: 7)
        #expect(empty.makeImage().pixels.isEmpty)
    }

    @Test func imagesCheckTheirPixelData() throws {
        #expect(throws: GraphicsError.self) { try Image(width: 2, height: 2, premultipliedPixels: [0, 0, 0]) }
        #expect(throws: GraphicsError.self) { try Image(width: 2, height: 2, bytesPerRow: 4, premultipliedPixels: [UInt8](repeating: 0, count: 16)) }
        // Colour above alpha is not a premultiplied value: clamped.
        let image = try Image(width: 1, height: 1, premultipliedPixels: [200, 10, 10, 100])
        #expect(image[0, 0] == Pixel(r: 100, g: 10, b: 10, a: 100))
        let bitmap = Bitmap(image: image)
        #expect(bitmap[0, 0] == image[0, 0] && bitmap.makeImage() == image)
    }
}

@Suite struct MaskBlendTests {
    /// The eight-at-a-time mask loop must give exactly what one pixel at a time does.
    @Test(arguments: [BlendMode.normal, .copy])
    func vectorMaskBlendMatchesScalar(mode: BlendMode) throws {
        var rng = SystemRandomNumberGenerator()
        for alpha in [255, 128, 7] as [UInt8] {
            let bitmap = try Bitmap(width: 61, height: 2)
            for x in 0..<61 {
                let p = Pixel(
                    r: UInt8.random(in: 0...200, using: &rng), g: UInt8.random(in: 0...200, using: &rng),
                    b: UInt8.random(in: 0...200, using: &rng), a: 220)
                bitmap[x, 0] = Pixel(r: min(p.r, p.a), g: min(p.g, p.a), b: min(p.b, p.a), a: p.a)
                bitmap[x, 1] = bitmap[x, 0]
            }
            var mask = (0..<61).map { _ in [0, 255, UInt8.random(in: 0...255, using: &rng)].randomElement(using: &rng)! }
            mask.replaceSubrange(8..<16, with: [UInt8](repeating: 0, count: 8))
            mask.replaceSubrange(16..<24, with: [UInt8](repeating: 255, count: 8))
            let color = Pixel(r: Pixel.multiply(250, alpha), g: Pixel.multiply(40, alpha), b: Pixel.multiply(90, alpha), a: alpha)
            var blitter = SolidBlitter(bitmap: bitmap, color: color, mode: mode)
            mask.withUnsafeBufferPointer { blitter.blitMask(x: 0, y: 0, count: 61, mask: $0.baseAddress!) }
            for x in 0..<61 {
                var one = [mask[x]]
                one.withUnsafeMutableBufferPointer { blitter.blitMask(x: x, y: 1, count: 1, mask: $0.baseAddress!) }
            }
            for x in 0..<61 { #expect(bitmap[x, 0] == bitmap[x, 1], "\(mode) alpha \(alpha) pixel \(x)") }
        }
    }
}
