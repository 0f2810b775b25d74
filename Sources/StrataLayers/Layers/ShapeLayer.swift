public import Foundation
import StrataGraphics

/// What a shape layer draws.
struct ShapeState: Sendable {
    var path = Path()
    var fillColor: Color? = .black
    var fillRule = FillRule.winding
    var strokeColor: Color? = nil
    var lineWidth = 1.0
    var lineCap = LineCap.butt
    var lineJoin = LineJoin.miter
    var miterLimit = 10.0
    var lineDashPattern: [Double] = []
    var lineDashPhase = 0.0
    var strokeStart = 0.0
    var strokeEnd = 1.0

    /// The fill as an animatable value: nil animates as clear.
    var fillColorValue: Color {
        get { fillColor ?? .clear }
        set { fillColor = newValue }
    }
    var strokeColorValue: Color {
        get { strokeColor ?? .clear }
        set { strokeColor = newValue }
    }
}

extension LayerState {
    /// A shape layer's part of the state; nil for other layers.
    var shape: ShapeState? {
        get { special as? ShapeState }
        set { special = newValue }
    }
}

extension ShapeState: SpecialLayerState {
    static let animatableKeyPaths: [String: LayerState.Accessor] = [
        "path": LayerState.specialProperty(\.shape, \.path),
        "fillColor": LayerState.specialProperty(\.shape, \.fillColorValue),
        "strokeColor": LayerState.specialProperty(\.shape, \.strokeColorValue),
        "lineWidth": LayerState.specialProperty(\.shape, \.lineWidth),
        "miterLimit": LayerState.specialProperty(\.shape, \.miterLimit),
        "lineDashPhase": LayerState.specialProperty(\.shape, \.lineDashPhase),
        "lineDashPattern": LayerState.specialProperty(\.shape, \.lineDashPattern),
        "strokeStart": LayerState.specialProperty(\.shape, \.strokeStart),
        "strokeEnd": LayerState.specialProperty(\.shape, \.strokeEnd),
    ]

    /// The path's box (the path may leave the bounds), grown when it is
    /// stroked by more than the stroke can reach: a line width (times half
    /// the miter limit at miter joins) and a point.
    func drawingBounds(of s: LayerState) -> Rect {
        var b = path.boundingBoxOfPath
        if strokeColor != nil {
            let w = lineWidth * max(1, lineJoin == .miter ? miterLimit / 2 : 1) + 1
            b = b.insetBy(dx: -w, dy: -w)
        }
        return b
    }

    /// The fill, then the stroke between `strokeStart` and `strokeEnd`.
    func draw(_ layer: FrameNode, in canvas: Canvas) {
        guard !path.isEmpty else { return }
        if let fill = fillColor, fill.alpha > 0 {
            canvas.fillColor = tinted(fill, layer.tint)
            canvas.fill(path, rule: fillRule)
        }
        guard let stroke = strokeColor, stroke.alpha > 0, lineWidth > 0 else { return }
        let start = clamp01(strokeStart), end = clamp01(strokeEnd)
        guard end > start else { return }
        var path = self.path
        if start > 0 || end < 1 {
            path = PathMeasure(path).trimmed(from: start, to: end)
        }
        canvas.strokeColor = tinted(stroke, layer.tint)
        canvas.lineWidth = lineWidth
        canvas.lineCap = lineCap
        canvas.lineJoin = lineJoin
        canvas.miterLimit = miterLimit
        if !lineDashPattern.isEmpty { canvas.setLineDash(phase: lineDashPhase, lengths: lineDashPattern) }
        canvas.stroke(path)
    }
}

/// A layer that draws a path, filled and stroked (`CAShapeLayer`).
///
/// The shape is drawn by the compositor from the layer's (presentation) values,
/// so `path`, `strokeStart`, `strokeEnd`, the colours, the line width and the
/// dash phase animate smoothly; it is drawn above the background and contents
/// and below the sublayers. A path of a different shape from the one it
/// animates to switches halfway.
open class ShapeLayer: Layer, ShapeLayerProperties {
    public override init() {
        super.init()
        becomeShapeLayer()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeShapeLayer()
    }
}

/// What a `ShapeLayer` has, in Strata's types: declared here rather than in
/// the class so that QuartzCore's Core Animation class of the same kind,
/// which is a `Layer` of this kind but not a `ShapeLayer`, has them too (see
/// `LayerProperties`).
@MainActor
public protocol ShapeLayerProperties: Layer {}

extension ShapeLayerProperties {
    /// Makes the layer one of this kind: its class's initializers, and the
    /// set-up of the Core Animation layer of the kind.
    package func becomeShapeLayer() {
        if state.shape == nil { state.shape = ShapeState() }
    }

    fileprivate func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<ShapeState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, ShapeState> = \LayerState.shape!
        change(key, part.appending(path: kp), v)
    }

    /// The shape, in the layer's coordinates.
    @_disfavoredOverload public var path: Path {
        get { state.shape!.path }
        set { set("path", \.path, newValue) }
    }

    /// nil: no fill. Default opaque black.
    @_disfavoredOverload public var fillColor: Color? {
        get { state.shape!.fillColor }
        set { set("fillColor", \.fillColor, newValue) }
    }

    @_disfavoredOverload public var fillRule: FillRule {
        get { state.shape!.fillRule }
        set { set("fillRule", \.fillRule, newValue) }
    }

    /// nil (the default): no stroke.
    @_disfavoredOverload public var strokeColor: Color? {
        get { state.shape!.strokeColor }
        set { set("strokeColor", \.strokeColor, newValue) }
    }

    @_disfavoredOverload public var lineWidth: Double {
        get { state.shape!.lineWidth }
        set { set("lineWidth", \.lineWidth, newValue.clampedLength(LayerLimits.coordinate, nan: 1)) }
    }

    @_disfavoredOverload public var lineCap: LineCap {
        get { state.shape!.lineCap }
        set { set("lineCap", \.lineCap, newValue) }
    }

    @_disfavoredOverload public var lineJoin: LineJoin {
        get { state.shape!.lineJoin }
        set { set("lineJoin", \.lineJoin, newValue) }
    }

    @_disfavoredOverload public var miterLimit: Double {
        get { state.shape!.miterLimit }
        set { set("miterLimit", \.miterLimit, newValue.clampedLength(LayerLimits.coordinate, nan: 10)) }
    }

    /// Dash and gap lengths; empty (the default) draws a solid line.
    @_disfavoredOverload public var lineDashPattern: [Double] {
        get { state.shape!.lineDashPattern }
        set { set("lineDashPattern", \.lineDashPattern, newValue) }
    }

    @_disfavoredOverload public var lineDashPhase: Double {
        get { state.shape!.lineDashPhase }
        set { set("lineDashPhase", \.lineDashPhase, newValue.clamped(LayerLimits.coordinate)) }
    }

    /// Where the stroke starts along the path, 0…1 of its length.
    @_disfavoredOverload public var strokeStart: Double {
        get { state.shape!.strokeStart }
        set { set("strokeStart", \.strokeStart, newValue.isFinite ? newValue : 0) }
    }

    /// Where the stroke ends along the path, 0…1 of its length.
    @_disfavoredOverload public var strokeEnd: Double {
        get { state.shape!.strokeEnd }
        set { set("strokeEnd", \.strokeEnd, newValue.isFinite ? newValue : 1) }
    }
}
