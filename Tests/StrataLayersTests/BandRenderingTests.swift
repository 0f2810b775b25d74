import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics
@testable import StrataLayers

/// Frames drawn in bands on several threads (`Compositor.threadCount`)
/// are the frames one thread draws, bit for bit.
@Suite @MainActor struct BandRenderingTests {
    /// A scene with every way the compositor draws a layer: rounded and
    /// bordered backgrounds, contents with gravity, shadows from paths,
    /// shapes and groups, opacity groups, masks, text, shapes, gradients,
    /// rotation, perspective and replicator copies; layers cross the band
    /// edges everywhere.
    static func scene(_ root: Layer, width: Double, height: Double) {
        var rng = SplitMix64(seed: 11)
        func u() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var px = [UInt8](repeating: 0, count: 24 * 24 * 4)
        for i in 0..<(24 * 24) {
            px[4 * i] = UInt8(i % 24 * 10); px[4 * i + 1] = UInt8(i / 24 * 10); px[4 * i + 2] = 120; px[4 * i + 3] = 255
        }
        let image = try! Image(width: 24, height: 24, premultipliedPixels: px)
        for i in 0..<60 {
            let kind = i % 12
            let l: Layer
            switch kind {
            case 9:
                let t = TextLayer()
                t.string = "Band \(i) — text"
                t.fontSize = 13
                t.foregroundColor = .black
                l = t
            case 10:
                let s = ShapeLayer()
                var p = Path()
                p.move(to: Point(x: 0, y: 0))
                p.addCurve(to: Point(x: 60, y: 40), control1: Point(x: 40, y: -20), control2: Point(x: 0, y: 60))
                s.path = p
                s.strokeColor = .blue
                s.lineWidth = 3
                s.fillColor = Color(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.5)
                l = s
            case 11:
                let g = GradientLayer()
                g.colors = [.red, Color(red: 0, green: 1, blue: 0, alpha: 0.5), .blue]
                g.startPoint = Point(x: 0, y: 0)
                g.endPoint = Point(x: 1, y: 1)
                l = g
            default:
                l = Layer()
            }
            let w = 30 + u() * 90, h = 20 + u() * 70
            l.frame = Rect(x: u() * (width - w), y: u() * (height - h), width: w, height: h)
            if kind != 10 && kind != 11 { l.backgroundColor = Color(red: u(), green: u(), blue: u(), alpha: 0.5 + u() * 0.5) }
            switch kind {
            case 0: l.cornerRadius = 9.5
            case 1: l.contents = image; l.contentsGravity = .resizeAspectFill; l.masksToBounds = true; l.cornerRadius = 6
            case 2: l.borderWidth = 2.5; l.borderColor = .black; l.cornerRadius = 7
            case 3: l.shadowOpacity = 0.6; l.shadowRadius = 5; l.shadowOffset = Size(width: 2, height: 4); l.cornerRadius = 8
            case 4:
                l.opacity = 0.6
                let sub = layer(Rect(x: 4, y: 4, width: w / 2, height: h / 2), .white)
                l.addSublayer(sub)
                // A shadow cast from the group's pixels.
                l.shadowOpacity = 0.5
                l.shadowRadius = 3
            case 5:
                let m = Layer()
                m.frame = l.bounds
                m.backgroundColor = .black
                m.cornerRadius = min(w, h) / 2
                l.mask = m
            case 6: l.shadowOpacity = 0.4; l.shadowPath = Path(rect: l.bounds); l.shadowRadius = 4
            case 7: l.transform = Transform3D(rotationAngle: 0.3 + u(), x: 0, y: 0, z: 1)
            case 8: l.transform = Transform3D(rotationAngle: 0.5, x: 0, y: 1, z: 0).concatenating(.perspective(distance: 250))
            default: break
            }
            root.addSublayer(l)
        }
        // Groups of curved shapes across the bands, at fractional places:
        // an opacity group with a rounded, rotated sublayer and text, and a
        // layer masked by a circle.
        for k in 0..<8 {
            let y = height * Double(k) / 8 + 3.37
            let group = layer(Rect(x: 7.3 + Double(k) * 17.1, y: y, width: 70.6, height: 41.3), Color(red: 0.9, green: 0.5, blue: 0.1))
            group.opacity = 0.75
            group.cornerRadius = 9.7
            let inner = layer(Rect(x: 6.2, y: 4.9, width: 30.3, height: 22.7), .blue)
            inner.cornerRadius = 7.1
            inner.transform = Transform3D(rotationAngle: 0.35, x: 0, y: 0, z: 1)
            group.addSublayer(inner)
            let curve = ShapeLayer()
            var path = Path()
            path.move(to: Point(x: 2.2, y: 1.3))
            path.addCurve(to: Point(x: 66.1, y: 37.4), control1: Point(x: 50.5, y: -12.2), control2: Point(x: -5.3, y: 60.7))
            curve.path = path
            curve.fillColor = Color(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.8)
            curve.strokeColor = .black
            curve.lineWidth = 1.7
            group.addSublayer(curve)
            let label = TextLayer()
            label.frame = Rect(x: 30, y: 20, width: 40, height: 20)
            label.string = "g\(k)"
            label.fontSize = 15
            label.foregroundColor = .white
            group.addSublayer(label)
            root.addSublayer(group)
            let masked = layer(Rect(x: width - 80.4 - Double(k) * 9.3, y: y + 11.6, width: 57.9, height: 48.2), .red)
            let circle = ShapeLayer()
            circle.path = Path(ellipseIn: Rect(x: 3.3, y: 2.1, width: 50.2, height: 44.7))
            circle.fillColor = .black
            masked.mask = circle
            masked.borderWidth = 2.5
            masked.borderColor = .black
            root.addSublayer(masked)
        }
        // Layers masked by rounded layers (drawn offscreen, mask and all), of
        // many sizes at many fractional places.
        for k in 0..<24 {
            let w = 20 + u() * 90, h = 16 + u() * 70
            let l = layer(Rect(x: u() * (width - w), y: u() * (height - h), width: w, height: h), Color(red: u(), green: u(), blue: 0.5))
            let m = Layer()
            m.frame = l.bounds
            m.backgroundColor = .black
            m.cornerRadius = min(w, h) / 2
            l.mask = m
            if k % 3 == 0 { l.shadowOpacity = 0.5; l.shadowRadius = 2.5 }
            root.addSublayer(l)
        }
        // Drawing beyond their extents: contents larger than the bounds,
        // centred and not masked, and text longer than its layer.
        let big = Layer()
        big.frame = Rect(x: width * 0.3, y: height * 0.45, width: 20, height: 6)
        big.contents = image
        big.contentsGravity = .center
        big.contentsScale = 0.25
        root.addSublayer(big)
        let long = TextLayer()
        long.frame = Rect(x: 5, y: height * 0.6, width: 30, height: 4)
        long.string = "A line far longer than its layer"
        long.fontSize = 24
        long.foregroundColor = .blue
        root.addSublayer(long)
        let r = ReplicatorLayer()
        r.frame = Rect(x: 10, y: height / 2 - 20, width: width - 20, height: 40)
        r.instanceCount = 5
        r.instanceTransform = Transform3D(translationX: 45, y: 7)
        r.instanceColor = Color(red: 1, green: 0.8, blue: 0.6)
        r.instanceBlueOffset = -0.2
        r.addSublayer(layer(Rect(x: 0, y: 0, width: 38, height: 30), .white))
        root.addSublayer(r)
    }

