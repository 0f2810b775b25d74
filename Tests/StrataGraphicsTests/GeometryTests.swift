import Testing

@testable import StrataGraphics

@Suite struct GeometryTests {
    @Test func saturatingConversionNeverTraps() {
        #expect(Int(saturating: .nan) == 0 && Int(saturating: 2.9) == 2 && Int(saturating: -2.9) == -2)
        #expect(Int(saturating: .infinity) == 1 << 52 && Int(saturating: -1e300) == -(1 << 52))
    }

    @Test func edgeInsetsTakeEachEdgeInAndHoldTheirValues() {
        let r = Rect(x: 10, y: 20, width: 100, height: 50)
        #expect(r.inset(by: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)) == Rect(x: 12, y: 21, width: 94, height: 46))
        #expect(r.inset(by: EdgeInsets(all: -5)) == Rect(x: 5, y: 15, width: 110, height: 60))
        // Past its size: no width left, at the middle of the two edges.
        #expect(r.inset(by: EdgeInsets(left: 80, right: 40)) == Rect(x: 80, y: 20, width: 0, height: 50))
        #expect(Rect(x: 110, y: 70, width: -100, height: -50).inset(by: EdgeInsets(all: 1)) == Rect(x: 11, y: 21, width: 98, height: 48))
        let held = EdgeInsets(top: .nan, left: .infinity, bottom: -1e30, right: 7)
        #expect(held == EdgeInsets(top: 0, left: 0, bottom: -1e7, right: 7))
        #expect(EdgeInsets(top: 1, left: 2, bottom: 3, right: 4).horizontal == 6 && EdgeInsets(top: 1, left: 2, bottom: 3, right: 4).vertical == 4)
        #expect(EdgeInsets.zero == EdgeInsets(all: 0))
    }

    @Test func rectEdgesAndStandardization() {
        let r = Rect(x: 10, y: 20, width: -4, height: 6)
        #expect(r.minX == 6 && r.maxX == 10 && r.minY == 20 && r.maxY == 26)
        #expect(r.standardized == Rect(x: 6, y: 20, width: 4, height: 6))
        #expect(r.midX == 8 && r.midY == 23)
    }

    @Test func rectIntersectionUnionAndNull() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        let b = Rect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.union(b) == Rect(x: 0, y: 0, width: 15, height: 15))
        #expect(a.intersection(Rect(x: 20, y: 20, width: 1, height: 1)).isNull)
        #expect(Rect.null.union(a) == a)
        #expect(Rect.null.isEmpty && Rect.zero.isEmpty && !a.isEmpty)
        #expect(a.intersects(b) && !a.intersects(Rect(x: 10, y: 0, width: 5, height: 5)))
    }

    @Test func rectContainment() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.contains(Point(x: 0, y: 0)))
        #expect(!a.contains(Point(x: 10, y: 5)))  // the right edge is outside
        #expect(a.contains(Rect(x: 1, y: 1, width: 9, height: 9)))
        #expect(!a.contains(Rect(x: 1, y: 1, width: 10, height: 9)))
    }

    @Test func rectIntegralAndInset() {
        #expect(Rect(x: 0.5, y: -0.25, width: 2, height: 1).integral == Rect(x: 0, y: -1, width: 3, height: 2))
        #expect(Rect(x: 0, y: 0, width: 10, height: 4).insetBy(dx: 2, dy: 1) == Rect(x: 2, y: 1, width: 6, height: 2))
        #expect(Rect(x: 0, y: 0, width: 10, height: 4).insetBy(dx: 6, dy: 0).isNull)
    }

    @Test func transformConcatenationOrderMatchesCoreGraphics() {
        // Scale first, then translate: (1, 1) → (2, 2) → (12, 2).
        let t = Transform(scaleX: 2, y: 2).concatenating(Transform(translationX: 10, y: 0))
        #expect(Point(x: 1, y: 1).applying(t) == Point(x: 12, y: 2))
        // translatedBy applies the translation first: (1, 1) → (11, 1) → (22, 2).
        let u = Transform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0)
        #expect(Point(x: 1, y: 1).applying(u) == Point(x: 22, y: 2))
    }

    @Test func rotationTurnsXTowardY() {
        let p = Point(x: 1, y: 0).applying(Transform(rotationAngle: .pi / 2))
        #expect(abs(p.x) < 1e-12 && abs(p.y - 1) < 1e-12)
    }

    @Test func inversionUndoesTheTransform() throws {
        let t = Transform(a: 2, b: 0.5, c: -1, d: 3, tx: 7, ty: -4)
        let inv = try #require(t.inverted())
        let p = Point(x: 3.5, y: -2)
        let q = p.applying(t).applying(inv)
        #expect(abs(q.x - p.x) < 1e-12 && abs(q.y - p.y) < 1e-12)
        let product = t.concatenating(inv)
        #expect(abs(product.a - 1) < 1e-12 && abs(product.b) < 1e-12 && abs(product.tx) < 1e-12)
    }

    @Test func singularTransformsHaveNoInverse() {
        #expect(Transform(scaleX: 0, y: 1).inverted() == nil)
        #expect(Transform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).inverted() == nil)
        #expect(Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted() == nil)
    }

    @Test func rectApplyingTransformIsTheCornersBoundingBox() {
        let r = Rect(x: 0, y: 0, width: 2, height: 1).applying(Transform(rotationAngle: .pi / 2))
        #expect(abs(r.minX + 1) < 1e-12 && abs(r.maxX) < 1e-12 && abs(r.maxY - 2) < 1e-12)
    }
}

