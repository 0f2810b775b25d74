import Foundation
import Testing

@testable import StrataGraphics

private func strokeArea(
    _ path: Path, _ style: StrokeStyle, size: (Int, Int) = (24, 24),
    transform: Transform = .identity
) -> (Bitmap, Double) {
    let canvas = makeCanvas(size.0, size.1)
    canvas.concatenate(transform)
    canvas.strokeColor = .white
    canvas.strokeStyle = style
    canvas.stroke(path)
    return (canvas.bitmap, coveredArea(canvas.bitmap))
}

private func polyline(_ points: [(Double, Double)]) -> Path {
    var p = Path()
    p.addLines(between: points.map { Point(x: $0.0, y: $0.1) })
    return p
}

@Suite struct StrokeTests {
    @Test(arguments: [(LineCap.butt, 12.0), (.square, 16.0), (.round, 12 + Double.pi)])
    func capsAddTheirArea(cap: LineCap, expected: Double) {
        let (_, area) = strokeArea(polyline([(4, 10), (10, 10)]), StrokeStyle(lineWidth: 2, lineCap: cap))
        #expect(abs(area - expected) < 0.06, "\(cap): \(area)")
    }

    @Test(arguments: [(LineJoin.miter, 32.0), (.round, 31 + Double.pi / 4), (.bevel, 31.5)])
    func joinsFillTheOuterCorner(join: LineJoin, expected: Double) {
        let (_, area) = strokeArea(polyline([(2, 10), (10, 10), (10, 2)]), StrokeStyle(lineWidth: 2, lineJoin: join))
        #expect(abs(area - expected) < 0.06, "\(join): \(area)")
    }

    @Test func miterLimitSwitchesToBevel() {
        // A 30° corner: its miter is 1/sin(15°) ≈ 3.86 widths long.
        let a = 15.0 * Double.pi / 180
        var corner = Path()
        corner.move(to: Point(x: 4, y: 16))
        corner.addLine(to: Point(x: 20, y: 16 - 16 * tan(a)))  // heading up-right at 15°
        corner.addLine(to: Point(x: 4, y: 16 - 32 * tan(a)))  // and back at −15°: a 30° corner
        let mitered = strokeArea(corner, StrokeStyle(lineWidth: 2, lineJoin: .miter, miterLimit: 4), size: (32, 32)).1
        let limited = strokeArea(corner, StrokeStyle(lineWidth: 2, lineJoin: .miter, miterLimit: 3.8), size: (32, 32)).1
        let bevelled = strokeArea(corner, StrokeStyle(lineWidth: 2, lineJoin: .bevel), size: (32, 32)).1
        #expect(mitered > bevelled + 1)  // the spike is there
        #expect(abs(limited - bevelled) < 0.01)  // and cut off below its length
    }

    @Test func dashesFollowPatternAndPhase() {
        // Dashes of 4 with gaps of 2, starting 1 unit into the pattern, on x 2 … 22.
        let (b, _) = strokeArea(polyline([(2, 5), (22, 5)]), StrokeStyle(lineWidth: 2, dashPhase: 1, dashLengths: [4, 2]), size: (24, 8))
        // On: [2, 5), [7, 11), [13, 17), [19, 22).
        let expected: [UInt8] = (0..<24).map { x in
            let on = (2..<5).contains(x) || (7..<11).contains(x) || (13..<17).contains(x) || (19..<22).contains(x)
            return on ? 255 : 0
        }
        #expect((0..<24).map { b[$0, 5].a } == expected)
        #expect((0..<24).map { b[$0, 4].a } == expected)
    }

    @Test func dashesContinueAcrossCorners() {
        // An L of two 6-unit legs with dashes of 5 and gaps of 2: the second dash
        // runs from 7 to 12 along the path, round the corner at 6.
        let (b, _) = strokeArea(
            polyline([(2, 4), (8, 4), (8, 10)]), StrokeStyle(lineWidth: 2, lineJoin: .miter, dashLengths: [5, 2]), size: (16, 16))
        #expect(b[3, 4].a == 255 && b[7, 4].a == 0 && b[8, 4].a == 0 && b[8, 5].a == 255 && b[8, 9].a == 255)
    }

