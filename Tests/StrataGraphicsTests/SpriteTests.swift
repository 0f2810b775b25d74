import Testing

@testable import StrataGraphics

@Suite struct SpriteTests {
    func image() throws -> Image {
        let c = try Canvas(width: 10, height: 10)
        c.fillColor = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
        c.fill(Rect(x: 0, y: 0, width: 10, height: 5))
        c.fillColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        c.fill(Rect(x: 0, y: 5, width: 10, height: 5))
        return c.makeImage()
    }

    @Test func aSpriteAtAWholePixelMatchesATintedImage() throws {
        let img = try image()
        let tint = Color(red: 1, green: 0.5, blue: 1, alpha: 0.8)
        let a = try Canvas(width: 30, height: 30), b = try Canvas(width: 30, height: 30)
        for c in [a, b] {
            c.fillColor = Color(white: 0.5)
            c.fill(c.bounds)
        }
        a.drawSprites([img], [Sprite(image: 0, transform: Transform(translationX: 7, y: 9), color: tint)])
        b.draw(img.multiplied(by: tint), in: Rect(x: 7, y: 9, width: 10, height: 10))
        for y in 0..<30 {
            for x in 0..<30 {
                let p = a.bitmap[x, y], q = b.bitmap[x, y]
                #expect(abs(Int(p.r) - Int(q.r)) <= 2 && abs(Int(p.g) - Int(q.g)) <= 2 && abs(Int(p.b) - Int(q.b)) <= 2, "(\(x), \(y))")
            }
        }
    }

    @Test func additiveSpritesAddAndTheClipHolds() throws {
        let img = try image()
        let c = try Canvas(width: 30, height: 30)
        c.clip(to: Rect(x: 0, y: 0, width: 12, height: 30))
        c.blendMode = .plusLighter
        let s = Sprite(image: 0, transform: Transform(translationX: 5, y: 0), color: Color(white: 1, alpha: 0.5))
        c.drawSprites([img], [s, s])
        // Two half-strength orange copies add up to one full one.
        let p = c.bitmap[8, 2]
        #expect(abs(Int(p.r) - 255) <= 2 && abs(Int(p.g) - 128) <= 3 && abs(Int(p.a) - 255) <= 2)
        // Outside the clip, nothing.
        #expect(c.bitmap[13, 2] == Pixel(r: 0, g: 0, b: 0, a: 0))
    }

    @Test func anAntialiasedClipScalesCoverage() throws {
        let img = try image()
        let c = try Canvas(width: 30, height: 30)
        // Half of column 11 is inside the clip: a mask, not just a box.
        c.clip(to: Rect(x: 0, y: 0, width: 11.5, height: 30))
        c.drawSprites([img], [Sprite(image: 0, transform: Transform(translationX: 5, y: 0), color: .white)])
        let inside = c.bitmap[8, 2]
        #expect(inside.r == 255 && abs(Int(inside.g) - 128) <= 1 && inside.b == 0 && inside.a == 255)
        let edge = c.bitmap[11, 2]
        #expect(abs(Int(edge.a) - 128) <= 2 && abs(Int(edge.r) - 128) <= 2)
        #expect(c.bitmap[12, 2] == Pixel(r: 0, g: 0, b: 0, a: 0))
    }

    @Test func rotatedScaledAndBadSpritesAreHandled() throws {
        let img = try image()
        let c = try Canvas(width: 40, height: 40)
        let t = Transform(translationX: -5, y: -5).concatenating(Transform(scaleX: 2, y: 2))
            .concatenating(Transform(rotationAngle: .pi / 2)).concatenating(Transform(translationX: 20, y: 20))
        c.drawSprites(
            [img],
            [
                Sprite(image: 0, transform: t, color: .white),
                Sprite(image: 3, transform: .identity, color: .white),
                Sprite(image: 0, transform: Transform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0), color: .white),
                Sprite(image: 0, transform: Transform(translationX: .nan, y: 0), color: .white),
                // Far away, and enormous: no crash, and the first
                // draws nothing.
                Sprite(image: 0, transform: Transform(translationX: 1e19, y: -1e19), color: .white),
                Sprite(image: 0, transform: Transform(scaleX: 1e300, y: 1e300), color: Color(white: 1, alpha: 0)),
            ])
        // Turned a quarter: the orange half (top) now on the right of the centre.
        #expect(c.bitmap[26, 20].r > 200 && c.bitmap[14, 20].b > 100)
        #expect(c.bitmap[2, 2] == Pixel(r: 0, g: 0, b: 0, a: 0))
    }
}

@Suite struct SpriteBatchTests {
    /// Sprites drawn source-over, overlapping, in order.
    func sprites(_ count: Int) -> [Sprite] {
        var rng = UInt64(12345)
        func next() -> Double {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(rng >> 11) / Double(1 << 53)
        }
        return (0..<count).map { i in
            let t = Transform(translationX: -5, y: -5).concatenating(Transform(rotationAngle: next() * 6.3))
                .concatenating(Transform(scaleX: 0.5 + next() * 2, y: 0.5 + next() * 2))
                .concatenating(Transform(translationX: next() * 420 - 10, y: next() * 320 - 10))
            return Sprite(
                image: i % 2, transform: t,
                color: Color(red: next(), green: next(), blue: next(), alpha: 0.3 + 0.7 * next()))
        }
    }

