public import CoreGraphics
internal import CoreText
internal import StrataGraphics
public import StrataLayers
internal import StrataText

/// A layer that fills its bounds with a gradient (`CAGradientLayer`):
/// axial, radial or conic, between `startPoint` and `endPoint` in the unit
/// square of the bounds.
@MainActor
open class CAGradientLayer: CALayer, GradientLayerProperties {
    /// This layer as a Strata gradient layer.
    private var gradient: any GradientLayerProperties { self }

    override func setUp() {
        super.setUp()
        becomeGradientLayer()
    }

    private var colorList: [Any]?
    /// The colours, `CGColor`s (anything else is skipped).
    public var colors: [Any]? {
        get { colorList }
        set {
            colorList = newValue
            gradient.colors = (newValue ?? []).compactMap { ($0 as? CGColor)?.strata }
        }
    }
    /// Where each colour stops, 0 to 1 (nil: spread evenly).
    public var locations: [NSNumber]? {
        get { gradient.locations?.map { NSNumber(value: $0) } }
        set { gradient.locations = newValue?.map(\.doubleValue) }
    }
    public var startPoint: CGPoint {
        get { CGPoint(gradient.startPoint) }
        set { gradient.startPoint = newValue.strata }
    }
    public var endPoint: CGPoint {
        get { CGPoint(gradient.endPoint) }
        set { gradient.endPoint = newValue.strata }
    }
    public var type: CAGradientLayerType {
        get { gradient.type == .radial ? .radial : gradient.type == .conic ? .conic : .axial }
        set { gradient.type = newValue == .radial ? .radial : newValue == .conic ? .conic : .axial }
    }
}

/// The kinds of gradient a `CAGradientLayer` draws.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = CAGradientLayerType(rawValue: "axial")
    public static let radial = CAGradientLayerType(rawValue: "radial")
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// A layer that draws a string (`CATextLayer`), with Core Animation's
/// defaults: 36-point text in white, not wrapped.
@MainActor
open class CATextLayer: CALayer, TextLayerProperties {
    /// This layer as a Strata text layer.
    private var text: any TextLayerProperties { self }

    override func setUp() {
        super.setUp()
        becomeTextLayer()
        text.fontSize = 36
        text.foregroundColor = .white
    }

    private var stringValue: Any?
    /// The text: a `String`, drawn in the layer's `font`, `fontSize` and
    /// `foregroundColor`, or an `NSAttributedString`, drawn with its own
    /// attributes (those properties ignored, as in Core Animation; missing
    /// attributes are Core Text's Helvetica 12 in black).
    public var string: Any? {
        get { stringValue }
        set {
            stringValue = newValue
            if let rich = newValue as? NSAttributedString {
                text.attributedString = ConvertedText(rich).text
            } else {
                text.string = (newValue as? String) ?? (newValue as? NSString).map { $0 as String }
            }
        }
    }
    private var fontValue: Any?
    /// The font: a `CTFont`, a `CGFont`, or a name as a `String` (a
    /// PostScript name such as "Helvetica-Bold" or a family name), as in
    /// Core Animation; its family, weight and slant are used, at
    /// `fontSize`. Helvetica (fontconfig's match for it) by default.
    public var font: Any? {
        get { fontValue }
        set {
            fontValue = newValue
            let font: Font? =
                switch newValue {
                case let name as String: Font(name: name, size: 12)
                case let name as NSString: Font(name: name as String, size: 12)
                case let f as any StrataFontConvertible: f.strataFont
                default: nil
                }
            text.fontFamily = font?.family ?? "sans-serif"
            text.fontWeight = font?.weight ?? .regular
            text.isItalic = font?.italic ?? false
        }
    }

    public var fontSize: CGFloat {
        get { text.fontSize }
        set { text.fontSize = Double(newValue) }
    }
    private var foregroundCGColor: CGColor? = CGColor(gray: 1, alpha: 1)
    public var foregroundColor: CGColor? {
        get { foregroundCGColor }
        set {
            foregroundCGColor = newValue
            text.foregroundColor = newValue?.strata ?? .clear
        }
    }
    public var isWrapped: Bool {
        get { text.isWrapped }
        set { text.isWrapped = newValue }
    }
    public var alignmentMode: CATextLayerAlignmentMode {
        get {
            switch text.alignmentMode {
            case .left: .left
            case .right: .right
            case .center: .center
            case .justified: .justified
            case .natural: .natural
            }
        }
        set {
            switch newValue {
            case .left: text.alignmentMode = .left
            case .right: text.alignmentMode = .right
            case .center: text.alignmentMode = .center
            case .justified: text.alignmentMode = .justified
            default: text.alignmentMode = .natural
            }
        }
    }
    public var truncationMode: CATextLayerTruncationMode {
        get {
            switch text.truncationMode {
            case .none: .none
            case .head: .start
            case .middle: .middle
            case .tail: .end
            }
        }
        set {
            switch newValue {
            case .start: text.truncationMode = .head
            case .middle: text.truncationMode = .middle
            case .end: text.truncationMode = .tail
            default: text.truncationMode = .none
            }
        }
    }
}

/// How a text layer aligns its lines.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// Where a text layer cuts text that does not fit.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    public static let end = CATextLayerTruncationMode(rawValue: "end")
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
}

/// A layer that draws its sublayers `instanceCount` times, each copy
/// transformed and tinted a step further (`CAReplicatorLayer`).
@MainActor
open class CAReplicatorLayer: CALayer, ReplicatorLayerProperties {
    /// This layer as a Strata replicator layer.
    private var replicator: any ReplicatorLayerProperties { self }

    override func setUp() {
        super.setUp()
        becomeReplicatorLayer()
    }

    public var instanceCount: Int {
        get { replicator.instanceCount }
        set { replicator.instanceCount = newValue }
    }
    public var instanceTransform: CATransform3D {
        get { CATransform3D(replicator.instanceTransform) }
        set { replicator.instanceTransform = newValue.strata }
    }
    public var instanceDelay: CFTimeInterval {
        get { replicator.instanceDelay }
        set { replicator.instanceDelay = newValue }
    }
    private var instanceCGColor: CGColor? = CGColor(gray: 1, alpha: 1)
    public var instanceColor: CGColor? {
        get { instanceCGColor }
        set {
            instanceCGColor = newValue
            replicator.instanceColor = newValue?.strata ?? .white
        }
    }
    public var instanceRedOffset: Float {
        get { Float(replicator.instanceRedOffset) }
        set { replicator.instanceRedOffset = Double(newValue) }
    }
    public var instanceGreenOffset: Float {
        get { Float(replicator.instanceGreenOffset) }
        set { replicator.instanceGreenOffset = Double(newValue) }
    }
    public var instanceBlueOffset: Float {
        get { Float(replicator.instanceBlueOffset) }
        set { replicator.instanceBlueOffset = Double(newValue) }
    }
    public var instanceAlphaOffset: Float {
        get { Float(replicator.instanceAlphaOffset) }
        set { replicator.instanceAlphaOffset = Double(newValue) }
    }
}

/// A layer whose sublayers keep their own 3-D places (`CATransformLayer`):
/// it draws nothing of its own and does not flatten them.
@MainActor
open class CATransformLayer: CALayer {
    override func setUp() {
        super.setUp()
        becomeTransformLayer()
    }
}
