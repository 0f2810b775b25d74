import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataDocuments

/// A picture of what a page can draw so far: colours, both fill rules,
/// clips, strokes with caps, joins and dashes under a rotation, alpha and a
/// blend mode.
func drawScene(_ c: Canvas) {
    c.fillColor = .white
    c.fill(Rect(x: 0, y: 0, width: 200, height: 150))
    c.fillColor = Color(red: 0.1, green: 0.4, blue: 0.85)
    c.fill(Rect(x: 10, y: 10, width: 60, height: 40))
    // A five-pointed star: its middle is empty under the even-odd rule.
    var star = Path()
    for i in 0..<5 {
        let angle = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
        let p = Point(x: 120 + 30 * cos(angle), y: 40 + 30 * sin(angle))
        if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
    }
    star.closeSubpath()
    c.fillColor = Color(red: 0.95, green: 0.7, blue: 0.1)
    c.fill(star, rule: .evenOdd)
    // A circle clipped to its left half.
    c.withSavedGState {
        c.clip(to: Rect(x: 10, y: 70, width: 30, height: 60))
        c.fillColor = Color(red: 0.2, green: 0.7, blue: 0.3)
        c.fillEllipse(in: Rect(x: 10, y: 70, width: 60, height: 60))
    }
    // A rotated square, stroked thick with round joins, and a dashed line.
    c.withSavedGState {
        c.translateBy(x: 120, y: 110)
        c.rotate(by: Double.pi / 8)
        c.strokeColor = Color(red: 0.5, green: 0.1, blue: 0.6)
        c.lineWidth = 6
        c.lineJoin = .round
        c.stroke(Rect(x: -20, y: -20, width: 40, height: 40))
    }
    c.strokeColor = .black
    c.lineWidth = 2
    c.lineCap = .butt
    c.setLineDash(phase: 0, lengths: [8, 4])
    var line = Path()
    line.move(to: Point(x: 10, y: 140))
    line.addQuadCurve(to: Point(x: 190, y: 140), control: Point(x: 100, y: 100))
    c.stroke(line)
    c.setLineDash(phase: 0, lengths: [])
    // Half-transparent red, multiplied over the blue rectangle.
    c.withSavedGState {
        c.alpha = 0.5
        c.blendMode = .multiply
        c.fillColor = Color(red: 1, green: 0.2, blue: 0.2)
        c.fillEllipse(in: Rect(x: 40, y: 20, width: 50, height: 40))
    }
}

@Suite struct PDFDocumentTests {
    @Test func pagesAreFilesQpdfAcceptsAndPopplerDrawsAsTheCanvasDoes() throws {
        let folder = try temporaryFolder("strata-pdf")
        let document = PDFDocument(info: .init(title: "Scene", creator: "PDFDocumentTests"))
        let canvas = try document.beginPage(size: Size(width: 200, height: 150))
        #expect(canvas.bounds == Rect(x: 0, y: 0, width: 200, height: 150))
        drawScene(canvas)
        // A second page of another size: the media boxes are per page.
        let second = try document.beginPage(size: Size(width: 300, height: 100))
        second.fillColor = Color(red: 0.8, green: 0.1, blue: 0.1)
        second.fill(Rect(x: 0, y: 0, width: 150, height: 100))
        #expect(document.pageCount == 2)
        let path = folder + "/scene.pdf"
        try document.write(to: path)

        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("No syntax or stream encoding errors"))
        let info = try runTool("/usr/bin/pdfinfo", ["-l", "2", path])
        #expect(info.output.contains("Pages:           2"))
        #expect(info.output.contains("Title:           Scene"))
        #expect(info.output.contains("Producer:        Strata"))
        #expect(info.output.contains("Page    1 size:  200 x 150 pts"))
        #expect(info.output.contains("Page    2 size:  300 x 100 pts"))

