import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// The strokes of convex polygons with mitred corners, filled as one
/// outline or a ring of two (`ConvexStroke`), against the stroker (its
/// rings and the overlap-exact walk) and the truth.
@Suite struct ConvexStrokeTests {
    /// `path` stroked with `style` under `transform` on a 60 × 50 canvas at
    /// `scale`, as one outline where it may be (`convex`) or not.
    static func draw(_ path: Path, _ style: StrokeStyle, _ transform: Transform, scale: Int = 1, convex: Bool)
        -> Canvas
    {
        strokedCanvas(path, style, transform, width: 60, height: 50, scale: scale) { rasterizer in
            rasterizer.fillsConvexOutlines = convex
            rasterizer.sumsSparseOutlines = false
        }
    }

    /// A small random polygon: a triangle (random points in a box `size`
    /// across, as the standard grid draws them) or a convex polygon round an
    /// ellipse, wound either way.
    static func smallPolygon(_ rng: inout FuzzRandom, size: Double) -> Path {
        var path = Path()
        let x0 = 20 + rng.uniform() * 10, y0 = 15 + rng.uniform() * 10
        var points: [Point] = []
        if rng.int(3) > 0 {
            for _ in 0..<3 { points.append(Point(x: x0 + rng.uniform() * size, y: y0 + rng.uniform() * size)) }
        } else {
            let sides = 4 + rng.int(6)
            let w = size * (0.3 + rng.uniform()), h = size * (0.2 + rng.uniform() * 0.5)
            for k in 0..<sides {
                let a = Double(k) * 2 * Double.pi / Double(sides) + rng.uniform() * 0.3
                points.append(Point(x: x0 + w * cos(a), y: y0 + h * sin(a)))
            }
            if rng.int(2) == 0 { points.reverse() }
        }
        path.addLines(between: points)
        path.closeSubpath()
        return path
    }

    @Test func filledOutlinesAreAsCloseToTheTruthAsTheWalk() {
        var rng = FuzzRandom(seed: 7117)
        var filled = 0, shapes = 0
        var outlineError = 0.0, walkError = 0.0, worstOutline = 0.0, worstWalk = 0.0
        for _ in 0..<150 {
            let size = [3.0, 6, 8, 12, 16][rng.int(5)]
            let path = Self.smallPolygon(&rng, size: size)
            let width = [1.0, 2, 3, 5][rng.int(4)]
            let style = StrokeStyle(lineWidth: width, lineJoin: .miter, miterLimit: [1, 2, 4, 10][rng.int(4)])
            let transform =
                rng.int(3) == 0
                ? Transform(translationX: 30, y: 25).rotated(by: rng.uniform() * 3).scaledBy(x: 1.3, y: 0.8)
                    .translatedBy(x: -30, y: -25) : .identity
            let result = Self.compare(path, style, transform)
            shapes += 1
            filled += result.taken ? 1 : 0
            outlineError += result.outline
            walkError += result.stroker
            worstOutline = max(worstOutline, result.largestOutline)
            worstWalk = max(worstWalk, result.largestStroker)
            #expect(result.worst <= 3, "\(path) \(style) \(transform)")
        }
        // (Every one but those bevelled near other sides: a quarter have a
        // miter limit of 1, every corner bevelled.)
        #expect(filled >= shapes * 3 / 5, "\(filled) of \(shapes)")
        #expect(outlineError <= walkError * 1.02, "outline \(outlineError) walk \(walkError)")
        #expect(worstOutline <= worstWalk + 3, "outline \(worstOutline) walk \(worstWalk)")
    }

    /// `points` as a closed polygon.
    static func polygon(_ points: [(Double, Double)]) -> Path {
        var path = Path()
        path.addLines(between: points.map { Point(x: $0.0, y: $0.1) })
        path.closeSubpath()
        return path
    }

    /// Whether `path` stroked with `style` is filled as one outline, and
    /// when it is not, drawn by the walk exactly as with the outlines off.
    static func takesOutline(_ path: Path, _ style: StrokeStyle) -> Bool {
        let outline = draw(path, style, .identity, convex: true)
        let walk = draw(path, style, .identity, convex: false)
        if outline.strokeRasterizer.convexFilled == 0 {
            #expect(StrokeRingTests.channels(outline.bitmap) == StrokeRingTests.channels(walk.bitmap), "\(path)")
            return false
        }
        return true
    }

