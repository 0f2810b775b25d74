import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataText

@Suite struct LayoutFuzzTests {
    /// Random text of every kind of character through every layout option: no
    /// crash, no hang, lines within the width (unless one character is wider),
    /// and every character accounted for.
    @Test func randomTextLaysOutSafely() {
        var rng = FuzzRandom(seed: 2026)
        let pieces = [
            "a", "Z", "7", " ", "  ", "\n", "\r\n", "\t", "-", ",", ".", "1,234.56", "2026-11-21", "列", "表", "。", "，", "、",
            "「", "」", "（", "）", "e\u{301}", "\u{301}", "👨‍👩‍👧", "🇫🇷", "\u{200D}", "https://example.org/x", "@dev", "#话题",
            "…", "\u{10FFFD}", "\u{FEFF}", "\u{2028}",
        ]
        let fonts = [
            Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces),
            Font(family: "DejaVu Sans", size: 9, weight: .bold, cascadeList: fallbackFaces),
            Font(family: "serif", size: 30, italic: true),
        ]
        for round in 0..<2000 {
            var text = AttributedText()
            for _ in 0..<rng.int(40) {
                text.append(
                    rng.pick(pieces),
                    attributes: TextAttributes(
                        font: rng.pick(fonts), kern: Double(rng.int(3)),
                        baselineOffset: Double(rng.int(5)) - 2))
            }
            let width = rng.pick([0.0, -5, 1, 17, 60, 133.5, 600, .infinity, .nan])
            let style = ParagraphStyle(
                alignment: rng.pick([.left, .right, .center, .justified, .natural]),
                lineSpacing: Double(rng.int(4)), paragraphSpacing: Double(rng.int(6)),
                maximumLines: rng.int(4), truncation: rng.pick([.none, .head, .middle, .tail]))
            let height: Double? = rng.int(3) == 0 ? Double(rng.int(80)) : nil
            let layout = TextLayout(text, width: width, height: height, style: style)
            #expect(layout.size.width.isFinite || width == .infinity, "round \(round)")
            for (n, line) in layout.lines.enumerated() where width.isFinite && width > 0 {
                // A line may be wider only when it holds one character that is
                // (clusters are never split), kerning included.
                let extents = layout.characterExtents(line: n)
                let widest = (extents.map { $0.maxX - $0.minX }.max() ?? 0) + 2
                #expect(
                    line.width <= width + 1e-6 || extents.count <= 1 && line.width <= widest + 1e-6,
                    "round \(round): line \(n) is \(line.width) wide in \(width)")
            }
            // Hit testing anywhere answers without trapping.
            for _ in 0..<5 {
                let p = Point(x: Double(rng.int(700)) - 50, y: Double(rng.int(400)) - 50)
                let i = layout.characterIndex(at: p)
                #expect(i >= 0 && i <= text.count, "round \(round)")
                _ = layout.caretRect(forCharacterAt: rng.int(text.count + 3) - 1)
                _ = layout.link(at: p)
            }
            _ = layout.rects(forCharacters: 0..<text.count)
        }
    }
}
