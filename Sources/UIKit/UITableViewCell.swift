internal import CoreGraphics
public import Foundation

/// A row of a table (`UITableViewCell`): a content view with, by style, a
/// text label, a detail label and an image view, reused as rows scroll.
@MainActor
open class UITableViewCell: UIView {
    /// The standard layouts (`UITableViewCell.CellStyle`).
    public enum CellStyle: Int, Sendable {
        /// A text label on the left (and an image view before it).
        case `default`
        /// Text on the left, detail on the right.
        case value1
        /// Detail on the left in blue, text on the right.
        case value2
        /// Text with the detail below it.
        case subtitle
    }

    public enum SelectionStyle: Int, Sendable { case none, blue, gray, `default` }
    public enum AccessoryType: Int, Sendable { case none, disclosureIndicator, detailDisclosureButton, checkmark, detailButton }

    public let style: CellStyle
    public let reuseIdentifier: String?
    /// Where a cell's own subviews go.
    public let contentView = UIView()
    public private(set) lazy var textLabel: UILabel? = makeLabel(font: UIFont.systemFont(ofSize: 17))
    public private(set) lazy var detailTextLabel: UILabel? =
        style == .default
        ? nil : makeLabel(font: UIFont.systemFont(ofSize: style == .subtitle ? 12 : 17), color: style == .value2 ? .systemBlue : .secondaryLabel)
    public private(set) lazy var imageView: UIImageView? = {
        let v = UIImageView()
        contentView.addSubview(v)
        return v
    }()
    open var selectionStyle = SelectionStyle.default
    open var accessoryType = AccessoryType.none { didSet { setNeedsLayout() } }
    open var backgroundView: UIView?
    open var selectedBackgroundView: UIView?
    open private(set) var isSelected = false
    open private(set) var isHighlighted = false

    public init(style: CellStyle, reuseIdentifier: String?) {
        self.style = style
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
        cellSetUp()
    }

    public required init?(coder: NSCoder) {
        style = .default
        reuseIdentifier = nil
        super.init(coder: coder)
        cellSetUp()
    }

    /// What `register(_:forCellReuseIdentifier:)` makes a cell of a
    /// registered class with: inherited by every subclass that overrides
    /// `init(style:reuseIdentifier:)` and `init?(coder:)`, or neither.
    public required convenience init(registeredReuseIdentifier identifier: String) {
        self.init(style: .default, reuseIdentifier: identifier)
    }

    private func cellSetUp() {
        backgroundColor = .white
        contentView.frame = bounds
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
    }

    private func makeLabel(font: UIFont, color: UIColor = .label) -> UILabel {
        let label = UILabel()
        label.font = font
        label.textColor = color
        contentView.addSubview(label)
        setNeedsLayout()
        return label
    }

    /// Called before the table hands the cell out again: resets the
    /// selection and highlight (override to clear your own state; call super).
    open func prepareForReuse() {
        isSelected = false
        isHighlighted = false
        updateBackground()
    }

    open func setSelected(_ selected: Bool, animated: Bool) {
        isSelected = selected
        updateBackground()
    }

    open func setHighlighted(_ highlighted: Bool, animated: Bool) {
        isHighlighted = highlighted
        updateBackground()
    }

    private var selectionLayer: CALayer?
    /// The hairline under the cell (the table's separator), inset 16 points.
    private lazy var separatorLayer: CALayer = {
        let l = CALayer()
        l.actions = ["hidden": NSNull(), "bounds": NSNull(), "position": NSNull(), "backgroundColor": NSNull()]
        l.zPosition = 1
        layer.addSublayer(l)
        return l
    }()

    /// Shows or hides the separator the table asks for.
    func showSeparator(_ color: UIColor?) {
        if let color {
            separatorLayer.backgroundColor = color.cgColor
            separatorLayer.isHidden = false
            layoutSeparator()
        } else if separatorLayer.superlayer != nil {
            separatorLayer.isHidden = true
        }
    }

    private func layoutSeparator() {
        let hairline = 1 / Swift.max(1, layer.contentsScale)
        separatorLayer.frame = CGRect(x: 16, y: bounds.height - hairline, width: Swift.max(0, bounds.width - 16), height: hairline)
    }

    private func updateBackground() {
        let shows = (isSelected || isHighlighted) && selectionStyle != .none
        if shows, selectionLayer == nil {
            let l = CALayer()
            l.backgroundColor = UIColor.systemGray4.cgColor
            // Shown and hidden at once, as UIKit's selection without animation.
            l.actions = ["hidden": NSNull(), "bounds": NSNull(), "position": NSNull()]
            layer.insertSublayer(l, at: 0)
            selectionLayer = l
        }
        selectionLayer?.frame = bounds
        selectionLayer?.isHidden = !shows
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        selectionLayer?.frame = bounds
        if !separatorLayer.isHidden { layoutSeparator() }
        let inset: CGFloat = 16
        let trailing: CGFloat = accessoryType == .none ? inset : 36
        var x = inset
        let h = contentView.bounds.height, w = contentView.bounds.width
        if let image = imageView?.image {
            let side = Swift.min(image.size.height, h - 8)
            imageView?.frame = CGRect(x: x, y: (h - side) / 2, width: image.size.width * side / Swift.max(image.size.height, 1), height: side)
            x = imageView!.frame.maxX + 12
        }
        let text = textLabel?.sizeThatFits(.zero) ?? .zero
        let detail = detailTextLabel?.sizeThatFits(.zero) ?? .zero
        switch style {
        case .default:
            textLabel?.frame = CGRect(x: x, y: 0, width: Swift.max(0, w - x - trailing), height: h)
        case .value1:
            textLabel?.frame = CGRect(x: x, y: 0, width: Swift.max(0, Swift.min(text.width, w - x - trailing - detail.width - 8)), height: h)
            detailTextLabel?.frame = CGRect(x: w - trailing - detail.width, y: 0, width: detail.width, height: h)
        case .value2:
            detailTextLabel?.frame = CGRect(x: x, y: 0, width: 90, height: h)
            textLabel?.frame = CGRect(x: x + 98, y: 0, width: Swift.max(0, w - x - 98 - trailing), height: h)
        case .subtitle:
            let total = text.height + detail.height
            textLabel?.frame = CGRect(x: x, y: (h - total) / 2, width: Swift.max(0, w - x - trailing), height: text.height)
            detailTextLabel?.frame = CGRect(x: x, y: (h - total) / 2 + text.height, width: Swift.max(0, w - x - trailing), height: detail.height)
        }
    }
}

/// A section's header or footer (`UITableViewHeaderFooterView`).
@MainActor
open class UITableViewHeaderFooterView: UIView {
    public let reuseIdentifier: String?
    public let contentView = UIView()
    public private(set) lazy var textLabel: UILabel? = {
        let label = UILabel()
        label.font = UIFont.systemFont(ofSize: 13)
        label.textColor = .secondaryLabel
        contentView.addSubview(label)
        return label
    }()

    public init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
        backgroundColor = .systemGroupedBackground
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
    }

    public required init?(coder: NSCoder) {
        reuseIdentifier = nil
        super.init(coder: coder)
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        contentView.frame = bounds
        textLabel?.frame = bounds.insetBy(dx: 16, dy: 0)
    }
}
