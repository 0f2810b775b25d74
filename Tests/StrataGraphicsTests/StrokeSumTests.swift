import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// Sparse stroke outlines (`StrokeJob.isSparse`) go to the cell rasterizer,
/// which sums their parts' areas, instead of the overlap-exact walk; outlines
/// that run along themselves stay with the walk.
@Suite struct StrokeSumTests {
    /// `path` stroked on a `size` canvas in a translucent colour, its areas
    /// summed where sparse or not at all, and the strokes summed.
    static func draw(
        _ path: Path, _ style: StrokeStyle, sums: Bool, size: (Int, Int) = (160, 160), clip: Rect? = nil
    ) -> (Canvas, summed: Int) {
        let canvas = makeCanvas(size.0, size.1)
        canvas.strokeRasterizer.sumsSparseOutlines = sums
        canvas.strokeRasterizer.fillsRings = false
        canvas.strokeRasterizer.fillsConvexOutlines = false
        if let clip { canvas.clip(to: clip) }
        canvas.strokeColor = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.6)
        canvas.strokeStyle = style
        canvas.stroke(path)
        return (canvas, canvas.strokeRasterizer.sparseFilled)
    }

    static func polygon(_ points: [(Double, Double)], closed: Bool = true) -> Path {
        var path = Path()
        for (k, p) in points.enumerated() {
            if k == 0 { path.move(to: Point(x: p.0, y: p.1)) } else { path.addLine(to: Point(x: p.0, y: p.1)) }
        }
        if closed { path.closeSubpath() }
        return path
    }

    @Test func sparsePolygonsAreSummedCloseToTheTruth() {
        // Random polygons as the standard grid strokes them (width 2, miter
        // 4): most are sparse, and summed. Against the truth (the walk at 8
        // times the scale, averaged down), summing is off only where the
        // outline overlaps itself at its edge (pivot corners, the corners of
        // crossings), where it counts the overlap twice: never lighter than
        // the truth, a few pixels in a hundred of the canvas more than 8
        // levels darker. (The walk, off by up to a quarter of a row where
        // edges cross inside one, is within 16 levels everywhere.)
        var rng = FuzzRandom(seed: 1717)
        let style = StrokeStyle(lineWidth: 2, lineJoin: .miter, miterLimit: 4)
        var summed = 0
        for _ in 0..<12 {
            let size = [64.0, 96, 128, 150][rng.int(4)]
            let points = (0..<[10, 20, 40][rng.int(3)]).map { _ in
                (5 + rng.uniform() * size, 5 + rng.uniform() * size)
            }
            let path = Self.polygon(points)
            let (a, count) = Self.draw(path, style, sums: true)
            let (b, none) = Self.draw(path, style, sums: false)
            #expect(none == 0)
            #expect(count == (StrokeJob.isSparse(path, halfWidth: 1) ? 1 : 0))
            summed += count
            let big = makeCanvas(1280, 1280)
            big.strokeRasterizer.sumsSparseOutlines = false
            big.strokeColor = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.6)
            big.strokeStyle = style
            big.scaleBy(x: 8, y: 8)
            big.stroke(path)
            var error = 0.0, far = 0, lightest = 0.0, walkWorst = 0.0
            for y in 0..<160 {
                for x in 0..<160 {
                    var sum = 0
                    for j in 0..<8 { for i in 0..<8 { sum += Int(big.bitmap[x * 8 + i, y * 8 + j].a) } }
                    let truth = Double(sum) / 64
                    let d = Double(a.bitmap[x, y].a) - truth
                    error += abs(d)
                    lightest = min(lightest, d)
                    if abs(d) > 8 { far += 1 }
                    walkWorst = max(walkWorst, abs(Double(b.bitmap[x, y].a) - truth))
                }
            }
            // (A polygon left to the walk may be lighter where edges cross.)
            #expect(count == 0 || lightest >= -3, "\(lightest) levels lighter than the truth")
            #expect(error / 25_600 < 0.5, "mean \(error / 25_600) levels")
            #expect(far < 25_600 * 2 / 100, "\(far) pixels more than 8 levels off")
            #expect(walkWorst <= 16)
        }
        #expect(summed >= 8, "\(summed) of 12 summed")
    }

    @Test func outlinesWithoutOverlapsAreSummedAsTheWalkCoversThem() {
        // Convex polygons narrower than their line do not overlap at all
        // once every corner, the closing one too, is trimmed: summed, they
        // come out as the walk draws them, to a level or two. Also cut by a clip, where the
        // stroker closes the subpath's last piece onto its first.
        let style = StrokeStyle(lineWidth: 2, lineJoin: .miter, miterLimit: 4)
        let shapes: [Path] = [
            // A rectangle with its closing side drawn: the closing corner is
            // where the last side meets the first.
            Self.polygon([(20.5, 20.5), (23.7, 20.5), (23.7, 60.5), (20.5, 60.5), (20.5, 20.5)]),
            Self.polygon([(30, 12.2), (140.5, 40), (60.3, 131)]),
            Self.polygon([(80, 20), (140, 64), (117, 134), (43, 134), (20, 64)]),
            Self.polygon([(80, 20), (20, 64), (43, 134), (117, 134), (140, 64)]),  // the other way round
        ]
        for path in shapes {
            #expect(StrokeJob.isSparse(path, halfWidth: 1))
            for clip in [nil, Rect(x: 14, y: 0, width: 120, height: 23), Rect(x: 0, y: 50, width: 90, height: 110)] {
                let (a, count) = Self.draw(path, style, sums: true, clip: clip)
                let (b, _) = Self.draw(path, style, sums: false, clip: clip)
                #expect(count == 1)
                var worst = 0
                for y in 0..<160 {
                    for x in 0..<160 { worst = max(worst, abs(Int(a.bitmap[x, y].a) - Int(b.bitmap[x, y].a))) }
                }
                // (The walk's strips place a sharp corner's point to a
                // level or two.)
                #expect(worst <= 2, "\(path) clip \(String(describing: clip)): \(worst) levels")
            }
        }
    }

    @Test func outlinesRunningAlongThemselvesAreWalked() {
        // A chart line's zigzag of short steps with a wide pen, a line out
        // and straight back (level, and slanted, where the unit directions'
        // rounding leaves the reversal's dot product a hair above −1 and
        // its cross product 0), a square twice round, a rounded rectangle
        // whose corners are much tighter than the line: the walk draws
        // each, and summing would not.
        var zigzag: [(Double, Double)] = []
        var y = 80.0
        var rng = FuzzRandom(seed: 5)
        for i in 0..<150 {
            y = min(max(y + (rng.uniform() - 0.5) * 30, 10), 150)
            zigzag.append((5 + Double(i), y))
        }
        let square = [(30.0, 30.0), (120, 30), (120, 120), (30, 120)]
        let tight = Path(roundedRect: Rect(x: 50, y: 50, width: 3.2, height: 5), cornerWidth: 0.1, cornerHeight: 0.1)
        let cases: [(Path, Double)] = [
            (Self.polygon(zigzag, closed: false), 1.5),
            (Self.polygon([(10, 80), (150, 80), (10, 80)], closed: false), 2),
            (Self.polygon([(10, 8), (95, 70.5), (10, 8), (95, 70.5)], closed: false), 1.25),
            (Self.polygon(square + square), 1),
            (tight, 1.75),
        ]
        for (path, h) in cases {
            #expect(!StrokeJob.isSparse(path, halfWidth: h), "\(path)")
            let style = StrokeStyle(lineWidth: 2 * h, lineCap: .round, lineJoin: .round)
            let (a, count) = Self.draw(path, style, sums: true)
            let (b, _) = Self.draw(path, style, sums: false)
            #expect(count == 0)
            #expect(a.makeImage() == b.makeImage())
        }
    }

    @Test func theOverlapMeasureAtItsThreshold() {
        // An outline may run along itself for a tenth of the path's length.
        // Out 100 and back r (half width 1): the reversal runs back along
        // all of r, so sparse while r ≤ (100 + r)/10, r ≤ 11.1.
        #expect(StrokeJob.isSparse(Self.polygon([(0, 0), (100, 0), (90, 0)], closed: false), halfWidth: 1))
        #expect(!StrokeJob.isSparse(Self.polygon([(0, 0), (100, 0), (88, 0)], closed: false), halfWidth: 1))
        // Two square corners round a step of 0.8, shorter than the half
        // width 1 they would trim: each through its pivot, counted as the
        // half width (the overlap spreads that far round the corner point),
        // not the step. Sides of 20: 2 ≤ 40.8/10. Sides of 9: 2 > 18.8/10.
        #expect(StrokeJob.isSparse(Self.polygon([(0, 0), (20, 0), (20, 0.8), (0, 0.8)], closed: false), halfWidth: 1))
        #expect(!StrokeJob.isSparse(Self.polygon([(0, 0), (9, 0), (9, 0.8), (0, 0.8)], closed: false), halfWidth: 1))
        // A corner whose trim would take a side past its length, on the
        // side the side's other trim is on, goes through its pivot: square
        // corners trim the half width 1, so a side of 1.5 between two left
        // turns keeps only its first, and the second counts the half width.
        // Sides of 5 before and after: 1 ≤ 11.5/10. Of 4: 1 > 9.5/10.
        #expect(StrokeJob.isSparse(Self.polygon([(0, 0), (5, 0), (5, 1.5), (0, 1.5)], closed: false), halfWidth: 1))
        #expect(!StrokeJob.isSparse(Self.polygon([(0, 0), (4, 0), (4, 1.5), (0, 1.5)], closed: false), halfWidth: 1))
        // A left turn then a right one trim the side between them on its two
        // sides: both trimmed, however short it is past the half width.
        #expect(StrokeJob.isSparse(Self.polygon([(0, 0), (1.2, 0), (1.2, 1.5), (2.4, 1.5)], closed: false), halfWidth: 1))
        // Convex closed shapes and curves narrower than their line are sparse.
        #expect(StrokeJob.isSparse(Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 30)), halfWidth: 1))
        #expect(StrokeJob.isSparse(Path(rect: Rect(x: 0, y: 0, width: 20, height: 20)), halfWidth: 1))
        #expect(!StrokeJob.isSparse(Path(ellipseIn: Rect(x: 0, y: 0, width: 4, height: 3)), halfWidth: 3))
    }
    @Test func hostileOutlinesAreMeasuredAndDrawnInBoundedTime() {
        // Points far off, tiny, repeated or not numbers, and widths from 0 to
        // 1e30: the survey answers, and the stroke draws or draws nothing,
        // without trapping.
        let shapes: [Path] = [
            Self.polygon([(0, 0), (1e30, 0), (1e30, 1e30)]),
            Self.polygon([(-1e30, 5), (80, 80), (5, -1e30)]),
            Self.polygon([(10, 10), (10 + 1e-30, 10), (10, 10 + 1e-30)]),
            Self.polygon([(20, 20), (20, 20), (20, 20), (90, 30)]),
            Self.polygon([(20, 20), (.nan, 30), (90, 30), (40, .infinity)]),
            Path(),
        ]
        for path in shapes {
            for h in [0.0, 1, 1e30, -1, .nan] {
                _ = StrokeJob.isSparse(path, halfWidth: h)
                let style = StrokeStyle(lineWidth: 2 * h, lineJoin: .miter, miterLimit: 4)
                _ = Self.draw(path, style, sums: true, size: (64, 64))
            }
        }
        // Huge but finite, partly on the canvas: summed and drawn.
        let (canvas, count) = Self.draw(
            Self.polygon([(-1e7, 10), (1e7, 12), (1e7, 40), (-1e7, 38)]), StrokeStyle(lineWidth: 2), sums: true,
            size: (64, 64))
        #expect(count == 1)
        #expect(canvas.bitmap[30, 11].a > 0 && canvas.bitmap[30, 25].a == 0)
    }
}
