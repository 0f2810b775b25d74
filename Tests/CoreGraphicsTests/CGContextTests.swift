import CoreGraphics
import Foundation
import StrataGraphics
import Testing

/// A context of `w` × `h` pixels with Strata's own layout.
func bitmapContext(_ w: Int, _ h: Int, data: UnsafeMutableRawPointer? = nil) -> CGContext? {
    CGContext(
        data: data, width: w, height: h, bitsPerComponent: 8, bytesPerRow: w * 4, space: CGColorSpaceCreateDeviceRGB(),
        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
}

/// The pixel at column `x`, row `y` (row 0 at the top of the bitmap), as R, G, B, A.
func pixel(_ c: CGContext, _ x: Int, _ y: Int) -> [UInt8] {
    let p = c.data!.assumingMemoryBound(to: UInt8.self) + y * c.bytesPerRow + x * 4
    return [p[0], p[1], p[2], p[3]]
}

let red: [UInt8] = [255, 0, 0, 255]
let clear: [UInt8] = [0, 0, 0, 0]

@Suite struct CGContextTests {
    @Test func userSpaceStartsAtTheBottomLeftWithYUp() throws {
        let c = try #require(bitmapContext(10, 10))
        #expect(c.ctm.isIdentity && c.width == 10 && c.height == 10 && c.bytesPerRow == 40)
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.fill(CGRect(x: 0, y: 0, width: 10, height: 2))
        // y from 0 to 2 is the bitmap's last two rows.
        #expect(pixel(c, 5, 9) == red && pixel(c, 5, 8) == red && pixel(c, 5, 7) == clear && pixel(c, 5, 0) == clear)
        // UIKit's flip puts y = 0 at the top.
        c.clear(CGRect(x: 0, y: 0, width: 10, height: 10))
        c.translateBy(x: 0, y: 10)
        c.scaleBy(x: 1, y: -1)
        #expect(c.ctm == CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 10))
        c.fill(CGRect(x: 0, y: 0, width: 10, height: 2))
        #expect(pixel(c, 5, 0) == red && pixel(c, 5, 1) == red && pixel(c, 5, 2) == clear)
    }

    @Test func drawsWhatTheCanvasDrawsFlipped() throws {
        let c = try #require(bitmapContext(64, 48))
        c.setStrokeColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)
        c.setLineWidth(3)
        c.setLineCap(.round)
        c.setLineJoin(.bevel)
        c.setLineDash(phase: 1, lengths: [6, 3])
        c.move(to: CGPoint(x: 4, y: 4))
        c.addCurve(to: CGPoint(x: 60, y: 40), control1: CGPoint(x: 10, y: 50), control2: CGPoint(x: 40, y: -10))
        c.addLine(to: CGPoint(x: 30, y: 44))
        c.strokePath()
        c.setFillColor(CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.5))
        c.fillEllipse(in: CGRect(x: 20, y: 10, width: 24, height: 16))

        let canvas = try Canvas(width: 64, height: 48)
        canvas.concatenate(Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 48))
        canvas.strokeColor = Color(red: 0.1, green: 0.4, blue: 0.9)
        canvas.lineWidth = 3
        canvas.lineCap = .round
        canvas.lineJoin = .bevel
        canvas.setLineDash(phase: 1, lengths: [6, 3])
        var p = Path()
        p.move(to: Point(x: 4, y: 4))
        p.addCurve(to: Point(x: 60, y: 40), control1: Point(x: 10, y: 50), control2: Point(x: 40, y: -10))
        p.addLine(to: Point(x: 30, y: 44))
        canvas.stroke(p)
        canvas.fillColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.5)
        canvas.fillEllipse(in: Rect(x: 20, y: 10, width: 24, height: 16))
        let native = canvas.makeImage().pixels
        let drawn = Array(UnsafeBufferPointer(start: c.data!.assumingMemoryBound(to: UInt8.self), count: 64 * 48 * 4))
        #expect(drawn == native)
        #expect(drawn.contains { $0 != 0 })
    }

    @Test func aPathKeepsTheSpaceItWasBuiltInAndStrokesInTheCurrentOne() throws {
        let c = try #require(bitmapContext(20, 10))
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.addRect(CGRect(x: 0, y: 0, width: 2, height: 10))
        // Moving the transform afterwards does not move the path (Core Graphics).
        c.translateBy(x: 10, y: 0)
        #expect(c.boundingBoxOfPath == CGRect(x: -10, y: 0, width: 2, height: 10))
        c.fillPath()
        #expect(pixel(c, 1, 5) == red && pixel(c, 11, 5) == clear)
        #expect(c.isPathEmpty)
        // A line's width follows the transform current when it is stroked.
        let s = try #require(bitmapContext(20, 20))
        s.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
        s.move(to: CGPoint(x: 0, y: 10))
        s.addLine(to: CGPoint(x: 20, y: 10))
        s.scaleBy(x: 1, y: 4)
        s.setLineWidth(1)
        s.strokePath()
        // One unit scaled by four: rows 8 to 11 (y 8 to 12 up from the bottom).
        #expect(pixel(s, 10, 8) == red && pixel(s, 10, 11) == red && pixel(s, 10, 6) == clear && pixel(s, 10, 13) == clear)
    }

    @Test func stateIsSavedAndRestored() throws {
        let c = try #require(bitmapContext(4, 4))
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.saveGState()
        c.translateBy(x: 1, y: 2)
        c.setFillColor(gray: 0, alpha: 1)
        c.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        c.restoreGState()
        c.restoreGState()  // nothing saved: nothing happens
        #expect(c.ctm.isIdentity)
        c.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(pixel(c, 0, 0) == red && pixel(c, 3, 3) == red)
        #expect(c.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 4, height: 4))
    }

    @Test func itDrawsIntoTheCallersMemory() throws {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 8 * 4 * 4, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 7, count: 8 * 4 * 4)
        do {
            let c = try #require(bitmapContext(8, 4, data: memory))
            #expect(c.data == memory)
            c.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            c.fill(CGRect(x: 0, y: 0, width: 8, height: 1))
        }
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        // The bottom row is blue; the rest kept what was there (nothing cleared).
        #expect(Array(UnsafeBufferPointer(start: bytes + 3 * 32, count: 4)) == [0, 0, 255, 255])
        #expect(Array(UnsafeBufferPointer(start: bytes, count: 4)) == [7, 7, 7, 7])
    }

    @Test func layoutsStrataCannotDrawAreRefused() {
        let rgb = CGColorSpaceCreateDeviceRGB()
        let last = CGImageAlphaInfo.premultipliedLast.rawValue
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 32, space: rgb, bitmapInfo: last) == nil)
        #expect(
            CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 4, space: CGColorSpaceCreateDeviceGray(), bitmapInfo: 0)
                == nil)
        #expect(
            CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 16, space: rgb, bitmapInfo: CGImageAlphaInfo.none.rawValue)
                == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 8, space: rgb, bitmapInfo: last) == nil)
        #expect(CGContext(data: nil, width: -1, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: last) == nil)
        #expect(CGContext(data: nil, width: 1 << 20, height: 1 << 20, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: last) == nil)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        // Given memory must be packed premultiplied RGBA.
        #expect(CGContext(data: memory, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 16, space: rgb, bitmapInfo: last) == nil)
        let bgra = CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue
        #expect(CGContext(data: memory, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 8, space: rgb, bitmapInfo: bgra) == nil)
        // Without memory, the context owns RGBA pixels whatever the alpha's place.
        #expect(CGContext(data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 8, space: rgb, bitmapInfo: bgra) != nil)
    }

    @Test func imagesDrawRightWayUpInAYUpSpace() throws {
        let source = try #require(bitmapContext(2, 2))
        source.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        source.fill(CGRect(x: 0, y: 1, width: 2, height: 1))  // the top row
        let image = try #require(source.makeImage())
        #expect(image.width == 2 && image.height == 2 && image.bitsPerPixel == 32)
        let c = try #require(bitmapContext(4, 4))
        c.interpolationQuality = .none
        c.draw(image, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(pixel(c, 1, 0) == red && pixel(c, 1, 1) == red && pixel(c, 1, 3) == clear)
        #expect(image.cropping(to: CGRect(x: 0, y: 0, width: 2, height: 1))?.height == 1)
        #expect(image.cropping(to: CGRect(x: 5, y: 5, width: 2, height: 1)) == nil)
    }

    @Test func shadowsGoUpForPositiveHeights() throws {
        let c = try #require(bitmapContext(20, 20))
        c.setShadow(offset: CGSize(width: 0, height: 5), blur: 0, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.fill(CGRect(x: 5, y: 5, width: 10, height: 4))  // rows 11 to 14 from the top
        #expect(pixel(c, 10, 12) == red)
        #expect(pixel(c, 10, 8) == [0, 0, 255, 255] && pixel(c, 10, 16) == clear)
    }

    @Test func gradientsAndBlendModesDraw() throws {
        let c = try #require(bitmapContext(10, 1))
        let g = try #require(
            CGGradient(
                colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)],
                locations: [0, 1]))
        c.drawLinearGradient(g, start: CGPoint(x: 0, y: 0), end: CGPoint(x: 10, y: 0), options: [])
        #expect(pixel(c, 0, 0)[0] > 200 && pixel(c, 9, 0)[2] > 200)
        c.setBlendMode(.clear)
        c.fill(CGRect(x: 0, y: 0, width: 5, height: 1))
        #expect(pixel(c, 2, 0) == clear && pixel(c, 8, 0)[3] == 255)
        #expect(CGGradient(colorsSpace: nil, colors: [], locations: nil) == nil)
    }
}