    func images() throws -> [Image] {
        let a = try Canvas(width: 10, height: 10)
        a.fillColor = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
        a.fill(Rect(x: 0, y: 0, width: 10, height: 5))
        a.fillColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        a.fill(Rect(x: 0, y: 5, width: 10, height: 5))
        let b = try Canvas(width: 7, height: 12)
        b.fillColor = Color(red: 0.2, green: 0.9, blue: 0.4, alpha: 0.8)
        b.fillEllipse(in: Rect(x: 0, y: 0, width: 7, height: 12))
        return [a.makeImage(), b.makeImage()]
    }

    /// A batch drawn in parallel strips gives, byte for byte, what small
    /// batches (each drawn on one thread) give, in every mode: source-over
    /// and adding, bilinear and nearest, with and without an anti-aliased
    /// clip.
    @Test(arguments: [(false, false, false), (true, false, false), (false, true, false), (false, false, true), (true, true, true)])
    func aParallelBatchMatchesSmallBatches(additive: Bool, nearest: Bool, masked: Bool) throws {
        let imgs = try images()
        let all = sprites(6000)
        let whole = try Canvas(width: 400, height: 300), pieces = try Canvas(width: 400, height: 300)
        for c in [whole, pieces] {
            c.fillColor = Color(white: 0.3, alpha: 0.5)
            c.fill(c.bounds)
            if additive { c.blendMode = .plusLighter }
            if nearest { c.interpolationQuality = .none }
            if masked { c.clip(to: Path(ellipseIn: Rect(x: 20.5, y: 10.25, width: 350, height: 270))) }
        }
        // In strips on four threads, whatever the machine has.
        whole.blitSprites(imgs, all, additive: additive, threads: 4)
        for start in stride(from: 0, to: all.count, by: 50) {
            pieces.drawSprites(imgs, Array(all[start..<min(all.count, start + 50)]))
        }
        var differing = 0
        for y in 0..<300 { for x in 0..<400 where whole.bitmap[x, y] != pieces.bitmap[x, y] { differing += 1 } }
        #expect(differing == 0)
        // And the sprites did draw.
        #expect(whole.bitmap[200, 150] != Pixel(r: 38, g: 38, b: 38, a: 128))
    }

    /// The loop takes pixels two at a time from the start of each span, and
    /// steps fixed-point coordinates along it; clips whose left edge is one,
    /// two or three pixels further right (inside the mask, across hundreds of
    /// sprites) give the same pixels right of the last edge, in every mode.
    @Test(arguments: [
        (false, false, false), (true, false, false), (false, true, false), (true, true, false),
        (false, false, true), (true, true, true),
    ])
    func pixelsDoNotDependOnWhereASpanStarts(additive: Bool, masked: Bool, nearest: Bool) throws {
        let imgs = try images()
        let all = sprites(3000)
        let canvases = try (0..<4).map { _ in try Canvas(width: 400, height: 300) }
        for (c, left) in zip(canvases, [40.0, 41, 42, 43]) {
            c.fillColor = Color(white: 0.3, alpha: 0.5)
            c.fill(c.bounds)
            if additive { c.blendMode = .plusLighter }
            if nearest { c.interpolationQuality = .none }
            if masked {
                c.clip(to: Path(ellipseIn: Rect(x: 20.5, y: -100.25, width: 350, height: 500)))
            }
            c.clip(to: Rect(x: left, y: 0, width: 400 - left, height: 300))
            c.drawSprites(imgs, all)
        }
        for c in canvases.dropFirst() {
            var differing = 0
            for y in 0..<300 { for x in 43..<400 where canvases[0].bitmap[x, y] != c.bitmap[x, y] { differing += 1 } }
            #expect(differing == 0)
        }
        // Sprites cross the edges.
        #expect(canvases[3].bitmap[44, 150] != Pixel(r: 38, g: 38, b: 38, a: 128))
    }

    @Test func stripsCoverTheRowsByWork() throws {
        func job(_ y0: Int, _ y1: Int) -> SpriteJob {
            SpriteJob(
                offset: 0, width: 1, height: 1, inverse: .identity, tint: .zero, box: PixelBox(x0: 0, y0: y0, x1: 10, y1: y1),
                anchorX: 0)
        }
        // All the work in rows 100..<140 of 0..<1000.
        let jobs = (0..<40).map { job(100 + $0, 101 + $0) }
        let strips = Canvas.strips(of: jobs, rows: 0..<1000, count: 4, work: 400)
        #expect(strips.first?.lowerBound == 0 && strips.last?.upperBound == 1000)
        for (a, b) in zip(strips, strips.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        // The busy rows are split, in 8-row bins, among the strips.
        #expect(strips.count >= 4)
        #expect(strips.allSatisfy { !$0.isEmpty })
        #expect(strips.filter { $0.overlaps(100..<140) }.count >= 3)
    }
}
