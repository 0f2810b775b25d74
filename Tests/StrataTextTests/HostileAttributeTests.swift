import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataText

/// Numbers that reach glyph positions are held where they enter:
/// a kern or baseline offset of 10³⁰ trapped converting a glyph position to
/// `Int` when drawn.
@Suite struct HostileAttributeTests {
    let hostile: [Double] = [1e30, -1e30, .infinity, -.infinity, .nan, 1e6, -1e6, .greatestFiniteMagnitude, 1e-300]

    @Test func kernAndBaselineOffsetAreHeldWhereverTheyAreSet() {
        var a = TextAttributes(kern: 1e30, baselineOffset: -.infinity)
        #expect(a.kern == TextAttributes.maximumOffset && a.baselineOffset == 0)
        a.kern = .nan
        #expect(a.kern == 0)
        a.kern = -1e30
        #expect(a.kern == -1e5)
        a.baselineOffset = 1e30
        #expect(a.baselineOffset == 1e5)
        a.baselineOffset = 12.5
        a.kern = -0.75
        #expect(a.baselineOffset == 12.5 && a.kern == -0.75)
    }

    @Test func fontSizesAreHeldWhereverTheyAreSet() {
        var f = Font(family: "DejaVu Sans", size: 1e30)
        #expect(f.size == 16_384)
        for (given, held) in [(Double.nan, 12.0), (-5, 12), (0, 12), (.infinity, 12), (1e-30, 0.01), (1e6, 16_384), (17.5, 17.5)] {
            f.size = given
            #expect(f.size == held, "\(given)")
            #expect(Font(size: given).size == held, "\(given)")
        }
    }

    @Test func paragraphSpacingIsHeldWhereverItIsSet() {
        var p = ParagraphStyle(lineSpacing: 1e30)
        #expect(p.lineSpacing == ParagraphStyle.maximumSpacing)
        p.lineSpacing = .nan
        p.paragraphSpacing = -.infinity
        #expect(p.lineSpacing == 0 && p.paragraphSpacing == 0)
        p.paragraphSpacing = 1e300
        #expect(p.paragraphSpacing == 1e5)
    }

