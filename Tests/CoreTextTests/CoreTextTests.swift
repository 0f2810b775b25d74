import CoreGraphics
import CoreText
import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

/// A y-up bitmap context of `width` × `height`, cleared.
func bitmapContext(_ width: Int, _ height: Int) throws -> CGContext {
    try #require(
        CGContext(
            data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
}

/// The rows (top row 0) and columns where `context` has ink.
func ink(_ context: CGContext) throws -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
    let data = try #require(context.data).assumingMemoryBound(to: UInt8.self)
    var rows: [Int] = [], columns: [Int] = []
    for y in 0..<context.height {
        for x in 0..<context.width where data[y * context.bytesPerRow + x * 4 + 3] > 100 {
            rows.append(y)
            columns.append(x)
        }
    }
    guard let r0 = rows.min(), let r1 = rows.max(), let c0 = columns.min(), let c1 = columns.max() else { return nil }
    return (r0...r1, c0...c1)
}

@Suite("Core Text")
struct CoreTextTests {
    let font = CTFontCreateWithName("Helvetica" as CFString, 20, nil)

    func string(_ s: String, _ extra: [NSAttributedString.Key: Any] = [:]) -> NSAttributedString {
        NSAttributedString(string: s, attributes: [.font: font].merging(extra) { $1 })
    }

    @Test("Fonts by name: size, metrics, weight and slant from the style suffix")
    func fonts() {
        #expect(CTFontGetSize(font) == 20)
        #expect(CTFontGetAscent(font) > 10 && CTFontGetDescent(font) > 2)
        #expect(CTFontGetAscent(font) + CTFontGetDescent(font) < 30)
        let bold = CTFontCreateWithName("Helvetica-Bold" as CFString, 20, nil)
        #expect(bold != font)
        #expect(bold.font.weight == .bold && !bold.font.italic)
        #expect(CTFontCreateWithName("DejaVuSans-Oblique" as CFString, 20, nil).font.italic)
        #expect(CTFontGetSize(CTFontCreateWithName("Helvetica" as CFString, 0, nil)) == 12)
        #expect(CTFontGetSize(CTFontCreateCopyWithAttributes(font, 30, nil, nil)) == 30)
        #expect(!(CTFontCopyFamilyName(font) as String).isEmpty)
    }

    @Test("A line's typographic bounds: width grows with the text and with kern")
    func lineBounds() {
        var ascent: CGFloat = 0, descent: CGFloat = 0, leading: CGFloat = 0
        let line = CTLineCreateWithAttributedString(string("Hello"))
        let width = CTLineGetTypographicBounds(line, &ascent, &descent, &leading)
        #expect(width > 40 && width < 70)
        #expect(ascent == CTFontGetAscent(font) && descent == CTFontGetDescent(font))
        let longer = CTLineGetTypographicBounds(CTLineCreateWithAttributedString(string("Hello, world")), nil, nil, nil)
        #expect(longer > width * 1.8)
        let kerned = CTLineGetTypographicBounds(CTLineCreateWithAttributedString(string("Hello", [.kern: 2.0])), nil, nil, nil)
        #expect(abs(kerned - width - 10) < 0.5)
        #expect(CTLineGetTypographicBounds(CTLineCreateWithAttributedString(string("")), nil, nil, nil) == 0)
        #expect(CTLineGetGlyphCount(line) == 5)
        #expect(CTLineGetStringRange(CTLineCreateWithAttributedString(string("é😀"))) == CFRange(location: 0, length: 3))
    }

