import StrataGraphics
import StrataText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns render trees into frames: evaluates animations at the frame's time,
/// composites the layers into a frame buffer it keeps, and redraws only the
/// damaged region, the union of what changed since the previous frame.
///
/// A compositor is used from one thread at a time (the renderer's); it is not
/// `Sendable`.
public final class Compositor {
    public let width: Int
    public let height: Int
    /// Device pixels per point.
    public let scale: Double
    /// What shows where no layer draws.
    public var backgroundColor: Color {
        didSet { records.removeAll() }
    }
    /// The frame buffer, as of the last `render`.
    public let frame: Bitmap
    /// The rectangles redrawn by the last `render`, in device pixels.
    public private(set) var lastDamage: [Rect] = []

    /// The media time of the frame being rendered.
    var currentTime = 0.0

    /// What each layer drew in the previous frame, by layer (and replicator copy).
    var records: [Int: Record] = [:]
    /// Blurred shadow masks, by layer, with what they were made from.
    var shadowCache: [Int: (signature: Int, mask: CoverageMask, origin: (Int, Int))] = [:]

    struct Record: Equatable {
        var version: Int
        var transform: Homography
        var opacity: Double
        var clip: Rect
        var box: Rect
        var animated: Bool
        var extra: Int
    }

    public init(width: Int, height: Int, scale: Double = 1, backgroundColor: Color = .white) throws {
        frame = try Bitmap(width: width, height: height)
        self.width = width
        self.height = height
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        self.backgroundColor = backgroundColor
    }

    /// The whole frame, as a rectangle.
    var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// Renders `root` at media time `time`: finds what changed since the last
    /// frame and redraws only that. Returns the damaged rectangles.
    @discardableResult
    public func render(_ root: RenderNode?, at time: Double) -> [Rect] {
        currentTime = time
        var next: [Int: Record] = [:]
        next.reserveCapacity(records.count)
        var damage = DamageRegion(bounds: bounds)
        let prepared = root.map {
            prepare($0, parent: Transform3D(scaleX: scale, y: scale), parentSub: .identity, opacity: 1, clip: bounds,
                    time: time, tint: nil, key: 0, next: &next, damage: &damage)
        } ?? nil
        // Layers that drew before and are gone now.
        for (key, old) in records where next[key] == nil { damage.add(old.box) }
        records = next
        // Shadows of layers that no longer draw are dropped, so the cache holds
        // at most one mask per layer on screen.
        if shadowCache.count > records.count || shadowCache.keys.contains(where: { records[$0] == nil }) {
            shadowCache = shadowCache.filter { records[$0.key] != nil }
        }
        let rects = damage.rects
        lastDamage = rects
        guard !rects.isEmpty else { return [] }
        let canvas = Canvas(bitmap: frame)
        for rect in rects {
            canvas.saveGState()
            canvas.clip(to: rect)
            canvas.blendMode = .copy
            canvas.fillColor = backgroundColor
            canvas.fill(rect)
            canvas.blendMode = .normal
            if let prepared { draw(prepared, in: canvas, origin: (0, 0), clip: rect, alpha: 1) }
            canvas.restoreGState()
        }
        return rects
    }

    /// Forgets the previous frame, so that the next `render` redraws everything.
    public func invalidate() { records.removeAll() }

    // MARK: Preparing a frame

    /// A layer as it is in this frame: presentation values and device transform.
    final class Prepared {
        let node: RenderNode
        let state: LayerState
        /// Layer coordinates to device pixels (flattened).
        let transform: Transform3D
        let homography: Homography
        /// What the layer itself covers on screen (with its shadow), clipped.
        let box: Rect
        /// With all its sublayers.
        var subtreeBox: Rect
        /// Everything its drawing can touch: the subtree and, when it casts
        /// its shadow from its composited sublayers, that shadow.
        var extent: Rect
        var children: [Prepared] = []
        var mask: Prepared?
        let tint: Color?
        let key: Int
        /// In a transform layer's 3D space: the depth of the layer's centre
        /// (larger is nearer the eye), by which its siblings there are sorted.
        var depth = 0.0
        /// In a transform layer's 3D space: the corners of the bounds after
        /// the projection (x/w, y/w, z/w), where the view is along −z; nil
        /// when a corner is behind the eye.
        var corners3D: [SIMD3<Double>]?
        /// An emitter layer's particles at the frame's time.
        var particles: [EmitterState.RawParticle]?
        /// A tiled layer's tiles on screen, asked for by `prepare`, and those
        /// of them the cache had.
        typealias Tiles = (requests: [TileRequest], found: [(image: Image, alpha: Double)?])
        var tiles: Tiles?
        /// The opacity of the transform layers between this layer and the one
        /// whose children list holds it (they draw nothing themselves).
        var contextAlpha = 1.0