    /// How many pixels differ and the box they lie in; nil when none.
    static func difference(_ a: Bitmap, _ b: Bitmap) -> String? {
        let x = a.makeImage(), y = b.makeImage()
        var count = 0, x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for row in 0..<x.height {
            for col in 0..<x.width {
                let i = row * x.bytesPerRow + col * 4
                if x.pixels[i..<(i + 4)] != y.pixels[i..<(i + 4)] {
                    count += 1
                    x0 = min(x0, col); y0 = min(y0, row); x1 = max(x1, col); y1 = max(y1, row)
                }
            }
        }
        guard count > 0 else { return nil }
        let i = y0 * x.bytesPerRow + x0 * 4
        return
            "\(count) pixels differ in x \(x0)...\(x1), y \(y0)...\(y1), first \(Array(x.pixels[i..<(i + 4)])) against \(Array(y.pixels[i..<(i + 4)]))"
    }

    /// The host's tree drawn by one compositor on one thread and by one in
    /// bands on four: the same frame.
    func compare(width: Int, height: Int, scale: Double) throws {
        let host = try LayerHost(width: width, height: height, scale: scale)
        Self.scene(host.rootLayer, width: Double(width) / scale, height: Double(height) / scale)
        host.renderFrame()
        let one = try Compositor(width: width, height: height, scale: scale)
        one.threadCount = 1
        let banded = try Compositor(width: width, height: height, scale: scale)
        banded.threadCount = 4
        banded.bandedArea = 1
        #expect(banded.bands(of: Rect(x: 0, y: 0, width: Double(width), height: Double(height))).count > 4)
        one.render(host.renderTree, at: host.clock.now)
        banded.render(host.renderTree, at: host.clock.now)
        #expect(Self.difference(one.frame, banded.frame) == nil, "\(width) × \(height) at \(scale)")
        if let dir = ProcessInfo.processInfo.environment["STRATA_BAND_PNG"] { try banded.frame.makeImage().writePNG(to: "\(dir)/bands-\(width).png") }
        // A second frame, after a change: only the damage is drawn, in bands.
        Transaction.perform {
            Transaction.disableActions = true
            for (i, l) in host.rootLayer.sublayers.enumerated() where i % 5 == 0 {
                l.position = Point(x: l.position.x + 13, y: l.position.y - 21)
                l.opacity = 0.8
            }
        }
        host.renderFrame()
        one.render(host.renderTree, at: host.clock.now)
        banded.render(host.renderTree, at: host.clock.now)
        #expect(Self.difference(one.frame, banded.frame) == nil, "after a change: \(width) × \(height) at \(scale)")
    }

