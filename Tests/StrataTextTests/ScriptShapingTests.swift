import Foundation
import StrataGraphics
import Testing

@testable import StrataText

/// One glyph as `hb-shape --no-glyph-names --utf8-clusters --output-format=json` prints it.
struct HBGlyph: Decodable, Equatable, CustomStringConvertible {
    var g: UInt32
    var cl: Int
    var dx: Int
    var dy: Int
    var ax: Int
    var ay: Int
    var description: String { "\(g)=\(cl)@\(dx),\(dy)+\(ax)" }
}

struct HBCase: Decodable {
    var family: String
    var text: String
    var glyphs: [HBGlyph]
}

/// Shaping checked against HarfBuzz's own `hb-shape`: Arabic,
/// Devanagari, Thai, Latin with ligatures and kerning, and emoji sequences,
/// in the faces the mixed paragraph uses. The expectations are checked in
/// (Resources/hb-shape.json, written by make-hb-shape-expectations.sh); when
/// `hb-shape` is installed, its live output is compared too.
@Suite struct ScriptShapingTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    static let cases: [HBCase] = {
        guard let data = try? Data(contentsOf: resources.appendingPathComponent("hb-shape.json")) else { return [] }
        return (try? JSONDecoder().decode([HBCase].self, from: data)) ?? []
    }()

    static let hbShape: String? = ["/usr/bin/hb-shape", "/usr/local/bin/hb-shape"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The family's face; the test fails naming the package when the family
    /// is missing (scripts/install-deps.sh installs it).
    static func face(_ family: String) throws -> FontFace {
        let face = try #require(Font(family: family, size: 16).primaryFace)
        try #require(
            face.familyName == family, "\(family) is not installed (scripts/install-deps.sh installs fonts-noto-core and fonts-noto-color-emoji)")
        return face
    }

    static func ours(_ c: HBCase) throws -> [HBGlyph] {
        TextShaper.shape(c.text, face: try face(c.family)).map {
            HBGlyph(g: $0.glyph, cl: $0.cluster, dx: Int($0.offset.x), dy: Int($0.offset.y), ax: Int($0.advance), ay: 0)
        }
    }

    @Test func theCasesAreThere() {
        #expect(ScriptShapingTests.cases.count == 8)
        #expect(Set(ScriptShapingTests.cases.map(\.family)).count == 5)
    }

    @Test(arguments: ScriptShapingTests.cases.indices)
    func glyphsEqualTheCheckedInHBShapeOutput(_ i: Int) throws {
        let c = ScriptShapingTests.cases[i]
        #expect(try ScriptShapingTests.ours(c) == c.glyphs, "\(c.family): \(c.text)")
    }

    @Test(.enabled(if: ScriptShapingTests.hbShape != nil, "hb-shape (libharfbuzz-bin) is not installed"), arguments: ScriptShapingTests.cases.indices)
    func glyphsEqualHBShapeRunNow(_ i: Int) throws {
        let c = ScriptShapingTests.cases[i]
        let face = try ScriptShapingTests.face(c.family)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ScriptShapingTests.hbShape!)
        process.arguments = ["--no-glyph-names", "--utf8-clusters", "--output-format=json", face.path, c.text]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let live = try JSONDecoder().decode([HBGlyph].self, from: data)
        #expect(try ScriptShapingTests.ours(c) == live, "\(c.family): \(c.text)")
    }

    /// A whole layout of each single-direction word draws hb-shape's glyphs,
    /// left to right on screen, at hb-shape's advances and offsets.
    @Test(arguments: ScriptShapingTests.cases.indices)
    func theLayoutDrawsHBShapesGlyphsWhereHBShapePutsThem(_ i: Int) throws {
        let c = ScriptShapingTests.cases[i]
        // hb-shape sets a whole buffer in one direction; the layout sets the
        // number inside Arabic left to right, as the bidirectional algorithm
        // says, so that case is compared by the shaper only.
        guard !c.text.contains("2026") else { return }
        let face = try ScriptShapingTests.face(c.family)
        let layout = TextLayout(AttributedText(c.text, attributes: TextAttributes(font: Font(family: c.family, size: 20))), width: .infinity)
        try #require(layout.lines.count == 1)
        let runs = layout.lines[0].runs
        #expect(runs.allSatisfy { $0.face === face })
        #expect(runs.flatMap(\.glyphs) == c.glyphs.map(\.g), "\(c.family): \(c.text)")
        let scale = 20 / face.unitsPerEm
        var pen = 0.0
        for (glyph, position) in zip(c.glyphs, runs.flatMap(\.positions)) {
            #expect(abs(position.x - (pen + Double(glyph.dx) * scale)) < 1e-9)
            #expect(abs(position.y + Double(glyph.dy) * scale) < 1e-9)
            pen += Double(glyph.ax) * scale
        }
        #expect(abs(layout.lines[0].width - pen) < 1e-9)
    }
}

