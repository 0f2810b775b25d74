public import CoreGraphics
internal import StrataGraphics
package import StrataLayers

/// What a layer asks of the object it serves (`CALayerDelegate`): every
/// method is optional.
@MainActor
public protocol CALayerDelegate: AnyObject {
    /// Makes the layer's contents; by default, draws them through
    /// `draw(_:in:)` into a backing image.
    func display(_ layer: CALayer)
    /// Draws the layer's contents into `ctx` (the layer's bounds space, y down).
    func draw(_ layer: CALayer, in ctx: CGContext)
    /// Positions the layer's sublayers.
    func layoutSublayers(of layer: CALayer)
    /// The action for a change of `event`: nil continues the search,
    /// `NSNull()` stops it with no action.
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)?
}

extension CALayerDelegate {
    public func display(_ layer: CALayer) { layer.strata.drawContents() }
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
    public func layoutSublayers(of layer: CALayer) {}
}

/// A Strata layer that hands its drawing, display and layout to the
/// `CALayer` it stands for. Its `owner` is unowned, not weak: a weak
/// reference would give every `CALayer` a side table, which makes each
/// retain of it slow (a tenth of moving 10,000 layers); the `CALayer`
/// clears it in its deinit.
@MainActor
protocol BridgedLayer: Layer {
    var owner: CALayer? { get set }
}

@MainActor
final class PlainBridgedLayer: Layer, BridgedLayer {
    unowned var owner: CALayer?
    override func action(forKey key: String) -> LayerAction? { owner?.strataAction(forKey: key) ?? super.action(forKey: key) }
    override func display() { owner?.display() ?? super.display() }
    override func draw(in canvas: Canvas) { owner?.draw(in: CGContext(canvas: canvas)) }
    override func layoutSublayers() { owner?.layoutSublayers() }
}

/// A layer of a tree that Core Animation composites, by Core Animation's
/// names: a `CALayer` tree *is* a Strata layer tree, each `CALayer` standing
/// for one Strata layer (`strata`), its values converted at the edge.
///
/// A `CALayer` owns its sublayers, as in Core Animation. Like the rest of
/// the tree it belongs to the main actor here.
@MainActor
open class CALayer {
    /// The Strata layer this one stands for.
    package let strata: Layer
    private var sublayerList: [CALayer] = []
    public private(set) weak var superlayer: CALayer?
    /// The layer's delegate (held weakly).
    public weak var delegate: (any CALayerDelegate)? {
        didSet { delegateDidChange() }
    }
    /// Actions by key, consulted after the delegate (`action(forKey:)`).
    public var actions: [String: any CAAction]?
    /// The animations added, by key (what `animation(forKey:)` returns).
    var addedAnimations: [String: CAAnimation] = [:]

    public init() {
        strata = Self.makeStrataLayer()
        setUp()
    }

    /// A layer made from `layer` (Core Animation calls this to make
    /// presentation copies; here it copies the model values). Designated,
    /// as in Core Animation, so that subclasses' `override init(layer:)`
    /// can call `super.init(layer:)`.
    public init(layer: Any) {
        strata = Self.makeStrataLayer()
        setUp()
        if let other = layer as? CALayer {
            bounds = other.bounds
            position = other.position
            anchorPoint = other.anchorPoint
            opacity = other.opacity
            backgroundColor = other.backgroundColor
        }
    }

    /// For subclasses that decode (`NSCoding`): Strata reads no archives,
    /// so this makes a layer with the default values.
    public required init?(coder: NSCoder) {
        strata = Self.makeStrataLayer()
        setUp()
    }

    /// What every initializer does once `strata` exists; subclasses here
    /// override it to set their own defaults, so that they inherit all
    /// three initializers.
    func setUp() {
        (strata as? any BridgedLayer)?.owner = self
        // Core Animation's defaults that differ from Strata's.
        strata.shadowOffset = Size(width: 0, height: -3)
        strata.shadowRadius = 3
    }