    @Test func onlyConvexPolygonsTheLineCoversAreFilledAsOneOutline() {
        let miter = StrokeStyle(lineWidth: 2, lineJoin: .miter, miterLimit: 4)
        // A small triangle, all corners mitred, its inscribed circle's
        // radius (0.91) under the half width.
        #expect(Self.takesOutline(Self.polygon([(20, 20), (24, 20.5), (21.5, 22.5)]), miter))
        // Wound the other way.
        #expect(Self.takesOutline(Self.polygon([(21.5, 22.5), (24, 20.5), (20, 20)]), miter))
        // Wider inside than the line: a ring of two outlines.
        #expect(Self.takesOutline(Self.polygon([(10, 10), (40, 12), (22, 40)]), miter))
        #expect(Self.takesOutline(Self.polygon([(10, 10), (40, 12), (38, 30), (12, 28)]), miter))
        // Curves, flattened as the stroker flattens them: a rounded
        // rectangle, an ellipse, a circle.
        #expect(Self.takesOutline(Path(roundedRect: Rect(x: 10, y: 10, width: 30, height: 20), cornerWidth: 5, cornerHeight: 5), miter))
        #expect(Self.takesOutline(Path(ellipseIn: Rect(x: 10, y: 10, width: 30, height: 20)), miter))
        #expect(Self.takesOutline(Path(ellipseIn: Rect(x: 20, y: 20, width: 3, height: 3)), miter))
        // A closed curve with a dent, two ellipses in one path, a curve
        // round twice: not convex polygons.
        var dented = Path()
        dented.move(to: Point(x: 10, y: 10))
        dented.addQuadCurve(to: Point(x: 40, y: 10), control: Point(x: 25, y: 20))
        dented.addLine(to: Point(x: 40, y: 30))
        dented.addLine(to: Point(x: 10, y: 30))
        dented.closeSubpath()
        #expect(!Self.takesOutline(dented, miter))
        var two = Path(ellipseIn: Rect(x: 5, y: 5, width: 20, height: 20))
        two.addEllipse(in: Rect(x: 30, y: 10, width: 20, height: 20))
        #expect(!Self.takesOutline(two, miter))
        var twice = Path()
        twice.move(to: Point(x: 40, y: 25))
        for k in 1...8 {
            let a = Double(k) * Double.pi / 2, b = a - Double.pi / 4
            twice.addQuadCurve(
                to: Point(x: 25 + 15 * cos(a), y: 25 + 15 * sin(a)),
                control: Point(x: 25 + 15 * 2.squareRoot() * cos(b), y: 25 + 15 * 2.squareRoot() * sin(b)))
        }
        twice.closeSubpath()
        #expect(!Self.takesOutline(twice, miter))
        #expect(!Self.takesOutline(Path(ellipseIn: Rect(x: 10, y: 10, width: 30, height: 20)), StrokeStyle(lineWidth: 2, lineJoin: .round)))
        // A circle that would flatten to more than `maxVertices` points.
        #expect(!Self.takesOutline(Path(ellipseIn: Rect(x: -5000, y: -5000, width: 10_060, height: 10_050)), miter))
        // Not convex (a notch), or crossing itself.
        #expect(!Self.takesOutline(Self.polygon([(20, 20), (26, 20), (23, 21), (26, 24), (20, 24)]), miter))
        #expect(!Self.takesOutline(Self.polygon([(20, 20), (26, 24), (26, 20), (20, 24)]), miter))
        // Round or bevel joins, or dashes: the stroker's.
        #expect(!Self.takesOutline(Self.polygon([(20, 20), (26, 21), (22, 24)]), StrokeStyle(lineWidth: 2, lineJoin: .bevel)))
        #expect(!Self.takesOutline(Self.polygon([(20, 20), (26, 21), (22, 24)]), StrokeStyle(lineWidth: 2, lineJoin: .round)))
        var dashed = miter
        dashed.dashLengths = [2, 1]
        #expect(!Self.takesOutline(Self.polygon([(20, 20), (26, 21), (22, 24)]), dashed))
        // A sharp corner past the miter limit (bevelled), its other two
        // corners and its far side more than twice the half width from it:
        // filled.
        #expect(Self.takesOutline(Self.polygon([(10, 20), (40, 19.5), (40, 21)]), miter))
        #expect(Self.takesOutline(Self.polygon([(20, 20), (23.5, 19.5), (23.5, 20.5)]), miter))
        // A sliver whose far side is within twice the half width of its
        // bevelled tip: that side's rectangle may reach past the bevel, so
        // the stroker draws it.
        #expect(!Self.takesOutline(Self.polygon([(20, 20), (21.8, 19.7), (21.8, 20.3)]), miter))
    }

