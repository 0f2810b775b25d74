import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

@MainActor
private func frame(_ size: Int = 100, _ build: (Layer) -> Void) -> Bitmap { render(size, build).1 }

/// A layer that draws its `color` over its whole bounds, counting its draws.
private final class Painted: Layer {
    var color = Color(red: 1, green: 0, blue: 0)
    var draws = 0
    var clips: [Rect] = []

    override func draw(in canvas: Canvas) {
        draws += 1
        clips.append(canvas.clipBoundingBox)
        canvas.fillColor = color
        canvas.fill(bounds)
    }
}

@MainActor
private final class Helper: LayerDelegate {
    var layouts = 0
    var draws = 0
    func draw(_ layer: Layer, in canvas: Canvas) {
        draws += 1
        canvas.fillColor = Color(red: 0, green: 0, blue: 1)
        canvas.fill(Rect(x: 0, y: 0, width: 10, height: 10))
    }
    func layoutSublayers(of layer: Layer) {
        layouts += 1
        for (i, sub) in layer.sublayers.enumerated() {
            sub.frame = Rect(x: Double(i) * layer.bounds.width / 2, y: 0, width: layer.bounds.width / 2, height: layer.bounds.height)
        }
    }
}

/// One image check per layer property not covered elsewhere.
@Suite @MainActor struct PropertyImageTests {
    @Test func anchorPositionAndTransformPlaceTheLayer() {
        func bar(_ angle: Double) -> Bitmap {
            frame { root in
                let l = layer(Rect(x: 0, y: 0, width: 60, height: 20), .red)
                l.position = Point(x: 50, y: 50)
                l.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
                root.addSublayer(l)
            }
        }
        let flat = bar(0), turned = bar(.pi / 2)
        #expect(near(flat[25, 50], red, 2) && flat[50, 25] == white)
        #expect(near(turned[50, 25], red, 2) && turned[25, 50] == white)
        // The anchor point is what `position` places: the top left here.
        let corner = frame { root in
            let l = layer(Rect(x: 0, y: 0, width: 40, height: 20), .red)
            l.anchorPoint = .zero
            l.position = Point(x: 10, y: 10)
            root.addSublayer(l)
        }
        #expect(near(corner[11, 11], red, 2) && near(corner[49, 29], red, 2))
        #expect(corner[9, 11] == white && corner[51, 11] == white && corner[11, 31] == white)
    }

    @Test func zPositionDrawsInFront() {
        let b = frame { root in
            let back = layer(Rect(x: 10, y: 10, width: 50, height: 50), .red)
            back.zPosition = 1  // added first, but in front
            root.addSublayer(back)
            root.addSublayer(layer(Rect(x: 40, y: 40, width: 50, height: 50), .blue))
        }
        #expect(near(b[50, 50], red, 2) && near(b[80, 80], blue, 2))
    }

    @Test func sublayerTransformAppliesAboutTheAnchor() {
        func scene(_ scale: Double) -> Bitmap {
            frame { root in
                let parent = layer(Rect(x: 0, y: 0, width: 100, height: 100), nil)
                parent.sublayerTransform = Transform3D(scaleX: scale, y: scale)
                parent.addSublayer(layer(Rect(x: 40, y: 40, width: 20, height: 20), .blue))
                root.addSublayer(parent)
            }
        }
        let plain = scene(1), doubled = scene(2)
        #expect(plain[32, 32] == white && near(plain[45, 45], blue, 2))
        // (40, 40) goes to 50 + 2·(40 − 50) = 30.
        #expect(near(doubled[32, 32], blue, 2) && near(doubled[68, 68], blue, 2) && doubled[28, 28] == white)
    }

    @Test func hiddenLayersAndTheirSublayersAreNotDrawn() {
        let b = frame { root in
            let parent = layer(Rect(x: 0, y: 0, width: 50, height: 50), .red)
            parent.addSublayer(layer(Rect(x: 10, y: 10, width: 10, height: 10), .blue))
            parent.isHidden = true
            root.addSublayer(parent)
            root.addSublayer(layer(Rect(x: 60, y: 60, width: 10, height: 10), .blue))
        }
        #expect(b[5, 5] == white && b[15, 15] == white && near(b[65, 65], blue, 2))
    }

    @Test func maskedCornersRoundOnlyTheChosenCorners() {
        let b = frame { root in
            let l = layer(Rect(x: 10, y: 10, width: 80, height: 80), .red)
            l.cornerRadius = 30
            l.maskedCorners = [.minXMinY, .maxXMaxY]
            root.addSublayer(l)
        }
        #expect(b[12, 12] == white && b[87, 87] == white)
        #expect(near(b[87, 12], red, 2) && near(b[12, 87], red, 2) && near(b[50, 50], red, 2))
    }

