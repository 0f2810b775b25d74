import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// Strokes whose outline is a ring (one convex closed polyline, every inside
/// corner trimmed) go to the cell rasterizer; everything else stays with the
/// overlap-exact walk.
@Suite struct StrokeRingTests {
    /// A random convex shape: a rotated rectangle, a rounded rectangle, an
    /// ellipse, a triangle or a regular polygon, about `size` across.
    static func convexShape(_ rng: inout FuzzRandom, size: Double) -> Path {
        // Within the canvas (a stroke cut by its edge is not one polyline).
        let cx = 50 + rng.uniform() * 20, cy = 38 + rng.uniform() * 14
        let w = size * (0.5 + rng.uniform()), h = size * (0.5 + rng.uniform())
        let box = Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
        switch rng.int(5) {
        case 0:
            return Path(rect: box)
        case 1:
            let r = min(w, h) * rng.uniform() * 0.5
            return Path(roundedRect: box, cornerWidth: r, cornerHeight: r * (0.5 + rng.uniform() * 0.5))
        case 2:
            return Path(ellipseIn: box)
        case 3:
            // A triangle, wound either way.
            var path = Path()
            let a = rng.uniform() * 2 * Double.pi
            let turns: [Double] = rng.int(2) == 0 ? [0, 2.1, 4.2] : [0, -2.1, -4.2]
            for (k, t) in turns.enumerated() {
                let angle: Double = a + t + rng.uniform() * 0.6
                let p = Point(x: cx + w * 0.5 * cos(angle), y: cy + h * 0.5 * sin(angle))
                if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
            }
            path.closeSubpath()
            return path
        default:
            var path = Path()
            let sides = 5 + rng.int(12)
            for k in 0..<sides {
                let a = Double(k) * 2 * Double.pi / Double(sides)
                let p = Point(x: cx + w * 0.5 * cos(a), y: cy + h * 0.5 * sin(a))
                if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
            }
            path.closeSubpath()
            return path
        }
    }

    /// `path` stroked with `style` under `transform` on a 120 × 90 canvas at
    /// `scale`, rings filled by the cell rasterizer or not.
    static func draw(
        _ path: Path, _ style: StrokeStyle, _ transform: Transform, scale: Int = 1, rings: Bool = true,
        sums: Bool? = nil
    ) -> Canvas {
        strokedCanvas(path, style, transform, width: 120, height: 90, scale: scale) { rasterizer in
            rasterizer.fillsRings = rings
            // (The stroker's rings, not `ConvexStroke`'s outlines.)
            rasterizer.fillsConvexOutlines = false
            // (Rings are compared with the walk: no outline summed unless asked.)
            rasterizer.sumsSparseOutlines = sums ?? false
        }
    }

    @Test func convexStrokesAreRingsAndAsCloseToTheTruthAsTheWalk() {
        // Convex shapes from 3 to 45 pixels, lines from a hairline to a
        // fifth of the shape, every join, some turned and stretched: drawn
        // as rings, and by the overlap-exact walk, and compared with the
        // stroke drawn 8 times larger and averaged down. Where the outline is
        // a ring both are the exact area but for rounding and the walk's
        // strips at corners, so the ring is never worse by more than a level
        // or two, and most strokes here are rings.
        var rng = FuzzRandom(seed: 4242)
        var rings = 0, shapes = 0
        var ringError = 0.0, walkError = 0.0, worstRing = 0.0, worstWalk = 0.0
        let joins: [LineJoin] = [.miter, .round, .bevel]
        for _ in 0..<120 {
            let size = [3.0, 8, 20, 45][rng.int(4)]
            let path = Self.convexShape(&rng, size: size)
            let width = [0.5, 1, 2, 3.5][rng.int(4)] * (size < 8 ? 0.5 : 1)
            let style = StrokeStyle(lineWidth: width, lineJoin: joins[rng.int(3)], miterLimit: [1, 4, 10][rng.int(3)])
            let transform =
                rng.int(3) == 0
                ? Transform(translationX: 60, y: 45).rotated(by: rng.uniform() * 3).scaledBy(x: 1.2, y: 0.8)
                    .translatedBy(x: -60, y: -45) : .identity
            let ring = Self.draw(path, style, transform)
            let walk = Self.draw(path, style, transform, rings: false)
            let large = Self.draw(path, style, transform, scale: 8, rings: false)
            shapes += 1
            rings += ring.strokeRasterizer.ringsFilled
            #expect(walk.strokeRasterizer.ringsFilled == 0)
            let errors = truthErrors(ring.bitmap, walk.bitmap, large: large.bitmap)
            ringError += errors.a
            walkError += errors.b
            worstRing = max(worstRing, errors.largestA)
            worstWalk = max(worstWalk, errors.largestB)
            #expect(errors.worse <= 3, "\(path) \(style) \(transform)")
        }
        #expect(rings > shapes * 2 / 3, "\(rings) of \(shapes)")
        #expect(ringError <= walkError * 1.02, "ring \(ringError) walk \(walkError)")
        #expect(worstRing <= worstWalk + 3, "ring \(worstRing) walk \(worstWalk)")
    }

