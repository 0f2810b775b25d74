public import Foundation
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

/// The coder a layer's copy is made with (`presentation()`): a subclass's
/// `init?(coder:)` reads the layer being copied from it, to copy its own
/// stored values.
public final class LayerCopyCoder: NSCoder {
    /// The layer being copied.
    public let model: Layer

    init(model: Layer) { self.model = model }

    /// The layer that `coder` copies, or nil when it is not a
    /// `LayerCopyCoder` (a layer made anew).
    public static func model(of coder: NSCoder) -> Layer? { (coder as? LayerCopyCoder)?.model }
}

/// A layer that another API's layer class stands for by being it (QuartzCore's
/// `CALayer` is a `Layer`): the engine asks it the questions that API lets
/// its subclasses answer, under that API's names and types.
@MainActor
package protocol LayerFrontEnd: Layer {
    /// The action for a change of `key`, or nil for the layer's own lookup;
    /// asked only while `bridgeFlag` is set.
    func frontEndAction(forKey key: String) -> LayerAction?
    /// Whether `point` (in the layer's coordinates) is inside it, for hit testing.
    func frontEndContains(_ point: Point) -> Bool
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
    final var isDirty = true
    /// Some layer below changed since the last commit.
    final var subtreeDirty = false
    final var hasBeenCommitted = false
    final var needsDisplayFlag = false
    final var needsLayoutFlag = false
    /// In `AnimationRegistry`.
    final var isRegisteredForAnimations = false
    /// Whether a change of bounds calls `setNeedsDisplay()`.
    public final var needsDisplayOnBoundsChange = false
    /// Whether to ask the layer, as a `LayerFrontEnd`, for its actions
    /// (QuartzCore sets it while a `CALayer` has a delegate or actions, or is
    /// of a subclass). Kept here, in the byte the flags above leave free, so
    /// that a front end adds no cache line to a layer.
    package final var bridgeFlag = false
    /// Unique for the process; render tree nodes carry it.
    let id: Int
    static var nextID = 0
    /// Identifies the layer's own values as committed: a new number at each
    /// commit after they changed.
    final var stateVersion = 0
    /// `RenderNode.lookVersion` of the last commit.
    final var lookVersion = 0
    /// The node of the last commit, reused while nothing below changes.
    final var lastNode: RenderNode?
    /// The sublayers (`sublayers`).
    final var sublayerList: [Layer] = []
    /// Animations in the order added, with their keys.
    final var animationEntries: [AnimationEntry] = []
    /// The superlayer (`superlayer`).
    weak final var superlayerRef: Layer?
    /// The model values.
    final var state = LayerState()
    /// The delegate (`delegate`).
    weak final var delegateRef: (any LayerDelegate)?
    /// The actions by key (`actions`).
    final var actionTable: [String: LayerAction] = [:]
    /// A name, for debugging and for looking layers up.
    public final var name: String?
    /// The part asked to be redrawn by `setNeedsDisplay(in:)`; nil is all.
    final var needsDisplayRect: Rect?
    /// `contentsVersion` when `drawContents()` last made the contents: a
    /// partial redraw may start from them only while they are still those.
    final var backingVersion = -1
    /// Bumped whenever `display()` makes new contents.
    final var contentsVersion = 0
    /// See `clock`.
    final var clockCache: (generation: Int, clock: (any MediaClock)?) = (-1, nil)
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
    weak final var host: LayerHost?

    public init() {
        Layer.nextID += 1
        id = Layer.nextID
        Transaction.noteChange()
    }

    /// A layer with the default values: Strata reads no archives. When
    /// `coder` is a `LayerCopyCoder`, a copy of its model's values instead,
    /// which is how `presentation()` makes its copies. Subclasses with stored
    /// values of their own copy them from `LayerCopyCoder.model(of: coder)`.
    ///
    /// The one initializer every subclass has: Core Animation's `CALayer`
    /// subclasses write `init?(coder:)` whenever they write an initializer of
    /// their own, so it is the one a `Layer` can require of them.
    public required init?(coder: NSCoder) {
        Layer.nextID += 1
        id = Layer.nextID
        if let model = LayerCopyCoder.model(of: coder) {
            state = model.state
            name = model.name
        } else {
            Transaction.noteChange()
        }
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

    // MARK: Changes

    /// Records a change of the value at `kp` (key `key`): marks the layer for
    /// commit and runs the key's action.
    /// Inlined into each setter, so that the key path is a literal there and
    /// the compiler turns it into a plain field access.
    @inline(__always)
    final func change<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<LayerState, V>, _ value: V) {
        guard state[keyPath: kp] != value else { return }
        let before = hasBeenCommitted ? actionStartValue(forKey: key) : nil
        state[keyPath: kp] = value
        markDirty()
        if let before { runAction(forKey: key, from: before) }
    }

    /// The presentation value a change of `key` animates from, or nil when the
    /// change runs no action (actions disabled, or not an animatable key).
    final func actionStartValue(forKey key: String) -> (any AnimatableValue)? {
        guard !Transaction.disableActions, let accessor = LayerState.accessors[key] else { return nil }
        return presentationValue(forKey: key, accessor: accessor)
    }

    /// Marks this layer changed, and its ancestors as having a changed descendant.
    /// A layer already marked has marked its ancestors too: every path that
    /// attaches a layer marks the new parent's line (`insertSublayer`, `mask`),
    /// and a commit clears the marks of every layer it visits together.
    final func markDirty() {
        if isDirty && hasBeenCommitted {
            Transaction.noteChange()
            return
        }
        isDirty = true
        markAncestorsDirty()
    }

    final func markAncestorsDirty() {
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
    public final var rootLayer: Layer {
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner { layer = parent }
        return layer
    }

    /// The layer whose alpha masks this one (`mask`).
    final var maskLayer: Layer?
    /// The layer this one masks.
    weak final var maskOwner: Layer?

    // MARK: Hit testing

    /// Hit testing inside a transform layer: `point` is in the plane the
    /// transform layer's members flatten into, and `context` maps the
    /// superlayer's 3D space to that plane's.
    final func hitTest(_ point: Point, context: Transform3D?) -> Layer? {
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
        if state.masksToBounds && !hitContains(local) { return nil }
        for sub in sublayersInDrawingOrder.reversed() {
            if let hit = sub.hitTest(local, context: nil) { return hit }
        }
        return hitContains(local) ? self : nil
    }

    /// Whether a hit test at `point` (in this layer's coordinates) lands on
    /// the layer: a front end's layer answers through its own API.
    final func hitContains(_ point: Point) -> Bool {
        if let frontEnd = self as? any LayerFrontEnd { return frontEnd.frontEndContains(point) }
        return state.bounds.contains(point)
    }

    /// Sublayers from back to front: by `zPosition`, then in array order.
    final var sublayersInDrawingOrder: [Layer] {
        guard sublayers.contains(where: { $0.state.zPosition != 0 }) else { return sublayers }
        return sublayers.enumerated().sorted { a, b in
            a.element.state.zPosition != b.element.state.zPosition ? a.element.state.zPosition < b.element.state.zPosition : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Sublayers

    public final func removeFromSuperlayer() {
        guard let parent = superlayer, let i = parent.sublayers.firstIndex(where: { $0 === self }) else { return }
        parent.sublayerList.remove(at: i)
        superlayerRef = nil
        Layer.treesChanged()
        parent.markDirty()
    }

    /// Replaces all sublayers.
    public final func setSublayers(_ layers: [Layer]) {
        for layer in sublayers { layer.removeFromSuperlayer() }
        for layer in layers { addSublayer(layer) }
    }

    final func isDescendant(of layer: Layer) -> Bool {
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
    final func transformToRoot() -> Transform3D {
        var t = Transform3D.identity
        var layer: Layer = self
        while let parent = layer.superlayer {
            t = t.concatenating(layer.state.localToParent(sublayerTransformOfParent: parent.state.sublayerTransformAboutAnchor))
            if !parent.state.preservesDepth { t = t.flattened }
            layer = parent
        }
        return t.flattened
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
