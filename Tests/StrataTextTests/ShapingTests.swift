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