    @Test(arguments: [[Double](), [0, 0], [-1, 2], [.nan, 2], [.infinity, 1]])
    func degenerateDashPatternsDrawSolid(lengths: [Double]) {
        let solid = strokeArea(polyline([(2, 5), (20, 5)]), StrokeStyle(lineWidth: 2)).1
        let dashed = strokeArea(polyline([(2, 5), (20, 5)]), StrokeStyle(lineWidth: 2, dashLengths: lengths)).1
        #expect(dashed == solid)
    }

    @Test func tinyDashesOnALongPathAreCutOnlyWhereVisible() {
        // A million units long, dashes of a thousandth: 10⁹ dashes in all, of
        // which the 24 visible pixels hold 12 000. Only those are cut, and the
        // line is dashed, not solid: half its area.
        let solid = strokeArea(polyline([(0, 5), (1e6, 5)]), StrokeStyle(lineWidth: 2)).1
        let dashed = strokeArea(polyline([(0, 5), (1e6, 5)]), StrokeStyle(lineWidth: 2, dashLengths: [1e-3, 1e-3])).1
        #expect(abs(solid - 48) < 0.01)
        #expect(abs(dashed - 24) < 0.1, "\(dashed)")
        // Starting far to the left: the pattern is advanced by arithmetic there.
        let offLeft = strokeArea(polyline([(-1e12, 5), (30, 5)]), StrokeStyle(lineWidth: 2, dashLengths: [2, 2])).1
        #expect(abs(offLeft - 24) < 0.5, "\(offLeft)")
    }

    @Test func dashesBeyondTheLimitAreNotDrawn() {
        // 12 million dashes in view: the first million (the first 2 units of the
        // line) are drawn, the rest not, rather than a solid line or a hang.
        let (b, _) = strokeArea(polyline([(0, 5), (24, 5)]), StrokeStyle(lineWidth: 2, dashLengths: [1e-6, 1e-6]))
        #expect(abs(Int(b[0, 5].a) - 128) <= 2, "\(b[0, 5])")
        #expect(b[1, 5].a > 100)
        // (Half a million dashes summed in one pixel leave a rounding residue of
        // a level or so in the cells to their right.)
        #expect(b[3, 5].a <= 2 && b[20, 5].a <= 2)
    }

    @Test func dashesDoNotMoveWhenThePathIsScrolledPartlyOutOfView() {
        // A dashed circle drawn whole, and drawn 40 pixels further left so half
        // of it is off the canvas: the visible dashes are the same pixels (to a
        // level: the device coordinates, less 40, round differently in the
        // rasterizer's single precision; a dash moved would be tens of
        // levels off).
        var circle = Path()
        circle.addEllipse(in: Rect(x: 10, y: 10, width: 60, height: 60))
        let style = StrokeStyle(lineWidth: 3, lineCap: .round, dashPhase: 1.3, dashLengths: [7, 3.5])
        let whole = makeCanvas(80, 80)
        whole.strokeStyle = style
        whole.strokeColor = .white
        whole.stroke(circle)
        let scrolled = makeCanvas(40, 80)
        scrolled.translateBy(x: -40, y: 0)
        scrolled.strokeStyle = style
        scrolled.strokeColor = .white
        scrolled.stroke(circle)
        for y in 0..<80 {
            for x in 0..<40 {
                let a = scrolled.bitmap[x, y], b = whole.bitmap[x + 40, y]
                #expect(abs(Int(a.a) - Int(b.a)) <= 1 && abs(Int(a.r) - Int(b.r)) <= 1, "(\(x), \(y)): \(a) \(b)")
            }
        }
    }

    @Test func zeroLengthDashesWithRoundCapsAreDots() {
        let (b, area) = strokeArea(polyline([(2, 8), (22, 8)]), StrokeStyle(lineWidth: 4, lineCap: .round, dashLengths: [0, 10]), size: (26, 16))
        // Dots at 2, 12 and 22.
        #expect(abs(area - 3 * Double.pi * 4) < 0.3)
        #expect(b[12, 8].a == 255 && b[7, 8].a == 0)
    }

