import StrataGraphics
import Synchronization

/// What a layer's delegate may supply (`CALayerDelegate`). Every method has a
/// default that does nothing special.
@MainActor
public protocol LayerDelegate: AnyObject {
    /// Provides the layer's contents. The default draws through `draw(_:in:)`.
    func display(_ layer: Layer)
    /// Draws the layer's contents into `canvas` (bounds coordinates, scaled by
    /// `contentsScale`).
    func draw(_ layer: Layer, in canvas: Canvas)
    /// Lays out the layer's sublayers.
    func layoutSublayers(of layer: Layer)
    /// The action for a change of `key`: nil continues the search (the layer's
    /// `actions`, then the class default); `.noAction` stops it.
    func action(for layer: Layer, forKey key: String) -> LayerAction?
}

extension LayerDelegate {
    public func display(_ layer: Layer) { layer.drawContents() }
    public func draw(_ layer: Layer, in canvas: Canvas) {}
    public func layoutSublayers(of layer: Layer) {}
    public func action(for layer: Layer, forKey key: String) -> LayerAction? { nil }
}

/// What happens when a layer property changes (`CAAction`).
public enum LayerAction: Sendable {
    /// Add this animation for the key. A `BasicAnimation` without from, to and
    /// by values animates from the old presentation value to the new one, and
    /// takes the transaction's duration and timing function where it sets none.
    case animation(any Animation)
    /// No action, and the search stops here (`NSNull`). Not called `none`,
    /// which `Optional.none` would shadow: `actions["position"] = .none`
    /// would remove the entry instead of stopping the search.
    case noAction
    /// Run this closure with the layer and the key.
    case run(@MainActor @Sendable (Layer, String) -> Void)
}

/// A rectangle of content in a tree (`CALayer`): geometry, appearance,
/// contents, sublayers and animations.
///
/// Layers belong to the main actor. Changes are recorded in the current
/// `Transaction` and reach the screen when it commits; animatable properties
/// animate implicitly (after a layer's first commit) unless actions are disabled.
@MainActor
open class Layer {
    // The stored values are ordered for the commit, which visits every
    // changed layer: what it reads and writes comes first, in as few cache
    // lines as will hold them, and the rest after.

    /// Changed since the last commit: this layer's own values or sublayer list.
    var isDirty = true
    /// Some layer below changed since the last commit.
    var subtreeDirty = false
    var hasBeenCommitted = false
    var needsDisplayFlag = false
    var needsLayoutFlag = false
    /// In `AnimationRegistry`.
    var isRegisteredForAnimations = false
    /// Whether a change of bounds calls `setNeedsDisplay()`.
    public var needsDisplayOnBoundsChange = false
    /// A flag for a subclass that stands in for another layer API's layer
    /// (QuartzCore's bridged layers: whether their `CALayer` has a delegate
    /// or actions to ask). Kept here, in the byte the flags above leave
    /// free, so that such a subclass adds no cache line to a layer.
    package var bridgeFlag = false
    /// Unique for the process; render tree nodes carry it.
    let id: Int
    static var nextID = 0
    /// Identifies the layer's own values as committed: a new number at each
    /// commit after they changed.
    var stateVersion = 0
    /// `RenderNode.lookVersion` of the last commit.
    var lookVersion = 0
    /// The node of the last commit, reused while nothing below changes.
    var lastNode: RenderNode?
    public private(set) var sublayers: [Layer] = []
    /// Animations in the order added, with their keys.
    var animationEntries: [AnimationEntry] = []
    public private(set) weak var superlayer: Layer?
    /// The model values.
    var state = LayerState()
    public weak var delegate: (any LayerDelegate)?
    /// Actions by key, consulted after the delegate.
    public var actions: [String: LayerAction] = [:]
    /// A name, for debugging and for looking layers up.
    public var name: String?
    /// The part asked to be redrawn by `setNeedsDisplay(in:)`; nil is all.
    var needsDisplayRect: Rect?
    /// `contentsVersion` when `drawContents()` last made the contents: a
    /// partial redraw may start from them only while they are still those.
    var backingVersion = -1
    /// Bumped whenever `display()` makes new contents.
    var contentsVersion = 0
    /// See `clock`.
    var clockCache: (generation: Int, clock: (any MediaClock)?) = (-1, nil)
    /// Bumped whenever any layer is attached or detached, and when a layer or
    /// host goes away (which can detach others through their weak links), so
    /// that remembered clocks are looked up again. Atomic, since a layer's
    /// last release may happen on any thread.
    nonisolated static let treeGeneration = Atomic<Int>(0)

