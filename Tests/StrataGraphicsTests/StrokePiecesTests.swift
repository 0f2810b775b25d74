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
    }

    /// The pieces cover every verb in order; after a seam a piece starts one
    /// verb back, at that verb's start.
    @Test func piecesCoverThePathWithSeams() throws {
        let path = Self.zigzag(1000)
        let pieces = try #require(StrokePieces.plan(path, size: 100))
        // (Each piece after a seam starts one verb back: 99 new verbs each.)
        #expect(pieces.count == 11)
        #expect(pieces.first?.verbs.lowerBound == 0 && pieces.first?.start == nil)
        #expect(pieces.last?.verbs.upperBound == path.verbs.count && pieces.last?.endsAtSeam == false)
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            #expect(a.endsAtSeam)
            #expect(b.verbs.lowerBound == a.verbs.upperBound - 1)
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

    /// Stroking in pieces draws the stroke of the whole path: the two differ
    /// by a level or two where a seam's outlines overlap, and nowhere by a
    /// missing corner or cap (a seam without its corner leaves the outside of
    /// a sharp turn empty).
    @Test func piecesDrawTheWholeStroke() throws {
        let cases: [(String, LineJoin, LineCap, Double, Bool)] = [
            ("miter", .miter, .butt, 5, true),
            ("round", .round, .round, 3.5, true),
            ("bevel, square caps", .bevel, .square, 2.25, true),
            ("thin, dense", .round, .butt, 1, true),
            ("aliased", .miter, .butt, 3, false),
        ]
        for (name, join, cap, width, antialiased) in cases {
            func draw(pieceSize: Int) throws -> Image {
                let c = try Canvas(width: 420, height: 140)
                c.strokePieceSize = pieceSize
                c.shouldAntialias = antialiased
                c.strokeColor = Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.9)
                c.lineWidth = width
                c.lineJoin = join
                c.lineCap = cap
                var path = Self.zigzag(3000, x0: 8, y: 20, step: 0.13, height: 90)
                path.addCurve(to: Point(x: 410, y: 130), control1: Point(x: 420, y: 20), control2: Point(x: 300, y: 140))
                c.stroke(path)
                return c.makeImage()
            }
            let whole = try draw(pieceSize: .max)
            let pieces = try draw(pieceSize: 500)
            var worst = 0, differing = 0
            for (a, b) in zip(whole.pixels, pieces.pixels) where a != b {
                worst = max(worst, abs(Int(a) - Int(b)))
                differing += 1
            }
            #expect(worst <= (antialiased ? 8 : 0), "\(name): a channel differs by \(worst)")
            #expect(differing < 200, "\(name): \(differing) channels differ")
        }
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

    /// A stroke too short to cut (256 verbs and more) that several bands
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
            c.stroke(Self.zigzag(600, x0: 3, y: 20, step: 0.5, height: 240))
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
