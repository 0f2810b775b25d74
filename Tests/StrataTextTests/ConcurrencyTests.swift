import StrataGraphics
import Testing

@testable import StrataText

@Suite struct ConcurrencyTests {
    /// Layouts made and drawn on several threads at once, sharing the font
    /// library and both caches, come out the same as on one thread.
    @Test func layoutAndDrawingFromManyThreads() async throws {
        let strings = (0..<24).map { "Line \($0): 列表滚动时保持每秒六十帧 and text measured off the main thread, \($0 * 37)." }
        func render(_ s: String) -> Image {
            let layout = LayoutCache.shared.layout(
                AttributedText(s, attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 13, cascadeList: fallbackFaces))),
                width: 180)
            let canvas = try! Canvas(width: 200, height: 120)
            canvas.draw(layout, at: Point(x: 4, y: 4))
            return canvas.makeImage()
        }
        let expected = strings.map(render)
        LayoutCache.shared.removeAll()
        GlyphCache.shared.removeAll()
        let results = await withTaskGroup(of: (Int, Image).self) { group in
            for _ in 0..<4 {
                for (i, s) in strings.enumerated() {
                    group.addTask { (i, render(s)) }
                }
            }
            var out: [(Int, Image)] = []
            for await r in group { out.append(r) }
            return out
        }
        #expect(results.count == strings.count * 4)
        for (i, image) in results { #expect(image == expected[i], "string \(i)") }
    }
}