    isolated deinit {
        (strata as? any BridgedLayer)?.owner = nil
    }

    /// Called when `delegate` is set; subclasses here that hand it to other
    /// threads override it.
    func delegateDidChange() {}

    /// Sets the Apple-typed values kept beside the Strata layer (colours,
    /// paths) from the presented Strata values; subclasses add theirs.
    func takePresentedValues(from model: CALayer) {
        backgroundCGColor = CALayer.presented(strata.backgroundColor, model: model.backgroundCGColor)
        borderCGColor = model.borderCGColor == nil ? nil : CALayer.presented(strata.borderColor, model: model.borderCGColor)
        shadowCGColor = model.shadowCGColor == nil ? nil : CALayer.presented(strata.shadowColor, model: model.shadowCGColor)
        shadowCGPath = model.shadowCGPath
    }

    /// The colour shown: the model's own object when no animation changes
    /// it (so it compares equal, in its own colour space), else a new one.
    static func presented(_ shown: Color?, model: CGColor?) -> CGColor? {
        guard let shown else { return nil }
        if let model, model.strata == shown { return model }
        return CGColor(shown)
    }

    /// The Strata layer a new `CALayer` of this class stands for.
    class func makeStrataLayer() -> Layer { PlainBridgedLayer() }

    // MARK: Geometry

    public var bounds: CGRect {
        get { CGRect(strata.bounds) }
        set { strata.bounds = newValue.strata }
    }
    public var position: CGPoint {
        get { CGPoint(strata.position) }
        set { strata.position = newValue.strata }
    }
    public var anchorPoint: CGPoint {
        get { CGPoint(strata.anchorPoint) }
        set { strata.anchorPoint = newValue.strata }
    }
    public var anchorPointZ: CGFloat {
        get { strata.anchorPointZ }
        set { strata.anchorPointZ = Double(newValue) }
    }
    public var zPosition: CGFloat {
        get { strata.zPosition }
        set { strata.zPosition = Double(newValue) }
    }
    public var frame: CGRect {
        get { CGRect(strata.frame) }
        set { strata.frame = newValue.strata }
    }
    public var transform: CATransform3D {
        get { CATransform3D(strata.transform) }
        set { strata.transform = newValue.strata }
    }
    public var sublayerTransform: CATransform3D {
        get { CATransform3D(strata.sublayerTransform) }
        set { strata.sublayerTransform = newValue.strata }
    }
    public func affineTransform() -> CGAffineTransform { CGAffineTransform(strata.affineTransform) }
    public func setAffineTransform(_ m: CGAffineTransform) { strata.affineTransform = m.strata }

    // MARK: Appearance

