import CoreGraphics
import Foundation
import Testing

/// Numbers that are not numbers, or are far too large, given to every
/// setter and initializer: each draws something bounded or nothing, and
/// nothing traps.
@Suite struct CGHostileValueTests {
    static let bad: [CGFloat] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0, -1]

    @Test func contextsTakeHostileValues() throws {
        let c = try #require(bitmapContext(16, 16))
        for v in Self.bad {
            c.saveGState()
            c.setLineWidth(v)
            c.setMiterLimit(v)
            c.setAlpha(v)
            c.setLineDash(phase: v, lengths: [v, 1])
            c.setShadow(offset: CGSize(width: v, height: v), blur: v)
            c.setFlatness(v)
            c.setFillColor(red: v, green: v, blue: v, alpha: v)
            c.setStrokeColor(gray: v, alpha: 1)
            c.translateBy(x: v, y: v)
            c.scaleBy(x: v, y: v)
            c.rotate(by: v)
            c.move(to: CGPoint(x: v, y: v))
            c.addLine(to: CGPoint(x: 1, y: v))
            c.addArc(center: CGPoint(x: 8, y: 8), radius: v, startAngle: 0, endAngle: v, clockwise: false)
            c.addRect(CGRect(x: v, y: 0, width: v, height: v))
            c.addEllipse(in: CGRect(x: 0, y: 0, width: v, height: 4))
            c.drawPath(using: .fillStroke)
            c.fill(CGRect(x: v, y: v, width: v, height: v))
            c.clip(to: CGRect(x: 0, y: 0, width: v, height: v))
            c.addRect(CGRect(x: 0, y: 0, width: v, height: 4))
            c.clip()
            let g = try #require(CGGradient(colorsSpace: nil, colors: [CGColor(gray: v, alpha: v), .white], locations: [v, v]))
            c.drawLinearGradient(g, start: .zero, end: CGPoint(x: v, y: v), options: [])
            c.drawRadialGradient(g, startCenter: .zero, startRadius: v, endCenter: CGPoint(x: 8, y: 8), endRadius: v, options: [])
            c.restoreGState()
        }
        #expect(c.ctm.isIdentity)
    }

    @Test func pathsTransformsAndImagesTakeHostileValues() throws {
        for v in Self.bad {
            let p = CGMutablePath()
            p.addRoundedRect(in: CGRect(x: 0, y: 0, width: v, height: 10), cornerWidth: v, cornerHeight: v)
            p.addArc(tangent1End: CGPoint(x: v, y: 0), tangent2End: CGPoint(x: 0, y: v), radius: v)
            p.addRelativeArc(center: .zero, radius: v, startAngle: v, delta: v)
            _ = p.contains(CGPoint(x: v, y: 1))
            _ = p.boundingBox
            _ = CGAffineTransform(rotationAngle: v).inverted()
            _ = CGRect(x: v, y: v, width: v, height: v).applying(CGAffineTransform(scaleX: v, y: v))
        }
        let source = try #require(bitmapContext(4, 4))
        let image = try #require(source.makeImage())
        for v in Self.bad {
            // Cropping to a rectangle with no pixels in it gives nil, not a trap.
            let crop = image.cropping(to: CGRect(x: v, y: v, width: v, height: v))
            #expect(crop == nil || (crop!.width <= 4 && crop!.height <= 4))
            source.draw(image, in: CGRect(x: v, y: 0, width: v, height: v))
        }
        #expect(image.cropping(to: .null) == nil && image.cropping(to: .infinite)?.width == 4)
    }
}
