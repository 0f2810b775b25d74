internal import CoreGraphics
internal import CoreText
public import Foundation
internal import StrataGraphics
internal import StrataText

/// Options for measuring and drawing strings (`NSStringDrawingOptions`).
public struct NSStringDrawingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Wrap into lines within the width (without it, one line).
    public static let usesLineFragmentOrigin = NSStringDrawingOptions(rawValue: 1 << 0)
    /// Count the font's leading in line heights.
    public static let usesFontLeading = NSStringDrawingOptions(rawValue: 1 << 1)
    /// Measure the glyphs' own bounds (taken as the line boxes here).
    public static let usesDeviceMetrics = NSStringDrawingOptions(rawValue: 1 << 3)
    /// End the last line that fits with an ellipsis.
    public static let truncatesLastVisibleLine = NSStringDrawingOptions(rawValue: 1 << 5)
}

/// What string drawing reports back (`NSStringDrawingContext`).
open class NSStringDrawingContext {
    public init() {}
    open var minimumScaleFactor: CGFloat = 0
    /// The rectangle the last drawing or measuring covered.
    public internal(set) var totalBounds: CGRect = .zero
    public var actualScaleFactor: CGFloat { 1 }
}

/// String layout for UIKit's drawing: one place for labels and the
/// string-drawing methods.
enum StringLayout {
    static func attributed(_ string: String, _ attributes: [NSAttributedString.Key: Any]?) -> NSAttributedString {
        NSAttributedString(string: string, attributes: attributes ?? [:])
    }

    /// `string` laid out: within `width` (nil: no wrapping), in at most
    /// `height` points and `maximumLines` lines (0: any), the last one
    /// truncated when `truncates`.
    static func layout(
        _ string: NSAttributedString, width: CGFloat?, height: CGFloat? = nil, maximumLines: Int = 0, truncates: Bool = false,
        defaultFont: Font = ConvertedText.defaultFont, defaultColor: Color = .black
    ) -> TextLayout {
        let c = ConvertedText(string, defaultFont: defaultFont, defaultColor: defaultColor)
        var style = c.style
        style.maximumLines = Swift.max(0, maximumLines)
        if truncates, style.truncation == .none { style.truncation = .tail }
        if !truncates, maximumLines == 0 { style.truncation = .none }
        func finite(_ v: CGFloat?) -> Double? {
            guard let v, v.isFinite, v >= 0, v < 1e12 else { return nil }
            return Double(v)
        }
        return TextLayout(c.text, width: finite(width) ?? .infinity, height: finite(height), style: style)
    }

    /// The size the layout covers: its lines' widest width, and its height.
    static func size(_ layout: TextLayout) -> CGSize {
        CGSize(width: layout.lines.map(\.width).max() ?? 0, height: layout.size.height)
    }

    static func draw(_ layout: TextLayout, at point: CGPoint, clip: CGRect? = nil) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.withCanvas { canvas in
            if let clip {
                canvas.draw(layout, in: clip.strata)
            } else {
                canvas.draw(layout, at: point.strata)
            }
        }
    }

    static func boundingRect(
        _ string: NSAttributedString, size: CGSize, options: NSStringDrawingOptions, context: NSStringDrawingContext?
    ) -> CGRect {
        let wraps = options.contains(.usesLineFragmentOrigin)
        let layout = layout(string, width: wraps ? size.width : nil, height: wraps ? size.height : nil)
        let s = self.size(layout)
        let rect = CGRect(origin: .zero, size: s)
        context?.totalBounds = rect
        return rect
    }
}

extension NSAttributedString {
    /// The size the string needs on one line (newlines start new lines).
    public func size() -> CGSize { StringLayout.size(StringLayout.layout(self, width: nil)) }

    /// Draws the string with its top left at `point` in the current context.
    public func draw(at point: CGPoint) { StringLayout.draw(StringLayout.layout(self, width: nil), at: point) }

    /// Draws the string wrapped in `rect`, clipped to it.
    public func draw(in rect: CGRect) {
        StringLayout.draw(StringLayout.layout(self, width: rect.width, height: rect.height), at: rect.origin, clip: rect)
    }

    public func draw(with rect: CGRect, options: NSStringDrawingOptions = [], context: NSStringDrawingContext?) {
        let wraps = options.contains(.usesLineFragmentOrigin)
        let layout = StringLayout.layout(
            self, width: rect.width, height: wraps ? rect.height : nil, maximumLines: wraps ? 0 : 1,
            truncates: options.contains(.truncatesLastVisibleLine))
        context?.totalBounds = CGRect(origin: rect.origin, size: StringLayout.size(layout))
        StringLayout.draw(layout, at: rect.origin)
    }

    /// The rectangle the string covers within `size` (one line without
    /// `.usesLineFragmentOrigin`), at the origin; sizes are not rounded.
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [], context: NSStringDrawingContext?) -> CGRect {
        StringLayout.boundingRect(self, size: size, options: options, context: context)
    }
}

extension NSString {
    // The same as Swift's `String` (below), for code that draws `NSString`s.

    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        String(self).size(withAttributes: attrs)
    }

    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        String(self).draw(at: point, withAttributes: attrs)
    }

    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        String(self).draw(in: rect, withAttributes: attrs)
    }

    public func draw(
        with rect: CGRect, options: NSStringDrawingOptions = [], attributes: [NSAttributedString.Key: Any]? = nil,
        context: NSStringDrawingContext?
    ) {
        String(self).draw(with: rect, options: options, attributes: attributes, context: context)
    }

    public func boundingRect(
        with size: CGSize, options: NSStringDrawingOptions = [], attributes: [NSAttributedString.Key: Any]? = nil,
        context: NSStringDrawingContext?
    ) -> CGRect {
        String(self).boundingRect(with: size, options: options, attributes: attributes, context: context)
    }
}

// Swift's String has the same methods through Foundation's bridging on
// Apple's systems; here they are written out.
extension StringProtocol {
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        StringLayout.attributed(String(self), attrs).size()
    }

    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        StringLayout.attributed(String(self), attrs).draw(at: point)
    }

    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        StringLayout.attributed(String(self), attrs).draw(in: rect)
    }

    public func draw(
        with rect: CGRect, options: NSStringDrawingOptions = [], attributes: [NSAttributedString.Key: Any]? = nil,
        context: NSStringDrawingContext?
    ) {
        StringLayout.attributed(String(self), attributes).draw(with: rect, options: options, context: context)
    }

    public func boundingRect(
        with size: CGSize, options: NSStringDrawingOptions = [], attributes: [NSAttributedString.Key: Any]? = nil,
        context: NSStringDrawingContext?
    ) -> CGRect {
        StringLayout.attributed(String(self), attributes).boundingRect(with: size, options: options, context: context)
    }
}
