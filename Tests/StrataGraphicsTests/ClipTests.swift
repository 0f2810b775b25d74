import Foundation
import Testing

@testable import StrataGraphics

@Suite struct ClipTests {
    private func filled(_ setUp: (Canvas) -> Void) -> Bitmap {
        let canvas = makeCanvas(40, 40)
        setUp(canvas)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        return canvas.bitmap
    }

    @Test func clipToACircle() {
        let b = filled { $0.clip(to: Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20))) }
        #expect(b[20, 20].a == 255 && b[5, 5].a == 0 && b[28, 20].a == 255 && b[31, 20].a == 0)
        #expect(abs(coveredArea(b) - 100 * Double.pi) < 0.5)
        // The edge is anti-aliased: some pixels partly covered.
        #expect((0..<40).contains { x in (1..<255).contains(b[x, 13].a) })
    }

    @Test func fillRulesApplyToClips() {
        var rings = Path(ellipseIn: Rect(x: 5, y: 5, width: 30, height: 30))
        rings.addEllipse(in: Rect(x: 15, y: 15, width: 10, height: 10))
        let winding = filled { $0.clip(to: rings, rule: .winding) }
        let evenOdd = filled { $0.clip(to: rings, rule: .evenOdd) }
        #expect(winding[20, 20].a == 255 && evenOdd[20, 20].a == 0 && evenOdd[10, 20].a == 255)
    }

    @Test func clipsIntersect() {
        let b = filled {
            $0.clip(to: Path(ellipseIn: Rect(x: 0, y: 10, width: 24, height: 20)))
            $0.clip(to: Path(ellipseIn: Rect(x: 16, y: 10, width: 24, height: 20)))
        }
        // Only the lens where both overlap.
        #expect(b[20, 20].a == 255 && b[8, 20].a == 0 && b[32, 20].a == 0)
        let c = filled {
            $0.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 40)))
            $0.clip(to: Rect(x: 0, y: 0, width: 20, height: 40))  // whole pixels: the fast path
        }
        #expect(c[10, 20].a == 255 && c[30, 20].a == 0 && c[1, 1].a == 0)
        #expect(abs(coveredArea(c) - 200 * Double.pi) < 0.5)
    }

    @Test func saveAndRestoreBringBackTheOldClip() {
        let canvas = makeCanvas(40, 40)
        canvas.saveGState()
        canvas.clip(to: Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20)))
        #expect(canvas.clipCoverage(x: 5, y: 5) == 0 && canvas.clipCoverage(x: 20, y: 20) == 255)
        canvas.restoreGState()
        #expect(canvas.clipCoverage(x: 5, y: 5) == 255)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        #expect(coveredArea(canvas.bitmap) == 1600)
    }

    @Test func rotatedRectangleClipsExactly() {
        let canvas = makeCanvas(40, 40)
        canvas.translateBy(x: 20, y: 20)
        canvas.rotate(by: .pi / 4)
        canvas.clip(to: Rect(x: -10, y: -10, width: 20, height: 20))
        canvas.concatenate(canvas.transform.inverted()!)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        #expect(abs(coveredArea(canvas.bitmap) - 400) < 0.5)  // a diamond of area 400
        #expect(canvas.bitmap[20, 20].a == 255 && canvas.bitmap[6, 6].a == 0 && canvas.bitmap[32, 20].a == 255)
    }

    @Test func everyKindOfDrawingIsClipped() {
        let circle = Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20))
        let draws: [(Canvas) -> Void] = [
            { $0.fill(Path(rect: $0.bounds)) },
            { $0.fillEllipse(in: Rect(x: -20, y: -20, width: 80, height: 80)) },
            {
                $0.fill(
                    Rect(x: 0, y: 0, width: 40, height: 40),
                    with: .linearGradient(Gradient(colors: [.white, .white]), start: .zero, end: Point(x: 40, y: 0)))
            },
            {
                $0.drawLinearGradient(
                    Gradient(colors: [.white, .white]), start: .zero, end: Point(x: 40, y: 0),
                    options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
            },
            { c in
                c.strokeColor = .white
                c.lineWidth = 40
                var p = Path()
                p.move(to: Point(x: 0, y: 20)); p.addLine(to: Point(x: 40, y: 20))
                c.stroke(p)
            },
        ]
        for (i, draw) in draws.enumerated() {
            let canvas = makeCanvas(40, 40)
            canvas.clip(to: circle)
            canvas.fillColor = .white
            draw(canvas)
            #expect(abs(coveredArea(canvas.bitmap) - 100 * Double.pi) < 0.5, "drawing \(i): \(coveredArea(canvas.bitmap))")
            #expect(canvas.bitmap[2, 2].a == 0, "drawing \(i)")
        }
    }

    @Test func emptyAndBadClipPathsClipEverything() {
        for path in [Path(), Path(rect: Rect(x: 0, y: .nan, width: 5, height: 5)), Path(rect: Rect(x: 100, y: 100, width: 5, height: 5))] {
            let b = filled { $0.clip(to: path) }
            #expect(coveredArea(b) == 0)
        }
    }
}

/// `clip(to:mask:)`: an image as the clip.
@Suite struct ImageMaskClipTests {
    func image(_ w: Int, _ h: Int, _ pixels: [Pixel]) -> Image {
        try! Image(width: w, height: h, premultipliedPixels: pixels.flatMap { [$0.r, $0.g, $0.b, $0.a] })
    }