    @Test func bandsDrawWhatOneThreadDraws() throws {
        try compare(width: 400, height: 300, scale: 1)
        try compare(width: 600, height: 417, scale: 2)
    }

    /// A large frame on one thread is drawn in bands one after another
    /// (`Compositor.localBandBytes`): the frame drawn all at once, also
    /// after a change.
    @Test func bandsOnOneThreadDrawTheWholeFrame() throws {
        let (width, height) = (1100, 1000)
        let host = try LayerHost(width: width, height: height, scale: 2)
        Self.scene(host.rootLayer, width: Double(width) / 2, height: Double(height) / 2)
        host.renderFrame()
        let whole = try Compositor(width: width, height: height, scale: 2)
        whole.threadCount = 1
        whole.bandedArea = .max
        let banded = try Compositor(width: width, height: height, scale: 2)
        banded.threadCount = 1
        #expect(banded.bands(of: Rect(x: 0, y: 0, width: Double(width), height: Double(height))).count == 2)
        for step in 0..<2 {
            if step == 1 {
                Transaction.perform {
                    Transaction.disableActions = true
                    for (i, l) in host.rootLayer.sublayers.enumerated() where i % 4 == 0 {
                        l.position = Point(x: l.position.x - 7, y: l.position.y + 250)
                    }
                }
                host.renderFrame()
            }
            whole.render(host.renderTree, at: host.clock.now)
            banded.render(host.renderTree, at: host.clock.now)
            #expect(Self.difference(whole.frame, banded.frame) == nil, "frame \(step)")
        }
    }

