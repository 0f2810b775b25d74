import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

@Suite @MainActor struct CompositorTests {
    @Test func backgroundCornersAndBorderOverSublayers() {
        let (_, b) = render { root in
            let card = layer(Rect(x: 10, y: 10, width: 80, height: 80), .red)
            card.cornerRadius = 20
            card.borderWidth = 4
            card.borderColor = .blue
            // A sublayer covering the card: the border is still drawn over it.
            card.addSublayer(layer(Rect(x: 0, y: 0, width: 80, height: 80), .green))
            root.addSublayer(card)
        }
        #expect(near(b[50, 12], blue, 2))  // the border, over the green sublayer
        #expect(near(b[50, 50], Pixel(r: 0, g: 255, b: 0, a: 255), 2))
        // Without masksToBounds the square sublayer shows in the corner.
        #expect(near(b[12, 12], Pixel(r: 0, g: 255, b: 0, a: 255), 2))
    }

    @Test func masksToBoundsClipsToTheRoundedShape() {
        let (_, b) = render { root in
            let card = layer(Rect(x: 10, y: 10, width: 80, height: 80), .red)
            card.cornerRadius = 20
            card.masksToBounds = true
            card.addSublayer(layer(Rect(x: -10, y: -10, width: 100, height: 100), .blue))
            root.addSublayer(card)
        }
        #expect(b[12, 12] == white && b[5, 50] == white && b[95, 50] == white)
        #expect(near(b[50, 50], blue, 2) && near(b[12, 50], blue, 2))
    }

    @Test func groupOpacityAgainstOpacityOfEachSublayer() {
        func scene(_ group: Bool) -> Bitmap {
            render { root in
                let parent = layer(Rect(x: 0, y: 0, width: 100, height: 100), nil)
                parent.opacity = 0.5
                parent.allowsGroupOpacity = group
                parent.addSublayer(layer(Rect(x: 10, y: 10, width: 50, height: 50), .blue))
                parent.addSublayer(layer(Rect(x: 40, y: 40, width: 50, height: 50), .blue))
                root.addSublayer(parent)
            }.1
        }
        let g = scene(true), each = scene(false)
        // As a group, the overlap looks like the rest; layer by layer it is darker.
        #expect(near(g[50, 50], g[20, 20], 2) && near(g[20, 20], Pixel(r: 127, g: 127, b: 255, a: 255), 2))
        #expect(near(each[20, 20], Pixel(r: 127, g: 127, b: 255, a: 255), 2))
        #expect(near(each[50, 50], Pixel(r: 64, g: 64, b: 255, a: 255), 2))
    }

    @Test func maskLayersMaskByAlpha() {
        let (_, b) = render { root in
            let l = layer(Rect(x: 0, y: 0, width: 100, height: 100), .red)
            let m = ShapeLayer()
            m.frame = l.bounds
            m.path = Path(ellipseIn: Rect(x: 25, y: 25, width: 50, height: 50))
            m.fillColor = Color(white: 0, alpha: 1)
            l.mask = m
            root.addSublayer(l)
        }
        #expect(near(b[50, 50], red, 2) && b[10, 10] == white && b[90, 50] == white)
        // A rounded mask with a translucent fill lets half through.
        let (_, c) = render { root in
            let l = layer(Rect(x: 0, y: 0, width: 100, height: 100), .red)
            let m = layer(Rect(x: 0, y: 0, width: 100, height: 100), Color(white: 0, alpha: 0.5))
            m.cornerRadius = 30
            l.mask = m
            root.addSublayer(l)
        }
        #expect(near(c[50, 50], Pixel(r: 255, g: 127, b: 127, a: 255), 2) && c[1, 1] == white)
    }