    func filled(_ size: (Int, Int), _ setUp: (Canvas) -> Void) -> Bitmap {
        let canvas = makeCanvas(size.0, size.1)
        setUp(canvas)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        return canvas.bitmap
    }

    @Test func anImageWithAlphaClipsByItsAlpha() {
        // Premultiplied red at four alphas: the colour does not matter, the alpha does.
        let mask = image(4, 1, [0, 85, 170, 255].map { Pixel(r: UInt8($0), g: 0, b: 0, a: UInt8($0)) })
        let b = filled((6, 3)) { $0.clip(to: Rect(x: 1, y: 1, width: 4, height: 1), mask: mask) }
        #expect((0..<6).map { b[$0, 1].a } == [0, 0, 85, 170, 255, 0])
        #expect(b[2, 0].a == 0 && b[2, 2].a == 0)  // outside the rectangle
    }

    @Test func anOpaqueImageClipsByItsLuminance() {
        let greys: [UInt8] = [0, 64, 128, 255]
        let mask = image(4, 1, greys.map { Pixel(r: $0, g: $0, b: $0, a: 255) })
        let b = filled((4, 1)) { $0.clip(to: Rect(x: 0, y: 0, width: 4, height: 1), mask: mask) }
        #expect((0..<4).map { b[$0, 0].a } == greys)
        // Colours weigh as Rec. 709 luminance: green counts most.
        let rgb = image(3, 1, [Pixel(r: 255, g: 0, b: 0, a: 255), Pixel(r: 0, g: 255, b: 0, a: 255), Pixel(r: 0, g: 0, b: 255, a: 255)])
        let c = filled((3, 1)) { $0.clip(to: Rect(x: 0, y: 0, width: 3, height: 1), mask: rgb) }
        #expect([c[0, 0].a, c[1, 0].a, c[2, 0].a] == [54, 182, 18])
        // Either channel can be asked for.
        let d = filled((3, 1)) { $0.clip(to: Rect(x: 0, y: 0, width: 3, height: 1), mask: rgb, channel: .alpha) }
        #expect([d[0, 0].a, d[1, 0].a, d[2, 0].a] == [255, 255, 255])
    }

    @Test func aScaledMaskIsSampledLikeAnImage() {
        // Black to white over 8 pixels, bilinear: a ramp, clamped at the ends.
        let mask = image(2, 1, [Pixel(r: 0, g: 0, b: 0, a: 255), Pixel(r: 255, g: 255, b: 255, a: 255)])
        let b = filled((8, 1)) { $0.clip(to: Rect(x: 0, y: 0, width: 8, height: 1), mask: mask) }
        let values = (0..<8).map { Int(b[$0, 0].a) }
        #expect(values[0] == 0 && values[7] == 255 && values == values.sorted())
        #expect(abs(values[3] - 96) <= 1 && abs(values[4] - 159) <= 1)
        // Nearest: two blocks.
        let n = filled((8, 1)) {
            $0.interpolationQuality = .none
            $0.clip(to: Rect(x: 0, y: 0, width: 8, height: 1), mask: mask)
        }
        #expect((0..<8).map { n[$0, 0].a } == [0, 0, 0, 0, 255, 255, 255, 255])
    }

    @Test func masksIntersectWithTheClipAndAreRestored() {
        let half = image(1, 1, [Pixel(r: 128, g: 128, b: 128, a: 128)])
        let canvas = makeCanvas(8, 8)
        canvas.saveGState()
        canvas.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 8, height: 8)))
        canvas.clip(to: Rect(x: 0, y: 0, width: 8, height: 8), mask: half)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        #expect(canvas.bitmap[4, 4].a == 128 && canvas.bitmap[0, 0].a < 20)
        canvas.restoreGState()
        canvas.fill(Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(canvas.bitmap[0, 0].a == 255)
    }

    @Test func badMasksClipEverything() {
        let mask = image(1, 1, [Pixel(r: 255, g: 255, b: 255, a: 255)])
        let empty = try! Image(width: 0, height: 0, premultipliedPixels: [])
        for setUp in [
            { (c: Canvas) in c.clip(to: Rect(x: 0, y: 0, width: 4, height: 4), mask: empty) },
            { c in c.clip(to: Rect(x: .nan, y: 0, width: 4, height: 4), mask: mask) },
            { c in c.clip(to: Rect(x: 0, y: 0, width: .infinity, height: 4), mask: mask) },
            { c in c.clip(to: Rect(x: 0, y: 0, width: 0, height: 4), mask: mask) },
        ] {
            #expect(coveredArea(filled((4, 4), setUp)) == 0)
        }
        // Under a rotation: a rotated square of coverage.
        let canvas = makeCanvas(16, 16)
        canvas.translateBy(x: 8, y: 8)
        canvas.rotate(by: 0.5)
        canvas.clip(to: Rect(x: -4, y: -4, width: 8, height: 8), mask: mask)
        canvas.fillColor = .white
        canvas.fill(Rect(x: -20, y: -20, width: 40, height: 40))
        #expect(canvas.bitmap[8, 8].a == 255 && canvas.bitmap[0, 0].a == 0 && canvas.bitmap[8, 2].a == 0)
    }
}