        // Poppler's picture of page 1 at 144 dpi against the same calls
        // on a bitmap at scale 2: the same shapes, edges anti-aliased a
        // little differently.
        let rendered = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-f", "1", "-l", "1", "-png", "-singlefile", path, folder + "/page1"])
        #expect(rendered.status == 0, "\(rendered.output)")
        let poppler = try Image(contentsOfPNGFile: folder + "/page1.png")
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        drawScene(raster)
        let mine = raster.makeImage()
        try? mine.writePNG(to: folder + "/raster.png")
        let d = try #require(difference(poppler, mine))
        #expect(d.mean < 0.6 && d.over8Percent < 2.5, "\(d) (\(folder))")
    }

    @Test func theInformationIsWrittenAsTextStrings() throws {
        let folder = try temporaryFolder("strata-pdf-info")
        let date = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC
        let document = PDFDocument(
            info: .init(
                title: "Heart rate (résumé) \\ 心率", author: "A (B)", subject: "s", keywords: "k1, k2", creator: "c",
                creationDate: date))
        _ = try document.beginPage(size: Size(width: 10, height: 10))
        let path = folder + "/info.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let info = try runTool("/usr/bin/pdfinfo", ["-enc", "UTF-8", "-isodates", path]).output
        #expect(info.contains("Title:           Heart rate (résumé) \\ 心率"), "\(info)")
        #expect(info.contains("Author:          A (B)"))
        #expect(info.contains("Keywords:        k1, k2"))
        #expect(info.contains("CreationDate:    2027-01-15T08:00:00"), "\(info)")
        #expect(PDFSyntax.textString("a(b)\\") == "(a\\(b\\)\\\\)")
        #expect(PDFSyntax.textString("é") == "<FEFF00E9>")
        #expect(PDFSyntax.textString("🙂") == "<FEFFD83DDE42>")
    }

    @Test func numbersAreWrittenAsPDFReadsThem() {
        #expect(PDFSyntax.number(0) == "0")
        #expect(PDFSyntax.number(-0.0) == "0")
        #expect(PDFSyntax.number(2) == "2")
        #expect(PDFSyntax.number(-2.5) == "-2.5")
        #expect(PDFSyntax.number(0.05) == "0.05")
        #expect(PDFSyntax.number(1.23456) == "1.2346")
        #expect(PDFSyntax.number(-0.00004) == "0")
        #expect(PDFSyntax.number(1e-3) == "0.001")
        #expect(PDFSyntax.number(123_456.789) == "123456.789")
        #expect(PDFSyntax.number(1e12) == "32767000")
        #expect(PDFSyntax.number(-1e12) == "-32767000")
        #expect(PDFSyntax.number(.nan) == "0" && PDFSyntax.number(.infinity) == "0")
    }

    @Test func badSizesThrowAndBadValuesDrawNothing() throws {
        let document = PDFDocument()
        for bad in [Size(width: 0, height: 10), Size(width: -1, height: 10), Size(width: .nan, height: 10), Size(width: 20_000, height: 10)] {
            let error = #expect(throws: DocumentError.self) { _ = try document.beginPage(size: bad) }
            guard case .invalidPageSize(let w, let h)? = error else {
                Issue.record("expected invalidPageSize, got \(String(describing: error))")
                continue
            }
            #expect((w.isNaN && bad.width.isNaN) || (w == bad.width && h == bad.height))
        }
        #expect(document.pageCount == 0)
        document.endPage()  // nothing open: nothing happens
        let canvas = try document.beginPage(size: Size(width: 50, height: 50))
        // NaN paths, a NaN alpha, a zero scale and an empty clip draw nothing;
        // drawing still works afterwards.
        var nanPath = Path()
        nanPath.move(to: Point(x: .nan, y: 0))
        nanPath.addLine(to: Point(x: 10, y: 10))
        canvas.fill(nanPath)
        canvas.stroke(nanPath)
        canvas.withSavedGState {
            canvas.scaleBy(x: 0, y: 0)
            canvas.stroke(Rect(x: 0, y: 0, width: 10, height: 10))
        }
        canvas.withSavedGState {
            canvas.clip(to: Rect(x: 0, y: 0, width: 0, height: 0))
            #expect(canvas.clipBoundingBox.isNull)
            canvas.fill(Rect(x: 0, y: 0, width: 50, height: 50))
        }
        canvas.withSavedGState {
            canvas.clip(to: Rect(x: 10, y: 10, width: 20, height: 20))
            #expect(canvas.clipBoundingBox == Rect(x: 10, y: 10, width: 20, height: 20))
        }
        canvas.clear(Rect(x: 0, y: 0, width: 50, height: 50))
        // What a page does not draw yet (gradients, images, masks,
        // transparency layers, shadows, sprites) draws nothing and touches
        // nothing: the placeholder bitmap keeps its one transparent pixel.
        let gradient = Gradient(colors: [.black, .white])
        let image = try Image(width: 4, height: 4, premultipliedPixels: [UInt8](repeating: 255, count: 64))
        canvas.drawLinearGradient(gradient, start: Point(x: 0, y: 0), end: Point(x: 50, y: 50))
        canvas.drawRadialGradient(gradient, startCenter: Point(x: 25, y: 25), startRadius: 0, endCenter: Point(x: 25, y: 25), endRadius: 40)
        canvas.drawConicGradient(gradient, center: Point(x: 25, y: 25), angle: 0)
        canvas.fill(Rect(x: 0, y: 0, width: 50, height: 50), with: .linearGradient(gradient, start: Point(x: 0, y: 0), end: Point(x: 9, y: 0)))
        canvas.draw(image, in: Rect(x: 0, y: 0, width: 50, height: 50))
        canvas.draw(image, atDeviceX: 20, y: 20)
        canvas.drawSprites([image], [Sprite(image: 0, transform: Transform(translationX: 30, y: 30), color: .white)])
        canvas.withSavedGState {
            canvas.clip(to: Rect(x: 0, y: 0, width: 50, height: 50), mask: image)
            canvas.beginTransparencyLayer()
            canvas.setShadow(offset: Size(width: 3, height: 3), blur: 4)
            canvas.fill(Rect(x: 30, y: 30, width: 15, height: 15))
            canvas.endTransparencyLayer()
        }
        #expect(canvas.bitmap.width == 1 && canvas.makeImage()[0, 0] == .transparent)
        canvas.fill(Rect(x: 5, y: 5, width: 10, height: 10))
        let data = document.makeData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-1.7"))
        #expect(text.hasSuffix("%%EOF\n"))
        #expect(!text.contains("nan") && !text.contains("inf"))
        // Written twice, the same bytes.
        #expect(document.makeData() == data)
        #expect(throws: DocumentError.self) { try document.write(to: "/nonexistent/folder/x.pdf") }
    }
}