@Suite struct ColorTests {
    @Test func premultipliedMultiplyIsExactlyRounded() {
        for x in 0...255 {
            for y in 0...255 {
                let exact = (Double(x) * Double(y) / 255).rounded()
                #expect(Double(Pixel.multiply(UInt8(x), UInt8(y))) == exact)
            }
        }
    }

    @Test func colorsPremultiply() {
        #expect(Color(red8: 200, green8: 100, blue8: 0, alpha8: 128).premultipliedPixel == Pixel(r: 100, g: 50, b: 0, a: 128))
        #expect(Color.white.premultipliedPixel == Pixel(r: 255, g: 255, b: 255, a: 255))
        #expect(Color(red: 2, green: -1, blue: .nan, alpha: 1).premultipliedPixel == Pixel(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func componentsAreClampedWhenMadeAndWhenChanged() {
        let bad = Color(red: .nan, green: 2, blue: -1, alpha: .infinity)
        #expect(bad == Color(red: 0, green: 1, blue: 0, alpha: 1))
        #expect(bad == bad)  // NaN components would make a colour unequal to itself
        var c = Color.white
        c.alpha = .nan
        c.red *= 3
        c.blue = -.infinity
        #expect(c.alpha == 0 && c.red == 1 && c.blue == 0)
        // Colours key dictionaries and sets.
        var counts: [Color: Int] = [:]
        for _ in 0..<3 { counts[Color(red: .nan, green: 0.5, blue: 0), default: 0] += 1 }
        #expect(counts.count == 1 && counts.values.first == 3)
        #expect(Color(white: .nan, alpha: .nan) == .clear)
        #expect(Color.red.withAlphaComponent(-5).alpha == 0)
    }

    @Test func packedPixelsRoundTrip() {
        let p = Pixel(r: 1, g: 2, b: 3, a: 4)
        #expect(Pixel(packed: p.packed) == p)
        #expect(p.packed == 0x0403_0201)
    }

    @Test func packedScaleMatchesPerChannelMultiply() {
        let p = Pixel(r: 255, g: 128, b: 7, a: 255)
        for k in [0, 1, 127, 128, 200, 255] as [UInt32] {
            let s = Pixel(packed: scalePacked(p.packed, k))
            #expect(
                s
                    == Pixel(
                        r: Pixel.multiply(255, UInt8(k)), g: Pixel.multiply(128, UInt8(k)),
                        b: Pixel.multiply(7, UInt8(k)), a: Pixel.multiply(255, UInt8(k))))
        }
    }
}
