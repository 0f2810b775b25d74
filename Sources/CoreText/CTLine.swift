public import CoreGraphics
public import Foundation
internal import StrataGraphics
package import StrataText

/// One line of laid-out text (`CTLine`): immutable and `Sendable`, so it can
/// be made and drawn on any thread.
public final class CTLine: Sendable {
    /// The line laid out alone, without wrapping.
    package let layout: TextLayout
    /// The string range it shows, in UTF-16 code units.
    let range: CFRange
    /// The attributes of the string the line shows, by UTF-16 range (for
    /// its runs' `CTRunGetAttributes`).
    let attributeRuns: [(range: CFRange, attributes: AttributeBox)]
    /// Where each of the line's characters starts, in UTF-16 units from
    /// the line's start, and the end.
    let utf16Offsets: [Int]

    package init(_ text: AttributedText, style: ParagraphStyle, range: CFRange, source: NSAttributedString? = nil) {
        var s = style
        s.maximumLines = 0
        s.truncation = .none
        // A line is laid out at its natural width and aligned to its start.
        s.alignment = .natural
        layout = TextLayout(text, width: .infinity, style: s)
        self.range = range
        var runs: [(CFRange, AttributeBox)] = []
        if let source, range.length > 0, range.location >= 0, range.location + range.length <= source.length {
            source.enumerateAttributes(in: NSRange(location: range.location, length: range.length), options: []) { a, r, _ in
                runs.append((CFRange(location: r.location, length: r.length), AttributeBox(a)))
            }
        }
        attributeRuns = runs
        utf16Offsets = ConvertedText.utf16Offsets(of: text.string)
    }

    /// The attributes at UTF-16 index `index` of the whole string.
    func attributes(at index: Int) -> [NSAttributedString.Key: Any] {
        attributeRuns.first { index >= $0.range.location && index < $0.range.location + $0.range.length }?.attributes.values ?? [:]
    }

    /// The line's width, ascent, descent and leading, in points.
    var metrics: (width: Double, ascent: Double, descent: Double, leading: Double) {
        let width = layout.lines.map(\.width).max() ?? 0
        guard let first = layout.lines.first else {
            let f = ConvertedText.defaultFont
            return (0, f.ascent, f.descent, f.leading)
        }
        let leading = layout.text.runs.map { $0.attributes.font.leading }.max() ?? 0
        return (width, first.ascent, first.descent, leading)
    }

    /// Draws the line with its baseline's start at `origin` in a y-up user
    /// space (glyphs upright there), through `transform` (the text matrix).
    func draw(in canvas: Canvas, baselineAt origin: Point, textMatrix: Transform = .identity) {
        guard let first = layout.lines.first else { return }
        canvas.withSavedGState {
            canvas.concatenate(Transform(a: 1, b: 0, c: 0, d: 1, tx: origin.x, ty: origin.y))
            canvas.concatenate(textMatrix)
            // Strata lays text out y down from its top left; flip it about
            // the baseline so that it stands upright in y-up space.
            canvas.concatenate(Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 0))
            canvas.draw(layout, at: Point(x: 0, y: -first.origin.y))
        }
    }
}

/// A line of `attrString`, laid out without wrapping.
public func CTLineCreateWithAttributedString(_ attrString: CFAttributedString) -> CTLine {
    let converted = ConvertedText(attrString)
    return CTLine(converted.text, style: converted.style, range: CFRange(location: 0, length: attrString.length), source: attrString)
}

/// Draws `line` at the context's text position, through its text matrix,
/// in its current fill colour's place the string's own colours.
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    let m = context.textMatrix
    let origin = Point(x: Double(m.tx), y: Double(m.ty))
    let linear = Transform(a: Double(m.a), b: Double(m.b), c: Double(m.c), d: Double(m.d), tx: 0, ty: 0)
    context.withCanvas { line.draw(in: $0, baselineAt: origin, textMatrix: linear) }
}

/// The line's width; its ascent, descent and leading go where the
/// pointers point (any may be nil).
public func CTLineGetTypographicBounds(
    _ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?, _ descent: UnsafeMutablePointer<CGFloat>?,
    _ leading: UnsafeMutablePointer<CGFloat>?
) -> Double {
    let m = line.metrics
    ascent?.pointee = CGFloat(m.ascent)
    descent?.pointee = CGFloat(m.descent)
    leading?.pointee = CGFloat(m.leading)
    return m.width
}

/// The box the line's glyphs cover: its width, from the descent to the
/// ascent about the baseline (y up), at the context's text position.
public func CTLineGetImageBounds(_ line: CTLine, _ context: CGContext?) -> CGRect {
    let m = line.metrics
    let p = context?.textPosition ?? .zero
    return CGRect(x: p.x, y: p.y - CGFloat(m.descent), width: CGFloat(m.width), height: CGFloat(m.ascent + m.descent))
}

/// The string range the line shows (UTF-16 code units).
public func CTLineGetStringRange(_ line: CTLine) -> CFRange { line.range }

/// The number of glyphs on the line.
public func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex {
    line.layout.lines.reduce(0) { $0 + $1.runs.reduce(0) { $0 + $1.glyphs.count } }
}