    /// A gradient masked by a shape is drawn clipped to the shape, without
    /// offscreen groups; the picture is the group's (an empty sublayer
    /// forces the group path), within rounding, for rotated and translucent
    /// layers and an even-odd mask.
    @Test func aShapeMaskClipsLikeTheGroupItStandsFor() {
        func scene(group: Bool, rule: FillRule, opacity: Double, angle: Double) -> Bitmap {
            render { root in
                let g = GradientLayer()
                g.frame = Rect(x: 10, y: 12, width: 80, height: 70)
                g.colors = [Color(red: 1, green: 0.2, blue: 0.2, alpha: 0.9), Color(red: 0.1, green: 0.3, blue: 1, alpha: 0.2)]
                g.opacity = opacity
                g.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
                let m = ShapeLayer()
                m.frame = g.bounds
                var path = Path(ellipseIn: Rect(x: 5, y: 5, width: 60, height: 50))
                path.addPath(Path(rect: Rect(x: 20, y: 20, width: 50, height: 30)))
                m.path = path
                m.fillRule = rule
                m.fillColor = .black
                g.mask = m
                if group { g.addSublayer(Layer()) }
                root.addSublayer(g)
            }.1
        }
        for rule in [FillRule.winding, .evenOdd] {
            for (opacity, angle) in [(1.0, 0.0), (0.6, 0.3)] {
                let clip = scene(group: false, rule: rule, opacity: opacity, angle: angle)
                let group = scene(group: true, rule: rule, opacity: opacity, angle: angle)
                var worst = 0
                for y in 0..<100 {
                    for x in 0..<100 {
                        let a = clip[x, y], b = group[x, y]
                        worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                    }
                }
                #expect(worst <= 2, "rule \(rule), opacity \(opacity), angle \(angle): \(worst)")
            }
        }
        // A mask with a stroke, or a translucent fill, still masks as a group.
        let (_, c) = render { root in
            let l = layer(Rect(x: 0, y: 0, width: 100, height: 100), .red)
            let m = ShapeLayer()
            m.frame = l.bounds
            m.path = Path(rect: Rect(x: 20, y: 20, width: 60, height: 60))
            m.fillColor = Color(white: 0, alpha: 0.5)
            l.mask = m
            root.addSublayer(l)
        }
        #expect(near(c[50, 50], Pixel(r: 255, g: 127, b: 127, a: 255), 2) && c[10, 10] == white)
    }

    @Test func shadowsWithAndWithoutAPath() {
        func shadowed(_ path: Path?) -> Bitmap {
            render { root in
                let l = layer(Rect(x: 30, y: 20, width: 40, height: 40), .blue)
                l.shadowOpacity = 1
                l.shadowOffset = Size(width: 0, height: 20)
                l.shadowRadius = 2
                l.shadowPath = path
                if path == nil { l.addSublayer(layer(Rect(x: 10, y: 10, width: 20, height: 20), .red)) }
                root.addSublayer(l)
            }.1
        }
        let plain = shadowed(nil)
        #expect(plain[50, 70].r < 40)  // below the layer: the shadow
        #expect(plain[50, 10] == white)  // above: none
        let custom = shadowed(Path(rect: Rect(x: 0, y: 0, width: 10, height: 40)))
        #expect(custom[35, 70].r < 60 && custom[60, 70] == white)
    }

    @Test func shadowMasksOfRemovedLayersAreDropped() {
        let host = try! LayerHost(width: 100, height: 100)
        let l = layer(Rect(x: 20, y: 20, width: 40, height: 40), .blue)
        l.shadowOpacity = 1
        host.rootLayer.addSublayer(l)
        host.renderFrame()
        #expect(host.renderer.withCompositor { $0.shadowCache.count } == 1)
        l.removeFromSuperlayer()
        host.renderFrame()
        #expect(host.renderer.withCompositor { $0.shadowCache.isEmpty })
    }

    @Test func damageIsOnlyWhatChanged() {
        let host = try! LayerHost(width: 200, height: 200)
        var small: Layer!
        for i in 0..<20 {
            let l = layer(Rect(x: Double(i % 5) * 40, y: Double(i / 5) * 40, width: 30, height: 30), .red)
            if i == 7 { small = l }
            host.rootLayer.addSublayer(l)
        }
        #expect(host.renderFrame() == [Rect(x: 0, y: 0, width: 200, height: 200)])
        #expect(host.renderFrame().isEmpty)  // nothing changed
        Transaction.perform {
            Transaction.disableActions = true
            small.backgroundColor = .blue
        }
        let damage = host.renderFrame()
        #expect(damage.count == 1 && damage[0].width <= 40 && damage[0].height <= 40)
        #expect(damage[0].contains(Rect(x: 80, y: 40, width: 30, height: 30)))
        // The partly redrawn frame equals a full drawing of the same tree.
        #expect(matchesAFullRedraw(host))
        // Removing a layer damages where it was.
        small.removeFromSuperlayer()
        let gone = host.renderFrame()
        #expect(gone.count == 1 && gone[0].contains(Rect(x: 80, y: 40, width: 30, height: 30)))
    }

