import Testing

@testable import StrataText

@Suite struct FontTests {
    @Test func defaultFontIsAlwaysThere() throws {
        let font = Font(size: 16)
        let face = try #require(font.primaryFace)
        #expect(face.unitsPerEm > 0 && font.ascent > 0 && font.descent > 0 && font.lineHeight >= font.ascent + font.descent - 0.01)
    }
}
