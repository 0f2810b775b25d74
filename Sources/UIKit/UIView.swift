public import CoreGraphics
public import Foundation
public import QuartzCore
package import StrataControls
package import StrataGraphics
internal import StrataLayers
internal import Synchronization

/// The Strata view a `UIView` stands for: it takes part in Strata's input
/// dispatch (hit testing, pointer capture, gesture recognizers) and hands
/// each decision to its `UIView`.
@MainActor
protocol ViewBacking: View {
    var owner: UIView? { get set }
}

@MainActor
package final class ViewNode: View, ViewBacking {
    package weak var owner: UIView?

    init(layer: Layer) { super.init(layer: layer) }

    package override func hitTest(_ point: Point) -> View? {
        guard let owner else { return super.hitTest(point) }
        return owner.hitTest(CGPoint(point), with: nil)?.node
    }

    package override func point(inside point: Point) -> Bool {
        owner?.point(inside: CGPoint(point), with: nil) ?? super.point(inside: point)
    }

    package override func pointerEvent(_ event: PointerEvent) -> Bool { owner?.handlePointer(event) ?? false }

    package override func sizeDidChange() { owner?.boundsSizeDidChange() }

    // The UIView's accessibility properties, for assistive tools.
    package override var isAccessibilityElement: Bool {
        get { owner?.isAccessibilityElement ?? false }
        set { owner?.isAccessibilityElement = newValue }
    }
    package override var accessibilityLabel: String? {
        get { owner?.accessibilityLabel }
        set { owner?.accessibilityLabel = newValue }
    }
    package override var accessibilityValue: String? {
        get { owner?.accessibilityValue }
        set { owner?.accessibilityValue = newValue }
    }
    package override var accessibilityHint: String? {
        get { owner?.accessibilityHint }
        set { owner?.accessibilityHint = newValue }
    }
    package override var accessibilityIdentifier: String? {
        get { owner?.accessibilityIdentifier }
        set { owner?.accessibilityIdentifier = newValue }
    }
    package override var accessibilityTraits: AccessibilityTraits {
        get { owner?.accessibilityTraits.strata ?? [] }
        set {}
    }
    package override var accessibilityElementsHidden: Bool {
        get { owner?.accessibilityElementsHidden ?? false }
        set { owner?.accessibilityElementsHidden = newValue }
    }
    package override var accessibilityCustomActions: [AccessibilityCustomAction] {
        get {
            (owner?.accessibilityCustomActions ?? []).map { action in
                AccessibilityCustomAction(name: action.name) { action.actionHandler?(action) ?? false }
            }
        }
        set {}
    }
    package override func accessibilityActivate() -> Bool { owner?.accessibilityActivate() ?? false }
    package override func accessibilityIncrement() { owner?.accessibilityIncrement() }
    package override func accessibilityDecrement() { owner?.accessibilityDecrement() }
}

/// What a `UIView`'s accessibility properties were set to.
struct UIViewAccessibility {
    var isElement: Bool?
    var label: String?
    var value: String?
    var hint: String?
    var identifier: String?
    var traits: UIAccessibilityTraits = []
    var elementsHidden = false
    var customActions: [UIAccessibilityCustomAction]?
    var frame: CGRect?
}

/// A layer coder for making layers of a class known only at run time
/// (`layerClass`): `init?(coder:)` is the one initializer every `CALayer`
/// subclass has.
final class LayerClassCoder: NSCoder {}

/// A rectangle on screen that draws and handles touches (`UIView`), backed
/// by a `CALayer` (`layer`, of the class `layerClass` names) and by a
/// Strata `View` for input.
///
/// As in UIKit, a view's layer does not animate changes by itself: only
/// changes made inside `UIView.animate(withDuration:…)` animate. A view
/// whose class overrides `draw(_:)` draws into its layer's backing image
/// when first shown and after `setNeedsDisplay()`; `UIGraphicsGetCurrentContext()`
/// is that image's context (y down) during the call.
@MainActor
open class UIView: UIResponder, CALayerDelegate, CATiledLayerDrawing {
    /// The class of the view's layer (`CALayer` by default). A custom
    /// layer class is made with its `init?(coder:)` (see the porting notes).
    open class var layerClass: AnyClass { CALayer.self }

