public import Foundation
import StrataGraphics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A kind of particle an `EmitterLayer` emits (`CAEmitterCell`). Every value
/// has Core Animation's meaning and default; "range" values spread each
/// particle's value uniformly by ± that much, "speed" values change it per
/// second of the particle's life.
///
/// A cell draws its `contents` (nothing without). Sub-cells in `emitterCells`
/// are emitted by each particle of this cell while it lives, from where it is.
public struct EmitterCell: Sendable, Equatable {
    public var name: String?
    public var isEnabled = true
    /// Particles a second (times the layer's `birthRate`).
    public var birthRate = 0.0
    /// Seconds a particle lives (times the layer's `lifetime`).
    public var lifetime = 0.0
    public var lifetimeRange = 0.0
    /// When, in seconds after the layer starts emitting, this cell starts,
    /// and for how long it emits (0: for ever).
    public var beginTime = 0.0
    public var duration = 0.0
    /// The direction of emission: longitude is the angle in the x-y plane from
    /// the x axis (towards +y, which is down), latitude the angle out of it
    /// towards +z. `emissionRange` spreads the longitude by ± half of it
    /// (2π: every direction in the plane).
    public var emissionLatitude = 0.0
    public var emissionLongitude = 0.0
    public var emissionRange = 0.0
    /// Points a second.
    public var velocity = 0.0
    public var velocityRange = 0.0
    /// Points a second, a second.
    public var xAcceleration = 0.0
    public var yAcceleration = 0.0
    public var zAcceleration = 0.0
    public var scale = 1.0
    public var scaleRange = 0.0
    public var scaleSpeed = 0.0
    /// Radians a second.
    public var spin = 0.0
    public var spinRange = 0.0
    /// Multiplies the contents' colours.
    public var color = Color.white
    public var redRange = 0.0, greenRange = 0.0, blueRange = 0.0, alphaRange = 0.0
    public var redSpeed = 0.0, greenSpeed = 0.0, blueSpeed = 0.0, alphaSpeed = 0.0
    public var contents: Image?
    /// The part of `contents` drawn, in unit coordinates.
    public var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    /// Pixels of `contents` per point.
    public var contentsScale = 1.0
    public var emitterCells: [EmitterCell] = []

    public init() {}
}

/// A layer that emits and draws particles (`CAEmitterLayer`).
///
/// Particles are not simulated step by step: each one's life follows from
/// its cell, the layer's values, `seed` and the time since the layer began
/// emitting (when it was first committed to a host, or `emitterBeginTime`).
/// Births are evenly spaced (a cell of birth rate r emits at 1/r, 2/r, …
/// seconds), and each particle's random values come from a hash of the seed,
/// its cell and its birth number. So a given seed and time always give the
/// same picture, whatever the frame rate, and an emitter can be tested by
/// image. (Changing a rate mid-flight re-spaces the births.)
///
/// Where particles are born: `emitterShape` around `emitterPosition` (and
/// `emitterZPosition`), of `emitterSize` (`emitterDepth` for the 3D shapes;
/// circles and spheres have radius `emitterSize.width / 2`), by `emitterMode`:
/// `.points` at the shape's defining points (the point, a line's two ends, a
/// rectangle's four corners, a cuboid's eight, a circle's or sphere's centre);
/// `.outline` on its outline (a cuboid's edges, a sphere's equator);
/// `.surface` on its surface (a line, a rectangle's or circle's area, a
/// cuboid's faces, a sphere's skin); `.volume` anywhere inside (the area, for
/// flat shapes).
///
/// Particles are drawn flat (z is used only by `.backToFront`), each its
/// cell's contents centred on the particle, scaled, spun and multiplied by its
/// colour. At most `maximumParticles` live at once: beyond that the oldest of
/// each cell are not drawn. Negative or non-finite rates, lifetimes and scales
/// count as 0.
open class EmitterLayer: Layer, EmitterLayerProperties {
    public enum Shape: Hashable, Sendable { case point, line, rectangle, circle, cuboid, sphere }
    public enum Mode: Hashable, Sendable { case points, outline, surface, volume }
    public enum RenderMode: Hashable, Sendable { case unordered, oldestFirst, oldestLast, backToFront, additive }