@Suite struct CGClipTests {
    /// A gradient drawn after clipping to a circle, the iOS way.
    func clippedGradient(options: CGGradientDrawingOptions, end: CGFloat) throws -> CGContext {
        let c = try #require(bitmapContext(40, 40))
        let g = try #require(
            CGGradient(
                colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)],
                locations: nil))
        c.saveGState()
        c.addEllipse(in: CGRect(x: 5, y: 5, width: 30, height: 30))
        c.clip()
        c.drawLinearGradient(g, start: CGPoint(x: 0, y: 0), end: CGPoint(x: 0, y: end), options: options)
        // The clip still holds for what is drawn next in the same state …
        c.setFillColor(gray: 0, alpha: 1)
        c.fill(CGRect(x: 0, y: 0, width: 40, height: 8))
        c.restoreGState()
        // … and is gone after the restore.
        c.fill(CGRect(x: 0, y: 38, width: 40, height: 2))
        return c
    }

    @Test func aClipThatShapesAGradientDrawsAsTheClipWould() throws {
        // Within the band (drawn as a fill of the path) and past it both ways
        // (drawn as a fill too) against a band the circle leaves (drawn with a
        // clip mask): the circle's pixels agree where all three draw.
        let within = try clippedGradient(options: [], end: 40)
        let extended = try clippedGradient(options: [.drawsBeforeStartLocation, .drawsAfterEndLocation], end: 40)
        #expect(
            Array(UnsafeBufferPointer(start: within.data!.assumingMemoryBound(to: UInt8.self), count: 6400))
                == Array(UnsafeBufferPointer(start: extended.data!.assumingMemoryBound(to: UInt8.self), count: 6400)))
        let masked = try clippedGradient(options: [], end: 20)
        // Inside the circle, low: the gradient where the band covers it.
        #expect(pixel(within, 20, 30)[0] > 150 && pixel(masked, 20, 28)[3] > 100)
        // Past the band's end the masked one draws nothing; the others do.
        #expect(pixel(masked, 20, 8) == clear && pixel(within, 20, 8)[3] > 0)
        // Outside the circle: nothing of the gradient, nor of the later fill.
        for c in [within, masked] {
            #expect(pixel(c, 1, 20) == clear && pixel(c, 1, 35) == clear)
            #expect(pixel(c, 20, 33) == [0, 0, 0, 255])  // the fill inside the circle, near its bottom
            #expect(pixel(c, 1, 38) == clear)  // the fill outside it
            #expect(pixel(c, 1, 0) == [0, 0, 0, 255])  // after the restore, unclipped
        }
    }

    @Test func aPendingClipKeepsTheSpaceItWasMadeIn() throws {
        let c = try #require(bitmapContext(20, 10))
        c.addRect(CGRect(x: 0, y: 0, width: 5, height: 10))
        c.clip()
        c.translateBy(x: 10, y: 0)
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.fill(CGRect(x: -10, y: 0, width: 20, height: 10))
        #expect(pixel(c, 2, 5) == red && pixel(c, 7, 5) == clear)
        #expect(c.boundingBoxOfClipPath == CGRect(x: -10, y: 0, width: 5, height: 10))
    }
}

