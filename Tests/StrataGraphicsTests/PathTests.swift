import Foundation
import Testing

@testable import StrataGraphics

/// Collects the polylines a flattening produces.
struct PolylineSink: FlatteningSink {
    var lines: [(Point, Point)] = []
    var current = Point.zero, start = Point.zero
    var closes = 0
    mutating func move(to p: Point) { current = p; start = p }
    mutating func line(to p: Point) { lines.append((current, p)); current = p }
    mutating func close() { closes += 1; current = start }
}

func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let len2 = dx * dx + dy * dy
    var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
    t = min(1, max(0, t))
    return p.distance(to: Point(x: a.x + t * dx, y: a.y + t * dy))
}

@Suite struct PathTests {
    @Test func buildingRecordsElementsAndCurrentPoint() {
        var p = Path()
        #expect(p.isEmpty && p.currentPoint == nil)
        p.move(to: Point(x: 1, y: 2))
        p.addLine(to: Point(x: 3, y: 4))
        p.addQuadCurve(to: Point(x: 5, y: 6), control: Point(x: 4, y: 9))
        p.addCurve(to: Point(x: 7, y: 8), control1: Point(x: 0, y: 0), control2: Point(x: 9, y: 9))
        #expect(p.currentPoint == Point(x: 7, y: 8))
        p.closeSubpath()
        #expect(p.currentPoint == Point(x: 1, y: 2))
        #expect(
            p.elements == [
                .move(to: Point(x: 1, y: 2)), .line(to: Point(x: 3, y: 4)),
                .quadCurve(to: Point(x: 5, y: 6), control: Point(x: 4, y: 9)),
                .curve(to: Point(x: 7, y: 8), control1: Point(x: 0, y: 0), control2: Point(x: 9, y: 9)),
                .closeSubpath,
            ])
    }

    @Test func aLineAfterCloseStartsANewSubpathAtTheOldStart() {
        var p = Path()
        p.move(to: Point(x: 1, y: 1))
        p.addLine(to: Point(x: 5, y: 1))
        p.closeSubpath()
        p.addLine(to: Point(x: 1, y: 9))
        #expect(p.elements.suffix(2) == [.move(to: Point(x: 1, y: 1)), .line(to: Point(x: 1, y: 9))])
    }

    @Test func aLineWithoutCurrentPointStartsASubpath() {
        var p = Path()
        p.addLine(to: Point(x: 3, y: 3))
        #expect(p.elements == [.move(to: Point(x: 3, y: 3)), .line(to: Point(x: 3, y: 3))])
        var q = Path()
        q.closeSubpath()
        #expect(q.isEmpty)
    }

    /// A path emptied is a new path: no elements, no current point, and no
    /// subpath for the next line to return to, whatever it kept.
    @Test(arguments: [false, true])
    func removingEverythingStartsAfresh(keepingCapacity: Bool) {
        var p = Path()
        p.move(to: Point(x: 1, y: 1))
        p.addLine(to: Point(x: 5, y: 1))
        p.closeSubpath()
        p.removeAll(keepingCapacity: keepingCapacity)
        #expect(p.isEmpty)
        #expect(p.currentPoint == nil)
        #expect(p == Path())
        p.addLine(to: Point(x: 7, y: 2))
        #expect(p.elements == [.move(to: Point(x: 7, y: 2)), .line(to: Point(x: 7, y: 2))])
        p.removeAll(keepingCapacity: keepingCapacity)
        p.closeSubpath()
        #expect(p.isEmpty)
    }

    @Test func rectEllipseAndRoundedRectShapes() {
        let r = Path(rect: Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(
            r.elements == [
                .move(to: Point(x: 1, y: 2)), .line(to: Point(x: 4, y: 2)), .line(to: Point(x: 4, y: 6)),
                .line(to: Point(x: 1, y: 6)), .closeSubpath,
            ])
        let e = Path(ellipseIn: Rect(x: 0, y: 0, width: 20, height: 10))
        #expect(e.boundingBoxOfPath == Rect(x: 0, y: 0, width: 20, height: 10))
        let rr = Path(roundedRect: Rect(x: 0, y: 0, width: 40, height: 20), cornerWidth: 50, cornerHeight: 5)
        let b = rr.boundingBoxOfPath
        #expect(abs(b.width - 40) < 1e-9 && abs(b.height - 20) < 1e-9)
    }

    @Test func exactBoundsExcludeControlPoints() {
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.addCurve(to: Point(x: 10, y: 0), control1: Point(x: 0, y: 10), control2: Point(x: 10, y: 10))
        #expect(p.boundingBox == Rect(x: 0, y: 0, width: 10, height: 10))
        let exact = p.boundingBoxOfPath
        #expect(abs(exact.maxY - 7.5) < 1e-12)  // the curve's peak: 3·¼·… = 7.5
        #expect(exact.minX == 0 && exact.maxX == 10)
        var q = Path()
        q.move(to: Point(x: 0, y: 0))
        q.addQuadCurve(to: Point(x: 10, y: 0), control: Point(x: 5, y: -10))
        #expect(abs(q.boundingBoxOfPath.minY + 5) < 1e-12)
        #expect(Path().boundingBox.isNull && Path().boundingBoxOfPath.isNull)
    }

    @Test func transformMovesEveryPoint() {
        let p = Path(rect: Rect(x: 0, y: 0, width: 1, height: 1)).applying(Transform(translationX: 5, y: 6))
        #expect(p.boundingBox == Rect(x: 5, y: 6, width: 1, height: 1))
    }

    @Test func arcEndsAtItsAnglesAndStaysOnTheCircle() {
        var p = Path()
        let c = Point(x: 50, y: 50)
        p.addArc(center: c, radius: 20, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let end = p.currentPoint!
        #expect(abs(end.x - 50) < 1e-9 && abs(end.y - 70) < 1e-9)
        for (a, b) in p.flattened(tolerance: 0.001).elements.compactMap({ e -> Point? in
            if case .line(let q) = e { return q } else { return nil }
        }).map({ ($0, c) }) {
            #expect(abs(a.distance(to: b) - 20) < 0.01)
        }
    }

    @Test(arguments: [
        (0.0, Double.pi / 2, false, Double.pi / 2),  // increasing angle
        (0.0, Double.pi / 2, true, -3 * Double.pi / 2),  // the long way round
        (0.0, -Double.pi / 2, false, 3 * Double.pi / 2),
        (0.0, 5 * Double.pi, false, 2 * Double.pi),  // more than a turn: one full circle
        (0.0, -5 * Double.pi, true, -2 * Double.pi),
    ])
    func arcDirectionFollowsCoreGraphics(start: Double, end: Double, clockwise: Bool, sweep: Double) {
        // The sweep shows in the signed area the arc encloses with its chord.
        var p = Path()
        p.addArc(center: .zero, radius: 1, startAngle: start, endAngle: end, clockwise: clockwise)
        var sink = PolylineSink()
        p.flatten(transform: .identity, tolerance: 1e-4, into: &sink)
        var area = 0.0
        for (a, b) in sink.lines { area += (a.x * b.y - b.x * a.y) / 2 }
        if let first = sink.lines.first?.0, let last = sink.lines.last?.1 { area += (last.x * first.y - first.x * last.y) / 2 }
        let expected = (sweep - sin(sweep)) / 2  // circular segment, signed
        #expect(abs(area - expected) < 1e-3, "area \(area), expected \(expected)")
    }

    @Test func tangentArcRoundsTheCorner() {
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.addArc(tangent1End: Point(x: 100, y: 0), tangent2End: Point(x: 100, y: 100), radius: 10)
        // A line to (90, 0), then a quarter circle about (90, 10) ending at (100, 10).
        guard case .line(let tangentPoint) = p.elements[1] else {
            Issue.record("expected a line to the first tangent point, got \(p.elements[1])")
            return
        }
        #expect(tangentPoint.distance(to: Point(x: 90, y: 0)) < 1e-9)
        let end = p.currentPoint!
        #expect(abs(end.x - 100) < 1e-9 && abs(end.y - 10) < 1e-9)
        var sink = PolylineSink()
        p.flatten(transform: .identity, tolerance: 1e-3, into: &sink)
        for (_, b) in sink.lines.dropFirst() {
            #expect(abs(b.distance(to: Point(x: 90, y: 10)) - 10) < 0.01)
        }
    }

    @Test func degenerateTangentArcsAreLines() {
        var p = Path()
        p.move(to: Point(x: 0, y: 0))
        p.addArc(tangent1End: Point(x: 10, y: 0), tangent2End: Point(x: 20, y: 0), radius: 5)  // collinear
        #expect(p.elements.last == .line(to: Point(x: 10, y: 0)))
        p.addArc(tangent1End: Point(x: 10, y: 10), tangent2End: Point(x: 0, y: 10), radius: 0)  // zero radius
        #expect(p.elements.last == .line(to: Point(x: 10, y: 10)))
        var q = Path()
        q.addArc(tangent1End: Point(x: 3, y: 4), tangent2End: Point(x: 5, y: 6), radius: 2)  // no current point
        #expect(q.elements == [.move(to: Point(x: 3, y: 4))])
    }

    @Test(arguments: [1.0, 0.25, 0.05])
    func flatteningStaysWithinTolerance(tolerance: Double) {
        let p0 = Point(x: 0, y: 0), p1 = Point(x: 30, y: 200), p2 = Point(x: 250, y: -80), p3 = Point(x: 300, y: 90)
        var path = Path()
        path.move(to: p0)
        path.addCurve(to: p3, control1: p1, control2: p2)
        path.addQuadCurve(to: Point(x: 0, y: 0), control: Point(x: 150, y: 300))
        var sink = PolylineSink()
        path.flatten(transform: .identity, tolerance: tolerance, into: &sink)
        for i in 0...1000 {
            let t = Double(i) / 1000
            for q in [Bezier.cubicPoint(p0, p1, p2, p3, t), Bezier.quadPoint(p3, Point(x: 150, y: 300), .zero, t)] {
                let d = sink.lines.map { distance(q, toSegment: $0.0, $0.1) }.min()!
                #expect(d <= tolerance * 1.0001, "point at t=\(t) is \(d) from the lines")
            }
        }
    }

    /// The two area-keeping lines of each flat piece stay within the
    /// tolerance of the curve both ways (every point of the curve near the
    /// lines, every corner of the lines near the curve), for random cubics
    /// (with and without inflections) and quadratics, while a quarter circle
    /// takes half the lines a test of the chord alone gave it.
    @Test func areaKeepingLinesStayWithinTolerance() {
        var r = SplitMix64(seed: 77)
        func point() -> Point { Point(x: r.uniform() * 200 - 100, y: r.uniform() * 200 - 100) }
        for round in 0..<300 {
            let tolerance = [0.1, 0.25, 1][round % 3]
            let p0 = point(), p1 = point(), p2 = point(), p3 = point()
            let cubic = round % 2 == 0
            var path = Path()
            path.move(to: p0)
            if cubic { path.addCurve(to: p3, control1: p1, control2: p2) } else { path.addQuadCurve(to: p3, control: p1) }
            var sink = PolylineSink()
            path.flatten(transform: .identity, tolerance: tolerance, into: &sink)
            let curve = (0...2000).map { i -> Point in
                let t = Double(i) / 2000
                return cubic ? Bezier.cubicPoint(p0, p1, p2, p3, t) : Bezier.quadPoint(p0, p1, p3, t)
            }
            var worst = 0.0
            for q in curve.enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
                worst = max(worst, sink.lines.map { distance(q, toSegment: $0.0, $0.1) }.min()!)
            }
            for (_, b) in sink.lines {
                var near = Double.infinity
                for i in 0..<(curve.count - 1) { near = min(near, distance(b, toSegment: curve[i], curve[i + 1])) }
                worst = max(worst, near)
            }
            #expect(worst <= tolerance * 1.0001, "round \(round): \(worst) from the curve at tolerance \(tolerance)")
        }
        // A quarter circle of radius 40 at the canvas's flatness: 8 pieces of
        // two lines (the chord test took 16).
        var corner = Path()
        corner.move(to: Point(x: 40, y: 0))
        let k = 0.5522847498 * 40
        corner.addCurve(to: Point(x: 0, y: 40), control1: Point(x: 40, y: k), control2: Point(x: k, y: 40))
        var sink = PolylineSink()
        corner.flatten(transform: .identity, tolerance: 0.1, into: &sink)
        #expect(sink.lines.count == 16)
    }

    /// A curve that halving would cut into a power of two of pieces, more
    /// than its bound needs, is cut into the fewest equal pieces that hold
    /// it (within the tolerance both ways), and a power of two stays one.
    /// (A parabola of more than 16 pieces is halved first: 24 → 2 × 9.)
    @Test(arguments: [(12.0, 5, 12), (16.0, 6, 14), (24.0, 7, 18), (32.0, 8, 20), (64.0, 11, 28), (100.0, 13, 36)])
    func curvesAreCutIntoTheFewestEqualPieces(radius: Double, pieces: Int, parabolaPieces: Int) {
        let k = 0.5522847498 * radius
        let p0 = Point(x: radius, y: 0), p1 = Point(x: radius, y: k), p2 = Point(x: k, y: radius)
        let p3 = Point(x: 0, y: radius)
        var corner = Path()
        corner.move(to: p0)
        corner.addCurve(to: p3, control1: p1, control2: p2)
        var sink = PolylineSink()
        corner.flatten(transform: .identity, tolerance: 0.1, into: &sink)
        #expect(sink.lines.count == 2 * pieces)
        var worst = 0.0
        for i in 0...1000 {
            let q = Bezier.cubicPoint(p0, p1, p2, p3, Double(i) / 1000)
            worst = max(worst, sink.lines.map { distance(q, toSegment: $0.0, $0.1) }.min()!)
        }
        #expect(worst <= 0.1 * 1.0001)
        // A parabola: |dd|² = 2r², its limit (12·tol)², so n⁴ ≥ 2r²/0.12².
        let c = Point(x: 0, y: radius * 0.5)
        var arch = Path()
        arch.move(to: .zero)
        arch.addQuadCurve(to: Point(x: radius, y: 0), control: c)
        var archLines = PolylineSink()
        arch.flatten(transform: .identity, tolerance: 0.01, into: &archLines)
        #expect(archLines.lines.count == 2 * parabolaPieces)
        for i in 0...1000 {
            let q = Bezier.quadPoint(.zero, c, Point(x: radius, y: 0), Double(i) / 1000)
            #expect(archLines.lines.map { distance(q, toSegment: $0.0, $0.1) }.min()! <= 0.01 * 1.0001)
        }
    }

    @Test func flatteningIsAdaptive() {
        var gentle = Path(), sharp = Path()
        gentle.move(to: .zero)
        gentle.addCurve(to: Point(x: 300, y: 0), control1: Point(x: 100, y: 5), control2: Point(x: 200, y: 5))
        sharp.move(to: .zero)
        sharp.addCurve(to: Point(x: 300, y: 0), control1: Point(x: 600, y: 400), control2: Point(x: -300, y: 400))
        #expect(gentle.flattened(tolerance: 0.25).elementCount < 10)
        #expect(sharp.flattened(tolerance: 0.25).elementCount > 30)
        // Halving the tolerance needs more lines, but only about √2 times as many.
        let a = sharp.flattened(tolerance: 0.2).elementCount, b = sharp.flattened(tolerance: 0.05).elementCount
        #expect(b > a && b < 4 * a)
    }

    @Test func hugeAndNonFiniteCurvesFlattenInBoundedWork() {
        var p = Path()
        p.move(to: .zero)
        p.addCurve(to: Point(x: 1e30, y: 1), control1: Point(x: -1e30, y: 1e30), control2: Point(x: 1e30, y: -1e30))
        p.addQuadCurve(to: Point(x: 0, y: 0), control: Point(x: .nan, y: .infinity))
        let n = p.flattened(tolerance: 0.25).elementCount
        #expect(n <= 2 + 2 * (1 << Path.maxSubdivisionDepth))
    }

    @Test func flattenTransformsBeforeMeasuringTolerance() {
        var p = Path()
        p.move(to: .zero)
        p.addQuadCurve(to: Point(x: 1, y: 0), control: Point(x: 0.5, y: 1))
        var small = PolylineSink(), big = PolylineSink()
        p.flatten(transform: .identity, tolerance: 0.25, into: &small)
        p.flatten(transform: Transform(scaleX: 100, y: 100), tolerance: 0.25, into: &big)
        #expect(big.lines.count > small.lines.count)
    }
}