    public override init() {
        super.init()
        becomeEmitterLayer()
        setNeedsDisplay()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeEmitterLayer()
    }

    open override func display() { startEmission() }
}

/// What a `EmitterLayer` has, in Strata's types: declared here rather than in
/// the class so that QuartzCore's Core Animation class of the same kind,
/// which is a `Layer` of this kind but not a `EmitterLayer`, has them too (see
/// `LayerProperties`).
@MainActor
public protocol EmitterLayerProperties: Layer {}

extension EmitterLayerProperties {
    /// Starts the emission at the layer's first commit in a host (an emitter
    /// layer's `display()`).
    package func startEmission() {
        if state.emitter!.beginTime == nil, clock != nil {
            state.emitter!.beginTime = currentMediaTime
            markDirty()
        }
    }

    /// Makes the layer one of this kind: its class's initializers, and the
    /// set-up of the Core Animation layer of the kind.
    package func becomeEmitterLayer() {
        if state.emitter == nil { state.emitter = EmitterState() }
    }

    fileprivate func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<EmitterState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, EmitterState> = \LayerState.emitter!
        change(key, part.appending(path: kp), v)
    }

    @_disfavoredOverload public var emitterCells: [EmitterCell] {
        get { state.emitter!.cells }
        set { set("emitterCells", \.cells, newValue) }
    }

    /// Multiplies every cell's birth rate (default 1).
    @_disfavoredOverload public var birthRate: Double {
        get { state.emitter!.birthRate }
        set { set("birthRate", \.birthRate, newValue.clamped(LayerLimits.coordinate, nan: 1)) }
    }

    /// Multiplies every cell's lifetime (default 1).
    @_disfavoredOverload public var lifetime: Double {
        get { state.emitter!.lifetime }
        set { set("lifetime", \.lifetime, newValue.clamped(LayerLimits.coordinate, nan: 1)) }
    }

    @_disfavoredOverload public var emitterPosition: Point {
        get { state.emitter!.position }
        set { set("emitterPosition", \.position, newValue.cleaned()) }
    }

    @_disfavoredOverload public var emitterZPosition: Double {
        get { state.emitter!.zPosition }
        set { set("emitterZPosition", \.zPosition, newValue.clamped(LayerLimits.coordinate)) }
    }

    @_disfavoredOverload public var emitterSize: Size {
        get { state.emitter!.size }
        set { set("emitterSize", \.size, newValue.cleaned()) }
    }

    @_disfavoredOverload public var emitterDepth: Double {
        get { state.emitter!.depth }
        set { set("emitterDepth", \.depth, newValue.clamped(LayerLimits.coordinate)) }
    }

    @_disfavoredOverload public var emitterShape: EmitterLayer.Shape {
        get { state.emitter!.shape }
        set { set("emitterShape", \.shape, newValue) }
    }

    @_disfavoredOverload public var emitterMode: EmitterLayer.Mode {
        get { state.emitter!.mode }
        set { set("emitterMode", \.mode, newValue) }
    }

    @_disfavoredOverload public var renderMode: EmitterLayer.RenderMode {
        get { state.emitter!.renderMode }
        set { set("renderMode", \.renderMode, newValue) }
    }

    /// Multiplies every cell's velocity (default 1).
    @_disfavoredOverload public var velocity: Double {
        get { state.emitter!.velocity }
        set { set("velocity", \.velocity, newValue.clamped(LayerLimits.coordinate, nan: 1)) }
    }

    /// Multiplies every cell's scale (default 1).
    @_disfavoredOverload public var scale: Double {
        get { state.emitter!.scale }
        set { set("scale", \.scale, newValue.clamped(LayerLimits.coordinate, nan: 1)) }
    }

    /// Multiplies every cell's spin (default 1).
    @_disfavoredOverload public var spin: Double {
        get { state.emitter!.spin }
        set { set("spin", \.spin, newValue.clamped(LayerLimits.coordinate, nan: 1)) }
    }

    /// Chooses the particles' random values.
    @_disfavoredOverload public var seed: UInt32 {
        get { state.emitter!.seed }
        set { set("seed", \.seed, newValue) }
    }

    /// The media time emission began; nil until the layer's first commit in
    /// a host, which sets it to that moment. Set it to restart or align.
    @_disfavoredOverload public var emitterBeginTime: Double? {
        get { state.emitter!.beginTime }
        set { set("emitterBeginTime", \.beginTime, newValue) }
    }

    /// The most particles alive at once (default 100,000).
    @_disfavoredOverload public var maximumParticles: Int {
        get { state.emitter!.maximumParticles }
        set { set("maximumParticles", \.maximumParticles, max(0, newValue)) }
    }

    /// The particles alive `seconds` after emission began (for inspection and
    /// tests): where they are, in layer coordinates, and how they look.
    @_disfavoredOverload public func particles(atEmitterTime seconds: Double) -> [Particle] {
        state.emitter!.particles(at: seconds)
    }
}

