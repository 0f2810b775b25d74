import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataText

private let body = TextAttributes(font: Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces))

private func layout(_ s: String, width: Double, style: ParagraphStyle = ParagraphStyle()) -> TextLayout {
    TextLayout(AttributedText(s, attributes: body), width: width, style: style)
}

/// The text of each line.
private func lineTexts(_ l: TextLayout) -> [String] {
    let chars = Array(l.text.string)
    return l.lines.map { String(chars[$0.characters]) }
}

@Suite struct LayoutTests {
    @Test func wrapsAtSpacesWithinTheWidth() {
        let l = layout("The quick brown fox jumps over the lazy dog", width: 120)
        #expect(l.lines.count > 1)
        for line in l.lines { #expect(line.width <= 120) }
        #expect(lineTexts(l).joined() == "The quick brown fox jumps over the lazy dog")
        #expect(lineTexts(l).allSatisfy { !$0.hasPrefix(" ") })
    }

    @Test func newlinesBreakAndEmptyLinesCount() {
        let l = layout("a\n\nb", width: 100)
        #expect(l.lines.count == 3)
        #expect(l.size.height > 2 * Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).lineHeight)
    }

    @Test func cjkPunctuationNeverStartsALineAndOpeningNeverEndsOne() {
        let s = String(repeating: "这是一个测试，句子「引号」。", count: 6)
        for w in stride(from: 60.0, through: 200, by: 7) {
            for line in lineTexts(layout(s, width: w)).dropFirst() {
                #expect(!["，", "。", "」", "、"].contains(where: { line.hasPrefix($0) }), "width \(w): \(line)")
            }
            for line in lineTexts(layout(s, width: w)) {
                #expect(!line.hasSuffix("「"), "width \(w): \(line)")
            }
        }
    }

    @Test func numbersAndDatesStayWhole() {
        let s = "Numbers such as 1,234.56 kg, 98.6%, and 2026-11-21 must stay whole."
        // From the width of the longest of them up (narrower, a word has to break
        // by character: the last resort).
        let widest = ["1,234.56", "2026-11-21", "98.6%,"].map { layout($0, width: .infinity).size.width }.max()!
        for w in stride(from: widest.rounded(.up), through: 300, by: 5) {
            let lines = lineTexts(layout(s, width: w))
            #expect(lines.contains { $0.contains("1,234.56") }, "width \(w): \(lines)")
            #expect(lines.contains { $0.contains("2026-11-21") }, "width \(w): \(lines)")
            #expect(!lines.dropFirst().contains { $0.hasPrefix("%") })
        }
    }

    @Test func alignment() {
        let w = 300.0
        let left = layout("Hi", width: w, style: ParagraphStyle(alignment: .left)).lines[0]
        let right = layout("Hi", width: w, style: ParagraphStyle(alignment: .right)).lines[0]
        let center = layout("Hi", width: w, style: ParagraphStyle(alignment: .center)).lines[0]
        #expect(left.origin.x == 0)
        #expect(abs(right.origin.x + right.width - w) < 1e-9)
        #expect(abs(center.origin.x - (w - center.width) / 2) < 1e-9)
    }

    @Test func justificationFillsAllButTheLastLine() {
        let l = layout("aaa bbb ccc ddd eee fff ggg hhh iii jjj", width: 100, style: ParagraphStyle(alignment: .justified))
        #expect(l.lines.count > 2)
        for line in l.lines.dropLast() { #expect(abs(line.width - 100) < 1e-6, "\(line.width)") }
        #expect(l.lines.last!.width < 100)
    }

    @Test func tailTruncationAddsAnEllipsis() {
        let l = layout(
            "one two three four five six seven eight nine ten", width: 80,
            style: ParagraphStyle(maximumLines: 2, truncation: .tail))
        #expect(l.lines.count == 2 && l.isTruncated)
        let last = l.lines[1]
        #expect(last.width <= 80)
        let lastGlyph = last.runs.last!.glyphs.last!
        #expect(lastGlyph == Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).face(for: "…")!.glyph)
        let byHeight = TextLayout(
            AttributedText("one two three four five six seven eight nine ten", attributes: body),
            width: 80, height: 40, style: ParagraphStyle(truncation: .tail))
        #expect(byHeight.size.height <= 40 && byHeight.isTruncated)
    }

    @Test func degenerateInputs() {
        #expect(layout("", width: 100).lines.count == 1 && layout("", width: 100).size.width == 0)
        #expect(layout("     ", width: 100).lines.count == 1)
        #expect(layout("\n\n", width: 100).lines.count == 3)
        // A word longer than the width breaks by character, as a last resort.
        let long = layout("Supercalifragilisticexpialidocious", width: 60)
        #expect(long.lines.count > 3 && long.lines.allSatisfy { $0.width <= 60 })
        // Zero, negative and NaN widths: one character a line, no hang.
        for w in [0.0, -10, .nan] { #expect(layout("abc", width: w).lines.count == 3) }
        #expect(layout("no wrapping at all here", width: .infinity).lines.count == 1)
    }

    @Test func clustersStayTogether() {
        // "é" as e + combining accent, a flag and a family emoji are one character each.
        let s = "e\u{301}🇫🇷👨‍👩‍👧x"
        let l = layout(s, width: 1)
        #expect(l.text.count == 4)
        #expect(l.lines.count == 4)
    }

    @Test func benchmarkParagraph() throws {
        let markdown = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("shared/bench/TEXT.md").path, encoding: .utf8)
        let paragraph = markdown.components(separatedBy: "```text\n")[1].components(separatedBy: "\n```")[0]
        let l = layout(paragraph, width: 600)
        for line in l.lines { #expect(line.width <= 600) }
        for text in lineTexts(l).dropFirst() {
            #expect(!["」", "。", "，", "、"].contains(where: { text.hasPrefix($0) }), "\(text)")
        }
        #expect(lineTexts(l).contains { $0.contains("1,234.56") })
        // Every CJK character drawn from a face that has it (no boxes).
        for line in l.lines { for run in line.runs { #expect(!run.glyphs.contains(0)) } }
        // Skia's paragraph measures 342 px here; within 10 %.
        #expect(abs(l.size.height - 342) < 34.2, "\(l.size.height)")
    }

    @Test(.tags(.slow)) func cachesStayWithinTheirBounds() {
        let cache = LayoutCache(maximumEntries: 500, maximumBytes: 200_000)
        let glyphs = GlyphCache(maximumEntries: 300, maximumBytes: 100_000)
        let face = Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).primaryFace!
        for i in 0..<100_000 {  // the issue's bar: 100 000 distinct strings
            _ = cache.layout(AttributedText("line \(i)", attributes: body), width: 200)
            _ = glyphs.mask(face: face, glyph: UInt32(i % 2000 + 1), size: 10 + Double(i % 7), subpixel: i % 4)
            let u = cache.usage, g = glyphs.usage
            if u.entries > 500 || u.bytes > 200_000 || g.entries > 300 || g.bytes > 100_000 {
                Issue.record("over budget at \(i): \(u) \(g)")
                break
            }
        }
        #expect(cache.usage.entries > 0 && glyphs.usage.entries > 0)
    }

    @Test func cacheKeysAreTheExactTextAttributesAndWidth() {
        let cache = LayoutCache(maximumEntries: 16, maximumBytes: 1 << 20)
        // Equal bytes built separately: one entry, the same layout back.
        let a = cache.layout(AttributedText("caf" + "é 1,234.56 東京", attributes: body), width: 200)
        let b = cache.layout(AttributedText(String("café 1,234.56 東京".reversed().reversed()), attributes: body), width: 200)
        #expect(a.renderCache === b.renderCache)
        #expect(cache.usage.entries == 1)
        // Canonically equal but spelled with a combining accent: another entry,
        // since its glyphs differ.
        let nfd = cache.layout(AttributedText("cafe\u{301} 1,234.56 東京", attributes: body), width: 200)
        #expect(nfd.renderCache !== a.renderCache)
        #expect(cache.usage.entries == 2)
        // Other attributes, width or style: other entries.
        var red = body
        red.foregroundColor = .red
        _ = cache.layout(AttributedText("café 1,234.56 東京", attributes: red), width: 200)
        _ = cache.layout(AttributedText("café 1,234.56 東京", attributes: body), width: 201)
        _ = cache.layout(AttributedText("café 1,234.56 東京", attributes: body), width: 200, style: ParagraphStyle(alignment: .center))
        #expect(cache.usage.entries == 5)
        // Empty text is a key like any other.
        let e1 = cache.layout(AttributedText(), width: 200), e2 = cache.layout(AttributedText(), width: 200)
        #expect(e1.renderCache === e2.renderCache)
    }

    @Test func drawingHonoursColourAndPosition() throws {
        let canvas = try Canvas(width: 120, height: 40)
        var text = AttributedText(
            "Red", attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 24, cascadeList: fallbackFaces), foregroundColor: .red))
        text.append(
            " Blue",
            attributes: TextAttributes(
                font: Font(family: "DejaVu Sans", size: 24, cascadeList: fallbackFaces), foregroundColor: .blue,
                underline: TextDecoration()))
        canvas.draw(TextLayout(text, width: 120), at: Point(x: 4, y: 4))
        var reds = 0, blues = 0
        for y in 0..<40 {
            for x in 0..<120 { let p = canvas.bitmap[x, y]; if p.r > 200 && p.b < 50 { reds += 1 }; if p.b > 200 && p.r < 50 { blues += 1 } }
        }
        #expect(reds > 30 && blues > 30)
        // The underline runs under " Blue" only, at the end of the line's span.
        let l = TextLayout(text, width: 120)
        let underlineY = Int((4 + l.lines[0].origin.y + 2.4 + 0.8).rounded(.down))
        #expect(canvas.bitmap[100, underlineY].b > 150)
        // Rotated text falls back to outlines and still draws.
        let rotated = try Canvas(width: 60, height: 60)
        rotated.translateBy(x: 30, y: 30)
        rotated.rotate(by: .pi / 4)
        rotated.draw(TextLayout(AttributedText("ABC", attributes: body), width: 100), at: Point(x: -15, y: -10))
        var inked = 0
        for y in 0..<60 { for x in 0..<60 where rotated.bitmap[x, y].a > 0 { inked += 1 } }
        #expect(inked > 40)
    }
}

@Suite struct ComposedDrawingTests {
    private func image(_ draws: [(Double, Double)]) throws -> Image {
        let layout = TextLayout(
            AttributedText(
                "Composed lines: 文字 and text", attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 15, cascadeList: fallbackFaces))),
            width: 120)
        let canvas = try Canvas(width: 160, height: 80)
        for (x, y) in draws {
            canvas.fillColor = .white
            canvas.fill(canvas.bounds)
            canvas.draw(layout, at: Point(x: x, y: y))
        }
        return canvas.makeImage()
    }

    @Test func secondDrawingsMatchTheFirst() throws {
        // Drawn once (composing the lines) and drawn again (reusing them), even
        // after a drawing at another sub-pixel phase.
        let once = try image([(10, 12)])
        #expect(try image([(10, 12), (10, 12)]) == once)
        #expect(try image([(10.5, 12.25), (10, 12)]) == once)
        #expect(try image([(10.25, 12)]) != once)  // a quarter pixel shows
    }
}
