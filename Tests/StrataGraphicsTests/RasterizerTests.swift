import Foundation
import Testing

@testable import StrataGraphics

/// Opaque white: a pixel's alpha then reads its coverage directly.
private let ink = Color.white

private func fillPath(_ path: Path, rule: FillRule = .winding, size: (Int, Int) = (8, 8)) -> Bitmap {
    let canvas = makeCanvas(size.0, size.1)
    canvas.fillColor = ink
    canvas.fill(path, rule: rule)
    return canvas.bitmap
}

/// The area of the unit square at (x, y) that falls in pixel (px, py).
private func overlap(_ x: Double, _ y: Double, _ px: Int, _ py: Int) -> Double {
    let w = max(0, min(x + 1, Double(px + 1)) - max(x, Double(px)))
    let h = max(0, min(y + 1, Double(py + 1)) - max(y, Double(py)))
    return w * h
}

@Suite struct RasterizerTests {
    /// A unit square at every quarter-pixel offset covers exactly its area, and
    /// each pixel exactly its share of it.
    @Test(arguments: 0..<16)
    func unitSquareCoversItsExactArea(offset: Int) {
        let x = 3 + Double(offset % 4) / 4, y = 2 + Double(offset / 4) / 4
        for useRectFastPath in [false, true] {
            let canvas = makeCanvas(8, 8)
            canvas.fillColor = ink
            if useRectFastPath {
                canvas.fill(Rect(x: x, y: y, width: 1, height: 1))
            } else {
                canvas.fill(Path(rect: Rect(x: x, y: y, width: 1, height: 1)))
            }
            for py in 0..<8 {
                for px in 0..<8 {
                    let expected = overlap(x, y, px, py) * 255
                    #expect(
                        abs(Double(canvas.bitmap[px, py].a) - expected) <= 0.5 + 1e-9,
                        "pixel (\(px), \(py)) of the square at (\(x), \(y)), fast path \(useRectFastPath)")
                }
            }
            #expect(abs(coveredArea(canvas.bitmap) - 1) <= 2.0 / 255)
        }
    }

    @Test func diagonalEdgesCoverExactArea() {
        // A right triangle with legs 4: area 8, and each pixel on the hypotenuse half covered.
        var p = Path()
        p.move(to: Point(x: 1, y: 1))
        p.addLine(to: Point(x: 5, y: 1))
        p.addLine(to: Point(x: 1, y: 5))
        p.closeSubpath()
        let b = fillPath(p)
        #expect(abs(coveredArea(b) - 8) < 4.0 / 255)
        #expect(b[1, 1].a == 255 && b[4, 1].a == 128 && b[1, 4].a == 128 && b[2, 3].a == 128 && b[4, 4].a == 0)
    }

    @Test func halfPixelShiftShows() {
        let a = fillPath(Path(rect: Rect(x: 2, y: 2, width: 3, height: 3)))
        let b = fillPath(Path(rect: Rect(x: 2.5, y: 2, width: 3, height: 3)))
        #expect(a[2, 3].a == 255 && b[2, 3].a == 128 && b[5, 3].a == 128 && a[5, 3].a == 0)
        // Sub-pixel: even a sixteenth of a pixel moves coverage.
        let c = fillPath(Path(rect: Rect(x: 2.0625, y: 2, width: 3, height: 3)))
        #expect(c[2, 3].a == 239 && c[5, 3].a == 16)
    }

    @Test func evenOddLeavesTheStarsCentreEmpty() {
        let winding = fillPath(star(center: Point(x: 16, y: 16), radius: 14), rule: .winding, size: (32, 32))
        let evenOdd = fillPath(star(center: Point(x: 16, y: 16), radius: 14), rule: .evenOdd, size: (32, 32))
        #expect(winding[16, 17].a == 255)
        #expect(evenOdd[16, 17].a == 0)
        // The points themselves are inside under both rules.
        #expect(winding[16, 6].a == 255 && evenOdd[16, 6].a == 255)
    }

    @Test func oppositeWindingsCancelUnderNonZero() {
        var p = Path(rect: Rect(x: 0, y: 0, width: 8, height: 8))
        // The same square traced the other way round cancels; traced the same way, it adds.
        p.move(to: Point(x: 2, y: 2)); p.addLine(to: Point(x: 2, y: 6)); p.addLine(to: Point(x: 6, y: 6)); p.addLine(to: Point(x: 6, y: 2));
        p.closeSubpath()
        let hole = fillPath(p)
        #expect(hole[4, 4].a == 0 && hole[1, 1].a == 255)
        var q = Path(rect: Rect(x: 0, y: 0, width: 8, height: 8))
        q.addRect(Rect(x: 2, y: 2, width: 4, height: 4))
        let doubled = fillPath(q)
        #expect(doubled[4, 4].a == 255)
        #expect(fillPath(q, rule: .evenOdd)[4, 4].a == 0)
    }

    @Test func hugeCoordinatesAreClippedExactly() {
        // A half plane given by points 1e30 away: x < 4.5 is inside.
        var p = Path()
        p.move(to: Point(x: -1e30, y: -1e30))
        p.addLine(to: Point(x: 4.5, y: -1e30))
        p.addLine(to: Point(x: 4.5, y: 1e30))
        p.addLine(to: Point(x: -1e30, y: 1e30))
        p.closeSubpath()
        let b = fillPath(p)
        for y in 0..<8 {
            #expect(b[0, y].a == 255 && b[3, y].a == 255 && b[4, y].a == 128 && b[5, y].a == 0 && b[7, y].a == 0)
        }
        // A sliver crossing the whole target at a slant, given with huge end points.
        var q = Path()
        q.move(to: Point(x: -1e30, y: -1e30))
        q.addLine(to: Point(x: 1e30, y: 1e30))
        q.addLine(to: Point(x: 1e30, y: 1e30 + 1e15))
        q.closeSubpath()
        _ = fillPath(q)
    }

    @Test func nonFinitePathsDrawNothing() {
        for bad in [Double.nan, .infinity, -.infinity] {
            var p = Path(rect: Rect(x: 1, y: 1, width: 5, height: 5))
            p.addLine(to: Point(x: bad, y: 3))
            #expect(coveredArea(fillPath(p)) == 0)
            let canvas = makeCanvas(8, 8)
            canvas.fillColor = ink
            canvas.fill(Rect(x: 1, y: bad, width: 3, height: 3))
            canvas.fillEllipse(in: Rect(x: bad, y: 1, width: 3, height: 3))
            #expect(coveredArea(canvas.bitmap) == 0)
        }
        // A transform that overflows to infinity counts too.
        let canvas = makeCanvas(8, 8)
        canvas.fillColor = ink
        canvas.scaleBy(x: 1e308, y: 1e308)
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(coveredArea(canvas.bitmap) == 0)
    }

    @Test func infiniteRectanglesReachTheClip() {
        let canvas = makeCanvas(8, 8)
        canvas.fillColor = ink
        canvas.fill(Rect(x: 2, y: 2, width: .infinity, height: 2))
        #expect(coveredArea(canvas.bitmap) == 12)
        canvas.fill(Rect(x: 0, y: .infinity, width: 2, height: -.infinity))  // y from ∞ − ∞: NaN
        canvas.fill(Rect(x: 0, y: 5, width: 1, height: -.infinity))  // y from −∞ to 5
        #expect(coveredArea(canvas.bitmap) == 12 + 5)
    }

    @Test func emptyTinyAndDegeneratePaths() {
        #expect(coveredArea(fillPath(Path())) == 0)
        var line = Path()
        line.move(to: Point(x: 1, y: 1))
        line.addLine(to: Point(x: 6, y: 6))  // no area
        #expect(coveredArea(fillPath(line)) == 0)
        var point = Path()
        point.move(to: Point(x: 3, y: 3))
        point.closeSubpath()
        #expect(coveredArea(fillPath(point)) == 0)
        let tiny = fillPath(Path(rect: Rect(x: 3.3, y: 3.3, width: 1e-6, height: 1e-6)))
        #expect(coveredArea(tiny) == 0)
        let zeroSize = makeCanvas(0, 0)
        zeroSize.fill(Path(rect: Rect(x: 0, y: 0, width: 5, height: 5)))
        zeroSize.fill(Rect(x: 0, y: 0, width: 5, height: 5))
        zeroSize.fillEllipse(in: Rect(x: 0, y: 0, width: 5, height: 5))
    }

    @Test func offTargetAndPartlyOffTargetPaths() {
        #expect(coveredArea(fillPath(Path(rect: Rect(x: 20, y: 2, width: 3, height: 3)))) == 0)
        #expect(coveredArea(fillPath(Path(rect: Rect(x: -20, y: 2, width: 3, height: 3)))) == 0)
        #expect(coveredArea(fillPath(Path(rect: Rect(x: 2, y: -20, width: 3, height: 3)))) == 0)
        let b = fillPath(Path(rect: Rect(x: -10, y: -10, width: 14, height: 20)))
        for y in 0..<8 {
            #expect(b[0, y].a == 255 && b[3, y].a == 255 && b[4, y].a == 0)
        }
        let right = fillPath(Path(ellipseIn: Rect(x: 4, y: -4, width: 16, height: 16)))
        #expect(right[7, 4].a == 255 && right[4, 4].a > 0 && right[0, 4].a == 0)
    }

    @Test func pathsWithMillionsOfSegmentsFinish() {
        // A sawtooth of two million segments across a 64-pixel canvas.
        var p = Path()
        let n = 1_000_000
        p.reserveCapacity(additionalElements: 2 * n + 2)
        p.move(to: Point(x: 0, y: 64))
        for i in 0..<n {
            let x = Double(i) * 64 / Double(n)
            p.addLine(to: Point(x: x, y: 10))
            p.addLine(to: Point(x: x + 32 / Double(n), y: 20))
        }
        p.addLine(to: Point(x: 64, y: 64))
        p.closeSubpath()
        let b = fillPath(p, size: (64, 64))
        #expect(b[30, 40].a == 255 && b[30, 5].a == 0)
        // Row 15 lies in the teeth (rows 10 ..< 20); on average 55 % of it is below
        // them. With 15 625 teeth to a pixel, each edge's x is rounded to Float
        // precision (2e-6 here, against teeth 3e-5 wide), so allow 3 %.
        #expect(abs(Double(b[30, 15].a) - 0.55 * 255) <= 8)
    }

    @Test func bandsJoinWithoutSeams() {
        // Wider than one band holds: 2000 px wide means bands of 523 rows.
        let canvas = makeCanvas(2000, 1200)
        canvas.fillColor = ink
        canvas.fill(Path(rect: Rect(x: 10.5, y: 100.25, width: 1980, height: 1000)))
        let rows = AreaRasterizer.bandRows(width: 1980)
        #expect(rows < 1000)
        for y in [100, 101, 100 + rows - 1, 100 + rows, 100 + rows + 1, 600, 1099, 1100] {
            let expected: UInt8 = y == 100 ? 191 : (y == 1100 ? 64 : 255)
            #expect(canvas.bitmap[500, y].a == expected, "row \(y)")
            if expected == 255 { #expect(canvas.bitmap[10, y].a == 128, "row \(y), left edge") }
        }
        // Each row's two half-covered edge pixels round 127.5 up to 128.
        #expect(abs(coveredArea(canvas.bitmap) - 1980 * 1000) <= 1000.0 / 255 + 1e-6)
    }

    @Test func ellipseFastPathMatchesTheCircleArea() {
        for r in [2.0, 5.5, 30.0] {
            let canvas = makeCanvas(80, 80)
            canvas.fillColor = ink
            canvas.fillEllipse(in: Rect(x: 40.3 - r, y: 39.6 - r, width: 2 * r, height: 2 * r))
            let area = coveredArea(canvas.bitmap)
            #expect(abs(area - Double.pi * r * r) < 0.01 * Double.pi * r * r + 0.5, "radius \(r): \(area)")
        }
    }
}