/// Itemising, bidirectional order, carets and selection, line breaking,
/// fallback by cluster, features and colour emoji.
@Suite struct MixedScriptLayoutTests {
    static let mixedFont = Font(
        family: "DejaVu Sans", size: 16,
        cascadeList: ["WenQuanYi Micro Hei", "Noto Sans Arabic", "Noto Sans Devanagari", "Noto Color Emoji"])

    func layout(_ s: String, width: Double = .infinity, style: ParagraphStyle = ParagraphStyle(), font: Font = mixedFont) -> TextLayout {
        TextLayout(AttributedText(s, attributes: TextAttributes(font: font)), width: width, style: style)
    }

    /// The run holding character `index`.
    func run(_ l: TextLayout, _ index: Int) -> GlyphRun? {
        l.lines.lazy.flatMap(\.runs).first { $0.characters.contains(index) }
    }

    @Test func runsSplitAtScriptDirectionAndFont() throws {
        // H(0) … 中(6) … न(9) … ש(17) … д(22) … 👍(25)
        let text = "Hello 中文 नमस्ते שלום abдеж 👍!"
        let chars = Array(text)
        let l = layout(text)
        let latin = try #require(run(l, 0)), han = try #require(run(l, 6)), deva = try #require(run(l, 9))
        let hebrew = try #require(run(l, chars.firstIndex(of: "ש")!)), cyrillic = try #require(run(l, chars.firstIndex(of: "д")!))
        let emoji = try #require(run(l, chars.firstIndex(of: "👍")!))
        #expect(latin.script == "Latn" && !latin.isRightToLeft && latin.face.familyName == "DejaVu Sans")
        #expect(han.script == "Hani" && han.face.familyName == "WenQuanYi Micro Hei")
        #expect(deva.script == "Deva" && deva.face.familyName == "Noto Sans Devanagari")
        #expect(hebrew.isRightToLeft && hebrew.script == "Hebr")
        // Latin and Cyrillic share DejaVu Sans and a direction, but not a script.
        #expect(cyrillic.script == "Cyrl" && cyrillic.face === latin.face)
        #expect(!cyrillic.characters.contains(chars.firstIndex(of: "b")!))
        #expect(emoji.face.hasColorBitmaps)
        // Every run is one face, one direction, one script: no character is in two runs.
        let owners = l.lines[0].runs.flatMap { r in Set(r.characters).map { ($0, ObjectIdentifier(r.face)) } }
        #expect(Dictionary(grouping: owners, by: \.0).values.allSatisfy { Set($0.map(\.1)).count == 1 })
    }

    @Test func rightToLeftTextIsOrderedForDisplay() throws {
        // "abc אבג def": the Hebrew word reads right to left inside the line.
        let l = layout("abc אבג def")
        #expect(l.lines[0].boxes.map(\.index) == [0, 1, 2, 3, 6, 5, 4, 7, 8, 9, 10])
        #expect(l.lines[0].baseDirection == .leftToRight)
        // A right-to-left paragraph with a number: the number reads left to right.
        let r = layout("שלום 123")
        #expect(r.lines[0].baseDirection == .rightToLeft)
        #expect(r.lines[0].boxes.map(\.index) == [5, 6, 7, 4, 3, 2, 1, 0])
        // Nested levels: L2 reverses from the highest level down.
        #expect(LayoutEngine.visualOrder([0, 1, 2, 3, 4, 5]) { [0, 1, 2, 2, 1, 0][$0] } == [0, 4, 2, 3, 1, 5])
        #expect(LayoutEngine.visualOrder([0, 1, 2]) { _ in 2 } == [0, 1, 2])
        #expect(LayoutEngine.visualOrder([0, 1, 2]) { _ in 1 } == [2, 1, 0])
    }

