import Foundation
import Testing

@testable import StrataGraphics

@Suite struct ClipTests {
    private func filled(_ setUp: (Canvas) -> Void) -> Bitmap {
        let canvas = makeCanvas(40, 40)
        setUp(canvas)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        return canvas.bitmap
    }

    @Test func clipToACircle() {
        let b = filled { $0.clip(to: Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20))) }
        #expect(b[20, 20].a == 255 && b[5, 5].a == 0 && b[28, 20].a == 255 && b[31, 20].a == 0)
        #expect(abs(coveredArea(b) - 100 * Double.pi) < 0.5)
        // The edge is anti-aliased: some pixels partly covered.
        #expect((0..<40).contains { x in (1..<255).contains(b[x, 13].a) })
    }

    @Test func fillRulesApplyToClips() {
        var rings = Path(ellipseIn: Rect(x: 5, y: 5, width: 30, height: 30))
        rings.addEllipse(in: Rect(x: 15, y: 15, width: 10, height: 10))
        let winding = filled { $0.clip(to: rings, rule: .winding) }
        let evenOdd = filled { $0.clip(to: rings, rule: .evenOdd) }
        #expect(winding[20, 20].a == 255 && evenOdd[20, 20].a == 0 && evenOdd[10, 20].a == 255)
    }

    @Test func clipsIntersect() {
        let b = filled {
            $0.clip(to: Path(ellipseIn: Rect(x: 0, y: 10, width: 24, height: 20)))
            $0.clip(to: Path(ellipseIn: Rect(x: 16, y: 10, width: 24, height: 20)))
        }
        // Only the lens where both overlap.
        #expect(b[20, 20].a == 255 && b[8, 20].a == 0 && b[32, 20].a == 0)
        let c = filled {
            $0.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 40)))
            $0.clip(to: Rect(x: 0, y: 0, width: 20, height: 40))  // whole pixels: the fast path
        }
        #expect(c[10, 20].a == 255 && c[30, 20].a == 0 && c[1, 1].a == 0)
        #expect(abs(coveredArea(c) - 200 * Double.pi) < 0.5)
    }

    @Test func saveAndRestoreBringBackTheOldClip() {
        let canvas = makeCanvas(40, 40)
        canvas.saveGState()
        canvas.clip(to: Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20)))
        #expect(canvas.clipCoverage(x: 5, y: 5) == 0 && canvas.clipCoverage(x: 20, y: 20) == 255)
        canvas.restoreGState()
        #expect(canvas.clipCoverage(x: 5, y: 5) == 255)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        #expect(coveredArea(canvas.bitmap) == 1600)
    }

    @Test func rotatedRectangleClipsExactly() {
        let canvas = makeCanvas(40, 40)
        canvas.translateBy(x: 20, y: 20)
        canvas.rotate(by: .pi / 4)
        canvas.clip(to: Rect(x: -10, y: -10, width: 20, height: 20))
        canvas.concatenate(canvas.transform.inverted()!)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        #expect(abs(coveredArea(canvas.bitmap) - 400) < 0.5)  // a diamond of area 400
        #expect(canvas.bitmap[20, 20].a == 255 && canvas.bitmap[6, 6].a == 0 && canvas.bitmap[32, 20].a == 255)
    }

    @Test func everyKindOfDrawingIsClipped() {
        let circle = Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20))
        let draws: [(Canvas) -> Void] = [
            { $0.fill(Path(rect: $0.bounds)) },
            { $0.fillEllipse(in: Rect(x: -20, y: -20, width: 80, height: 80)) },
            { $0.fill(Rect(x: 0, y: 0, width: 40, height: 40), with: .linearGradient(Gradient(colors: [.white, .white]), start: .zero, end: Point(x: 40, y: 0))) },
            { $0.drawLinearGradient(Gradient(colors: [.white, .white]), start: .zero, end: Point(x: 40, y: 0), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation]) },
            { c in
                c.strokeColor = .white
                c.lineWidth = 40
                var p = Path()
                p.move(to: Point(x: 0, y: 20)); p.addLine(to: Point(x: 40, y: 20))
                c.stroke(p)
            },
        ]
        for (i, draw) in draws.enumerated() {
            let canvas = makeCanvas(40, 40)
            canvas.clip(to: circle)
            canvas.fillColor = .white
            draw(canvas)
            #expect(abs(coveredArea(canvas.bitmap) - 100 * Double.pi) < 0.5, "drawing \(i): \(coveredArea(canvas.bitmap))")
            #expect(canvas.bitmap[2, 2].a == 0, "drawing \(i)")
        }
    }

    @Test func emptyAndBadClipPathsClipEverything() {
        for path in [Path(), Path(rect: Rect(x: 0, y: .nan, width: 5, height: 5)), Path(rect: Rect(x: 100, y: 100, width: 5, height: 5))] {
            let b = filled { $0.clip(to: path) }
            #expect(coveredArea(b) == 0)
        }
    }
}
