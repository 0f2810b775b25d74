public import StrataGraphics

/// The native layer API: what every `Layer` has, in Strata's types.
///
/// `Layer` is the only type that conforms. Its values, its place in the
/// tree and its coordinate conversions are declared in this extension rather
/// than in the class, because QuartzCore's `CALayer` is a `Layer` (one
/// object: a `CALayer` tree *is* the layer tree the compositor draws) and
/// declares the same names in Core Animation's types (`bounds` as a
/// `CGRect`, `opacity` as a `Float`). Swift lets a subclass declare a
/// member of another type under a name its superclass has only when the
/// superclass's comes from a protocol extension; each here is marked as the
/// one to choose last, so that on a `CALayer` the Core Animation member
/// is always the one meant.
@MainActor
public protocol LayerProperties: Layer {}

extension Layer: LayerProperties {}

extension LayerProperties {
    /// The action for a change of `key` (`action(forKey:)`): the delegate's,
    /// then the `actions` dictionary's, then the class default; `.noAction` at any
    /// step means no action.
    @_disfavoredOverload public func action(forKey key: String) -> LayerAction? {
        lookUpAction(forKey: key)
    }

    /// The class's action for `key`: for animatable properties, an animation
    /// from the old value to the new one with the transaction's duration and
    /// timing function.
    @_disfavoredOverload public static func defaultAction(forKey key: String) -> LayerAction? {
        LayerState.isAnimatable(key) ? .animation(BasicAnimation(keyPath: key)) : nil
    }

    // MARK: The tree

    /// The sublayers, back to front.
    @_disfavoredOverload public var sublayers: [Layer] { sublayerList }
    /// The layer this one is a sublayer of.
    @_disfavoredOverload public var superlayer: Layer? { superlayerRef }
    /// The layer's delegate (held weakly).
    @_disfavoredOverload public var delegate: (any LayerDelegate)? {
        get { delegateRef }
        set { delegateRef = newValue }
    }
    /// Actions by key, consulted after the delegate.
    @_disfavoredOverload public var actions: [String: LayerAction] {
        get { actionTable }
        set { actionTable = newValue }
    }

    // MARK: Geometry