    public var isHidden: Bool {
        get { strata.isHidden }
        set { strata.isHidden = newValue }
    }
    public var opacity: Float {
        get { Float(strata.opacity) }
        set { strata.opacity = Double(newValue) }
    }
    public var isDoubleSided: Bool {
        get { strata.isDoubleSided }
        set { strata.isDoubleSided = newValue }
    }
    public var allowsGroupOpacity: Bool {
        get { strata.allowsGroupOpacity }
        set { strata.allowsGroupOpacity = newValue }
    }
    private var backgroundCGColor: CGColor?
    public var backgroundColor: CGColor? {
        get { backgroundCGColor }
        set {
            backgroundCGColor = newValue
            strata.backgroundColor = newValue?.strata
        }
    }
    public var cornerRadius: CGFloat {
        get { strata.cornerRadius }
        set { strata.cornerRadius = Double(newValue) }
    }
    public var maskedCorners: CACornerMask {
        get { CACornerMask(rawValue: UInt(strata.maskedCorners.rawValue)) }
        set { strata.maskedCorners = CornerMask(rawValue: UInt8(truncatingIfNeeded: newValue.rawValue & 0xF)) }
    }
    public var borderWidth: CGFloat {
        get { strata.borderWidth }
        set { strata.borderWidth = Double(newValue) }
    }
    private var borderCGColor: CGColor? = CGColor.black
    public var borderColor: CGColor? {
        get { borderCGColor }
        set {
            borderCGColor = newValue
            strata.borderColor = newValue?.strata ?? .clear
        }
    }
    public var masksToBounds: Bool {
        get { strata.masksToBounds }
        set { strata.masksToBounds = newValue }
    }
    private var shadowCGColor: CGColor? = CGColor.black
    public var shadowColor: CGColor? {
        get { shadowCGColor }
        set {
            shadowCGColor = newValue
            strata.shadowColor = newValue?.strata ?? .clear
        }
    }
    public var shadowOpacity: Float {
        get { Float(strata.shadowOpacity) }
        set { strata.shadowOpacity = Double(newValue) }
    }
    public var shadowOffset: CGSize {
        get { CGSize(width: strata.shadowOffset.width, height: strata.shadowOffset.height) }
        set { strata.shadowOffset = newValue.strata }
    }
    public var shadowRadius: CGFloat {
        get { strata.shadowRadius }
        set { strata.shadowRadius = Double(newValue) }
    }
    private var shadowCGPath: CGPath?
    public var shadowPath: CGPath? {
        get { shadowCGPath }
        set {
            shadowCGPath = newValue
            strata.shadowPath = newValue?.path
        }
    }
    public var name: String? {
        get { strata.name }
        set { strata.name = newValue }
    }

    // MARK: Contents

    /// The layer's image: a `CGImage` (anything else shows nothing).
    public var contents: Any? {
        get { strata.contents.map { CGImage($0) } }
        set { strata.contents = (newValue as? CGImage)?.image }
    }
    public var contentsScale: CGFloat {
        get { strata.contentsScale }
        set { strata.contentsScale = Double(newValue) }
    }
    public var contentsRect: CGRect {
        get { CGRect(strata.contentsRect) }
        set { strata.contentsRect = newValue.strata }
    }
    public var contentsCenter: CGRect {
        get { CGRect(strata.contentsCenter) }
        set { strata.contentsCenter = newValue.strata }
    }
    public var contentsGravity: CALayerContentsGravity {
        get { CALayerContentsGravity(strata.contentsGravity) }
        set { strata.contentsGravity = newValue.strata }
    }
    public var needsDisplayOnBoundsChange: Bool {
        get { strata.needsDisplayOnBoundsChange }
        set { strata.needsDisplayOnBoundsChange = newValue }
    }

    /// Marks the contents for drawing again before the next frame.
    public func setNeedsDisplay() { strata.setNeedsDisplay() }
    public func setNeedsDisplay(_ rect: CGRect) { strata.setNeedsDisplay(in: rect.strata) }
    public func needsDisplay() -> Bool { strata.needsDisplay }
    public func displayIfNeeded() { strata.displayIfNeeded() }

    /// Makes the contents: the delegate's `display(_:)`, which by default
    /// draws `draw(in:)` into a backing image. Subclasses may set `contents`
    /// instead.
    open func display() {
        if let delegate { delegate.display(self) } else { strata.drawContents() }
    }

    /// Draws the contents into `ctx`, in the layer's bounds space with y
    /// down: the delegate's `draw(_:in:)` by default.
    open func draw(in ctx: CGContext) { delegate?.draw(self, in: ctx) }

    // MARK: Layout

    public func setNeedsLayout() { strata.setNeedsLayout() }
    public func needsLayout() -> Bool { strata.needsLayout }
    public func layoutIfNeeded() { strata.layoutIfNeeded() }
    /// Positions the sublayers: the delegate's `layoutSublayers(of:)` by default.
    open func layoutSublayers() { delegate?.layoutSublayers(of: self) }

    // MARK: The tree