    @Test func everyContentsGravityPlacesTheImage() {
        var s = LayerState()
        s.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        s.contentsScale = 2
        let expected: [ContentsGravity: Rect] = [
            .resize: Rect(x: 0, y: 0, width: 100, height: 50),
            .resizeAspect: Rect(x: 25, y: 0, width: 50, height: 50),
            .resizeAspectFill: Rect(x: 0, y: -25, width: 100, height: 100),
            .center: Rect(x: 40, y: 15, width: 20, height: 20),
            .top: Rect(x: 40, y: 0, width: 20, height: 20),
            .bottom: Rect(x: 40, y: 30, width: 20, height: 20),
            .left: Rect(x: 0, y: 15, width: 20, height: 20),
            .right: Rect(x: 80, y: 15, width: 20, height: 20),
            .topLeft: Rect(x: 0, y: 0, width: 20, height: 20),
            .topRight: Rect(x: 80, y: 0, width: 20, height: 20),
            .bottomLeft: Rect(x: 0, y: 30, width: 20, height: 20),
            .bottomRight: Rect(x: 80, y: 30, width: 20, height: 20),
        ]
        #expect(expected.count == ContentsGravity.allCases.count)
        for g in ContentsGravity.allCases {
            s.contentsGravity = g
            #expect(Compositor.contentsPlacement(s, imageWidth: 40, imageHeight: 40)?.dest == expected[g], "\(g)")
        }
        // contentsRect picks part of the image; an empty one shows nothing.
        s.contentsRect = Rect(x: 0.5, y: 0, width: 0.5, height: 1)
        s.contentsGravity = .center
        let part = Compositor.contentsPlacement(s, imageWidth: 40, imageHeight: 40)!
        #expect(part.source == Rect(x: 20, y: 0, width: 20, height: 40) && part.dest.width == 10)
        s.contentsRect = Rect(x: 0, y: 0, width: 0, height: 1)
        #expect(Compositor.contentsPlacement(s, imageWidth: 40, imageHeight: 40) == nil)
    }

    @Test func contentsDrawnWithGravityAndNineSlice() throws {
        // A 30 × 30 image: a 10-pixel blue frame around a red middle.
        var px = [UInt8](repeating: 0, count: 30 * 30 * 4)
        for y in 0..<30 {
            for x in 0..<30 {
                let edge = x < 10 || x >= 20 || y < 10 || y >= 20
                let i = (y * 30 + x) * 4
                px[i] = edge ? 0 : 255; px[i + 2] = edge ? 255 : 0; px[i + 3] = 255
            }
        }
        let image = try Image(width: 30, height: 30, premultipliedPixels: px)
        let (_, centred) = render { root in
            let l = layer(Rect(x: 0, y: 0, width: 100, height: 100), nil)
            l.contents = image
            l.contentsGravity = .center
            root.addSublayer(l)
        }
        #expect(centred[10, 10] == white && near(centred[50, 50], red, 2) && near(centred[37, 50], blue, 2))
        let (_, sliced) = render { root in
            let l = layer(Rect(x: 0, y: 0, width: 100, height: 100), nil)
            l.contents = image
            l.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            root.addSublayer(l)
        }
        // The frame keeps its 10 pixels; the middle stretches.
        #expect(near(sliced[5, 50], blue, 2) && near(sliced[50, 5], blue, 2) && near(sliced[95, 95], blue, 2))
        #expect(near(sliced[12, 50], red, 2) && near(sliced[50, 88], red, 2))
    }