    /// The layer's own coordinate space (`bounds`): its origin is what the
    /// top-left corner shows, its size the layer's size.
    @_disfavoredOverload public var bounds: Rect {
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
    @_disfavoredOverload public var position: Point {
        get { state.position }
        set { change("position", \.position, newValue.cleaned()) }
    }
    /// The point of the bounds, in unit coordinates, that `position` places and
    /// transforms turn about (default (0.5, 0.5)).
    @_disfavoredOverload public var anchorPoint: Point {
        get { state.anchorPoint }
        set { change("anchorPoint", \.anchorPoint, newValue.cleaned(nan: Point(x: 0.5, y: 0.5))) }
    }
    @_disfavoredOverload public var anchorPointZ: Double {
        get { state.anchorPointZ }
        set { change("anchorPointZ", \.anchorPointZ, newValue.clamped(LayerLimits.coordinate)) }
    }
    /// Orders siblings (higher in front) and moves the layer along z.
    @_disfavoredOverload public var zPosition: Double {
        get { state.zPosition }
        set { change("zPosition", \.zPosition, newValue.clamped(LayerLimits.coordinate)) }
    }
    @_disfavoredOverload public var transform: Transform3D {
        get { state.transform }
        set { change("transform", \.transform, newValue.cleaned) }
    }
    /// Applied to the sublayers, about the anchor point.
    @_disfavoredOverload public var sublayerTransform: Transform3D {
        get { state.sublayerTransform }
        set { change("sublayerTransform", \.sublayerTransform, newValue.cleaned) }
    }
    /// The 2D part of `transform` (`affineTransform()`).
    @_disfavoredOverload public var affineTransform: Transform {
        get { state.transform.affineTransform }
        set { transform = Transform3D(newValue) }
    }

    /// The layer's rectangle in its superlayer: derived from bounds, position,
    /// anchor point and transform. Setting it (with an identity transform) sets
    /// the bounds' size and the position.
    @_disfavoredOverload public var frame: Rect {
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

    @_disfavoredOverload public var isHidden: Bool {
        get { state.isHidden }
        set { change("hidden", \.isHidden, newValue) }
    }
    /// 0…1. Applies to the layer and its sublayers as one group when
    /// `allowsGroupOpacity` (the default), else to each on its own.
    @_disfavoredOverload public var opacity: Double {
        get { state.opacity }
        set { change("opacity", \.opacity, newValue.isNaN ? 1 : min(1, max(0, newValue))) }
    }
    @_disfavoredOverload public var allowsGroupOpacity: Bool {
        get { state.allowsGroupOpacity }
        set { change("allowsGroupOpacity", \.allowsGroupOpacity, newValue) }
    }
    /// Whether the back of the layer shows when it is turned away.
    @_disfavoredOverload public var isDoubleSided: Bool {
        get { state.isDoubleSided }
        set { change("doubleSided", \.isDoubleSided, newValue) }
    }
    @_disfavoredOverload public var backgroundColor: Color? {
        get { state.backgroundColor }
        set { change("backgroundColor", \.backgroundColor, newValue) }
    }
    /// Rounds the background, border and (with `masksToBounds`) the clip.
    @_disfavoredOverload public var cornerRadius: Double {
        get { state.cornerRadius }
        set { change("cornerRadius", \.cornerRadius, newValue.clampedLength(LayerLimits.coordinate)) }
    }
    @_disfavoredOverload public var maskedCorners: CornerMask {
        get { state.maskedCorners }
        set { change("maskedCorners", \.maskedCorners, newValue) }
    }
    /// Drawn inside the bounds, above the contents and the sublayers.
    @_disfavoredOverload public var borderWidth: Double {
        get { state.borderWidth }
        set { change("borderWidth", \.borderWidth, newValue.clampedLength(LayerLimits.coordinate)) }
    }
    @_disfavoredOverload public var borderColor: Color {
        get { state.borderColor }
        set { change("borderColor", \.borderColor, newValue) }
    }
    /// Clips the contents and sublayers to the (rounded) bounds.
    @_disfavoredOverload public var masksToBounds: Bool {
        get { state.masksToBounds }
        set { change("masksToBounds", \.masksToBounds, newValue) }
    }
    @_disfavoredOverload public var shadowColor: Color {
        get { state.shadowColor }
        set { change("shadowColor", \.shadowColor, newValue) }
    }
    /// 0 (the default) draws no shadow.
    @_disfavoredOverload public var shadowOpacity: Double {
        get { state.shadowOpacity }
        set { change("shadowOpacity", \.shadowOpacity, newValue.isNaN ? 0 : min(1, max(0, newValue))) }
    }
    /// Default (0, −3), as in Core Animation.
    @_disfavoredOverload public var shadowOffset: Size {
        get { state.shadowOffset }
        set { change("shadowOffset", \.shadowOffset, newValue.cleaned(nan: Size(width: 0, height: -3))) }
    }
    /// The blur radius (default 3), 0 to 1000 points (`LayerLimits.shadowRadius`).
    @_disfavoredOverload public var shadowRadius: Double {
        get { state.shadowRadius }
        set { change("shadowRadius", \.shadowRadius, newValue.clampedLength(LayerLimits.shadowRadius)) }
    }
    /// The shadow's shape; nil casts it from the layer's composited alpha.
    @_disfavoredOverload public var shadowPath: Path? {
        get { state.shadowPath }
        set { change("shadowPath", \.shadowPath, newValue) }
    }

    // MARK: Contents

    /// An image shown in the bounds, placed by `contentsGravity`.
    @_disfavoredOverload public var contents: Image? {
        get { state.contents }
        set {
            change("contents", \.contents, newValue)
            contentsVersion += 1
        }
    }
    /// The part of the contents shown, in unit coordinates (default all of it).
    @_disfavoredOverload public var contentsRect: Rect {
        get { state.contentsRect }
        set { change("contentsRect", \.contentsRect, newValue.cleaned(nan: Rect(x: 0, y: 0, width: 1, height: 1))) }
    }
    /// The stretchable middle of the contents, in unit coordinates: the parts
    /// outside it keep their size (nine-slice). Default: all of it stretches.
    @_disfavoredOverload public var contentsCenter: Rect {
        get { state.contentsCenter }
        set { change("contentsCenter", \.contentsCenter, newValue.cleaned(nan: Rect(x: 0, y: 0, width: 1, height: 1))) }
    }
    @_disfavoredOverload public var contentsGravity: ContentsGravity {
        get { state.contentsGravity }
        set { change("contentsGravity", \.contentsGravity, newValue) }
    }
    /// Pixels of contents per point (default 1).
    @_disfavoredOverload public var contentsScale: Double {
        get { state.contentsScale }
        set { change("contentsScale", \.contentsScale, newValue > 0 ? min(LayerLimits.contentsScale, newValue) : 1) }
    }

    // MARK: Mask

    /// A layer whose alpha masks this one (its coordinates are this layer's).
    /// It must not be in a tree of its own.
    @_disfavoredOverload public var mask: Layer? {
        get { maskLayer }
        set {
            let oldValue = maskLayer
            maskLayer = newValue
            guard oldValue !== newValue else { return }
            oldValue?.maskOwner = nil
            if let newValue {
                newValue.removeFromSuperlayer()
                newValue.maskOwner = self
            }
            Layer.treesChanged()
            markDirty()
        }
    }
    /// Whether `point` (in this layer's coordinates) is inside the bounds.
    @_disfavoredOverload public func contains(_ point: Point) -> Bool { state.bounds.contains(point) }

    /// The farthest descendant (or this layer) that contains `point`, given in
    /// the superlayer's coordinates; hidden layers and, outside a layer that
    /// masks to its bounds, its sublayers are skipped.
    @_disfavoredOverload public func hitTest(_ point: Point) -> Layer? { hitTest(point, context: nil) }

    @_disfavoredOverload public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: sublayers.count)
    }

