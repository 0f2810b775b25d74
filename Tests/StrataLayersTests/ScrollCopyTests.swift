import StrataGraphics
import Testing

@testable import StrataLayers

/// Scrolling by moving the previous frame's pixels (`FrameCopy`): every frame
/// must equal a full redraw of the same tree, and a scroll must redraw little.
@Suite @MainActor struct ScrollCopyTests {
    /// A full drawing of the host's tree at its scale.
    func fullRedraw(_ host: LayerHost) -> Image {
        let fresh = try! Compositor(width: host.width, height: host.height, scale: host.scale, backgroundColor: .white)
        fresh.render(host.renderTree, at: host.clock.now)
        return fresh.frame.makeImage()
    }

    /// Whether the host's frame equals a full redraw (a Bool, so that a
    /// failed expectation does not print pixels).
    func matches(_ host: LayerHost) -> Bool { fullRedraw(host) == host.makeImage() }

    func copies(_ host: LayerHost) -> [FrameCopy] { host.renderer.withCompositor { $0.lastCopies } }
    func redrawnArea(_ host: LayerHost) -> Double {
        host.renderer.withCompositor { $0.lastDamage.reduce(0) { $0 + $1.width * $1.height } }
    }

    func change(_ body: () -> Void) {
        Transaction.perform {
            Transaction.disableActions = true
            body()
        }
    }

