import StrataGraphics

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

/// A layer that fills its bounds with a gradient (`CAGradientLayer`).
///
/// `startPoint` and `endPoint` are in unit coordinates of the bounds. Axial
/// gradients run from start to end; radial ones are ellipses centred on the
/// start point reaching the end point (the ellipse fits the rectangle the two
/// points span); conic ones turn about the start point, beginning in the
/// direction of the end point. Colours and locations animate when the counts
/// match.
open class GradientLayer: Layer {
    public enum Kind: Hashable, Sendable {
        case axial, radial, conic
    }

    public override init() {
        super.init()
        state.gradient = GradientState()
    }

    public required init(layer: Layer) {
        super.init(layer: layer)
        if state.gradient == nil { state.gradient = GradientState() }
    }

    private func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<GradientState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, GradientState> = \LayerState.gradient!
        change(key, part.appending(path: kp), v)
    }

    public var colors: [Color] {
        get { state.gradient!.colors }
        set { set("colors", \.colors, newValue) }
    }
    /// Where each colour sits, 0…1; nil spaces them evenly.
    public var locations: [Double]? {
        get { state.gradient!.locations }
        set { set("locations", \.locations, newValue) }
    }
    public var startPoint: Point {
        get { state.gradient!.startPoint }
        set { set("startPoint", \.startPoint, newValue.cleaned(nan: Point(x: 0.5, y: 0))) }
    }
    public var endPoint: Point {
        get { state.gradient!.endPoint }
        set { set("endPoint", \.endPoint, newValue.cleaned(nan: Point(x: 0.5, y: 1))) }
    }
    public var type: Kind {
        get { state.gradient!.type }
        set { set("type", \.type, newValue) }
    }
}
