import StrataGraphics
import StrataLayers

/// Sends input events into a view tree (`UIWindow.sendEvent`'s role) and
/// drives what runs on the frame clock.
///
/// - **Pointers**: a pointer going down is hit-tested from the root view.
///   The gesture recognizers of the view hit and of its ancestors watch
///   that pointer until it goes up (deepest first), and the first view up
///   the chain that handles `.down` captures the pointer: it receives the
///   moves and the release wherever they happen, unless a recognizer that
///   cancels pointer events begins, which sends it `.cancelled`.
/// - **Scrolls** go to the view under the pointer, then up its chain until
///   one handles them.
/// - **Keys** go to the first responder, then up its chain.
/// - **Frames**: `frame(at:)` gives recognizers their time limits and
///   views that asked for frames (`View.needsFrames`) their physics. With
///   `init(rootView:host:)` a `DisplayLink` calls it at every frame of the
///   host, before the frame's commit, so headless runs under a
///   `ManualClock` are exact and reproducible.
///
/// Window systems (X11 later) turn their events into `InputEvent`s and call
/// `send(_:)`; nothing here knows about them.
@MainActor
public final class InputDispatcher {
    public let rootView: View
    /// The view keys go to first: the view with keyboard focus. Changing
    /// it tells the old view (`didResignFirstResponder()`), the new one
    /// (`didBecomeFirstResponder()`) and `onFocusChange`.
    public weak var firstResponder: View? {
        didSet {
            guard oldValue !== firstResponder else { return }
            oldValue?.didResignFirstResponder()
            firstResponder?.didBecomeFirstResponder()
            // Focus set by code or a click shows no ring; `moveFocus` asks for it after.
            focusRing.hide()
            onFocusChange?(firstResponder)
            windowFocusObserver?(oldValue, firstResponder)
        }
    }

    /// Where text fields copy to and paste from: a `LocalClipboard` until
    /// a window gives the system's.
    public var clipboard: any Clipboard = LocalClipboard()

    /// Called after keyboard focus moves, with the view that has it (nil
    /// when none has): what a window's input method and accessibility
    /// follow.
    public var onFocusChange: (@MainActor (View?) -> Void)?
    /// The window's own observer of focus, told where it moved from and
    /// to (its input method's focus follows text clients, its
    /// accessibility bridge tells assistive tools), apart from the
    /// application's.
    package var windowFocusObserver: (@MainActor (_ from: View?, _ to: View?) -> Void)?

    /// The ring around the focused view, shown when focus moved by the
    /// keyboard (Tab), hidden when a pointer goes down, as browsers'
    /// `:focus-visible` and GTK's focus rings behave.
    let focusRing = FocusRing()

    private var captured: View?
    private var capturedCancelled = false
    private var pointerIsDown = false
    private var watching: [GestureRecognizer] = []
    private var frameViews: [View] = []
    private var link: DisplayLink?
    /// The time of the last frame or event.
    public private(set) var now = 0.0

    /// A dispatcher for the tree under `rootView`.
    public init(rootView: View) {
        self.rootView = rootView
        rootView.rootDispatcher = self
    }

    /// A dispatcher whose root view's layer is shown by `host` (added to
    /// its root layer, filling it) and whose frames follow the host's.
    public convenience init(rootView: View, host: LayerHost) {
        self.init(rootView: rootView)
        if rootView.layer.superlayer == nil {
            rootView.frame = host.rootLayer.bounds
            host.rootLayer.addSublayer(rootView.layer)
        }
        let link = DisplayLink { [weak self] link in self?.frame(at: link.timestamp) }
        link.add(to: host)
        self.link = link
    }

    /// Stops following the host's frames.
    public func detach() {
        link?.invalidate()
        link = nil
    }

    // MARK: Events

    /// Delivers an event; returns whether a view or recognizer took it.
    @discardableResult
    public func send(_ event: InputEvent) -> Bool {
        defer { updateLink() }
        if let host = rootView.layer.treeHost, link != nil { now = Swift.max(now, host.clock.now) }
        // A timestamp that is not a number is taken as now.
        var event = event
        if !event.timestamp.isFinite {
            switch event {
            case .pointer(var e):
                e.timestamp = now
                event = .pointer(e)
            case .scroll(var e):
                e.timestamp = now
                event = .scroll(e)
            case .key(var e):
                e.timestamp = now
                event = .key(e)
            }
        }
        now = Swift.max(now, event.timestamp)
        switch event {
        case .pointer(let e): return pointer(e)
        case .scroll(let e): return scroll(e)
        case .key(let e): return key(e)
        }
    }