/// The width of trailing whitespace on the line, in points.
public func CTLineGetTrailingWhitespaceWidth(_ line: CTLine) -> Double {
    let full = CTLineGetTypographicBounds(line, nil, nil, nil)
    let glyphs = line.layout.lines.flatMap(\.runs).map(\.maxX).max() ?? full
    return Swift.max(0, glyphs - full)
}

/// The attributes of a run of text, kept with a line.
final class AttributeBox: @unchecked Sendable {
    // @unchecked: the dictionary is copied from an attributed string when
    // the line is made and never changed; its values are the immutable
    // fonts, colours and styles attributed strings hold.
    let values: [NSAttributedString.Key: Any]
    init(_ values: [NSAttributedString.Key: Any]) { self.values = values }
}

/// How far from the start a line begins so that it is flush at
/// `flushFactor` (0 left, 0.5 centred, 1 right) of `flushWidth`.
public func CTLineGetPenOffsetForFlush(_ line: CTLine, _ flushFactor: CGFloat, _ flushWidth: Double) -> Double {
    let width = CTLineGetTypographicBounds(line, nil, nil, nil) - CTLineGetTrailingWhitespaceWidth(line)
    let f = flushFactor.isFinite ? Double(Swift.min(Swift.max(flushFactor, 0), 1)) : 0
    guard flushWidth.isFinite, width < flushWidth else { return 0 }
    return (flushWidth - width) * f
}

/// The x offset from the line's start of the character at UTF-16 index
/// `charIndex` (of the whole string; past the end: the line's end).
public func CTLineGetOffsetForStringIndex(_ line: CTLine, _ charIndex: CFIndex, _ secondaryOffset: UnsafeMutablePointer<CGFloat>?) -> CGFloat {
    let local = charIndex - line.range.location
    let character = line.utf16Offsets.firstIndex { $0 >= local } ?? (line.utf16Offsets.count - 1)
    let x: CGFloat
    if character >= line.utf16Offsets.count - 1 {
        x = CGFloat(CTLineGetTypographicBounds(line, nil, nil, nil))
    } else {
        x = CGFloat(line.layout.caretRect(forCharacterAt: Swift.max(0, character)).minX)
    }
    secondaryOffset?.pointee = x
    return x
}

/// The UTF-16 index of the character nearest `position` (in the line's
/// space), as the string counts.
public func CTLineGetStringIndexForPosition(_ line: CTLine, _ position: CGPoint) -> CFIndex {
    guard let first = line.layout.lines.first else { return line.range.location }
    let character = line.layout.characterIndex(at: Point(x: Double(position.x), y: first.origin.y))
    return line.range.location + line.utf16Offsets[Swift.min(Swift.max(0, character), line.utf16Offsets.count - 1)]
}

/// The line's glyph runs, left to right (an array of `CTRun`).
public func CTLineGetGlyphRuns(_ line: CTLine) -> CFArray {
    let runs = line.layout.lines.first?.runs ?? []
    return runs.map { run -> CTRun in
        let lo = run.characters.min() ?? 0, hi = (run.characters.max() ?? -1) + 1
        let u0 = line.utf16Offsets[Swift.min(lo, line.utf16Offsets.count - 1)]
        let u1 = line.utf16Offsets[Swift.min(Swift.max(hi, lo), line.utf16Offsets.count - 1)]
        let start = line.range.location + u0
        return CTRun(
            range: CFRange(location: start, length: u1 - u0), attributes: AttributeBox(line.attributes(at: start)),
            width: run.maxX - run.minX, ascent: run.attributes.font.ascent, descent: run.attributes.font.descent,
            leading: run.attributes.font.leading, glyphCount: run.glyphs.count)
    } as NSArray
}

/// A run of glyphs in one font and style (`CTRun`).
public final class CTRun: Sendable {
    let range: CFRange
    let attributes: AttributeBox
    let width: Double, ascent: Double, descent: Double, leading: Double
    let glyphCount: Int

    init(range: CFRange, attributes: AttributeBox, width: Double, ascent: Double, descent: Double, leading: Double, glyphCount: Int) {
        (self.range, self.attributes, self.width, self.ascent, self.descent, self.leading, self.glyphCount) = (
            range, attributes, width, ascent, descent, leading, glyphCount
        )
    }
}

/// The string range the run shows (UTF-16 code units).
public func CTRunGetStringRange(_ run: CTRun) -> CFRange { run.range }

/// The attributes of the run's text, by their raw names (a dictionary of
/// `String` to values).
public func CTRunGetAttributes(_ run: CTRun) -> CFDictionary {
    let d = NSMutableDictionary()
    for (k, v) in run.attributes.values { d[k.rawValue] = v }
    return d
}

public func CTRunGetGlyphCount(_ run: CTRun) -> CFIndex { run.glyphCount }

/// The run's width, its ascent, descent and leading where the pointers
/// point; `range` is taken as the whole run.
public func CTRunGetTypographicBounds(
    _ run: CTRun, _ range: CFRange, _ ascent: UnsafeMutablePointer<CGFloat>?, _ descent: UnsafeMutablePointer<CGFloat>?,
    _ leading: UnsafeMutablePointer<CGFloat>?
) -> Double {
    ascent?.pointee = CGFloat(run.ascent)
    descent?.pointee = CGFloat(run.descent)
    leading?.pointee = CGFloat(run.leading)
    return run.width
}