        init(node: RenderNode, state: LayerState, transform: Transform3D, box: Rect, tint: Color?, key: Int) {
            self.node = node
            self.state = state
            self.transform = transform
            self.homography = transform.planeHomography
            self.box = box
            self.subtreeBox = box
            self.extent = box
            self.tint = tint
            self.key = key
        }
    }

    /// Prepares `node` and its subtree. `parent` maps the plane the layer
    /// flattens into to device pixels; `context`, inside transform layers, is
    /// the unflattened map from the layer's superlayer to that plane's 3D space.
    func prepare(_ node: RenderNode, parent: Transform3D, context: Transform3D? = nil, parentSub: Transform3D, opacity: Double,
                 clip: Rect, time: Double, tint: Color?, key: Int, next: inout [Int: Record],
                 damage: inout DamageRegion) -> Prepared? {
        let s = node.presentation(at: time)
        guard !s.isHidden, s.opacity > 0, s.bounds.width.isFinite, s.bounds.height.isFinite else { return nil }
        var m3 = s.localToParent(sublayerTransformOfParent: parentSub)
        if let context { m3 = m3.concatenating(context) }
        let m = m3.flattened.concatenating(parent)
        let recordKey = key == 0 ? node.id : hashKey(key, node.id)
        if s.preservesDepth {
            return prepareTransformLayer(node, s, m3: m3, m: m, parent: parent, opacity: opacity, clip: clip, time: time,
                                         tint: tint, key: key, recordKey: recordKey, next: &next, damage: &damage)
        }
        // A single-sided layer turned away from the eye draws nothing, and
        // neither do the sublayers flattened into it.
        if !s.isDoubleSided && m.planeHomography.determinant < 0 { return nil }
        var box = ownBox(s, m)
        var animated = node.isAnimating(at: time)
        var particles: [EmitterState.RawParticle]?
        if let e = s.emitter, e.beginTime != nil, !e.cells.isEmpty {
            // Particles fly beyond the bounds, and change every frame.
            let frame = emitterFrame(e, m, time: time)
            particles = frame.particles
            box = box.union(frame.box)
            animated = true
        }
        box = box.intersection(clip)
        let p = Prepared(node: node, state: s, transform: m, box: box, tint: tint, key: recordKey)
        p.particles = particles
        if context != nil {
            let c = m3.apply(x: s.bounds.midX, y: s.bounds.midY)
            p.depth = c.w > 1e-12 ? c.z / c.w : c.z
            var corners: [SIMD3<Double>] = []
            for q in s.bounds.corners {
                let r = m3.apply(x: q.x, y: q.y)
                guard r.w > 1e-12 else { break }
                corners.append(SIMD3(r.x / r.w, r.y / r.w, r.z / r.w))
            }
            if corners.count == 4 && corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) {
                p.corners3D = corners
            }
        }
        let childClip = s.masksToBounds ? clip.intersection(deviceBox(of: s.bounds, m)) : clip
        var sub = s.sublayerTransformAboutAnchor
        // What changes below is damage here too, and where this layer casts its
        // shadow from its composited sublayers, also where that shadow falls.
        var childDamage = DamageRegion(bounds: bounds)
        defer {
            let castsGroupShadow = s.shadowOpacity > 0 && s.shadowPath == nil
            for r in childDamage.rects {
                damage.add(r)
                if castsGroupShadow { damage.add(shadowBox(of: r, s)) }
            }
        }
        if let r = s.replicator, r.instanceCount != 1 || !r.instanceTransform.isIdentity || r.instanceDelay != 0 {
            // Replicated sublayers: copy i under the instance transform applied
            // i times (about the anchor), i delays earlier, tinted.
            let a = s.anchorInBounds
            let step = Transform3D(translationX: -a.x, y: -a.y).concatenating(r.instanceTransform)
                .concatenating(Transform3D(translationX: a.x, y: a.y))
            var instance = Transform3D.identity
            for i in 0..<r.instanceCount {
                let c = Color(red: clamp01(r.instanceColor.red + Double(i) * r.instanceRedOffset),
                              green: clamp01(r.instanceColor.green + Double(i) * r.instanceGreenOffset),
                              blue: clamp01(r.instanceColor.blue + Double(i) * r.instanceBlueOffset),
                              alpha: clamp01(r.instanceColor.alpha + Double(i) * r.instanceAlphaOffset))
                let t = multiply(tint, c)
                for child in sortedChildren(node, time: time - Double(i) * r.instanceDelay) {
                    if let cp = prepare(child, parent: m, parentSub: instance.concatenating(sub), opacity: opacity * s.opacity,
                                        clip: childClip, time: time - Double(i) * r.instanceDelay, tint: t,
                                        key: hashKey(recordKey, i + 1), next: &next, damage: &childDamage) {
                        p.children.append(cp)
                    }
                }
                instance = instance.concatenating(step)
            }
            sub = .identity
        } else {
            for child in sortedChildren(node, time: time) {
                if let cp = prepare(child, parent: m, parentSub: sub, opacity: opacity * s.opacity, clip: childClip, time: time,
                                    tint: tint, key: key, next: &next, damage: &childDamage) {
                    p.children.append(cp)
                }
            }
        }
        for c in p.children { p.subtreeBox = p.subtreeBox.union(c.extent) }
        if let maskNode = node.mask {
            // The mask lives in this layer's coordinates; a change in it damages
            // the whole of what it masks.
            var maskDamage = DamageRegion(bounds: bounds)
            p.mask = prepare(maskNode, parent: m, parentSub: .identity, opacity: 1, clip: p.subtreeBox, time: time, tint: nil,
                             key: hashKey(recordKey, -1), next: &next, damage: &maskDamage)
            if !maskDamage.rects.isEmpty { damage.add(p.subtreeBox) }
            if let mask = p.mask { p.subtreeBox = p.subtreeBox.intersection(mask.subtreeBox) } else { p.subtreeBox = .null }
        }
        // A shadow cast by the composited sublayers falls where they are,
        // moved by the offset and grown by the blur: part of what this layer
        // touches, and of what its record covers.
        // (Without sublayers the own box already has the shadow.)
        p.extent = p.subtreeBox
        var recordBox = box
        if s.shadowOpacity > 0, s.shadowPath == nil, !p.children.isEmpty, !p.subtreeBox.isNull {
            let shadow = shadowBox(of: p.subtreeBox, s).intersection(clip)
            p.extent = p.extent.union(shadow)
            recordBox = recordBox.union(shadow)
        }
        var record = Record(version: node.stateVersion, transform: p.homography, opacity: opacity, clip: clip, box: recordBox,
                            animated: animated, extra: tint.map { $0.hashValue } ?? 0)
        if let tiled = s.tiled {
            // Tiles that arrived since the last frame, or are fading in, redraw it.
            let frame = tiled.store.beginFrame(at: time)
            // The tiles on screen are asked for every frame, drawn or not, so
            // that a tile waiting in the queue is never taken for one
            // scrolled past. (Under perspective they are asked for when drawn.)
            // The draw uses what was found here, so one frame asks once.
            if p.homography.isAffine {
                let requests = tileRequests(tiled, s, ctm: p.homography.affine, area: box)
                p.tiles = (requests, requests.isEmpty ? [] : tiled.store.tiles(requests, at: time, fade: tiled.fadeDuration))
            }
            record.extra = hashKey(record.extra, frame.version)
            record.animated = record.animated || frame.fading
        }
        if let old = records[recordKey] {
            if old != record || record.animated {
                damage.add(old.box)
                damage.add(recordBox)
            }
        } else {
            damage.add(recordBox)
        }
        next[recordKey] = record
        return p
    }

    /// A transform layer draws nothing itself; its sublayers (and, through
    /// nested transform layers, theirs) join one list in the 3D space of the
    /// transform layer's superlayer, sorted back to front by depth.
    private func prepareTransformLayer(_ node: RenderNode, _ s: LayerState, m3: Transform3D, m: Transform3D,
                                       parent: Transform3D, opacity: Double, clip: Rect, time: Double, tint: Color?,
                                       key: Int, recordKey: Int, next: inout [Int: Record],
                                       damage: inout DamageRegion) -> Prepared {
        let p = Prepared(node: node, state: s, transform: m, box: .null, tint: tint, key: recordKey)
        let sub = s.sublayerTransformAboutAnchor
        var members: [Prepared] = []
        for child in node.sublayers {
            guard let cp = prepare(child, parent: parent, context: m3, parentSub: sub, opacity: opacity * s.opacity,
                                   clip: clip, time: time, tint: tint, key: key, next: &next, damage: &damage) else { continue }
            if cp.state.preservesDepth {
                for member in cp.children {
                    member.contextAlpha *= cp.state.opacity
                    members.append(member)
                }
            } else {
                members.append(cp)
            }
        }
        p.children = Compositor.depthSorted(members)
        for c in p.children { p.subtreeBox = p.subtreeBox.union(c.extent) }
        p.extent = p.subtreeBox
        let record = Record(version: node.stateVersion, transform: p.homography, opacity: opacity, clip: clip, box: .null,
                            animated: node.isAnimating(at: time), extra: 0)
        next[recordKey] = record
        return p
    }

    /// Members of a 3D context back to front. They start in order of their
    /// centres' depth; then, for each pair whose boxes overlap, a plane test
    /// decides which is behind (one lies wholly behind the other's plane, or
    /// the other wholly in front of its), as in Newell's painter's algorithm,
    /// and the order is the topological one, nearest-centre-last where the
    /// tests leave a choice (or find a cycle). Centre depth alone fails on
    /// cubes: a side face and the top face have centres at the same depth,
    /// and whichever comes later in the array would show through its edge.
    /// Above 64 members only the centre order is used (the pairwise tests
    /// grow with the square of the count).
    static func depthSorted(_ members: [Prepared]) -> [Prepared] {
        let byCentre = members.indices.sorted {
            members[$0].depth != members[$1].depth ? members[$0].depth < members[$1].depth : $0 < $1
        }.map { members[$0] }
        let n = byCentre.count
        guard n > 1, n <= 64 else { return byCentre }
        // before[i] holds the members that must be drawn before member i.
        var before = [[Int]](repeating: [], count: n)
        for i in 0..<n {
            for j in (i + 1)..<n where byCentre[i].box.intersects(byCentre[j].box) {
                switch planeOrder(byCentre[i], byCentre[j]) {
                case .some(true): before[j].append(i)
                case .some(false): before[i].append(j)
                case nil: break
                }
            }
        }
        var remaining = [Int](repeating: 0, count: n)
        var dependents = [[Int]](repeating: [], count: n)
        for i in 0..<n {
            remaining[i] = before[i].count
            for j in before[i] { dependents[j].append(i) }
        }
        var done = [Bool](repeating: false, count: n)
        var out: [Prepared] = []
        out.reserveCapacity(n)
        for _ in 0..<n {
            // The farthest member that nothing still waits on; in a cycle,
            // the farthest of all left.
            let next = (0..<n).first { !done[$0] && remaining[$0] == 0 } ?? (0..<n).first { !done[$0] }!
            done[next] = true
            out.append(byCentre[next])
            for d in dependents[next] { remaining[d] -= 1 }
        }
        return out
    }

    /// Whether `a` must be drawn before `b` (true), after it (false), or
    /// either way as far as their planes tell (nil).
    static func planeOrder(_ a: Prepared, _ b: Prepared) -> Bool? {
        guard let ca = a.corners3D, let cb = b.corners3D else { return nil }
        if let side = side(of: ca, from: cb) { return side < 0 }   // a behind b's plane: a first
        if let side = side(of: cb, from: ca) { return side > 0 }   // b in front of a's plane: a first
        return nil
    }

    /// Which side of the plane of `plane` (as seen from the eye, at +z) all
    /// of `points` lie on: 1 in front, −1 behind, nil when they straddle it or
    /// the plane is seen edge on.
    static func side(of points: [SIMD3<Double>], from plane: [SIMD3<Double>]) -> Int? {
        var normal = cross(plane[1] - plane[0], plane[3] - plane[0])
        let length = (normal * normal).sum().squareRoot()
        guard length > 1e-12 else { return nil }
        normal /= length
        guard abs(normal.z) > 1e-6 else { return nil }
        if normal.z < 0 { normal = -normal }
        let scale = plane.map { abs($0.x) + abs($0.y) + abs($0.z) }.max()! + 1
        let tolerance = 1e-7 * scale
        var front = false, behind = false
        for p in points {
            let d = (normal * (p - plane[0])).sum()
            if d > tolerance { front = true } else if d < -tolerance { behind = true }
        }
        if front && behind { return nil }
        if front { return 1 }
        if behind { return -1 }
        return nil
    }

    /// The sublayers back to front at `time` (by presentation `zPosition`).
    func sortedChildren(_ node: RenderNode, time: Double) -> [RenderNode] {
        let subs = node.sublayers
        guard subs.contains(where: { $0.state.zPosition != 0 || !$0.animations.isEmpty }) else { return subs }
        let z = subs.map { $0.animations.isEmpty ? $0.state.zPosition : $0.presentation(at: time).zPosition }
        return subs.indices.sorted { z[$0] != z[$1] ? z[$0] < z[$1] : $0 < $1 }.map { subs[$0] }
    }

    /// The device box of what the layer draws itself: bounds, shape strokes and
    /// the shadow.
    func ownBox(_ s: LayerState, _ m: Transform3D) -> Rect {
        var local = s.bounds
        if let shape = s.shape {
            var b = shape.path.boundingBoxOfPath
            if shape.strokeColor != nil {
                let w = shape.lineWidth * max(1, shape.lineJoin == .miter ? shape.miterLimit / 2 : 1) + 1
                b = b.insetBy(dx: -w, dy: -w)
            }
            if !b.isNull { local = s.masksToBounds ? local : local.union(b) }
        }
        var box = deviceBox(of: local, m)
        if s.shadowOpacity > 0 {
            let shadowLocal = s.shadowPath?.boundingBoxOfPath ?? local
            box = box.union(shadowBox(of: deviceBox(of: shadowLocal, m), s))
        }
        return box
    }

    /// Where the shadow of what covers device rectangle `r` can fall: moved by
    /// the shadow offset and grown by the reach of the blur.
    func shadowBox(of r: Rect, _ s: LayerState) -> Rect {
        let spread = 3 * s.shadowRadius * scale + 2
        return r.offsetBy(dx: s.shadowOffset.width * scale, dy: s.shadowOffset.height * scale).insetBy(dx: -spread, dy: -spread)
    }

    /// The device bounding box of a rectangle in layer coordinates (the whole
    /// frame when part of it is behind the eye).
    func deviceBox(of r: Rect, _ m: Transform3D) -> Rect {
        guard !r.isNull, r.width.isFinite, r.height.isFinite else { return .null }
        let h = m.planeHomography
        var pts: [Point] = []
        for p in r.corners {
            guard let q = h.mapPoint(p), q.x.isFinite, q.y.isFinite else { return bounds }
            pts.append(q)
        }
        let b = Layer.boundingBox(pts)
        return Rect(x: b.minX.rounded(.down) - 1, y: b.minY.rounded(.down) - 1,
                    width: b.width.rounded(.up) + 3, height: b.height.rounded(.up) + 3).intersection(bounds)
    }

    func hashKey(_ a: Int, _ b: Int) -> Int {
        var h = Hasher()
        h.combine(a)
        h.combine(b)
        return h.finalize()
    }
}