    /// Groups drawn offscreen (opacity over sublayers) across band edges, at
    /// many fractional heights: each band makes the group over the whole
    /// rectangle's part, so the curves in it come out as on one thread.
    @Test func groupsAcrossBandEdgesAreTheOneThreadGroups() throws {
        let host = try LayerHost(width: 240, height: 320)
        for k in 0..<60 {
            let group = layer(Rect(x: Double(k % 4) * 58.3 + 1.1, y: Double(k / 4) * 20.37 + Double(k % 4) * 3.1, width: 55.4, height: 33.9), nil)
            group.opacity = 0.6
            let curve = ShapeLayer()
            var path = Path()
            path.move(to: Point(x: 1.3, y: 0.7))
            path.addCurve(to: Point(x: 53.1, y: 31.9), control1: Point(x: 44.5, y: -9.2), control2: Point(x: -4.3, y: 52.7))
            curve.path = path
            curve.fillColor = Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.9)
            curve.strokeColor = .black
            curve.lineWidth = 1.3
            group.addSublayer(curve)
            group.addSublayer(layer(Rect(x: 30, y: 2, width: 20, height: 10), .red))
            host.rootLayer.addSublayer(group)
        }
        host.renderFrame()
        let one = try Compositor(width: 240, height: 320)
        one.threadCount = 1
        let banded = try Compositor(width: 240, height: 320)
        banded.threadCount = 3
        banded.bandedArea = 1
        one.render(host.renderTree, at: host.clock.now)
        banded.render(host.renderTree, at: host.clock.now)
        #expect(Self.difference(one.frame, banded.frame) == nil)
    }

    /// The compositors that draw bands on other threads are kept from frame
    /// to frame: they follow the background colour, fewer or more threads
    /// and other band counts, and draw what one thread draws every time.
    @Test func keptBandCompositorsFollowChanges() throws {
        let host = try LayerHost(width: 300, height: 260, scale: 1)
        Self.scene(host.rootLayer, width: 300, height: 260)
        host.renderFrame()
        let one = try Compositor(width: 300, height: 260)
        one.threadCount = 1
        let banded = try Compositor(width: 300, height: 260)
        banded.bandedArea = 1
        let steps: [(threads: Int, perThread: Int?, background: Color)] = [
            (4, nil, .white), (4, nil, Color(red: 0.2, green: 0.3, blue: 0.9)), (2, 3, Color(red: 0.2, green: 0.3, blue: 0.9)),
            (5, 1, .black), (3, nil, .white),
        ]
        for (i, step) in steps.enumerated() {
            banded.threadCount = step.threads
            banded.bandsPerThread = step.perThread
            banded.backgroundColor = step.background
            one.backgroundColor = step.background
            one.invalidate()
            banded.invalidate()
            one.render(host.renderTree, at: host.clock.now)
            banded.render(host.renderTree, at: host.clock.now)
            #expect(Self.difference(one.frame, banded.frame) == nil, "step \(i)")
        }
    }

    /// The canvases kept from frame to frame give back, after each frame,
    /// what their stroke rasterizers grew for a very long line (grown here
    /// as a chart line of a million points grows them).
    @Test func keptCanvasesGiveBackWhatALongLineGrew() throws {
        let host = try LayerHost(width: 300, height: 200)
        Self.scene(host.rootLayer, width: 300, height: 200)
        host.renderFrame()
        for threads in [1, 3] {
            let c = try Compositor(width: 300, height: 200)
            c.threadCount = threads
            c.bandedArea = 1
            c.frameCanvas.strokeRasterizer.edges.reserve(400_000)
            c.render(host.renderTree, at: host.clock.now)
            #expect(c.frameCanvas.strokeRasterizer.edgeCapacity <= 1 << 16, "\(threads) threads")
        }
    }

    /// Bands are whole rows, cover the rectangle once, and are used only
    /// for large rectangles with more than one thread.
    @Test func bandsCoverTheRectangleInWholeRows() throws {
        let c = try Compositor(width: 2000, height: 2000)
        c.threadCount = 3
        let big = Rect(x: 7, y: 11, width: 900, height: 701)
        let bands = c.bands(of: big)
        // One a thread, and at least eight.
        #expect(bands.count == 8)
        #expect(bands.first?.lowerBound == 11 && bands.last?.upperBound == 712)
        for (a, b) in zip(bands, bands.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        #expect(bands.allSatisfy { $0.count >= 16 })
        // Small rectangles, or one thread: all the rows at once.
        #expect(c.bands(of: Rect(x: 0, y: 0, width: 200, height: 200)) == [0..<200])
        c.bandedArea = 1
        #expect(c.bands(of: Rect(x: 0, y: 0, width: 500, height: 20)).count == 1)
        #expect(c.bands(of: Rect(x: 0, y: 0, width: 500, height: 40)).count == 2)
        c.threadCount = 16
        #expect(c.bands(of: big).count == 16)
        // Or as many a thread as asked, held within 1 ... 16.
        c.threadCount = 3
        c.bandsPerThread = 4
        #expect(c.bands(of: big).count == 12)
        c.bandsPerThread = 0
        #expect(c.bandsPerThread == 1 && c.bands(of: big).count == 3)
        c.bandsPerThread = 100
        #expect(c.bandsPerThread == 16 && c.bands(of: big).count == 43)  // 701 rows / 16
        c.bandsPerThread = nil
        #expect(c.bands(of: big).count == 8)
        c.threadCount = 1
        #expect(c.bands(of: big) == [11..<712])
        // Large rectangles in bands of at most 4 MiB of the frame, on one
        // thread as well (drawn one after another).
        let uhd = Rect(x: 0, y: 0, width: 3840, height: 2160), hd = Rect(x: 0, y: 0, width: 1920, height: 1080)
        #expect(c.bands(of: uhd).count == 8)
        #expect(c.bands(of: hd) == [0..<540, 540..<1080])
        #expect(c.bands(of: Rect(x: 0, y: 0, width: 1024, height: 1024)) == [0..<1024])
        #expect(c.bands(of: Rect(x: 0, y: 0, width: 1024, height: 1025)).count == 2)
        c.threadCount = 2
        #expect(c.bands(of: uhd).count == 8)
        c.threadCount = 16
        #expect(c.bands(of: uhd).count == 16)
        // An explicit count a thread is kept to.
        c.threadCount = 1
        c.bandsPerThread = 1
        #expect(c.bands(of: uhd).count == 1)
        c.bandsPerThread = nil
        // Held within 1 ... 64.
        c.threadCount = 0
        #expect(c.threadCount == 1)
        c.threadCount = 1000
        #expect(c.threadCount == 64)
    }

    /// With the layers' boxes, bands share the estimated cost (a row's
    /// width plus `layerPixelCost` a pixel of the boxes across it) rather
    /// than the rows; still whole rows, 16 at least, covering the
    /// rectangle once; boxes that are not finite or miss the rectangle
    /// leave the even split.
    @Test func bandsShareTheLayersCost() throws {
        let c = try Compositor(width: 1000, height: 1000)
        c.threadCount = 4
        let rect = Rect(x: 0, y: 0, width: 1000, height: 1000)
        let even = c.bands(of: rect)
        #expect(even.count == 8 && even.allSatisfy { $0.count == 125 })
        func checkCover(_ bands: [Range<Int>], _ rows: Range<Int>) {
            #expect(bands.first?.lowerBound == rows.lowerBound && bands.last?.upperBound == rows.upperBound)
            for (a, b) in zip(bands, bands.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
            #expect(bands.allSatisfy { $0.count >= 16 })
        }
        // Layers over the top quarter: its rows cost 1 + 2 = 3 widths, the
        // rest 1. Half the cost is in the top 250 rows: four bands there.
        let top = [Rect(x: 0, y: 0, width: 1000, height: 250)]
        let weighted = c.bands(of: rect, boxes: top)
        checkCover(weighted, 0..<1000)
        #expect(weighted.count == 8)
        #expect(weighted[3].upperBound == 250)
        #expect(weighted.prefix(4).allSatisfy { abs($0.count - 62) <= 1 })
        #expect(weighted.suffix(4).allSatisfy { abs($0.count - 187) <= 1 })
        // Each band within a row's cost of its share.
        let layer = Compositor.layerPixelCost * 1000
        func cost(_ r: Range<Int>) -> Double { r.reduce(0.0) { $0 + 1000 + ($1 < 250 ? layer : 0) } }
        let share = (0..<1000).reduce(0.0) { $0 + 1000 + ($1 < 250 ? layer : 0) } / 8
        #expect(weighted.allSatisfy { abs(cost($0) - share) <= 1000 + layer })
        // Two boxes, one narrower, in a rectangle that does not start at 0;
        // the part of a box outside the rectangle does not count.
        let offset = Rect(x: 100, y: 37, width: 800, height: 600)
        let two = c.bands(of: offset, boxes: [Rect(x: 0, y: 0, width: 2000, height: 137), Rect(x: 500, y: 300, width: 100, height: 50)])
        checkCover(two, 37..<637)
        #expect(two[0].count < two[7].count)
        // Cost crowded into ten rows: the bands keep 16 rows each.
        let crowded = c.bands(of: rect, boxes: Array(repeating: Rect(x: 0, y: 500, width: 1000, height: 10), count: 1000))
        checkCover(crowded, 0..<1000)
        #expect(crowded.count == 8)
        // (Nearly all of the cost in rows 500 ..< 510: the first band takes
        // the cheap rows above and the first of them, the next the rest of
        // them, and the others 16 rows each after them, then what is left.)
        #expect(crowded[0] == 0..<501 && crowded[1] == 501..<517 && crowded[6] == 581..<597)
        // Nothing to weigh: the even split.
        let bad = [
            Rect(x: .nan, y: 0, width: 10, height: 10), Rect(x: 0, y: .nan, width: 300, height: 300),
            Rect(x: 0, y: 2000, width: 100, height: 100), .null, Rect(x: 0, y: 10, width: 0, height: 100),
        ]
        #expect(c.bands(of: rect, boxes: bad) == even)
        #expect(c.bands(of: rect, boxes: []) == even)
        // A small rectangle stays one band whatever the boxes.
        #expect(c.bands(of: Rect(x: 0, y: 0, width: 100, height: 100), boxes: top) == [0..<100])
    }

    /// The host's setting survives a resize, which makes a new compositor.
    @Test func theHostKeepsItsThreadCount() throws {
        let host = try LayerHost(width: 100, height: 100)
        host.renderingThreadCount = 3
        #expect(host.renderingThreadCount == 3)
        try host.resize(width: 300, height: 200)
        #expect(host.renderingThreadCount == 3)
    }
}