    /// Inserts `layer` at `index` (clamped to the sublayers' range), taking it
    /// from wherever it was.
    @_disfavoredOverload public func insertSublayer(_ layer: Layer, at index: Int) {
        guard layer !== self, !isDescendant(of: layer) else { return }
        if layer.superlayer === self, let i = sublayers.firstIndex(where: { $0 === layer }) {
            sublayerList.remove(at: i)
        } else {
            layer.removeFromSuperlayer()
        }
        if layer.maskOwner != nil { layer.maskOwner?.mask = nil }
        sublayerList.insert(layer, at: max(0, min(index, sublayerList.count)))
        layer.superlayerRef = self
        Layer.treesChanged()
        markDirty()
        layer.markDirty()
    }

    @_disfavoredOverload public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        guard let sibling, let i = sublayers.firstIndex(where: { $0 === sibling }) else {
            insertSublayer(layer, at: 0)
            return
        }
        insertSublayer(layer, at: layer.superlayer === self && (sublayers.firstIndex { $0 === layer } ?? .max) < i ? i - 1 : i)
    }

    @_disfavoredOverload public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        guard let sibling, let i = sublayers.firstIndex(where: { $0 === sibling }) else {
            addSublayer(layer)
            return
        }
        insertSublayer(layer, at: layer.superlayer === self && (sublayers.firstIndex { $0 === layer } ?? .max) < i ? i : i + 1)
    }

    /// Puts `new` where `old` is; does nothing when `old` is not a sublayer.
    @_disfavoredOverload public func replaceSublayer(_ old: Layer, with new: Layer) {
        guard old !== new, let i = sublayers.firstIndex(where: { $0 === old }) else { return }
        old.removeFromSuperlayer()
        insertSublayer(new, at: i)
    }

    /// `point` in `layer`'s coordinates (nil: the root's) converted to this
    /// layer's. Layers of different trees convert through their roots.
    @_disfavoredOverload public func convert(_ point: Point, from layer: Layer?) -> Point {
        let fromRoot = (layer?.transformToRoot() ?? .identity).planeHomography.mapPoint(point)
        guard let fromRoot, let p = transformToRoot().planeHomography.inverted()?.mapPoint(fromRoot) else {
            return Point(x: Double.nan, y: Double.nan)
        }
        return p
    }

    /// `point` in this layer's coordinates converted to `layer`'s.
    @_disfavoredOverload public func convert(_ point: Point, to layer: Layer?) -> Point {
        if let layer { return layer.convert(point, from: self) }
        return transformToRoot().planeHomography.mapPoint(point) ?? Point(x: Double.nan, y: Double.nan)
    }

    /// The bounding box of `rect` (in `layer`'s coordinates) in this layer's.
    @_disfavoredOverload public func convert(_ rect: Rect, from layer: Layer?) -> Rect {
        Layer.boundingBox(rect.corners.map { convert($0, from: layer) })
    }

    /// The bounding box of `rect` (in this layer's coordinates) in `layer`'s.
    @_disfavoredOverload public func convert(_ rect: Rect, to layer: Layer?) -> Rect {
        Layer.boundingBox(rect.corners.map { convert($0, to: layer) })
    }
}