/// Gradients as paints: a linear one of three stops, one of them half
/// transparent, over a dark stripe, and a radial one between two circles.
func drawGradients(_ c: Canvas) {
    c.fillColor = .white
    c.fill(Rect(x: 0, y: 0, width: 200, height: 150))
    c.fillColor = Color(red: 0.2, green: 0.2, blue: 0.3)
    c.fill(Rect(x: 0, y: 30, width: 200, height: 20))
    let linear = Gradient(
        colors: [Color(red: 0.9, green: 0.1, blue: 0.2), Color(red: 1, green: 0.8, blue: 0.1, alpha: 0.5), Color(red: 0.1, green: 0.3, blue: 0.9)],
        locations: [0.1, 0.5, 0.9])
    c.fill(Rect(x: 10, y: 10, width: 180, height: 60), with: .linearGradient(linear, start: Point(x: 10, y: 0), end: Point(x: 190, y: 0)))
    let radial = Gradient(colors: [.white, Color(red: 0.1, green: 0.6, blue: 0.3)])
    c.withSavedGState {
        c.translateBy(x: 100, y: 110)
        c.scaleBy(x: 1.5, y: 1)
        c.fillEllipse(
            in: Rect(x: -30, y: -30, width: 60, height: 60),
            with: .radialGradient(radial, startCenter: Point(x: -8, y: -8), startRadius: 2, endCenter: Point(x: 0, y: 0), endRadius: 30))
    }
}

@Suite struct DocumentGradientTests {
    /// The raster picture of `draw` at scale 2, against `other`.
    func compare(_ other: Image, _ draw: (Canvas) -> Void, folder: String) throws -> ImageDifference {
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        draw(raster)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        return try #require(difference(other, raster.makeImage()))
    }

    @Test func gradientsAreShadingsInPDFWithSoftMasksForTheirAlpha() throws {
        let folder = try temporaryFolder("strata-pdf-gradients")
        let document = PDFDocument()
        drawGradients(try document.beginPage(size: Size(width: 200, height: 150)))
        let path = folder + "/gradients.pdf"
        try document.write(to: path)
        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        #expect(check.status == 0, "\(check.output)")
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let d = try compare(try Image(contentsOfPNGFile: folder + "/poppler.png"), drawGradients, folder: folder)
        #expect(d.mean < 1.0 && d.over8Percent < 1, "\(d) (\(folder))")
    }

    @Test func gradientsAreGradientElementsInSVG() throws {
        let folder = try temporaryFolder("strata-svg-gradients")
        let document = try SVGDocument(size: Size(width: 200, height: 150))
        drawGradients(document.canvas)
        let path = folder + "/gradients.svg"
        try document.write(to: path)
        let text = String(decoding: document.makeData(), as: UTF8.self)
        #expect(text.contains("<linearGradient") && text.contains("<radialGradient") && text.contains("stop-opacity=\"0.5\""))
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/librsvg.png", path])
        let d = try compare(try Image(contentsOfPNGFile: folder + "/librsvg.png"), drawGradients, folder: folder)
        #expect(d.mean < 0.6 && d.over8Percent < 0.5, "\(d) (\(folder))")
    }
}

/// A 40 × 30 image: colours across, and its lower third half transparent.
func testImage() throws -> Image {
    var pixels = [UInt8](repeating: 0, count: 40 * 30 * 4)
    for y in 0..<30 {
        for x in 0..<40 {
            let i = (y * 40 + x) * 4
            let a: UInt32 = y >= 20 ? 128 : 255
            let r = UInt32(x * 6), g = UInt32(y * 8), b: UInt32 = 200
            // Premultiplied.
            pixels[i] = UInt8(r * a / 255)
            pixels[i + 1] = UInt8(g * a / 255)
            pixels[i + 2] = UInt8(b * a / 255)
            pixels[i + 3] = UInt8(a)
        }
    }
    return try Image(width: 40, height: 30, premultipliedPixels: pixels)
}

/// The test image drawn pixel for pixel at scale 2 (20 × 15 points), over
/// a dark stripe, and again under a clip, half transparent.
func drawImages(_ c: Canvas, _ image: Image) {
    c.fillColor = .white
    c.fill(Rect(x: 0, y: 0, width: 200, height: 150))
    c.fillColor = Color(red: 0.1, green: 0.1, blue: 0.2)
    c.fill(Rect(x: 0, y: 20, width: 200, height: 10))
    c.draw(image, in: Rect(x: 10, y: 10, width: 20, height: 15))
    c.withSavedGState {
        c.clip(to: Rect(x: 60, y: 10, width: 12, height: 15))
        c.alpha = 0.5
        c.draw(image, in: Rect(x: 60, y: 10, width: 20, height: 15))
    }
}

@Suite struct DocumentImageTests {
    @Test func imagesAreEmbeddedOnceWithTheirAlphaAndDrawnWhereTheCanvasDrawsThem() throws {
        let folder = try temporaryFolder("strata-pdf-images")
        let image = try testImage()
        let document = PDFDocument()
        drawImages(try document.beginPage(size: Size(width: 200, height: 150)), image)
        let second = try document.beginPage(size: Size(width: 100, height: 100))
        second.draw(image, in: Rect(x: 0, y: 0, width: 100, height: 100))
        let path = folder + "/images.pdf"
        try document.write(to: path)
        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        #expect(check.status == 0, "\(check.output)")
        // Drawn four times on two pages: one image and its soft mask.
        let text = String(decoding: document.makeData(), as: UTF8.self)
        #expect(text.components(separatedBy: "/Subtype /Image").count == 3)
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-f", "1", "-l", "1", "-png", "-singlefile", path, folder + "/poppler"])
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        drawImages(raster, image)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 0.5 && d.over8Percent < 1, "\(d) (\(folder))")

        let svg = try SVGDocument(size: Size(width: 200, height: 150))
        drawImages(svg.canvas, image)
        let svgText = String(decoding: svg.makeData(), as: UTF8.self)
        #expect(svgText.components(separatedBy: "<image ").count == 2)
        try svg.write(to: folder + "/images.svg")
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/librsvg.png", folder + "/images.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster.makeImage()))
        #expect(e.mean < 0.5 && e.over8Percent < 1, "\(e) (\(folder))")
    }
}

