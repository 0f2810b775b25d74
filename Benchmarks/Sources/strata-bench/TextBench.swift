import ArgumentParser
import Foundation
import StrataDemos
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
            plus the draw); then `strata text-mixed-layout` and `text-mixed-draw` for the \
            mixed-script paragraph (its PNG beside --png, with -mixed added), when its fonts are \
            installed.
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
        guard let body = TextBench.block("text", in: markdown) else {
            throw ValidationError("\(file) has no ```text block")
        }
        let font = Font(family: "DejaVu Sans", size: 16, cascadeList: ["WenQuanYi Micro Hei"])
        try measure("text", AttributedText(body, attributes: TextAttributes(font: font)), png: png, cached: true)
        // The mixed-script paragraph, with TEXT.md's families in their order.
        if let mixed = TextBench.block("mixed", in: markdown) {
            let families = ["WenQuanYi Micro Hei", "Noto Sans Arabic", "Noto Sans Devanagari", "Noto Color Emoji"]
            if families.allSatisfy({ Font(family: $0, size: 16).primaryFace?.familyName == $0 }) {
                let font = Font(family: "DejaVu Sans", size: 16, cascadeList: families)
                try measure(
                    "text-mixed", AttributedText(mixed, attributes: TextAttributes(font: font)),
                    png: png.map { $0.replacingOccurrences(of: ".png", with: "") + "-mixed.png" }, cached: false)
            } else {
                FileHandle.standardError.write(
                    Data("strata text-mixed unavailable (fonts-noto-core and fonts-noto-color-emoji are needed)\n".utf8))
            }
        }
    }

    static func block(_ fence: String, in markdown: String) -> String? {
        let pieces = markdown.components(separatedBy: "```\(fence)\n")
        guard pieces.count > 1 else { return nil }
        return pieces[1].components(separatedBy: "\n```").first
    }

    private func measure(_ name: String, _ text: AttributedText, png: String?, cached: Bool) throws {
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
        var figures = [("\(name)-layout", layoutTime), ("\(name)-draw", drawTime)]
        if cached {
            let cache = LayoutCache(maximumEntries: 16, maximumBytes: 1 << 20)
            _ = cache.layout(text, width: 600)
            figures.append(("\(name)-cached", median { draw(cache.layout(text, width: 600)) }))
        }
        for (figure, ms) in figures {
            FileHandle.standardOutput.write(Data(String(format: "strata %@ %.3f %d\n", figure, ms, height).utf8))
        }
        if let png { try canvas.makeImage().writePNG(to: png) }
    }
}
