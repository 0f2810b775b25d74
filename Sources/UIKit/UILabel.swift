internal import CoreGraphics
public import Foundation
internal import StrataText

/// A view that shows text (`UILabel`): one line by default, truncated at
/// the tail, centred vertically in its bounds.
@MainActor
open class UILabel: UIView {
    private var plainText: String?
    private var richText: NSAttributedString?

    public override init(frame: CGRect) {
        super.init(frame: frame)
        labelDefaults()
    }

    /// A label is an element, named by its text, static text, unless told otherwise.
    open override var isAccessibilityElement: Bool {
        get { labelAccessibility.isElement ?? true }
        set { labelAccessibility.isElement = newValue }
    }
    open override var accessibilityLabel: String? {
        get { labelAccessibility.label ?? text }
        set { labelAccessibility.label = newValue }
    }
    open override var accessibilityTraits: UIAccessibilityTraits {
        get { labelAccessibility.traits ?? .staticText }
        set { labelAccessibility.traits = newValue }
    }
    private var labelAccessibility: (isElement: Bool?, label: String?, traits: UIAccessibilityTraits?) = (nil, nil, nil)

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        labelDefaults()
    }

    private func labelDefaults() {
        isUserInteractionEnabled = false
        isOpaque = false
        contentMode = .redraw
    }

    open var text: String? {
        get { plainText ?? richText?.string }
        set {
            plainText = newValue
            richText = nil
            changed()
        }
    }

    /// Styled text; the label's font and colour apply where it sets none.
    open var attributedText: NSAttributedString? {
        get { richText ?? plainText.map { NSAttributedString(string: $0, attributes: attributes) } }
        set {
            richText = newValue
            plainText = nil
            changed()
        }
    }

    open var font: UIFont! = UIFont.systemFont(ofSize: 17) { didSet { changed() } }
    open var textColor: UIColor! = UIColor.label { didSet { setNeedsDisplay() } }
    open var highlightedTextColor: UIColor?
    open var isHighlighted = false { didSet { setNeedsDisplay() } }
    open var isEnabled = true { didSet { setNeedsDisplay() } }
    open var textAlignment: NSTextAlignment = .natural { didSet { setNeedsDisplay() } }
    /// Lines at most; 0 for as many as fit.
    open var numberOfLines = 1 { didSet { changed() } }
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail { didSet { changed() } }
    /// The width to wrap at when the label sizes itself (0: its own width).
    open var preferredMaxLayoutWidth: CGFloat = 0
    /// Accepted; the text is not shrunk to fit here.
    open var adjustsFontSizeToFitWidth = false
    open var minimumScaleFactor: CGFloat = 0
    open var shadowColor: UIColor?
    open var shadowOffset = CGSize(width: 0, height: -1)

    private func changed() {
        invalidateIntrinsicContentSize()
        setNeedsDisplay()
    }

    private var attributes: [NSAttributedString.Key: Any] {
        let style = NSMutableParagraphStyle()
        style.alignment = textAlignment
        style.lineBreakMode = lineBreakMode
        return [.font: font ?? UIFont.systemFont(ofSize: 17), .foregroundColor: currentColor, .paragraphStyle: style]
    }

    private var currentColor: UIColor {
        if !isEnabled { return (textColor ?? .label).withAlphaComponent(0.5) }
        if isHighlighted, let h = highlightedTextColor { return h }
        return textColor ?? .label
    }

    /// The text laid out for `width` (nil: unbounded).
    private func layout(width: CGFloat?, height: CGFloat? = nil) -> TextLayout? {
        guard let text = attributedText, text.length > 0 else { return nil }
        let truncates = [.byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle].contains(lineBreakMode)
        let source: NSAttributedString
        if richText != nil {
            let m = NSMutableAttributedString(attributedString: text)
            let whole = NSRange(location: 0, length: m.length)
            m.enumerateAttribute(.paragraphStyle, in: whole, options: []) { value, range, _ in
                if value == nil { m.addAttribute(.paragraphStyle, value: attributes[.paragraphStyle]!, range: range) }
            }
            source = m
        } else {
            source = text
        }
        return StringLayout.layout(
            source, width: width, height: height, maximumLines: numberOfLines, truncates: truncates,
            defaultFont: (font ?? UIFont.systemFont(ofSize: 17)).font, defaultColor: currentColor.cgColor.strata)
    }

    /// The rectangle the text takes within `bounds`, in at most
    /// `numberOfLines` lines: its height is the text's, its width the bounds'.
    open func textRect(forBounds bounds: CGRect, limitedToNumberOfLines numberOfLines: Int) -> CGRect {
        guard let layout = layout(width: bounds.width) else { return CGRect(x: bounds.minX, y: bounds.minY, width: 0, height: 0) }
        let s = StringLayout.size(layout)
        return CGRect(x: bounds.minX, y: bounds.minY, width: Swift.min(bounds.width, s.width), height: s.height)
    }

    /// Draws the text in `rect`, centred vertically.
    open func drawText(in rect: CGRect) {
        guard let layout = layout(width: rect.width, height: numberOfLines == 0 ? rect.height : nil) else { return }
        let h = layout.size.height
        let origin = CGPoint(x: rect.minX, y: rect.minY + (rect.height - h) / 2)
        StringLayout.draw(layout, at: origin)
    }

    open override func draw(_ rect: CGRect) { drawText(in: bounds) }

    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let width: CGFloat? = numberOfLines == 1 || size.width <= 0 ? nil : size.width
        guard let layout = layout(width: width) else { return .zero }
        let s = StringLayout.size(layout)
        return CGSize(width: s.width.rounded(.up), height: s.height.rounded(.up))
    }

    open override var intrinsicContentSize: CGSize {
        sizeThatFits(CGSize(width: preferredMaxLayoutWidth > 0 ? preferredMaxLayoutWidth : 0, height: 0))
    }
}

/// A view that shows an image (`UIImageView`), placed by `contentMode`
/// (stretched to fill by default).
@MainActor
open class UIImageView: UIView {
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isUserInteractionEnabled = false
    }

    /// A view the size of `image`, showing it.
    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
        // Observers do not run for a class's own properties set in its initializers.
        show()
    }

    public convenience init(image: UIImage?, highlightedImage: UIImage?) {
        self.init(image: image)
        self.highlightedImage = highlightedImage
        show()
    }

    open var image: UIImage? { didSet { show() } }
    open var highlightedImage: UIImage? { didSet { show() } }
    open var isHighlighted = false { didSet { show() } }

    func show() {
        let shown = isHighlighted ? highlightedImage ?? image : image
        layer.contents = shown?.cgImage
        if let shown { layer.contentsScale = shown.scale }
        invalidateIntrinsicContentSize()
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { image?.size ?? .zero }
    open override var intrinsicContentSize: CGSize { image?.size ?? CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
}