    @Test("CTLineDraw puts the baseline at the text position, glyphs upright in y-up space, in the string's colour")
    func lineDrawing() throws {
        let ctx = try bitmapContext(120, 60)
        let line = CTLineCreateWithAttributedString(string("Hxg", [.foregroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1)]))
        ctx.textPosition = CGPoint(x: 10, y: 20)
        CTLineDraw(line, ctx)
        let box = try #require(try ink(ctx))
        // y up: the baseline at y = 20 is row 40; capitals rise above it, the g descends below.
        #expect(box.rows.lowerBound < 40 - 10 && box.rows.upperBound > 40 && box.rows.upperBound < 40 + 8)
        #expect(box.columns.lowerBound >= 10 && box.columns.lowerBound < 14)
        let data = try #require(ctx.data).assumingMemoryBound(to: UInt8.self)
        var reds = 0
        for i in stride(from: 0, to: 120 * 60 * 4, by: 4) where data[i + 3] == 255 {
            if data[i] == 255 && data[i + 1] == 0 { reds += 1 }
        }
        #expect(reds > 20)
    }

    @Test("A framesetter sets lines top down in a rectangle and reports what fits")
    func frames() throws {
        let text = string("The quick brown fox jumps over the lazy dog. The quick brown fox jumps again.")
        let setter = CTFramesetterCreateWithAttributedString(text)
        var fit = CFRange()
        let size = CTFramesetterSuggestFrameSizeWithConstraints(
            setter, CFRange(), nil, CGSize(width: 150, height: CGFloat.greatestFiniteMagnitude), &fit)
        #expect(size.width <= 150 && size.height > 60)
        #expect(fit == CFRange(location: 0, length: text.length))
        let path = CGPath(rect: CGRect(x: 5, y: 5, width: 150, height: 200), transform: nil)
        let frame = CTFramesetterCreateFrame(setter, CFRange(location: 0, length: 0), path, nil)
        let lines = CTFrameGetLines(frame) as! [CTLine]
        #expect(lines.count >= 3)
        var origins = [CGPoint](repeating: .zero, count: lines.count)
        CTFrameGetLineOrigins(frame, CFRange(), &origins)
        #expect(origins.first!.y > origins.last!.y)
        #expect(origins.first!.y > 200 - 30 && origins.first!.y < 200)
        let total = lines.map { CTLineGetStringRange($0).length }.reduce(0, +)
        #expect(total == text.length)
        #expect(CTFrameGetVisibleStringRange(frame) == CFRange(location: 0, length: text.length))
        // A short rectangle shows only the lines that fit.
        let short = CTFramesetterCreateFrame(setter, CFRange(), CGPath(rect: CGRect(x: 0, y: 0, width: 150, height: 30), transform: nil), nil)
        #expect((CTFrameGetLines(short) as! [CTLine]).count == 1)
        #expect(CTFrameGetVisibleStringRange(short).length < text.length)
        // A range past the end, or negative, is held to the string.
        let odd = CTFramesetterCreateFrame(setter, CFRange(location: -5, length: 10_000), path, nil)
        #expect(CTFrameGetStringRange(odd) == CFRange(location: 0, length: text.length))
        let hostile = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(), nil, CGSize(width: CGFloat.nan, height: -1), nil)
        #expect(hostile.width.isFinite && hostile.height.isFinite)
    }

    @Test("CTFrameDraw draws inside the frame's rectangle, centred by the paragraph style; off the main thread too")
    func frameDrawing() async throws {
        let style = NSMutableParagraphStyle()
        style.alignment = .center
        let text = string("Centred", [.paragraphStyle: style])
        let box = try await Task.detached { () -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? in
            let ctx = try bitmapContext(200, 100)
            let setter = CTFramesetterCreateWithAttributedString(text)
            let frame = CTFramesetterCreateFrame(setter, CFRange(), CGPath(rect: CGRect(x: 0, y: 0, width: 200, height: 100), transform: nil), nil)
            CTFrameDraw(frame, ctx)
            return try ink(ctx)
        }.value
        let b = try #require(box)
        #expect(abs(Double(b.columns.lowerBound + b.columns.upperBound) / 2 - 100) < 4)
        // The first line hangs from the top (row 0 is the top in y-up drawing).
        #expect(b.rows.lowerBound < 10)
    }

    @Test("NSParagraphStyle: mutable copies, defaults")
    func paragraphStyles() {
        #expect(NSParagraphStyle.default.alignment == .natural)
        #expect(NSParagraphStyle.default.lineBreakMode == .byWordWrapping)
        let m = NSParagraphStyle.default.mutableCopy() as! NSMutableParagraphStyle
        m.lineSpacing = 4
        m.alignment = .right
        let copy = m.mutableCopy() as! NSMutableParagraphStyle
        #expect(copy.lineSpacing == 4 && copy.alignment == .right)
    }
}