    @Test func naturalAlignmentFollowsEachParagraph() {
        let style = ParagraphStyle(alignment: .natural)
        let l = layout("abc\nשלום עולם\n123", width: 300, style: style)
        #expect(l.lines.count == 3)
        #expect(l.lines[0].origin.x == 0 && l.lines[0].baseDirection == .leftToRight)
        #expect(abs(l.lines[1].origin.x + l.lines[1].width - 300) < 1e-9 && l.lines[1].baseDirection == .rightToLeft)
        // Digits alone have no strong direction: left to right.
        #expect(l.lines[2].origin.x == 0)
        // A base direction set by the style wins.
        let forced = layout("abc", width: 300, style: ParagraphStyle(alignment: .natural, baseWritingDirection: .rightToLeft))
        #expect(forced.lines[0].baseDirection == .rightToLeft && abs(forced.lines[0].origin.x + forced.lines[0].width - 300) < 1e-9)
        let ltr = layout("שלום", width: 300, style: ParagraphStyle(alignment: .natural, baseWritingDirection: .leftToRight))
        #expect(ltr.lines[0].origin.x == 0)
        // .left stays left for right-to-left text.
        #expect(layout("שלום", width: 300, style: ParagraphStyle(alignment: .left)).lines[0].origin.x == 0)
    }

    @Test func caretsAndSelectionFollowTheDirection() throws {
        let l = layout("abc אבג def")
        let boxes = Dictionary(uniqueKeysWithValues: l.lines[0].boxes.map { ($0.index, $0) })
        // Before א (index 4) is its right edge; before ב, the right edge of ב.
        #expect(l.caretRect(forCharacterAt: 4).minX == boxes[4]!.maxX)
        #expect(l.caretRect(forCharacterAt: 5).minX == boxes[5]!.maxX)
        #expect(l.caretRect(forCharacterAt: 2).minX == boxes[2]!.minX)
        // Every drawn character is found again from inside its leading edge.
        for b in l.lines[0].boxes {
            let x = b.isRightToLeft ? b.maxX - 0.5 : b.minX + 0.5
            #expect(l.characterIndex(at: Point(x: x, y: 5)) == b.index)
            let trailing = b.isRightToLeft ? b.minX + 0.5 : b.maxX - 0.5
            #expect(l.characterIndex(at: Point(x: trailing, y: 5)) == b.index + 1)
        }
        // "c אב" in logical order is two pieces on screen: "c " and "בא".
        let rects = l.rects(forCharacters: 2..<6)
        try #require(rects.count == 2)
        #expect(rects[0].minX == boxes[2]!.minX && rects[0].maxX == boxes[3]!.maxX)
        #expect(rects[1].minX == boxes[5]!.minX && rects[1].maxX == boxes[4]!.maxX)
        // Left-to-right text is one rectangle per line, as before.
        #expect(layout("abc def").rects(forCharacters: 1..<6).count == 1)
    }

    @Test func caretsNeverLandInsideAGraphemeCluster() throws {
        let text = "a👨‍👩‍👧‍👦b🇨🇳c👍🏽d1️⃣eȁ̴̡̛fक्षg"
        // Characters are ICU's grapheme clusters.
        var offsets: [Int] = [0]
        for ch in text { offsets.append(offsets.last! + ch.utf16.count) }
        #expect(TextBoundaries.graphemeBoundaries(text) == offsets)
        let l = layout(text)
        let family = try #require(l.lines[0].boxes.first { $0.index == 1 })
        // Anywhere across the family, the caret is before it or after it.
        for step in 0...20 {
            let x = family.minX + (family.maxX - family.minX) * Double(step) / 20
            #expect([1, 2].contains(l.characterIndex(at: Point(x: x, y: 5))))
        }
        // Each cluster is drawn from one face.
        for index in 0..<text.count {
            let faces = Set(l.lines[0].runs.filter { $0.characters.contains(index) }.map { ObjectIdentifier($0.face) })
            #expect(faces.count <= 1, "character \(index)")
        }
    }

