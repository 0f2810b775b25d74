import Foundation
import Testing

@testable import StrataGraphics

@Suite struct PathMeasureTests {
    @Test func lengthsOfLinesRectsAndCircles() {
        var line = Path()
        line.move(to: .zero)
        line.addLine(to: Point(x: 3, y: 4))
        #expect(PathMeasure(line).length == 5)
        #expect(PathMeasure(Path(rect: Rect(x: 0, y: 0, width: 10, height: 20))).length == 60)
        let circle = PathMeasure(Path(ellipseIn: Rect(x: 0, y: 0, width: 100, height: 100)))
        // Four cubics stand for the circle, about 0.01 % long; the measure is exact to
        // its tolerance on the cubics themselves.
        #expect(abs(circle.length - 100 * Double.pi) < 0.05)
        #expect(abs(circle.length - PathMeasure(Path(ellipseIn: Rect(x: 0, y: 0, width: 100, height: 100)), tolerance: 1e-5).length) < 0.01)
        #expect(PathMeasure(Path()).length == 0)
    }

    @Test func positionAndTangentAtADistance() throws {
        let m = PathMeasure(Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)))
        let (p, t) = try #require(m.position(atDistance: 15))
        #expect(p == Point(x: 10, y: 5) && t == Point(x: 0, y: 1))
        let (q, u) = try #require(m.position(atDistance: 35))  // on the closing edge, going up
        #expect(q == Point(x: 0, y: 5) && u == Point(x: 0, y: -1))
        #expect(m.position(atDistance: -5)?.point == .zero)  // clamped
        #expect(m.position(atDistance: .nan) == nil)
        var arc = Path()
        arc.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        let (r, v) = try #require(PathMeasure(arc).position(atDistance: 5 * Double.pi))  // a quarter turn
        #expect(abs(r.x) < 1e-3 && abs(r.y - 10) < 1e-3 && abs(v.x + 1) < 1e-3)
    }

    @Test func trimmingLinesAndCurves() {
        var line = Path()
        line.move(to: .zero)
        line.addLine(to: Point(x: 10, y: 0))
        #expect(PathMeasure(line).trimmed(from: 0.2, to: 0.5).elements == [.move(to: Point(x: 2, y: 0)), .line(to: Point(x: 5, y: 0))])
        let circle = Path(ellipseIn: Rect(x: 0, y: 0, width: 100, height: 100))
        let half = PathMeasure(circle).trimmed(from: 0, to: 0.5)
        #expect(abs(PathMeasure(half).length - 50 * Double.pi) < 0.02)
        // Still curves, not a polyline.
        #expect(half.elements.contains { if case .curve = $0 { true } else { false } })
        let b = half.boundingBoxOfPath
        #expect(abs(b.minY - 50) < 0.01 && abs(b.maxY - 100) < 0.01)  // the lower half (+y first)
    }

    @Test func trimmingAcrossSubpaths() {
        var p = Path()
        p.move(to: .zero); p.addLine(to: Point(x: 10, y: 0))
        p.move(to: Point(x: 0, y: 5)); p.addLine(to: Point(x: 10, y: 5))
        let middle = PathMeasure(p).trimmed(from: 0.25, to: 0.75)
        #expect(
            middle.elements == [
                .move(to: Point(x: 5, y: 0)), .line(to: Point(x: 10, y: 0)),
                .move(to: Point(x: 0, y: 5)), .line(to: Point(x: 5, y: 5)),
            ])
    }

    @Test func wholeClosedSubpathsStayClosed() {
        let rect = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(PathMeasure(rect).trimmed(from: 0, to: 1).elements.last == .closeSubpath)
        #expect(PathMeasure(rect).trimmed(from: 0, to: 0.9).elements.last != .closeSubpath)
    }

    @Test func degenerateTrims() {
        let m = PathMeasure(Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(m.trimmed(from: 0.6, to: 0.4).isEmpty)
        #expect(m.trimmed(from: .nan, to: 1).isEmpty)
        #expect(m.trimmed(from: -3, to: 7) == m.trimmed(from: 0, to: 1))
        #expect(PathMeasure(Path()).trimmed(from: 0, to: 1).isEmpty)
    }

    @Test func trimmedStrokesDrawOnlyTheirPart() {
        // strokeEnd = 0.5 on a line across the canvas.
        var line = Path()
        line.move(to: Point(x: 0, y: 4))
        line.addLine(to: Point(x: 20, y: 4))
        let canvas = makeCanvas(20, 8)
        canvas.strokeColor = .white
        canvas.lineWidth = 2
        canvas.stroke(PathMeasure(line).trimmed(from: 0, to: 0.5))
        #expect(canvas.bitmap[9, 4].a == 255 && canvas.bitmap[10, 4].a == 0 && abs(coveredArea(canvas.bitmap) - 20) < 0.01)
    }
}