    /// Paths that may look like rings but are not: each is drawn with rings
    /// allowed and not, and must come out the same, bit for bit, from the
    /// walk; and a fill drawn after it must not see what the rejected try
    /// left in the cells.
    @Test(arguments: [
        "pentagram", "bowtie", "collapsed", "thin", "thinClosing", "notch", "open", "twoSubpaths", "dashed",
        "reversal", "twice", "twiceCurved", "tightCurves",
    ])
    func nonRingsAreLeftToTheWalk(_ name: String) {
        var path = Path()
        var style = StrokeStyle(lineWidth: 3, lineJoin: .miter, miterLimit: 10)
        func polygon(_ points: [(Double, Double)], close: Bool = true) {
            for (k, p) in points.enumerated() {
                if k == 0 { path.move(to: Point(x: p.0, y: p.1)) } else { path.addLine(to: Point(x: p.0, y: p.1)) }
            }
            if close { path.closeSubpath() }
        }
        switch name {
        case "pentagram":
            // Turns one way at every corner, but twice round: crosses itself.
            polygon(
                (0..<5).map { k in
                    let a = Double(k) * 4 * Double.pi / 5
                    return (60 + 35 * cos(a), 45 + 35 * sin(a))
                })
        case "bowtie":
            polygon([(20, 20), (100, 70), (100, 20), (20, 70)])
        case "collapsed":
            // Narrower than the line: the inside corners' trims overlap.
            style.lineWidth = 12
            polygon([(50, 40), (62, 40), (56, 48)])
        case "thin":
            // Each inside corner could be trimmed, but the short sides are
            // shorter than their two trims together.
            style.lineWidth = 6
            polygon([(20, 40), (60, 40), (100, 40), (100, 44), (20, 44)])
        case "thinClosing":
            // The same where the closing corner's trim is one of the two.
            style.lineWidth = 6
            polygon([(20, 44), (20, 40), (60, 40), (100, 40), (100, 44)])
        case "notch":
            polygon([(20, 20), (100, 20), (100, 70), (60, 40), (20, 70)])
        case "open":
            polygon([(20, 20), (100, 20), (100, 70), (20, 70)], close: false)
        case "twoSubpaths":
            path.addRect(Rect(x: 20, y: 20, width: 40, height: 30))
            path.addEllipse(in: Rect(x: 50, y: 35, width: 50, height: 40))
        case "dashed":
            style.dashLengths = [7, 3]
            path.addEllipse(in: Rect(x: 20, y: 15, width: 80, height: 60))
        case "reversal":
            // A spike: the turn at its tip is a half turn.
            polygon([(20, 45), (100, 44.999), (20, 45.001)])
        case "twiceCurved":
            // Twice round a circle of quarter-circle cubics: the stroker
            // counts the laps (the control points turn one way).
            let k = 0.5523 * 30
            path.move(to: Point(x: 90, y: 45))
            for _ in 0..<2 {
                path.addCurve(to: Point(x: 60, y: 75), control1: Point(x: 90, y: 45 + k), control2: Point(x: 60 + k, y: 75))
                path.addCurve(to: Point(x: 30, y: 45), control1: Point(x: 60 - k, y: 75), control2: Point(x: 30, y: 45 + k))
                path.addCurve(to: Point(x: 60, y: 15), control1: Point(x: 30, y: 45 - k), control2: Point(x: 60 - k, y: 15))
                path.addCurve(to: Point(x: 90, y: 45), control1: Point(x: 60 + k, y: 15), control2: Point(x: 90, y: 45 - k))
            }
            path.closeSubpath()
        case "tightCurves":
            // Corners of a radius under the half width: the inner sides of
            // their flattened arcs cannot all be trimmed.
            style.lineWidth = 8
            style.lineJoin = .round
            path = Path(roundedRect: Rect(x: 20, y: 20, width: 80, height: 50), cornerWidth: 1, cornerHeight: 1)
        default:
            // Twice round the same square: one way, two laps.
            polygon([(30, 20), (90, 20), (90, 70), (30, 70), (30, 20), (90, 20), (90, 70), (30, 70)])
        }
        #expect(!path.isEmpty)
        func draw(_ rings: Bool) -> Canvas {
            let canvas = Self.draw(path, style, .identity, rings: rings)
            canvas.fillColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
            canvas.fill(Path(ellipseIn: Rect(x: 30, y: 30, width: 40, height: 30)))
            return canvas
        }
        let tried = draw(true), walked = draw(false)
        #expect(tried.strokeRasterizer.ringsFilled == 0)
        #expect(Self.channels(tried.bitmap) == Self.channels(walked.bitmap))
    }