    @Test func fallbackChoosesAFaceForTheWholeCluster() throws {
        let dejavu = try #require(Font(family: "DejaVu Sans", size: 16).primaryFace)
        let emoji = try ScriptShapingTests.face("Noto Color Emoji")
        // A face with the base but not its marks loses the cluster to one with both.
        let mark: Unicode.Scalar = "\u{334}"
        let candidates = ["WenQuanYi Micro Hei", "Noto Sans Devanagari", "Noto Sans Thai", "Noto Sans Arabic", "Noto Sans Mono"]
        let deva = try #require(
            candidates.compactMap { Font(family: $0, size: 16).primaryFace }.first { $0.glyph(for: "a") != nil && $0.glyph(for: mark) == nil })
        try #require(dejavu.glyph(for: mark) != nil)
        let cluster = "a\u{334}\u{321}"
        #expect(Itemizer.face(for: cluster.unicodeScalars, in: [deva, dejavu]) == 1)
        // None with every scalar: the first with the base.
        #expect(Itemizer.face(for: "a\u{10FFFD}".unicodeScalars, in: [deva, dejavu]) == 0)
        // Emoji presentation asks for the colour face even where DejaVu has the
        // base; text presentation keeps DejaVu.
        try #require(dejavu.glyph(for: "\u{2764}") != nil)
        #expect(Itemizer.face(for: "\u{2764}\u{FE0F}".unicodeScalars, in: [dejavu, emoji]) == 1)
        #expect(Itemizer.face(for: "\u{2764}\u{FE0E}".unicodeScalars, in: [emoji, dejavu]) == 1)
        #expect(Itemizer.face(for: "1\u{FE0F}\u{20E3}".unicodeScalars, in: [dejavu, emoji]) == 1)
        // In a layout: the keycap, the family and the flag are one glyph each, in colour.
        let l = layout("1️⃣👨‍👩‍👧‍👦🇨🇳❤️❤")
        let runs = l.lines[0].runs
        #expect(runs.filter { $0.face.hasColorBitmaps }.flatMap(\.glyphs).count == 4)
        #expect(runs.last!.face === dejavu && runs.last!.glyphs.count == 1)
        // A character no face has draws the primary face's missing-glyph box.
        let missing = layout("a\u{10FFFD}b")
        #expect(missing.lines[0].runs.contains { $0.face === dejavu && $0.glyphs.contains(0) })
    }

    @Test func ligaturesShareTheirWidthAndFeaturesTurnThemOff() throws {
        let font = Font(family: "DejaVu Sans", size: 20)
        let plain = layout("office", font: font)
        // o, the ffi ligature, c, e.
        #expect(plain.lines[0].runs.flatMap(\.glyphs).count == 4)
        let boxes = plain.lines[0].boxes
        #expect(boxes.count == 6)
        #expect(abs((boxes[1].maxX - boxes[1].minX) - (boxes[3].maxX - boxes[3].minX)) < 1e-9)
        // A caret can stand inside the ligature, between its letters.
        #expect(plain.caretRect(forCharacterAt: 2).minX == boxes[2].minX)
        let noLigatures = TextLayout(
            AttributedText("office", attributes: TextAttributes(font: font, features: [FontFeature("liga", 0)])), width: .infinity)
        #expect(noLigatures.lines[0].runs.flatMap(\.glyphs).count == 6)
        // A bad tag is ignored.
        let bad = TextLayout(
            AttributedText("office", attributes: TextAttributes(font: font, features: [FontFeature("toolong")])), width: .infinity)
        #expect(bad.lines[0].runs.flatMap(\.glyphs).count == 4)
    }

    @Test func letterSpacingSparesLigaturesAndJoinedScripts() throws {
        let font = Font(family: "DejaVu Sans", size: 20)
        let plain = layout("office", font: font)
        let spaced = TextLayout(AttributedText("office", attributes: TextAttributes(font: font, kern: 2)), width: .infinity)
        // Spaced text does not join into ligatures: six glyphs, each followed by 2.
        #expect(spaced.lines[0].runs.flatMap(\.glyphs).count == 6)
        let unspaced = TextLayout(
            AttributedText("office", attributes: TextAttributes(font: font, features: [FontFeature("liga", 0)])), width: .infinity)
        #expect(abs(spaced.lines[0].width - (unspaced.lines[0].width + 12)) < 1e-9)
        #expect(plain.lines[0].width < unspaced.lines[0].width + 1e-9)
        // Arabic keeps its letters joined: no spacing is added.
        let arabic = try ScriptShapingTests.face("Noto Sans Arabic")
        let arabicFont = Font(family: arabic.familyName, size: 20)
        let a = layout("سلام", font: arabicFont)
        let b = TextLayout(AttributedText("سلام", attributes: TextAttributes(font: arabicFont, kern: 3)), width: .infinity)
        #expect(abs(a.lines[0].width - b.lines[0].width) < 1e-9)
        #expect(a.lines[0].runs.flatMap(\.glyphs) == b.lines[0].runs.flatMap(\.glyphs))
    }

    /// Line starts are UAX #14 opportunities as ICU finds them, on sample
    /// lines of the kinds the old hand-written rules covered and more.
    @Test func linesBreakWhereICUSays() {
        let samples = [
            "The quick (\u{201C}brown\u{201D}) fox can\u{2019}t jump 32.3 feet, right? Numbers like 1,234.56 and 98.6% stay whole.",
            "日本語の「テキスト」です。句読点、括弧（かっこ）は行頭に来ない。",
            "مرحبا بالعالم، هذا نص عربي يحتوي على الرقم 2026 والنسبة 98.6% في وسطه.",
            "नमस्ते दुनिया, यह हिन्दी का वाक्य है जिसमें क्षत्रिय और श्री जैसे संयुक्ताक्षर हैं।",
            "https://example.org/strata/guide — a link, an em dash and an ellipsis…",
        ]
        for text in samples {
            var offsets: [Int] = [0]
            for ch in text { offsets.append(offsets.last! + ch.utf16.count) }
            let opportunities = Set(TextBoundaries.lineBreaks(text).map(\.offset))
            for width in stride(from: 40.0, through: 400, by: 23) {
                let l = layout(text, width: width)
                for n in l.lines.indices.dropFirst() {
                    let start = offsets[l.lines[n].characters.lowerBound]
                    let previous = offsets[l.lines[n - 1].characters.lowerBound]
                    // Or the line before had no opportunity, and broke where it had to.
                    let hadOne = opportunities.contains { $0 > previous && $0 < start }
                    #expect(opportunities.contains(start) || !hadOne, "\(text.prefix(12))… at \(width): a line starts at \(start)")
                }
            }
        }
        // Specific opportunities and their absence.
        let quick = Set(TextBoundaries.lineBreaks(samples[0]).map(\.offset))
        let number = Array(samples[0].utf16).count - " and 98.6% stay whole.".utf16.count
        #expect(!quick.contains(number - 3) && !quick.contains(number - 5))  // inside 1,234.56
        let japanese = Array(samples[1].utf16)
        for (i, u) in japanese.enumerated() where [0x300D, 0x3002, 0x3001, 0xFF09].contains(u) {
            #expect(!Set(TextBoundaries.lineBreaks(samples[1]).map(\.offset)).contains(i))  // no line starts with 」。、）
        }
    }

    @Test func strictLineBreakingKeepsSmallKanaWithTheirSyllable() {
        let text = "ニュースのチェック"
        let small = Array(text.utf16).enumerated().filter { [0x30E5, 0x30A7].contains($0.element) }.map(\.offset)
        let normal = Set(TextBoundaries.lineBreaks(text).map(\.offset))
        let strict = Set(TextBoundaries.lineBreaks(text, strict: true).map(\.offset))
        #expect(small.allSatisfy { normal.contains($0) })
        #expect(small.allSatisfy { !strict.contains($0) })
        // In layouts where every line has room for an opportunity (three kana,
        // 48 pixels, is the longest stretch strict rules keep together), strict
        // never starts a line with ュ or ェ and normal does.
        let font = Font(family: "WenQuanYi Micro Hei", size: 16)
        for width in stride(from: 50.0, through: 80, by: 2) {
            let l = layout(text, width: width, style: ParagraphStyle(lineBreakStrictness: .strict), font: font)
            let chars = Array(text)
            #expect(l.lines.allSatisfy { !["ュ", "ェ"].contains(chars[$0.characters.lowerBound]) }, "width \(width)")
        }
        let loose = (0..<16).map { layout(text, width: 50 + 2 * Double($0), font: font) }
        #expect(loose.contains { l in l.lines.contains { ["ュ", "ェ"].contains(Array(text)[$0.characters.lowerBound]) } })
    }

    @Test func hostileBidiInputIsSafe() {
        // Embeddings nested past UAX #9's depth of 125, isolates never closed,
        // marks alone, and a lone right-to-left mark in a long text.
        let deep = String(repeating: "\u{202B}", count: 300) + "abc" + String(repeating: "\u{202C}", count: 10) + "שלום"
        let isolates = String(repeating: "\u{2067}x", count: 200)
        let marks = "\u{200F}\u{200E}\u{061C}"
        let long = String(repeating: "word ", count: 2000) + "\u{200F}"
        for text in [deep, isolates, marks, long] {
            let l = layout(text, width: 300)
            #expect(l.size.width.isFinite && l.size.height.isFinite)
            #expect(l.lines.allSatisfy { $0.boxes.allSatisfy { $0.index >= 0 && $0.index < text.count } })
            _ = l.rects(forCharacters: 0..<text.count)
            _ = l.characterIndex(at: Point(x: 150, y: 10))
        }
    }

    @Test func emojiDrawInColourAtTheTextsSizeOnItsBaseline() throws {
        let canvas = try Canvas(width: 200, height: 80)
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        let font = Font(family: "DejaVu Sans", size: 32, cascadeList: ["Noto Color Emoji"])
        let l = layout("H👍🏽❤️", font: font)
        let emoji = try #require(l.lines[0].runs.first { $0.face.hasColorBitmaps })
        #expect(emoji.glyphs.count == 2)
        canvas.draw(l, at: Point(x: 10, y: 10))
        let image = canvas.makeImage()
        // Coloured pixels (channels far apart) only where the emoji are, none in the H.
        var x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                let spread = max(p.r, p.g, p.b) - min(p.r, p.g, p.b)
                if spread > 60 { x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y) }
            }
        }
        let baseline = 10 + l.lines[0].origin.y
        let hRight = 10 + l.lines[0].boxes[0].maxX
        #expect(Double(x0) >= hRight - 1)
        // About the size of the text (the strike's em is 1.17 of the size, less its margins).
        #expect(Double(y1 - y0) > 0.8 * 32 && Double(y1 - y0) < 1.3 * 32, "emoji are \(y1 - y0) pixels tall")
        // Standing on the baseline: the bottom just below it, as the descent allows.
        #expect(Double(y1) > baseline - 2 && Double(y1) < baseline + l.lines[0].descent + 1)
        // Drawn again from the layout's composed lines: the same pixels.
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        canvas.draw(l, at: Point(x: 10, y: 10))
        #expect(canvas.makeImage() == image)
        // Under rotation the strike is drawn through the transform: still colour.
        let turned = try Canvas(width: 200, height: 200)
        turned.concatenate(Transform(rotationAngle: 0.3))
        turned.draw(l, at: Point(x: 40, y: 20))
        let t = turned.makeImage()
        var coloured = 0
        for y in 0..<t.height { for x in 0..<t.width { let p = t[x, y]; if max(p.r, p.g, p.b) - min(p.r, p.g, p.b) > 60 { coloured += 1 } } }
        #expect(coloured > 200)
    }

    /// The README's example says what it does.
    @Test func theReadmeExample() throws {
        let font = Font(family: "DejaVu Sans", size: 16, cascadeList: ["WenQuanYi Micro Hei", "Noto Sans Arabic", "Noto Color Emoji"])
        let layout = TextLayout(AttributedText("The word \"سلام\" means peace 👋🏽", attributes: TextAttributes(font: font)), width: 300)
        #expect(layout.lines[0].runs.map(\.isRightToLeft) == [false, true, false, false])
        let pieces = layout.rects(forCharacters: 4..<12)
        #expect(pieces.count == 2)
        let seen = try #require(layout.lines[0].boxes.first { $0.index == 10 })
        #expect(layout.caretRect(forCharacterAt: 10).minX == seen.maxX && seen.isRightToLeft)
    }
}