    @Test func hostileNumbersLayOutAndDrawEverywhere() throws {
        let canvas = try Canvas(width: 240, height: 120)
        for v in hostile {
            for which in 0..<4 {
                var a = TextAttributes(
                    font: Font(family: "DejaVu Sans", size: 14), backgroundColor: .red, underline: TextDecoration(),
                    strikethrough: TextDecoration(.thick))
                var style = ParagraphStyle()
                switch which {
                case 0: a.kern = v
                case 1: a.baselineOffset = v
                case 2: a.font.size = v
                default: style.lineSpacing = v
                }
                var text = AttributedText("Kerned WAVE text, ", attributes: a)
                text.append("then plain text.\nA second line.", attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 14)))
                let layout = TextLayout(text, width: 200, style: style)
                #expect(layout.size.width.isFinite && layout.size.height.isFinite, "\(which) \(v)")
                for line in layout.lines {
                    for run in line.runs { #expect(run.positions.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(which) \(v)") }
                }
                // Masks at scale 1 and 3, outlines turned, the per-run path with decorations.
                canvas.withSavedGState { canvas.draw(layout, at: Point(x: 4, y: 4)) }
                canvas.withSavedGState {
                    canvas.scaleBy(x: 3, y: 3)
                    canvas.draw(layout, at: Point(x: 1, y: 1))
                }
                canvas.withSavedGState {
                    canvas.rotate(by: 0.4)
                    canvas.draw(layout, in: Rect(x: 0, y: 0, width: 200, height: 100))
                }
                _ = layout.characterIndex(at: Point(x: 50, y: 10))
            }
        }
    }

    @Test func aRunRaisedFarAboveTheRestIsNotComposedIntoOneHugeMask() throws {
        var raised = TextAttributes(font: Font(family: "DejaVu Sans", size: 14))
        raised.baselineOffset = 90_000
        var text = AttributedText("low text ", attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 14)))
        text.append("raised far", attributes: raised)
        let layout = TextLayout(text, width: 400)
        let canvas = try Canvas(width: 400, height: 60)
        canvas.draw(layout, at: Point(x: 2, y: 30))
        // One mask from the low glyphs to the raised ones would be 90,000 rows
        // by about 150 columns, 13 MB; each glyph alone is a few hundred bytes.
        #expect(layout.renderCache.byteCount < 100_000, "\(layout.renderCache.byteCount)")
        // The low text is drawn all the same.
        let image = canvas.makeImage()
        var inked = 0
        for y in 0..<60 { for x in 0..<60 where image[x, y].a > 0 { inked += 1 } }
        #expect(inked > 20)
    }

    @Test func fontFilesRegisterByFamilyAndBadOnesSayWhy() throws {
        // DejaVu Sans renamed, with its unitsPerEm patched: found by its new
        // name once registered, and the one used for it.
        for (upem, name) in [(UInt16(16), "Em16 Strata"), (4096, "Em4k Strata")] {
            let path = try dejaVu(unitsPerEm: upem, family: name)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(Font(family: name, size: 12).primaryFace?.familyName != name)
            #expect(try FontLibrary.shared.registerFonts(at: path) == [name])
            let face = try #require(Font(family: name, size: 12).primaryFace)
            #expect(face.familyName == name && face.unitsPerEm == Double(upem))
            // Twice is harmless.
            #expect(try FontLibrary.shared.registerFonts(at: path) == [name])
        }
        // FreeType refuses an em under 16 units, and says which table.
        let tiny = try dejaVu(unitsPerEm: 8, family: "Em8s Strata")
        defer { try? FileManager.default.removeItem(atPath: tiny) }
        do {
            try FontLibrary.shared.registerFonts(at: tiny)
            Issue.record("a unitsPerEm of 8 was taken")
        } catch {
            #expect(error.description.contains("unitsPerEm"))
        }
        #expect(throws: TextError.self) { try FontLibrary.shared.registerFonts(at: "/no/such/font.ttf") }
        let notFont = NSTemporaryDirectory() + "strata-not-a-font-\(UUID().uuidString).ttf"
        try Data("plain text".utf8).write(to: URL(fileURLWithPath: notFont))
        defer { try? FileManager.default.removeItem(atPath: notFont) }
        #expect(throws: TextError.self) { try FontLibrary.shared.registerFonts(at: notFont) }
    }
}

@Suite struct GlyphOutlineCacheTests {
    @Test func outlinesStayWithinTheirBoundWhateverTheFontHolds() throws {
        // Every glyph of DejaVu Sans (thousands of outlines) through a library
        // that keeps 200 KB of them.
        let library = FontLibrary(maximumOutlineBytes: 200_000)
        let face = try library.face(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        var elements = 0
        for glyph in UInt32(0)..<6_000 {
            elements += face.glyphData(glyph).path.elementCount
            #expect(library.outlineBytes <= 200_000)
        }
        // Far more than the bound went through it, and the outlines read again
        // after being dropped are the same.
        #expect(elements * 48 > 1_000_000)
        let w = try #require(face.glyph(for: "W"))
        let first = face.glyphData(w).path.elementCount
        for glyph in UInt32(0)..<3_000 { _ = face.glyphData(glyph) }
        #expect(face.glyphData(w).path.elementCount == first && first > 0)
    }
}

/// DejaVu Sans written to a temporary file with its `head.unitsPerEm` set to
/// `unitsPerEm` and its family name (11 letters) replaced by `family` (as
/// long), in ASCII and UTF-16 alike. Returns the file's path.
func dejaVu(unitsPerEm: UInt16, family: String) throws -> String {
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")))
    let bytes = try #require(HostileFiles.font(original, unitsPerEm: unitsPerEm, renaming: "DejaVu Sans", to: family))
    let path = NSTemporaryDirectory() + "strata-\(UUID().uuidString).ttf"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}