/// Inputs found in review that once crashed or drew wrongly.
@Suite struct ExtremeInputTests {
    @Test func coordinatesNearTheLargestDoubleClipExactly() {
        // The triangle (−1e308, 0), (1e308, 10), (−1e308, 10): over a 10 × 10 canvas
        // its top edge is all but horizontal at y ≈ 5, so the bottom half is filled.
        var p = Path()
        p.move(to: Point(x: -1e308, y: 0))
        p.addLine(to: Point(x: 1e308, y: 10))
        p.addLine(to: Point(x: -1e308, y: 10))
        p.closeSubpath()
        let canvas = makeCanvas(10, 10)
        canvas.fillColor = .white
        canvas.fill(p)
        for x in 0..<10 {
            #expect(canvas.bitmap[x, 2].a == 0 && canvas.bitmap[x, 7].a == 255, "column \(x)")
        }
        #expect(abs(coveredArea(canvas.bitmap) - 50) < 1)
        // Curves that large flatten without overflowing to infinity.
        var q = Path()
        q.move(to: Point(x: -1.5e308, y: -1.5e308))
        q.addCurve(to: Point(x: 1.5e308, y: 1.5e308), control1: Point(x: 1.7e308, y: -1.7e308), control2: Point(x: -1.7e308, y: 1.7e308))
        q.closeSubpath()
        canvas.fill(q)
    }