/// One live particle.
public struct Particle: Sendable, Equatable {
    /// Which cell: indices into `emitterCells`, then into sub-cells.
    public var cell: [Int]
    /// When it was born, seconds after emission began.
    public var birth: Double
    public var position: SIMD3<Double>
    public var scale: Double
    /// Radians.
    public var angle: Double
    public var color: Color
}

/// What an emitter layer emits: its cells and values.
struct EmitterState: Sendable {
    var cells: [EmitterCell] = [] {
        didSet { flat = EmitterState.flatten(cells) }
    }
    var birthRate = 1.0
    var lifetime = 1.0
    var position = Point.zero
    var zPosition = 0.0
    var size = Size.zero
    var depth = 0.0
    var shape = EmitterLayer.Shape.point
    var mode = EmitterLayer.Mode.volume
    var renderMode = EmitterLayer.RenderMode.unordered
    var velocity = 1.0
    var scale = 1.0
    var spin = 1.0
    var seed: UInt32 = 0
    var beginTime: Double?
    var maximumParticles = 100_000
    /// Every cell and sub-cell, depth first: its path, its contents cut to
    /// its contents rect, and where its sub-cells are in this list.
    private(set) var flat: [FlatCell] = []
    var roots: [Int] { flat.indices.filter { flat[$0].path.count == 1 } }

    struct FlatCell: Sendable {
        var path: [Int]
        var cell: EmitterCell
        var image: Image?
        var contentsScale: Double
        var children: [Int]
        var key: UInt64
    }