    @Test func shadowColourOpacityAndOffset() {
        func scene(_ opacity: Double) -> Bitmap {
            frame { root in
                let l = layer(Rect(x: 10, y: 20, width: 30, height: 30), .blue)
                l.shadowColor = Color(red: 1, green: 0, blue: 0)
                l.shadowOpacity = opacity
                l.shadowOffset = Size(width: 40, height: 0)
                l.shadowRadius = 0
                root.addSublayer(l)
            }
        }
        let full = scene(1), half = scene(0.5)
        #expect(near(full[65, 35], red, 2) && full[65, 10] == white && near(full[25, 35], blue, 2))
        #expect(near(half[65, 35], Pixel(r: 255, g: 127, b: 127, a: 255), 2))
    }

    @Test func contentsAreDrawnOncePerRequest() {
        let host = try! LayerHost(width: 40, height: 40, backgroundColor: .white)
        let l = Painted()
        l.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        host.rootLayer.addSublayer(l)
        l.setNeedsDisplay()
        l.setNeedsDisplay()
        #expect(l.needsDisplay)
        for _ in 0..<3 { host.advance() }
        #expect(l.draws == 1 && !l.needsDisplay)
        #expect(near(Bitmap(image: host.makeImage())[10, 10], red, 2))
        l.color = Color(red: 0, green: 0, blue: 1)
        l.setNeedsDisplay()
        host.advance()
        #expect(l.draws == 2 && near(Bitmap(image: host.makeImage())[10, 10], blue, 2))
    }

    @Test func partialRedisplayKeepsTheRest() {
        let host = try! LayerHost(width: 40, height: 40, backgroundColor: .white)
        let l = Painted()
        l.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        l.contentsScale = 2
        host.rootLayer.addSublayer(l)
        l.setNeedsDisplay()
        host.renderFrame()
        l.color = Color(red: 0, green: 0, blue: 1)
        l.setNeedsDisplay(in: Rect(x: 0, y: 0, width: 5, height: 20))
        l.setNeedsDisplay(in: Rect(x: 2, y: 0, width: 7.6, height: 20))  // unions to x 0 … 9.6
        host.renderFrame()
        #expect(l.draws == 2)
        // Snapped out to whole backing pixels (half points at scale 2).
        #expect(l.clips.last == Rect(x: 0, y: 0, width: 10, height: 20))
        let b = Bitmap(image: host.makeImage())
        #expect(near(b[3, 10], blue, 2) && near(b[9, 10], blue, 2) && near(b[15, 10], red, 2))
        // A whole request after a partial one redraws everything.
        l.color = Color(red: 0, green: 1, blue: 0)
        l.setNeedsDisplay(in: Rect(x: 0, y: 0, width: 2, height: 2))
        l.setNeedsDisplay()
        host.renderFrame()
        #expect(l.clips.last == Rect(x: 0, y: 0, width: 20, height: 20))
        // Empty and non-finite requests ask for nothing.
        l.setNeedsDisplay(in: .zero)
        l.setNeedsDisplay(in: Rect(x: .nan, y: 0, width: 1, height: 1))
        #expect(!l.needsDisplay)
    }

    @Test func delegateDrawsAndLaysOut() {
        let host = try! LayerHost(width: 40, height: 40, backgroundColor: .white)
        let helper = Helper()
        let l = Layer()
        l.delegate = helper
        l.frame = Rect(x: 0, y: 0, width: 40, height: 20)
        let a = layer(.zero, .red), b = layer(.zero, .blue)
        l.addSublayer(a)
        l.addSublayer(b)
        host.rootLayer.addSublayer(l)
        l.setNeedsDisplay()
        host.renderFrame()
        #expect(helper.layouts == 1 && helper.draws == 1)
        #expect(a.frame == Rect(x: 0, y: 0, width: 20, height: 20) && b.frame == Rect(x: 20, y: 0, width: 20, height: 20))
        // A new size lays out again, once.
        l.bounds.size.width = 30
        l.layoutIfNeeded()
        host.renderFrame()
        #expect(helper.layouts == 2 && b.frame.minX == 15)
    }
}

@Suite @MainActor struct GroupShadowDamageTests {
    /// A host with a layer that casts its shadow (offset, no blur) from one
    /// blue sublayer.
    private func scene(width: Int, offset: Size, sublayer: Rect) -> (LayerHost, Layer, Layer) {
        let host = try! LayerHost(width: width, height: 120, backgroundColor: .white)
        let card = layer(Rect(x: 0, y: 0, width: 60, height: 60), nil)
        card.shadowOpacity = 1
        card.shadowRadius = 0
        card.shadowOffset = offset
        let dot = layer(sublayer, Color(red: 0, green: 0, blue: 1))
        card.addSublayer(dot)
        host.rootLayer.addSublayer(card)
        host.renderFrame()
        return (host, card, dot)
    }