    /// Every channel of every pixel.
    static func channels(_ bitmap: Bitmap) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                out += [p.r, p.g, p.b, p.a]
            }
        }
        return out
    }

    @Test func pathsThatMayBeRings() {
        var triangle = Path()
        triangle.move(to: Point(x: 0, y: 0))
        triangle.addLine(to: Point(x: 10, y: 0))
        triangle.addLine(to: Point(x: 0, y: 10))
        #expect(!StrokeJob.mayBeRing(triangle, halfWidth: 1))  // open
        triangle.closeSubpath()
        #expect(StrokeJob.mayBeRing(triangle, halfWidth: 1))
        // Repeated points and a line back to the start change nothing.
        var repeated = Path()
        for p in [(0.0, 0.0), (10, 0), (10, 0), (0, 10), (0, 0)] {
            if repeated.isEmpty { repeated.move(to: Point(x: p.0, y: p.1)) } else { repeated.addLine(to: Point(x: p.0, y: p.1)) }
        }
        repeated.closeSubpath()
        #expect(StrokeJob.mayBeRing(repeated, halfWidth: 1))
        #expect(StrokeJob.mayBeRing(Path(ellipseIn: Rect(x: 0, y: 0, width: 30, height: 10)), halfWidth: 1))
        #expect(StrokeJob.mayBeRing(Path(roundedRect: Rect(x: 0, y: 0, width: 30, height: 10), cornerWidth: 4, cornerHeight: 4), halfWidth: 1))
        #expect(StrokeJob.mayBeRing(Path(rect: Rect(x: 0, y: 0, width: 30, height: 10)), halfWidth: 1))
        var notch = Path()
        for p in [(0.0, 0.0), (10, 0), (5, 2), (10, 10), (0, 10)] {
            if notch.isEmpty { notch.move(to: Point(x: p.0, y: p.1)) } else { notch.addLine(to: Point(x: p.0, y: p.1)) }
        }
        notch.closeSubpath()
        #expect(!StrokeJob.mayBeRing(notch, halfWidth: 1))
        var two = Path(rect: Rect(x: 0, y: 0, width: 30, height: 10))
        two.addRect(Rect(x: 40, y: 0, width: 30, height: 10))
        #expect(!StrokeJob.mayBeRing(two, halfWidth: 1))
        // All points on one line: no turn.
        var flat = Path()
        flat.move(to: Point(x: 0, y: 0))
        flat.addLine(to: Point(x: 10, y: 0))
        flat.addLine(to: Point(x: 20, y: 0))
        flat.closeSubpath()
        #expect(!StrokeJob.mayBeRing(flat, halfWidth: 1))
        #expect(!StrokeJob.mayBeRing(Path(), halfWidth: 1))
        // Polygons are checked whole: twice round, or too small for the line.
        var pentagram = Path()
        for k in 0..<5 {
            let a = Double(k) * 4 * Double.pi / 5
            let p = Point(x: 35 * cos(a), y: 35 * sin(a))
            if k == 0 { pentagram.move(to: p) } else { pentagram.addLine(to: p) }
        }
        pentagram.closeSubpath()
        #expect(!StrokeJob.mayBeRing(pentagram, halfWidth: 1))
        #expect(StrokeJob.mayBeRing(triangle, halfWidth: 1.2))
        #expect(!StrokeJob.mayBeRing(triangle, halfWidth: 3))
        let thin = Path(rect: Rect(x: 0, y: 0, width: 80, height: 4))
        #expect(StrokeJob.mayBeRing(thin, halfWidth: 1.9))
        #expect(!StrokeJob.mayBeRing(thin, halfWidth: 2.1))
        // A curve's control points turning one way is all that is asked.
        #expect(StrokeJob.mayBeRing(Path(ellipseIn: Rect(x: 0, y: 0, width: 3, height: 3)), halfWidth: 30))
    }
}
