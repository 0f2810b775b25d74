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
    override func action(forKey key: String) -> LayerAction? {
        bridgeFlag ? owner?.strataAction(forKey: key) ?? super.action(forKey: key) : super.action(forKey: key)
    }
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
///
/// A plain `CALayer` is three words: its Strata layer, what few layers have
/// (sublayers, a delegate, actions, animations, a mask, colours not in the
/// device spaces: `CALayerExtras`, made when first needed) and how its
/// colours are kept. Its superlayer is read from the Strata tree, and a
/// colour in the device RGB or grey space is kept only as the Strata
/// colour, the `CGColor` made again (equal, not the same object) when
/// asked for. Every byte a layer adds sits between the Strata layers a
/// commit walks: moving 10,000 layers cost a fifth more than through the
/// native API while each `CALayer` took 128 bytes and kept its colour.
@MainActor
open class CALayer {
    /// The Strata layer this one stands for.
    package let strata: Layer
    /// What few layers have, made when first needed.
    var extras: CALayerExtras?
    /// How `backgroundColor`, `borderColor` and `shadowColor` are kept.
    private var colorKinds = ColorKinds.initial

    /// The layer this one is a sublayer of, or nil.
    public var superlayer: CALayer? { (strata.superlayer as? any BridgedLayer)?.owner }
    /// The layer's delegate (held weakly).
    public var delegate: (any CALayerDelegate)? {
        get { extras?.delegate }
        set {
            guard newValue != nil || extras?.delegate != nil else { return }
            extrasForWriting.delegate = newValue
            noteActionSources()
            delegateDidChange()
        }
    }
    /// Actions by key, consulted after the delegate (`action(forKey:)`).
    public var actions: [String: any CAAction]? {
        get { extras?.actions }
        set {
            guard newValue != nil || extras != nil else { return }
            extrasForWriting.actions = newValue
            noteActionSources()
        }
    }

    /// Tells the Strata layer whether to ask this one for actions (its
    /// `bridgeFlag`): only when it has a delegate or actions, else the Strata
    /// layer's own lookup answers without reading this layer.
    private func noteActionSources() {
        strata.bridgeFlag = extras?.delegate != nil || extras?.actions != nil
    }

    /// The extras, made now if the layer has none yet.
    var extrasForWriting: CALayerExtras {
        if let extras { return extras }
        let made = CALayerExtras()
        extras = made
        return made
    }

