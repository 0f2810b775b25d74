import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// Long strokes are stroked in pieces (`StrokePieces`), which the bands of a
/// picture drawn on several threads share (`StrokeShare`): the pieces make
/// the stroke of the whole path, and the bands draw what one canvas draws.
@Suite struct StrokePiecesTests {
    /// A zigzag of `count` segments with sharp turns, from (x0, y).
    static func zigzag(_ count: Int, x0: Double = 5, y: Double = 60, step: Double = 0.05, height: Double = 40) -> Path {
        var p = Path()
        p.move(to: Point(x: x0, y: y))
        for i in 1...count {
            p.addLine(to: Point(x: x0 + Double(i) * step, y: y + (i % 2 == 0 ? 0 : height * (0.3 + 0.7 * sin(Double(i) * 0.37).magnitude))))
        }
        return p
    }

    /// `picture` drawn by a `BandRenderer` on 2, 3 and 5 threads, twice
    /// each, gives `expected` (one 320 × 300 canvas's pixels) every time.
    static func expectBandsDraw(_ picture: @escaping @Sendable (Canvas) -> Void, _ expected: Image) throws {
        for threads in [2, 3, 5] {
            let bitmap = try Bitmap(width: 320, height: 300)
            let renderer = BandRenderer(bitmap: bitmap, threadCount: threads)
            for round in 0..<2 {
                bitmap.fill(with: .transparent)
                renderer.draw(picture)
                #expect(bitmap.makeImage() == expected, "\(threads) threads, picture \(round)")
            }
        }
    }

    @Test func shortPathsAreStrokedWhole() {
        #expect(StrokePieces.plan(Self.zigzag(100), size: 64) == nil)
        #expect(StrokePieces.plan(Self.zigzag(8190)) == nil)
        #expect(StrokePieces.plan(Self.zigzag(10), size: 0) == nil)
        #expect(StrokePieces.plan(Self.zigzag(10), size: .max) == nil)
        // A canvas's piece size: an eighth of the verbs, from 256 to 4096.
        #expect(StrokePieces.size(verbs: 0) == 256)
        #expect(StrokePieces.size(verbs: 511) == 256)
        #expect(StrokePieces.size(verbs: 2049) == 256)
        #expect(StrokePieces.size(verbs: 2056) == 257)
        #expect(StrokePieces.size(verbs: 20_000) == 2500)
        #expect(StrokePieces.size(verbs: 32_768) == 4096)
        #expect(StrokePieces.size(verbs: 1_000_000) == 4096)
        #expect(StrokePieces.plan(Self.zigzag(510), size: StrokePieces.size(verbs: 511)) == nil)
        #expect(StrokePieces.plan(Self.zigzag(511), size: StrokePieces.size(verbs: 512))?.count == 2)
    }

