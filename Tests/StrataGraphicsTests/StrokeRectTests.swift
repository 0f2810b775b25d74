import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// Rectangles stroked with mitred corners are covered as the ring between
/// two rectangles (`RectRingCoverage`), not through an outline: the same
/// pixels as the stroker gives the same rectangle drawn as a general path.
@Suite struct StrokeRectTests {
    /// `rect` as `Path(rect:)` makes it (the ring), and the same corners with
    /// the closing side drawn (the stroker).
    func paths(_ rect: Rect) -> (ring: Path, general: Path) {
        var general = Path()
        general.move(to: Point(x: rect.minX, y: rect.minY))
        general.addLine(to: Point(x: rect.maxX, y: rect.minY))
        general.addLine(to: Point(x: rect.maxX, y: rect.maxY))
        general.addLine(to: Point(x: rect.minX, y: rect.maxY))
        general.addLine(to: Point(x: rect.minX, y: rect.minY))
        general.closeSubpath()
        return (Path(rect: rect), general)
    }

    func draw(_ path: Path, width: Double, transform: Transform, clip: Rect?, paint: Paint?) -> Image {
        let canvas = makeCanvas(64, 64)
        // The stroker's exact walk (a closed path is summed only where it
        // is sparse: `StrokeSumTests`).
        canvas.strokeRasterizer.sumsSparseOutlines = false
        canvas.fillColor = Color(white: 0.9)
        canvas.fill(Rect(x: 0, y: 0, width: 64, height: 64))
        if let clip { canvas.clip(to: clip) }
        canvas.concatenate(transform)
        canvas.strokeColor = Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.8)
        canvas.strokeStyle = StrokeStyle(lineWidth: width, lineJoin: .miter, miterLimit: 4)
        if let paint { canvas.stroke(path, with: paint) } else { canvas.stroke(path) }
        return canvas.makeImage()
    }

    @Test func ringsMatchTheStroker() throws {
        let gradient = Paint.linearGradient(
            Gradient(colors: [.red, .blue]), start: Point(x: 0, y: 0), end: Point(x: 64, y: 64))
        let rects = [
            Rect(x: 10, y: 10, width: 30, height: 20),  // on whole pixels
            Rect(x: 10.3, y: 9.6, width: 31.45, height: 17.8),  // between them
            Rect(x: 20.5, y: 20.5, width: 3.2, height: 40),  // a hole narrower than the line
            Rect(x: 5.25, y: 30.75, width: 1.7, height: 0.9),  // no hole at all
            Rect(x: 40, y: 12, width: -18.4, height: 25.1),  // a negative width
        ]
        let cases: [(Double, Transform, Rect?, Paint?)] = [
            (2, .identity, nil, nil),
            (1, .identity, nil, nil),
            (0.4, .identity, nil, nil),  // a hairline, faded
            (3.3, .identity, nil, nil),
            (2, Transform(a: 1.5, b: 0, c: 0, d: -0.75, tx: 3, ty: 50), nil, nil),  // flipped and stretched
            (2, .identity, Rect(x: 14, y: 0, width: 20, height: 23), nil),  // clipped
            (2, .identity, nil, gradient),
        ]
        for rect in rects {
            let (ring, general) = paths(rect)
            for (width, transform, clip, paint) in cases {
                let a = draw(ring, width: width, transform: transform, clip: clip, paint: paint)
                let b = draw(general, width: width, transform: transform, clip: clip, paint: paint)
                let d = try #require(difference(a, b))
                #expect(d.max <= 1, "\(rect), width \(width), \(transform), clip \(String(describing: clip)): \(d)")
                // Where the stroker drew something, so did the ring.
                let blank = draw(Path(), width: width, transform: transform, clip: clip, paint: paint)
                let drew = a != blank, strokerDrew = b != blank
                #expect(drew == strokerDrew)
            }
        }
    }

    /// Where a ring's sides count their runs of shaded columns from
    /// (`holeTop`, `SpanBlitter.blitColumns`) is the same whatever rows the
    /// canvas is limited to: the hole's first row in the clip without the
    /// limit, above every side row drawn.
    @Test func theSidesRunsStartAtOneRowInEveryBand() throws {
        let full = PixelBox(x0: 0, y0: 0, x1: 64, y1: 200)
        for (rect, h) in [(Rect(x: 10.5, y: 5.25, width: 20, height: 150), 1.0), (Rect(x: 3, y: -40.7, width: 9.5, height: 300), 1.5)] {
            let whole = try #require(RectRingCoverage(strokeOf: Path(rect: rect), halfWidth: h, transform: .identity, clip: full))
            #expect(whole.holeTop == max(0, Int((rect.minY + h).rounded(.down))))
            for rows in [0..<17, 17..<18, 40..<130, 150..<200] {
                let band = PixelBox(x0: 0, y0: rows.lowerBound, x1: 64, y1: rows.upperBound)
                guard
                    let part = RectRingCoverage(
                        strokeOf: Path(rect: rect), halfWidth: h, transform: .identity, clip: band, rasterClip: full)
                else { continue }
                #expect(part.holeTop == whole.holeTop, "\(rect), rows \(rows)")
            }
        }
    }

    /// What the ring does not take: round and bevelled corners, dashes, a
    /// rotation, a miter limit that bevels square corners, an open rectangle.
    @Test func otherRectanglesStillGoThroughTheStroker() {
        let rect = Rect(x: 10.5, y: 10.5, width: 20, height: 20)
        let clip = PixelBox(x0: 0, y0: 0, x1: 64, y1: 64)
        #expect(RectRingCoverage(strokeOf: Path(rect: rect), halfWidth: 1, transform: .identity, clip: clip) != nil)
        #expect(RectRingCoverage(strokeOf: paths(rect).general, halfWidth: 1, transform: .identity, clip: clip) == nil)
        var open = Path()
        open.addLines(between: [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)])
        #expect(RectRingCoverage(strokeOf: open, halfWidth: 1, transform: .identity, clip: clip) == nil)
        #expect(RectRingCoverage(strokeOf: Path(rect: Rect(x: 1, y: 1, width: 0, height: 5)), halfWidth: 1, transform: .identity, clip: clip) == nil)
        #expect(RectRingCoverage(strokeOf: Path(rect: rect), halfWidth: .nan, transform: .identity, clip: clip) == nil)
        // Wholly outside the clip: nothing to cover.
        #expect(
            RectRingCoverage(strokeOf: Path(rect: rect), halfWidth: 1, transform: .identity, clip: PixelBox(x0: 40, y0: 40, x1: 64, y1: 64)) == nil)
        // Corners other than mitred ones are drawn by the stroker: a round
        // join's corner is lighter than the ring's square one.
        func corner(_ join: LineJoin, limit: Double = 10) -> UInt8 {
            let canvas = makeCanvas(40, 40)
            canvas.strokeColor = .white
            canvas.strokeStyle = StrokeStyle(lineWidth: 4, lineJoin: join, miterLimit: limit)
            canvas.stroke(Path(rect: Rect(x: 10, y: 10, width: 20, height: 20)))
            return canvas.bitmap[8, 8].a
        }
        #expect(corner(.miter) == 255)
        #expect(corner(.round) < 255 && corner(.bevel) < 255 && corner(.miter, limit: 1.2) < 255)
    }
}