@Suite("Core Text: paragraph settings, runs and offsets")
struct CoreTextRunTests {
    @Test("CTParagraphStyleCreate reads its settings; sizes that do not match are ignored")
    func paragraphSettings() {
        var alignment = CTTextAlignment.center
        var spacing: CGFloat = 6
        var bogus: UInt8 = 9
        let style = withUnsafePointer(to: &alignment) { a in
            withUnsafePointer(to: &spacing) { s in
                withUnsafePointer(to: &bogus) { b in
                    let settings = [
                        CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: a),
                        CTParagraphStyleSetting(spec: .lineSpacing, valueSize: MemoryLayout<CGFloat>.size, value: s),
                        // One byte where a CGFloat belongs: ignored.
                        CTParagraphStyleSetting(spec: .paragraphSpacing, valueSize: 1, value: b),
                    ]
                    return CTParagraphStyleCreate(settings, settings.count)
                }
            }
        }
        var readAlignment = CTTextAlignment.natural
        #expect(CTParagraphStyleGetValueForSpecifier(style, .alignment, 1, &readAlignment) && readAlignment == .center)
        var value: CGFloat = -1
        #expect(CTParagraphStyleGetValueForSpecifier(style, .lineSpacing, MemoryLayout<CGFloat>.size, &value) && value == 6)
        #expect(CTParagraphStyleGetValueForSpecifier(style, .paragraphSpacing, MemoryLayout<CGFloat>.size, &value) && value == 0)
        #expect(!CTParagraphStyleGetValueForSpecifier(style, .lineSpacing, 2, &value))
        let empty = CTParagraphStyleCreate(nil, 0)
        #expect(CTParagraphStyleGetValueForSpecifier(empty, .alignment, 1, &readAlignment) && readAlignment == .natural)
    }

    @Test("Core Text's key names read as the attributes they stand for, and runs keep their attributes")
    func keysAndRuns() throws {
        let font = CTFontCreateWithName("Helvetica" as CFString, 20, nil)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let text = NSMutableAttributedString(
            string: "plain red", attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])
        text.addAttribute(NSAttributedString.Key(kCTForegroundColorAttributeName as String), value: red, range: NSRange(location: 6, length: 3))
        #expect(NSAttributedString.Key(kCTFontAttributeName as String) == .font)
        let line = CTLineCreateWithAttributedString(text)
        let runs = CTLineGetGlyphRuns(line) as! [CTRun]
        #expect(runs.count == 2)
        let last = try #require(runs.last)
        #expect(CTRunGetStringRange(last) == CFRange(location: 6, length: 3))
        let attributes = CTRunGetAttributes(last) as! [String: Any]
        #expect(attributes["CTForegroundColor"].flatMap { $0 as? CGColor } == red)
        #expect(CTRunGetGlyphCount(last) == 3)
        var ascent: CGFloat = 0
        let width = CTRunGetTypographicBounds(last, CFRangeMake(0, 0), &ascent, nil, nil)
        #expect(width > 10 && ascent == CTFontGetAscent(font))
        // The red run starts where the string index 6 is.
        let offset = CTLineGetOffsetForStringIndex(line, 6, nil)
        let total = CTLineGetTypographicBounds(line, nil, nil, nil)
        #expect(abs(Double(offset) + width - total) < 0.5)
        #expect(CTLineGetOffsetForStringIndex(line, 0, nil) == 0)
        #expect(CGFloat(total) == CTLineGetOffsetForStringIndex(line, 100, nil))
        #expect(CTLineGetStringIndexForPosition(line, CGPoint(x: offset + 1, y: 0)) == 6)
        // Drawn red where the run is.
        let ctx = try bitmapContext(200, 40)
        ctx.textPosition = CGPoint(x: 0, y: 10)
        CTLineDraw(line, ctx)
        let data = try #require(ctx.data).assumingMemoryBound(to: UInt8.self)
        var redAt: [Int] = []
        for y in 0..<40 {
            for x in 0..<200 where data[(y * 200 + x) * 4 + 3] == 255 && data[(y * 200 + x) * 4] == 255 { redAt.append(x) }
        }
        #expect(!redAt.isEmpty && Double(redAt.min()!) >= Double(offset) - 1)
    }

    @Test("The pen offset puts a line flush left, centred or right in a width")
    func penOffset() {
        let line = CTLineCreateWithAttributedString(NSAttributedString(string: "Hello"))
        let width = CTLineGetTypographicBounds(line, nil, nil, nil)
        #expect(CTLineGetPenOffsetForFlush(line, 0, 200) == 0)
        #expect(abs(CTLineGetPenOffsetForFlush(line, 0.5, 200) - (200 - width) / 2) < 1e-9)
        #expect(abs(CTLineGetPenOffsetForFlush(line, 1, 200) - (200 - width)) < 1e-9)
        #expect(CTLineGetPenOffsetForFlush(line, .nan, 200) == 0)
        #expect(CTLineGetPenOffsetForFlush(line, 1, 5) == 0)
        #expect(CTLineGetPenOffsetForFlush(line, 1, .infinity) == 0)
    }
}

@Suite("Core Text with hostile values")
struct CoreTextHostileValueTests {
    @Test("Sizes, kerns, rectangles and positions that are NaN, infinite, huge or negative give finite results")
    func hostile() throws {
        let values: [CGFloat] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0, -5]
        let ctx = try bitmapContext(40, 20)
        for v in values {
            let font = CTFontCreateWithName("Helvetica" as CFString, v, nil)
            #expect(CTFontGetSize(font).isFinite && CTFontGetSize(font) > 0)
            let text = NSAttributedString(string: "Hostile text", attributes: [.font: font, .kern: v, .baselineOffset: v])
            let line = CTLineCreateWithAttributedString(text)
            #expect(CTLineGetTypographicBounds(line, nil, nil, nil).isFinite)
            #expect(CTLineGetOffsetForStringIndex(line, Int(exactly: v.isFinite && abs(v) < 1e9 ? v : 0) ?? 0, nil).isFinite)
            _ = CTLineGetStringIndexForPosition(line, CGPoint(x: v, y: v))
            _ = CTLineGetPenOffsetForFlush(line, v, Double(v))
            ctx.textPosition = CGPoint(x: v, y: v)
            CTLineDraw(line, ctx)
            let setter = CTFramesetterCreateWithAttributedString(text)
            let size = CTFramesetterSuggestFrameSizeWithConstraints(
                setter, CFRange(location: Int.min, length: Int.max), nil, CGSize(width: v, height: v), nil)
            #expect(size.width.isFinite && size.height.isFinite)
            let frame = CTFramesetterCreateFrame(setter, CFRange(), CGPath(rect: CGRect(x: v, y: v, width: v, height: v), transform: nil), nil)
            CTFrameDraw(frame, ctx)
        }
    }
}