/// The canvas's own gradient calls: a linear gradient not extended past its
/// ends, in a clip; a radial one extended past its end only.
func drawGradientCalls(_ c: Canvas) {
    c.fillColor = .white
    c.fill(Rect(x: 0, y: 0, width: 200, height: 150))
    let g = Gradient(colors: [Color(red: 0.9, green: 0.2, blue: 0.1), Color(red: 0.1, green: 0.2, blue: 0.9)])
    c.withSavedGState {
        c.clip(to: Rect(x: 10, y: 10, width: 180, height: 50))
        c.drawLinearGradient(g, start: Point(x: 50, y: 0), end: Point(x: 150, y: 0))
    }
    c.withSavedGState {
        c.clip(to: Rect(x: 10, y: 70, width: 180, height: 70))
        c.drawRadialGradient(
            g, startCenter: Point(x: 100, y: 105), startRadius: 5, endCenter: Point(x: 100, y: 105), endRadius: 30,
            options: [.drawsAfterEndLocation])
    }
}

@Suite struct DocumentGradientCallTests {
    @Test func gradientCallsFillTheClipExtendedAsAsked() throws {
        let folder = try temporaryFolder("strata-gradient-calls")
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        drawGradientCalls(raster)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        let document = PDFDocument()
        drawGradientCalls(try document.beginPage(size: Size(width: 200, height: 150)))
        try document.write(to: folder + "/calls.pdf")
        #expect(try runTool("/usr/bin/qpdf", ["--check", folder + "/calls.pdf"]).status == 0)
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", folder + "/calls.pdf", folder + "/poppler"])
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 1.0 && d.over8Percent < 2, "\(d) (\(folder))")
        let svg = try SVGDocument(size: Size(width: 200, height: 150))
        drawGradientCalls(svg.canvas)
        try svg.write(to: folder + "/calls.svg")
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/librsvg.png", folder + "/calls.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster.makeImage()))
        #expect(e.mean < 1.0 && e.over8Percent < 2, "\(e) (\(folder))")
    }
}

/// What no vector format draws exactly: a shadow, a conic gradient, a
/// repeating gradient (PDF has none) and a gradient stroke.
func drawInexpressible(_ c: Canvas) {
    c.fillColor = .white
    c.fill(Rect(x: 0, y: 0, width: 200, height: 150))
    c.withSavedGState {
        c.setShadow(offset: Size(width: 4, height: 4), blur: 6, color: Color(white: 0, alpha: 0.5))
        c.fillColor = Color(red: 0.2, green: 0.5, blue: 0.9)
        c.fill(Rect(x: 15, y: 15, width: 60, height: 40))
    }
    let g = Gradient(colors: [Color(red: 1, green: 0.8, blue: 0.1), Color(red: 0.7, green: 0.1, blue: 0.5)])
    c.fillEllipse(in: Rect(x: 110, y: 10, width: 60, height: 60), with: .conicGradient(g, center: Point(x: 140, y: 40), angle: 0))
    c.fill(
        Rect(x: 10, y: 80, width: 120, height: 25),
        with: .linearGradient(g, start: Point(x: 10, y: 0), end: Point(x: 30, y: 0), spread: .repeat))
    c.lineWidth = 6
    var wave = Path()
    wave.move(to: Point(x: 20, y: 130))
    wave.addCurve(to: Point(x: 180, y: 130), control1: Point(x: 70, y: 100), control2: Point(x: 130, y: 160))
    c.stroke(wave, with: .linearGradient(g, start: Point(x: 20, y: 0), end: Point(x: 180, y: 0)))
}

@Suite struct DocumentFallbackTests {
    @Test func whatTheFormatCannotSayIsAnImageOfItsArea() throws {
        let folder = try temporaryFolder("strata-fallback")
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        drawInexpressible(raster)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        let document = PDFDocument()
        drawInexpressible(try document.beginPage(size: Size(width: 200, height: 150)))
        try document.write(to: folder + "/fallback.pdf")
        #expect(try runTool("/usr/bin/qpdf", ["--check", folder + "/fallback.pdf"]).status == 0)
        // Four images: the shadowed rectangle, the conic fill, the repeating
        // fill and the gradient stroke (the first with a soft mask).
        let text = String(decoding: document.makeData(), as: UTF8.self)
        #expect(text.components(separatedBy: "/Subtype /Image").count - 1 >= 4)
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", folder + "/fallback.pdf", folder + "/poppler"])
        // Poppler smooths the images it scales (they are marked for it), so
        // their edges differ more than vectors' do.
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 3 && d.over8Percent < 6, "\(d) (\(folder))")
        let svg = try SVGDocument(size: Size(width: 200, height: 150))
        drawInexpressible(svg.canvas)
        try svg.write(to: folder + "/fallback.svg")
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/librsvg.png", folder + "/fallback.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster.makeImage()))
        #expect(e.mean < 1.5 && e.over8Percent < 3, "\(e) (\(folder))")
        print("fallback: poppler \(d); librsvg \(e)")
    }
}

