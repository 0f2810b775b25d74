import CoreGraphics
import Foundation
import QuartzCore
import StrataGraphics
import StrataLayers
import Testing

@testable import QuartzCore

/// glibc's size of the heap block at `p` (declared here: the Glibc module
/// leaves malloc.h out).
@_silgen_name("malloc_usable_size")
func mallocUsableSize(_ p: UnsafeMutableRawPointer) -> Int

/// Renders `layer` as the only layer of a headless host `w` × `h` pixels
/// on white, and returns the frame.
@MainActor
func render(_ layer: CALayer, _ w: Int = 40, _ h: Int = 40) throws -> Image {
    let host = try LayerHost(width: w, height: h, backgroundColor: .white)
    host.rootLayer.addSublayer(layer.strata)
    host.renderFrame()
    return host.makeImage()
}

/// A layer that fills the top quarter of its bounds red in `draw(in:)`.
final class TopBandLayer: CALayer {
    var draws = 0
    override func draw(in ctx: CGContext) {
        draws += 1
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width, height: bounds.height / 4))
    }
}

/// Records what a layer asks of its delegate.
@MainActor
final class Recorder: CALayerDelegate {
    var laidOut = 0
    var drawn = 0
    func layoutSublayers(of layer: CALayer) { laidOut += 1 }
    func draw(_ layer: CALayer, in ctx: CGContext) {
        drawn += 1
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(layer.bounds)
    }
}

let redPixel = Pixel(r: 255, g: 0, b: 0, a: 255)
let whitePixel = Pixel(r: 255, g: 255, b: 255, a: 255)

@MainActor
@Suite struct CALayerTests {
    @Test func theTreeIsOwnedByItsLayersAndMirrorsStratas() {
        let root = CALayer(), a = CALayer(), b = CALayer(), c = CALayer()
        #expect(root.sublayers == nil && a.superlayer == nil)
        root.addSublayer(a)
        root.addSublayer(c)
        root.insertSublayer(b, below: c)
        #expect(root.sublayers?.map { ObjectIdentifier($0) } == [a, b, c].map { ObjectIdentifier($0) })
        #expect(root.strata.sublayers.map { ObjectIdentifier($0) } == [a, b, c].map { ObjectIdentifier($0.strata) })
        #expect(b.superlayer === root)
        // Joining another parent leaves the first.
        a.addSublayer(b)
        #expect(root.sublayers?.count == 2 && b.superlayer === a && b.strata.superlayer === a.strata)
        root.replaceSublayer(c, with: b)
        #expect(root.sublayers?.last === b && c.superlayer == nil && a.sublayers == nil)
        root.insertSublayer(c, at: 99)
        #expect(root.sublayers?.last === c)
        c.removeFromSuperlayer()
        c.removeFromSuperlayer()
        #expect(root.sublayers?.count == 2)
        root.sublayers = nil
        #expect(a.superlayer == nil && root.strata.sublayers.isEmpty)
        // A layer added and dropped by the caller lives on in the tree, as itself.
        root.addSublayer(TopBandLayer())
        #expect(root.sublayers?.first is TopBandLayer)
    }

    @Test func geometryIsCoreAnimations() {
        let layer = CALayer()
        #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5) && layer.opacity == 1 && layer.shadowOffset == CGSize(width: 0, height: -3))
        #expect(layer.shadowRadius == 3 && layer.shadowOpacity == 0 && layer.borderColor == CGColor(gray: 0, alpha: 1))
        layer.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(layer.bounds == CGRect(x: 0, y: 0, width: 100, height: 50) && layer.position == CGPoint(x: 60, y: 45))
        layer.anchorPoint = .zero
        #expect(layer.frame.origin == CGPoint(x: 60, y: 45))
        layer.setAffineTransform(CGAffineTransform(scaleX: 2, y: 2))
        #expect(layer.affineTransform() == CGAffineTransform(scaleX: 2, y: 2) && layer.frame.width == 200)
        #expect(CATransform3DIsAffine(layer.transform) && CATransform3DGetAffineTransform(layer.transform).a == 2)
        let child = CALayer()
        child.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        layer.addSublayer(child)
        #expect(child.convert(CGPoint(x: 1, y: 1), to: layer) == CGPoint(x: 6, y: 6))
        #expect(layer.hitTest(CGPoint(x: 60 + 2 * 7, y: 45 + 2 * 7)) === child)
        #expect(layer.hitTest(CGPoint(x: -100, y: 0)) == nil)
    }