    private func pointer(_ e: PointerEvent) -> Bool {
        guard e.location.x.isFinite, e.location.y.isFinite else { return false }
        switch e.phase {
        case .down:
            focusRing.hide()
            // One pointer at a time: a down while one is down means the window
            // system lost the last release; that gesture is cancelled first.
            if pointerIsDown { _ = pointer(PointerEvent(.cancelled, at: e.location, timestamp: e.timestamp)) }
            pointerIsDown = true
            let hit = rootView.hitTest(e.location)
            var chain: [View] = []
            var v = hit
            while let c = v {
                chain.append(c)
                v = c.superview
            }
            let recognizers = chain.flatMap { $0.gestureRecognizers.filter(\.isEnabled) }
            // Recognizers left from before (a tap waiting for its second tap)
            // that this pointer does not reach have failed.
            for r in watching where !recognizers.contains(where: { $0 === r }) {
                if r.state == .possible { transition(r, to: .failed) }
                r.reset()
            }
            for r in recognizers where r.isFinished { r.reset() }
            watching = recognizers
            for r in watching {
                r.lastLocation = e.location
                r.lastTimestamp = e.timestamp
                r.pointerBegan(e)
            }
            captured = nil
            capturedCancelled = watching.contains { ($0.state == .began || $0.state == .ended) && $0.cancelsPointerEventsInView }
            if !capturedCancelled {
                for view in chain where view.pointerEvent(e) {
                    captured = view
                    break
                }
            }
            return captured != nil || !watching.isEmpty
        case .moved, .up, .cancelled:
            guard pointerIsDown else { return false }
            for r in watching where !r.isFinished && r.isEnabled && r.view != nil {
                r.lastLocation = e.location
                r.lastTimestamp = e.timestamp
                switch e.phase {
                case .moved: r.pointerMoved(e)
                case .up: r.pointerEnded(e)
                default: r.pointerCancelled(e)
                }
            }
            var handled = !watching.isEmpty
            if let view = captured, !capturedCancelled {
                handled = view.pointerEvent(e) || handled
            }
            if e.phase != .moved {
                pointerIsDown = false
                captured = nil
                // Finished recognizers start afresh; a tap waiting for its next
                // tap stays, until its time runs out.
                for r in watching where r.isFinished { r.reset() }
                watching.removeAll { $0.state == .possible && !$0.isWaiting }
            }
            return handled
        }
    }

    private func scroll(_ e: ScrollEvent) -> Bool {
        var v = rootView.hitTest(e.location)
        while let view = v {
            if view.scrollEvent(e) { return true }
            v = view.superview
        }
        return false
    }

    private func key(_ e: KeyEvent) -> Bool {
        var v = firstResponder
        while let view = v {
            if view.keyEvent(e) { return true }
            v = view.superview
        }
        guard e.phase == .down else { return false }
        let plain = e.modifiers.subtracting([.shift, .capsLock]).isEmpty
        switch e.key {
        case .tab where plain:
            // Tab and Shift-Tab move focus when no view takes them.
            return moveFocus(backward: e.modifiers.contains(.shift))
        case .space, .enter:
            // Space and Return press the focused control.
            return plain && !e.isRepeat && (firstResponder?.activate() ?? false)
        default:
            return false
        }
    }

    // MARK: Focus

    /// The views Tab visits, in order: those that can take focus
    /// (`View.canBecomeFocused`), shown and taking input, depth first, each
    /// view's subviews in reading order (top to bottom by their frames'
    /// tops, then left to right; ties in subview order).
    public var focusOrder: [View] {
        var result: [View] = []
        func visit(_ view: View) {
            guard !view.isHidden, view.isUserInteractionEnabled else { return }
            if view.canBecomeFocused { result.append(view) }
            let ordered = view.subviews.enumerated().sorted { a, b in
                let fa = a.element.frame, fb = b.element.frame
                if fa.minY != fb.minY { return fa.minY < fb.minY }
                if fa.minX != fb.minX { return fa.minX < fb.minX }
                return a.offset < b.offset
            }
            for (_, sub) in ordered { visit(sub) }
        }
        visit(rootView)
        return result
    }

    /// Moves keyboard focus to the next view in `focusOrder` (the previous
    /// when `backward`), round from the last to the first, and shows the
    /// focus ring; returns false when no view can take focus.
    @discardableResult
    public func moveFocus(backward: Bool = false) -> Bool {
        let order = focusOrder
        guard !order.isEmpty else { return false }
        let next: View
        if let current = firstResponder, let i = order.firstIndex(where: { $0 === current }) {
            next = order[(i + (backward ? order.count - 1 : 1)) % order.count]
        } else {
            next = backward ? order[order.count - 1] : order[0]
        }
        firstResponder = next
        focusRing.isWanted = true
        updateFocusRing()
        return true
    }

