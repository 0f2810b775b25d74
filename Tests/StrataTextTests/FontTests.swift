import Foundation
import StrataGraphics
import Testing

@testable import StrataText

/// True when a CJK face is installed (`.ci/run` installs fonts-wqy-microhei).
let hasCJKFont = Font(size: 16).face(for: "列").map { $0.glyph != 0 } ?? false

@Suite struct FontTests {
    @Test func defaultFontIsAlwaysThere() throws {
        let font = Font(size: 16)
        let face = try #require(font.primaryFace)
        #expect(face.unitsPerEm > 0 && font.ascent > 0 && font.descent > 0)
        #expect(font.lineHeight >= font.ascent + font.descent - 0.01)
        #expect(font.capHeight > font.xHeight && font.xHeight > 0)
    }

    @Test func familiesWeightsAndSlantsResolve() throws {
        let regular = try #require(Font(family: "DejaVu Sans", size: 12).primaryFace)
        let bold = try #require(Font(family: "DejaVu Sans", size: 12, weight: .bold).primaryFace)
        let italic = try #require(Font(family: "DejaVu Sans", size: 12, italic: true).primaryFace)
        #expect(regular.familyName == "DejaVu Sans")
        #expect(bold.styleName.contains("Bold") && italic.styleName.contains("Oblique"))
        // An unknown family falls back to something that draws.
        #expect(Font(family: "No Such Family 12345", size: 12).primaryFace != nil)
    }

    @Test func metricsScaleWithSize() {
        let a = Font(family: "DejaVu Sans", size: 10), b = Font(family: "DejaVu Sans", size: 20)
        #expect(abs(b.ascent - 2 * a.ascent) < 1e-9 && abs(b.lineHeight - 2 * a.lineHeight) < 1e-9)
        #expect(Font(size: -3).size == 12 && Font(size: .nan).size == 12)
    }

    @Test func glyphsAdvancesAndKerning() throws {
        let face = try #require(Font(family: "DejaVu Sans", size: 16).primaryFace)
        let a = try #require(face.glyph(for: "A")), v = try #require(face.glyph(for: "V"))
        #expect(face.glyphData(a).advance > 0 && !face.glyphData(a).path.isEmpty)
        #expect(face.kerning(a, v) < 0)  // "AV" tucks in
        #expect(face.glyph(for: "\u{10FFFD}") == nil)
    }

    @Test(.enabled(if: hasCJKFont)) func cjkFallsBackToACJKFace() throws {
        let font = Font(family: "DejaVu Sans", size: 16)
        let (face, glyph) = try #require(font.face(for: "列"))
        #expect(glyph != 0 && face.familyName != "DejaVu Sans")
        #expect(font.face(for: "A")?.face.familyName == "DejaVu Sans")
    }

    @Test func missingGlyphsUseThePrimaryFacesBox() throws {
        let (face, glyph) = try #require(Font(family: "DejaVu Sans", size: 16).face(for: "\u{10FFFD}"))
        #expect(glyph == 0 && face === Font(family: "DejaVu Sans", size: 16).primaryFace)
        #expect(!face.glyphData(0).path.isEmpty)  // .notdef is a box
    }

    @Test func collectionsOpenByIndex() throws {
        let path = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let first = try FontLibrary.shared.face(path: path, index: 0)
        let second = try FontLibrary.shared.face(path: path, index: 1)
        #expect(first.familyName != second.familyName)
    }

    @Test func badFontFilesThrowNamingTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-font-tests")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let notAFont = dir.appendingPathComponent("not-a-font.ttf").path
        try Data("this is not a font".utf8).write(to: URL(fileURLWithPath: notAFont))
        let real = try #require(Font(family: "DejaVu Sans", size: 12).primaryFace).path
        let truncated = dir.appendingPathComponent("truncated.ttf").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: real)).prefix(2000)).write(to: URL(fileURLWithPath: truncated))
        for path in ["/nonexistent/font.ttf", notAFont, truncated] {
            do {
                _ = try FontLibrary.shared.face(path: path)
                Issue.record("opened \(path)")
            } catch {
                #expect(error.description.hasPrefix(path), "\(error)")
            }
        }
    }
}
