import Foundation
import Testing

@testable import StrataGraphics

private func image(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> Pixel) -> Image {
    var bytes: [UInt8] = []
    for y in 0..<h {
        for x in 0..<w {
            let p = pixel(x, y)
            bytes += [p.r, p.g, p.b, p.a]
        }
    }
    return try! Image(width: w, height: h, premultipliedPixels: bytes)
}

private let black = Pixel(r: 0, g: 0, b: 0, a: 255)
private let white = Pixel(r: 255, g: 255, b: 255, a: 255)

@Suite struct ImageDrawingTests {
    private let quad = image(2, 2) { x, y in
        [
            Pixel(r: 255, g: 0, b: 0, a: 255), Pixel(r: 0, g: 255, b: 0, a: 255),
            Pixel(r: 0, g: 0, b: 255, a: 255), Pixel(r: 128, g: 128, b: 128, a: 128),
        ][y * 2 + x]
    }

    @Test func multiplyingByAColour() {
        let m = quad.multiplied(by: Color(red: 1, green: 0.5, blue: 0, alpha: 0.5))
        // Straight colour times the components, alpha times alpha, premultiplied.
        #expect(m[0, 0] == Pixel(r: 128, g: 0, b: 0, a: 128))
        #expect(m[1, 0] == Pixel(r: 0, g: 64, b: 0, a: 128))
        #expect(m[1, 1] == Pixel(r: 64, g: 32, b: 0, a: 64))
        #expect(quad.multiplied(by: .white) == quad)
        #expect(quad.multiplied(by: Color(red: .nan, green: 2, blue: -1, alpha: 1))[1, 0] == Pixel(r: 0, g: 255, b: 0, a: 255))
    }

    @Test func nearestSamplingScalesPixelsIntoBlocks() {
        let canvas = makeCanvas(8, 8)
        canvas.interpolationQuality = .none
        canvas.draw(quad, in: Rect(x: 0, y: 0, width: 8, height: 8))
        for y in 0..<8 {
            for x in 0..<8 {
                #expect(canvas.bitmap[x, y] == quad[x / 4, y / 4], "(\(x), \(y))")
            }
        }
    }

    @Test func oneToOneDrawingCopiesExactly() {
        let picture = image(5, 3) { x, y in Pixel(r: UInt8(x * 50), g: UInt8(y * 100), b: 7, a: 255) }
        for quality in [InterpolationQuality.none, .default, .high] {
            let canvas = makeCanvas(9, 9)
            canvas.interpolationQuality = quality
            canvas.draw(picture, in: Rect(x: 2, y: 3, width: 5, height: 3))
            for y in 0..<3 {
                for x in 0..<5 {
                    #expect(canvas.bitmap[x + 2, y + 3] == picture[x, y], "\(quality) (\(x), \(y))")
                }
            }
            #expect(canvas.bitmap[1, 3].a == 0 && canvas.bitmap[7, 3].a == 0)
        }
    }

    @Test func bilinearSamplingInterpolates() {
        let ramp = image(2, 1) { x, _ in x == 0 ? black : white }
        let canvas = makeCanvas(8, 1)
        canvas.draw(ramp, in: Rect(x: 0, y: 0, width: 8, height: 1))
        // Pixel centres at 0.5 … 7.5 sample the image at u = 0.0625 … 0.9375:
        // edges clamp to the end colours, the middle ramps.
        let values = (0..<8).map { Int(canvas.bitmap[$0, 0].r) }
        #expect(values[0] == 0 && values[1] == 0 && values[6] == 255 && values[7] == 255)
        #expect(abs(values[3] - 96) <= 1 && abs(values[4] - 159) <= 1)
        #expect(values == values.sorted())
    }

    @Test func drawingFollowsTheTransform() {
        // A quarter turn about the canvas centre.
        let canvas = makeCanvas(8, 8)
        canvas.interpolationQuality = .none
        canvas.translateBy(x: 8, y: 0)
        canvas.rotate(by: .pi / 2)
        canvas.draw(quad, in: Rect(x: 0, y: 0, width: 8, height: 8))
        // User (x, y) lands on device (8 − y, x): the image's top-left (red) is now top-right.
        #expect(canvas.bitmap[6, 1] == quad[0, 0])
        #expect(canvas.bitmap[1, 1] == quad[0, 1])
        #expect(canvas.bitmap[6, 6] == quad[1, 0])
    }

    @Test func minificationDoesNotAlias() {
        // One-pixel checks, shrunk 16 times: an even grey with mipmaps, not a
        // moiré of pure black and white.
        let checks = image(256, 256) { x, y in (x + y) % 2 == 0 ? black : white }
        let smooth = makeCanvas(16, 16)
        smooth.draw(checks, in: Rect(x: 0, y: 0, width: 16, height: 16))
        for y in 0..<16 {
            for x in 0..<16 { #expect(abs(Int(smooth.bitmap[x, y].r) - 128) <= 2, "(\(x), \(y)): \(smooth.bitmap[x, y])") }
        }
        let sharp = makeCanvas(16, 16)
        sharp.interpolationQuality = .none
        sharp.draw(checks, in: Rect(x: 0, y: 0, width: 16, height: 16))
        #expect(sharp.bitmap[3, 5].r == 0 || sharp.bitmap[3, 5].r == 255)
        #expect(checks.halved().halved()[3, 3] == Pixel(r: 128, g: 128, b: 128, a: 255))
    }

    @Test func patternsTile() {
        let canvas = makeCanvas(6, 6)
        canvas.interpolationQuality = .none
        canvas.fill(Rect(x: 0, y: 0, width: 6, height: 6), with: .pattern(quad))
        for y in 0..<6 {
            for x in 0..<6 { #expect(canvas.bitmap[x, y] == quad[x % 2, y % 2]) }
        }
        // Scaled by 3 and moved by one pixel.
        let scaled = makeCanvas(6, 6)
        scaled.interpolationQuality = .none
        scaled.fill(
            Rect(x: 0, y: 0, width: 6, height: 6),
            with: .pattern(quad, transform: Transform(scaleX: 3, y: 3).concatenating(Transform(translationX: 1, y: 0))))
        #expect(scaled.bitmap[0, 0] == quad[1, 0] && scaled.bitmap[1, 0] == quad[0, 0] && scaled.bitmap[4, 0] == quad[1, 0])
    }

    @Test func alphaAndDegenerateDraws() {
        let canvas = makeCanvas(4, 4)
        canvas.alpha = 0.5
        canvas.draw(image(1, 1) { _, _ in white }, in: Rect(x: 0, y: 0, width: 4, height: 4))
        #expect(canvas.bitmap[2, 2] == Pixel(r: 128, g: 128, b: 128, a: 128))
        let untouched = makeCanvas(4, 4)
        let empty = try! Image(width: 0, height: 0, premultipliedPixels: [])
        untouched.draw(empty, in: Rect(x: 0, y: 0, width: 4, height: 4))
        untouched.draw(quad, in: Rect(x: .nan, y: 0, width: 4, height: 4))
        untouched.draw(quad, in: Rect(x: 0, y: 0, width: 0, height: 4))
        untouched.scaleBy(x: 0, y: 1)
        untouched.draw(quad, in: Rect(x: 0, y: 0, width: 4, height: 4))
        untouched.fill(Rect(x: 0, y: 0, width: 4, height: 4), with: .pattern(quad))
        #expect(coveredArea(untouched.bitmap) == 0)
    }
}
