import StrataGraphics
import Testing

@testable import StrataText

/// HarfBuzz shaping, against DejaVu Sans, whose
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
        // first acute into á), in logical order, all of the long character's
        // in its cluster (byte 0), as when it is shaped whole.
        let glyphs = TextShaper.shape(text, face: f)
        let acute = try #require(f.glyph(for: "\u{301}"))
        #expect(glyphs.count == 1 + 599 + 2)
        #expect(glyphs.first?.glyph == f.glyph(for: "á") && glyphs[1..<600].allSatisfy { $0.glyph == acute })
        #expect(glyphs.map(\.cluster) == [Int](repeating: 0, count: 600) + [1201, 1202])
        // Right to left (Hebrew, a shin with 600 shevas, then a bet): the
        // pieces in visual order, the bet's glyph first.
        let hebrew = "\u{5E9}" + String(repeating: "\u{5B0}", count: 600) + "\u{5D1}"
        let rtl = TextShaper.shape(hebrew, face: f)
        #expect(rtl.count == 602)
        #expect(rtl.first?.cluster == 1202 && rtl.last?.cluster == 0)
        #expect(rtl.map(\.cluster) == rtl.map(\.cluster).sorted(by: >))
        // The direction is the whole run's, not its first piece's: a run
        // that starts with a digit and a space is right to left for its
        // Hebrew, long character or not.
        for shevas in [200, 600] {
            let run = TextShaper.shape("1 \u{5E9}" + String(repeating: "\u{5B0}", count: shevas) + "\u{5D1}\u{5DC}", face: f)
            #expect(run.count == shevas + 5)
            #expect(run.first!.cluster > run.last!.cluster, "\(shevas) shevas")
        }
    }

    @Test func piecesAfterTheFirstGetNoDottedCircles() throws {
        // Devanagari's shaper puts a dotted circle under each candrabindu it
        // cannot attach; a piece of marks alone would get one for each of its
        // marks, and gets none. (The first piece, with the consonant, gets
        // what the character shaped whole would.)
        let deva = try ScriptShapingTests.face("Noto Sans Devanagari")
        let circle = try #require(deva.glyph(for: "\u{25CC}"))
        let head = TextShaper.shape("\u{915}" + String(repeating: "\u{901}", count: 255), face: deva)
        let long = TextShaper.shape("\u{915}" + String(repeating: "\u{901}", count: 600), face: deva)
        #expect(head.contains { $0.glyph == circle })
        #expect(long.count == head.count + 345)
        #expect(!long[head.count...].contains { $0.glyph == circle })
        let laidOut = Itemizer(
            text: AttributedText(
                "\u{915}" + String(repeating: "\u{901}", count: 600), attributes: TextAttributes(font: Font(family: "Noto Sans Devanagari", size: 16))
            ),
            style: ParagraphStyle()
        ).clusters()
        #expect(laidOut.count == 1 && !laidOut[0].glyphs.dropFirst(head.count).contains { $0.glyph == circle })
        #expect(laidOut[0].glyphs.count == head.count + 345)
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
