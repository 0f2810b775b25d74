import CoreGraphics
import Foundation
import QuartzCore
import StrataGraphics
import StrataLayers
import Testing

@testable import QuartzCore

@MainActor
@Suite struct CASpecialLayerTests {
    @Test func gradientLayersRunBetweenTheirPoints() throws {
        let g = CAGradientLayer()
        g.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1), "not a colour"]
        g.startPoint = CGPoint(x: 0, y: 0.5)
        g.endPoint = CGPoint(x: 1, y: 0.5)
        g.locations = [0, 1]
        #expect(g.colors?.count == 3 && g.locations == [0, 1] && g.type == .axial)
        let image = try render(g, 40, 10)
        #expect(image[1, 5].r > 200 && image[1, 5].b < 50 && image[38, 5].b > 200 && image[38, 5].r < 50)
        g.type = .radial
        #expect(g.type == .radial)
    }

    @Test func textLayersDrawTheirStringWithCoreAnimationsDefaults() throws {
        let t = CATextLayer()
        #expect(t.fontSize == 36 && t.foregroundColor == CGColor(gray: 1, alpha: 1) && !t.isWrapped)
        t.frame = CGRect(x: 0, y: 0, width: 120, height: 40)
        t.string = "Hello"
        t.fontSize = 24
        t.foregroundColor = CGColor(gray: 0, alpha: 1)
        t.alignmentMode = .center
        t.truncationMode = .end
        #expect(t.alignmentMode == .center && t.truncationMode == .end && t.string as? String == "Hello")
        let image = try render(t, 120, 40)
        var dark = 0
        for y in 0..<40 { for x in 0..<120 where image[x, y].r < 100 { dark += 1 } }
        #expect(dark > 50)
        t.string = NSAttributedString(string: "")
        #expect(try render(t, 120, 40)[60, 20] == whitePixel)
    }

    @Test func replicatorsDrawTheirSublayersAgainAndAgain() throws {
        let r = CAReplicatorLayer()
        r.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
        let dot = CALayer()
        dot.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
        dot.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        r.addSublayer(dot)
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeTranslation(10, 0, 0)
        let image = try render(r, 40, 10)
        #expect(image[2, 2] == redPixel && image[12, 2] == redPixel && image[22, 2] == redPixel && image[32, 2] == whitePixel)
        #expect(r.instanceCount == 3 && r.instanceColor == CGColor(gray: 1, alpha: 1))
    }

    /// Each special layer is its Strata layer, made of the kind that draws
    /// it, with Core Animation's defaults where they differ from Strata's
    /// (reading a kind's values from a layer not made of that kind stops).
    @Test func specialLayersAreStratasKinds() {
        let shape: any ShapeLayerProperties = CAShapeLayer()
        #expect(shape.fillColor == .black && shape.strokeColor == nil && shape.lineWidth == 1)
        let text: any TextLayerProperties = CATextLayer()
        #expect(text.fontSize == 36 && text.foregroundColor == .white)
        let gradient: any GradientLayerProperties = CAGradientLayer()
        #expect(gradient.colors.isEmpty && gradient.type == .axial)
        let replicator: any ReplicatorLayerProperties = CAReplicatorLayer()
        #expect(replicator.instanceCount == 1)
        let emitter: any EmitterLayerProperties = CAEmitterLayer()
        #expect(emitter.emitterCells.isEmpty && emitter.birthRate == 1)
        let tiled: any TiledLayerProperties = CATiledLayer()
        #expect(tiled.fadeDuration == 0.25 && tiled.tileSize == Size(width: 256, height: 256))
        // A plain layer is none of them.
        #expect(!(CALayer() is any ShapeLayerProperties))
    }

    /// A transform layer keeps its sublayers' depth: turned half round
    /// about y, the sublayer that was in front is behind. A plain layer
    /// flattens them, ordered by `zPosition` in its own plane.
    @Test func transformLayersKeepTheirSublayersDepth() throws {
        func front(_ container: CALayer) throws -> Pixel {
            container.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            for (z, color) in [(10.0, CGColor(red: 1, green: 0, blue: 0, alpha: 1)), (-10.0, CGColor(red: 0, green: 0, blue: 1, alpha: 1))] {
                let face = CALayer()
                face.frame = container.bounds
                face.zPosition = z
                face.backgroundColor = color
                container.addSublayer(face)
            }
            container.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
            return try render(container, 20, 20)[10, 10]
        }
        #expect(try front(CATransformLayer()) == Pixel(r: 0, g: 0, b: 255, a: 255))
        #expect(try front(CALayer()) == redPixel)
    }
}