    /// A tile picture with a different colour in every pixel, so that a move
    /// by the wrong amount cannot match.
    func tileImage(_ seed: Int, width: Int = 20, height: Int = 60) -> Image {
        let b = try! Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                b[x, y] = Pixel(r: UInt8((x * 11 + seed * 37) & 255), g: UInt8((y * 5 + seed) & 255), b: UInt8((x * y + seed * 3) & 255), a: 255)
            }
        }
        return b.makeImage()
    }

    /// A viewport (masking, opaque) with a content layer of picture tiles.
    func scene(scale: Double = 1) -> (LayerHost, viewport: Layer, content: Layer) {
        let host = try! LayerHost(width: 200, height: 120, scale: scale, backgroundColor: .white)
        let viewport = layer(Rect(x: 10, y: 10, width: 150, height: 80), Color(red: 0.9, green: 0.9, blue: 0.9))
        viewport.masksToBounds = true
        let content = Layer()
        content.anchorPoint = .zero
        content.frame = Rect(x: 0, y: 0, width: 400, height: 80)
        for i in 0..<20 {
            let tile = Layer()
            tile.frame = Rect(x: Double(i) * 20, y: Double(i % 3) * 5, width: 20, height: 60)
            tile.contents = tileImage(i, width: Int(20 * scale), height: Int(60 * scale))
            tile.contentsScale = scale
            content.addSublayer(tile)
        }
        // A vector shape too: moved by whole pixels it rasterizes the same.
        let dot = layer(Rect(x: 33.3, y: 41.7, width: 17.2, height: 9.9), .red)
        dot.cornerRadius = 4
        content.addSublayer(dot)
        viewport.addSublayer(content)
        host.rootLayer.addSublayer(viewport)
        host.renderFrame()
        return (host, viewport, content)
    }

    @Test func aScrollMovesPixelsAndRedrawsTheUncoveredBand() {
        let (host, _, content) = scene()
        var x = 0.0, y = 0.0
        for (dx, dy) in [(-3.0, 0.0), (-4, 0), (5, 0), (0, -2), (0, 7), (-6, 3), (2, -9)] {
            x += dx
            y += dy
            change { content.position = Point(x: x, y: y) }
            host.renderFrame()
            #expect(copies(host) == [FrameCopy(rect: Rect(x: 10, y: 10, width: 150, height: 80), dx: Int(dx), dy: Int(dy))])
            // Only the band the move uncovers is redrawn (with the damage's whole-pixel slack).
            let band = abs(dx) * 80 + abs(dy) * 150
            #expect(redrawnArea(host) <= band + 2 * 80 + 2 * 150)
            #expect(matches(host))
        }
    }

    @Test func aMoveAsLargeAsTheRegionRedrawsIt() {
        let (host, _, content) = scene()
        change { content.position = Point(x: -150, y: 0) }
        host.renderFrame()
        #expect(copies(host).isEmpty)
        #expect(matches(host))
        change { content.position = Point(x: -150, y: -80) }
        host.renderFrame()
        #expect(copies(host).isEmpty)
        #expect(matches(host))
    }

    @Test func whatChangesOrStaysWhileTheRestScrollsIsRedrawn() {
        let (host, viewport, content) = scene()
        // A label that stays put inside the viewport, over the content.
        let label = layer(Rect(x: 60, y: 30, width: 30, height: 12), .blue)
        viewport.addSublayer(label)
        // A sibling drawn above the viewport, overlapping it.
        let overlay = layer(Rect(x: 140, y: 60, width: 40, height: 40), Color(red: 0, green: 0.6, blue: 0, alpha: 0.5))
        host.rootLayer.addSublayer(overlay)
        host.renderFrame()
        let tiles = content.sublayers
        for step in 1...8 {
            change {
                content.position = Point(x: -3 * Double(step), y: 0)
                // One tile changes its picture, one goes, one comes, one moves on its own.
                tiles[step].contents = tileImage(100 + step)
                if step == 3 { tiles[5].removeFromSuperlayer() }
                if step == 4 {
                    let newcomer = layer(Rect(x: 90, y: 10, width: 10, height: 10), .green)
                    content.addSublayer(newcomer)
                }
                tiles[7].position = Point(x: tiles[7].position.x + 1, y: tiles[7].position.y)
                if step == 6 { overlay.position = Point(x: overlay.position.x - 20, y: overlay.position.y) }
            }
            host.renderFrame()
            #expect(copies(host).count == 1)
            #expect(matches(host), "frame \(step)")
        }
    }

    @Test func anAncestorsBorderIsDrawnAgainOverTheMovedPixels() {
        let host = try! LayerHost(width: 200, height: 120, backgroundColor: .white)
        let card = layer(Rect(x: 0, y: 0, width: 200, height: 120), .white)
        card.borderWidth = 15
        card.borderColor = .red
        let (_, viewport, content) = scene()
        viewport.removeFromSuperlayer()
        card.addSublayer(viewport)
        host.rootLayer.addSublayer(card)
        host.renderFrame()
        for step in 1...4 {
            change { content.position = Point(x: -5 * Double(step), y: Double(step)) }
            host.renderFrame()
            #expect(matches(host))
        }
    }

    @Test func onlyAnOpaqueRectangularViewportOnWholePixelsScrollsByCopying() {
        let cases: [(String, (Layer) -> Void)] = [
            ("translucent background", { $0.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5) }),
            ("no background", { $0.backgroundColor = nil }),
            ("rounded corners", { $0.cornerRadius = 8 }),
            ("half-pixel frame", { $0.frame = Rect(x: 10.5, y: 10, width: 150, height: 80) }),
            ("rotated", { $0.transform = Transform3D(rotationAngle: 0.1, x: 0, y: 0, z: 1) }),
            ("translucent", { $0.opacity = 0.5 }),
            ("shadowed", { $0.shadowOpacity = 0.5 }),
        ]
        for (name, spoil) in cases {
            let (host, viewport, content) = scene()
            change { spoil(viewport) }
            host.renderFrame()
            change { content.position = Point(x: -4, y: 0) }
            host.renderFrame()
            #expect(copies(host).isEmpty, "\(name)")
            #expect(matches(host), "\(name)")
        }
        // A move by a fraction of a pixel is redrawn, not copied.
        let (host, _, content) = scene()
        change { content.position = Point(x: -2.5, y: 0) }
        host.renderFrame()
        #expect(copies(host).isEmpty)
        #expect(matches(host))
    }

    @Test func atTwoPixelsAPointHalfAPointIsOnePixel() {
        let (host, _, content) = scene(scale: 2)
        change { content.position = Point(x: -0.5, y: 0) }
        host.renderFrame()
        #expect(copies(host) == [FrameCopy(rect: Rect(x: 20, y: 20, width: 180, height: 100), dx: -1, dy: 0)])
        #expect(matches(host))
    }

    @Test func animatedMovesAndRandomEditsMatchAFullRedraw() {
        var rng = SplitMix64(seed: 15)
        let (host, viewport, content) = scene()
        let overlay = layer(Rect(x: 120, y: 50, width: 50, height: 30), Color(red: 0, green: 0.5, blue: 0, alpha: 0.5))
        host.rootLayer.addSublayer(overlay)
        let tiles = content.sublayers
        var copied = 0
        for frame in 0..<150 {
            change {
                content.position = Point(
                    x: content.position.x + Double(Int.random(in: -6...6, using: &rng)),
                    y: content.position.y + Double(Int.random(in: -2...2, using: &rng)))
                let t = tiles[Int.random(in: 0..<tiles.count, using: &rng)]
                switch Int.random(in: 0..<9, using: &rng) {
                case 0: t.isHidden.toggle()
                case 1: t.opacity = Double.random(in: 0.3...1, using: &rng)
                case 2: t.position.y += 1
                case 3: t.zPosition = Double(Int.random(in: -1...1, using: &rng))
                case 4: viewport.backgroundColor = frame % 2 == 0 ? .white : Color(red: 0.9, green: 0.9, blue: 0.9)
                case 5:
                    // A sublayer comes, in the middle of the others.
                    let l = layer(Rect(x: Double(frame * 7 % 300), y: 20, width: 12, height: 12), .blue)
                    content.insertSublayer(l, at: Int.random(in: 0...content.sublayers.count, using: &rng))
                case 6:
                    // One that is not a tile goes.
                    content.sublayers.last { l in !tiles.contains { $0 === l } }?.removeFromSuperlayer()
                case 7: overlay.position.x += Double(Int.random(in: -9...9, using: &rng))
                default: break
                }
            }
            // Now and then an animation runs (a fade, so the records say "animated").
            if frame % 10 == 5 {
                var fade = BasicAnimation(keyPath: "opacity", from: 1.0, to: 0.5)
                fade.timing.duration = 0.05
                tiles[frame % tiles.count].add(fade, forKey: "fade")
            }
            host.advance()
            copied += copies(host).count
            #expect(matches(host), "frame \(frame)")
        }
        #expect(copied > 60)
    }

    @Test func bitmapScrollPixelsTakesHostileValues() {
        let b = try! Bitmap(width: 8, height: 8)
        b[3, 3] = Pixel(r: 1, g: 2, b: 3, a: 255)
        let before = b.makeImage()
        // Moves that cannot stay inside, or rectangles of nothing: no change, no trap.
        for (dx, dy) in [(Int.min, 0), (0, Int.min), (Int.max, Int.max), (8, 0)] { b.scrollPixels(in: b.bounds, byX: dx, y: dy) }
        for r in [
            Rect(x: .nan, y: 0, width: 4, height: 4), Rect(x: 0, y: 0, width: .infinity, height: -3), Rect(x: 1e30, y: 1e30, width: 5, height: 5),
        ] {
            b.scrollPixels(in: r, byX: 1, y: 1)
        }
        #expect(b.makeImage() == before)
    }

    @Test func bitmapScrollPixelsMovesARectangleInPlace() {
        for (dx, dy) in [(3, 0), (-3, 0), (0, 2), (0, -2), (4, 5), (-4, -5), (2, -1), (-7, 3), (0, 0), (9, 0), (0, 9)] {
            let b = try! Bitmap(width: 12, height: 10)
            for y in 0..<10 { for x in 0..<12 { b[x, y] = Pixel(r: UInt8(x), g: UInt8(y), b: 7, a: 255) } }
            let before = Bitmap(image: b.makeImage())
            // The rectangle sticks out of the bitmap on the right: clipped.
            b.scrollPixels(in: Rect(x: 2, y: 1, width: 12, height: 8), byX: dx, y: dy)
            for y in 0..<10 {
                for x in 0..<12 {
                    let inside = (2..<12).contains(x) && (1..<9).contains(y)
                    let from = (x: x - dx, y: y - dy)
                    let sourceInside = (2..<12).contains(from.x) && (1..<9).contains(from.y)
                    let moves = inside && sourceInside && abs(dx) < 10 && abs(dy) < 8
                    let expected = moves ? before[from.x, from.y] : before[x, y]
                    #expect(b[x, y] == expected, "(\(dx), \(dy)) at (\(x), \(y))")
                }
            }
        }
    }
}