    /// The layer that draws the view.
    public let layer: CALayer
    /// The Strata view behind this one (a scroll view's is a `ScrollView`).
    package let node: View
    public private(set) var subviews: [UIView] = []
    public private(set) weak var superview: UIView?
    /// The view controller whose view this is.
    weak var viewController: UIViewController?
    private var background: UIColor?
    private var tint: UIColor?
    /// The touch the pointer is making in this view, if any.
    private var activeTouch: UITouch?
    private var lastTap: (time: Double, location: CGPoint, count: Int)?
    /// The UIKit recognizers added (their Strata recognizers are on `node`).
    private var recognizers: [UIGestureRecognizer] = []
    /// Set when the base `draw(_:)` runs: the class does not draw.
    /// Atomic: a tiled layer's view draws on other threads.
    private let baseDrawReached = Atomic<Bool>(false)
    /// Classes found not to override `draw(_:)`: their views keep no backing image.
    private static var drawlessClasses = Set([UIView.self, UIImageView.self, UIWindow.self, UIControl.self].map(ObjectIdentifier.init))

    public init(frame: CGRect) {
        layer = UIView.makeLayer(Self.layerClass)
        node = Self.makeNode(layer: layer.strata)
        super.init()
        setUp(frame: frame)
    }

    public required init?(coder: NSCoder) {
        layer = UIView.makeLayer(Self.layerClass)
        node = Self.makeNode(layer: layer.strata)
        super.init()
        setUp(frame: .zero)
    }

    public override convenience init() { self.init(frame: .zero) }

    /// The Strata view for a new view of this class.
    class func makeNode(layer: Layer) -> View { ViewNode(layer: layer) }

    private func setUp(frame: CGRect) {
        (node as? any ViewBacking)?.owner = self
        layer.delegate = self
        node.frame = frame.strata
        knownSize = bounds.size
        layer.setNeedsDisplay()
    }

    static func makeLayer(_ cls: AnyClass) -> CALayer {
        if cls == CALayer.self { return CALayer() }
        if let type = cls as? CALayer.Type, let layer = type.init(coder: LayerClassCoder()) { return layer }
        return CALayer()
    }

    // MARK: Accessibility (UIAccessibility's properties)

    private var accessibilitySettings = UIViewAccessibility()

    /// Whether assistive tools see the view as one element. Default false
    /// (true for labels and controls).
    open var isAccessibilityElement: Bool {
        get { accessibilitySettings.isElement ?? false }
        set { accessibilitySettings.isElement = newValue }
    }
    open var accessibilityLabel: String? {
        get { accessibilitySettings.label }
        set { accessibilitySettings.label = newValue }
    }
    open var accessibilityValue: String? {
        get { accessibilitySettings.value }
        set { accessibilitySettings.value = newValue }
    }
    open var accessibilityHint: String? {
        get { accessibilitySettings.hint }
        set { accessibilitySettings.hint = newValue }
    }
    open var accessibilityIdentifier: String? {
        get { accessibilitySettings.identifier }
        set { accessibilitySettings.identifier = newValue }
    }
    open var accessibilityTraits: UIAccessibilityTraits {
        get { accessibilitySettings.traits }
        set { accessibilitySettings.traits = newValue }
    }
    /// Whether the view's subviews are hidden from assistive tools.
    open var accessibilityElementsHidden: Bool {
        get { accessibilitySettings.elementsHidden }
        set { accessibilitySettings.elementsHidden = newValue }
    }
    open var accessibilityCustomActions: [UIAccessibilityCustomAction]? {
        get { accessibilitySettings.customActions }
        set { accessibilitySettings.customActions = newValue }
    }
    /// The frame in the window's coordinates (Strata measures it from
    /// the view; setting it is kept for code that sets it).
    open var accessibilityFrame: CGRect {
        get { accessibilitySettings.frame ?? convert(bounds, to: nil) }
        set { accessibilitySettings.frame = newValue }
    }
    /// What activating the view does. Default: false (nothing).
    open func accessibilityActivate() -> Bool { false }
    open func accessibilityIncrement() {}
    open func accessibilityDecrement() {}

