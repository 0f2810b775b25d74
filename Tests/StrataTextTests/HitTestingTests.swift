import StrataGraphics
import Testing

@testable import StrataText

private let body = TextAttributes(font: Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces))

@Suite struct HitTestingTests {
    @Test func indexAtPointAndCaretRoundTrip() {
        let l = TextLayout(AttributedText("hello world", attributes: body), width: 500)
        for i in 0...11 {
            let caret = l.caretRect(forCharacterAt: i)
            #expect(l.characterIndex(at: Point(x: caret.minX + 0.5, y: caret.midY)) == i, "index \(i)")
        }
        #expect(l.characterIndex(at: Point(x: -50, y: 5)) == 0)
        #expect(l.characterIndex(at: Point(x: 5000, y: 5)) == 11)
        #expect(l.characterIndex(at: Point(x: 10, y: 5000)) >= 0)
        #expect(l.characterIndex(at: Point(x: .nan, y: 5)) == 0)
    }

    @Test func linksThatWrapOntoASecondLine() throws {
        var text = AttributedText("Long press on ", attributes: body)
        var linkStyle = body
        linkStyle.foregroundColor = .blue
        linkStyle.link = TextLink("https://example.org/strata/guide")
        text.append("the complete guide", attributes: linkStyle)
        text.append(" for more.", attributes: body)
        let l = TextLayout(text, width: 170)
        let range = try #require(l.linkRanges.first?.range)
        let rects = l.rects(forCharacters: range)
        #expect(rects.count == 2, "\(rects)")
        for r in rects {
            #expect(l.link(at: Point(x: r.midX, y: r.midY)) == TextLink("https://example.org/strata/guide"))
        }
        // Just outside the link: none.
        #expect(l.link(at: Point(x: 2, y: rects[0].midY)) == nil)
        #expect(l.link(at: Point(x: rects[0].midX, y: -30)) == nil)
    }

    @Test func clustersAreOneIndexEach() {
        let l = TextLayout(AttributedText("ae\u{301}b👨‍👩‍👧c", attributes: body), width: 500)
        // Five characters: a, é (two scalars), b, the family emoji, c.
        #expect(l.text.count == 5)
        let carets = (0...5).map { l.caretRect(forCharacterAt: $0).minX }
        #expect(carets == carets.sorted() && Set(carets).count == 6)
        #expect(l.rects(forCharacters: 1..<2).count == 1)
    }

    @Test func truncationModes() {
        let s = "alpha beta gamma delta epsilon zeta eta theta"
        func oneLine(_ mode: TruncationMode) -> String {
            let l = TextLayout(AttributedText(s, attributes: body), width: 150, style: ParagraphStyle(maximumLines: 1, truncation: mode))
            let chars = Array(l.text.string)
            let line = l.lines[0]
            let dots = Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).face(for: "…")!
            var shown = ""
            for run in line.runs {
                for (i, g) in run.glyphs.enumerated() {
                    // The text has no "…" of its own: any is the ellipsis.
                    if g == dots.glyph && run.face === dots.face { shown += "…" } else { shown.append(chars[run.characters[i]]) }
                }
            }
            #expect(line.width <= 150, "\(mode): \(line.width)")
            return shown
        }
        #expect(oneLine(.tail).hasPrefix("alpha") && oneLine(.tail).hasSuffix("…"))
        #expect(oneLine(.head).hasPrefix("…") && oneLine(.head).hasSuffix("theta"))
        let middle = oneLine(.middle)
        #expect(middle.hasPrefix("alpha") && middle.hasSuffix("theta") && middle.contains("…"), "\(middle)")
    }
}

@Suite struct KernHitTestingTests {
    @Test func kernGapsBelongToTheirCharacters() {
        let spaced = TextAttributes(font: Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces), kern: 10)
        let l = TextLayout(AttributedText("abc", attributes: spaced), width: 500)
        let extents = l.characterExtents(line: 0)
        // Each character's extent reaches the next one's start: no unowned gaps.
        for (a, b) in zip(extents, extents.dropFirst()) { #expect(abs(a.maxX - b.minX) < 1e-9) }
        #expect(abs(extents.last!.maxX - l.lines[0].width) < 1e-9)
    }
}
