import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

/// The compositor skips what an opaque layer hides: the frames must be
/// exactly those it draws without skipping.
@MainActor
@Suite struct OcclusionTests {
    /// The frame of `host`'s tree drawn with and without the cull.
    func bothWays(_ host: LayerHost) -> (culled: Image, full: Image, covered: Int) {
        let a = try! Compositor(width: host.width, height: host.height, scale: host.scale, backgroundColor: .white)
        a.render(host.renderTree, at: host.clock.now)
        let b = try! Compositor(width: host.width, height: host.height, scale: host.scale, backgroundColor: .white)
        b.cullsOccludedLayers = false
        b.render(host.renderTree, at: host.clock.now)
        return (a.frame.makeImage(), b.frame.makeImage(), a.lastCoveredRectCount)
    }

    /// A list: a clipping, scrolled viewport with an opaque background and
    /// cells with opaque backgrounds and translucent contents.
    func list(scale: Double = 1, cellCorner: Double = 0, viewportAlpha: Double = 1, offset: Double = 7) -> LayerHost {
        let host = try! LayerHost(width: Int(120 * scale), height: Int(160 * scale), scale: scale, backgroundColor: .white)
        let viewport = layer(Rect(x: 10, y: 10, width: 100, height: 140), Color(white: 0.9))
        viewport.masksToBounds = true
        viewport.opacity = viewportAlpha
        viewport.bounds.origin.y = offset
        for i in 0..<5 {
            let cell = layer(Rect(x: 0, y: Double(i) * 40, width: 100, height: 38), .white)
            cell.cornerRadius = cellCorner
            let mark = layer(Rect(x: 5, y: 5, width: 30, height: 20), Color(red: 1, green: 0, blue: 0, alpha: 0.5))
            cell.addSublayer(mark)
            viewport.addSublayer(cell)
        }
        host.rootLayer.addSublayer(viewport)
        host.renderFrame()
        return host
    }

    @Test func aFullRedrawUnderAnOpaqueLayerSkipsWhatItHides() {
        // The first frame redraws everything; a frame-filling opaque layer covers it.
        let host = try! LayerHost(width: 60, height: 60, backgroundColor: .white)
        host.rootLayer.addSublayer(layer(Rect(x: 10, y: 10, width: 20, height: 20), .red))
        host.rootLayer.addSublayer(layer(Rect(x: 0, y: 0, width: 60, height: 60), .blue))
        host.rootLayer.addSublayer(layer(Rect(x: 5, y: 5, width: 10, height: 10), Color(red: 0, green: 1, blue: 0, alpha: 0.5)))
        host.renderFrame()
        let r = bothWays(host)
        let same = r.culled == r.full
        #expect(r.covered == 1)
        #expect(same)
    }

    @Test func layersThatDoNotCoverOpaquelyHideNothing() {
        // Translucent, rounded, half a pixel off, or under a translucent parent: no cover.
        let cases: [(String, (Layer) -> Void)] = [
            ("translucent", { $0.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.99) }),
            ("rounded", { $0.cornerRadius = 4 }),
            ("half a pixel off", { $0.position.x += 0.5 }),
            ("faded", { $0.opacity = 0.99 }),
            ("rotated", { $0.transform = Transform3D(rotationAngle: 0.01, x: 0, y: 0, z: 1) }),
        ]
        for (name, spoil) in cases {
            let host = try! LayerHost(width: 60, height: 60, backgroundColor: .white)
            host.rootLayer.addSublayer(layer(Rect(x: 10, y: 10, width: 20, height: 20), .red))
            let top = layer(Rect(x: 0, y: 0, width: 60, height: 60), .blue)
            spoil(top)
            host.rootLayer.addSublayer(top)
            host.renderFrame()
            let r = bothWays(host)
            let same = r.culled == r.full
            #expect(r.covered == 0, "\(name)")
            #expect(same, "\(name)")
        }
    }

    @Test func listsMatchTheFullDrawingAtEveryOffsetAndScale() {
        for scale in [1.0, 2, 3] {
            for offset in [0.0, 7, 1.0 / 3, 20.5] {
                for corner in [0.0, 3] {
                    for alpha in [1.0, 0.8] {
                        let host = list(scale: scale, cellCorner: corner, viewportAlpha: alpha, offset: offset)
                        let r = bothWays(host)
                        let same = r.culled == r.full
                        #expect(same, "scale \(scale) offset \(offset) corner \(corner) alpha \(alpha)")
                    }
                }
            }
        }
        // A cell's change damages the cell alone, and the cell covers it.
        let host = list()
        host.rootLayer.sublayers[0].sublayers[2].sublayers[0].backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        host.renderFrame()
        #expect(matchesAFullRedraw(host))
    }

    @Test func randomTreesMatchTheFullDrawing() {
        var rng = SplitMix64(seed: 77)
        var covered = 0
        for trial in 0..<60 {
            let scale = [1.0, 2][trial % 2]
            let host = try! LayerHost(width: Int(80 * scale), height: Int(80 * scale), scale: scale, backgroundColor: .white)
            func random(_ depth: Int) -> Layer {
                let x = Double(Int.random(in: -10...60, using: &rng)), y = Double(Int.random(in: -10...60, using: &rng))
                let w = Double(Int.random(in: 5...80, using: &rng)), h = Double(Int.random(in: 5...80, using: &rng))
                let opaque = Bool.random(using: &rng)
                let l = layer(
                    Rect(x: x, y: y, width: w, height: h),
                    Color(
                        red: .random(in: 0...1, using: &rng), green: .random(in: 0...1, using: &rng), blue: .random(in: 0...1, using: &rng),
                        alpha: opaque ? 1 : 0.6))
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: l.cornerRadius = 5
                case 1: l.opacity = 0.7
                case 2: l.masksToBounds = true
                case 3: l.shadowOpacity = 0.5
                case 4: l.borderWidth = 2
                case 5: l.bounds.origin = Point(x: Double(Int.random(in: -5...5, using: &rng)), y: 3)
                case 6: l.position.x += 0.5
                case 7:
                    l.masksToBounds = true
                    l.cornerRadius = 6
                default: break
                }
                if depth < 3 {
                    for _ in 0..<Int.random(in: 0...3, using: &rng) { l.addSublayer(random(depth + 1)) }
                }
                return l
            }
            for _ in 0..<4 { host.rootLayer.addSublayer(random(0)) }
            host.renderFrame()
            var all: [Layer] = []
            func collect(_ l: Layer) {
                all.append(l)
                l.sublayers.forEach(collect)
            }
            collect(host.rootLayer)
            // Small changes: the damage is a few rectangles, often inside an opaque layer.
            for step in 0..<5 {
                let l = all[Int.random(in: 1..<all.count, using: &rng)]
                if Bool.random(using: &rng) {
                    l.backgroundColor = Color(red: .random(in: 0...1, using: &rng), green: 0.5, blue: 0.2, alpha: Bool.random(using: &rng) ? 1 : 0.5)
                } else {
                    l.position.y += Double(Int.random(in: -3...3, using: &rng))
                }
                host.renderFrame()
                covered += host.renderer.withCompositor { $0.lastCoveredRectCount }
                let full = try! Compositor(width: host.width, height: host.height, scale: host.scale, backgroundColor: .white)
                full.cullsOccludedLayers = false
                full.render(host.renderTree, at: host.clock.now)
                let same = full.frame.makeImage() == host.makeImage()
                #expect(same, "trial \(trial) step \(step)")
            }
        }
        // Damaged rectangles under opaque layers: the cull ran.
        #expect(covered > 0)
    }
}