    @Test func perspectiveMapsTheLayerProjectively() {
        let (_, b) = render(200) { root in
            let l = layer(Rect(x: 50, y: 50, width: 100, height: 100), .blue)
            l.transform = Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0).concatenating(.perspective(distance: 300))
            root.addSublayer(l)
        }
        // Project the corners the way Core Animation does.
        let t = Transform3D(translationX: -50, y: -50).concatenating(Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0))
            .concatenating(.perspective(distance: 300)).concatenating(Transform3D(translationX: 100, y: 100))
        let tl = t.project(Point(x: 0, y: 0))!, tr = t.project(Point(x: 100, y: 0))!, br = t.project(Point(x: 100, y: 100))!
        // The far (right) edge is shorter than the near one.
        #expect(br.y - tr.y < 100 && tl.x > 50)
        #expect(near(b[Int(tl.x) + 4, 100], blue, 2))
        #expect(near(b[Int(tr.x) - 4, 100], blue, 2) && b[Int(tr.x) + 3, 100] == white)
        #expect(b[Int(tr.x) - 4, Int(tr.y) - 4] == white)  // above the far corner
        // Turned away and single-sided: culled.
        let (_, back) = render(200) { root in
            let l = layer(Rect(x: 50, y: 50, width: 100, height: 100), .blue)
            l.transform = Transform3D(rotationAngle: .pi * 0.9, x: 0, y: 1, z: 0).concatenating(.perspective(distance: 300))
            l.isDoubleSided = false
            root.addSublayer(l)
        }
        #expect(back[100, 100] == white)
    }

    @Test func replicatorCopiesWithTransformAndColourOffsets() {
        let (_, b) = render(200) { root in
            let r = ReplicatorLayer()
            r.frame = Rect(x: 0, y: 0, width: 200, height: 40)
            r.instanceCount = 4
            r.instanceTransform = Transform3D(translationX: 50, y: 0)
            r.instanceRedOffset = -0.25
            r.addSublayer(layer(Rect(x: 0, y: 0, width: 40, height: 40), .white))
            r.instanceColor = .red
            root.addSublayer(r)
        }
        // Copies at x = 0, 50, 100, 150, with red 1, 0.75, 0.5, 0.25.
        #expect(near(b[20, 20], red, 2))
        #expect(near(b[70, 20], Pixel(r: 191, g: 0, b: 0, a: 255), 2))
        #expect(near(b[170, 20], Pixel(r: 64, g: 0, b: 0, a: 255), 2))
        #expect(b[45, 20] == white)
    }

    @Test func shapeLayerStrokeEndsAndGradients() {
        let (_, b) = render { root in
            let s = ShapeLayer()
            s.frame = Rect(x: 0, y: 0, width: 100, height: 100)
            var p = Path()
            p.move(to: Point(x: 0, y: 50))
            p.addLine(to: Point(x: 100, y: 50))
            s.path = p
            s.fillColor = nil
            s.strokeColor = .blue
            s.lineWidth = 10
            s.strokeEnd = 0.5
            root.addSublayer(s)
            let g = GradientLayer()
            g.frame = Rect(x: 0, y: 0, width: 100, height: 20)
            g.colors = [.red, .blue]
            g.startPoint = Point(x: 0, y: 0.5)
            g.endPoint = Point(x: 1, y: 0.5)
            root.addSublayer(g)
        }
        #expect(near(b[25, 50], blue, 2) && b[75, 50] == white, "\(b[75, 50]) \(b[50, 50]) \(b[60, 50])")
        #expect(b[2, 10].r > 240 && b[97, 10].b > 240 && near(b[50, 10], Pixel(r: 128, g: 0, b: 127, a: 255), 4))
    }

    /// Contents and text that pass a layer's bounds, and a masked layer's
    /// shadow, are part of what it covers: a change beside the layer, over
    /// what passes its bounds, redraws that too.
    @Test func contentsAndTextPastTheBoundsAreRedrawn() throws {
        var px = [UInt8](repeating: 0, count: 60 * 60 * 4)
        for i in 0..<(60 * 60) { px[4 * i] = 200; px[4 * i + 2] = 40; px[4 * i + 3] = 255 }
        let image = try Image(width: 60, height: 60, premultipliedPixels: px)
        let host = try LayerHost(width: 120, height: 120)
        let small = layer(Rect(x: 50, y: 50, width: 10, height: 6), nil)
        small.contents = image
        small.contentsGravity = .center
        host.rootLayer.addSublayer(small)
        let text = TextLayer()
        text.frame = Rect(x: 4, y: 96, width: 12, height: 3)
        text.string = "far past the layer"
        text.fontSize = 14
        text.foregroundColor = .black
        host.rootLayer.addSublayer(text)
        // A masked layer's shadow, cast above it, past the mask's box.
        let masked = layer(Rect(x: 80, y: 20.3, width: 30, height: 40), .red)
        let m = layer(masked.bounds, .black)
        m.cornerRadius = 12
        masked.mask = m
        masked.shadowOpacity = 0.8
        masked.shadowRadius = 2.5
        masked.shadowOffset = Size(width: 0, height: -4)
        host.rootLayer.addSublayer(masked)
        let changing = layer(Rect(x: 28, y: 28, width: 6, height: 6), .blue)
        let other = layer(Rect(x: 70, y: 100, width: 6, height: 6), .blue)
        let above = layer(Rect(x: 90, y: 10, width: 4, height: 4), .blue)
        for l in [changing, other, above] { host.rootLayer.addSublayer(l) }
        host.renderFrame()
        Transaction.perform {
            Transaction.disableActions = true
            for l in [changing, other, above] { l.backgroundColor = .green }
        }
        host.renderFrame()
        #expect(matchesAFullRedraw(host))
    }

    @Test func badGeometryDrawsNothingAndDoesNotCrash() {
        let (_, b) = render { root in
            let l = layer(Rect(x: 0, y: 0, width: 100, height: 100), .red)
            l.transform = Transform3D(scaleX: 0, y: 0)
            root.addSublayer(l)
            let huge = layer(Rect(x: 0, y: 0, width: 1e300, height: 1e300), .blue)
            huge.position = Point(x: 1e308, y: -1e308)
            root.addSublayer(huge)
            let nan = layer(Rect(x: 0, y: 0, width: 10, height: 10), .blue)
            nan.position = Point(x: Double.nan, y: 5)
            root.addSublayer(nan)
        }
        #expect(b[50, 50] == white)
    }
}