    @Test func hairlinesStayVisibleAndFade() {
        // Width 0: one device pixel; centred on a pixel row at y = 5.5 it fills it.
        let (b0, a0) = strokeArea(polyline([(2, 5.5), (12, 5.5)]), StrokeStyle(lineWidth: 0), size: (16, 10))
        #expect(b0[6, 5].a == 255 && b0[6, 4].a == 0 && abs(a0 - 10) < 0.01)
        // Width 0.5: the same pixel, half the alpha.
        let (b1, _) = strokeArea(polyline([(2, 5.5), (12, 5.5)]), StrokeStyle(lineWidth: 0.5), size: (16, 10))
        #expect(b1[6, 5].a == 128)
        // On a pixel boundary (y = 5) a hairline shares two rows.
        let (b2, _) = strokeArea(polyline([(2, 5), (12, 5)]), StrokeStyle(lineWidth: 0), size: (16, 10))
        #expect(b2[6, 4].a == 128 && b2[6, 5].a == 128)
        // Scaled down by a transform: still a visible pixel, faded by the width.
        let (b3, _) = strokeArea(
            polyline([(4, 11), (24, 11)]), StrokeStyle(lineWidth: 1), size: (16, 10),
            transform: Transform(scaleX: 0.5, y: 0.5))
        #expect(b3[6, 5].a == 128)
    }

    @Test func zeroLengthSegmentsDrawTheirCaps() {
        let dot = strokeArea(polyline([(8, 8), (8, 8)]), StrokeStyle(lineWidth: 6, lineCap: .round), size: (16, 16)).1
        #expect(abs(dot - Double.pi * 9) < 0.3)
        let square = strokeArea(polyline([(8, 8), (8, 8)]), StrokeStyle(lineWidth: 6, lineCap: .square), size: (16, 16)).1
        #expect(abs(square - 36) < 0.01)
        let butt = strokeArea(polyline([(8, 8), (8, 8)]), StrokeStyle(lineWidth: 6, lineCap: .butt), size: (16, 16)).1
        #expect(butt == 0)
        var lone = Path()
        lone.move(to: Point(x: 8, y: 8))
        #expect(strokeArea(lone, StrokeStyle(lineWidth: 6, lineCap: .round), size: (16, 16)).1 == 0)
    }

    @Test func aFullReversalEndsRound() {
        // Out and straight back: with round joins the turn is a half disc.
        let there = strokeArea(polyline([(4, 8), (14, 8)]), StrokeStyle(lineWidth: 4, lineCap: .butt), size: (24, 16)).1
        let back = strokeArea(polyline([(4, 8), (14, 8), (4, 8)]), StrokeStyle(lineWidth: 4, lineCap: .butt, lineJoin: .round), size: (24, 16)).1
        #expect(abs(back - (there + 2 * Double.pi)) < 0.1)
        // With a miter join the reversal is bevelled flat: no spike to infinity.
        let mitre = strokeArea(polyline([(4, 8), (14, 8), (4, 8)]), StrokeStyle(lineWidth: 4, lineJoin: .miter), size: (24, 16)).1
        #expect(abs(mitre - there) < 0.05)
    }

    @Test func overlapsAreNotDarker() {
        // Tracing the same line three times covers exactly what tracing it once does.
        let once = strokeArea(polyline([(3, 3.3), (20, 17.1)]), StrokeStyle(lineWidth: 1.5, lineJoin: .round)).0
        let thrice = strokeArea(polyline([(3, 3.3), (20, 17.1), (3, 3.3), (20, 17.1)]), StrokeStyle(lineWidth: 1.5, lineJoin: .round)).0
        for y in 0..<24 {
            for x in 0..<24 where x > 4 && x < 19 {
                #expect(abs(Int(once[x, y].a) - Int(thrice[x, y].a)) <= 1, "(\(x), \(y))")
            }
        }
    }