    @Test func bevelledSliversAreAsCloseToTheTruthAsTheWalk() {
        // Sharp triangles whose tips are bevelled, filled as one outline
        // (their other corners and far sides more than twice the half width
        // from the tip): against the walk and the truth.
        let miter = StrokeStyle(lineWidth: 2, lineJoin: .miter, miterLimit: 4)
        for points in [
            [(20.0, 20.0), (23.5, 19.5), (23.5, 20.5)], [(10, 20), (40, 19.5), (40, 21)],
            [(30, 10), (31.2, 40), (29.5, 39)], [(12, 30), (18, 26.5), (17.6, 27.8)],
        ] {
            let path = Self.polygon(points)
            let result = Self.compare(path, miter, .identity)
            #expect(result.taken, "\(points)")
            let worstOutline = result.largestOutline, worstWalk = result.largestStroker
            #expect(worstOutline <= worstWalk + 3, "\(points): outline \(worstOutline) walk \(worstWalk)")
        }
    }

    /// The errors against the truth (the stroker's stroke drawn 8 times
    /// larger, averaged down) of `path` stroked with `style` under
    /// `transform` as outlines and by the stroker: summed over the canvas,
    /// the largest at one pixel, the largest amount by which the outlines'
    /// error passes the stroker's at one pixel, and whether the outlines
    /// were taken.
    static func compare(_ path: Path, _ style: StrokeStyle, _ transform: Transform) -> Comparison {
        let outline = draw(path, style, transform, convex: true)
        let stroker = draw(path, style, transform, convex: false)
        let large = draw(path, style, transform, scale: 8, convex: false)
        #expect(stroker.strokeRasterizer.convexFilled == 0)
        let errors = truthErrors(outline.bitmap, stroker.bitmap, large: large.bitmap)
        return (
            errors.a, errors.b, errors.largestA, errors.largestB, errors.worse,
            outline.strokeRasterizer.convexFilled > 0
        )
    }

    /// Turned by up to three radians and stretched about the canvas's
    /// middle, or left as it is, at random.
    static func placement(_ rng: inout FuzzRandom) -> Transform {
        rng.int(2) == 0
            ? Transform(translationX: 30, y: 25).rotated(by: rng.uniform() * 3).scaledBy(x: 1.2, y: 0.9)
                .translatedBy(x: -30, y: -25) : .identity
    }

    /// What `compare` finds.
    typealias Comparison = (outline: Double, stroker: Double, largestOutline: Double, largestStroker: Double, worst: Double, taken: Bool)

    /// `compare`'s errors summed over shapes, and how many took the outlines.
    struct Tally {
        var outline = 0.0, stroker = 0.0, filled = 0

        mutating func add(_ result: Comparison) {
            outline += result.outline
            stroker += result.stroker
            filled += result.taken ? 1 : 0
        }
    }

    @Test func ringsAreAsCloseToTheTruthAsTheStrokersRings() {
        // Convex polygons wider inside than their lines (rectangles and
        // triangles at any angle, regular polygons): the two outlines
        // against the stroker's ring (or walk) and the truth.
        var rng = FuzzRandom(seed: 9001)
        var tally = Tally()
        for _ in 0..<60 {
            var points: [Point] = []
            let cx = 30 + rng.uniform() * 4, cy = 25 + rng.uniform() * 4
            let sides = [3, 4, 4, 5, 8][rng.int(5)]
            let r = 8 + rng.uniform() * 12, a0 = rng.uniform() * 6
            for k in 0..<sides {
                let a = a0 + Double(k) * 2 * Double.pi / Double(sides) + (sides == 3 ? rng.uniform() * 0.8 : 0)
                points.append(Point(x: cx + r * cos(a), y: cy + r * 0.8 * sin(a)))
            }
            var path = Path()
            path.addLines(between: rng.int(2) == 0 ? points : points.reversed())
            path.closeSubpath()
            let style = StrokeStyle(lineWidth: [1.0, 2, 3.5][rng.int(3)], lineJoin: .miter, miterLimit: [2, 4, 10][rng.int(3)])
            let transform = Self.placement(&rng)
            let result = Self.compare(path, style, transform)
            tally.add(result)
            #expect(result.worst <= 2, "\(path) \(style) \(transform)")
        }
        #expect(tally.filled >= 50, "\(tally.filled) of 60")
        #expect(tally.outline <= tally.stroker * 1.02, "outline \(tally.outline) stroker \(tally.stroker)")
    }

