public import CoreGraphics
internal import StrataGraphics
public import StrataLayers

/// A layer that draws a path (`CAShapeLayer`): filled, stroked, dashed,
/// trimmed by `strokeStart` and `strokeEnd`.
@MainActor
open class CAShapeLayer: CALayer, ShapeLayerProperties {
    /// This layer as a Strata shape layer, whose members (in Strata's types)
    /// are the ones meant.
    private var shape: any ShapeLayerProperties { self }

    override func takePresentedValues(from model: CALayer) {
        super.takePresentedValues(from: model)
        cgPath = CGPath(shape.path)
        if let model = model as? CAShapeLayer {
            if model.cgPath?.path == shape.path { cgPath = model.cgPath }
            fillCGColor = CALayer.presented(shape.fillColor, model: model.fillCGColor)
            strokeCGColor = CALayer.presented(shape.strokeColor, model: model.strokeCGColor)
        }
    }

    override func setUp() {
        super.setUp()
        becomeShapeLayer()
        shape.fillColor = .black
        shape.strokeColor = nil
    }

    private var cgPath: CGPath?
    public var path: CGPath? {
        get { cgPath }
        set {
            cgPath = newValue
            shape.path = newValue?.path ?? StrataGraphics.Path()
        }
    }
    private var fillCGColor: CGColor? = CGColor.black
    /// The fill (opaque black by default; nil: none).
    public var fillColor: CGColor? {
        get { fillCGColor }
        set {
            fillCGColor = newValue
            shape.fillColor = newValue?.strata
        }
    }
    public var fillRule: CAShapeLayerFillRule {
        get { shape.fillRule == .evenOdd ? .evenOdd : .nonZero }
        set { shape.fillRule = newValue == .evenOdd ? .evenOdd : .winding }
    }
    private var strokeCGColor: CGColor?
    /// The stroke (none by default).
    public var strokeColor: CGColor? {
        get { strokeCGColor }
        set {
            strokeCGColor = newValue
            shape.strokeColor = newValue?.strata
        }
    }
    public var lineWidth: CGFloat {
        get { shape.lineWidth }
        set { shape.lineWidth = Double(newValue) }
    }
    public var lineCap: CAShapeLayerLineCap {
        get { shape.lineCap == .round ? .round : shape.lineCap == .square ? .square : .butt }
        set { shape.lineCap = newValue == .round ? .round : newValue == .square ? .square : .butt }
    }
    public var lineJoin: CAShapeLayerLineJoin {
        get { shape.lineJoin == .round ? .round : shape.lineJoin == .bevel ? .bevel : .miter }
        set { shape.lineJoin = newValue == .round ? .round : newValue == .bevel ? .bevel : .miter }
    }
    public var miterLimit: CGFloat {
        get { shape.miterLimit }
        set { shape.miterLimit = Double(newValue) }
    }
    /// Dash lengths, alternately drawn and skipped (nil or empty: solid).
    public var lineDashPattern: [NSNumber]? {
        get { shape.lineDashPattern.isEmpty ? nil : shape.lineDashPattern.map { NSNumber(value: $0) } }
        set { shape.lineDashPattern = newValue?.map(\.doubleValue) ?? [] }
    }
    public var lineDashPhase: CGFloat {
        get { shape.lineDashPhase }
        set { shape.lineDashPhase = Double(newValue) }
    }
    /// Where along the path the stroke starts, 0 to 1.
    public var strokeStart: CGFloat {
        get { shape.strokeStart }
        set { shape.strokeStart = Double(newValue) }
    }
    /// Where along the path the stroke ends, 0 to 1.
    public var strokeEnd: CGFloat {
        get { shape.strokeEnd }
        set { shape.strokeEnd = Double(newValue) }
    }
}

/// Which points a shape layer's self-crossing path fills.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// How a shape layer's stroke ends.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// How a shape layer's stroke turns corners.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}