    @Test func backgroundsAndBordersRender() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let image = try render(layer)
        #expect(image[15, 15] == redPixel && image[5, 5] == whitePixel)
        #expect(layer.backgroundColor == CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        layer.isHidden = true
        #expect(try render(layer)[15, 15] == whitePixel)
    }

    @Test func coloursComeBackEqualInTheirOwnSpace() throws {
        let layer = CALayer()
        // Core Animation's defaults: no background, black border and shadow (grey).
        #expect(layer.backgroundColor == nil)
        #expect(layer.borderColor == CGColor(gray: 0, alpha: 1) && layer.borderColor?.numberOfComponents == 2)
        #expect(layer.shadowColor == CGColor(gray: 0, alpha: 1))
        // Device RGB and grey colours are kept as Strata colours and made
        // again, equal, with their components and space.
        layer.backgroundColor = CGColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.5)
        #expect(layer.backgroundColor == CGColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.5))
        #expect(layer.backgroundColor?.components == [0.25, 0.5, 0.75, 0.5])
        layer.borderColor = CGColor(gray: 0.5, alpha: 0.25)
        #expect(layer.borderColor?.components == [0.5, 0.25] && layer.borderColor?.colorSpace?.model == .monochrome)
        #expect(layer.extras == nil)
        // Any other colour is kept as the object set.
        let p3 = try #require(CGColorSpace(name: CGColorSpace.displayP3))
        let components: [CGFloat] = [1, 0, 0, 1]
        let red = try #require(components.withUnsafeBufferPointer { CGColor(colorSpace: p3, components: $0.baseAddress!) })
        layer.shadowColor = red
        #expect(layer.shadowColor === red && layer.extras != nil)
        layer.shadowColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        #expect(layer.shadowColor == CGColor(red: 0, green: 1, blue: 0, alpha: 1) && layer.extras?.colors[2] == nil)
        // Nil stays nil, and clears what was drawn.
        layer.borderColor = nil
        layer.backgroundColor = nil
        #expect(layer.borderColor == nil && layer.backgroundColor == nil && layer.strata.backgroundColor == nil)
        #expect(layer.strata.borderColor == .clear)
    }

    @Test func aPresentedColourBetweenGreyAndRedIsRGB() throws {
        let clock = ManualClock()
        let host = try LayerHost(width: 20, height: 20, clock: clock, backgroundColor: .white)
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.backgroundColor = CGColor(gray: 0.5, alpha: 1)
        host.rootLayer.addSublayer(layer.strata)
        host.renderFrame()
        let fade = CABasicAnimation(keyPath: "backgroundColor")
        fade.fromValue = CGColor(gray: 0, alpha: 1)
        fade.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        fade.duration = 1
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        fade.beginTime = clock.now
        layer.add(fade, forKey: "fade")
        host.advance(by: 0.5)
        let shown = try #require(layer.presentation()?.backgroundColor?.components)
        #expect(shown.count == 4 && abs(shown[0] - 0.5) < 0.02 && shown[1] == 0 && shown[2] == 0)
        #expect(layer.backgroundColor == CGColor(gray: 0.5, alpha: 1))
        // A kept colour comes back as the model's object when nothing animates it.
        let p3 = try #require(CGColorSpace(name: CGColorSpace.displayP3))
        let kept = try #require([CGFloat(0.2), 0.4, 0.6, 1].withUnsafeBufferPointer { CGColor(colorSpace: p3, components: $0.baseAddress!) })
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.borderColor = kept
        layer.borderWidth = 1
        CATransaction.commit()
        host.advance(by: 0.1)
        #expect(layer.presentation()?.borderColor === kept)
    }

    @Test func aPlainLayerKeepsNothingBesideItsStrataLayer() {
        let root = CALayer(), leaf = CALayer()
        leaf.frame = CGRect(x: 1, y: 2, width: 3, height: 4)
        leaf.opacity = 0.5
        leaf.delegate = nil
        leaf.actions = nil
        leaf.mask = nil
        leaf.shadowPath = nil
        leaf.sublayers = nil
        #expect(leaf.extras == nil)
        root.addSublayer(leaf)
        // The tree is the Strata tree: a layer with sublayers keeps no list
        // of its own.
        #expect(leaf.extras == nil && root.extras == nil && leaf.superlayer === root && root.sublayers?.first === leaf)
        // A CALayer is its Strata layer, and adds at most two words to it.
        #expect(leaf.strata === leaf)
        let plain = Layer()
        let extra = mallocUsableSize(Unmanaged.passUnretained(leaf).toOpaque()) - mallocUsableSize(Unmanaged.passUnretained(plain).toOpaque())
        #expect(extra <= 16)
        // The superlayer is read from the Strata tree, and is nil once the
        // parent is gone.
        var parent: CALayer? = CALayer()
        let child = CALayer()
        parent?.addSublayer(child)
        #expect(child.superlayer === parent)
        parent = nil
        #expect(child.superlayer == nil && child.strata.superlayer == nil)
        // A mask and a shadow path are kept, and let go.
        let mask = CALayer()
        leaf.mask = mask
        leaf.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 3, height: 4), transform: nil)
        #expect(leaf.mask === mask && leaf.strata.mask === mask.strata && leaf.shadowPath?.boundingBox.width == 3)
        leaf.mask = nil
        leaf.shadowPath = nil
        #expect(leaf.mask == nil && leaf.strata.mask == nil && leaf.shadowPath == nil && leaf.strata.shadowPath == nil)
    }

    @Test func drawInCGContextDrawsYDownInTheLayersSpace() throws {
        let layer = TopBandLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        layer.setNeedsDisplay()
        let image = try render(layer)
        #expect(layer.draws == 1)
        // The top quarter (y down), not the bottom.
        #expect(image[20, 5] == redPixel && image[20, 35] == whitePixel)
        // The delegate draws when the layer does not override draw(in:).
        let plain = CALayer()
        let recorder = Recorder()
        plain.delegate = recorder
        plain.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        plain.setNeedsDisplay()
        plain.setNeedsLayout()
        let drawn = try render(plain)
        #expect(recorder.drawn == 1 && recorder.laidOut == 1)
        #expect(drawn[5, 5] == Pixel(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func shapeLayersFillAndStrokeTheirPath() throws {
        let shape = CAShapeLayer()
        #expect(shape.fillColor == CGColor(gray: 0, alpha: 1) && shape.strokeColor == nil && shape.lineWidth == 1)
        shape.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let path = CGMutablePath()
        path.addRect(CGRect(x: 5, y: 5, width: 10, height: 10))
        shape.path = path
        shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        shape.strokeColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        shape.lineWidth = 4
        shape.lineDashPattern = [2, 2]
        shape.lineCap = .round
        shape.lineJoin = .bevel
        shape.fillRule = .evenOdd
        #expect(shape.lineDashPattern == [2, 2] && shape.lineCap == .round && shape.lineJoin == .bevel && shape.fillRule == .evenOdd)
        #expect(shape.path === path)
        let image = try render(shape)
        #expect(image[10, 10] == redPixel && image[30, 30] == whitePixel)
        #expect(image[10, 5].b > 200)  // on the stroke
        shape.path = nil
        #expect(try render(shape)[10, 10] == whitePixel)
    }

    @Test func transactionsSetHowChangesAnimate() {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationDuration(0.5)
        #expect(CATransaction.disableActions() && CATransaction.animationDuration() == 0.5)
        CATransaction.commit()
    }

    @Test func transformsComposeAsCoreAnimationsDo() {
        let t = CATransform3DMakeTranslation(1, 2, 3)
        let s = CATransform3DMakeScale(2, 3, 4)
        // Scale then translate: a point (1, 1, 1) goes to (2 + 1, 3 + 2, 4 + 3).
        let both = CATransform3DConcat(s, t)
        #expect(both.m11 == 2 && both.m22 == 3 && both.m33 == 4 && both.m41 == 1 && both.m42 == 2 && both.m43 == 3)
        #expect(CATransform3DScale(t, 2, 3, 4) == both)
        #expect(CATransform3DIsIdentity(CATransform3DConcat(both, CATransform3DInvert(both))))
        let singular = CATransform3DMakeScale(0, 1, 1)
        #expect(CATransform3DInvert(singular) == singular)
        let affine = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(CATransform3DGetAffineTransform(CATransform3DMakeAffineTransform(affine)) == affine)
        let turn = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        #expect(Swift.abs(turn.m12 - 1) < 1e-12 && Swift.abs(turn.m21 + 1) < 1e-12)
        #expect(
            !CATransform3DIsAffine(
                CATransform3D(
                    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: -0.002, m41: 0, m42: 0, m43: 0,
                    m44: 1)))
    }
}
