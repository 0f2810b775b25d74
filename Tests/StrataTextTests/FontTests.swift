import Foundation
import StrataGraphics
import Testing

@testable import StrataText

/// The faces the text tests fall back to, named so that their results do not
/// depend on which other fonts a machine has (fontconfig's own order would
/// pick Droid Sans Fallback or Noto where they are installed).
/// `scripts/install-deps.sh`, which the README's test command runs, installs
/// them with DejaVu.
let fallbackFaces = ["WenQuanYi Micro Hei"]

@Suite struct FontTests {
    @Test func defaultFontIsAlwaysThere() throws {
        let font = Font(size: 16)
        let face = try #require(font.primaryFace)
        #expect(face.unitsPerEm > 0 && font.ascent > 0 && font.descent > 0)
        #expect(font.lineHeight >= font.ascent + font.descent - 0.01)
        #expect(font.capHeight > font.xHeight && font.xHeight > 0)
    }

    @Test func familiesWeightsAndSlantsResolve() throws {
        let regular = try #require(Font(family: "DejaVu Sans", size: 12, cascadeList: fallbackFaces).primaryFace)
        let bold = try #require(Font(family: "DejaVu Sans", size: 12, weight: .bold, cascadeList: fallbackFaces).primaryFace)
        let italic = try #require(Font(family: "DejaVu Sans", size: 12, italic: true, cascadeList: fallbackFaces).primaryFace)
        #expect(regular.familyName == "DejaVu Sans")
        #expect(bold.styleName.contains("Bold") && italic.styleName.contains("Oblique"))
        // An unknown family falls back to something that draws.
        #expect(Font(family: "No Such Family 12345", size: 12).primaryFace != nil)
    }

    @Test func metricsScaleWithSize() {
        let a = Font(family: "DejaVu Sans", size: 10, cascadeList: fallbackFaces),
            b = Font(family: "DejaVu Sans", size: 20, cascadeList: fallbackFaces)
        #expect(abs(b.ascent - 2 * a.ascent) < 1e-9 && abs(b.lineHeight - 2 * a.lineHeight) < 1e-9)
        #expect(Font(size: -3).size == 12 && Font(size: .nan).size == 12)
    }

    @Test func glyphsAdvancesAndKerning() throws {
        let face = try #require(Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).primaryFace)
        let a = try #require(face.glyph(for: "A")), v = try #require(face.glyph(for: "V"))
        #expect(face.glyphData(a).advance > 0 && !face.glyphData(a).path.isEmpty)
        #expect(face.kerning(a, v) < 0)  // "AV" tucks in
        #expect(face.glyph(for: "\u{10FFFD}") == nil)
    }

    @Test func theFacesTheTestsNeedAreInstalled() throws {
        for family in ["DejaVu Sans"] + fallbackFaces {
            let face = try #require(Font(family: family, size: 16).primaryFace)
            #expect(
                face.familyName == family,
                "\(family) is not installed (fontconfig offers \(face.familyName)): run scripts/install-deps.sh")
        }
    }

    @Test func cjkFallsBackToTheCascadeListsFace() throws {
        let font = Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces)
        let (face, glyph) = try #require(font.face(for: "列"))
        #expect(glyph != 0 && face.familyName == "WenQuanYi Micro Hei")
        #expect(font.face(for: "A")?.face.familyName == "DejaVu Sans")
    }

    @Test func theCascadeListComesBeforeFontconfigsFallbacks() throws {
        // A family that is not installed is skipped, not replaced by its nearest match.
        let font = Font(family: "DejaVu Sans", size: 16, cascadeList: ["No Such Family 12345", "DejaVu Serif"] + fallbackFaces)
        let names = font.faces.prefix(3).map(\.familyName)
        #expect(names == ["DejaVu Sans", "DejaVu Serif", "WenQuanYi Micro Hei"])
        // Each face appears once, and the chain holds fontconfig's fallbacks too.
        let chain = font.faces
        #expect(Set(chain.map { ObjectIdentifier($0) }).count == chain.count)
        #expect(chain.count >= Font(family: "DejaVu Sans", size: 16).faces.count)
        // Without a list the chain is fontconfig's.
        #expect(Font(family: "DejaVu Sans", size: 16).faces.first?.familyName == "DejaVu Sans")
    }

    @Test func missingGlyphsUseThePrimaryFacesBox() throws {
        let (face, glyph) = try #require(Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).face(for: "\u{10FFFD}"))
        #expect(glyph == 0 && face === Font(family: "DejaVu Sans", size: 16, cascadeList: fallbackFaces).primaryFace)
        #expect(!face.glyphData(0).path.isEmpty)  // .notdef is a box
    }

    @Test func collectionsOpenByIndex() throws {
        // WenQuanYi's collection, wherever fontconfig found it.
        let path = try #require(Font(family: "WenQuanYi Micro Hei", size: 12).primaryFace).path
        #expect(path.hasSuffix(".ttc"))
        let first = try FontLibrary.shared.face(path: path, index: 0)
        let second = try FontLibrary.shared.face(path: path, index: 1)
        #expect(first.familyName != second.familyName)
    }

    @Test func badFontFilesThrowNamingTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-font-tests")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let notAFont = dir.appendingPathComponent("not-a-font.ttf").path
        try Data("this is not a font".utf8).write(to: URL(fileURLWithPath: notAFont))
        let real = try #require(Font(family: "DejaVu Sans", size: 12, cascadeList: fallbackFaces).primaryFace).path
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
