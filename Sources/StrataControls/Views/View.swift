import Dispatch
import StrataGraphics
import StrataLayers

/// A rectangle that takes part in input: `UIView`'s role, on top of a layer.
///
/// A view owns one layer, which draws it; its subviews' layers are its
/// layer's sublayers, so a view tree is a layer tree with input on top.
/// Layers stay the drawing model (a chart or a streaming graph is a layer,
/// and becomes interactive inside a view); views add what layers lack:
/// hit testing for input (`hitTest(_:)`, `isUserInteractionEnabled`),
/// gesture recognizers, the responder chain (a view's next responder is its
/// superview), and keyboard focus (`becomeFirstResponder()`).
///
/// A view handles input by overriding `pointerEvent(_:)`, `scrollEvent(_:)`
/// or `keyEvent(_:)` and returning true; an event it does not handle goes
/// to its superview. The view that handles a pointer going down receives
/// that pointer's moves and its going up wherever the pointer goes (it is
/// captured) until the gesture ends.
@MainActor
open class View {
    /// The layer that draws the view.
    public let layer: Layer
    public private(set) weak var superview: View?
    public private(set) var subviews: [View] = []
    /// Whether the view (and so its subviews) takes input. Default true.
    public var isUserInteractionEnabled = true
    /// The recognizers watching pointers that go down in this view or its
    /// subviews (`addGestureRecognizer(_:)`).
    public private(set) var gestureRecognizers: [GestureRecognizer] = []
    /// The dispatcher of the tree this view is in, set on its root.
    weak var rootDispatcher: InputDispatcher?

