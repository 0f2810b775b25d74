public import Foundation
import StrataGraphics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a gradient layer draws.
struct GradientState: Sendable {
    var colors: [Color] = []
    var locations: [Double]? = nil
    var startPoint = Point(x: 0.5, y: 0)
    var endPoint = Point(x: 0.5, y: 1)
    var type = GradientLayer.Kind.axial

    /// The locations as an animatable value: evenly spaced when nil.
    var locationsValue: [Double] {
        get { locations ?? (0..<colors.count).map { colors.count == 1 ? 0 : Double($0) / Double(colors.count - 1) } }
        set { locations = newValue }
    }
}

extension LayerState {
    /// A gradient layer's part of the state; nil for other layers.
    var gradient: GradientState? {
        get { special as? GradientState }
        set { special = newValue }
    }
}

extension GradientState: SpecialLayerState {
    static let animatableKeyPaths: [String: LayerState.Accessor] = [
        "colors": LayerState.specialProperty(\.gradient, \.colors),
        "locations": LayerState.specialProperty(\.gradient, \.locationsValue),
        "startPoint": LayerState.specialProperty(\.gradient, \.startPoint),
        "endPoint": LayerState.specialProperty(\.gradient, \.endPoint),
    ]

    /// The gradient, filling the bounds.
    func draw(_ layer: FrameNode, in canvas: Canvas) {
        guard !colors.isEmpty else { return }
        let colors = self.colors.map { tinted($0, layer.tint) }
        let gradient = Gradient(colors: colors, locations: locations?.count == colors.count ? locations : nil)
        let b = layer.state.bounds
        let start = Point(x: b.minX + startPoint.x * b.width, y: b.minY + startPoint.y * b.height)
        let end = Point(x: b.minX + endPoint.x * b.width, y: b.minY + endPoint.y * b.height)
        canvas.saveGState()
        canvas.clip(to: b)
        switch type {
        case .axial:
            canvas.drawLinearGradient(gradient, start: start, end: end, options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        case .radial:
            let rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            if rx > 0 && ry > 0 {
                canvas.translateBy(x: start.x, y: start.y)
                canvas.scaleBy(x: 1, y: ry / rx)
                canvas.drawRadialGradient(
                    gradient, startCenter: .zero, startRadius: 0, endCenter: .zero, endRadius: rx,
                    options: [.drawsAfterEndLocation])
            } else {
                let r = max(rx, ry)
                canvas.drawRadialGradient(
                    gradient, startCenter: start, startRadius: 0, endCenter: start, endRadius: r,
                    options: [.drawsAfterEndLocation])
            }
        case .conic:
            canvas.drawConicGradient(gradient, center: start, angle: atan2(end.y - start.y, end.x - start.x))
        }
        canvas.restoreGState()
    }
}

/// A layer that fills its bounds with a gradient (`CAGradientLayer`).
///
/// `startPoint` and `endPoint` are in unit coordinates of the bounds. Axial
/// gradients run from start to end; radial ones are ellipses centred on the
/// start point reaching the end point (the ellipse fits the rectangle the two
/// points span); conic ones turn about the start point, beginning in the
/// direction of the end point. Colours and locations animate when the counts
/// match.
open class GradientLayer: Layer, GradientLayerProperties {
    public enum Kind: Hashable, Sendable {
        case axial, radial, conic
    }

    public override init() {
        super.init()
        becomeGradientLayer()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeGradientLayer()
    }
}

/// What a `GradientLayer` has, in Strata's types: declared here rather than in
/// the class so that QuartzCore's Core Animation class of the same kind,
/// which is a `Layer` of this kind but not a `GradientLayer`, has them too (see
/// `LayerProperties`).
@MainActor
public protocol GradientLayerProperties: Layer {}

extension GradientLayerProperties {
    /// Makes the layer one of this kind: its class's initializers, and the
    /// set-up of the Core Animation layer of the kind.
    package func becomeGradientLayer() {
        if state.gradient == nil { state.gradient = GradientState() }
    }

    fileprivate func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<GradientState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, GradientState> = \LayerState.gradient!
        change(key, part.appending(path: kp), v)
    }

    @_disfavoredOverload public var colors: [Color] {
        get { state.gradient!.colors }
        set { set("colors", \.colors, newValue) }
    }

    /// Where each colour sits, 0…1; nil spaces them evenly.
    @_disfavoredOverload public var locations: [Double]? {
        get { state.gradient!.locations }
        set { set("locations", \.locations, newValue) }
    }

    @_disfavoredOverload public var startPoint: Point {
        get { state.gradient!.startPoint }
        set { set("startPoint", \.startPoint, newValue.cleaned(nan: Point(x: 0.5, y: 0))) }
    }

    @_disfavoredOverload public var endPoint: Point {
        get { state.gradient!.endPoint }
        set { set("endPoint", \.endPoint, newValue.cleaned(nan: Point(x: 0.5, y: 1))) }
    }

    @_disfavoredOverload public var type: GradientLayer.Kind {
        get { state.gradient!.type }
        set { set("type", \.type, newValue) }
    }
}
