import Foundation
import Testing

@testable import StrataGraphics

/// An offscreen canvas that scan-converts with another canvas's rasterizers
/// (`Canvas(width:height:sharingRasterizersWith:)`, the compositor's
/// groups) draws what a canvas of its own draws, and so does the canvas it
/// shares them with, however their drawings take turns.
@Suite struct SharedRasterizerTests {
    /// One of several drawings: fills large enough to take several bands
    /// of cells, curves, both fill rules, clips, strokes walked and summed,
    /// dashes, and fills without anti-aliasing.
    static func draw(_ step: Int, on c: Canvas) {
        let w = Double(c.bitmap.width), h = Double(c.bitmap.height)
        c.saveGState()
        defer { c.restoreGState() }
        switch step % 6 {
        case 0:
            var p = Path()
            p.move(to: Point(x: 3.3, y: 1.7))
            p.addCurve(to: Point(x: w - 2.1, y: h - 3.4), control1: Point(x: w * 1.2, y: -20), control2: Point(x: -30, y: h * 1.3))
            p.addLine(to: Point(x: 5.5, y: h - 1.25))
            c.fillColor = Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)
            c.fill(p, rule: .evenOdd)
        case 1:
            c.clip(to: Path(ellipseIn: Rect(x: 4.5, y: 6.25, width: w - 9.3, height: h - 11.1)))
            c.fillColor = Color(red: 0.1, green: 0.4, blue: 0.9, alpha: 0.7)
            c.fill(Rect(x: 0, y: 0, width: w, height: h))
        case 2:
            var p = Path()
            for i in 0..<40 {
                let a = Double(i) * 0.7
                let pt = Point(x: w / 2 + cos(a) * w * 0.45, y: h / 2 + sin(a * 1.3) * h * 0.45)
                if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
            }
            c.strokeColor = .black
            c.lineWidth = 2.5
            c.stroke(p)
        case 3:
            c.strokeColor = Color(red: 0.2, green: 0.7, blue: 0.3, alpha: 0.9)
            c.lineWidth = 1.5
            c.setLineDash(phase: 0.5, lengths: [7, 3])
            c.stroke(Path(roundedRect: Rect(x: 6.2, y: 5.1, width: w - 12.7, height: h - 10.3), cornerWidth: 9, cornerHeight: 9))
        case 4:
            c.shouldAntialias = false
            c.fillColor = Color(red: 0.5, green: 0.1, blue: 0.6, alpha: 1)
            c.fill(Path(ellipseIn: Rect(x: 10.4, y: 3.3, width: w * 0.6, height: h - 7)))
        default:
            var p = Path()
            p.move(to: Point(x: 1, y: h * 0.5))
            for i in 1...300 { p.addLine(to: Point(x: Double(i) * w / 300, y: h * 0.5 + (i % 2 == 0 ? 1 : -1) * h * 0.4)) }
            c.strokeColor = Color(red: 0.3, green: 0.3, blue: 0.3, alpha: 0.6)
            c.lineWidth = 1
            c.stroke(p)
        }
    }

    @Test func canvasesSharingRasterizersDrawWhatTheirOwnDraw() throws {
        // A wide parent (its cell grid grows large) and smaller offscreen
        // canvases made from it, drawn in turn with it, then let go.
        let parent = try Canvas(width: 1400, height: 900)
        let alone = try Canvas(width: 1400, height: 900)
        let sizes = [(120, 80), (700, 1600), (33, 17), (400, 400)]
        for (i, size) in sizes.enumerated() {
            let shared = try Canvas(width: size.0, height: size.1, sharingRasterizersWith: parent)
            #expect(shared.areaRasterizer === parent.areaRasterizer)
            #expect(shared.strokeRasterizer === parent.strokeRasterizer)
            let own = try Canvas(width: size.0, height: size.1)
            for step in 0..<6 {
                Self.draw(step + i, on: shared)
                Self.draw(step + i, on: own)
                Self.draw(step * 5 + i, on: parent)
                Self.draw(step * 5 + i, on: alone)
            }
            #expect(shared.makeImage() == own.makeImage(), "offscreen \(size)")
        }
        #expect(parent.makeImage() == alone.makeImage())
    }

    /// A canvas kept from frame to frame gives back what its stroke
    /// rasterizer grew for a very long outline (here grown as a dense
    /// chart line of a million points grows it), and draws on as before.
    @Test func trimmingGivesBackWhatALongStrokeGrew() throws {
        let c = try Canvas(width: 300, height: 200)
        var p = Path()
        p.move(to: Point(x: 0, y: 100))
        for i in 1...2000 { p.addLine(to: Point(x: Double(i) * 300 / 2000, y: 100 + (i % 2 == 0 ? 90 : -90))) }
        c.strokeColor = .black
        c.lineWidth = 1
        c.stroke(p)
        c.strokeRasterizer.edges.reserve(400_000)
        c.strokeRasterizer.sorted.reserve(400_000)
        #expect(c.strokeRasterizer.edgeCapacity >= 400_000)
        c.trimScratch()
        #expect(c.strokeRasterizer.edgeCapacity <= 1 << 16)
        #expect(c.strokeRasterizer.sorted.capacity <= 1 << 16)
        let fresh = try Canvas(width: 300, height: 200)
        fresh.strokeColor = .black
        fresh.lineWidth = 1
        fresh.stroke(p)
        c.clear(c.bounds)
        c.stroke(p)
        #expect(c.makeImage() == fresh.makeImage())
    }

    @Test func aSharedCanvasOfABadSizeIsRefused() throws {
        let parent = try Canvas(width: 10, height: 10)
        #expect(throws: GraphicsError.self) { try Canvas(width: -1, height: 5, sharingRasterizersWith: parent) }
        #expect(throws: GraphicsError.self) { try Canvas(width: 1 << 20, height: 1 << 20, sharingRasterizersWith: parent) }
    }
}
