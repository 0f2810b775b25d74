import Foundation
import StrataCharts
import StrataGraphics
import StrataLayers
import StrataTestSupport
import StrataText
import Testing

@testable import StrataDocuments

/// A layer tree of every kind of drawing a layer does: a rounded background
/// with a border, a shape, a gradient, text, contents, a clipped sublayer
/// and a half-transparent group.
@MainActor
func makeLayerTree() throws -> Layer {
    Transaction.begin()
    Transaction.disableActions = true
    defer { Transaction.commit() }
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 200, height: 150)
    root.backgroundColor = .white
    let card = Layer()
    card.frame = Rect(x: 10, y: 10, width: 120, height: 60)
    card.backgroundColor = Color(red: 0.85, green: 0.92, blue: 1)
    card.cornerRadius = 10
    card.borderWidth = 2
    card.borderColor = Color(red: 0.1, green: 0.3, blue: 0.7)
    card.masksToBounds = true
    root.addSublayer(card)
    let overflowing = Layer()
    overflowing.frame = Rect(x: 90, y: 30, width: 60, height: 60)
    overflowing.backgroundColor = Color(red: 0.9, green: 0.5, blue: 0.1)
    card.addSublayer(overflowing)
    let text = TextLayer()
    text.frame = Rect(x: 8, y: 6, width: 100, height: 20)
    text.string = "Heart Rate"
    text.fontFamily = "DejaVu Sans"
    text.fontSize = 13
    text.foregroundColor = Color(red: 0.8, green: 0.1, blue: 0.2)
    card.addSublayer(text)
    let shape = ShapeLayer()
    shape.frame = Rect(x: 140, y: 10, width: 50, height: 50)
    var triangle = Path()
    triangle.move(to: Point(x: 25, y: 2))
    triangle.addLine(to: Point(x: 48, y: 46))
    triangle.addLine(to: Point(x: 2, y: 46))
    triangle.closeSubpath()
    shape.path = triangle
    shape.fillColor = Color(red: 0.2, green: 0.7, blue: 0.4)
    shape.strokeColor = .black
    shape.lineWidth = 2
    root.addSublayer(shape)
    let gradient = GradientLayer()
    gradient.frame = Rect(x: 10, y: 80, width: 120, height: 30)
    gradient.colors = [Color(red: 1, green: 0.3, blue: 0.3), Color(red: 0.3, green: 0.3, blue: 1)]
    gradient.startPoint = Point(x: 0, y: 0.5)
    gradient.endPoint = Point(x: 1, y: 0.5)
    root.addSublayer(gradient)
    let picture = Layer()
    picture.frame = Rect(x: 140, y: 80, width: 20, height: 15)
    picture.contents = try testImage()
    root.addSublayer(picture)
    let group = Layer()
    group.frame = Rect(x: 10, y: 118, width: 80, height: 25)
    group.opacity = 0.5
    for i in 0..<2 {
        let part = Layer()
        part.frame = Rect(x: Double(i) * 30, y: 0, width: 50, height: 25)
        part.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.8)
        group.addSublayer(part)
    }
    root.addSublayer(group)
    // A shadow: blurred, it is an image of its area on a page.
    let lifted = Layer()
    lifted.frame = Rect(x: 170, y: 110, width: 20, height: 20)
    lifted.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.2)
    lifted.shadowOpacity = 0.6
    lifted.shadowRadius = 3
    lifted.shadowOffset = Size(width: 2, height: 3)
    root.addSublayer(lifted)
    return root
}

@MainActor
@Suite struct DocumentLayerTests {
    @Test func aLayerTreeRendersIntoAPageAsVectorsTextAndImages() throws {
        let folder = try temporaryFolder("strata-pdf-layers")
        let root = try makeLayerTree()
        let raster = try #require(root.renderImage(scale: 2))
        try? raster.writePNG(to: folder + "/raster.png")
        let document = PDFDocument()
        root.render(in: try document.beginPage(size: Size(width: 200, height: 150)))
        let path = folder + "/layers.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        // The text layer's text is text.
        #expect(try runTool("/usr/bin/pdftotext", [path, "-"]).output.contains("Heart Rate"))
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "144", "-png", "-singlefile", path, folder + "/poppler"])
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster))
        #expect(d.mean < 1.5 && d.over8Percent < 4, "\(d) (\(folder))")

        let svg = try SVGDocument(size: Size(width: 200, height: 150))
        root.render(in: svg.canvas)
        try svg.write(to: folder + "/layers.svg")
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "400", "-h", "300", "-o", folder + "/librsvg.png", folder + "/layers.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster))
        #expect(e.mean < 1.5 && e.over8Percent < 4, "\(e) (\(folder))")
        print("layers: poppler \(d); librsvg \(e)")
    }
}

@MainActor
@Suite struct DocumentChartTests {
    @Test func aChartIsVectorsAndTextWithEveryLabel() throws {
        let folder = try temporaryFolder("strata-pdf-chart")
        let y = (0..<2_000).map { 70 + 12 * sin(Double($0) / 150) }
        var options = ChartPicture.Options()
        options.width = 600
        options.height = 300
        options.title = "Resting heart rate"
        let data = LineChartData([LineChartSeries(name: "bpm", x: (0..<2_000).map(Double.init), y: y)])
        let raster = try ChartPicture.render(data, options: options)
        let document = PDFDocument(info: .init(title: "chart"))
        ChartPicture.draw(data, options: options, in: try document.beginPage(size: ChartPicture.size(options)))
        let path = folder + "/chart.pdf"
        try document.write(to: path)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        // The title and every axis label are text.
        let text = try runTool("/usr/bin/pdftotext", [path, "-"]).output
        for label in ["Resting heart rate", "50", "60", "70", "80", "90", "0", "400", "1,000", "1,800", "2,000"] {
            #expect(text.contains(label), "\(label) in \(text)")
        }
        // No image: the chart's plot is vectors.
        #expect(!String(decoding: document.makeData(), as: UTF8.self).contains("/Subtype /Image"))
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", path, folder + "/poppler"])
        let d = try #require(difference(try Image(contentsOfPNGFile: folder + "/poppler.png"), raster))
        #expect(d.mean < 1.5 && d.over8Percent < 3, "\(d) (\(folder))")
        let svg = try SVGDocument(size: ChartPicture.size(options))
        ChartPicture.draw(data, options: options, in: svg.canvas)
        try svg.write(to: folder + "/chart.svg")
        _ = try runTool("/usr/bin/rsvg-convert", ["-w", "600", "-h", "300", "-o", folder + "/librsvg.png", folder + "/chart.svg"])
        let e = try #require(difference(try Image(contentsOfPNGFile: folder + "/librsvg.png"), raster))
        #expect(e.mean < 1.5 && e.over8Percent < 3, "\(e) (\(folder))")
        print("chart: poppler \(d); librsvg \(e)")
    }
}