    /// The animations added, by key (what `animation(forKey:)` returns).
    var addedAnimations: [String: CAAnimation] { extras?.addedAnimations ?? [:] }

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
        // Colours kept as Strata colours are made again from the presented
        // ones; kept objects are the model's unless an animation changes them.
        colorKinds = model.colorKinds
        for slot in ColorSlot.allCases where colorKinds[slot] == .kept {
            extrasForWriting.colors[slot.rawValue] = CALayer.presented(shown(slot), model: model.extras?.colors[slot.rawValue])
        }
        if let path = model.shadowPath { extrasForWriting.shadowPath = path }
    }

    /// The Strata colour in `slot`.
    private func shown(_ slot: ColorSlot) -> Color? {
        switch slot {
        case .background: strata.backgroundColor
        case .border: strata.borderColor
        case .shadow: strata.shadowColor
        }
    }

    /// The colour in `slot`.
    private func color(_ slot: ColorSlot) -> CGColor? {
        switch colorKinds[slot] {
        case .none: nil
        case .kept: extras?.colors[slot.rawValue]
        case .deviceRGB: shown(slot).map { CGColor(deviceRGB: $0) }
        case .deviceGray:
            // An animation between greys shows greys; one to another colour
            // shows that colour in RGB.
            shown(slot).map { $0.red == $0.green && $0.green == $0.blue ? CGColor(deviceGray: $0) : CGColor(deviceRGB: $0) }
        }
    }

    /// Notes how to give `color` back from `slot`: as the Strata colour
    /// when it is one of the device spaces', else the object itself.
    private func keep(_ color: CGColor?, in slot: ColorSlot) {
        let kind: ColorKind
        switch color?.deviceSpace {
        case .rgb?: kind = .deviceRGB
        case .monochrome?: kind = .deviceGray
        default: kind = color == nil ? .none : .kept
        }
        colorKinds[slot] = kind
        if kind == .kept || extras?.colors[slot.rawValue] != nil { extrasForWriting.colors[slot.rawValue] = kind == .kept ? color : nil }
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
    public var backgroundColor: CGColor? {
        get { color(.background) }
        set {
            keep(newValue, in: .background)
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
    public var borderColor: CGColor? {
        get { color(.border) }
        set {
            keep(newValue, in: .border)
            strata.borderColor = newValue?.strata ?? .clear
        }
    }
    public var masksToBounds: Bool {
        get { strata.masksToBounds }
        set { strata.masksToBounds = newValue }
    }
    public var shadowColor: CGColor? {
        get { color(.shadow) }
        set {
            keep(newValue, in: .shadow)
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
    public var shadowPath: CGPath? {
        get { extras?.shadowPath }
        set {
            guard newValue != nil || extras != nil else { return }
            extrasForWriting.shadowPath = newValue
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
            let new = newValue ?? []
            for layer in new { layer.detach() }
            if !new.isEmpty || extras != nil { extrasForWriting.sublayers = new }
            strata.setSublayers(new.map(\.strata))
        }
    }

    /// The sublayers, back to front (empty when there are none).
    private var sublayerList: [CALayer] { extras?.sublayers ?? [] }

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
        extrasForWriting.sublayers.insert(layer, at: i)
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
        // The Strata layer goes first: the parent's list may hold the last
        // reference to this layer.
        strata.removeFromSuperlayer()
        withExtendedLifetime(self) { parent.extras?.sublayers.removeAll { $0 === self } }
    }

    /// Takes the layer out of the tree it is in, if any, before it joins another.
    private func detach() {
        if superlayer != nil { removeFromSuperlayer() }
    }

    /// A layer that masks this one by its alpha.
    public var mask: CALayer? {
        get { extras?.mask }
        set {
            guard newValue != nil || extras != nil else { return }
            extrasForWriting.mask = newValue
            strata.mask = newValue?.strata
        }
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

/// What few `CALayer`s have, kept out of the layer until first needed (see
/// `CALayer`).
@MainActor
final class CALayerExtras {
    var sublayers: [CALayer] = []
    weak var delegate: (any CALayerDelegate)?
    var actions: [String: any CAAction]?
    var addedAnimations: [String: CAAnimation] = [:]
    var mask: CALayer?
    var shadowPath: CGPath?
    /// The colours kept as objects, by `ColorSlot`.
    var colors: [CGColor?] = [nil, nil, nil]
}

/// The colours a `CALayer` keeps.
enum ColorSlot: Int, CaseIterable {
    case background, border, shadow
}

/// How a `CALayer` keeps one of its colours.
enum ColorKind: UInt8 {
    /// No colour (nil).
    case none
    /// As its Strata colour, in the device RGB space.
    case deviceRGB
    /// As its Strata colour, in the device grey space.
    case deviceGray
    /// As the object set, in `CALayerExtras.colors`.
    case kept
}

/// A `ColorKind` for each `ColorSlot`, two bits each.
struct ColorKinds {
    private var bits: UInt8
    /// Core Animation's defaults: no background, black border and shadow.
    static let initial: ColorKinds = {
        var k = ColorKinds(bits: 0)
        k[.border] = .deviceGray
        k[.shadow] = .deviceGray
        return k
    }()

    subscript(slot: ColorSlot) -> ColorKind {
        get { ColorKind(rawValue: (bits >> (2 * UInt8(slot.rawValue))) & 3)! }
        set {
            let shift = 2 * UInt8(slot.rawValue)
            bits = (bits & ~(3 << shift)) | (newValue.rawValue << shift)
        }
    }
}
