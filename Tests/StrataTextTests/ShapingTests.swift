import StrataGraphics
import Testing

@testable import StrataText

/// HarfBuzz shaping (issue 18, first step), against DejaVu Sans, whose
/// OpenType tables have kerning, Arabic contextual forms and combining marks.
@Suite struct ShapingTests {
    func face() throws -> FontFace {
        try #require(Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).primaryFace)
    }

    @Test func latinIsOneGlyphACharacterWithKerning() throws {
        let f = try face()
        let glyphs = TextShaper.shape("AVAV", face: f)
        #expect(glyphs.map(\.glyph) == "AVAV".unicodeScalars.map { f.glyph(for: $0) })
        #expect(glyphs.map(\.cluster) == [0, 1, 2, 3])
        // GPOS kerning pulls A and V together; turned off, the advances are the glyphs' own.
        let plain = TextShaper.shape("AVAV", face: f, features: [FontFeature("kern", 0)])
        let kerned = glyphs.reduce(0) { $0 + $1.advance }, unkerned = plain.reduce(0) { $0 + $1.advance }
        #expect(kerned < unkerned)
        #expect(unkerned == "AVAV".unicodeScalars.map { f.glyphData(f.glyph(for: $0)!).advance }.reduce(0, +))
    }

    @Test func arabicTakesItsContextualFormsRightToLeft() throws {
        let f = try face()
        let word = "سلام"
        let glyphs = TextShaper.shape(word, face: f)
        #expect(!glyphs.isEmpty)
        // Visual order is right to left: the clusters run backwards.
        #expect(glyphs.first!.cluster > glyphs.last!.cluster)
        // Joined letters use forms other than the isolated ones the cmap gives.
        let isolated = Set(word.unicodeScalars.compactMap { f.glyph(for: $0) })
        #expect(glyphs.contains { !isolated.contains($0.glyph) })
    }

    @Test func anOverlongCharacterIsShapedInPieces() throws {
        let f = try face()
        // "a" and 600 acutes (two bytes each), then "bc": pieces of 256
        // scalars, then the rest of the run.
        let text = "a" + String(repeating: "\u{301}", count: 600) + "bc"
        let pieces = TextShaper.pieces(text)
        #expect(pieces.map(\.range) == [0..<511, 511..<1023, 1023..<1201, 1201..<1203])
        #expect(pieces.map(\.continuesCharacter) == [false, true, true, false])
        #expect(TextShaper.pieces("abc").map(\.range) == [0..<3])
        // Every scalar keeps its glyph (the first piece composes a and its
        // first acute into á), in logical order, clusters inside the text.
        let glyphs = TextShaper.shape(text, face: f)
        let acute = try #require(f.glyph(for: "\u{301}"))
        #expect(glyphs.count == 1 + 599 + 2)
        #expect(glyphs.first?.glyph == f.glyph(for: "á") && glyphs[1..<600].allSatisfy { $0.glyph == acute })
        #expect(glyphs.map(\.cluster) == glyphs.map(\.cluster).sorted() && glyphs.last?.cluster == 1202)
        // Right to left (Hebrew, a shin with 600 shevas, then a bet): the
        // pieces in visual order, the bet's glyph first.
        let hebrew = "\u{5E9}" + String(repeating: "\u{5B0}", count: 600) + "\u{5D1}"
        let rtl = TextShaper.shape(hebrew, face: f)
        #expect(rtl.count == 602)
        #expect(rtl.first?.cluster == 1202 && rtl.last?.cluster == 0)
        #expect(rtl.map(\.cluster) == rtl.map(\.cluster).sorted(by: >))
    }

    @Test func aCombiningMarkSitsOnItsBase() throws {
        let f = try face()
        // e and a combining acute compose to é, one glyph; q has no composed
        // form, so the mark stays a glyph of its own, in the same cluster.
        let composed = TextShaper.shape("e\u{301}", face: f)
        #expect(composed.map(\.glyph) == [f.glyph(for: "é")])
        let glyphs = TextShaper.shape("q\u{301}", face: f)
        #expect(glyphs.allSatisfy { $0.cluster == 0 })
        #expect(glyphs.count == 2)
        // The mark takes no room: the pair is as wide as the e alone.
        #expect(glyphs.count == 2 && glyphs[1].advance == 0)
        #expect(glyphs.first?.advance == f.glyphData(f.glyph(for: "q")!).advance)
    }

    @Test func emptyTextAndBadFeaturesAreSafe() throws {
        let f = try face()
        #expect(TextShaper.shape("", face: f).isEmpty)
        #expect(TextShaper.shape("abc", face: f, script: "Zzzz", language: "xx", features: [FontFeature("toolong"), FontFeature("")]).count == 3)
    }
}