    private func change(_ body: () -> Void) {
        Transaction.perform {
            Transaction.disableActions = true
            body()
        }
    }

    /// When a sublayer moves, the shadow moves with it, and the redrawn frame
    /// equals a full drawing.
    @Test func groupShadowFollowsAChangedSublayer() {
        let (host, _, dot) = scene(width: 120, offset: Size(width: 50, height: 50), sublayer: Rect(x: 5, y: 5, width: 10, height: 10))
        #expect(Bitmap(image: host.makeImage())[60, 60].r < 60)  // the dot's shadow
        change { dot.position = Point(x: 40, y: 40) }
        host.renderFrame()
        #expect(matchesAFullRedraw(host))
        let b = Bitmap(image: host.makeImage())
        #expect(b[60, 60] == white && b[90, 90].r < 60)
    }

    /// A shadow cast far from the layer, by a sublayer outside its bounds,
    /// is drawn, follows the sublayer, and moves whole with the offset.
    @Test func farGroupShadowsFollowTheirSublayers() {
        let (host, card, dot) = scene(width: 500, offset: Size(width: 300, height: 0), sublayer: Rect(x: 150, y: 0, width: 40, height: 40))
        #expect(Bitmap(image: host.makeImage())[470, 20].r < 60)
        change { dot.position = Point(x: 170, y: 70) }
        host.renderFrame()
        #expect(matchesAFullRedraw(host))
        let b = Bitmap(image: host.makeImage())
        #expect(b[470, 70].r < 60 && b[470, 20].r == 255)
        change { card.shadowOffset = Size(width: 250, height: 0) }
        host.renderFrame()
        #expect(matchesAFullRedraw(host))
    }
}

@Suite @MainActor struct BehindTheEyeTests {
    @MainActor
    private func scene(_ transform: Transform3D) -> Bitmap {
        frame(200) { root in
            let l = layer(Rect(x: 50, y: 50, width: 100, height: 100), .red)
            l.transform = transform
            root.addSublayer(l)
        }
    }

    private func perspective(_ t: Transform3D) -> Transform3D {
        var p = Transform3D.identity
        p.m34 = -1.0 / 40
        return t.concatenating(p)
    }

    /// Turned so far that its left edge passes behind the eye: the part in
    /// front still shows, reaching off the left of the frame.
    @Test func thePartInFrontOfTheEyeIsDrawn() {
        let b = scene(perspective(Transform3D(rotationAngle: 1.1, x: 0, y: 1, z: 0)))
        #expect(near(b[60, 100], red, 2) && near(b[2, 100], red, 2) && near(b[2, 2], red, 2))
        #expect(b[180, 100] == white && b[150, 2] == white)
    }

    @Test func aLayerWhollyBehindTheEyeDrawsNothing() {
        let b = scene(perspective(Transform3D(translationX: 0, y: 0, z: 100)))
        var drawn = 0
        for y in 0..<200 { for x in 0..<200 where b[x, y] != white { drawn += 1 } }
        #expect(drawn == 0)
    }

    @Test func polygonClippingKeepsTheSideAsked() {
        let square = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        let left = Compositor.clip(square, keeping: { 4 - $0.x })
        #expect(Set(left.map { "\($0.x),\($0.y)" }) == ["0.0,0.0", "4.0,0.0", "4.0,10.0", "0.0,10.0"])
        #expect(Compositor.clip(square, keeping: { $0.x - 20 }).isEmpty)
        #expect(Compositor.clip(square, keeping: { $0.x + 1 }).count == 4)
    }
}

@Suite @MainActor struct ReplicatorImageTests {
    /// Instance colours multiply the copies' images too, not only their colours.
    @Test func instanceColoursTintImages() throws {
        let whiteImage = try Image(width: 4, height: 4, premultipliedPixels: [UInt8](repeating: 255, count: 64))
        let b = frame(120) { root in
            let r = ReplicatorLayer()
            r.frame = Rect(x: 0, y: 0, width: 120, height: 40)
            r.instanceCount = 2
            r.instanceTransform = Transform3D(translationX: 60, y: 0)
            r.instanceColor = Color(red: 0, green: 0, blue: 1)
            r.instanceGreenOffset = 1
            let pic = Layer()
            pic.frame = Rect(x: 0, y: 0, width: 40, height: 40)
            pic.contents = whiteImage
            r.addSublayer(pic)
            root.addSublayer(r)
        }
        #expect(near(b[20, 20], blue, 2))
        #expect(near(b[80, 20], Pixel(r: 0, g: 255, b: 255, a: 255), 2))
    }
}
