public import CoreGraphics
public import StrataGraphics
public import StrataLayers

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

/// A layer of a tree that Core Animation composites, by Core Animation's
/// names: a `CALayer` *is* a Strata layer (a subclass of `Layer`), so a
/// `CALayer` tree is the layer tree the compositor draws, with no second
/// object per layer. Its values are Core Animation's types, converted at
/// the edge; `Layer`'s own members in Strata's types are there too, and
/// never chosen over these (see `LayerProperties`).
///
/// A `CALayer` owns its sublayers, as in Core Animation. Like the rest of
/// the tree it belongs to the main actor here.
///
/// A plain `CALayer` adds one word to its `Layer`: what few layers have
/// (a delegate, actions, animations, a shadow path, colours not in the
/// device spaces: `CALayerExtras`, made when first needed), and two bits
/// per colour for how it is kept. Its sublayers, superlayer and mask are
/// the Strata tree's, and a colour in the device RGB or grey space is kept
/// only as the Strata colour, the `CGColor` made again (equal, not the same
/// object) when asked for. Every byte a layer adds sits between the layers
/// a commit walks: see the results of the layers benchmark.
@MainActor
open class CALayer: Layer, LayerFrontEnd {
    /// This layer as its Strata layer: the same object, typed so that
    /// Strata's members (in Strata's types) are the ones meant.
    package var strata: Layer { self }
    /// What few layers have, made when first needed.
    var extras: CALayerExtras?
    /// How `backgroundColor`, `borderColor` and `shadowColor` are kept.
    private var colorKinds = ColorKinds.initial

    /// The layer this one is a sublayer of, or nil.
    public var superlayer: CALayer? { strata.superlayer as? CALayer }
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