    static func flatten(_ cells: [EmitterCell]) -> [FlatCell] {
        var out: [FlatCell] = []
        func add(_ c: EmitterCell, _ path: [Int]) -> Int {
            let index = out.count
            var image: Image?
            if let contents = c.contents {
                let r = c.contentsRect
                if r == Rect(x: 0, y: 0, width: 1, height: 1) {
                    image = contents
                } else if r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite {
                    let x0 = max(0, Int(saturating: (r.minX * Double(contents.width)).rounded()))
                    let y0 = max(0, Int(saturating: (r.minY * Double(contents.height)).rounded()))
                    let x1 = min(contents.width, Int(saturating: (r.maxX * Double(contents.width)).rounded()))
                    let y1 = min(contents.height, Int(saturating: (r.maxY * Double(contents.height)).rounded()))
                    if x1 > x0, y1 > y0 { image = contents.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0) }
                }
            }
            let scale = c.contentsScale.isFinite && c.contentsScale > 0 ? c.contentsScale : 1
            let key = path.reduce(UInt64(0x5DEE_CE66)) { mix($0 ^ UInt64($1 + 1)) }
            out.append(FlatCell(path: path, cell: c, image: image, contentsScale: scale, children: [], key: key))
            var children: [Int] = []
            for (j, sub) in c.emitterCells.enumerated() { children.append(add(sub, path + [j])) }
            out[index].children = children
            return index
        }
        for (i, c) in cells.enumerated() { _ = add(c, [i]) }
        return out
    }

    /// The particles alive at emitter time `t`, in drawing order.
    func particles(at t: Double) -> [Particle] {
        rawParticles(at: t).map {
            Particle(cell: flat[$0.cell].path, birth: $0.birth, position: $0.position, scale: $0.scale, angle: $0.angle, color: $0.color)
        }
    }

    /// A particle with its cell as an index into `flat`.
    struct RawParticle {
        var cell: Int
        var birth: Double
        var position: SIMD3<Double>
        var scale: Double
        var angle: Double
        var color: Color
    }

    func rawParticles(at t: Double) -> [RawParticle] {
        guard t.isFinite, t >= 0 else { return [] }
        var out: [RawParticle] = []
        let budget = max(0, maximumParticles)
        let layerRate = orZero(birthRate), layerLife = orZero(lifetime)
        for i in roots {
            emit(i, from: nil, rate: layerRate, life: layerLife, at: t, budget: budget, into: &out, depth: 0)
        }
        switch renderMode {
        case .unordered, .additive: break
        case .oldestFirst: out.sort { $0.birth < $1.birth }
        case .oldestLast: out.sort { $0.birth > $1.birth }
        case .backToFront: out.sort { $0.position.z < $1.position.z }
        }
        return out
    }

    /// Where a particle of a parent was at a time, for sub-cells.
    struct Parent {
        var birth: Double
        var death: Double
        var origin: SIMD3<Double>
        var velocity: SIMD3<Double>
        var acceleration: SIMD3<Double>
        func position(at time: Double) -> SIMD3<Double> {
            let a = time - birth
            return origin + velocity * a + acceleration * (0.5 * a * a)
        }
    }

    private func emit(
        _ index: Int, from parent: Parent?, rate layerRate: Double, life layerLife: Double,
        at t: Double, budget: Int, into out: inout [RawParticle], depth: Int
    ) {
        let cell = flat[index].cell
        guard cell.isEnabled, out.count < budget else { return }
        if out.capacity == 0 { out.reserveCapacity(min(budget, 4096)) }
        let rate = orZero(cell.birthRate) * layerRate
        let maxLife = max(0, (orZero(cell.lifetime) + abs(orZero(cell.lifetimeRange))) * layerLife)
        guard rate > 0, maxLife > 0 else { return }
        // The window of births that can be alive at t.
        let start = (parent?.birth ?? 0) + (parent == nil ? orZero(cell.beginTime) : 0)
        var end = min(t, parent?.death ?? t)
        if parent == nil, cell.duration > 0, cell.duration.isFinite { end = min(end, start + cell.duration) }
        let first = max(start, t - maxLife)
        guard end >= first else { return }
        // Births at start + k / rate, k = 1, 2, …
        var k0 = Int(saturating: ((first - start) * rate).rounded(.down))
        let k1 = Int(saturating: ((end - start) * rate).rounded(.down))
        guard k1 >= 1 else { return }
        k0 = max(1, k0)
        // Keep within the budget: the newest births win.
        let room = budget - out.count
        if k1 - k0 + 1 > room { k0 = k1 - room + 1 }
        guard k0 <= k1 else { return }
        let cellKey = mix(UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 ^ flat[index].key)
        let parentKey = parent.map { UInt64(bitPattern: Int64(Int(saturating: ($0.birth * 1e6).rounded()))) } ?? 0
        for k in k0...k1 {
            var r = Random(state: mix(cellKey ^ mix(UInt64(k) ^ parentKey)))
            let birth = start + Double(k) / rate
            let life = max(0, (orZero(cell.lifetime) + orZero(cell.lifetimeRange) * r.signed()) * layerLife)
            let age = t - birth
            let origin = parent?.position(at: birth) ?? bornAt(&r)
            let speed = (orZero(cell.velocity) + orZero(cell.velocityRange) * r.signed()) * orZero(velocity)
            let longitude = orZero(cell.emissionLongitude) + orZero(cell.emissionRange) * 0.5 * r.signed()
            let latitude = orZero(cell.emissionLatitude)
            let direction = SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
            let v = direction * speed
            let acc = SIMD3(orZero(cell.xAcceleration), orZero(cell.yAcceleration), orZero(cell.zAcceleration))
            let scaleBase = orZero(cell.scale) + orZero(cell.scaleRange) * r.signed()
            let spinRate = (orZero(cell.spin) + orZero(cell.spinRange) * r.signed()) * orZero(spin)
            let dr = orZero(cell.redRange) * r.signed(), dg = orZero(cell.greenRange) * r.signed()
            let db = orZero(cell.blueRange) * r.signed(), da = orZero(cell.alphaRange) * r.signed()
            if !flat[index].children.isEmpty, depth < 3 {
                let me = Parent(birth: birth, death: birth + life, origin: origin, velocity: v, acceleration: acc)
                for child in flat[index].children {
                    emit(child, from: me, rate: 1, life: layerLife, at: t, budget: budget, into: &out, depth: depth + 1)
                }
            }
            guard age < life, out.count < budget else { continue }
            let position = origin + v * age + acc * (0.5 * age * age)
            let s = max(0, (scaleBase + orZero(cell.scaleSpeed) * age) * orZero(scale))
            let c = cell.color
            let color = Color(
                red: clamp01(c.red + dr + orZero(cell.redSpeed) * age),
                green: clamp01(c.green + dg + orZero(cell.greenSpeed) * age),
                blue: clamp01(c.blue + db + orZero(cell.blueSpeed) * age),
                alpha: clamp01(c.alpha + da + orZero(cell.alphaSpeed) * age))
            out.append(RawParticle(cell: index, birth: birth, position: position, scale: s, angle: spinRate * age, color: color))
        }
    }

    /// A birth place on the emitter's shape, by its mode.
    private func bornAt(_ r: inout Random) -> SIMD3<Double> {
        let c = SIMD3(position.x, position.y, zPosition)
        let w = orZero(size.width), h = orZero(size.height), d = orZero(depth)
        let hw = w / 2, hh = h / 2, hd = d / 2
        switch (shape, mode) {
        case (.point, _):
            return c
        case (.line, .points):
            return c + SIMD3(r.unit() < 0.5 ? -hw : hw, 0, 0)
        case (.line, _):
            return c + SIMD3(hw * r.signed(), 0, 0)
        case (.rectangle, .points):
            return c + SIMD3(r.unit() < 0.5 ? -hw : hw, r.unit() < 0.5 ? -hh : hh, 0)
        case (.rectangle, .outline):
            // Uniform along the perimeter.
            let p = r.unit() * 2 * (w + h)
            if p < w { return c + SIMD3(-hw + p, -hh, 0) }
            if p < w + h { return c + SIMD3(hw, -hh + (p - w), 0) }
            if p < 2 * w + h { return c + SIMD3(hw - (p - w - h), hh, 0) }
            return c + SIMD3(-hw, hh - (p - 2 * w - h), 0)
        case (.rectangle, _):
            return c + SIMD3(hw * r.signed(), hh * r.signed(), 0)
        case (.circle, .points), (.sphere, .points):
            return c
        case (.circle, .outline), (.sphere, .outline):
            let a = r.unit() * 2 * .pi
            return c + SIMD3(hw * cos(a), hw * sin(a), 0)
        case (.circle, _):
            let a = r.unit() * 2 * .pi, rr = hw * r.unit().squareRoot()
            return c + SIMD3(rr * cos(a), rr * sin(a), 0)
        case (.sphere, .surface), (.sphere, .volume):
            let zz = r.signed(), a = r.unit() * 2 * .pi
            let ring = (1 - zz * zz).squareRoot()
            let rr = mode == .volume ? hw * cbrt(r.unit()) : hw
            return c + SIMD3(ring * cos(a), ring * sin(a), zz) * rr
        case (.cuboid, .points):
            return c + SIMD3(r.unit() < 0.5 ? -hw : hw, r.unit() < 0.5 ? -hh : hh, r.unit() < 0.5 ? -hd : hd)
        case (.cuboid, .outline):
            // One of the 12 edges, chosen by length, then a point along it.
            let pick = r.unit() * 4 * (w + h + d), along = r.signed()
            let sx: Double = r.unit() < 0.5 ? -1 : 1, sy: Double = r.unit() < 0.5 ? -1 : 1
            if pick < 4 * w { return c + SIMD3(hw * along, hh * sx, hd * sy) }
            if pick < 4 * (w + h) { return c + SIMD3(hw * sx, hh * along, hd * sy) }
            return c + SIMD3(hw * sx, hh * sy, hd * along)
        case (.cuboid, .surface):
            let pick = r.unit() * 2 * (w * h + h * d + w * d), s: Double = r.unit() < 0.5 ? -1 : 1
            let a = r.signed(), b = r.signed()
            if pick < 2 * w * h { return c + SIMD3(hw * a, hh * b, hd * s) }
            if pick < 2 * (w * h + h * d) { return c + SIMD3(hw * s, hh * a, hd * b) }
            return c + SIMD3(hw * a, hh * s, hd * b)
        case (.cuboid, .volume):
            return c + SIMD3(hw * r.signed(), hh * r.signed(), hd * r.signed())
        }
    }
}