/// Transparency layers, image masks and sprites: a half-transparent group
/// of two overlapping squares (one colour where they overlap, as a group
/// draws it), a multiplied group, a picture clipped to a soft-edged mask,
/// a nested mask inside it, and a hundred tinted sprites.
func drawGroupsAndMasks(_ c: Canvas) throws {
    c.fillColor = .white
    c.fill(Rect(x: 0, y: 0, width: 200, height: 150))
    c.fillColor = Color(red: 0.95, green: 0.85, blue: 0.3)
    c.fill(Rect(x: 0, y: 60, width: 200, height: 30))
    c.withSavedGState {
        c.alpha = 0.5
        c.beginTransparencyLayer()
        c.fillColor = Color(red: 0.1, green: 0.3, blue: 0.9)
        c.fill(Rect(x: 10, y: 10, width: 50, height: 50))
        c.fill(Rect(x: 35, y: 35, width: 50, height: 50))
        c.endTransparencyLayer()
    }
    c.withSavedGState {
        c.blendMode = .multiply
        c.beginTransparencyLayer()
        c.fillColor = Color(red: 0.9, green: 0.2, blue: 0.2)
        c.fillEllipse(in: Rect(x: 100, y: 40, width: 40, height: 60))
        c.endTransparencyLayer()
    }
    // A mask: a white disc fading out, on transparent.
    let maskCanvas = try Canvas(width: 64, height: 64)
    maskCanvas.fillEllipse(
        in: Rect(x: 0, y: 0, width: 64, height: 64),
        with: .radialGradient(
            Gradient(colors: [.white, .white, Color(white: 1, alpha: 0)], locations: [0, 0.6, 1]), startCenter: Point(x: 32, y: 32),
            startRadius: 0, endCenter: Point(x: 32, y: 32), endRadius: 32))
    let mask = maskCanvas.makeImage()
    c.withSavedGState {
        c.clip(to: Rect(x: 140, y: 5, width: 55, height: 55), mask: mask)
        c.fill(
            Rect(x: 140, y: 5, width: 55, height: 55),
            with: .linearGradient(
                Gradient(colors: [Color(red: 0.1, green: 0.7, blue: 0.4), Color(red: 0.5, green: 0.1, blue: 0.7)]), start: Point(x: 140, y: 0),
                end: Point(x: 195, y: 0)))
        // A second mask inside the first: only their common part shows.
        c.clip(to: Rect(x: 160, y: 25, width: 40, height: 40), mask: mask)
        c.fillColor = .black
        c.fill(Rect(x: 140, y: 5, width: 60, height: 60))
    }
    var sprites: [Sprite] = []
    for i in 0..<100 {
        let x = 10 + Double(i % 20) * 9, y = 105 + Double(i / 20) * 8
        sprites.append(
            Sprite(
                image: 0, transform: Transform(a: 0.5, b: 0, c: 0, d: 0.5, tx: x, ty: y),
                color: Color(red: Double(i % 20) / 20, green: 0.4, blue: 1 - Double(i % 20) / 20, alpha: 0.9)))
    }
    c.drawSprites([mask.multiplied(by: .white)], sprites)
}

@Suite struct DocumentGroupTests {
    @Test func transparencyLayersAreGroupsAndImageMasksAreSoftMasks() throws {
        let folder = try temporaryFolder("strata-groups")
        let raster = try Canvas(width: 400, height: 300)
        raster.scaleBy(x: 2, y: 2)
        try drawGroupsAndMasks(raster)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        let document = PDFDocument()
        try drawGroupsAndMasks(try document.beginPage(size: Size(width: 200, height: 150)))
        let path = folder + "/groups.pdf"
        try document.write(to: path)
        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        #expect(check.status == 0, "\(check.output)")
        let pdf = String(decoding: document.makeData(), as: UTF8.self)
        // Each transparency layer is a form with a transparency group (the
        // second mask adds one), the masks are soft masks of their alpha.
        #expect(pdf.components(separatedBy: "/Subtype /Form").count - 1 >= 4)
        #expect(pdf.contains("/S /Alpha") && pdf.contains("/BM /Multiply"))
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 1.5 && d.over8Percent < 3, "\(d) (\(folder))")

        let svg = try SVGDocument(size: Size(width: 200, height: 150))
        try drawGroupsAndMasks(svg.canvas)
        try svg.write(to: folder + "/groups.svg")
        let text = String(decoding: svg.makeData(), as: UTF8.self)
        #expect(text.contains("<mask ") && text.contains("opacity=\"0.5\"") && text.contains("mix-blend-mode:multiply"))
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/librsvg.png", folder + "/groups.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster.makeImage()))
        #expect(e.mean < 1.5 && e.over8Percent < 3, "\(e) (\(folder))")
        print("groups: poppler \(d); librsvg \(e)")
    }

    @Test func groupsNestAndUnbalancedCallsAreHarmless() throws {
        let document = PDFDocument()
        let c = try document.beginPage(size: Size(width: 50, height: 50))
        c.endTransparencyLayer()  // none begun: nothing happens
        c.beginTransparencyLayer()
        c.alpha = 0.5
        c.beginTransparencyLayer()
        c.fill(Rect(x: 0, y: 0, width: 10, height: 10))
        c.endTransparencyLayer()
        c.endTransparencyLayer()
        c.beginTransparencyLayer()  // left open: the page ends it as empty
        let folder = try temporaryFolder("strata-groups-nest")
        try document.write(to: folder + "/nest.pdf")
        #expect(try runTool("/usr/bin/qpdf", ["--check", folder + "/nest.pdf"]).status == 0)
        let svg = try SVGDocument(size: Size(width: 50, height: 50))
        svg.canvas.beginTransparencyLayer()
        svg.canvas.fill(Rect(x: 0, y: 0, width: 10, height: 10))
        svg.canvas.endTransparencyLayer()
        svg.canvas.endTransparencyLayer()
        #expect(String(decoding: svg.makeData(), as: UTF8.self).contains("<g>"))
    }
}

