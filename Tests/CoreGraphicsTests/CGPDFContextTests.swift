import CoreGraphics
import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

/// The same Core Graphics calls, for a bitmap and a PDF page: y up, a
/// filled rectangle, a stroked path, a gradient, a clipped ellipse.
func drawCGPicture(_ ctx: CGContext) {
    ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
    ctx.fill(CGRect(x: 0, y: 0, width: 200, height: 100))
    ctx.setFillColor(CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 1))
    ctx.fill(CGRect(x: 10, y: 60, width: 60, height: 30))  // near the top: y up
    ctx.setStrokeColor(CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1))
    ctx.setLineWidth(4)
    ctx.move(to: CGPoint(x: 10, y: 10))
    ctx.addLine(to: CGPoint(x: 190, y: 50))
    ctx.strokePath()
    let gradient = CGGradient(
        colorsSpace: CGColorSpaceCreateDeviceRGB(),
        colors: [CGColor(red: 1, green: 0.8, blue: 0, alpha: 1), CGColor(red: 0, green: 0.6, blue: 0.3, alpha: 1)] as CFArray,
        locations: [0, 1])!
    ctx.saveGState()
    ctx.addEllipse(in: CGRect(x: 120, y: 55, width: 70, height: 40))
    ctx.clip()
    ctx.drawLinearGradient(gradient, start: CGPoint(x: 120, y: 0), end: CGPoint(x: 190, y: 0), options: [])
    ctx.restoreGState()
}

@Suite struct CGPDFContextTests {
    @Test func aPDFContextWritesPagesAsTheBitmapContextDrawsThem() throws {
        let folder = try temporaryFolder("strata-cg-pdf")
        let data = NSMutableData()
        var box = CGRect(x: 0, y: 0, width: 200, height: 100)
        let info = [kCGPDFContextTitle: "Quarterly report", kCGPDFContextAuthor: "Strata"] as CFDictionary
        let consumer = try #require(CGDataConsumer(data: data))
        let pdf = try #require(CGContext(consumer: consumer, mediaBox: &box, info))
        // A PDF context has no bitmap; before a page, nothing is drawn.
        #expect(pdf.width == 0 && pdf.data == nil && pdf.makeImage() == nil)
        pdf.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        pdf.beginPDFPage(nil)
        drawCGPicture(pdf)
        pdf.endPDFPage()
        // A second page of its own size.
        var second = CGRect(x: 0, y: 0, width: 300, height: 150)
        pdf.beginPage(mediaBox: &second)
        pdf.setFillColor(CGColor(gray: 0.2, alpha: 1))
        pdf.fill(CGRect(x: 0, y: 0, width: 300, height: 10))
        pdf.endPage()
        pdf.closePDF()
        pdf.beginPDFPage(nil)  // closed: nothing
        let path = folder + "/cg.pdf"
        try (data as Data).write(to: URL(fileURLWithPath: path))
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let fields = try pdfInfo(path)
        #expect(fields["Pages"] == "2" && fields["Title"] == "Quarterly report" && fields["Author"] == "Strata", "\(fields)")
        #expect(fields["Page size"]?.hasPrefix("200 x 100 pts") == true, "\(fields)")
        #expect(try pdfInfo(path, page: 2)["Page size"]?.hasPrefix("300 x 150 pts") == true)
        // The first page as poppler draws it, beside the bitmap context's.
        let bitmap = try #require(bitmapContext(400, 200))
        bitmap.scaleBy(x: 2, y: 2)
        drawCGPicture(bitmap)
        let expected = try #require(bitmap.makeImage())
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-f", "1", "-l", "1", "-png", "-singlefile", path, folder + "/page"])
        let page = try Image(contentsOfPNGFile: folder + "/page.png")
        let d = try #require(difference(page, expected.image))
        #expect(d.mean < 1.5 && d.over8Percent < 3, "\(d) (\(folder))")
    }

    @Test func aURLContextWritesItsFileWhenClosedOrWhenItGoes() throws {
        let folder = try temporaryFolder("strata-cg-pdf-url")
        let url = URL(fileURLWithPath: folder + "/closed.pdf")
        do {
            let pdf = try #require(CGContext(url as NSURL, mediaBox: nil, nil))
            pdf.beginPDFPage(nil)
            pdf.fill(CGRect(x: 72, y: 72, width: 72, height: 72))
            // Not closed: the context's end writes it.
        }
        #expect(try runTool("/usr/bin/qpdf", ["--check", url.path]).status == 0)
        // US Letter when no box is given.
        #expect(try pdfInfo(url.path)["Page size"]?.hasPrefix("612 x 792 pts") == true)
        // A URL that is not a file's makes no context; a bad box no page.
        #expect(CGContext(URL(string: "https://example.org/x.pdf")! as NSURL, mediaBox: nil, nil) == nil)
        let data = NSMutableData()
        var bad = CGRect(x: 0, y: 0, width: -5, height: CGFloat.nan)
        let consumer = try #require(CGDataConsumer(data: data))
        let pdf = try #require(CGContext(consumer: consumer, mediaBox: &bad, nil))
        pdf.beginPDFPage(nil)
        pdf.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        pdf.closePDF()
        let path = folder + "/empty.pdf"
        try (data as Data).write(to: URL(fileURLWithPath: path))
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
    }
}