    /// Sets whether the engine asks this layer for its actions (`bridgeFlag`):
    /// when it has a delegate or actions, or is of a subclass (which may
    /// override `action(forKey:)` or `defaultAction(forKey:)`); else the
    /// engine's own lookup answers, as Core Animation's would.
    private func noteActionSources() {
        strata.bridgeFlag = extras?.delegate != nil || extras?.actions != nil || type(of: self) != CALayer.self
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

    public override init() {
        super.init()
        setUp()
    }

    /// A layer made from `layer` (Core Animation calls this to make
    /// presentation copies; here it copies the model values). Designated,
    /// as in Core Animation, so that subclasses' `override init(layer:)`
    /// can call `super.init(layer:)`.
    public init(layer: Any) {
        super.init()
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
        super.init(coder: coder)
        setUp()
    }

    /// What every initializer does once the layer exists; subclasses here
    /// override it to make themselves their Strata kind and set their own
    /// defaults, so that they inherit all three initializers.
    func setUp() {
        noteActionSources()
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

    /// Marks the contents for drawing again before the next frame.
    public func setNeedsDisplay() { strata.setNeedsDisplay() }
    public func setNeedsDisplay(_ rect: CGRect) { strata.setNeedsDisplay(in: rect.strata) }
    public func needsDisplay() -> Bool { strata.needsDisplay }
    public func displayIfNeeded() { strata.displayIfNeeded() }

    /// Makes the contents: the delegate's `display(_:)`, which by default
    /// draws `draw(in:)` into a backing image. Subclasses may set `contents`
    /// instead.
    open override func display() {
        if let delegate { delegate.display(self) } else { strata.drawContents() }
    }

    /// The Strata drawing of the contents: Core Animation's `draw(in:)`,
    /// into a context on `canvas`.
    public final override func draw(in canvas: Canvas) { draw(in: CGContext(canvas: canvas)) }

    /// Draws the contents into `ctx`, in the layer's bounds space with y
    /// down: the delegate's `draw(_:in:)` by default.
    open func draw(in ctx: CGContext) { delegate?.draw(self, in: ctx) }

    // MARK: Actions

    /// The action for a change of `event`, found as Core Animation finds it:
    /// the delegate's `action(for:forKey:)`, then `actions`, then the
    /// class's `defaultAction(forKey:)`. `NSNull` anywhere stops the search
    /// with no action. Subclasses may override it.
    open func action(forKey event: String) -> (any CAAction)? {
        if let a = delegate?.action(for: self, forKey: event) { return a }
        if let a = actions?[event] { return a }
        return Self.defaultAction(forKey: event)
    }

    /// The action for `event` when neither the delegate nor `actions` gives
    /// one: nil, which leaves the layer's implicit animation (a quarter
    /// second from the old value, for animatable properties).
    open class func defaultAction(forKey event: String) -> (any CAAction)? { nil }

    // MARK: Layout

    public func setNeedsLayout() { strata.setNeedsLayout() }
    public func needsLayout() -> Bool { strata.needsLayout }
    public func layoutIfNeeded() { strata.layoutIfNeeded() }
    /// Positions the sublayers: the delegate's `layoutSublayers(of:)` by default.
    open override func layoutSublayers() { delegate?.layoutSublayers(of: self) }

    // MARK: The tree

    /// The sublayers, back to front (nil when there are none, as in Core Animation).
    public var sublayers: [CALayer]? {
        get {
            let list = sublayerList
            return list.isEmpty ? nil : list
        }
        set { strata.setSublayers(newValue ?? []) }
    }

    /// The sublayers that are `CALayer`s, back to front (a view's layer may
    /// have Strata layers of its own among them: a scroll view's indicators).
    private var sublayerList: [CALayer] { strata.sublayers.compactMap { $0 as? CALayer } }

    public func addSublayer(_ layer: CALayer) { strata.addSublayer(layer) }

    /// Inserts `layer` at `index` among the `CALayer` sublayers (held to
    /// the sublayers there are).
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        let list = sublayerList
        let i = Swift.min(Int(index), list.count)
        // Placed against its neighbour rather than by index: the Strata layer
        // may have sublayers of its own (a scroll view's indicators).
        if i < list.count, list[i] !== layer {
            strata.insertSublayer(layer, below: list[i])
        } else if i >= list.count {
            strata.addSublayer(layer)
        }
    }

    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let i = sibling.flatMap { s in sublayerList.firstIndex { $0 === s } } ?? 0
        insertSublayer(layer, at: UInt32(i))
    }

    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let list = sublayerList
        let i = sibling.flatMap { s in list.firstIndex { $0 === s }.map { $0 + 1 } } ?? list.count
        insertSublayer(layer, at: UInt32(i))
    }

    /// Puts `new` where `old` is (nothing when `old` is not a sublayer).
    public func replaceSublayer(_ old: CALayer, with new: CALayer) { strata.replaceSublayer(old, with: new) }

    /// A layer that masks this one by its alpha.
    public var mask: CALayer? {
        get { strata.mask as? CALayer }
        set { strata.mask = newValue }
    }

    // MARK: Coordinates and hit testing

    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint { CGPoint(strata.convert(p.strata, from: layer?.strata)) }
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint { CGPoint(strata.convert(p.strata, to: layer?.strata)) }
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect { CGRect(strata.convert(r.strata, from: layer?.strata)) }
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect { CGRect(strata.convert(r.strata, to: layer?.strata)) }

    /// Whether `p` (in this layer's space) is inside its bounds.
    open func contains(_ p: CGPoint) -> Bool { strata.contains(p.strata) }

    package func frontEndContains(_ point: Point) -> Bool { contains(CGPoint(point)) }

    /// The deepest layer at `p` (in the superlayer's space), or nil.
    public func hitTest(_ p: CGPoint) -> CALayer? {
        strata.hitTest(p.strata) as? CALayer
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
    weak var delegate: (any CALayerDelegate)?
    var actions: [String: any CAAction]?
    var addedAnimations: [String: CAAnimation] = [:]
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
