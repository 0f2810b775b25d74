import CoreGraphics
import Foundation
import QuartzCore
import StrataGraphics
import StrataLayers
import Testing

@testable import QuartzCore

@MainActor
@Suite struct CAEmitterAndScrollTests {
    @Test func anEmitterMakesParticlesOverTime() throws {
        let dot = try #require(bitmapImage(4, 4, gray: 0))
        let cell = CAEmitterCell()
        cell.birthRate = 200
        cell.lifetime = 5
        cell.velocity = 20
        cell.emissionRange = .pi * 2
        cell.contents = dot
        cell.color = CGColor(gray: 0, alpha: 1)
        let emitter = CAEmitterLayer()
        emitter.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        emitter.emitterPosition = CGPoint(x: 20, y: 20)
        emitter.emitterShape = .point
        emitter.renderMode = .oldestFirst
        emitter.seed = 7
        emitter.emitterCells = [cell]
        #expect(emitter.emitterShape == .point && emitter.renderMode == .oldestFirst && emitter.seed == 7)
        #expect(emitter.emitterCells?.first === cell)
        let host = try LayerHost(width: 40, height: 40, backgroundColor: .white)
        host.rootLayer.addSublayer(emitter.strata)
        host.renderFrame()
        host.advance(by: 0.5)
        let image = host.makeImage()
        var dark = 0
        for y in 0..<40 { for x in 0..<40 where image[x, y].r < 128 { dark += 1 } }
        #expect(dark > 10)
    }

    @Test func aScrollLayerMovesItsSublayers() throws {
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        let content = CALayer()
        content.frame = CGRect(x: 0, y: 0, width: 20, height: 60)
        content.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let marker = CALayer()
        marker.frame = CGRect(x: 0, y: 40, width: 20, height: 5)
        marker.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        content.addSublayer(marker)
        scroller.addSublayer(content)
        scroller.scrollMode = .vertically
        #expect(scroller.scrollMode == .vertically)
        scroller.scroll(to: CGPoint(x: 0, y: 38))
        #expect(scroller.bounds.origin == CGPoint(x: 0, y: 38))
        let image = try render(scroller, 20, 20)
        #expect(image[10, 3] == Pixel(r: 0, g: 0, b: 255, a: 255) && image[10, 10] == redPixel)
    }

    /// A scroll layer keeps its own mode: points and rectangles that are not
    /// finite, and the null rectangle, are ignored, huge ones held to Strata's coordinate limit, `.none` does
    /// not move, and a mode it does not know scrolls both ways. A sublayer
    /// finds it as its enclosing scroll layer.
    @Test func aScrollLayerTakesHostileValues() {
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        scroller.scroll(to: CGPoint(x: 5, y: 6))
        for bad in [CGFloat.nan, .infinity, -.infinity] {
            scroller.scroll(to: CGPoint(x: bad, y: bad))
            scroller.scroll(to: CGRect(x: bad, y: 0, width: 1, height: 1))
        }
        scroller.scroll(to: CGRect.null)
        #expect(scroller.bounds.origin == CGPoint(x: 5, y: 6))
        scroller.scroll(to: CGPoint(x: 1e30, y: -1e30))
        #expect(scroller.bounds.origin == CGPoint(x: LayerLimits.coordinate, y: -LayerLimits.coordinate))
        scroller.scrollMode = .none
        scroller.scroll(to: CGPoint(x: 1, y: 1))
        #expect(scroller.bounds.origin == CGPoint(x: LayerLimits.coordinate, y: -LayerLimits.coordinate))
        scroller.scrollMode = CAScrollLayerScrollMode(rawValue: "diagonally")
        scroller.scroll(to: CGPoint.zero)
        #expect(scroller.bounds.origin == .zero)
        let inner = CALayer()
        inner.frame = CGRect(x: 0, y: 100, width: 10, height: 10)
        scroller.addSublayer(inner)
        (inner as Layer).scrollRectToVisible(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 0, y: 90))
    }

    /// A layer made from a coder that is not a copy's has the default values.
    @Test func aLayerFromAnyCoderHasTheDefaults() throws {
        let layer = try #require(CALayer(coder: NSCoder()))
        #expect(layer.bounds == .zero && layer.opacity == 1 && layer.shadowOffset == CGSize(width: 0, height: -3))
        #expect(LayerCopyCoder.model(of: NSCoder()) == nil)
    }
}

/// An opaque grey square image from a bitmap context.
func bitmapImage(_ w: Int, _ h: Int, gray: CGFloat) -> CGImage? {
    guard
        let c = CGContext(
            data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
    else { return nil }
    c.setFillColor(gray: gray, alpha: 1)
    c.fill(CGRect(x: 0, y: 0, width: w, height: h))
    return c.makeImage()
}
