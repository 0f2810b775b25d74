import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataText

/// Text scenes compared with PNGs committed beside this file (Resources/). The
/// PNGs are Strata's own rendering, checked by eye when they were made; the tests
/// keep it from drifting. Tolerance: mean difference 0.5, 0.5 % of pixels over 8.
/// Set STRATA_WRITE_GOLDENS=1 to write new ones after a deliberate change.
@Suite struct TextImageTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources").path

    static func scene() -> Canvas {
        let canvas = try! Canvas(width: 420, height: 330)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        let font = Font(family: "DejaVu Sans", size: 14, cascadeList: fallbackFaces)
        let plain = TextAttributes(font: font, foregroundColor: Color(white: 0.1))
        let sample = "Strata lays out text in a width, wraps it at spaces, and aligns it."
        var y = 8.0
        for alignment in [TextAlignment.left, .center, .right, .justified] {
            canvas.strokeColor = Color(white: 0.85)
            canvas.stroke(Rect(x: 10.5, y: y - 0.5, width: 180, height: 52))
            let layout = TextLayout(AttributedText(sample, attributes: plain), width: 180, style: ParagraphStyle(alignment: alignment))
            canvas.draw(layout, at: Point(x: 10, y: y))
            y += 56
        }
        y = 8
        for mode in [TruncationMode.tail, .head, .middle] {
            let layout = TextLayout(
                AttributedText("The quick brown fox jumps over the lazy dog", attributes: plain),
                width: 200, style: ParagraphStyle(maximumLines: 1, truncation: mode))
            canvas.draw(layout, at: Point(x: 210, y: y))
            y += 22
        }
        var rich = AttributedText("Underlined", attributes: TextAttributes(font: font, foregroundColor: .black, underline: TextDecoration()))
        rich.append(
            " struck",
            attributes: TextAttributes(
                font: font, foregroundColor: Color(red: 0.8, green: 0.1, blue: 0.1),
                strikethrough: TextDecoration()))
        rich.append(
            " marked",
            attributes: TextAttributes(
                font: font, foregroundColor: .black,
                backgroundColor: Color(red: 1, green: 0.9, blue: 0.3)))
        rich.append(
            " raised",
            attributes: TextAttributes(
                font: Font(family: "DejaVu Sans", size: 10, cascadeList: fallbackFaces), foregroundColor: .blue, baselineOffset: 5))
        canvas.draw(TextLayout(rich, width: 205), at: Point(x: 210, y: 80))
        // A link that wraps, highlighted where hit testing says it is.
        var linked = AttributedText("Read ", attributes: plain)
        linked.append(
            "the complete guide to Strata",
            attributes: TextAttributes(
                font: font, foregroundColor: Color(red: 0.1, green: 0.4, blue: 0.9),
                underline: TextDecoration(), link: TextLink("guide")))
        linked.append(" today.", attributes: plain)
        let layout = TextLayout(linked, width: 150)
        let origin = Point(x: 210, y: 120)
        canvas.fillColor = Color(red: 0.85, green: 0.92, blue: 1)
        for r in layout.rects(forCharacters: layout.linkRanges[0].range) { canvas.fill(r.offsetBy(dx: origin.x, dy: origin.y)) }
        canvas.draw(layout, at: origin)
        // Big, and rotated (outlines).
        canvas.draw(
            TextLayout(
                AttributedText("Big 文字", attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 40, cascadeList: fallbackFaces))),
                width: 400),
            at: Point(x: 10, y: 236))
        canvas.withSavedGState {
            canvas.translateBy(x: 300, y: 280)
            canvas.rotate(by: -0.3)
            canvas.draw(
                TextLayout(
                    AttributedText(
                        "rotated",
                        attributes: TextAttributes(
                            font: Font(family: "DejaVu Sans", size: 20, cascadeList: fallbackFaces),
                            foregroundColor: .red)), width: 400), at: .zero)
        }
        return canvas
    }

    @Test func scenesMatchTheirGoldens() throws {
        let image = TextImageTests.scene().makeImage()
        let path = "\(TextImageTests.resources)/text-scene.png"
        try expectImage(image, matchesGolden: path, mean: 0.5, over8: 0.5)
    }
}