@inline(__always) private func orZero(_ v: Double) -> Double { v.isFinite ? v : 0 }

/// The first value of a `SplitMix64` seeded with `x`: a well-mixed hash.
@inline(__always) private func mix(_ x: UInt64) -> UInt64 {
    SplitMix64.mix(x &+ 0x9E37_79B9_7F4A_7C15)
}

/// SplitMix64 draws for one particle.
private struct Random {
    var state: UInt64
    /// In [0, 1).
    mutating func unit() -> Double {
        state = mix(state)
        return Double(state >> 11) * 0x1p-53
    }
    /// In [−1, 1).
    mutating func signed() -> Double { unit() * 2 - 1 }
}

extension LayerState {
    /// An emitter layer's part of the state; nil for other layers.
    var emitter: EmitterState? {
        get { special as? EmitterState }
        set { special = newValue }
    }
}

/// An emitter's particles in one frame (its `FrameNode.specialData`).
final class EmitterFrame: SpecialFrameData {
    let particles: [EmitterState.RawParticle]
    init(_ particles: [EmitterState.RawParticle]) { self.particles = particles }
}

extension EmitterState: SpecialLayerState {
    /// The particles alive at the frame's time, once emission has begun: they
    /// fly beyond the bounds, and change every frame.
    func prepareFrame(for layer: FrameNode, at time: Double, in pass: FramePass) -> SpecialFrame? {
        guard let begin = beginTime, !cells.isEmpty else { return nil }
        let particles = rawParticles(at: time - begin)
        return SpecialFrame(box: deviceBox(of: particles, layer.transform, in: pass), isAnimated: true, data: EmitterFrame(particles))
    }

