import ArgumentParser
import Foundation
import StrataGraphics
import StrataText

/// The text benchmark of `../shared/bench/TEXT.md`, beside `text.py`'s Skia figures.
struct TextBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Lays out and draws TEXT.md's paragraph at width 600, 16 px.",
        discussion: """
            Prints `strata text-layout MEDIAN_MS HEIGHT` (a fresh layout, fonts warm), \
            `strata text-draw MEDIAN_MS HEIGHT` (clearing a 640 × 2000 canvas and drawing the \
            layout at (20, 20)) and `strata text-cached MEDIAN_MS HEIGHT` (a layout-cache hit \
            plus the draw).
            """)

    @Option(help: "Timed runs per figure (after two warm-up runs).")
    var `repeat` = 20

    @Option(help: "The paragraph's file (the text between the first ```text fences).")
    var file = "../shared/bench/TEXT.md"

    @Option(help: "Write the drawing to this PNG file.")
    var png: String?

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let markdown = try String(contentsOfFile: file, encoding: .utf8)
        let pieces = markdown.components(separatedBy: "```text\n")
        guard pieces.count > 1, let body = pieces[1].components(separatedBy: "\n```").first else {
            throw ValidationError("\(file) has no ```text block")
        }
        let text = AttributedText(body, attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 16, cascadeList: ["WenQuanYi Micro Hei"])))
        func median(_ body: () -> Void) -> Double { medianMilliseconds(repeat: `repeat`, body) }
        var layout = TextLayout(text, width: 600)
        let layoutTime = median { layout = TextLayout(text, width: 600) }
        let height = Int(layout.size.height.rounded())
        let canvas = try Canvas(width: 640, height: 2000)
        func draw(_ l: TextLayout) {
            canvas.fillColor = .white
            canvas.fill(canvas.bounds)
            canvas.draw(l, at: Point(x: 20, y: 20))
        }
        let drawTime = median { draw(layout) }
        let cache = LayoutCache(maxEntries: 16, maxBytes: 1 << 20)
        _ = cache.layout(text, width: 600)
        let cachedTime = median { draw(cache.layout(text, width: 600)) }
        for (name, ms) in [("text-layout", layoutTime), ("text-draw", drawTime), ("text-cached", cachedTime)] {
            FileHandle.standardOutput.write(Data(String(format: "strata %@ %.3f %d\n", name, ms, height).utf8))
        }
        if let png { try canvas.makeImage().writePNG(to: png) }
    }
}
