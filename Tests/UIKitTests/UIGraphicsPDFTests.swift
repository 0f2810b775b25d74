import Foundation
import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

/// UIKit drawing code: y down, a rounded rectangle, a string, an image.
@MainActor
func drawUIKitPage(_ bounds: CGRect) {
    UIColor.white.setFill()
    UIRectFill(bounds)
    UIColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1).setFill()
    UIBezierPath(roundedRect: CGRect(x: 20, y: 20, width: 120, height: 60), cornerRadius: 12).fill()
    ("Invoice 2026-11" as NSString).draw(
        at: CGPoint(x: 20, y: 100), withAttributes: [.font: UIFont.systemFont(ofSize: 14), .foregroundColor: UIColor.black])
}

@MainActor
@Suite struct UIGraphicsPDFTests {
    @Test func aPDFRendererWritesUIKitDrawingAsPagesWithText() throws {
        let folder = try temporaryFolder("strata-uikit-pdf")
        let bounds = CGRect(x: 0, y: 0, width: 240, height: 160)
        let format = UIGraphicsPDFRendererFormat()
        format.documentInfo = [kCGPDFContextTitle as String: "Invoices"]
        let renderer = UIGraphicsPDFRenderer(bounds: bounds, format: format)
        var boundsSeen: [CGRect] = []
        let data = renderer.pdfData { context in
            context.beginPage()
            boundsSeen.append(context.pdfContextBounds)
            #expect(UIGraphicsGetCurrentContext() === context.cgContext)
            drawUIKitPage(bounds)
            context.beginPage(withBounds: CGRect(x: 0, y: 0, width: 100, height: 100), pageInfo: [:])
            boundsSeen.append(context.pdfContextBounds)
            context.fill(CGRect(x: 0, y: 0, width: 50, height: 50))
        }
        #expect(boundsSeen == [bounds, CGRect(x: 0, y: 0, width: 100, height: 100)])
        #expect(UIGraphicsGetCurrentContext() == nil)
        let path = folder + "/ui.pdf"
        try data.write(to: URL(fileURLWithPath: path))
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let info = try pdfInfo(path)
        #expect(info["Pages"] == "2" && info["Title"] == "Invoices", "\(info)")
        // The string is text a reader finds.
        #expect(try runTool("/usr/bin/pdftotext", [path, "-"]).output.contains("Invoice 2026-11"))
        // The first page as poppler draws it, beside an image renderer's.
        let imageFormat = UIGraphicsImageRendererFormat()
        imageFormat.scale = 2
        let image = UIGraphicsImageRenderer(bounds: bounds, format: imageFormat).image { _ in drawUIKitPage(bounds) }
        let expected = try #require(image.cgImage)
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-f", "1", "-l", "1", "-png", "-singlefile", path, folder + "/page"])
        let page = try Image(contentsOfPNGFile: folder + "/page.png")
        let d = try #require(difference(page, expected.image))
        #expect(d.mean < 2 && d.over8Percent < 4, "\(d) (\(folder))")
        // The second page: its square at its top left (y down).
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "72", "-f", "2", "-l", "2", "-png", "-singlefile", path, folder + "/second"])
        let second = try Image(contentsOfPNGFile: folder + "/second.png")
        #expect(second.width == 100 && second.pixels[(10 * second.bytesPerRow) + 10 * 4] < 30)
        #expect(second.pixels[(90 * second.bytesPerRow) + 90 * 4] > 200)
        // writePDF: the same document in a file.
        let url = URL(fileURLWithPath: folder + "/written.pdf")
        try renderer.writePDF(to: url) { context in
            context.beginPage()
            drawUIKitPage(bounds)
        }
        #expect(try runTool("/usr/bin/qpdf", ["--check", url.path]).status == 0)
    }

    @Test func boundsThatAreNotSizesMakeDocumentsWithoutPages() throws {
        let folder = try temporaryFolder("strata-uikit-pdf-bad")
        for (i, bounds) in [
            CGRect(x: 0, y: 0, width: CGFloat.nan, height: 100), CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 100),
            CGRect(x: 0, y: 0, width: 1e30, height: 1e30), CGRect(x: 0, y: 0, width: 0, height: 100),
            CGRect(x: 0, y: 0, width: -50, height: -50),
        ].enumerated() {
            let data = UIGraphicsPDFRenderer(bounds: bounds).pdfData { context in
                context.beginPage()
                context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
                "Hello".draw(at: .zero, withAttributes: nil)
            }
            let path = folder + "/bad-\(i).pdf"
            try data.write(to: URL(fileURLWithPath: path))
            #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0, "\(bounds)")
            // A negative size is the same rectangle the other way round: a page.
            let pages = try runTool("/usr/bin/qpdf", ["--show-npages", path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(pages == (i == 4 ? "1" : "0"), "\(bounds): \(pages)")
        }
    }

    @Test func theOlderFunctionsWriteToDataAndFiles() throws {
        let folder = try temporaryFolder("strata-uikit-pdf-old")
        let data = NSMutableData()
        UIGraphicsBeginPDFContextToData(data, CGRect(x: 0, y: 0, width: 200, height: 200), [kCGPDFContextAuthor as String: "Strata"])
        #expect(UIGraphicsGetPDFContextBounds() == CGRect(x: 0, y: 0, width: 200, height: 200))
        UIGraphicsBeginPDFPage()
        drawUIKitPage(CGRect(x: 0, y: 0, width: 200, height: 200))
        UIGraphicsBeginPDFPageWithInfo(CGRect(x: 0, y: 0, width: 100, height: 50), nil)
        UIRectFill(CGRect(x: 0, y: 0, width: 10, height: 10))
        UIGraphicsEndPDFContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
        #expect(UIGraphicsGetPDFContextBounds() == .zero)
        let path = folder + "/old.pdf"
        try (data as Data).write(to: URL(fileURLWithPath: path))
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let info = try pdfInfo(path)
        #expect(info["Pages"] == "2" && info["Author"] == "Strata", "\(info)")
        #expect(UIGraphicsBeginPDFContextToFile(folder + "/file.pdf", .zero, nil))
        UIGraphicsBeginPDFPage()
        UIRectFill(CGRect(x: 0, y: 0, width: 10, height: 10))
        UIGraphicsEndPDFContext()
        #expect(try pdfInfo(folder + "/file.pdf")["Page size"]?.hasPrefix("612 x 792 pts") == true)
        #expect(!UIGraphicsBeginPDFContextToFile("", .zero, nil))
        UIGraphicsEndPDFContext()  // none open: nothing
    }
}
