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

    package init(_ text: AttributedText, style: ParagraphStyle, range: CFRange) {
        var s = style
        s.maximumLines = 0
        s.truncation = .none
        // A line is laid out at its natural width and aligned to its start.
        s.alignment = .natural
        layout = TextLayout(text, width: .infinity, style: s)
        self.range = range
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
    return CTLine(converted.text, style: converted.style, range: CFRange(location: 0, length: attrString.length))
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
