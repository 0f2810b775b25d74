import StrataGraphics

/// The compositor's first pass over a frame: walks the render tree and
/// resolves each layer into a `FrameNode` (its presentation values at the
/// frame's time, its device transform and boxes, what its special layer
/// prepares), records what each layer draws, and collects the damage: where
/// this frame can differ from the one before.
///
/// A layer's record (`Compositor.Record`) holds what its own pixels depend on:
/// its version, device transform, inherited opacity, clip and box, and
/// what changes outside its state. A record that differs from the previous
/// frame's, or that belongs to a layer animated now, damages its old and its
/// new box; a new record damages its box, and one gone (`Compositor.render`)
/// its old box.
struct FramePass {
    /// The frame, in device pixels.
    let bounds: Rect
    /// Device pixels per point.
    let scale: Double
    /// The frame's media time.
    let time: Double
    /// What each layer drew in the previous frame, by record key.
    let previousRecords: [Int: Compositor.Record]
    /// What each layer draws in this frame, by record key.
    var records: [Int: Compositor.Record] = [:]
    /// Whether any record of this frame is animated (kept as they are made).
    var hasAnimatedRecords = false
    /// The damage found so far: the frame's, but while a layer's sublayers or
    /// mask are prepared, theirs alone (the layer then adds it to its own).
    var damage: DamageRegion
    /// The scrolls found: regions whose previous pixels move, whole, by a
    /// whole number of pixels (see `prepareScroll`).
    var copies: [FrameCopy] = []
    /// While a scroll candidate's sublayers are prepared, their records,
    /// judged together afterwards against the translation most of them share.
    private var deferredRecords: [(key: Int, record: Compositor.Record)]?
    /// The record keys of the layers whose sublayers are being prepared.
    var ancestry: [Int] = []
    /// For each copy (by index): the record keys of its layer's ancestors,
    /// then its layer's.
    var copyAncestry: [[Int]] = []

    init(bounds: Rect, scale: Double, time: Double, previousRecords: [Int: Compositor.Record]) {
        self.bounds = bounds
        self.scale = scale
        self.time = time
        self.previousRecords = previousRecords
        records.reserveCapacity(previousRecords.count)
        damage = DamageRegion(bounds: bounds)
    }

    /// What a layer takes from the layers above it.
    struct Inherited {
        /// Maps the plane the layer flattens into to device pixels.
        var plane: Transform3D
        /// Inside a transform layer: the unflattened map from the layer's
        /// superlayer to the 3D space of that plane.
        var depthContext: Transform3D?
        /// The superlayer's sublayer transform, about its anchor (after the
        /// instance transform of the replicator copy this is).
        var sublayerTransform: Transform3D
        /// The product of the ancestors' opacities.
        var opacity: Double
        /// The device rectangle the layer can show in (its ancestors that
        /// mask to their bounds cut it).
        var clip: Rect
        /// The media time the layer's animations are evaluated at: the frame's,
        /// less the delays of the replicator copies it is in.
        var time: Double
        /// Multiplies every colour the layer draws (the replicator copies it is in).
        var tint: Color?
        /// Mixed into the layer's record key, for the replicator copy or the
        /// mask it is in; 0 for none.
        var key: Int
        /// Whether the layer draws straight into the frame: no ancestor is
        /// drawn as a group (offscreen, then composited), is a mask, or is
        /// in a transform layer's 3D space. Only such a layer can scroll
        /// the frame's pixels.
        var drawsIntoFrame = false
        /// The device rectangle, in whole pixels, that the ancestors masking
        /// to their bounds leave (exactly, where `clip` is rounded out); null
        /// when one of them clips to something else (rounded corners, a
        /// rotation, fractional pixels).
        var exactClip = Rect.null

        /// The version a layer's record holds (`Compositor.Record.version`).
        func recordVersion(of node: RenderNode) -> Int { depthContext == nil ? node.lookVersion : node.stateVersion }
    }

    /// Prepares the tree from its root, which fills the frame.
    mutating func prepareRoot(_ root: RenderNode) -> FrameNode? {
        prepare(
            root,
            Inherited(
                plane: Transform3D(scaleX: scale, y: scale), depthContext: nil, sublayerTransform: .identity,
                opacity: 1, clip: bounds, time: time, tint: nil, key: 0, drawsIntoFrame: true, exactClip: bounds))
    }