    @Test func hugeEllipsesFallBackToThePathFiller() {
        let canvas = makeCanvas(16, 16)
        canvas.fillColor = .white
        canvas.fillEllipse(in: Rect(x: -5e15, y: -5e15, width: 1e16, height: 1e16))
        #expect(coveredArea(canvas.bitmap) == 256)
        let edge = makeCanvas(16, 16)
        edge.fillColor = .white
        // An ellipse of radius 1e6 whose left edge runs down the canvas's middle.
        edge.fillEllipse(in: Rect(x: 8, y: 8 - 1e6, width: 2e6, height: 2e6))
        #expect(edge.bitmap[7, 8].a == 0 && edge.bitmap[8, 8].a == 255)
    }

    @Test func ellipseFastPathKeepsItsOuterSlivers() {
        let canvas = makeCanvas(24, 24)
        canvas.fillColor = .white
        canvas.fillEllipse(in: Rect(x: 0, y: 0, width: 20, height: 20))
        // The area-matched polygon reaches just past the rectangle at its extremes.
        #expect(canvas.bitmap[20, 10].a > 0 && canvas.bitmap[10, 20].a > 0)
        #expect(abs(coveredArea(canvas.bitmap) - Double.pi * 100) < 0.5)
    }

    @Test func hugeArcSweepsAreBounded() {
        var p = Path()
        p.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: 1e300)
        #expect(p.elementCount <= 2 + 4 * 1024)
        var q = Path()
        q.addArc(center: .zero, radius: 1e300, startAngle: 0, endAngle: 1, clockwise: false)
        let canvas = makeCanvas(8, 8)
        canvas.fill(q)
    }

    @Test func wholeTurnsMeanFullCircles() {
        var p = Path()
        p.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 4 * .pi, clockwise: true)
        #expect(p.elementCount == 5)  // a move and four quarter-turn cubics
        var q = Path()
        q.addArc(center: .zero, radius: 1, startAngle: 1, endAngle: 1, clockwise: false)
        #expect(q.elementCount == 1)  // no sweep: just the start point
    }

    @Test func infiniteClipUnderAScaleStillClipsToTheCanvas() {
        let canvas = makeCanvas(8, 8)
        canvas.scaleBy(x: 3, y: 3)
        canvas.clip(to: .infinite)
        canvas.fillColor = .white
        canvas.fill(Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(coveredArea(canvas.bitmap) == 64)
        #expect(Rect.infinite.applying(Transform(scaleX: 3, y: 3)) == .infinite)
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).applying(Transform(scaleX: .nan, y: 1)).isNull)
    }

    @Test func imageSizesThatOverflowThrow() {
        #expect(throws: GraphicsError.self) { try Image(width: 1, height: 2, bytesPerRow: Int.max, premultipliedPixels: []) }
    }
}

/// A five-pointed star drawn in one stroke (each point joined to the one two
/// along), so that it crosses itself: its centre is inside under the non-zero
/// rule and outside under even-odd. The first point is straight up from
/// `center`.
private func star(center: Point, radius: Double) -> Path {
    var p = Path()
    for i in 0..<5 {
        let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
        let pt = Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
        if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
    }
    p.closeSubpath()
    return p
}