@Suite struct DocumentStreamingTests {
    /// Twenty thousand rectangles and circles: a content stream of about a
    /// megabyte, deflated in stretches while it is drawn.
    func drawMany(_ c: Canvas, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        c.fillColor = .white
        c.fill(Rect(x: 0, y: 0, width: 400, height: 300))
        for i in 0..<20_000 {
            c.fillColor = Color(red: rng.uniform(), green: rng.uniform(), blue: rng.uniform(), alpha: 0.5)
            let r = Rect(x: rng.uniform() * 390, y: rng.uniform() * 290, width: 1 + rng.uniform() * 9, height: 1 + rng.uniform() * 9)
            if i % 2 == 0 { c.fill(r) } else { c.fillEllipse(in: r) }
        }
    }

    @Test func aLongPageIsDeflatedWhileDrawnAndReadsBackWhole() throws {
        let folder = try temporaryFolder("strata-pdf-streaming")
        let raster = try Canvas(width: 800, height: 600)
        raster.scaleBy(x: 2, y: 2)
        drawMany(raster, seed: 11)
        var drawn: [Image] = []
        for compression in [PDFDocument.Compression.fast, .small, .none] {
            let document = PDFDocument()
            document.compression = compression
            drawMany(try document.beginPage(size: Size(width: 400, height: 300)), seed: 11)
            let path = folder + "/many-\(compression).pdf"
            try document.write(to: path)
            let check = try runTool("/usr/bin/qpdf", ["--check", path])
            #expect(check.status == 0, "\(compression): \(check.output)")
            _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler-\(compression)"])
            let image = try Image(contentsOfPNGFile: folder + "/poppler-\(compression).png")
            drawn.append(image)
            // Twenty thousand shapes of a few points, half transparent:
            // their anti-aliased edges are most of the page.
            let d = try #require(difference(image, raster.makeImage()))
            #expect(d.mean < 4, "\(compression): \(d) (\(folder))")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            // Compressed, the page is a fraction of its megabyte.
            #expect(compression == .none ? size > 800_000 : size < 500_000, "\(compression): \(size) bytes")
        }
        // The same page, however it was compressed.
        #expect(drawn.count == 3 && drawn[0] == drawn[1] && drawn[1] == drawn[2])
    }

    @Test func drawingAfterTheDocumentWasWrittenIsInTheNextWriting() throws {
        let folder = try temporaryFolder("strata-pdf-streaming-after")
        let document = PDFDocument()
        let canvas = try document.beginPage(size: Size(width: 400, height: 300))
        drawMany(canvas, seed: 12)
        let first = document.makeData()
        canvas.fillColor = Color(red: 0.9, green: 0.1, blue: 0.1)
        canvas.fill(Rect(x: 0, y: 0, width: 400, height: 150))
        let path = folder + "/after.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != first)
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", path, folder + "/poppler"])
        let image = try Image(contentsOfPNGFile: folder + "/poppler.png")
        // The red band drawn last covers the top half.
        let i = 10 * image.bytesPerRow + 200 * 4
        #expect(image.pixels[i] > 200 && image.pixels[i + 1] < 60, "\(image.pixels[i...(i + 3)])")
    }

    /// The buffers kept for the next document are the largest given back:
    /// a stream that grew gives back its final storage, not the steps on
    /// the way (which would fill the shelf and make every page grow again).
    @Test func theBuffersKeptAreTheLargest() {
        var shelf = PDFBuffers.Shelf<String>()
        #expect(shelf.take(largest: true) == nil)
        // Four steps of a stream's growth, then its final storage.
        for (name, size) in [("64K", 1 << 16), ("128K", 1 << 17), ("256K", 1 << 18), ("512K", 1 << 19)] {
            #expect(shelf.keep(name, size: size) == nil)
        }
        #expect(shelf.keep("1M", size: 1 << 20) == "64K")
        #expect(shelf.items.count == PDFBuffers.Shelf<String>.limit)
        // A smaller one than all kept is given up at once.
        #expect(shelf.keep("32K", size: 1 << 15) == "32K")
        #expect(shelf.take(largest: true)?.item == "1M")
        #expect(shelf.take(largest: false)?.item == "128K")
        #expect(shelf.take(largest: true)?.size == 1 << 19)
        #expect(shelf.take(largest: true)?.item == "256K")
        #expect(shelf.take(largest: false) == nil)
    }
}

@Suite struct DocumentStateTests {
    /// The content stream writes only changes of state: what a clip group's
    /// end restores must be what was set before it, not PDF's defaults.
    @Test func stateWrittenBeforeAClipIsTheStateAfterIt() throws {
        let folder = try temporaryFolder("strata-pdf-state")
        func draw(_ c: Canvas) {
            c.fillColor = .white
            c.fill(Rect(x: 0, y: 0, width: 120, height: 40))
            c.alpha = 0.5
            c.fillColor = Color(red: 0, green: 0, blue: 1)
            c.fill(Rect(x: 0, y: 0, width: 40, height: 40))  // half blue
            c.withSavedGState {
                c.clip(to: Rect(x: 40, y: 0, width: 40, height: 40))
                c.fill(Rect(x: 0, y: 0, width: 120, height: 40))  // half blue, clipped
            }
            c.alpha = 1
            c.fill(Rect(x: 80, y: 0, width: 40, height: 40))  // full blue
        }
        let raster = try Canvas(width: 120, height: 40)
        draw(raster)
        let document = PDFDocument()
        draw(try document.beginPage(size: Size(width: 120, height: 40)))
        try document.write(to: folder + "/state.pdf")
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", folder + "/state.pdf", folder + "/poppler"])
        let page = try Image(contentsOfPNGFile: folder + "/poppler.png")
        let d = try #require(difference(page, raster.makeImage()))
        #expect(d.mean < 0.5, "\(d) (\(folder))")
        // The third square is opaque blue.
        #expect(page.pixels[20 * page.bytesPerRow + 100 * 4] < 5, "\(page.pixels[20 * page.bytesPerRow + 100 * 4])")
    }
}

