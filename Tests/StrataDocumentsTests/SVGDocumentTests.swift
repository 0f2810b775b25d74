import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataDocuments

@Suite struct SVGDocumentTests {
    @Test func librsvgDrawsTheDocumentAsTheCanvasDoes() throws {
        let folder = try temporaryFolder("strata-svg")
        let document = try SVGDocument(size: Size(width: 200, height: 150), title: "Scene")
        #expect(document.canvas.bounds == Rect(x: 0, y: 0, width: 200, height: 150))
        drawScene(document.canvas)
        let path = folder + "/scene.svg"
        try document.write(to: path)
        let text = String(decoding: document.makeData(), as: UTF8.self)
        #expect(text.contains("width=\"200pt\" height=\"150pt\" viewBox=\"0 0 200 150\""))
        #expect(text.contains("<title>Scene</title>"))
        // librsvg's picture at twice the size against the same calls on a
        // bitmap at scale 2.
        let rendered = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/scene.png", path])
        #expect(rendered.status == 0, "\(rendered.output)")
        let librsvg = try Image(contentsOfPNGFile: folder + "/scene.png")
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        drawScene(raster)
        let d = try #require(difference(librsvg, raster.makeImage()))
        #expect(d.mean < 0.6 && d.over8Percent < 2.5, "\(d) (\(folder))")
    }

    @Test func clipsNestAndAreWrittenOnce() throws {
        let document = try SVGDocument(size: Size(width: 100, height: 100))
        let c = document.canvas
        c.clip(to: Rect(x: 0, y: 0, width: 60, height: 100))
        c.clip(to: Path(ellipseIn: Rect(x: 20, y: 0, width: 80, height: 100)), rule: .evenOdd)
        c.fill(Rect(x: 0, y: 0, width: 100, height: 100))
        c.fill(Rect(x: 0, y: 0, width: 50, height: 50))
        let text = String(decoding: document.makeData(), as: UTF8.self)
        // Two clip paths, each written once; both fills inside both.
        #expect(text.components(separatedBy: "<clipPath ").count == 3)
        #expect(text.contains("clip-rule=\"evenodd\""))
        #expect(text.components(separatedBy: "<g clip-path=\"url(#c1)\"><g clip-path=\"url(#c2)\"><rect").count == 3)
    }

    @Test func badSizesThrowAndTextIsEscaped() throws {
        for bad in [Size(width: 0, height: 1), Size(width: 1, height: .infinity), Size(width: 1, height: 1e6)] {
            #expect(throws: DocumentError.self) { _ = try SVGDocument(size: bad) }
        }
        let document = try SVGDocument(size: Size(width: 10, height: 10), title: "a < b & \"c\" 'd' \u{1}心")
        var nanPath = Path()
        nanPath.move(to: Point(x: .nan, y: 1))
        nanPath.addLine(to: Point(x: 5, y: 5))
        document.canvas.fill(nanPath)
        document.canvas.lineWidth = 0
        document.canvas.stroke(Rect(x: 1, y: 1, width: 8, height: 8))
        let text = String(decoding: document.makeData(), as: UTF8.self)
        #expect(text.contains("<title>a &lt; b &amp; &quot;c&quot; &apos;d&apos; 心</title>"))
        #expect(!text.contains("nan") && !text.contains("inf"))
        // A zero-width line is the viewer's thinnest.
        #expect(text.contains("vector-effect=\"non-scaling-stroke\""))
        #expect(SVGDrawing.hex(Color(red: 1, green: 0.5, blue: 0)) == "#ff8000")
        #expect(throws: DocumentError.self) { try document.write(to: "/nonexistent/folder/x.svg") }
    }
}
