import Foundation
import Testing

@testable import StrataGraphics

/// `shouldAntialias = false`: every pixel wholly in or out, by whether its
/// centre lies inside the shape.
@Suite struct AntialiasingTests {
    /// Every pixel's alpha is 0 or 255, and 255 exactly where `inside` says its
    /// centre is (pixels whose centre is within `margin` of the boundary, as
    /// `distance` measures it, are not judged).
    func expectCentreRule(
        _ canvas: Canvas, margin: Double = 0.02, _ inside: (Double, Double) -> (Bool, Double),
        _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var wrong = 0, partial = 0
        for y in 0..<canvas.bitmap.height {
            for x in 0..<canvas.bitmap.width {
                let a = canvas.bitmap[x, y].a
                if a != 0 && a != 255 { partial += 1 }
                let (isInside, distance) = inside(Double(x) + 0.5, Double(y) + 0.5)
                if distance > margin && (a == 255) != isInside { wrong += 1 }
            }
        }
        #expect(partial == 0 && wrong == 0, "\(label): \(partial) partly covered, \(wrong) on the wrong side", sourceLocation: sourceLocation)
    }

    @Test func filledPathsCoverThePixelsWhoseCentresAreInside() {
        let canvas = makeCanvas(40, 40)
        canvas.shouldAntialias = false
        canvas.fillEllipse(in: Rect(x: 4.3, y: 5.8, width: 29.4, height: 27.1))
        let (cx, cy, rx, ry) = (4.3 + 14.7, 5.8 + 13.55, 14.7, 13.55)
        // The flattened ellipse strays up to 0.1 px from the curve.
        expectCentreRule(
            canvas, margin: 0.15,
            { x, y in
                let d = ((x - cx) / rx) * ((x - cx) / rx) + ((y - cy) / ry) * ((y - cy) / ry)
                return (d < 1, abs(d.squareRoot() - 1) * min(rx, ry))
            }, "ellipse")
        // A star, even-odd: its centre is empty.
        let star = makeCanvas(40, 40)
        star.shouldAntialias = false
        var p = Path()
        for i in 0..<5 {
            let a = Double(i) * 4 * Double.pi / 5 - Double.pi / 2
            let pt = Point(x: 20 + 17 * cos(a), y: 20.3 + 17 * sin(a))
            if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        star.fill(p, rule: .evenOdd)
        #expect(star.bitmap[20, 20].a == 0 && star.bitmap[20, 6].a == 255)
        #expect(alphas(star.bitmap).joined().allSatisfy { $0 == 0 || $0 == 255 })
    }

    @Test func rectanglesSnapByTheCentreRule() {
        let canvas = makeCanvas(20, 20)
        canvas.shouldAntialias = false
        // Centres at 2.5 … : x from 2.4 covers 2 (2.5 ≥ 2.4); to 7.5 covers up to 6
        // (7.5 is not < 7.5).
        canvas.fill(Rect(x: 2.4, y: 3.6, width: 5.1, height: 4.0))
        expectCentreRule(
            canvas,
            { x, y in
                (x >= 2.4 && x < 7.5 && y >= 3.6 && y < 7.6, min(abs(x - 2.4), abs(x - 7.5), abs(y - 3.6), abs(y - 7.6)))
            }, "rect")
        #expect(canvas.bitmap[2, 4].a == 255 && canvas.bitmap[7, 4].a == 0 && canvas.bitmap[4, 3].a == 0 && canvas.bitmap[4, 7].a == 255)
        // Rotated: through the path filler.
        let turned = makeCanvas(30, 30)
        turned.shouldAntialias = false
        turned.translateBy(x: 15, y: 15)
        turned.rotate(by: 0.3)
        turned.fill(Rect(x: -8, y: -5, width: 16, height: 10))
        expectCentreRule(
            turned,
            { x, y in
                let (dx, dy) = (x - 15, y - 15)
                let u = dx * cos(0.3) + dy * sin(0.3), v = -dx * sin(0.3) + dy * cos(0.3)
                return (abs(u) < 8 && abs(v) < 5, min(abs(abs(u) - 8), abs(abs(v) - 5)))
            }, "rotated rect")
    }

    @Test func strokesCoverThePixelsWhoseCentresAreInside() {
        let canvas = makeCanvas(40, 40)
        canvas.shouldAntialias = false
        canvas.lineWidth = 3.3
        var p = Path()
        p.move(to: Point(x: 4.2, y: 7.7))
        p.addLine(to: Point(x: 35.1, y: 30.4))
        canvas.stroke(p)
        let (ax, ay, bx, by) = (4.2, 7.7, 35.1, 30.4)
        let len = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
        expectCentreRule(
            canvas,
            { x, y in
                let u = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len
                let v = abs(-(x - ax) * (by - ay) + (y - ay) * (bx - ax)) / len
                return (u > 0 && u < len && v < 1.65, min(abs(u), abs(u - len), abs(v - 1.65)))
            }, "line")
        // A thin line is one pixel wide and solid, not faded.
        let thin = makeCanvas(20, 10)
        thin.shouldAntialias = false
        thin.lineWidth = 0.3
        var h = Path()
        h.move(to: Point(x: 2, y: 5.2))
        h.addLine(to: Point(x: 18, y: 5.2))
        thin.stroke(h)
        #expect(thin.bitmap[10, 5].a == 255 && thin.bitmap[10, 4].a == 0 && thin.bitmap[10, 6].a == 0)
        // Dashed and with round joins, still only whole pixels.
        let dashed = makeCanvas(40, 40)
        dashed.shouldAntialias = false
        dashed.strokeStyle = StrokeStyle(lineWidth: 4, lineCap: .round, lineJoin: .round, dashLengths: [6, 3])
        dashed.stroke(Path(ellipseIn: Rect(x: 5, y: 5, width: 30, height: 28)))
        #expect(alphas(dashed.bitmap).joined().allSatisfy { $0 == 0 || $0 == 255 })
        #expect(alphas(dashed.bitmap).joined().contains(255))
    }

    @Test func clipsAndImagesToo() {
        let canvas = makeCanvas(30, 30)
        canvas.shouldAntialias = false
        canvas.clip(to: Path(ellipseIn: Rect(x: 3.3, y: 2.9, width: 23, height: 24.2)))
        canvas.fill(canvas.bounds)
        #expect(alphas(canvas.bitmap).joined().allSatisfy { $0 == 0 || $0 == 255 })
        let white = try! Image(width: 2, height: 2, premultipliedPixels: [UInt8](repeating: 255, count: 16))
        let drawn = makeCanvas(20, 20)
        drawn.shouldAntialias = false
        drawn.draw(white, in: Rect(x: 3.3, y: 4.7, width: 10.1, height: 6.2))
        #expect(alphas(drawn.bitmap).joined().allSatisfy { $0 == 0 || $0 == 255 })
        #expect(drawn.bitmap[3, 5].a == 255 && drawn.bitmap[3, 4].a == 0 && drawn.bitmap[13, 6].a == 0)
    }

    @Test func bothSwitchesMustAllowIt() {
        func drawn(_ allow: Bool, _ should: Bool) -> Bool {
            let c = makeCanvas(10, 10)
            c.allowsAntialiasing = allow
            c.shouldAntialias = should
            c.fill(Rect(x: 2.5, y: 2.5, width: 5, height: 5))
            return c.bitmap[2, 2].a != 0 && c.bitmap[2, 2].a != 255
        }
        #expect(drawn(true, true) && !drawn(false, true) && !drawn(true, false) && !drawn(false, false))
        // shouldAntialias is saved and restored with the state; allowsAntialiasing is not.
        let c = makeCanvas(4, 4)
        c.saveGState()
        c.shouldAntialias = false
        c.allowsAntialiasing = false
        c.restoreGState()
        #expect(c.shouldAntialias && !c.allowsAntialiasing)
    }
}
