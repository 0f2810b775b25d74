import CFreeType
import Foundation
import StrataGraphics
import Testing

@testable import StrataText

private let body = TextAttributes(font: Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces))

/// Inputs found in review.
@Suite struct TextEdgeCaseTests {
    @Test func appendingAJoinerMergesClustersWithoutCrashing() {
        var red = body
        red.foregroundColor = .red
        var t = AttributedText("x", attributes: body)
        t.append("👨", attributes: red)
        t.append("\u{200D}👩", attributes: body)
        #expect(t.count == 2 && t.string.count == 2)
        // The joined cluster takes the new run's attributes, the same as the first
        // run's here, so the two runs become one.
        #expect(t.runs.map(\.range) == [0..<2] && t.attributes(at: 1)?.foregroundColor == .black)
        var u = AttributedText("ab👨", attributes: red)
        u.append("\u{200D}👩", attributes: body)
        #expect(u.attributes(at: 1)?.foregroundColor == .red && u.attributes(at: 2)?.foregroundColor == .black)
    }

    @Test func aLetterWithThirtyTwoThousandMarksLaysOutInLinearTime() {
        // Comparing each scalar's Character with "\t" normalised the whole
        // cluster every time: 32 000 marks took 35 s.
        let text = "a" + String(repeating: "\u{0301}", count: 32_000) + " b"
        let layout = TextLayout(AttributedText(text, attributes: body), width: 300)
        #expect(layout.text.count == 3)
        let canvas = try! Canvas(width: 100, height: 40)
        canvas.draw(layout, at: Point(x: 2, y: 2))
        // Tabs still advance four spaces.
        let tab = TextLayout(AttributedText("a\tb", attributes: body), width: 300)
        let spaces = TextLayout(AttributedText("a    b", attributes: body), width: 300)
        #expect(abs(tab.size.width - spaces.size.width) < 0.5)
    }

    @Test func anOverlongCharacterIsShapedInPiecesKeepingEveryGlyph() throws {
        // HarfBuzz's time on one cluster grows with the square of its marks, so
        // a character over 256 UTF-16 units is shaped in pieces of 256. The
        // first piece (the base and 255 marks) comes out as that character
        // alone does; every mark after it keeps its glyph, with no dotted
        // circle; the character after is shaped as usual.
        func clusters(_ s: String) -> [Cluster] {
            Itemizer(text: AttributedText(s, attributes: body), style: ParagraphStyle()).clusters()
        }
        let long = clusters("a" + String(repeating: "\u{0301}", count: 600) + "b")
        let head = clusters("a" + String(repeating: "\u{0301}", count: 255))
        let b = clusters("b")
        #expect(long.count == 2 && head.count == 1)
        // (HarfBuzz composes the base and the first mark into "á": 255 glyphs.)
        #expect(head[0].glyphs.count == 255)
        #expect(long[0].glyphs.count == 255 + 345)
        for (x, y) in zip(long[0].glyphs.prefix(255), head[0].glyphs) {
            #expect(x.glyph == y.glyph && x.x == y.x && x.y == y.y && x.advance == y.advance)
        }
        let accent = head[0].glyphs[1].glyph
        #expect(long[0].glyphs.dropFirst().allSatisfy { $0.glyph == accent })
        #expect(long[0].advance == head[0].advance)
        #expect(long[1].glyphs.map(\.glyph) == b[0].glyphs.map(\.glyph) && long[1].advance == b[0].advance)
        // Marks of two UTF-16 units each: a piece never ends between the two
        // (a lone surrogate would come out as one more glyph).
        let pairs = clusters("a" + String(repeating: "\u{1D167}", count: 300))
        #expect(pairs.count == 1 && pairs[0].glyphs.count == 301)
        // Right to left, the pieces in visual order: the later pieces' 345
        // marks first, then the first piece, whose 255 marks HarfBuzz sets
        // before its shin; in logical order the shin would be glyph 255.
        let hebrew = clusters("\u{5E9}" + String(repeating: "\u{5B0}", count: 600))
        let shin = try #require(hebrew[0].glyphs.first { $0.advance > 0 })
        #expect(hebrew[0].glyphs.count == 601)
        #expect(hebrew[0].glyphs.firstIndex { $0.glyph == shin.glyph } == 600)
        // Thousands of over-long characters, each shaped in pieces, in a loop
        // (one stack frame each used to overflow the stack).
        let many = clusters(String(repeating: "x" + String(repeating: "\u{0301}", count: 256), count: 3000))
        #expect(many.count == 3000 && many.allSatisfy { $0.glyphs.count == 257 })
    }

    @Test func glyphMasksAreBoundedInPixelsNotInPointSize() throws {
        // DejaVu Sans with its unitsPerEm patched from 2048 to 16 (legal): each
        // glyph is 128 times larger at a given size. Masks at size 300 took
        // 1.7 GB; now a glyph over the mask limit has none, and is drawn from
        // its outline.
        let path = try dejaVu(unitsPerEm: 16, family: "DejaVu Sans")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let face = try FontLibrary.shared.face(path: path)
        #expect(face.unitsPerEm == 16)
        let glyph = face.glyph(for: "W")!
        #expect(GlyphCache.shared.mask(face: face, glyph: glyph, size: 300, subpixel: 0) == nil)
        // At a small size the same glyph fits a mask of a sane size.
        let small = GlyphCache.shared.mask(face: face, glyph: glyph, size: 2, subpixel: 0)
        #expect(small != nil && small!.width <= GlyphCache.maximumMaskSide && small!.height <= GlyphCache.maximumMaskSide)
        // Ordinary fonts keep their masks up to 256 pixels.
        let normal = try #require(Font(family: "DejaVu Sans", size: 256, cascadeList: fallbackFaces).primaryFace)
        #expect(GlyphCache.shared.mask(face: normal, glyph: normal.glyph(for: "W")!, size: 256, subpixel: 0) != nil)
    }

