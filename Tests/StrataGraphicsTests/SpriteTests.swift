import StrataGraphics
import Testing

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
        c.drawSprites([img], [Sprite(image: 0, transform: t, color: .white),
                              Sprite(image: 3, transform: .identity, color: .white),
                              Sprite(image: 0, transform: Transform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0), color: .white),
                              Sprite(image: 0, transform: Transform(translationX: .nan, y: 0), color: .white)])
        // Turned a quarter: the orange half (top) now on the right of the centre.
        #expect(c.bitmap[26, 20].r > 200 && c.bitmap[14, 20].b > 100)
        #expect(c.bitmap[2, 2] == Pixel(r: 0, g: 0, b: 0, a: 0))
    }
}