@inline(__always) func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

@inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }

func multiply(_ a: Color?, _ b: Color) -> Color {
    guard let a else { return b }
    return Color(red: a.red * b.red, green: a.green * b.green, blue: a.blue * b.blue, alpha: a.alpha * b.alpha)
}

/// Damaged rectangles of a frame, kept few: rectangles that overlap (or nearly
/// touch) merge, and past a dozen everything becomes one bounding box.
struct DamageRegion {
    let bounds: Rect
    private(set) var rects: [Rect] = []

    init(bounds: Rect) { self.bounds = bounds }

    mutating func add(_ r: Rect) {
        let r = r.intersection(bounds)
        guard !r.isNull, r.width > 0, r.height > 0 else { return }
        // Whole pixels.
        var merged = Rect(x: r.minX.rounded(.down), y: r.minY.rounded(.down),
                          width: r.maxX.rounded(.up) - r.minX.rounded(.down), height: r.maxY.rounded(.up) - r.minY.rounded(.down))
        var i = 0
        while i < rects.count {
            let grown = rects[i].insetBy(dx: -8, dy: -8)
            if grown.intersects(merged) {
                merged = merged.union(rects.remove(at: i))
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(merged)
        if rects.count > 12 {
            rects = [rects.dropFirst().reduce(rects[0]) { $0.union($1) }]
        }
    }
}