    // MARK: Geometry

    /// The frame in the superview's coordinates (the bounding box of the
    /// transformed bounds when there is a transform, as in UIKit).
    open var frame: CGRect {
        get { layer.frame }
        set { node.frame = newValue.strata }
    }

    open var bounds: CGRect {
        get { layer.bounds }
        set { node.bounds = newValue.strata }
    }

    open var center: CGPoint {
        get { layer.position }
        set { layer.position = newValue }
    }

    open var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set { layer.setAffineTransform(newValue) }
    }

    /// The 3-D transform of the layer (`transform3D`).
    open var transform3D: CATransform3D {
        get { layer.transform }
        set { layer.transform = newValue }
    }

    /// Pixels a point for the layer's backing image.
    open var contentScaleFactor: CGFloat {
        get { layer.contentsScale }
        set { layer.contentsScale = newValue }
    }

    /// How the bounds' size changing changes the subview (`autoresizingMask`).
    open var autoresizingMask: AutoresizingMask = []
    /// Whether subviews are resized by their masks when this view's size changes.
    open var autoresizesSubviews = true

    /// What the view's size changing does to its contents (`contentMode`):
    /// `.redraw` draws again; the others place the old image.
    open var contentMode: ContentMode = .scaleToFill {
        didSet {
            layer.needsDisplayOnBoundsChange = contentMode == .redraw
            layer.contentsGravity = contentMode.gravity
        }
    }

    /// The bounds' size when it last changed: where autoresizing starts from.
    private var knownSize: CGSize = .zero

    func boundsSizeDidChange() {
        let size = bounds.size
        if autoresizesSubviews, knownSize != size {
            for s in subviews where !s.autoresizingMask.isEmpty { s.autoresize(from: knownSize, to: size) }
        }
        knownSize = size
        setNeedsLayout()
        if contentMode == .redraw { setNeedsDisplay() }
    }

    // MARK: Appearance

    open var backgroundColor: UIColor? {
        get { background }
        set {
            background = newValue
            layer.backgroundColor = newValue?.cgColor
        }
    }

    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set { layer.opacity = Float(newValue) }
    }

    open var isHidden: Bool {
        get { layer.isHidden }
        set { layer.isHidden = newValue }
    }

    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    /// Whether the view fills its bounds with opaque pixels (a hint).
    open var isOpaque = true
    open var clearsContextBeforeDrawing = true
    open var tag = 0
    open var isMultipleTouchEnabled = false
    open var isExclusiveTouch = false

    /// The tint: this view's, else its superview's, else system blue.
    open var tintColor: UIColor! {
        get { tint ?? superview?.tintColor ?? UIColor.systemBlue }
        set {
            tint = newValue
            tintColorDidChange()
        }
    }

    open func tintColorDidChange() {}

    open var isUserInteractionEnabled: Bool {
        get { node.isUserInteractionEnabled }
        set { node.isUserInteractionEnabled = newValue }
    }

    // MARK: The tree

    /// The window the view is in, if any.
    open var window: UIWindow? {
        var v: UIView? = self
        while let c = v {
            if let w = c as? UIWindow { return w }
            v = c.superview
        }
        return nil
    }

    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count - (view.superview === self ? 1 : 0))
    }

    /// Inserts `view` at `index` among the subviews (held to their count).
    open func insertSubview(_ view: UIView, at index: Int) {
        guard view !== self, !isDescendant(of: view) else { return }
        let oldWindow = view.window
        let newWindow = window
        if view.superview !== self { view.willMove(toSuperview: self) }
        if oldWindow !== newWindow { view.propagateWillMove(toWindow: newWindow) }
        view.detachFromSuperview()
        let i = Swift.min(Swift.max(0, index), subviews.count)
        if i < subviews.count {
            layer.insertSublayer(view.layer, below: subviews[i].layer)
        } else {
            layer.addSublayer(view.layer)
        }
        subviews.insert(view, at: i)
        view.superview = self
        node.attachSubview(view.node, at: i)
        view.didMoveToSuperview()
        didAddSubview(view)
        if oldWindow !== newWindow { view.propagateDidMoveToWindow() }
        setNeedsLayout()
    }

    open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) {
        let i = subviews.firstIndex { $0 === sibling }.map { $0 + 1 } ?? subviews.count
        insertSubview(view, at: view.superview === self && (subviews.firstIndex { $0 === view } ?? i) < i ? i - 1 : i)
    }

    open func insertSubview(_ view: UIView, belowSubview sibling: UIView) {
        let i = subviews.firstIndex { $0 === sibling } ?? 0
        insertSubview(view, at: view.superview === self && (subviews.firstIndex { $0 === view } ?? i) < i ? i - 1 : i)
    }

    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count - 1)
    }

    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard subviews.indices.contains(index1), subviews.indices.contains(index2), index1 != index2 else { return }
        let (lo, hi) = (Swift.min(index1, index2), Swift.max(index1, index2))
        let a = subviews[lo], b = subviews[hi]
        insertSubview(b, at: lo)
        insertSubview(a, at: hi)
    }

    open func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldWindow = window
        willMove(toSuperview: nil)
        if oldWindow != nil { propagateWillMove(toWindow: nil) }
        detachFromSuperview()
        didMoveToSuperview()
        if oldWindow != nil { propagateDidMoveToWindow() }
        parent.setNeedsLayout()
    }

    /// Takes the view out of its superview's lists and layer, with no callbacks.
    private func detachFromSuperview() {
        guard let parent = superview else { return }
        parent.willRemoveSubview(self)
        node.detachFromSuperview()
        layer.removeFromSuperlayer()
        parent.subviews.removeAll { $0 === self }
        superview = nil
    }

    private func propagateWillMove(toWindow w: UIWindow?) {
        willMove(toWindow: w)
        for s in subviews { s.propagateWillMove(toWindow: w) }
    }

    private func propagateDidMoveToWindow() {
        didMoveToWindow()
        for s in subviews { s.propagateDidMoveToWindow() }
    }

    open func isDescendant(of view: UIView) -> Bool {
        var v: UIView? = self
        while let c = v {
            if c === view { return true }
            v = c.superview
        }
        return false
    }

    /// This view or the first subview (depth first) with `tag`.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for s in subviews { if let v = s.viewWithTag(tag) { return v } }
        return nil
    }

    open func didAddSubview(_ subview: UIView) {}
    open func willRemoveSubview(_ subview: UIView) {}
    open func willMove(toSuperview newSuperview: UIView?) {}
    open func didMoveToSuperview() {}
    open func willMove(toWindow newWindow: UIWindow?) {}
    open func didMoveToWindow() {}

    open override var next: UIResponder? { viewController ?? superview }

    // MARK: Layout

    open func setNeedsLayout() { layer.setNeedsLayout() }
    open func layoutIfNeeded() { layer.layoutIfNeeded() }

    /// Positions the subviews: nothing by default (their autoresizing
    /// masks were applied when this view's size changed).
    open func layoutSubviews() {}

    /// The size that fits the view's content within `size`: the current
    /// size by default.
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

    /// Resizes the view to `sizeThatFits(bounds.size)`, keeping its origin.
    open func sizeToFit() {
        var f = frame
        f.size = sizeThatFits(bounds.size)
        frame = f
    }

    /// The view's natural size (`noIntrinsicMetric` in both by default).
    open var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
    open func invalidateIntrinsicContentSize() { superview?.setNeedsLayout() }
    public static let noIntrinsicMetric: CGFloat = -1

    /// Moves and resizes this view for its superview's change of size, as
    /// its mask says: flexible parts share the change in proportion.
    private func autoresize(from old: CGSize, to new: CGSize) {
        var f = frame
        func axis(_ origin: inout CGFloat, _ length: inout CGFloat, _ oldTotal: CGFloat, _ newTotal: CGFloat, lead: Bool, size: Bool, trail: Bool) {
            let delta = newTotal - oldTotal
            let trailing = oldTotal - origin - length
            let parts = (lead ? origin : 0) + (size ? length : 0) + (trail ? trailing : 0)
            let flexible = [lead, size, trail].filter { $0 }.count
            guard flexible > 0 else { return }
            func share(_ part: CGFloat) -> CGFloat { parts > 0 ? delta * part / parts : delta / CGFloat(flexible) }
            if lead { origin += share(origin) }
            if size { length = Swift.max(0, length + share(length)) }
        }
        let m = autoresizingMask
        axis(
            &f.origin.x, &f.size.width, old.width, new.width, lead: m.contains(.flexibleLeftMargin), size: m.contains(.flexibleWidth),
            trail: m.contains(.flexibleRightMargin))
        axis(
            &f.origin.y, &f.size.height, old.height, new.height, lead: m.contains(.flexibleTopMargin), size: m.contains(.flexibleHeight),
            trail: m.contains(.flexibleBottomMargin))
        frame = f
    }

    // MARK: Drawing

    /// Draws the view's content into the current context (y down, in the
    /// bounds' space). Override it to draw; the default draws nothing.
    open func draw(_ rect: CGRect) { baseDrawReached.store(true, ordering: .relaxed) }

    open func setNeedsDisplay() { layer.setNeedsDisplay() }
    open func setNeedsDisplay(_ rect: CGRect) { layer.setNeedsDisplay(rect) }

    public func display(_ layer: CALayer) {
        let id = ObjectIdentifier(type(of: self))
        guard !UIView.drawlessClasses.contains(id) else { return }
        baseDrawReached.store(false, ordering: .relaxed)
        layer.strata.drawContents()
        if baseDrawReached.load(ordering: .relaxed) {
            UIView.drawlessClasses.insert(id)
            layer.contents = nil
        }
    }

    public func draw(_ layer: CALayer, in ctx: CGContext) {
        UIGraphicsPushContext(ctx)
        defer { UIGraphicsPopContext() }
        draw(bounds)
    }

    /// A tile of the view's `CATiledLayer` (its `layerClass`), drawn on the
    /// layer's drawing threads as UIKit draws one: `draw(_:)` with the
    /// tile's rectangle, the tile's context current. Such a view's
    /// `draw(_:)` runs off the main actor, and under Swift 6 is declared
    /// `nonisolated override func draw(_ rect: CGRect)`.
    nonisolated package func drawTile(of layer: CATiledLayer, in ctx: CGContext) {
        nonisolated(unsafe) let ctx = ctx
        // A view that is the delegate of a tiled layer not its own draws it
        // as any delegate does.
        guard layer === self.layer else {
            runOffMainActor { self.draw(layer, in: ctx) }
            return
        }
        let rect = ctx.boundingBoxOfClipPath
        UIGraphicsPushContext(ctx)
        defer { UIGraphicsPopContext() }
        runOffMainActor { self.draw(rect) }
    }

    /// Whether `layoutSubviews()` is running: a layout pass that starts
    /// inside it (a transaction committed by the layout code) leaves this
    /// view to the next pass instead of laying it out inside itself.
    private var isLayingOut = false

    public func layoutSublayers(of layer: CALayer) {
        guard !isLayingOut else {
            layer.setNeedsLayout()
            return
        }
        isLayingOut = true
        defer { isLayingOut = false }
        viewController?.viewWillLayoutSubviews()
        layoutSubviews()
        viewController?.viewDidLayoutSubviews()
    }

    public func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
        UIView.animationAction(for: layer, forKey: event) ?? NSNull()
    }

    /// Draws the view and its subviews as they are on screen into the
    /// current context, scaled into `rect`.
    @discardableResult
    open func drawHierarchy(in rect: CGRect, afterScreenUpdates afterUpdates: Bool) -> Bool {
        guard let ctx = UIGraphicsGetCurrentContext(), bounds.width > 0, bounds.height > 0 else { return false }
        ctx.saveGState()
        ctx.translateBy(x: rect.minX, y: rect.minY)
        ctx.scaleBy(x: rect.width / bounds.width, y: rect.height / bounds.height)
        layer.render(in: ctx)
        ctx.restoreGState()
        return true
    }

    // MARK: Coordinates

    /// The layer of the space `nil` stands for: the window's, else the root's.
    private func referenceLayer(_ view: UIView?) -> CALayer {
        if let view { return view.layer }
        var v = self
        while let s = v.superview { v = s }
        return v.layer
    }

    open func convert(_ point: CGPoint, to view: UIView?) -> CGPoint { layer.convert(point, to: referenceLayer(view)) }
    open func convert(_ point: CGPoint, from view: UIView?) -> CGPoint { layer.convert(point, from: referenceLayer(view)) }
    open func convert(_ rect: CGRect, to view: UIView?) -> CGRect { layer.convert(rect, to: referenceLayer(view)) }
    open func convert(_ rect: CGRect, from view: UIView?) -> CGRect { layer.convert(rect, from: referenceLayer(view)) }

    // MARK: Hit testing and touches

    open func point(inside point: CGPoint, with event: UIEvent?) -> Bool { bounds.contains(point) }

    /// The deepest view at `point` (in this view's coordinates) that takes
    /// touches: hidden views, views with touches off and views with an
    /// alpha under 0.01 are skipped with their subviews.
    open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard isUserInteractionEnabled, !isHidden, alpha >= 0.01, self.point(inside: point, with: event) else { return nil }
        for s in subviews.reversed() {
            if let hit = s.hitTest(s.convert(point, from: self), with: event) { return hit }
        }
        return self
    }

    /// Turns the pointer's events into this view's touches.
    func handlePointer(_ event: PointerEvent) -> Bool {
        guard event.button == .primary else { return false }
        let location = CGPoint(event.location)
        switch event.phase {
        case .down:
            var count = 1
            if let last = lastTap, event.timestamp - last.time < 0.35,
                abs(last.location.x - location.x) < 10, abs(last.location.y - location.y) < 10
            {
                count = last.count + 1
            }
            let touch = UITouch(view: self, at: location, timestamp: event.timestamp, tapCount: count)
            activeTouch = touch
            touchesBegan([touch], with: UIEvent(timestamp: event.timestamp, touches: [touch]))
        case .moved:
            guard let touch = activeTouch else { return false }
            touch.move(to: location, at: event.timestamp, phase: .moved)
            touchesMoved([touch], with: UIEvent(timestamp: event.timestamp, touches: [touch]))
        case .up:
            guard let touch = activeTouch else { return false }
            touch.move(to: location, at: event.timestamp, phase: .ended)
            activeTouch = nil
            lastTap = (event.timestamp, location, touch.tapCount)
            touchesEnded([touch], with: UIEvent(timestamp: event.timestamp, touches: [touch]))
        case .cancelled:
            guard let touch = activeTouch else { return false }
            touch.phase = .cancelled
            activeTouch = nil
            touchesCancelled([touch], with: UIEvent(timestamp: event.timestamp, touches: [touch]))
        }
        return true
    }

    // MARK: Gesture recognizers

    open var gestureRecognizers: [UIGestureRecognizer]? {
        get { recognizers.isEmpty ? nil : recognizers }
        set {
            for r in recognizers { removeGestureRecognizer(r) }
            for r in newValue ?? [] { addGestureRecognizer(r) }
        }
    }

    open func addGestureRecognizer(_ recognizer: UIGestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        recognizers.append(recognizer)
        recognizer.view = self
        node.addGestureRecognizer(recognizer.strata)
    }

    open func removeGestureRecognizer(_ recognizer: UIGestureRecognizer) {
        guard recognizer.view === self else { return }
        recognizers.removeAll { $0 === recognizer }
        node.removeGestureRecognizer(recognizer.strata)
        recognizer.view = nil
    }
}

extension UIView {
    /// How a view's contents fit its bounds (`UIView.ContentMode`).
    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        case topLeft, topRight, bottomLeft, bottomRight

        var gravity: CALayerContentsGravity {
            switch self {
            case .scaleToFill, .redraw: .resize
            case .scaleAspectFit: .resizeAspect
            case .scaleAspectFill: .resizeAspectFill
            case .center: .center
            case .top: .top
            case .bottom: .bottom
            case .left: .left
            case .right: .right
            case .topLeft: .topLeft
            case .topRight: .topRight
            case .bottomLeft: .bottomLeft
            case .bottomRight: .bottomRight
            }
        }
    }

    /// How a view follows its superview's change of size (`UIView.AutoresizingMask`).
    public struct AutoresizingMask: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }
}