    @Test func colorsWithNaNDrawWithoutCrashing() {
        // The glyphs of a layout are grouped by colour; a NaN component (never
        // equal to itself) used to trap the dictionary doing it.
        var text = AttributedText("plain ", attributes: body)
        var odd = body
        odd.foregroundColor = Color(red: .nan, green: 0.5, blue: 1, alpha: .nan)
        text.append("odd", attributes: odd)
        odd.foregroundColor = Color(red: 1, green: .nan, blue: .nan, alpha: 1)
        text.append(" more", attributes: odd)
        let canvas = try! Canvas(width: 200, height: 40)
        canvas.draw(TextLayout(text, width: 200), at: Point(x: 2, y: 2))
        canvas.scaleBy(x: 1.5, y: 1.5)  // and through the per-glyph path
        canvas.draw(TextLayout(text, width: 200), at: Point(x: 2, y: 2))
        #expect(text.attributes(at: 7)?.foregroundColor == Color(red: 0, green: 0.5, blue: 1, alpha: 0))
    }

    @Test func contoursOfConicControlPointsOnly() {
        // Four off-curve points at the corners of a 20 × 20 square: a rounded
        // shape through the sides' midpoints, area 400 − 4·50/3.
        var points = [FT_Vector(x: 10, y: 10), FT_Vector(x: -10, y: 10), FT_Vector(x: -10, y: -10), FT_Vector(x: 10, y: -10)]
        var tags: [CChar] = [0, 0, 0, 0]
        var contours: [CShort] = [3]
        let path = points.withUnsafeMutableBufferPointer { p in
            tags.withUnsafeMutableBufferPointer { t in
                contours.withUnsafeMutableBufferPointer { c in
                    var outline = FT_Outline()
                    outline.n_points = 4
                    outline.n_contours = 1
                    outline.points = p.baseAddress
                    outline.tags = t.baseAddress
                    outline.contours = c.baseAddress
                    return FontLibrary.path(of: outline)
                }
            }
        }
        let canvas = try! Canvas(width: 40, height: 40)
        canvas.fillColor = .white
        canvas.fill(path.applying(Transform(translationX: 20, y: 20)))
        var area = 0.0
        for y in 0..<40 { for x in 0..<40 { area += Double(canvas.bitmap[x, y].a) / 255 } }
        #expect(abs(area - (400 - 200.0 / 3)) < 1, "\(area)")
    }

    @Test func truncationByHeightReportsItsWidth() {
        let text = AttributedText("ab\nlong long text that goes on", attributes: body)
        let l = TextLayout(text, width: 200, height: 20, style: ParagraphStyle(truncation: .tail))
        #expect(l.lines.count == 1 && l.isTruncated)
        #expect(l.size.width == l.lines[0].width && l.size.width > 20)
    }

    @Test func aTrailingNewlineIsNotTruncation() {
        let l = TextLayout(AttributedText("abc\n", attributes: body), width: 200, style: ParagraphStyle(maximumLines: 1, truncation: .tail))
        #expect(!l.isTruncated)
        #expect(l.lines[0].runs.flatMap(\.glyphs).count == 3)
    }

    @Test func tabsAdvanceWithoutABox() {
        let l = TextLayout(AttributedText("a\tb", attributes: body), width: 500)
        #expect(!l.lines[0].runs.flatMap(\.glyphs).contains(0))
        let spaced = TextLayout(AttributedText("a b", attributes: body), width: 500)
        #expect(l.lines[0].width > spaced.lines[0].width * 1.5)
    }

    @Test func underlinesStayThinUnderRotationAndMirroring() {
        var underlined = body
        underlined.underline = TextDecoration()
        let layout = TextLayout(AttributedText("Underlined", attributes: underlined), width: 200)
        for angle in [Double.pi / 2, .pi] {
            let canvas = try! Canvas(width: 200, height: 200)
            canvas.translateBy(x: 100, y: 100)
            canvas.rotate(by: angle)
            canvas.draw(layout, at: Point(x: -40, y: -10))
            var inked = 0
            for y in 0..<200 { for x in 0..<200 where canvas.bitmap[x, y].a > 0 { inked += 1 } }
            #expect(inked > 50 && inked < 3000, "angle \(angle): \(inked)")
        }
    }

    @Test func masksOfFarAwayPathsAreEmpty() {
        let far = CoverageMask(path: Path(rect: Rect(x: 1e20, y: 0, width: 1, height: 1)))
        #expect(far.width == 0 && far.height == 0)
        #expect(FontLibrary.shared.freeTypeMask(face: Font(size: 16).primaryFace!, glyph: 36, size: .nan, shift: 0).width == 0)
    }

    @Test func caretsBeforeTheStartStandOnTheFirstLine() {
        let l = TextLayout(AttributedText("one two three four five six", attributes: body), width: 60)
        #expect(l.caretRect(forCharacterAt: -5).minY == l.caretRect(forCharacterAt: 0).minY)
    }
}