    @Test func closedSubpathsLeaveTheirInsideEmpty() {
        let (b, area) = strokeArea(Path(rect: Rect(x: 4, y: 4, width: 12, height: 10)), StrokeStyle(lineWidth: 2))
        #expect(b[10, 9].a == 0 && b[4, 9].a == 255)
        #expect(abs(area - (14 * 12 - 10 * 8)) < 0.01)
    }

    @Test func badWidthsAndTransformsDrawNothing() {
        for w in [-1.0, .nan, -.infinity] {
            #expect(strokeArea(polyline([(2, 5), (20, 5)]), StrokeStyle(lineWidth: w)).1 == 0)
        }
        #expect(strokeArea(polyline([(2, 5), (20, 5)]), StrokeStyle(lineWidth: 2), transform: Transform(scaleX: 0, y: 1)).1 == 0)
        #expect(strokeArea(polyline([(2, 5), (.nan, 5)]), StrokeStyle(lineWidth: 2)).1 == 0)
        #expect(strokeArea(polyline([(2, 5), (.infinity, 5)]), StrokeStyle(lineWidth: 2)).1 == 0)
        // Huge but finite: clipped.
        #expect(abs(strokeArea(polyline([(-1e30, 5), (1e30, 5)]), StrokeStyle(lineWidth: 2)).1 - 48) < 0.01)
    }

    @Test func curvesStrokeSmoothlyWhateverTheJoin() {
        // A circle stroked with miter joins: the flattening's corners are not joins.
        let circle = Path(ellipseIn: Rect(x: 4, y: 4, width: 16, height: 16))
        let miter = strokeArea(circle, StrokeStyle(lineWidth: 2, lineJoin: .miter)).1
        let bevel = strokeArea(circle, StrokeStyle(lineWidth: 2, lineJoin: .bevel)).1
        #expect(abs(miter - bevel) < 0.01)
        #expect(abs(miter - Double.pi * (81 - 49)) < 0.5)  // the ring between radii 9 and 7
    }

    @Test func nonUniformScaleStretchesThePen() {
        let (b, area) = strokeArea(
            polyline([(2, 2), (10, 2)]), StrokeStyle(lineWidth: 1), size: (24, 24),
            transform: Transform(scaleX: 2, y: 4))
        // The unit-wide line becomes 4 pixels tall and 16 long.
        #expect(abs(area - 64) < 0.01 && b[10, 6].a == 255 && b[10, 10].a == 0)
    }

    @Test func cuspsInCubicsStayRound() {
        // This cubic turns back on itself at a cusp at (30.25, 11); with miter
        // joins a polyline corner there would spike far past the stroke.
        var cusp = Path()
        cusp.move(to: Point(x: 5, y: 20))
        cusp.addCurve(to: Point(x: 45, y: 20), control1: Point(x: 52, y: 8), control2: Point(x: 12, y: 8))
        let (b, _) = strokeArea(cusp, StrokeStyle(lineWidth: 4, lineJoin: .miter, miterLimit: 10), size: (50, 30))
        var top = 30
        for y in 0..<30 where (0..<50).contains(where: { b[$0, y].a > 0 }) { top = min(top, y) }
        #expect(top >= 8, "ink reaches row \(top)")  // the curve's top is 11, minus half the width: 9
    }
}

/// Grid lines: separate parallel axis-aligned segments are filled as
/// rectangles; they match the stroker's picture of the same lines drawn as
/// one polyline with collinear joins (which goes through the stroker).
@Suite struct AxisAlignedStrokeTests {
    func picture(_ path: Path, _ style: StrokeStyle, transform: Transform = .identity) -> [[UInt8]] {
        let canvas = makeCanvas(64, 48)
        canvas.concatenate(transform)
        canvas.strokeColor = .white
        canvas.strokeStyle = style
        canvas.stroke(path)
        return alphas(canvas.bitmap)
    }