    /// The pieces cover every verb in order; after a seam a piece starts one
    /// verb back, at that verb's start; at an exact seam (three lines) the
    /// piece before runs one verb past it.
    @Test func piecesCoverThePathWithSeams() throws {
        let path = Self.zigzag(1000)
        let pieces = try #require(StrokePieces.plan(path, size: 100))
        // (Each piece after a seam starts one verb back: 99 new verbs each.)
        #expect(pieces.count == 11)
        #expect(pieces.first?.verbs.lowerBound == 0 && pieces.first?.start == nil)
        #expect(pieces.first?.startsExactly == false && pieces.last?.endsExactly == false)
        #expect(pieces.last?.verbs.upperBound == path.verbs.count && pieces.last?.endsAtSeam == false)
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            #expect(a.endsAtSeam && a.endsExactly && b.startsExactly)
            #expect(b.verbs.lowerBound == a.verbs.upperBound - 2)
            // (A line verb's point is its end: the verb before starts at the
            // point before.)
            #expect(b.firstPoint == b.verbs.lowerBound)
            #expect(b.start == path.points[b.firstPoint - 1])
        }
    }

    /// Closed subpaths are not cut; a subpath's start is a boundary without
    /// a seam; a verb that goes nowhere is not duplicated at a seam.
    @Test func closedSubpathsMovesAndDegenerateVerbs() throws {
        var closed = Self.zigzag(500)
        closed.closeSubpath()
        var open = closed
        open.addPath(Self.zigzag(500, y: 120))
        // Cut only in the open part.
        let pieces = try #require(StrokePieces.plan(open, size: 100))
        let firstOpen = closed.verbs.count
        #expect(pieces[0].verbs == 0..<firstOpen && !pieces[0].endsAtSeam)
        #expect(pieces[1].verbs.lowerBound == firstOpen && pieces[1].start == nil)
        #expect(pieces.count >= 5)
        // All closed: cut only where a subpath begins.
        var closedTwice = closed
        closedTwice.addPath(closed)
        let twice = try #require(StrokePieces.plan(closedTwice, size: 100))
        #expect(twice.map(\.verbs) == [0..<firstOpen, firstOpen..<(2 * firstOpen)])
        #expect(twice.allSatisfy { $0.start == nil && !$0.endsAtSeam })
        var once = Self.zigzag(2000)
        once.closeSubpath()
        #expect(StrokePieces.plan(once, size: 100) == nil)
        // Repeated points: no seam right after one.
        var flat = Path()
        flat.move(to: .zero)
        for i in 1...400 { flat.addLine(to: Point(x: Double(i / 2), y: 0)) }
        for piece in try #require(StrokePieces.plan(flat, size: 100)).dropFirst() {
            let start = try #require(piece.start)
            #expect(start != flat.points[piece.firstPoint], "a seam on a verb that goes nowhere")
        }
    }

    /// Seams are exact only where the verb before, the one after and the one
    /// before those are lines that move; elsewhere the pieces meet at one
    /// verb, butt.
    @Test func exactSeamsOnlyBetweenLinesThatMove() throws {
        // Quadratic curves only: every seam butt.
        var curves = Path()
        curves.move(to: Point(x: 0, y: 0))
        for i in 1...600 {
            curves.addQuadCurve(to: Point(x: Double(i), y: 0), control: Point(x: Double(i) - 0.5, y: i % 2 == 0 ? 4 : -4))
        }
        let butt = try #require(StrokePieces.plan(curves, size: 100))
        #expect(butt.count == 7)
        for (a, b) in zip(butt, butt.dropFirst()) {
            #expect(a.endsAtSeam && !a.endsExactly && !b.startsExactly)
            #expect(b.verbs.lowerBound == a.verbs.upperBound - 1)
            // (A quad's points are its control point and its end.)
            #expect(b.firstPoint == 2 * b.verbs.lowerBound - 1)
            #expect(b.start == curves.points[b.firstPoint - 1])
        }
        // Lines with a curve every third verb: a seam has a curve within
        // three verbs, so none is exact.
        var mixed = Path()
        mixed.move(to: .zero)
        for i in 1...900 {
            let p = Point(x: Double(i), y: i % 2 == 0 ? 0 : 3)
            if i % 3 == 0 { mixed.addQuadCurve(to: p, control: Point(x: Double(i) - 0.5, y: 5)) } else { mixed.addLine(to: p) }
        }
        let mixedPieces = try #require(StrokePieces.plan(mixed, size: 100))
        #expect(mixedPieces.count >= 8)
        #expect(mixedPieces.allSatisfy { !$0.startsExactly && !$0.endsExactly })
        // A line that goes nowhere (under twice `StrokeSource.epsilon`) next
        // to the seam, on either side: butt.
        for offset in [-2, -1, 0] {
            let k = 100 + offset  // the verb that goes nowhere
            var points = Self.zigzag(400).points
            points[k] = Point(x: points[k - 1].x + 1e-9, y: points[k - 1].y)
            var still = Path()
            still.move(to: points[0])
            for p in points.dropFirst() { still.addLine(to: p) }
            let first = try #require(StrokePieces.plan(still, size: 100)?.first)
            #expect(first.endsAtSeam && !first.endsExactly, "a still verb at \(offset)")
        }
        // A seam right after the subpath's first line: exact (the verb
        // before the two lines is the move).
        let first = try #require(StrokePieces.plan(Self.zigzag(300), size: 2)?.first)
        #expect(first.verbs == 0..<3 && first.endsExactly)
    }

    /// Stroking in pieces draws the stroke of the whole path: bit for bit
    /// where the seams are exact (between lines wholly in the canvas); where
    /// they are butt (beside curves, and where the stroke leaves the canvas)
    /// the two differ by a few levels where a seam's outlines overlap, and
    /// nowhere by a missing corner or cap (a seam without its corner leaves
    /// the outside of a sharp turn empty).
    @Test func piecesDrawTheWholeStroke() throws {
        let cases: [(String, LineJoin, LineCap, Double, Bool)] = [
            ("miter", .miter, .butt, 5, true),
            ("round", .round, .round, 3.5, true),
            ("bevel, square caps", .bevel, .square, 2.25, true),
            ("thin, dense", .round, .butt, 1, true),
            ("aliased", .miter, .butt, 3, false),
        ]
        // Lines inside the canvas, then a curve; curves; lines that leave
        // the canvas, over and over.
        var lines = Self.zigzag(3000, x0: 8, y: 20, step: 0.13, height: 90)
        lines.addCurve(to: Point(x: 410, y: 130), control1: Point(x: 420, y: 20), control2: Point(x: 300, y: 140))
        // Quadratic arches along y = 70, up and down in turn.
        func wave(_ count: Int, step: Double) -> Path {
            var p = Path()
            p.move(to: Point(x: 5, y: 70))
            for i in 1...count {
                let x = 5 + Double(i) * step
                p.addQuadCurve(to: Point(x: x, y: 70), control: Point(x: x - step / 2, y: i % 2 == 0 ? 10 : 130))
            }
            return p
        }
        let curves = wave(1500, step: 0.27)
        let leaving = Self.zigzag(3000, x0: 8, y: -30, step: 0.13, height: 200)
        // Under 4 points a pixel of the canvas's width and height: the
        // outline's areas are summed exactly, not sampled (`Canvas.stroke`).
        var sparse = Self.zigzag(1200, x0: 8, y: 20, step: 0.33, height: 90)
        sparse.addQuadCurve(to: Point(x: 410, y: 130), control: Point(x: 420, y: 20))
        let sparseCurves = wave(600, step: 0.67)
        let sparseLeaving = Self.zigzag(1200, x0: 8, y: -30, step: 0.33, height: 200)
        let paths: [(String, Path, exact: Bool)] = [
            ("lines", lines, true), ("curves", curves, false), ("leaving", leaving, false),
            ("sparse lines", sparse, true), ("sparse curves", sparseCurves, false),
            ("sparse, leaving", sparseLeaving, false),
        ]
        for (name, join, cap, width, antialiased) in cases {
            for (kind, path, exact) in paths {
                func draw(pieceSize: Int) throws -> Image {
                    let c = try Canvas(width: 420, height: 140)
                    c.strokePieceSize = pieceSize
                    c.shouldAntialias = antialiased
                    c.strokeColor = Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.9)
                    c.lineWidth = width
                    c.lineJoin = join
                    c.lineCap = cap
                    c.stroke(path)
                    return c.makeImage()
                }
                let whole = try draw(pieceSize: .max)
                let pieces = try draw(pieceSize: 200)
                var worst = 0, differing = 0
                for (a, b) in zip(whole.pixels, pieces.pixels) where a != b {
                    worst = max(worst, abs(Int(a) - Int(b)))
                    differing += 1
                }
                // (Where outlines overlap, the exact areas' rasterizer is
                // off by a quarter of a row at most: 64 levels; a missing
                // corner or cap is off by the stroke's whole alpha, 230.)
                let allowed = exact || !antialiased ? 0 : 16
                #expect(worst <= allowed, "\(name), \(kind): a channel differs by \(worst)")
                #expect(differing < (exact ? 1 : 200), "\(name), \(kind): \(differing) channels differ")
            }
        }
    }

    /// Random polylines inside the canvas, with turns of every angle (full
    /// reversals, turns a miter just fits, straight on), segments from a
    /// hair to far longer than the width, every join and cap, mitre limits
    /// and a transform: in pieces, bit for bit the whole stroke where every
    /// seam is exact.
    @Test func exactSeamsAreTheWholeStrokeBitForBit() throws {
        var rng = SplitMix64(seed: 42)
        let joins: [LineJoin] = [.miter, .round, .bevel]
        let caps: [LineCap] = [.butt, .round, .square]
        var allExact = 0
        for round in 0..<12 {
            var path = Path()
            var p = Point(x: 150, y: 100)
            path.move(to: p)
            var heading = 0.0
            for _ in 0..<700 {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: heading += .pi  // back the way it came
                case 1: break  // straight on
                default: heading += Double.random(in: -2.8...2.8, using: &rng)
                }
                let length = Int.random(in: 0..<4, using: &rng) == 0 ? 3e-9 : Double.random(in: 0.05...40, using: &rng)
                var q = Point(x: p.x + length * cos(heading), y: p.y + length * sin(heading))
                q = Point(x: min(max(q.x, 20), 280), y: min(max(q.y, 20), 180))
                path.addLine(to: q)
                p = q
            }
            func draw(pieceSize: Int) throws -> Image {
                let c = try Canvas(width: 300, height: 200)
                c.strokePieceSize = pieceSize
                c.strokeColor = Color(red: 0.7, green: 0.2, blue: 0.3, alpha: 0.85)
                c.lineWidth = [0.5, 1, 2.5, 7][round % 4]
                c.lineJoin = joins[round % 3]
                c.lineCap = caps[(round / 3) % 3]
                c.miterLimit = round % 2 == 0 ? 10 : 1.5
                if round >= 9 { c.concatenate(Transform(a: 0.9, b: 0.1, c: -0.2, d: 0.8, tx: 20, ty: 10)) }
                c.stroke(path)
                return c.makeImage()
            }
            let pieces = try #require(StrokePieces.plan(path, size: 60))
            #expect(pieces.filter(\.endsExactly).count >= 4, "round \(round): exact seams")
            let a = try draw(pieceSize: 60), b = try draw(pieceSize: .max)
            if pieces.allSatisfy({ !$0.endsAtSeam || $0.endsExactly }) {
                allExact += 1
                let same = a == b
                #expect(same, "round \(round)")
            } else {
                // A seam beside a hair (under twice `StrokeSource.epsilon`)
                // is butt: a few levels off where the two pieces' outlines
                // overlap.
                let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= 16, "round \(round): a channel differs by \(worst)")
            }
        }
        #expect(allExact >= 6)
    }

    /// Pictures with several long strokes, some outside a band, some too
    /// dense or dashed to be cut, drawn on 2, 3 and 5 threads: one canvas's
    /// pixels, bit for bit, from one picture to the next.
    @Test func bandsShareThePiecesAndDrawOneCanvasPicture() throws {
        let picture: @Sendable (Canvas) -> Void = { c in
            c.strokeColor = Color(red: 0.8, green: 0.2, blue: 0.1, alpha: 0.8)
            c.lineWidth = 1.5
            c.lineJoin = .round
            c.stroke(Self.zigzag(9000, x0: 2, y: 10, step: 0.035, height: 280))
            // Only in the top rows.
            c.lineWidth = 3
            c.lineJoin = .miter
            c.stroke(Self.zigzag(8500, x0: 2, y: 4, step: 0.035, height: 20))
            c.setLineDash(phase: 0, lengths: [4, 2])
            c.stroke(Self.zigzag(8400, x0: 3, y: 150, step: 0.035, height: 60))
            c.setLineDash(phase: 0, lengths: [])
            c.shouldAntialias = false
            c.lineWidth = 2
            c.stroke(Self.zigzag(8300, x0: 1, y: 200, step: 0.035, height: 90))
        }
        let one = try Canvas(width: 320, height: 300)
        picture(one)
        let expected = one.makeImage()
        try Self.expectBandsDraw(picture, expected)
    }

    /// A stroke too short to cut (from 256 verbs to 511) that several bands
    /// draw is shared whole, as one piece; one within a band, one under 256
    /// verbs, and a closed outline that may be a ring are not: the bands
    /// draw one canvas's pixels either way, on 2, 3 and 5 threads.
    @Test func bandsShareShorterStrokesWhole() throws {
        let picture: @Sendable (Canvas) -> Void = { c in
            c.strokeColor = Color(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.7)
            c.lineWidth = 3
            c.lineJoin = .round
            c.lineCap = .round
            // Across the bands, open: shared.
            c.stroke(Self.zigzag(450, x0: 3, y: 20, step: 0.65, height: 240))
            // Under 256 verbs, across the bands.
            c.stroke(Self.zigzag(200, x0: 5, y: 30, step: 1.4, height: 230))
            // Within the top rows.
            c.lineJoin = .miter
            c.stroke(Self.zigzag(400, x0: 4, y: 4, step: 0.7, height: 12))
            // A closed outline across the bands: tried as a ring, stroked whole.
            var ring = Path()
            ring.move(to: Point(x: 160, y: 20))
            for k in 1..<300 {
                let a = Double(k) / 300 * 2 * .pi
                ring.addLine(to: Point(x: 160 + 120 * sin(a), y: 150 - 130 * cos(a)))
            }
            ring.closeSubpath()
            c.stroke(ring)
        }
        let one = try Canvas(width: 320, height: 300)
        picture(one)
        let expected = one.makeImage()
        // Two bands drawn one after the other, sharing: the first stroke only.
        let bitmap = try Bitmap(width: 320, height: 300)
        let share = StrokeShare()
        for rows in [0..<150, 150..<300] {
            let band = Canvas(bitmap: bitmap)
            band.limitRows(to: rows)
            band.strokeShare = share
            picture(band)
        }
        #expect(share.sharedCount == 1)
        #expect(bitmap.makeImage() == expected)
        try Self.expectBandsDraw(picture, expected)
    }

    /// A band whose n-th stroke is not the others' strokes it alone.
    @Test func aStrokeSharedUnderAnotherNumberIsNotTaken() throws {
        let share = StrokeShare()
        let rasterizer = StrokeRasterizer()
        func job(_ path: Path) -> StrokeJob {
            StrokeJob(
                path: path, style: StrokeStyle(lineWidth: 2), halfWidth: 1, transform: .identity, tolerance: 0.1, reach: 1.3)
        }
        let a = Self.zigzag(9000), b = Self.zigzag(9000, y: 70)
        let pa = try #require(StrokePieces.plan(a)), pb = try #require(StrokePieces.plan(b))
        let area = PixelBox(x0: 0, y0: 0, x1: 500, y1: 120)
        #expect(share.stroke(0, job: job(a), pieces: pa, area: area, mode: .sampled, like: rasterizer) != nil)
        #expect(share.stroke(0, job: job(a), pieces: pa, area: area, mode: .sampled, like: rasterizer) != nil)
        #expect(share.stroke(0, job: job(b), pieces: pb, area: area, mode: .sampled, like: rasterizer) == nil)
        #expect(share.stroke(0, job: job(a), pieces: pa, area: area, mode: .area, like: rasterizer) == nil)
        share.reset()
        #expect(share.stroke(0, job: job(b), pieces: pb, area: area, mode: .sampled, like: rasterizer) != nil)
    }
}
