public import Foundation
import StrataGraphics
import StrataText

/// What a text layer draws.
struct TextState: Sendable {
    var string: AttributedText? = nil
    /// Whether `string` is rich text (its attributes are used as they are).
    var isRich = false
    var fontFamily = "sans-serif"
    var fontWeight = FontWeight.regular
    var isItalic = false
    var fontSize = 36.0
    var foregroundColor = Color.white
    var isWrapped = false
    var truncationMode = TruncationMode.none
    var alignmentMode = TextAlignment.natural

    /// The text to lay out: a plain string takes the layer's font, size and
    /// colour; rich text keeps its own attributes.
    /// `tint` (a replicator copy's colour) multiplies a plain string's colour;
    /// rich text keeps its own colours.
    func attributedText(tint: Color? = nil) -> AttributedText? {
        guard let string else { return nil }
        if isRich { return string }
        return AttributedText(
            string.string,
            attributes: TextAttributes(
                font: Font(family: fontFamily, size: fontSize, weight: fontWeight, italic: isItalic),
                foregroundColor: tint.map { multiply($0, foregroundColor) } ?? foregroundColor))
    }
}

extension LayerState {
    /// A text layer's part of the state; nil for other layers.
    var text: TextState? {
        get { special as? TextState }
        set { special = newValue }
    }
}

extension TextState: SpecialLayerState {
    static let animatableKeyPaths: [String: LayerState.Accessor] = [
        "foregroundColor": LayerState.specialProperty(\.text, \.foregroundColor),
        "fontSize": LayerState.specialProperty(\.text, \.fontSize),
    ]

    /// The text laid out in the bounds `b` (through the shared layout cache),
    /// and how far right of the bounds' left edge it starts.
    func layout(_ text: AttributedText, in b: Rect) -> (layout: TextLayout, dx: Double) {
        var style = ParagraphStyle(alignment: alignmentMode)
        style.truncation = truncationMode
        if isWrapped {
            return (LayoutCache.shared.layout(text, width: b.width, height: truncationMode == .none ? nil : b.height, style: style), 0)
        } else if truncationMode != .none {
            style.maximumLines = 1
            return (LayoutCache.shared.layout(text, width: b.width, style: style), 0)
        }
        // One line per paragraph, aligned within the bounds.
        let layout = LayoutCache.shared.layout(text, width: .infinity, style: ParagraphStyle())
        switch alignmentMode {
        case .center: return (layout, (b.width - layout.size.width) / 2)
        case .right: return (layout, b.width - layout.size.width)
        default: return (layout, 0)
        }
    }

    /// Where the text can draw: its laid-out lines, which may pass the
    /// bounds (a line longer than the layer, more lines than fit), grown by
    /// the font size for glyphs that reach past their line's box.
    func drawingBounds(of s: LayerState) -> Rect {
        guard let text = attributedText(), text.count > 0 else { return .null }
        let b = s.bounds
        let (layout, dx) = layout(text, in: b)
        let ink = max(fontSize, 16)
        return Rect(x: b.minX + dx, y: b.minY, width: layout.size.width, height: layout.size.height).insetBy(dx: -ink, dy: -ink)
    }

    /// The text laid out in the bounds and drawn from their top left.
    func draw(_ layer: FrameNode, in canvas: Canvas) {
        guard let text = attributedText(tint: layer.tint), text.count > 0 else { return }
        let b = layer.state.bounds
        let (layout, dx) = layout(text, in: b)
        canvas.draw(layout, at: Point(x: b.minX + dx, y: b.minY))
    }
}

/// A layer that draws text (`CATextLayer`): plain or rich, wrapped or on one
/// line, truncated and aligned within the bounds.
///
/// The compositor lays the text out (through the shared layout cache) and draws
/// it at the layer's device scale, so it stays sharp under scaling and needs no
/// `contentsScale` to look right; `contentsScale` is kept for compatibility.
open class TextLayer: Layer, TextLayerProperties {
    public override init() {
        super.init()
        becomeTextLayer()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeTextLayer()
    }
}

/// What a `TextLayer` has, in Strata's types: declared here rather than in
/// the class so that QuartzCore's Core Animation class of the same kind,
/// which is a `Layer` of this kind but not a `TextLayer`, has them too (see
/// `LayerProperties`).
@MainActor
public protocol TextLayerProperties: Layer {}

extension TextLayerProperties {
    /// Makes the layer one of this kind: its class's initializers, and the
    /// set-up of the Core Animation layer of the kind.
    package func becomeTextLayer() {
        if state.text == nil { state.text = TextState() }
    }

    fileprivate func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<TextState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, TextState> = \LayerState.text!
        change(key, part.appending(path: kp), v)
    }

    /// Plain text, drawn in the layer's font, size and colour.
    @_disfavoredOverload public var string: String? {
        get { state.text!.string?.string }
        set {
            set("string", \.string, newValue.map { AttributedText($0) })
            set("isRich", \.isRich, false)
        }
    }

    /// Rich text, drawn with its own attributes.
    @_disfavoredOverload public var attributedString: AttributedText? {
        get { state.text!.isRich ? state.text!.string : nil }
        set {
            set("string", \.string, newValue)
            set("isRich", \.isRich, true)
        }
    }

    /// The font family for plain text (default fontconfig's sans-serif).
    @_disfavoredOverload public var fontFamily: String {
        get { state.text!.fontFamily }
        set { set("font", \.fontFamily, newValue) }
    }

    /// The weight of plain text's font (default regular).
    @_disfavoredOverload public var fontWeight: FontWeight {
        get { state.text!.fontWeight }
        set { set("font", \.fontWeight, newValue) }
    }

    /// Whether plain text's font is italic (default false).
    @_disfavoredOverload public var isItalic: Bool {
        get { state.text!.isItalic }
        set { set("font", \.isItalic, newValue) }
    }

    /// Default 36, as in Core Animation.
    @_disfavoredOverload public var fontSize: Double {
        get { state.text!.fontSize }
        set { set("fontSize", \.fontSize, newValue.isFinite && newValue > 0 ? newValue : 36) }
    }

    /// Default white, as in Core Animation.
    @_disfavoredOverload public var foregroundColor: Color {
        get { state.text!.foregroundColor }
        set { set("foregroundColor", \.foregroundColor, newValue) }
    }

    /// Whether the text wraps to the bounds' width (default false: one line per paragraph).
    @_disfavoredOverload public var isWrapped: Bool {
        get { state.text!.isWrapped }
        set { set("wrapped", \.isWrapped, newValue) }
    }

    @_disfavoredOverload public var truncationMode: TruncationMode {
        get { state.text!.truncationMode }
        set { set("truncationMode", \.truncationMode, newValue) }
    }

    @_disfavoredOverload public var alignmentMode: TextAlignment {
        get { state.text!.alignmentMode }
        set { set("alignmentMode", \.alignmentMode, newValue) }
    }
}