@Suite struct CGGeometryTests {
    @Test func transformsComposeAsCoreGraphicsDoes() {
        let t = CGAffineTransform(a: 2, b: 3, c: 5, d: 7, tx: 11, ty: 13)
        let u = CGAffineTransform(a: 17, b: 19, c: 23, d: 29, tx: 31, ty: 37)
        // (x, y) · t then · u, every term.
        let p = CGPoint(x: 1, y: 2)
        let viaBoth = p.applying(t).applying(u)
        #expect(p.applying(t) == CGPoint(x: 2 + 10 + 11, y: 3 + 14 + 13))
        #expect(p.applying(t.concatenating(u)) == viaBoth)
        #expect(t.inverted().concatenating(t).a.isApproximately(1) && t.concatenating(t.inverted()).ty.isApproximately(0))
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 1, ty: 1)
        #expect(singular.inverted() == singular)
        #expect(
            CGAffineTransform(translationX: 3, y: 4).scaledBy(x: 2, y: 2).translatedBy(x: 1, y: 0)
                == CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 4))
        let quarter = CGAffineTransform(rotationAngle: .pi / 2)
        let turned = CGPoint(x: 1, y: 0).applying(quarter)
        #expect(turned.x.isApproximately(0) && turned.y.isApproximately(1))
        #expect(CGRect(x: 0, y: 0, width: 2, height: 1).applying(quarter).width.isApproximately(1))
        #expect(CGRect.null.applying(t).isNull)
        #expect(CGSize(width: 1, height: 1).applying(t) == CGSize(width: 7, height: 10))
    }

    @Test func pathsAreReferencesAndKnowTheirInside() throws {
        let p = CGMutablePath()
        #expect(p.isEmpty && p.boundingBox.isNull)
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: 10, y: 0))
        p.addLine(to: CGPoint(x: 10, y: 10))
        p.closeSubpath()
        let frozen = try #require(p.copy())
        p.addRect(CGRect(x: 20, y: 20, width: 5, height: 5))
        #expect(frozen.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(p.boundingBox == CGRect(x: 0, y: 0, width: 25, height: 25))
        #expect(p.contains(CGPoint(x: 8, y: 2)) && !p.contains(CGPoint(x: 2, y: 8)) && p.contains(CGPoint(x: 22, y: 22)))
        #expect(!p.contains(CGPoint(x: CGFloat.nan, y: 1)))
        // Two squares, one in the other: inside under non-zero, a hole under even-odd.
        let rings = CGMutablePath()
        rings.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        rings.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))
        #expect(rings.contains(CGPoint(x: 5, y: 5), using: .winding) && !rings.contains(CGPoint(x: 5, y: 5), using: .evenOdd))
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        #expect(circle.contains(CGPoint(x: 5, y: 9.8)) && !circle.contains(CGPoint(x: 0.5, y: 0.5)))
        // An arc continues the subpath from the current point.
        let arc = CGMutablePath()
        arc.move(to: CGPoint(x: 0, y: 0))
        arc.addArc(center: CGPoint(x: 10, y: 0), radius: 5, startAngle: 0, endAngle: .pi, clockwise: false)
        #expect(arc.currentPoint.x.isApproximately(5) && arc.boundingBox.maxX.isApproximately(15))
        #expect(arc.mutableCopy() == arc)
    }

    @Test func colorsHoldTheirComponents() {
        let c = CGColor(red: 2, green: CGFloat.nan, blue: 0.5, alpha: -1)
        #expect(c.components == [1, 0, 0.5, 0] && c.numberOfComponents == 4 && c.alpha == 0)
        #expect(c.copy(alpha: 0.5)?.alpha == 0.5 && c.copy(alpha: 0.5)?.components?.first == 1)
        #expect(CGColor(gray: 0.5, alpha: 1).colorSpace?.model == .monochrome && CGColor.white.components == [1, 1])
        #expect(CGColorSpace(name: CGColorSpace.sRGB)?.numberOfComponents == 3 && CGColorSpace(name: "nope") == nil)
        // Infinities and huge values held to 0…1; grey and RGB of the same
        // look are different colours, as in Core Graphics.
        let far = CGColor(red: .infinity, green: -.infinity, blue: 1e30, alpha: -1e30)
        #expect(far.components == [1, 0, 1, 0] && far.alpha == 0)
        #expect(CGColor(gray: 0.5, alpha: 1) == CGColor(gray: 0.5, alpha: 1))
        #expect(CGColor(gray: 0.5, alpha: 1) != CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
        #expect(CGColor(gray: 0.5, alpha: 1).numberOfComponents == 2)
        var rgb: [CGFloat] = [0.2, 0.4, 0.6, 0.8]
        let made = CGColor(colorSpace: CGColorSpaceCreateDeviceRGB(), components: &rgb)
        #expect(made?.components == rgb && made == CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8))
    }
}

