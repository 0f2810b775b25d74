import Testing

@testable import StrataText

/// ICU's grapheme clusters and line breaks.
@Suite struct BoundaryTests {
    @Test func wordSegmentsCoverTheTextAndTellWordsFromTheRest() {
        let segments = TextBoundaries.wordSegments("Hello, wörld 42.")
        #expect(segments.map(\.range) == [0..<5, 5..<6, 6..<7, 7..<12, 12..<13, 13..<15, 15..<16])
        #expect(segments.map(\.isWord) == [true, false, false, true, false, true, false])
        // Chinese and Japanese by ICU's dictionaries; an emoji is not a word.
        #expect(TextBoundaries.wordSegments("你好世界").map(\.range) == [0..<2, 2..<4])
        #expect(TextBoundaries.wordSegments("😀").map(\.isWord) == [false])
        #expect(TextBoundaries.wordSegments("").isEmpty)
    }

    @Test func emojiSequencesFlagsAndMarksAreOneCluster() {
        #expect(TextBoundaries.graphemeClusters("👨‍👩‍👧a") == ["👨‍👩‍👧", "a"])
        #expect(TextBoundaries.graphemeClusters("🇫🇷🇩🇪") == ["🇫🇷", "🇩🇪"])
        #expect(TextBoundaries.graphemeClusters("e\u{301}x") == ["e\u{301}", "x"])
        #expect(TextBoundaries.graphemeClusters("👍🏽!") == ["👍🏽", "!"])
        #expect(TextBoundaries.graphemeBoundaries("") == [0])
        #expect(TextBoundaries.graphemeBoundaries("ab") == [0, 1, 2])
        // Offsets are UTF-16 units: a family emoji is 8 of them.
        #expect(TextBoundaries.graphemeBoundaries("👨‍👩‍👧a") == [0, 8, 9])
    }

    @Test func linesBreakAfterSpacesAndAtNewlines() {
        let breaks = TextBoundaries.lineBreaks("Hello world\nnext")
        #expect(breaks.map(\.offset) == [6, 12, 16])
        #expect(breaks.map(\.isMandatory) == [false, true, false])
        // Not inside a number with its punctuation, nor before a closing mark.
        #expect(!TextBoundaries.lineBreaks("3.14 pi").map(\.offset).contains(2))
        #expect(TextBoundaries.lineBreaks("").isEmpty)
    }

    @Test func chineseAndJapaneseBreakBetweenCharactersStrictlyWhenAsked() {
        #expect(TextBoundaries.lineBreaks("日本語").map(\.offset) == [1, 2, 3])
        // A small kana: normal rules allow a break before it, strict ones do not.
        let normal = TextBoundaries.lineBreaks("あぁい", locale: "ja").map(\.offset)
        let strict = TextBoundaries.lineBreaks("あぁい", locale: "ja", strict: true).map(\.offset)
        #expect(normal.contains(1))
        #expect(!strict.contains(1))
        // No break before a closing bracket or after an opening one.
        let quoted = TextBoundaries.lineBreaks("「日本」語").map(\.offset)
        #expect(!quoted.contains(1) && !quoted.contains(3))
        // A locale with odd characters is cleaned, not passed on.
        #expect(TextBoundaries.lineBreaks("a b", locale: "x@y=z;;").map(\.offset) == [2, 3])
    }

    @Test func theFirstStrongCharacterSetsTheDirection() {
        #expect(TextBoundaries.baseDirection("Hello") == .leftToRight)
        #expect(TextBoundaries.baseDirection("שלום world") == .rightToLeft)
        #expect(TextBoundaries.baseDirection("123, مرحبا") == .rightToLeft)  // digits are weak
        #expect(TextBoundaries.baseDirection("(abc) שלום") == .leftToRight)
        #expect(TextBoundaries.baseDirection("123 !?") == nil)
        #expect(TextBoundaries.baseDirection("") == nil)
    }
}