    /// The device box of `particles` (for damage): each cell's contents
    /// reach from the particle's centre, times its scale.
    func deviceBox(of particles: [RawParticle], _ m: Transform3D, in pass: FramePass) -> Rect {
        guard !particles.isEmpty else { return .null }
        let reach = flat.map { f in f.image.map { Double(max($0.width, $0.height)) / f.contentsScale * 0.75 } ?? -1 }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in particles {
            let r = reach[p.cell] * p.scale
            guard r >= 0 else { continue }
            minX = min(minX, p.position.x - r); maxX = max(maxX, p.position.x + r)
            minY = min(minY, p.position.y - r); maxY = max(maxY, p.position.y + r)
        }
        guard minX <= maxX else { return .null }
        return pass.deviceBox(of: Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY), m)
    }

    /// Draws the frame's particles in layer coordinates (the canvas is in them).
    func draw(_ layer: FrameNode, in canvas: Canvas) {
        guard let particles = (layer.specialData as? EmitterFrame)?.particles else { return }
        var images: [Image] = []
        var slots: [Int] = []
        for f in flat {
            if let image = f.image {
                slots.append(images.count)
                images.append(image)
            } else {
                slots.append(-1)
            }
        }
        var sprites: [Sprite] = []
        sprites.reserveCapacity(particles.count)
        for p in particles {
            let slot = slots[p.cell]
            guard slot >= 0, p.scale > 0 else { continue }
            let image = images[slot]
            let k = p.scale / flat[p.cell].contentsScale
            let c = cos(p.angle) * k, s = sin(p.angle) * k
            let hw = Double(image.width) / 2, hh = Double(image.height) / 2
            // Centre on the particle, scaled and turned: (x − hw, y − hh)
            // rotated and scaled, then moved to the particle.
            let t = Transform(
                a: c, b: s, c: -s, d: c,
                tx: p.position.x - (hw * c - hh * s), ty: p.position.y - (hw * s + hh * c))
            sprites.append(Sprite(image: slot, transform: t, color: tinted(p.color, layer.tint)))
        }
        guard !sprites.isEmpty else { return }
        canvas.saveGState()
        if renderMode == .additive { canvas.blendMode = .plusLighter }
        canvas.drawSprites(images, sprites, inAnyOrder: renderMode == .additive || renderMode == .unordered)
        canvas.restoreGState()
    }
}