extension CGFloat {
    func isApproximately(_ v: CGFloat) -> Bool { Swift.abs(self - v) < 1e-9 }
}

@Suite struct CGPathElementTests {
    @Test func elementsComeInOrderWithTheirPoints() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 2))
        p.addLine(to: CGPoint(x: 3, y: 4))
        p.addQuadCurve(to: CGPoint(x: 7, y: 8), control: CGPoint(x: 5, y: 6))
        p.addCurve(to: CGPoint(x: 13, y: 14), control1: CGPoint(x: 9, y: 10), control2: CGPoint(x: 11, y: 12))
        p.closeSubpath()
        var seen: [(CGPathElementType, [CGPoint])] = []
        p.applyWithBlock { element in
            let e = element.pointee
            let n = [CGPathElementType.moveToPoint: 1, .addLineToPoint: 1, .addQuadCurveToPoint: 2, .addCurveToPoint: 3][e.type] ?? 0
            seen.append((e.type, (0..<n).map { e.points[$0] }))
        }
        #expect(seen.map(\.0) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(seen.flatMap(\.1).map(\.x) == [1, 3, 5, 7, 9, 11, 13])
        // The C form, counting through its info pointer.
        var count = 0
        withUnsafeMutablePointer(to: &count) { counter in
            p.apply(info: UnsafeMutableRawPointer(counter)) { info, _ in info!.assumingMemoryBound(to: Int.self).pointee += 1 }
        }
        #expect(count == 5)
        CGMutablePath().applyWithBlock { _ in Issue.record("an empty path has no elements") }
        #expect(CGPoint(x: 1, y: 2).equalTo(CGPoint(x: 1, y: 2)) && !CGSize(width: 1, height: 1).equalTo(.zero))
        #expect(CGRect(x: 0, y: 0, width: 1, height: 1).equalTo(CGRect(x: 0, y: 0, width: 1, height: 1)))
    }
}