    @Test func curvedRingsAreAsCloseToTheTruthAsTheStrokersRings() {
        // Rounded rectangles (corners from a pixel to half the side),
        // ellipses and circles, at any angle and scale, flattened as the
        // stroker flattens them: the outlines against the stroker's ring
        // (or walk) and the truth.
        var rng = FuzzRandom(seed: 5150)
        var tally = Tally()
        for round in 0..<60 {
            let w = 10 + rng.uniform() * 34, h = 8 + rng.uniform() * 30
            let rect = Rect(x: 30 - w / 2 + rng.uniform(), y: 25 - h / 2 + rng.uniform(), width: w, height: h)
            let path: Path
            switch round % 3 {
            case 0:
                let r = min(w, h) / 2 * [0.05, 0.2, 0.5, 1][rng.int(4)]
                path = Path(roundedRect: rect, cornerWidth: r, cornerHeight: r)
            case 1: path = Path(ellipseIn: rect)
            default: path = Path(ellipseIn: Rect(x: rect.minX, y: rect.minY, width: h, height: h))
            }
            let style = StrokeStyle(
                lineWidth: [1.0, 2, 3.5, 6][rng.int(4)], lineJoin: .miter, miterLimit: [2, 4, 10][rng.int(3)])
            let transform = Self.placement(&rng)
            let result = Self.compare(path, style, transform)
            tally.add(result)
            // (Not pixel by pixel: where a small corner radius under a wide
            // line makes the stroker's outline overlap itself, the walk's
            // quarter-row strips and the outlines' exact areas share a
            // corner's coverage out between neighbouring pixels
            // differently, up to 14 levels either way, as far from the
            // truth at the worst pixel.)
            #expect(result.largestOutline <= result.largestStroker + 2, "\(path) \(style) \(transform)")
        }
        #expect(tally.filled >= 50, "\(tally.filled) of 60")
        // (Elsewhere the outlines are the stroker's ring, edge for edge, but
        // for the rounding of single pixels' last level.)
        #expect(tally.outline <= tally.stroker * 1.05, "outline \(tally.outline) stroker \(tally.stroker)")
    }
}

extension ConvexStrokeTests {
    @Test func hostileConvexShapesAreDrawnOrRefusedInBoundedTime() {
        // Rounded rectangles, ellipses and polygons at NaN, infinite, huge,
        // zero and negative sizes and widths, mitred: each drawn (or
        // nothing drawn) in bounded time, and the outlines never taken
        // where a value is not finite.
        let values: [Double] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0, -5, 1e-30, 1e9]
        let clock = ContinuousClock()
        for v in values {
            for width in [2.0, v] {
                let style = StrokeStyle(lineWidth: width, lineJoin: .miter, miterLimit: 4)
                let shapes = [
                    Path(roundedRect: Rect(x: 10, y: 10, width: v, height: 20), cornerWidth: 5, cornerHeight: 5),
                    Path(roundedRect: Rect(x: 10, y: 10, width: 30, height: 20), cornerWidth: v, cornerHeight: v),
                    Path(ellipseIn: Rect(x: v, y: 10, width: 30, height: 20)),
                    Self.polygon([(10, 10), (v, 12), (20, 30)]),
                ]
                for path in shapes {
                    let start = clock.now
                    let canvas = Self.draw(path, style, .identity, convex: true)
                    #expect(clock.now - start < .seconds(2), "\(path) \(style)")
                    if !v.isFinite && canvas.strokeRasterizer.convexFilled > 0 {
                        #expect(path.points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(path) \(style)")
                    }
                }
            }
        }
    }
}
