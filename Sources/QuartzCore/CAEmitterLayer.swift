public import CoreGraphics
internal import StrataGraphics
public import StrataLayers

/// A kind of particle an emitter makes (`CAEmitterCell`): how many a
/// second, how long they live, how they move, turn, scale and fade, and
/// their image. Cells may hold cells of their own.
@MainActor
open class CAEmitterCell {
    public var name: String?
    public var isEnabled = true
    public var birthRate: Float = 0
    public var lifetime: Float = 0
    public var lifetimeRange: Float = 0
    public var beginTime: CFTimeInterval = 0
    public var duration: CFTimeInterval = 0
    public var emissionLatitude: CGFloat = 0
    public var emissionLongitude: CGFloat = 0
    public var emissionRange: CGFloat = 0
    public var velocity: CGFloat = 0
    public var velocityRange: CGFloat = 0
    public var xAcceleration: CGFloat = 0
    public var yAcceleration: CGFloat = 0
    public var zAcceleration: CGFloat = 0
    public var scale: CGFloat = 1
    public var scaleRange: CGFloat = 0
    public var scaleSpeed: CGFloat = 0
    public var spin: CGFloat = 0
    public var spinRange: CGFloat = 0
    public var color: CGColor? = CGColor(gray: 1, alpha: 1)
    public var redRange: Float = 0, greenRange: Float = 0, blueRange: Float = 0, alphaRange: Float = 0
    public var redSpeed: Float = 0, greenSpeed: Float = 0, blueSpeed: Float = 0, alphaSpeed: Float = 0
    /// The particle's image: a `CGImage`.
    public var contents: Any?
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    public var contentsScale: CGFloat = 1
    public var emitterCells: [CAEmitterCell]?

    public init() {}

    /// The cell as Strata's emitter takes it.
    var strata: EmitterCell {
        var c = EmitterCell()
        c.name = name
        c.isEnabled = isEnabled
        (c.birthRate, c.lifetime, c.lifetimeRange) = (Double(birthRate), Double(lifetime), Double(lifetimeRange))
        (c.beginTime, c.duration) = (beginTime, duration)
        (c.emissionLatitude, c.emissionLongitude, c.emissionRange) = (Double(emissionLatitude), Double(emissionLongitude), Double(emissionRange))
        (c.velocity, c.velocityRange) = (Double(velocity), Double(velocityRange))
        (c.xAcceleration, c.yAcceleration, c.zAcceleration) = (Double(xAcceleration), Double(yAcceleration), Double(zAcceleration))
        (c.scale, c.scaleRange, c.scaleSpeed) = (Double(scale), Double(scaleRange), Double(scaleSpeed))
        (c.spin, c.spinRange) = (Double(spin), Double(spinRange))
        c.color = color?.strata ?? .white
        (c.redRange, c.greenRange, c.blueRange, c.alphaRange) = (Double(redRange), Double(greenRange), Double(blueRange), Double(alphaRange))
        (c.redSpeed, c.greenSpeed, c.blueSpeed, c.alphaSpeed) = (Double(redSpeed), Double(greenSpeed), Double(blueSpeed), Double(alphaSpeed))
        c.contents = (contents as? CGImage)?.image
        c.contentsRect = contentsRect.strata
        c.contentsScale = Double(contentsScale)
        c.emitterCells = (emitterCells ?? []).map(\.strata)
        return c
    }
}

/// A layer that emits particles (`CAEmitterLayer`). Its cells are read
/// when `emitterCells` is set: set it again after changing a cell.
@MainActor
open class CAEmitterLayer: CALayer, EmitterLayerProperties {
    /// This layer as a Strata emitter layer.
    private var emitter: any EmitterLayerProperties { self }

    override func setUp() {
        super.setUp()
        becomeEmitterLayer()
        setNeedsDisplay()
    }

    /// Starts the emission at the layer's first commit in a host.
    open override func display() { startEmission() }