    /// Prepares `node` and its subtree; nil when it shows nothing (hidden,
    /// transparent, or single-sided and turned away).
    mutating func prepare(_ node: RenderNode, _ inherited: Inherited) -> FrameNode? {
        let time = inherited.time, clip = inherited.clip
        let s = node.presentation(at: time)
        guard !s.isHidden, s.opacity > 0, s.bounds.width.isFinite, s.bounds.height.isFinite else { return nil }
        var m3 = s.localToParent(sublayerTransformOfParent: inherited.sublayerTransform)
        if let context = inherited.depthContext { m3 = m3.concatenating(context) }
        let m = m3.flattened.concatenating(inherited.plane)
        let recordKey = inherited.key == 0 ? node.id : FramePass.hashKey(inherited.key, node.id)
        let special = s.specialBox
        if special?.value.preservesDepth == true {
            return prepareTransformLayer(node, s, special, m3: m3, m: m, inherited, recordKey: recordKey)
        }
        // A single-sided layer turned away from the eye draws nothing, and
        // neither do the sublayers flattened into it.
        if !s.isDoubleSided && m.planeHomography.determinant < 0 { return nil }
        let own = ownBox(s, special, m)
        let p = FrameNode(
            node: node, state: s, special: special, transform: m, box: own.intersection(clip), tint: inherited.tint,
            key: recordKey)
        var animated = node.isAnimating(at: time)
        var tintAndContentVersion = inherited.tint.map { $0.hashValue } ?? 0
        if let special, let frame = special.value.prepareFrame(for: p, at: time, in: self) {
            // What it draws beyond its own box this frame (particles) is part
            // of what the layer covers.
            if !frame.box.isNull { p.setBox(own.union(frame.box).intersection(clip)) }
            animated = animated || frame.isAnimated
            if let version = frame.contentVersion { tintAndContentVersion = FramePass.hashKey(tintAndContentVersion, version) }
            p.specialData = frame.data
        }
        if inherited.depthContext != nil { p.placeInDepthContext(m3) }
        let childClip = s.masksToBounds ? clip.intersection(deviceBox(of: s.bounds, m)) : clip
        // Only a layer that masks to its bounds narrows the exact clip.
        let exact = s.masksToBounds ? exactDeviceRect(of: s.bounds, p.homography) : .null
        let forSublayers = Inherited(
            plane: m, depthContext: nil, sublayerTransform: s.sublayerTransformAboutAnchor,
            opacity: inherited.opacity * s.opacity, clip: childClip, time: time,
            tint: inherited.tint, key: inherited.key,
            drawsIntoFrame: inherited.drawsIntoFrame && inherited.depthContext == nil && p.homography.isAffine
                && s.opacity >= 1 && node.mask == nil && !(s.shadowOpacity > 0 && s.shadowPath == nil),
            exactClip: !s.masksToBounds
                ? inherited.exactClip
                : s.cornerRadius > 0 || exact.isNull ? .null : inherited.exactClip.intersection(exact))
        // A layer whose sublayers may scroll the frame's pixels: their
        // records are judged together once they are prepared.
        let scrollRegion =
            deferredRecords == nil
            ? scrollCandidate(
                node, s, p, inherited, forSublayers.exactClip,
                Compositor.Record(
                    version: inherited.recordVersion(of: node), transform: p.homography, opacity: inherited.opacity, clip: clip,
                    box: p.box, animated: animated, tintAndContentVersion: tintAndContentVersion),
                key: recordKey) : nil
        // What changes below is damage here too. It is collected apart (a
        // fresh region swapped in) and added last, below, with where this
        // layer's shadow falls when it casts it from its composited sublayers.
        var childDamage = DamageRegion(bounds: bounds)
        swap(&damage, &childDamage)
        if scrollRegion != nil {
            deferredRecords = []
            deferredRecords?.reserveCapacity(2 * node.sublayers.count + 8)
        }
        ancestry.append(recordKey)
        prepareSublayers(of: node, s, into: p, forSublayers)
        ancestry.removeLast()
        if let scrollRegion, let deferred = deferredRecords {
            deferredRecords = nil
            judgeScroll(deferred, in: scrollRegion, key: recordKey)
        }
        swap(&damage, &childDamage)
        for c in p.children { p.subtreeBox = p.subtreeBox.union(c.extent) }
        if let maskNode = node.mask {
            // The mask lives in this layer's coordinates; a change in it (collected
            // apart) damages the whole of what it masks.
            var maskDamage = DamageRegion(bounds: bounds)
            swap(&damage, &maskDamage)
            p.mask = prepare(
                maskNode,
                Inherited(
                    plane: m, depthContext: nil, sublayerTransform: .identity, opacity: 1,
                    clip: p.subtreeBox, time: time, tint: nil, key: FramePass.hashKey(recordKey, -1),
                    drawsIntoFrame: false, exactClip: .null))
            swap(&damage, &maskDamage)
            if !maskDamage.rects.isEmpty { damage.add(p.subtreeBox) }
            if let mask = p.mask { p.subtreeBox = p.subtreeBox.intersection(mask.subtreeBox) } else { p.subtreeBox = .null }
        }
        // A shadow cast by the composited sublayers falls where they are,
        // moved by the offset and grown by the blur: part of what this layer
        // touches, and of what its record covers.
        // (Without sublayers the own box already has the shadow; a mask cuts
        // the subtree's box to itself, but not the shadow, cast beyond it
        // from the masked group or from the shadow path: the own box, which
        // holds the shadow of the whole bounds, is added back.)
        p.extent = p.subtreeBox
        if p.mask != nil, s.shadowOpacity > 0 { p.extent = p.extent.union(p.box) }
        var recordBox = p.box
        if s.shadowOpacity > 0, s.shadowPath == nil, !p.children.isEmpty, !p.subtreeBox.isNull {
            let shadow = shadowBox(of: p.subtreeBox, s).intersection(clip)
            p.extent = p.extent.union(shadow)
            recordBox = recordBox.union(shadow)
        }
        record(
            Compositor.Record(
                version: inherited.recordVersion(of: node), transform: p.homography, opacity: inherited.opacity, clip: clip,
                box: recordBox, animated: animated, tintAndContentVersion: tintAndContentVersion),
            key: recordKey)
        let castsGroupShadow = s.shadowOpacity > 0 && s.shadowPath == nil
        for r in childDamage.rects {
            damage.add(r)
            if castsGroupShadow { damage.add(shadowBox(of: r, s)) }
        }
        return p
    }