    func worst(_ a: [[UInt8]], _ b: [[UInt8]]) -> Int {
        zip(a, b).map { zip($0, $1).map { abs(Int($0) - Int($1)) }.max() ?? 0 }.max() ?? 0
    }

    @Test(arguments: [
        (1.0, [Double](), Transform.identity), (1.0, [3, 3], .identity), (2.5, [6, 4], .identity), (0.5, [], .identity),
        (1.0, [3, 3], Transform(scaleX: 2, y: 1.5)), (1.0, [2, 1, 0.5, 1], Transform(translationX: 0.3, y: 0.7)),
        (1.0, [3, 3], Transform(scaleX: -1, y: 1).concatenating(Transform(translationX: 64, y: 0))),
    ])
    func rectanglesMatchTheStroker(width: Double, dashes: [Double], transform: Transform) {
        var style = StrokeStyle(lineWidth: width, lineCap: .butt)
        style.dashLengths = dashes
        style.dashPhase = 1
        for horizontal in [true, false] {
            // The lines alone, and the same lines as polylines through their
            // midpoints (collinear joins: the stroker).
            var separate = Path(), stroked = Path()
            for k in 0..<4 {
                let c = 6.5 + Double(k) * 9.3
                let a = horizontal ? Point(x: 3.2, y: c) : Point(x: c, y: 2.7)
                let b = horizontal ? Point(x: 40.6, y: c) : Point(x: c, y: 40.1)
                separate.move(to: a)
                separate.addLine(to: b)
                stroked.move(to: a)
                stroked.addLine(to: Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
                stroked.addLine(to: b)
            }
            #expect(Canvas.axisAlignedStrokeRects(separate, style: style, halfWidth: width / 2, transform: transform) != nil)
            let fast = picture(separate, style, transform: transform)
            #expect(Canvas.axisAlignedStrokeRects(stroked, style: style, halfWidth: width / 2, transform: transform) == nil)
            let slow = picture(stroked, style, transform: transform)
            #expect(worst(fast, slow) <= 2, "width \(width), dashes \(dashes), horizontal \(horizontal)")
            #expect(fast.joined().contains { $0 > 0 })
        }
    }

    @Test func crossingOrOverlappingLinesGoToTheStroker() {
        var cross = Path()
        cross.move(to: Point(x: 2, y: 10.5))
        cross.addLine(to: Point(x: 30, y: 10.5))
        cross.move(to: Point(x: 10.5, y: 2))
        cross.addLine(to: Point(x: 10.5, y: 30))
        let style = StrokeStyle(lineWidth: 1, lineCap: .butt)
        #expect(Canvas.axisAlignedStrokeRects(cross, style: style, halfWidth: 0.5, transform: .identity) == nil)
        var overlap = Path()
        overlap.move(to: Point(x: 2, y: 10.5))
        overlap.addLine(to: Point(x: 30, y: 10.5))
        overlap.move(to: Point(x: 20, y: 10.5))
        overlap.addLine(to: Point(x: 40, y: 10.5))
        #expect(Canvas.axisAlignedStrokeRects(overlap, style: style, halfWidth: 0.5, transform: .identity) == nil)
        var close = Path()
        close.move(to: Point(x: 2, y: 10.5))
        close.addLine(to: Point(x: 30, y: 10.5))
        close.move(to: Point(x: 2, y: 11))
        close.addLine(to: Point(x: 30, y: 11))
        #expect(Canvas.axisAlignedStrokeRects(close, style: style, halfWidth: 0.5, transform: .identity) == nil)
        // A translucent overlap is blended once, as a stroke should be.
        let canvas = makeCanvas(48, 24)
        canvas.strokeColor = Color(white: 1, alpha: 0.5)
        canvas.strokeStyle = style
        canvas.stroke(overlap)
        #expect(abs(Int(canvas.bitmap[25, 10].a) - 128) <= 1)
        // Diagonals are never rectangles.
        #expect(Canvas.axisAlignedStrokeRects(polyline([(1, 1), (20, 5)]), style: style, halfWidth: 0.5, transform: .identity) == nil)
    }
}