    /// Tells the clock caches that the trees may have changed shape.
    nonisolated static func treesChanged() {
        treeGeneration.wrappingAdd(1, ordering: .relaxed)
    }

    deinit {
        Layer.treesChanged()
    }
    /// The host this layer is the root of.
    weak var host: LayerHost?

    public init() {
        Layer.nextID += 1
        id = Layer.nextID
        Transaction.noteChange()
    }

    /// A copy of `layer`'s values (`init(layer:)`), used for presentation
    /// layers. Subclasses with their own stored values copy them here.
    public required init(layer: Layer) {
        Layer.nextID += 1
        id = Layer.nextID
        state = layer.state
        name = layer.name
    }

    // MARK: Overridable behaviour

    /// Makes the contents (`display()`): the delegate's `display(_:)` when
    /// there is a delegate, else `drawContents()`, which draws `draw(in:)` into
    /// a backing image. Subclasses may set `contents` themselves instead.
    open func display() {
        defaultDisplay()
    }

    /// Draws the contents (`draw(in:)`): the delegate's `draw(_:in:)` by
    /// default. Subclasses override this to draw. The canvas is in bounds
    /// coordinates, scaled by `contentsScale`.
    open func draw(in canvas: Canvas) {
        delegate?.draw(self, in: canvas)
    }

    /// Whether `render(in:)` into a vector canvas (a PDF page, an SVG
    /// drawing) draws this layer's contents by calling `draw(in:)` into it
    /// (in bounds coordinates, clipped to the bounds), so that they come
    /// out as vectors and text instead of the contents image, as Core
    /// Animation draws a layer's drawing again into a PDF context. By
    /// default, true while the contents are the image `display()` drew with
    /// `draw(in:)` (`drawContents()`) and all of it is shown; false for
    /// contents set directly or drawn asynchronously, which stay images.
    /// Subclasses that make their contents otherwise, and can draw them
    /// again, override it (the streaming graph's tiles do).
    open var drawsVectorContents: Bool {
        state.contents != nil && contentsVersion == backingVersion
            && state.contentsRect == Rect(x: 0, y: 0, width: 1, height: 1)
            && state.contentsCenter == Rect(x: 0, y: 0, width: 1, height: 1)
    }

    /// Called by every `setNeedsDisplay` request, coalesced or not (an
    /// asynchronous layer cancels the drawing in flight here).
    func requestedDisplay() {}

    /// Positions the sublayers (`layoutSublayers()`): the delegate's
    /// `layoutSublayers(of:)` by default. Subclasses override this.
    open func layoutSublayers() {
        delegate?.layoutSublayers(of: self)
    }

    /// The action for a change of `key` (`action(forKey:)`): the delegate's,
    /// then the `actions` dictionary's, then the class default; `.noAction` at any
    /// step means no action.
    open func action(forKey key: String) -> LayerAction? {
        lookUpAction(forKey: key)
    }

    /// The class's action for `key`: for animatable properties, an animation
    /// from the old value to the new one with the transaction's duration and
    /// timing function.
    open class func defaultAction(forKey key: String) -> LayerAction? {
        LayerState.isAnimatable(key) ? .animation(BasicAnimation(keyPath: key)) : nil
    }

    // MARK: Changes

