import Foundation
import Testing

@testable import StrataGraphics

/// Small scenes drawn by Strata and compared with the same scenes drawn by Skia
/// (Resources/skia-*.png, made by Resources/make_fixtures.py; each scene is
/// defined in both files). Skia samples coverage where Strata computes exact
/// areas, so edges differ by a few levels: the tolerance allows a mean difference
/// of 1.0 and a few percent of edge pixels over 8 levels, the same margin as
/// ../shared/bench's fidelity bar.
@Suite struct ReferenceImageTests {
    private func canvas(_ w: Int, _ h: Int) -> Canvas {
        let c = makeCanvas(w, h)
        c.fillColor = .white
        c.fill(c.bounds)
        return c
    }

    @Test func star() throws {
        let c = canvas(192, 96)
        var p = Path()
        for i in 0..<5 {
            let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
            let pt = Point(x: 48 + 40 * cos(a), y: 48 + 40 * sin(a))
            if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        c.fillColor = Color(red8: 240, green8: 150, blue8: 20)
        c.fill(p, rule: .evenOdd)
        c.fillColor = Color(red8: 20, green8: 120, blue8: 200, alpha8: 200)
        c.fill(p.applying(Transform(translationX: 96, y: 0)), rule: .winding)
        try expectMatches(c.makeImage(), reference: "skia-star.png", mean: 1.0, over8: 3)
    }

    @Test func circles() throws {
        let c = canvas(192, 72)
        for i in 0..<12 {
            let cx = 10.3 + Double(i) * 15.7, cy = 20.6 + Double(i % 3) * 21.3, r = 2.5 + Double(i) * 0.9
            c.fillColor = Color(red8: UInt8(30 + i * 15), green8: 90, blue8: UInt8(200 - i * 10), alpha8: i % 2 == 1 ? 255 : 160)
            c.fillEllipse(in: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
        }
        try expectMatches(c.makeImage(), reference: "skia-circles.png", mean: 1.0, over8: 6)
    }

    @Test func rects() throws {
        let c = canvas(192, 72)
        for i in 0..<10 {
            let x = 3.25 + Double(i) * 17.4, y = 4.5 + Double(i % 4) * 13.1
            c.fillColor = Color(red8: 200, green8: UInt8(40 + i * 20), blue8: 60, alpha8: 128)
            c.fill(Rect(x: x, y: y, width: 9.6 + Double(i), height: 30.3 - Double(i)))
        }
        try expectMatches(c.makeImage(), reference: "skia-rects.png", mean: 0.5, over8: 0.5)
    }

    @Test func curves() throws {
        let c = canvas(192, 100)
        var p = Path()
        p.move(to: Point(x: 10, y: 90))
        p.addCurve(to: Point(x: 120, y: 30), control1: Point(x: 30, y: 10), control2: Point(x: 90, y: 110))
        p.addQuadCurve(to: Point(x: 180, y: 70), control: Point(x: 160, y: 0))
        p.addLine(to: Point(x: 180, y: 90))
        p.closeSubpath()
        c.fillColor = Color(red8: 120, green8: 60, blue8: 200, alpha8: 220)
        c.fill(p)
        c.fillColor = Color(red8: 20, green8: 180, blue8: 90, alpha8: 128)
        c.fill(Path(roundedRect: Rect(x: 40.5, y: 50.25, width: 100, height: 40), cornerWidth: 12, cornerHeight: 12))
        try expectMatches(c.makeImage(), reference: "skia-curves.png", mean: 1.0, over8: 3)
    }
}