@Suite struct DocumentJPEGTests {
    /// A photograph-like JPEG: a smooth gradient with a disc.
    func jpeg() throws -> [UInt8] {
        let c = try Canvas(width: 64, height: 48)
        c.fill(
            Rect(x: 0, y: 0, width: 64, height: 48),
            with: .linearGradient(
                Gradient(colors: [Color(red: 0.9, green: 0.5, blue: 0.1), Color(red: 0.1, green: 0.3, blue: 0.8)]), start: .zero,
                end: Point(x: 64, y: 48)))
        c.fillColor = Color(white: 0.95)
        c.fillEllipse(in: Rect(x: 20, y: 12, width: 24, height: 24))
        return try c.makeImage().jpegData(quality: 0.85)
    }

    @Test func aJPEGIsEmbeddedAsItIs() throws {
        let folder = try temporaryFolder("strata-pdf-jpeg")
        let bytes = try jpeg()
        let image = try Image(jpegData: bytes)
        #expect(image.sourceJPEG == bytes)
        #expect(image.sourceJPEGFrame?.components == 3 && image.sourceJPEGFrame?.width == 64)
        // Derived images are pixels of their own.
        #expect(image.multiplied(by: Color(white: 0.5)).sourceJPEG == nil)
        func draw(_ c: Canvas) {
            c.fillColor = .white
            c.fill(Rect(x: 0, y: 0, width: 230, height: 120))
            c.draw(image, in: Rect(x: 10, y: 10, width: 128, height: 96))
            c.draw(image, in: Rect(x: 150, y: 10, width: 64, height: 48))
        }
        let document = PDFDocument()
        draw(try document.beginPage(size: Size(width: 230, height: 120)))
        let path = folder + "/jpeg.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let pdf = [UInt8](document.makeData())
        // The file's bytes, once, under DCTDecode.
        #expect(String(decoding: pdf, as: UTF8.self).contains("/Filter /DCTDecode"))
        #expect(Data(pdf).range(of: Data(bytes)) != nil)
        #expect(String(decoding: pdf, as: UTF8.self).components(separatedBy: "/DCTDecode").count == 2)
        let list = try runTool("/usr/bin/pdfimages", ["-list", path]).output
        #expect(list.contains("jpeg"), "\(list)")
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let raster = try Canvas(width: 460, height: 240)
        raster.scaleBy(x: 2, y: 2)
        draw(raster)
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 3, "\(d) (\(folder))")
        // SVG: the JPEG inline.
        let svg = try SVGDocument(size: Size(width: 230, height: 120))
        draw(svg.canvas)
        let text = String(decoding: svg.makeData(), as: UTF8.self)
        #expect(text.contains("data:image/jpeg;base64," + Data(bytes).base64EncodedString()))
    }
}

@Suite struct DocumentPatternTests {
    /// Image patterns: one repeating under a rotation and a scale, one
    /// reflecting, one padding (an image of its area).
    func drawPatterns(_ c: Canvas, _ tile: Image) {
        c.fillColor = .white
        c.fill(Rect(x: 0, y: 0, width: 240, height: 100))
        let turned = Transform(a: 0.5, b: 0, c: 0, d: 0.5, tx: 5, ty: 5).concatenating(Transform(rotationAngle: 0.3))
        c.fill(Rect(x: 10, y: 10, width: 70, height: 80), with: .pattern(tile, transform: turned, spread: .repeat))
        c.fillEllipse(
            in: Rect(x: 90, y: 10, width: 70, height: 80), with: .pattern(tile, transform: Transform(translationX: 90, y: 10), spread: .reflect))
        c.fill(Rect(x: 170, y: 10, width: 60, height: 80), with: .pattern(tile, transform: Transform(translationX: 180, y: 20), spread: .pad))
    }

    /// A 16 × 12 tile: a colour ramp with a dark corner, so reflection shows.
    func tile() throws -> Image {
        let c = try Canvas(width: 16, height: 12)
        c.fill(
            Rect(x: 0, y: 0, width: 16, height: 12),
            with: .linearGradient(
                Gradient(colors: [Color(red: 0.95, green: 0.7, blue: 0.2), Color(red: 0.2, green: 0.5, blue: 0.9)]), start: .zero,
                end: Point(x: 16, y: 0)))
        c.fillColor = Color(red: 0.2, green: 0.1, blue: 0.3)
        c.fill(Rect(x: 0, y: 0, width: 5, height: 4))
        return c.makeImage()
    }

    @Test func repeatingAndReflectedPatternsAreTilingPatterns() throws {
        let folder = try temporaryFolder("strata-pdf-patterns")
        let image = try tile()
        let raster = try Canvas(width: 480, height: 200)
        raster.scaleBy(x: 2, y: 2)
        drawPatterns(raster, image)
        try? raster.makeImage().writePNG(to: folder + "/raster.png")
        let document = PDFDocument()
        drawPatterns(try document.beginPage(size: Size(width: 240, height: 100)), image)
        let path = folder + "/patterns.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let pdf = String(decoding: document.makeData(), as: UTF8.self)
        #expect(pdf.components(separatedBy: "/PatternType 1").count - 1 == 2)
        // Poppler's cairo renderer: its Splash one (pdftoppm) steps a
        // rotated tiling pattern by whole pixels, and drifts.
        _ = try runTool("/usr/bin/pdftocairo", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster.makeImage()))
        #expect(d.mean < 2, "\(d) (\(folder))")
        let svg = try SVGDocument(size: Size(width: 240, height: 100))
        drawPatterns(svg.canvas, image)
        try svg.write(to: folder + "/patterns.svg")
        #expect(String(decoding: svg.makeData(), as: UTF8.self).components(separatedBy: "<pattern ").count - 1 == 2)
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "480", "-h", "200", "-o", folder + "/librsvg.png", folder + "/patterns.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster.makeImage()))
        #expect(e.mean < 4, "\(e) (\(folder))")
        print("patterns: poppler \(d); librsvg \(e)")
    }
}