    /// A view over a plain layer, or over `layer` (a chart layer, say).
    public init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), layer: Layer = Layer()) {
        self.layer = layer
        layer.anchorPoint = Point(x: 0.5, y: 0.5)
        layer.frame = frame
        if let live = layer as? any AccessibilityLiveLayer {
            live.accessibilityValueDidChange = { [weak self] in self?.liveValueDidChange() }
        }
    }

    // MARK: Geometry

    public var frame: Rect {
        get { layer.frame }
        set {
            let old = layer.bounds.size
            layer.frame = newValue
            if layer.bounds.size != old { sizeDidChange() }
        }
    }
    public var bounds: Rect {
        get { layer.bounds }
        set {
            let old = layer.bounds.size
            layer.bounds = newValue
            if layer.bounds.size != old { sizeDidChange() }
        }
    }

    /// Called when the view's size changes through `frame` or `bounds`.
    open func sizeDidChange() {}
    public var isHidden: Bool {
        get { layer.isHidden }
        set { layer.isHidden = newValue }
    }
    public var backgroundColor: Color? {
        get { layer.backgroundColor }
        set { layer.backgroundColor = newValue }
    }

    /// `point` in this view's coordinates, from `view`'s (the root's when nil).
    public func convert(_ point: Point, from view: View?) -> Point {
        layer.convert(point, from: (view ?? rootView).layer)
    }

    /// `point` in `view`'s coordinates (the root's when nil), from this view's.
    public func convert(_ point: Point, to view: View?) -> Point {
        layer.convert(point, to: (view ?? rootView).layer)
    }

    /// The root of this view's tree.
    public var rootView: View {
        var v = self
        while let s = v.superview { v = s }
        return v
    }

    // MARK: The tree

    public func addSubview(_ view: View) {
        guard view !== self, !isDescendant(of: view) else { return }
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
        layer.addSublayer(view.layer)
    }

    public func insertSubview(_ view: View, at index: Int) {
        guard view !== self, !isDescendant(of: view) else { return }
        view.removeFromSuperview()
        let i = Swift.min(Swift.max(0, index), subviews.count)
        subviews.insert(view, at: i)
        view.superview = self
        layer.insertSublayer(view.layer, at: i)
    }

    public func removeFromSuperview() {
        guard let s = superview else { return }
        dispatcher?.viewWillLeave(self)
        s.subviews.removeAll { $0 === self }
        superview = nil
        layer.removeFromSuperlayer()
    }

    /// Makes `view` a subview at `index` without touching layers: for a
    /// front end (UIKit's) that keeps the layer tree itself.
    package func attachSubview(_ view: View, at index: Int) {
        let i = Swift.min(Swift.max(0, index), subviews.count)
        subviews.insert(view, at: i)
        view.superview = self
    }

    /// Takes the view out of its superview's subviews without touching
    /// layers (the counterpart of `attachSubview(_:at:)`).
    package func detachFromSuperview() {
        guard let s = superview else { return }
        dispatcher?.viewWillLeave(self)
        s.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// Whether `view` is this view or one of its ancestors.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let c = v {
            if c === view { return true }
            v = c.superview
        }
        return false
    }

    /// The dispatcher of this view's tree, if its root is attached to one.
    public var dispatcher: InputDispatcher? { rootView.rootDispatcher }

    // MARK: Hit testing

    /// Whether `point` (in this view's coordinates) is inside it: its bounds
    /// by default.
    open func point(inside point: Point) -> Bool { bounds.contains(point) }

    /// The deepest view at `point` (in this view's coordinates) that takes
    /// input: hidden views, views that take no input and (nearly)
    /// transparent ones are skipped with their subviews; later subviews are
    /// in front.
    open func hitTest(_ point: Point) -> View? {
        guard !isHidden, isUserInteractionEnabled, layer.opacity > 0.01, self.point(inside: point) else { return nil }
        for sub in subviews.reversed() {
            if let hit = sub.hitTest(sub.layer.convert(point, from: layer)) { return hit }
        }
        return self
    }

    // MARK: Gestures

    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        gestureRecognizers.append(recognizer)
        recognizer.view = self
    }

    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        recognizer.reset(cancelling: true)
        dispatcher?.forget(recognizer)
        gestureRecognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
    }

    // MARK: Responding

    /// The next responder: the superview.
    public var nextResponder: View? { superview }

    /// A pointer event for this view (`location` in the root's coordinates;
    /// `convert(_:from: nil)` gives it in this view's). Return true to
    /// handle it; a view that handles `.down` receives the pointer until
    /// `.up` or `.cancelled`. Default: not handled.
    open func pointerEvent(_ event: PointerEvent) -> Bool { false }

    /// A wheel or trackpad scroll over this view. Return true to handle it;
    /// otherwise it goes to the superview. Default: not handled.
    open func scrollEvent(_ event: ScrollEvent) -> Bool { false }

    /// A key, sent to the first responder and then up its chain. Return
    /// true to handle it. Default: not handled.
    open func keyEvent(_ event: KeyEvent) -> Bool { false }

    /// The pointer's shape over `point` (this view's coordinates), or nil
    /// for the superview's choice; a window shows `.arrow` where no view
    /// chooses (`NSView`'s cursor rectangles, `UIPointerStyle`). Default: nil.
    open func cursor(at point: Point) -> Cursor? { nil }

    /// The cursor for `point` in the root's coordinates: the deepest view
    /// hit that chooses one, else `.arrow`.
    public func resolvedCursor(at point: Point) -> Cursor {
        var v = hitTest(point)
        while let view = v {
            if let c = view.cursor(at: view.convert(point, from: nil)) { return c }
            v = view.superview
        }
        return .arrow
    }

    /// Whether the view can take keyboard focus. Default false.
    open var canBecomeFirstResponder: Bool { false }

    /// Takes keyboard focus, if the view can and is in a dispatcher's tree.
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder, let d = dispatcher else { return false }
        d.firstResponder = self
        return true
    }

    /// Gives keyboard focus up.
    public func resignFirstResponder() {
        if let d = dispatcher, d.firstResponder === self { d.firstResponder = nil }
    }

    public var isFirstResponder: Bool { dispatcher?.firstResponder === self }

    /// Called when the view has just taken keyboard focus. Default: nothing.
    open func didBecomeFirstResponder() {}

    /// Called when the view has just lost keyboard focus. Default: nothing.
    open func didResignFirstResponder() {}

    /// Whether Tab stops at the view (`InputDispatcher.focusOrder`).
    /// Default: `canBecomeFirstResponder`.
    open var canBecomeFocused: Bool { canBecomeFirstResponder }

    /// Where the focus ring goes while the view has keyboard focus, in its
    /// own coordinates: its bounds, or for a list, the row the keys are on.
    open var focusRingRect: Rect { bounds }

    /// Does what a click on the view does: Space or Return on the focused
    /// view, and an assistive tool's activation, call this. Returns
    /// whether the view did something. Default: nothing, false.
    @discardableResult
    open func activate() -> Bool { false }

    // MARK: Accessibility

    /// What the accessibility properties were set to (nil: the default).
    struct AccessibilitySettings {
        var isElement: Bool?
        var label: String?
        var value: String?
        var hint: String?
        var identifier: String?
        var traits: AccessibilityTraits?
        var role: AccessibilityRole?
        var elements: [AccessibilityElement]?
        var customActions: [AccessibilityCustomAction] = []
        var elementsHidden = false
        /// When a live value was last told, and whether a telling waits.
        var lastLivePost = -Double.infinity
        var livePostPending = false
    }
    var accessibility = AccessibilitySettings()

    /// What the view's layer says of itself, when it describes itself (a chart).
    private var layerDescription: LayerAccessibility? { (layer as? any AccessibilityDescribingLayer)?.layerAccessibility }

    /// The layer's parts as elements, made again only when they change (so
    /// that an assistive tool keeps its place among them).
    private var layerItems: (items: [LayerAccessibility.Item], elements: [AccessibilityElement])?

    private func layerElements() -> [AccessibilityElement]? {
        guard let items = layerDescription?.items, !items.isEmpty else { return nil }
        if let cached = layerItems, cached.items == items { return cached.elements }
        let origin = layer.bounds.origin
        let elements = items.map { item in
            let e = AccessibilityElement(
                container: self, label: item.label, value: item.value, frame: item.frame.offsetBy(dx: -origin.x, dy: -origin.y))
            e.traits = .image
            return e
        }
        layerItems = (items, elements)
        return elements
    }

    /// Whether assistive tools see the view as one element (a button, a
    /// field), rather than only through its subviews. Default false;
    /// true for the built-in controls.
    open var isAccessibilityElement: Bool {
        get { accessibility.isElement ?? (layer is any AccessibilityDescribingLayer) }
        set { accessibility.isElement = newValue }
    }

    /// What a screen reader calls the view ("Save", "Weight"). Default
    /// nil; the built-in controls' is their title or placeholder.
    open var accessibilityLabel: String? {
        get { accessibility.label ?? layerDescription?.label }
        set { accessibility.label = newValue }
    }

    /// The view's value, as text ("72.5 kg", a field's text). Default nil.
    open var accessibilityValue: String? {
        get { accessibility.value ?? layerDescription?.summary }
        set { accessibility.value = newValue }
    }

    /// What activating the view does, when its label does not say.
    open var accessibilityHint: String? {
        get { accessibility.hint }
        set { accessibility.hint = newValue }
    }

    /// A name for tests and automation, never spoken.
    open var accessibilityIdentifier: String? {
        get { accessibility.identifier }
        set { accessibility.identifier = newValue }
    }

    /// What the view is and does. Default none; the built-in controls'
    /// say theirs (a button's `.button`, the ruler's `.adjustable`).
    open var accessibilityTraits: AccessibilityTraits {
        get { accessibility.traits ?? (layerDescription?.isLive == true ? .updatesFrequently : []) }
        set { accessibility.traits = newValue }
    }

    /// The view's role for desktop accessibility: as set, else what its
    /// traits say, else `panel`.
    open var accessibilityRole: AccessibilityRole {
        get {
            if let role = accessibility.role { return role }
            if let d = layerDescription, accessibility.traits == nil { return d.isChart ? .chart : .image }
            return AccessibilityRole(traits: accessibilityTraits, fallback: .panel)
        }
        set { accessibility.role = newValue }
    }

    /// Elements inside the view that are not views (a chart's points);
    /// nil when it has none.
    open var accessibilityElements: [AccessibilityElement]? {
        get { accessibility.elements ?? layerElements() }
        set { accessibility.elements = newValue }
    }

    /// Actions an assistive tool can perform on the view besides activating it.
    open var accessibilityCustomActions: [AccessibilityCustomAction] {
        get { accessibility.customActions }
        set { accessibility.customActions = newValue }
    }

    /// More about the view for assistive tools, as AT-SPI's object
    /// attributes: a list row's place ("posinset", "setsize"), a live
    /// region's politeness ("live", "container-live"). Default: none.
    open var accessibilityAttributes: [String: String] {
        guard layerDescription?.isLive == true else { return [:] }
        return ["live": "polite", "container-live": "polite", "atomic": "true", "container-atomic": "true"]
    }

    /// The layer's live value changed: tells assistive tools (only while
    /// one listens), at most once a second, the last change always told.
    private func liveValueDidChange() {
        guard AccessibilityCenter.hasListeners, !accessibility.livePostPending else { return }
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let wait = accessibility.lastLivePost + 1 - now
        guard wait > 0 else {
            accessibility.lastLivePost = now
            return AccessibilityCenter.post(.valueChanged, from: self)
        }
        accessibility.livePostPending = true
        DispatchQueue.main.asyncAfter(deadline: .now() + wait) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.accessibility.livePostPending = false
                self.accessibility.lastLivePost = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
                AccessibilityCenter.post(.valueChanged, from: self)
            }
        }
    }

    /// Whether the view's subviews are hidden from assistive tools.
    open var accessibilityElementsHidden: Bool {
        get { accessibility.elementsHidden }
        set { accessibility.elementsHidden = newValue }
    }

    /// The view's frame in the root view's coordinates.
    open var accessibilityFrame: Rect { rectInRoot(bounds) }

    /// What an assistive tool's activation does: `activate()` by default.
    @discardableResult
    open func accessibilityActivate() -> Bool { activate() }

    /// An adjustable view's value on its range; nil (the default) for
    /// views without one.
    open var accessibilityNumericValue: AccessibilityNumericValue? { nil }

    /// Sets an adjustable view's value (an assistive tool moving a
    /// slider); returns whether it took it. Default: false.
    @discardableResult
    open func setAccessibilityNumericValue(_ value: Double) -> Bool { false }

    /// An editable view's text and caret (text fields'); nil (the
    /// default) for views without.
    open var accessibilityTextContent: AccessibilityTextContent? { nil }

    /// Selects `range` of an editable view's text (an empty range puts
    /// the caret there), as an assistive tool asks; returns whether it
    /// did. Default: false.
    @discardableResult
    open func setAccessibilityTextSelection(_ range: Range<Int>) -> Bool { false }

    /// Scrolls a page in `direction` (`accessibilityScroll(_:)`: a screen
    /// reader's scroll gesture or action); returns whether it scrolled.
    /// Default: false; scroll views scroll.
    @discardableResult
    open func accessibilityScroll(_ direction: AccessibilityScrollDirection) -> Bool { false }

    /// Steps an adjustable view's value up. Default: nothing.
    open func accessibilityIncrement() {}

    /// Steps an adjustable view's value down. Default: nothing.
    open func accessibilityDecrement() {}

    /// The views and elements assistive tools see inside this one, in
    /// order: its elements, then its subviews (those shown), unless
    /// `accessibilityElementsHidden`.
    open var accessibilityChildren: [AccessibilityChild] {
        guard !accessibilityElementsHidden else { return [] }
        var children: [AccessibilityChild] = (accessibilityElements ?? []).map { .element($0) }
        for sub in subviews where !sub.isHidden { children.append(.view(sub)) }
        return children
    }

    /// Called once a frame by the dispatcher (`InputDispatcher.frame(at:)`)
    /// while the view asks for it (`needsFrames`): physics and timers.
    open func frame(at time: Double) {}

    /// Whether `frame(at:)` should be called on the next frames.
    public var needsFrames = false {
        didSet { if needsFrames { dispatcher?.wantFrames(self) } }
    }
}

/// Runs `body` with implicit animations off, in the current transaction:
/// what controls change every frame (offsets, indicators, reused tiles) is
/// committed with the frame, not in a transaction of its own (an explicit
/// transaction commits the whole tree when it ends).
@MainActor
func withoutActions<R>(_ body: () throws -> R) rethrows -> R {
    let old = Transaction.disableActions
    Transaction.disableActions = true
    defer { Transaction.disableActions = old }
    return try body()
}
