public import CoreGraphics
public import Foundation
internal import StrataGraphics
package import StrataText

/// Lays out an attributed string into frames (`CTFramesetter`). Immutable
/// and `Sendable`: frames can be set on background threads, as a feed
/// lays out its cells.
public final class CTFramesetter: Sendable {
    let converted: ConvertedText

    init(_ converted: ConvertedText) { self.converted = converted }
}

/// The text of `attrString`, ready to lay out.
public func CTFramesetterCreateWithAttributedString(_ attrString: CFAttributedString) -> CTFramesetter {
    CTFramesetter(ConvertedText(attrString))
}

/// Text laid out in a rectangle (`CTFrame`): the lines that fit, from the
/// top down.
public final class CTFrame: Sendable {
    package let layout: TextLayout
    /// The rectangle the text was set in (the path's bounding box), y up.
    let rect: CGRect
    let converted: ConvertedText
    /// The characters (Strata's offsets) the frame was asked to show.
    let characters: Range<Int>
    let path: CGPath
    /// The lines, made when first asked for.
    let lineObjects: [CTLine]

    init(_ converted: ConvertedText, characters: Range<Int>, path: CGPath) {
        self.converted = converted
        self.characters = characters
        self.path = path
        let box = path.boundingBoxOfPath
        rect = box.isNull ? .zero : box
        let text = converted.slice(characters)
        layout = TextLayout(text, width: Swift.max(0, Double(rect.width)), height: Swift.max(0, Double(rect.height)), style: converted.style)
        lineObjects = layout.lines.map { line in
            let lo = characters.lowerBound + line.characters.lowerBound
            let hi = characters.lowerBound + line.characters.upperBound
            // A line keeps its trailing newline in Core Text; drawing it shows nothing.
            let shown = hi > lo && converted.characters[hi - 1] == "\n" ? hi - 1 : hi
            return CTLine(converted.slice(lo..<shown), style: converted.style, range: converted.utf16Range(lo..<hi), source: converted.source)
        }
    }

    /// The line origins in the frame's y-up space (relative to the
    /// rectangle's bottom left), as `CTFrameGetLineOrigins` gives them.
    var origins: [CGPoint] {
        layout.lines.map { CGPoint(x: $0.origin.x, y: Double(rect.height) - $0.origin.y) }
    }
}

/// The text of `stringRange` (a length of 0: to the end) laid out in the
/// bounding box of `path`; the lines that do not fit are left out.
/// `frameAttributes` is ignored.
public func CTFramesetterCreateFrame(
    _ framesetter: CTFramesetter, _ stringRange: CFRange, _ path: CGPath, _ frameAttributes: CFDictionary?
) -> CTFrame {
    CTFrame(framesetter.converted, characters: framesetter.converted.characters(stringRange), path: path)
}

/// The size the text of `stringRange` needs within `constraints` (a
/// dimension of `CGFloat.greatestFiniteMagnitude` or less than 0 for
/// unconstrained); `fitRange` receives the part that fits.
public func CTFramesetterSuggestFrameSizeWithConstraints(
    _ framesetter: CTFramesetter, _ stringRange: CFRange, _ frameAttributes: CFDictionary?, _ constraints: CGSize,
    _ fitRange: UnsafeMutablePointer<CFRange>?
) -> CGSize {
    let c = framesetter.converted
    let chars = c.characters(stringRange)
    func limit(_ v: CGFloat) -> Double? { v.isFinite && v >= 0 && v < 1e15 ? Double(v) : nil }
    let layout = TextLayout(
        c.slice(chars), width: limit(constraints.width) ?? .infinity, height: limit(constraints.height), style: c.style)
    let shown = layout.lines.last.map { chars.lowerBound + $0.characters.upperBound } ?? chars.lowerBound
    fitRange?.pointee = c.utf16Range(chars.lowerBound..<Swift.max(chars.lowerBound, shown))
    let width = layout.lines.map(\.width).max() ?? 0
    return CGSize(width: width.rounded(.up), height: layout.size.height.rounded(.up))
}

/// The frame's lines, top to bottom (an array of `CTLine`).
public func CTFrameGetLines(_ frame: CTFrame) -> CFArray { frame.lineObjects as NSArray }

/// Copies the origins of the lines in `range` (a length of 0: to the
/// end) into `origins`: each line's baseline start, relative to the
/// frame rectangle's bottom left, y up.
public func CTFrameGetLineOrigins(_ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>) {
    let all = frame.origins
    let start = Swift.max(0, Swift.min(range.location, all.count))
    let end = range.length <= 0 ? all.count : Swift.min(all.count, start + range.length)
    for i in start..<end { origins[i - start] = all[i] }
}

/// The string range the frame shows (UTF-16 code units).
public func CTFrameGetVisibleStringRange(_ frame: CTFrame) -> CFRange {
    let shown = frame.layout.lines.last.map { frame.characters.lowerBound + $0.characters.upperBound } ?? frame.characters.lowerBound
    return frame.converted.utf16Range(frame.characters.lowerBound..<shown)
}

/// The string range the frame was asked to show.
public func CTFrameGetStringRange(_ frame: CTFrame) -> CFRange { frame.converted.utf16Range(frame.characters) }

/// The path the frame was set in.
public func CTFrameGetPath(_ frame: CTFrame) -> CGPath { frame.path }

/// Draws the frame's lines in a y-up user space (upright there, upside
/// down under UIKit's flip unless the context is flipped back, as with Core
/// Text).
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
    let r = frame.rect
    context.withCanvas { canvas in
        canvas.withSavedGState {
            canvas.concatenate(Transform(a: 1, b: 0, c: 0, d: -1, tx: Double(r.minX), ty: Double(r.maxY)))
            canvas.draw(frame.layout, at: Point(x: 0, y: 0))
        }
    }
}