    /// The sublayers, back to front (nil when there are none, as in Core Animation).
    public var sublayers: [CALayer]? {
        get { sublayerList.isEmpty ? nil : sublayerList }
        set {
            for layer in sublayerList { layer.superlayer = nil }
            let new = newValue ?? []
            for layer in new { layer.detach() }
            sublayerList = new
            for layer in new { layer.superlayer = self }
            strata.setSublayers(new.map(\.strata))
        }
    }

    public func addSublayer(_ layer: CALayer) { insertSublayer(layer, at: UInt32(clamping: sublayerList.count)) }

    /// Inserts `layer` at `index` (held to the sublayers there are).
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        layer.detach()
        let i = Swift.min(Int(index), sublayerList.count)
        // Placed against its neighbour rather than by index: the Strata layer
        // may have sublayers of its own (a scroll view's indicators).
        if i < sublayerList.count {
            strata.insertSublayer(layer.strata, below: sublayerList[i].strata)
        } else {
            strata.addSublayer(layer.strata)
        }
        sublayerList.insert(layer, at: i)
        layer.superlayer = self
    }

    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let i = sibling.flatMap { s in sublayerList.firstIndex { $0 === s } } ?? 0
        insertSublayer(layer, at: UInt32(i))
    }

    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let i = sibling.flatMap { s in sublayerList.firstIndex { $0 === s }.map { $0 + 1 } } ?? sublayerList.count
        insertSublayer(layer, at: UInt32(i))
    }

    /// Puts `new` where `old` is (nothing when `old` is not a sublayer).
    public func replaceSublayer(_ old: CALayer, with new: CALayer) {
        guard let i = sublayerList.firstIndex(where: { $0 === old }) else { return }
        old.removeFromSuperlayer()
        insertSublayer(new, at: UInt32(i))
    }

    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.sublayerList.removeAll { $0 === self }
        superlayer = nil
        strata.removeFromSuperlayer()
    }

    /// Takes the layer out of the tree it is in, if any, before it joins another.
    private func detach() {
        if superlayer != nil { removeFromSuperlayer() }
    }

    /// A layer that masks this one by its alpha.
    public var mask: CALayer? {
        didSet { strata.mask = mask?.strata }
    }

    // MARK: Coordinates and hit testing

    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint { CGPoint(strata.convert(p.strata, from: layer?.strata)) }
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint { CGPoint(strata.convert(p.strata, to: layer?.strata)) }
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect { CGRect(strata.convert(r.strata, from: layer?.strata)) }
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect { CGRect(strata.convert(r.strata, to: layer?.strata)) }

    /// Whether `p` (in this layer's space) is inside its bounds.
    open func contains(_ p: CGPoint) -> Bool { strata.contains(p.strata) }

    /// The deepest layer at `p` (in the superlayer's space), or nil.
    public func hitTest(_ p: CGPoint) -> CALayer? {
        (strata.hitTest(p.strata) as? any BridgedLayer)?.owner
    }
}

/// Which corners `cornerRadius` rounds.
public struct CACornerMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
}

/// How contents fill the bounds.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let center = CALayerContentsGravity(rawValue: "center")
    public static let top = CALayerContentsGravity(rawValue: "top")
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    public static let left = CALayerContentsGravity(rawValue: "left")
    public static let right = CALayerContentsGravity(rawValue: "right")
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")

    init(_ g: ContentsGravity) { self.init(rawValue: "\(g)") }

    var strata: ContentsGravity {
        switch rawValue {
        case "center": .center
        case "top": .top
        case "bottom": .bottom
        case "left": .left
        case "right": .right
        case "topLeft": .topLeft
        case "topRight": .topRight
        case "bottomLeft": .bottomLeft
        case "bottomRight": .bottomRight
        case "resizeAspect": .resizeAspect
        case "resizeAspectFill": .resizeAspectFill
        default: .resize
        }
    }
}