@Suite struct DocumentPorterDuffTests {
    /// What the Porter-Duff modes do to what is already drawn: a hole cut
    /// (destination out), colour kept to the shapes below (source atop), a
    /// rectangle replaced (copy) and one cleared, inside and outside a
    /// transparency layer, layers composited in those modes, with vectors
    /// drawn after them.
    func draw(_ c: Canvas) {
        c.fillColor = Color(red: 0.2, green: 0.4, blue: 0.9)
        c.fill(Rect(x: 10, y: 10, width: 120, height: 80))
        c.fillColor = Color(red: 0.9, green: 0.6, blue: 0.1)
        c.fillEllipse(in: Rect(x: 100, y: 30, width: 60, height: 60))
        c.withSavedGState {
            c.blendMode = .destinationOut
            c.fillColor = .black
            c.fillEllipse(in: Rect(x: 30, y: 30, width: 40, height: 40))
        }
        c.withSavedGState {
            c.blendMode = .sourceAtop
            c.fillColor = Color(red: 0.1, green: 0.7, blue: 0.3)
            c.fill(Rect(x: 90, y: 0, width: 30, height: 100))
        }
        c.withSavedGState {
            c.blendMode = .copy
            c.fillColor = Color(red: 0.8, green: 0.1, blue: 0.5, alpha: 0.5)
            c.fill(Rect(x: 170, y: 20, width: 40, height: 40))
            c.blendMode = .clear
            c.fill(Rect(x: 120, y: 75, width: 30, height: 10))
        }
        c.withSavedGState {
            c.beginTransparencyLayer()
            c.fillColor = Color(red: 0.5, green: 0.2, blue: 0.7)
            c.fill(Rect(x: 180, y: 70, width: 50, height: 25))
            c.blendMode = .destinationOut
            c.fillEllipse(in: Rect(x: 195, y: 72, width: 20, height: 20))
            // Inside the layer, a layer in source-in: the parts of the
            // outer layer under its clip keep only what its stripe covers.
            c.withSavedGState {
                c.clip(to: Rect(x: 180, y: 70, width: 25, height: 25))
                c.blendMode = .sourceIn
                c.beginTransparencyLayer()
                c.fillColor = Color(red: 1, green: 0.9, blue: 0.2)
                c.fill(Rect(x: 170, y: 78, width: 70, height: 8))
                c.endTransparencyLayer()
            }
            c.endTransparencyLayer()
        }
        // Layers composited in Porter-Duff modes: one whose whole content
        // cuts a hole (destination out), one in source-in that keeps only
        // what its content covers and clears the rest of its clip.
        c.withSavedGState {
            c.clip(to: Rect(x: 95, y: 20, width: 70, height: 35))
            c.blendMode = .destinationOut
            c.beginTransparencyLayer()
            c.fillColor = .black
            c.fillEllipse(in: Rect(x: 100, y: 25, width: 60, height: 30))
            c.endTransparencyLayer()
        }
        c.withSavedGState {
            c.clip(to: Rect(x: 20, y: 60, width: 40, height: 25))
            c.blendMode = .sourceIn
            c.beginTransparencyLayer()
            c.fillColor = Color(red: 0.1, green: 0.8, blue: 0.4, alpha: 0.8)
            c.fillEllipse(in: Rect(x: 25, y: 62, width: 20, height: 20))
            c.endTransparencyLayer()
        }
        c.fillColor = Color(white: 0.1)
        c.fill(Rect(x: 10, y: 94, width: 220, height: 3))
    }

    @Test func porterDuffModesArePicturesOfThePageBeneath() throws {
        let folder = try temporaryFolder("strata-porter-duff")
        let raster = try Canvas(width: 480, height: 200)
        raster.scaleBy(x: 2, y: 2)
        draw(raster)
        // The raster over white paper, as a reader shows a page.
        let paper = try Canvas(width: 480, height: 200)
        paper.fillColor = .white
        paper.fill(Rect(x: 0, y: 0, width: 480, height: 200))
        paper.draw(raster.makeImage(), atDeviceX: 0, y: 0)
        try? paper.makeImage().writePNG(to: folder + "/raster.png")
        let document = PDFDocument()
        draw(try document.beginPage(size: Size(width: 240, height: 100)))
        let path = folder + "/modes.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), paper.makeImage()))
        #expect(d.mean < 2 && d.over8Percent < 4, "\(d) (\(folder))")
        let svg = try SVGDocument(size: Size(width: 240, height: 100))
        draw(svg.canvas)
        try svg.write(to: folder + "/modes.svg")
        _ = try runTool(
            "/usr/bin/rsvg-convert", ["-w", "480", "-h", "200", "-b", "white", "-o", folder + "/librsvg.png", folder + "/modes.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), paper.makeImage()))
        #expect(e.mean < 2 && e.over8Percent < 4, "\(e) (\(folder))")
        print("porter-duff: poppler \(d); librsvg \(e)")
    }
}