    /// Puts the focus ring around the focused view, where it is now (a
    /// view that moves or resizes while focused calls this, as the
    /// dispatcher does each frame it runs).
    public func updateFocusRing() {
        guard let view = firstResponder, focusRing.isWanted, view.dispatcher === self else { return focusRing.hide() }
        focusRing.show(around: view.rectInRoot(view.focusRingRect.intersection(view.bounds)), in: rootView.layer)
    }

    // MARK: Frames

    /// One frame at `time`: recognizers' time limits, then the views that
    /// asked for frames.
    public func frame(at time: Double) {
        guard time.isFinite else { return }
        now = Swift.max(now, time)
        for r in watching { r.frame(at: time) }
        if !pointerIsDown {
            for r in watching where r.isFinished { r.reset() }
            watching.removeAll { $0.state == .possible && !$0.isWaiting }
        }
        frameViews.removeAll { !$0.needsFrames || $0.dispatcher !== self }
        for v in frameViews { v.frame(at: time) }
        if focusRing.isShown { updateFocusRing() }
        updateLink()
    }

    /// Whether frames are due: a pointer is down, recognizers watch one, or
    /// views asked for frames. Between such times the dispatcher's display
    /// link is paused, so that it does not keep a window's frame clock
    /// running (`LayerHost.needsFrame`).
    public var needsFrames: Bool {
        pointerIsDown || !watching.isEmpty || frameViews.contains { $0.needsFrames && $0.dispatcher === self }
    }

    private func updateLink() {
        guard let link else { return }
        let paused = !needsFrames
        if link.isPaused != paused { link.isPaused = paused }
    }

    /// Stops `recognizer` watching the pointer under way.
    func forget(_ recognizer: GestureRecognizer) {
        watching.removeAll { $0 === recognizer }
    }

    func wantFrames(_ view: View) {
        if !frameViews.contains(where: { $0 === view }) { frameViews.append(view) }
        updateLink()
    }

    /// A view leaving the tree: it loses the pointer, the focus and its
    /// recognizers' gestures.
    func viewWillLeave(_ view: View) {
        if let c = captured, c.isDescendant(of: view) {
            captured = nil
            capturedCancelled = true
        }
        if let f = firstResponder, f.isDescendant(of: view) { firstResponder = nil }
        for r in watching where r.view.map({ $0.isDescendant(of: view) }) ?? true { r.reset(cancelling: true) }
        watching.removeAll { $0.view.map { $0.isDescendant(of: view) } ?? true }
    }

    // MARK: Relations between recognizers

    func transition(_ r: GestureRecognizer, to s: GestureRecognizer.State) {
        let succeeds = r.state == .possible && (s == .began || s == .ended)
        guard succeeds else {
            r.apply(s)
            if s == .failed { resolvePending() }
            return
        }
        let required = r.requiredToFail.compactMap(\.recognizer)
        if required.contains(where: { $0.state == .began || $0.state == .changed || $0.state == .ended }) {
            r.apply(.failed)
            resolvePending()
            return
        }
        if required.contains(where: { $0.state == .possible && $0.isEnabled && $0.view != nil }) {
            r.pendingState = s
            return
        }
        r.apply(s)
        guard r.state == s else {
            resolvePending()
            return
        }
        // The others watching these pointers give way, unless both may succeed.
        for other in watching where other !== r && !r.allowsSimultaneous(with: other) {
            switch other.state {
            case .possible:
                other.apply(.failed)
            case .began, .changed:
                other.apply(.cancelled)
            default: break
            }
        }
        if r.cancelsPointerEventsInView, let view = captured, !capturedCancelled {
            capturedCancelled = true
            _ = view.pointerEvent(PointerEvent(.cancelled, at: r.lastLocation, timestamp: r.lastTimestamp))
        }
        resolvePending()
    }

    /// Successes that were waiting for failures: applied, or failed, now
    /// that something failed or succeeded.
    private func resolvePending() {
        var changed = true
        while changed {
            changed = false
            for p in watching {
                guard let s = p.pendingState, p.state == .possible else { continue }
                let required = p.requiredToFail.compactMap(\.recognizer)
                if required.contains(where: { $0.state == .possible && $0.isEnabled && $0.view != nil }) { continue }
                p.pendingState = nil
                transition(p, to: s)
                changed = true
            }
        }
    }
}

extension GestureRecognizer {
    /// Still in play between pointers: a tap waiting for its next tap, or a
    /// success waiting for another recognizer to fail.
    var isWaiting: Bool {
        pendingState != nil || (self as? TapGestureRecognizer)?.isWaitingForTap == true
    }
}