    /// Records a change of the value at `kp` (key `key`): marks the layer for
    /// commit and runs the key's action.
    /// Inlined into each setter, so that the key path is a literal there and
    /// the compiler turns it into a plain field access.
    @inline(__always)
    func change<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<LayerState, V>, _ value: V) {
        guard state[keyPath: kp] != value else { return }
        let before = hasBeenCommitted ? actionStartValue(forKey: key) : nil
        state[keyPath: kp] = value
        markDirty()
        if let before { runAction(forKey: key, from: before) }
    }

    /// The presentation value a change of `key` animates from, or nil when the
    /// change runs no action (actions disabled, or not an animatable key).
    func actionStartValue(forKey key: String) -> (any AnimatableValue)? {
        guard !Transaction.disableActions, let accessor = LayerState.accessors[key] else { return nil }
        return presentationValue(forKey: key, accessor: accessor)
    }

    /// Marks this layer changed, and its ancestors as having a changed descendant.
    /// A layer already marked has marked its ancestors too: every path that
    /// attaches a layer marks the new parent's line (`insertSublayer`, `mask`),
    /// and a commit clears the marks of every layer it visits together.
    func markDirty() {
        if isDirty && hasBeenCommitted {
            Transaction.noteChange()
            return
        }
        isDirty = true
        markAncestorsDirty()
    }

    func markAncestorsDirty() {
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner {
            // Marked since the last commit: so are the layers above it, and
            // the host is already waiting for the commit.
            if parent.subtreeDirty {
                Transaction.noteChange()
                return
            }
            parent.subtreeDirty = true
            layer = parent
        }
        if let host = layer.host { Transaction.dirtyHosts[ObjectIdentifier(host)] = host }
        Transaction.noteChange()
    }

    /// The root of this layer's tree.
    public var rootLayer: Layer {
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner { layer = parent }
        return layer
    }

    // MARK: Geometry

    /// The layer's own coordinate space (`bounds`): its origin is what the
    /// top-left corner shows, its size the layer's size.
    public var bounds: Rect {
        get { state.bounds }
        set {
            let newValue = newValue.cleaned()
            let sizeChanged = newValue.size != state.bounds.size
            change("bounds", \.bounds, newValue)
            if sizeChanged {
                setNeedsLayout()
                if needsDisplayOnBoundsChange { setNeedsDisplay() }
            }
        }
    }
    /// Where the anchor point sits in the superlayer.
    public var position: Point {
        get { state.position }
        set { change("position", \.position, newValue.cleaned()) }
    }
    /// The point of the bounds, in unit coordinates, that `position` places and
    /// transforms turn about (default (0.5, 0.5)).
    public var anchorPoint: Point {
        get { state.anchorPoint }
        set { change("anchorPoint", \.anchorPoint, newValue.cleaned(nan: Point(x: 0.5, y: 0.5))) }
    }
    public var anchorPointZ: Double {
        get { state.anchorPointZ }
        set { change("anchorPointZ", \.anchorPointZ, newValue.clamped(LayerLimits.coordinate)) }
    }
    /// Orders siblings (higher in front) and moves the layer along z.
    public var zPosition: Double {
        get { state.zPosition }
        set { change("zPosition", \.zPosition, newValue.clamped(LayerLimits.coordinate)) }
    }
    public var transform: Transform3D {
        get { state.transform }
        set { change("transform", \.transform, newValue.cleaned) }
    }
    /// Applied to the sublayers, about the anchor point.
    public var sublayerTransform: Transform3D {
        get { state.sublayerTransform }
        set { change("sublayerTransform", \.sublayerTransform, newValue.cleaned) }
    }
    /// The 2D part of `transform` (`affineTransform()`).
    public var affineTransform: Transform {
        get { state.transform.affineTransform }
        set { transform = Transform3D(newValue) }
    }

    /// The layer's rectangle in its superlayer: derived from bounds, position,
    /// anchor point and transform. Setting it (with an identity transform) sets
    /// the bounds' size and the position.
    public var frame: Rect {
        get { state.frame }
        set {
            guard newValue.width.isFinite, newValue.height.isFinite, newValue.minX.isFinite, newValue.minY.isFinite else { return }
            let size = Size(width: abs(newValue.width), height: abs(newValue.height))
            let origin = Point(x: min(newValue.minX, newValue.maxX), y: min(newValue.minY, newValue.maxY))
            bounds = Rect(origin: state.bounds.origin, size: size)
            position = Point(x: origin.x + anchorPoint.x * size.width, y: origin.y + anchorPoint.y * size.height)
        }
    }

    // MARK: Appearance

    public var isHidden: Bool {
        get { state.isHidden }
        set { change("hidden", \.isHidden, newValue) }
    }
    /// 0…1. Applies to the layer and its sublayers as one group when
    /// `allowsGroupOpacity` (the default), else to each on its own.
    public var opacity: Double {
        get { state.opacity }
        set { change("opacity", \.opacity, newValue.isNaN ? 1 : min(1, max(0, newValue))) }
    }
    public var allowsGroupOpacity: Bool {
        get { state.allowsGroupOpacity }
        set { change("allowsGroupOpacity", \.allowsGroupOpacity, newValue) }
    }
    /// Whether the back of the layer shows when it is turned away.
    public var isDoubleSided: Bool {
        get { state.isDoubleSided }
        set { change("doubleSided", \.isDoubleSided, newValue) }
    }
    public var backgroundColor: Color? {
        get { state.backgroundColor }
        set { change("backgroundColor", \.backgroundColor, newValue) }
    }
    /// Rounds the background, border and (with `masksToBounds`) the clip.
    public var cornerRadius: Double {
        get { state.cornerRadius }
        set { change("cornerRadius", \.cornerRadius, newValue.clampedLength(LayerLimits.coordinate)) }
    }
    public var maskedCorners: CornerMask {
        get { state.maskedCorners }
        set { change("maskedCorners", \.maskedCorners, newValue) }
    }
    /// Drawn inside the bounds, above the contents and the sublayers.
    public var borderWidth: Double {
        get { state.borderWidth }
        set { change("borderWidth", \.borderWidth, newValue.clampedLength(LayerLimits.coordinate)) }
    }
    public var borderColor: Color {
        get { state.borderColor }
        set { change("borderColor", \.borderColor, newValue) }
    }
    /// Clips the contents and sublayers to the (rounded) bounds.
    public var masksToBounds: Bool {
        get { state.masksToBounds }
        set { change("masksToBounds", \.masksToBounds, newValue) }
    }
    public var shadowColor: Color {
        get { state.shadowColor }
        set { change("shadowColor", \.shadowColor, newValue) }
    }
    /// 0 (the default) draws no shadow.
    public var shadowOpacity: Double {
        get { state.shadowOpacity }
        set { change("shadowOpacity", \.shadowOpacity, newValue.isNaN ? 0 : min(1, max(0, newValue))) }
    }
    /// Default (0, −3), as in Core Animation.
    public var shadowOffset: Size {
        get { state.shadowOffset }
        set { change("shadowOffset", \.shadowOffset, newValue.cleaned(nan: Size(width: 0, height: -3))) }
    }
    /// The blur radius (default 3), 0 to 1000 points (`LayerLimits.shadowRadius`).
    public var shadowRadius: Double {
        get { state.shadowRadius }
        set { change("shadowRadius", \.shadowRadius, newValue.clampedLength(LayerLimits.shadowRadius)) }
    }
    /// The shadow's shape; nil casts it from the layer's composited alpha.
    public var shadowPath: Path? {
        get { state.shadowPath }
        set { change("shadowPath", \.shadowPath, newValue) }
    }

    // MARK: Contents

    /// An image shown in the bounds, placed by `contentsGravity`.
    public var contents: Image? {
        get { state.contents }
        set {
            change("contents", \.contents, newValue)
            contentsVersion += 1
        }
    }
    /// The part of the contents shown, in unit coordinates (default all of it).
    public var contentsRect: Rect {
        get { state.contentsRect }
        set { change("contentsRect", \.contentsRect, newValue.cleaned(nan: Rect(x: 0, y: 0, width: 1, height: 1))) }
    }
    /// The stretchable middle of the contents, in unit coordinates: the parts
    /// outside it keep their size (nine-slice). Default: all of it stretches.
    public var contentsCenter: Rect {
        get { state.contentsCenter }
        set { change("contentsCenter", \.contentsCenter, newValue.cleaned(nan: Rect(x: 0, y: 0, width: 1, height: 1))) }
    }
    public var contentsGravity: ContentsGravity {
        get { state.contentsGravity }
        set { change("contentsGravity", \.contentsGravity, newValue) }
    }
    /// Pixels of contents per point (default 1).
    public var contentsScale: Double {
        get { state.contentsScale }
        set { change("contentsScale", \.contentsScale, newValue > 0 ? min(LayerLimits.contentsScale, newValue) : 1) }
    }

    // MARK: Mask

    /// A layer whose alpha masks this one (its coordinates are this layer's).
    /// It must not be in a tree of its own.
    public var mask: Layer? {
        didSet {
            guard oldValue !== mask else { return }
            oldValue?.maskOwner = nil
            if let mask {
                mask.removeFromSuperlayer()
                mask.maskOwner = self
            }
            Layer.treesChanged()
            markDirty()
        }
    }
    /// The layer this one masks.
    weak var maskOwner: Layer?

    // MARK: Hit testing

    /// Whether `point` (in this layer's coordinates) is inside the bounds.
    open func contains(_ point: Point) -> Bool { state.bounds.contains(point) }

    /// The farthest descendant (or this layer) that contains `point`, given in
    /// the superlayer's coordinates; hidden layers and, outside a layer that
    /// masks to its bounds, its sublayers are skipped.
    public func hitTest(_ point: Point) -> Layer? { hitTest(point, context: nil) }

    /// Hit testing inside a transform layer: `point` is in the plane the
    /// transform layer's members flatten into, and `context` maps the
    /// superlayer's 3D space to that plane's.
    func hitTest(_ point: Point, context: Transform3D?) -> Layer? {
        guard !state.isHidden, state.opacity > 0 else { return nil }
        var m3 = state.localToParent(sublayerTransformOfParent: superlayer?.state.sublayerTransformAboutAnchor ?? .identity)
        if let context { m3 = m3.concatenating(context) }
        if state.preservesDepth {
            // The members, nearest first.
            let sub = state.sublayerTransformAboutAnchor
            let depths = sublayers.map { layer -> Double in
                let c = layer.state.localToParent(sublayerTransformOfParent: sub).concatenating(m3)
                    .apply(x: layer.state.bounds.midX, y: layer.state.bounds.midY)
                return c.w > 1e-12 ? c.z / c.w : c.z
            }
            for i in sublayers.indices.sorted(by: { depths[$0] != depths[$1] ? depths[$0] > depths[$1] : $0 > $1 }) {
                if let hit = sublayers[i].hitTest(point, context: m3) { return hit }
            }
            return nil
        }
        guard let local = m3.flattened.planeHomography.inverted()?.mapPoint(point) else { return nil }
        if state.masksToBounds && !contains(local) { return nil }
        for sub in sublayersInDrawingOrder.reversed() {
            if let hit = sub.hitTest(local, context: nil) { return hit }
        }
        return contains(local) ? self : nil
    }

    /// Sublayers from back to front: by `zPosition`, then in array order.
    var sublayersInDrawingOrder: [Layer] {
        guard sublayers.contains(where: { $0.state.zPosition != 0 }) else { return sublayers }
        return sublayers.enumerated().sorted { a, b in
            a.element.state.zPosition != b.element.state.zPosition ? a.element.state.zPosition < b.element.state.zPosition : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Sublayers

    public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: sublayers.count)
    }

    /// Inserts `layer` at `index` (clamped to the sublayers' range), taking it
    /// from wherever it was.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        guard layer !== self, !isDescendant(of: layer) else { return }
        if layer.superlayer === self, let i = sublayers.firstIndex(where: { $0 === layer }) {
            sublayers.remove(at: i)
        } else {
            layer.removeFromSuperlayer()
        }
        if layer.maskOwner != nil { layer.maskOwner?.mask = nil }
        sublayers.insert(layer, at: max(0, min(index, sublayers.count)))
        layer.superlayer = self
        Layer.treesChanged()
        markDirty()
        layer.markDirty()
    }

    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        guard let sibling, let i = sublayers.firstIndex(where: { $0 === sibling }) else {
            insertSublayer(layer, at: 0)
            return
        }
        insertSublayer(layer, at: layer.superlayer === self && (sublayers.firstIndex { $0 === layer } ?? .max) < i ? i - 1 : i)
    }

    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        guard let sibling, let i = sublayers.firstIndex(where: { $0 === sibling }) else {
            addSublayer(layer)
            return
        }
        insertSublayer(layer, at: layer.superlayer === self && (sublayers.firstIndex { $0 === layer } ?? .max) < i ? i : i + 1)
    }

    /// Puts `new` where `old` is; does nothing when `old` is not a sublayer.
    public func replaceSublayer(_ old: Layer, with new: Layer) {
        guard old !== new, let i = sublayers.firstIndex(where: { $0 === old }) else { return }
        old.removeFromSuperlayer()
        insertSublayer(new, at: i)
    }

    public func removeFromSuperlayer() {
        guard let parent = superlayer, let i = parent.sublayers.firstIndex(where: { $0 === self }) else { return }
        parent.sublayers.remove(at: i)
        superlayer = nil
        Layer.treesChanged()
        parent.markDirty()
    }

    /// Replaces all sublayers.
    public func setSublayers(_ layers: [Layer]) {
        for layer in sublayers { layer.removeFromSuperlayer() }
        for layer in layers { addSublayer(layer) }
    }

    func isDescendant(of layer: Layer) -> Bool {
        var p = superlayer
        while let q = p {
            if q === layer { return true }
            p = q.superlayer
        }
        return false
    }

    // MARK: Converting coordinates

    /// The map from this layer's coordinates to its root's (each layer
    /// flattening its sublayers into its plane, as Core Animation does, except
    /// transform layers, whose sublayers keep their depth).
    func transformToRoot() -> Transform3D {
        var t = Transform3D.identity
        var layer: Layer = self
        while let parent = layer.superlayer {
            t = t.concatenating(layer.state.localToParent(sublayerTransformOfParent: parent.state.sublayerTransformAboutAnchor))
            if !parent.state.preservesDepth { t = t.flattened }
            layer = parent
        }
        return t.flattened
    }

    /// `point` in `layer`'s coordinates (nil: the root's) converted to this
    /// layer's. Layers of different trees convert through their roots.
    public func convert(_ point: Point, from layer: Layer?) -> Point {
        let fromRoot = (layer?.transformToRoot() ?? .identity).planeHomography.mapPoint(point)
        guard let fromRoot, let p = transformToRoot().planeHomography.inverted()?.mapPoint(fromRoot) else {
            return Point(x: Double.nan, y: Double.nan)
        }
        return p
    }

    /// `point` in this layer's coordinates converted to `layer`'s.
    public func convert(_ point: Point, to layer: Layer?) -> Point {
        if let layer { return layer.convert(point, from: self) }
        return transformToRoot().planeHomography.mapPoint(point) ?? Point(x: Double.nan, y: Double.nan)
    }

    /// The bounding box of `rect` (in `layer`'s coordinates) in this layer's.
    public func convert(_ rect: Rect, from layer: Layer?) -> Rect {
        Layer.boundingBox(rect.corners.map { convert($0, from: layer) })
    }

    /// The bounding box of `rect` (in this layer's coordinates) in `layer`'s.
    public func convert(_ rect: Rect, to layer: Layer?) -> Rect {
        Layer.boundingBox(rect.corners.map { convert($0, to: layer) })
    }

    nonisolated static func boundingBox(_ points: [Point]) -> Rect {
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return .null }
        let xs = points.map(\.x), ys = points.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

extension Rect {
    /// The four corners, clockwise from (minX, minY) (the top left, y down).
    var corners: [Point] {
        [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY), Point(x: minX, y: maxY)]
    }
}

extension Homography {
    /// The image of `p`, or nil when it is at or beyond infinity.
    func mapPoint(_ p: Point) -> Point? {
        let r = map(p)
        guard r.w > 1e-12 else { return nil }
        return Point(x: r.x / r.w, y: r.y / r.w)
    }

    /// The inverse map, or nil when singular.
    func inverted() -> Homography? {
        let (a, b, c) = (m11, m12, m14)
        let (d, e, f) = (m21, m22, m24)
        let (g, h, i) = (m41, m42, m44)
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        let r = Homography(
            m11: A / det, m12: -(b * i - c * h) / det, m14: (b * f - c * e) / det,
            m21: B / det, m22: (a * i - c * g) / det, m24: -(a * f - c * d) / det,
            m41: C / det, m42: -(a * h - b * g) / det, m44: (a * e - b * d) / det)
        return r
    }
}
