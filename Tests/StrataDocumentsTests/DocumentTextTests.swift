import Foundation
import StrataGraphics
import StrataTestSupport
import StrataText
import Testing

@testable import StrataDocuments

/// Two lines of text: Latin with an underline and a background, and
/// Chinese (from the fallback face).
func drawText(_ c: Canvas) {
    c.fillColor = .white
    c.fill(Rect(x: 0, y: 0, width: 200, height: 150))
    var text = AttributedText(
        "Heart Rate 72 bpm\n",
        attributes: TextAttributes(
            font: Font(family: "DejaVu Sans", size: 14, cascadeList: ["WenQuanYi Micro Hei"]),
            foregroundColor: Color(red: 0.8, green: 0.1, blue: 0.2)))
    var second = TextAttributes(font: Font(family: "DejaVu Sans", size: 18, cascadeList: ["WenQuanYi Micro Hei"]))
    second.underline = TextDecoration(.single)
    second.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.6)
    text.append("心率 Average", attributes: second)
    c.draw(TextLayout(text, width: 180), at: Point(x: 10, y: 20))
}

@Suite struct DocumentTextTests {
    @Test func textIsTextWithSubsetFontsThatPopplerDrawsAndFinds() throws {
        let folder = try temporaryFolder("strata-pdf-text")
        let document = PDFDocument()
        drawText(try document.beginPage(size: Size(width: 200, height: 150)))
        let path = folder + "/text.pdf"
        try document.write(to: path)
        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        #expect(check.status == 0, "\(check.output)")
        // The text comes out as text, Chinese included.
        let text = try runTool("/usr/bin/pdftotext", ["-enc", "UTF-8", path, "-"]).output
        #expect(text.contains("Heart Rate 72 bpm"), "\(text)")
        #expect(text.contains("心率 Average"), "\(text)")
        // Both faces embedded, as subsets.
        let fonts = try runTool("/usr/bin/pdffonts", [path]).output
        let rows = fonts.split(separator: "\n").filter { $0.contains("CID TrueType") }
        #expect(rows.count == 2, "\(fonts)")
        #expect(rows.allSatisfy { $0.contains(" yes yes ") }, "\(fonts)")
        // A subset of a Chinese face, not the face: far below its 5 MB.
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size < 400_000, "\(size) bytes")
        // Poppler draws the same glyphs where the canvas does.
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        drawText(raster)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 2 && d.over8Percent < 6, "\(d) (\(folder))")
        print("text.pdf: \(size) bytes, \(d)")
    }

    @Test func onSVGTextIsDrawnAsOutlinesWithTheTextKept() throws {
        let folder = try temporaryFolder("strata-svg-text")
        let document = try SVGDocument(size: Size(width: 200, height: 150))
        drawText(document.canvas)
        try document.write(to: folder + "/text.svg")
        // The characters, invisible, over the outlines: one <text> a run.
        let svg = String(decoding: document.makeData(), as: UTF8.self)
        let kept = svg.components(separatedBy: "<text ").dropFirst().compactMap { $0.split(separator: ">").dropFirst().first }
            .map { String($0.prefix { $0 != "<" }) }.joined()
        for word in ["Heart", "Rate", "72", "bpm", "心率", "Average"] { #expect(kept.contains(word), "\(word) in \(kept)") }
        #expect(svg.contains("fill-opacity=\"0\""))
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/librsvg.png", folder + "/text.svg"])
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        drawText(raster)
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster.makeImage()))
        #expect(d.mean < 2 && d.over8Percent < 6, "\(d) (\(folder))")
    }
}

@Suite struct DocumentCFFTextTests {
    /// A face of CFF outlines (an OpenType `OTTO` file: URW's Nimbus Sans)
    /// is embedded as such (`FontFile3`, `/OpenType`), its text found and
    /// drawn as the canvas draws it.
    @Test func textInACFFFaceIsEmbeddedAsOpenType() throws {
        let folder = try temporaryFolder("strata-pdf-cff")
        let font = Font(family: "Nimbus Sans", size: 20)
        try #require(
            font.primaryFace?.path.hasSuffix(".otf") == true, "Nimbus Sans (fonts-urw-base35) is installed by scripts/install-deps.sh")
        func draw(_ c: Canvas) {
            c.fillColor = .white
            c.fill(Rect(x: 0, y: 0, width: 240, height: 60))
            c.draw(TextLayout(AttributedText("Quarterly 2026", attributes: TextAttributes(font: font)), width: 220), at: Point(x: 10, y: 15))
        }
        let document = PDFDocument()
        draw(try document.beginPage(size: Size(width: 240, height: 60)))
        let path = folder + "/cff.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        #expect(try runTool("/usr/bin/pdftotext", [path, "-"]).output.contains("Quarterly 2026"))
        let fonts = try runTool("/usr/bin/pdffonts", [path]).output
        #expect(fonts.contains("CID Type 0C") || fonts.contains("CID Type 0"), "\(fonts)")
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let raster = try Canvas(width: 480, height: 120)
        raster.scaleBy(x: 2, y: 2)
        draw(raster)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 3 && d.over8Percent < 6, "\(d) (\(folder))")
    }
}