    public var emitterCells: [CAEmitterCell]? {
        didSet { emitter.emitterCells = (emitterCells ?? []).map(\.strata) }
    }
    public var birthRate: Float {
        get { Float(emitter.birthRate) }
        set { emitter.birthRate = Double(newValue) }
    }
    public var lifetime: Float {
        get { Float(emitter.lifetime) }
        set { emitter.lifetime = Double(newValue) }
    }
    public var emitterPosition: CGPoint {
        get { CGPoint(emitter.emitterPosition) }
        set { emitter.emitterPosition = newValue.strata }
    }
    public var emitterZPosition: CGFloat {
        get { emitter.emitterZPosition }
        set { emitter.emitterZPosition = Double(newValue) }
    }
    public var emitterSize: CGSize {
        get { CGSize(width: emitter.emitterSize.width, height: emitter.emitterSize.height) }
        set { emitter.emitterSize = newValue.strata }
    }
    public var emitterDepth: CGFloat {
        get { emitter.emitterDepth }
        set { emitter.emitterDepth = Double(newValue) }
    }
    public var emitterShape: CAEmitterLayerEmitterShape {
        get { CAEmitterLayerEmitterShape(rawValue: "\(emitter.emitterShape)") }
        set {
            let shapes: [CAEmitterLayerEmitterShape: EmitterLayer.Shape] = [
                .point: .point, .line: .line, .rectangle: .rectangle, .circle: .circle, .cuboid: .cuboid, .sphere: .sphere,
            ]
            emitter.emitterShape = shapes[newValue] ?? .point
        }
    }
    public var emitterMode: CAEmitterLayerEmitterMode {
        get { CAEmitterLayerEmitterMode(rawValue: "\(emitter.emitterMode)") }
        set {
            let modes: [CAEmitterLayerEmitterMode: EmitterLayer.Mode] = [.points: .points, .outline: .outline, .surface: .surface, .volume: .volume]
            emitter.emitterMode = modes[newValue] ?? .volume
        }
    }
    public var renderMode: CAEmitterLayerRenderMode {
        get { CAEmitterLayerRenderMode(rawValue: "\(emitter.renderMode)") }
        set {
            let modes: [CAEmitterLayerRenderMode: EmitterLayer.RenderMode] = [
                .unordered: .unordered, .oldestFirst: .oldestFirst, .oldestLast: .oldestLast, .backToFront: .backToFront,
                .additive: .additive,
            ]
            emitter.renderMode = modes[newValue] ?? .unordered
        }
    }
    public var velocity: Float {
        get { Float(emitter.velocity) }
        set { emitter.velocity = Double(newValue) }
    }
    public var scale: Float {
        get { Float(emitter.scale) }
        set { emitter.scale = Double(newValue) }
    }
    public var spin: Float {
        get { Float(emitter.spin) }
        set { emitter.spin = Double(newValue) }
    }
    /// The seed of the particles' random values: a seed and a time always
    /// give the same picture.
    public var seed: UInt32 {
        get { emitter.seed }
        set { emitter.seed = newValue }
    }
}

/// The shapes particles are born on.
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let point = CAEmitterLayerEmitterShape(rawValue: "point")
    public static let line = CAEmitterLayerEmitterShape(rawValue: "line")
    public static let rectangle = CAEmitterLayerEmitterShape(rawValue: "rectangle")
    public static let circle = CAEmitterLayerEmitterShape(rawValue: "circle")
    public static let cuboid = CAEmitterLayerEmitterShape(rawValue: "cuboid")
    public static let sphere = CAEmitterLayerEmitterShape(rawValue: "sphere")
}

/// Where on the shape particles are born.
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}

/// The order particles are drawn in.
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    public static let backToFront = CAEmitterLayerRenderMode(rawValue: "backToFront")
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}

/// A layer whose sublayers scroll within its bounds (`CAScrollLayer`).
@MainActor
open class CAScrollLayer: CALayer, ScrollingLayer {
    override func setUp() {
        super.setUp()
        strata.masksToBounds = true
    }

    /// The axes `scroll(to:)` may move (`both` by default).
    public var scrollMode = CAScrollLayerScrollMode.both

    package var scrollAxes: ScrollLayer.ScrollMode {
        switch scrollMode {
        case .none: .none
        case .vertically: .vertically
        case .horizontally: .horizontally
        default: .both
        }
    }

    /// Scrolls so that `p` is the bounds' origin.
    public func scroll(to p: CGPoint) { scrollOrigin(to: p.strata) }
    /// Scrolls the least that shows `r`. A null rectangle, or one that is
    /// not finite, is ignored (converted, a null one would read as the empty
    /// rectangle at the origin).
    public func scroll(to r: CGRect) {
        guard !r.isNull, r.origin.x.isFinite, r.origin.y.isFinite, r.width.isFinite, r.height.isFinite else { return }
        scrollOrigin(toShow: r.strata)
    }
}

/// The axes a scroll layer scrolls along.
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = CAScrollLayerScrollMode(rawValue: "none")
    public static let vertically = CAScrollLayerScrollMode(rawValue: "vertically")
    public static let horizontally = CAScrollLayerScrollMode(rawValue: "horizontally")
    public static let both = CAScrollLayerScrollMode(rawValue: "both")
}