    /// Prepares the sublayers of `node` (whose presentation state is `s`)
    /// into `p.children`: once, or once for each copy a replicator shows, at
    /// its delay, with its tint and its own record keys.
    @inline(__always)
    private mutating func prepareSublayers(of node: RenderNode, _ s: LayerState, into p: FrameNode, _ inherited: Inherited) {
        guard let copies = p.special?.value.sublayerCopies(of: s) else {
            p.children.reserveCapacity(node.sublayers.count)
            for child in sortedChildren(node, time: inherited.time) {
                if let cp = prepare(child, inherited) { p.children.append(cp) }
            }
            return
        }
        for (i, copy) in copies.enumerated() {
            var c = inherited
            c.sublayerTransform = copy.transform.concatenating(inherited.sublayerTransform)
            c.time = inherited.time - copy.delay
            c.tint = multiply(inherited.tint, copy.tint)
            c.key = FramePass.hashKey(p.key, i + 1)
            for child in sortedChildren(node, time: c.time) {
                if let cp = prepare(child, c) { p.children.append(cp) }
            }
        }
    }

    /// Keeps a layer's record for this frame. One that differs from the
    /// previous frame's, or whose layer is animated, damages its old and new
    /// boxes; a new one damages its box.
    @inline(__always)
    private mutating func record(_ record: Compositor.Record, key: Int) {
        records[key] = record
        if record.animated { hasAnimatedRecords = true }
        if deferredRecords != nil {
            deferredRecords?.append((key, record))
            return
        }
        compare(record, key: key)
    }

    /// Damages what a record changed since the previous frame.
    @inline(__always)
    mutating func compare(_ record: Compositor.Record, key: Int) {
        if let old = previousRecords[key] {
            if old != record || record.animated {
                damage.add(old.box)
                damage.add(record.box)
            }
        } else {
            damage.add(record.box)
        }
    }

    /// The sublayers back to front at `time` (by presentation `zPosition`).
    func sortedChildren(_ node: RenderNode, time: Double) -> [RenderNode] {
        let subs = node.sublayers
        guard subs.contains(where: { $0.state.zPosition != 0 || !$0.animations.isEmpty }) else { return subs }
        let z = subs.map { $0.animations.isEmpty ? $0.state.zPosition : $0.presentation(at: time).zPosition }
        return subs.indices.sorted { z[$0] != z[$1] ? z[$0] < z[$1] : $0 < $1 }.map { subs[$0] }
    }

    /// The device box of what the layer draws itself: bounds, what its special
    /// layer (`s.special`) draws beyond them (a shape's stroke), and the shadow.
    func ownBox(_ s: LayerState, _ special: Boxed<any SpecialLayerState>?, _ m: Transform3D) -> Rect {
        var local = s.bounds
        if let special, !s.masksToBounds {
            let drawn = special.value.drawingBounds(of: s)
            if !drawn.isNull { local = local.union(drawn) }
        }
        // Contents placed past the bounds (a centred image larger than the
        // layer, an aspect fill) draw there unless the layer masks them.
        if !s.masksToBounds, let image = s.contents,
            let placed = Compositor.contentsPlacement(s, imageWidth: image.width, imageHeight: image.height)
        {
            local = local.union(placed.dest)
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
        // The corners' bounding box, without arrays: this runs for every layer every frame.
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ x: Double, _ y: Double) -> Bool {
            guard let q = h.mapPoint(Point(x: x, y: y)), q.x.isFinite, q.y.isFinite else { return false }
            x0 = Swift.min(x0, q.x)
            y0 = Swift.min(y0, q.y)
            x1 = Swift.max(x1, q.x)
            y1 = Swift.max(y1, q.y)
            return true
        }
        guard add(r.minX, r.minY), add(r.maxX, r.minY), add(r.maxX, r.maxY), add(r.minX, r.maxY) else { return bounds }
        let b = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        return Rect(
            x: b.minX.rounded(.down) - 1, y: b.minY.rounded(.down) - 1,
            width: b.width.rounded(.up) + 3, height: b.height.rounded(.up) + 3
        ).intersection(bounds)
    }

    /// Two values hashed into one (record keys, versions).
    static func hashKey(_ a: Int, _ b: Int) -> Int {
        var h = Hasher()
        h.combine(a)
        h.combine(b)
        return h.finalize()
    }
}
