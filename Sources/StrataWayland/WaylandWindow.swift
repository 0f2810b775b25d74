internal import CWaylandClient
internal import CWaylandProtocols
import Dispatch
import Foundation
import StrataAccessibility
import StrataControls
import StrataGraphics
import StrataLayers

/// A window on a Wayland compositor showing a layer tree: an `xdg_toplevel`
/// whose frames are shared-memory buffers.
///
/// **Frames.** The window renders when its host has something new to show
/// (`LayerHost.needsFrame`) and the compositor is ready for a frame: each
/// commit asks for a `wl_surface.frame` callback, and no frame is drawn
/// until it comes, so an idle or hidden window draws nothing and a busy
/// one never draws frames the screen will not show.
///
/// **Buffers.** Frames are copied into one of up to three `wl_shm`
/// buffers, never one the compositor still holds (attached and not yet
/// released). Only what changed since the buffer's own last frame is
/// copied, and the compositor is told only that (`damage_buffer`).
///
/// **Scale.** The buffer scale is the largest integer scale of the
/// outputs the surface is on (`wl_output.scale`); the frame is rendered at
/// it, so text and lines are crisp.
///
/// **Decorations.** The title bar and borders are the compositor's where
/// it draws them (`xdg-decoration`: KDE, sway) and libdecor's where it does
/// not (GNOME, weston): see `Decorations`.
///
/// **Cursors.** The pointer shows the shape the view under it asks for
/// (`View.cursor(at:)`), from the desktop's cursor theme.
///
/// **Closing.** The compositor's close (a title bar's button) asks
/// `shouldClose`, then closes the window and calls `onClose`. A compositor
/// that goes away closes the window too; the process lives on.
@MainActor
public final class WaylandWindow {
    /// Whether a window has a title bar and borders.
    public enum Decorations: Sendable, Hashable {
        /// The compositor's where it offers to draw them (`xdg-decoration`),
        /// otherwise libdecor's, drawn around the window in the desktop's
        /// style where libdecor has a plugin for it.
        case automatic
        /// None: the surface alone (a kiosk, a full-screen application, a
        /// test that reads the screen's pixels).
        case none
    }

    /// Who draws the window's title bar and borders.
    public enum DecorationMode: Sendable, Hashable {
        /// The compositor (it offered `xdg-decoration`).
        case serverSide
        /// libdecor, in the window's process.
        case clientSide
        /// Nobody: `Decorations.none`, or libdecor could not start.
        case none
    }

    /// The layer tree's host; its frame is the window's size times `scale`.
    public let host: LayerHost
    /// The size in points.
    public private(set) var size: Size
    /// Device pixels per point (the buffer scale): the host's.
    public var scale: Double { host.scale }
    public private(set) var isOpen = true
    /// Asked before the compositor's close request closes the window.
    public var shouldClose: (@MainActor () -> Bool)?
    public var onClose: (@MainActor () -> Void)?
    public var onResize: (@MainActor (Size) -> Void)?
    public var title: String {
        didSet {
            toplevel?.send(2, [.string(title)])
            decorated?.setTitle(title)
        }
    }
    /// Who draws the title bar and borders.
    public private(set) var decorationMode = DecorationMode.none
    /// The pointer's shape over the window (the view under it chooses,
    /// or `setCursor(_:)`).
    public internal(set) var cursor: Cursor = .arrow
    /// The smallest size the compositor may make the window, in points.
    public var minimumSize: Size { didSet { sendMinimumSize() } }
    /// Whether the compositor shows the window maximized, full screen, or
    /// as the active window (its last configure).
    public private(set) var isMaximized = false
    public private(set) var isFullscreen = false
    public private(set) var isActive = false
    /// Frames presented so far.
    public private(set) var presentedFrames = 0
    /// Why the connection broke, once it has.
    public var connectionFailure: String? { connection.failure }
    /// The view tree input goes to: set it and the window makes an
    /// `InputDispatcher` for it and keeps the view the window's size.
    public var rootView: View? {
        didSet {
            oldValue?.layer.removeFromSuperlayer()
            dispatcher?.detach()
            dispatcher = rootView.map { InputDispatcher(rootView: $0, host: host) }
            dispatcher?.windowFocusObserver = { [weak self] from, to in
                guard let self else { return }
                self.textInput?.update()
                self.accessibilityBridge?.focusDidMove(from: from, to: to)
            }
            if let clipboard { dispatcher?.clipboard = clipboard }
            startAccessibility()
            rootView?.frame = host.rootLayer.bounds
        }
    }
    /// The dispatcher for `rootView`.
    public private(set) var dispatcher: InputDispatcher?
    /// Sees each input event first; returning false keeps it from the views.
    public var eventObserver: (@MainActor (InputEvent) -> Bool)?
    /// Input events delivered so far.
    public internal(set) var inputCount = 0
    /// Called after each frame is committed to the compositor, with the
    /// arrival times of the input events it is the first frame to show
    /// (the benchmark's latency probe).
    public var framePresented: (@MainActor (_ presented: Double, _ events: [Double]) -> Void)?
    /// Arrival times of the input events since the last frame.
    var eventsSinceFrame: [Double] = []

    let connection: WaylandConnection
    let surface: WaylandObject
    /// The toplevel: the window's own `xdg_surface` and `xdg_toplevel`
    /// (undecorated, or decorated by the compositor), or libdecor's frame.
    private var xdgSurface: WaylandObject?
    private var toplevel: WaylandObject?
    private var decoration: WaylandObject?
    private var decorated: DecoratedFrame?
    /// The pointer's shapes, and the serial of the pointer's last enter
    /// (a cursor may be set only with it).
    lazy var cursors = WaylandCursor(connection: connection)
    var pointerEnterSerial: UInt32 = 0
    /// The pointer is over the window's content (not its decorations).
    var pointerIsOnContent = false
    private var buffers: [ShmBuffer] = []
    /// The damage of recent frames, by frame number, to bring an older
    /// buffer up to date.
    private var damageHistory: [(frame: Int, rects: [PixelRect])] = []
    private var frameNumber = 0
    private var configured = false
    /// A frame callback is outstanding.
    private var waitingForFrame = false
    private var pendingFrameCallback: WaylandObject?
    /// The size the last toplevel configure asked for (points; 0: ours).
    private var requestedSize: (width: Int, height: Int) = (0, 0)
    /// The surface's viewport (`wp_viewporter`) and fractional scale
    /// (`wp_fractional_scale_v1`), where the compositor offers them.
    private(set) var viewport: WaylandObject?
    private var fractionalScaleObject: WaylandObject?
    /// The fractional scale the compositor asked for, once it has.
    private(set) var fractionalScale: Double?
    /// The size to go back to from maximized or full screen.
    private var floatingSize: Size
    /// The outputs the surface is on.
    private var enteredOutputs: Set<OpaquePointer> = []
    private var frameScheduled = false
    /// Whether the compositor's seat gave the window a pointer, and a
    /// keyboard (it may gain and lose them).
    public var hasPointer: Bool { pointer != nil }
    public var hasKeyboard: Bool { keyboardObject != nil }
    /// The seat's pointer, while it has one.
    var pointer: WaylandObject?
    var pointerState = PointerFrame()
    /// The seat's touch screen, while it has one; the touch acting as the
    /// pointer, and where it is.
    var touch: WaylandObject?
    var activeTouch: Int?
    var touchLocation = Point(x: 0, y: 0)
    /// The seat's keyboard, while it has one, and its keymap and state.
    var keyboardObject: WaylandObject?
    /// The serial of the latest key, button, touch or keyboard focus: what
    /// setting the clipboard needs.
    var inputSerial: UInt32 = 0
    /// The input method relay (text-input-v3), where the compositor has one.
    var textInput: WaylandTextInput?
    /// The clipboard and primary selection, where the compositor has them
    /// (the views' `InputDispatcher.clipboard`).
    var clipboard: WaylandClipboard?
    /// The window's views on the accessibility bus, made when assistive
    /// technology is on (`AccessibilityBridge.isEnabled()`), nil otherwise.
    public internal(set) var accessibilityBridge: AccessibilityBridge?
    let keyboard = WaylandKeyboard()

    /// Opens a window of `size` points on the compositor `display` (nil:
    /// `WAYLAND_DISPLAY`; a name under `XDG_RUNTIME_DIR` or an absolute
    /// socket path) and waits until it is configured.
    /// `decorations` chooses whether it has a title bar and borders.
    /// - Throws: `WaylandError.noCompositor` without a compositor,
    ///   `.missingInterface` for one without `xdg_wm_base`, `wl_shm` or
    ///   `wl_compositor` 4, `.invalidSize` for sizes that are not positive
    ///   numbers below 32768.
    public init(
        title: String = "Strata", appID: String? = nil, size: Size, display: String? = nil, backgroundColor: Color = .white,
        decorations: Decorations = .automatic
    ) throws {
        guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1, size.width <= 32767,
            size.height <= 32767
        else { throw WaylandError.invalidSize(width: size.width, height: size.height) }
        connection = try WaylandConnection(name: display)
        self.size = size
        floatingSize = size
        self.title = title
        minimumSize = Size(width: 1, height: 1)
        let scale = Double(connection.outputs.values.map(\.scale).max() ?? 1)
        let pw = Int((size.width * scale).rounded()), ph = Int((size.height * scale).rounded())
        host = try LayerHost(width: pw, height: ph, scale: scale, clock: SystemClock.shared, backgroundColor: backgroundColor)
        guard let compositor = connection.compositor, let wmBase = connection.wmBase,
            let s = wl_compositor_create_surface(compositor.proxy)
        else { throw WaylandError.missingInterface("wl_compositor") }
        surface = WaylandObject(s)
        let appName = appID ?? ProcessInfo.processInfo.processName
        // libdecor makes the toplevel and asks for the compositor's
        // decorations itself where it offers them, drawing its own where not.
        if decorations == .automatic, let frame = DecoratedFrame(display: connection.display, surface: surface.proxy) {
            decorated = frame
            decorationMode = connection.decorationManager != nil ? .serverSide : .clientSide
            frame.onConfigure = { [unowned self] configuration in self.configure(libdecor: configuration) }
            frame.onClose = { [unowned self] in self.compositorAskedToClose() }
            frame.onCommit = { [unowned self] in wl_surface_commit(self.surface.proxy) }
            frame.setTitle(title)
            frame.setAppID(appName)
        } else {
            guard let xs = wmBase.send(2, [.newID, .object(surface.proxy)], creating: strata_xdg_surface_interface()) else {
                throw WaylandError.missingInterface("xdg_surface")
            }
            let xdg = WaylandObject(xs)
            xdgSurface = xdg
            guard let tl = xdg.send(1, [.newID], creating: strata_xdg_toplevel_interface()) else {
                throw WaylandError.missingInterface("xdg_toplevel")
            }
            let top = WaylandObject(tl)
            toplevel = top
            top.send(2, [.string(title)])
            top.send(3, [.string(appName)])
            // The compositor's decorations where offered and wanted.
            if decorations == .automatic, let manager = connection.decorationManager,
                let d = manager.send(1, [.newID, .object(top.proxy)], creating: strata_zxdg_toplevel_decoration_v1_interface())
            {
                decoration = WaylandObject(d)
                decoration?.send(1, [.uint(2)])  // set_mode(server_side)
                decorationMode = .serverSide
            }
        }
        wireEvents()
        keyboard.now = { [unowned host] in host.clock.now }
        keyboard.deliver = { [unowned self] in self.deliver(.key($0)) }
        wireSeat()
        wireTextInputAndClipboard()
        sendMinimumSize()
        if let viewporter = connection.viewporter,
            let v = viewporter.send(1, [.newID, .object(surface.proxy)], creating: strata_wp_viewport_interface())
        {
            viewport = WaylandObject(v)
            if let manager = connection.fractionalScaleManager,
                let f = manager.send(1, [.newID, .object(surface.proxy)], creating: strata_wp_fractional_scale_v1_interface())
            {
                let fractional = WaylandObject(f)
                fractional.onEvent = { [unowned self] opcode, args in
                    if opcode == 0 { self.takePreferredScale(Double(args.uint(0)) / 120) }
                }
                fractionalScaleObject = fractional
            }
        }
        wl_surface_set_buffer_scale(surface.proxy, Int32(scale))
        // The first commit has no buffer: the compositor answers with a configure.
        if let decorated { decorated.map() } else { wl_surface_commit(surface.proxy) }
        host.frameRequestHandler = { [weak self] in self?.scheduleFrame() }
        connection.onFailure = { [weak self] _ in self?.close() }
        connection.outputsChanged = { [weak self] in self?.updateScale() }
        while !configured {
            guard connection.roundtrip() else { throw WaylandError.connectionLost(connection.failure ?? "") }
        }
        scheduleFrame()
    }

    private func wireEvents() {
        xdgSurface?.onEvent = { [unowned self] opcode, args in
            // configure: the toplevel's state is complete; acknowledged before
            // the next commit.
            guard opcode == 0 else { return }
            self.xdgSurface?.send(4, [.uint(args.uint(0))])
            self.configured = true
            self.applyRequestedSize()
            self.scheduleFrame()
        }
        toplevel?.onEvent = { [unowned self] opcode, args in
            switch opcode {
            case 0:
                self.requestedSize = (Int(args.int(0)), Int(args.int(1)))
                // States: 1 maximized, 2 fullscreen, 3 resizing, 4 activated.
                let states = Set(args.uint32Array(2))
                self.isMaximized = states.contains(1)
                self.isFullscreen = states.contains(2)
                self.isActive = states.contains(4)
            case 1: self.compositorAskedToClose()
            default: break
            }
        }
        surface.onEvent = { [unowned self] opcode, args in
            guard let output = args.object(0) else { return }
            if opcode == 0 { self.enteredOutputs.insert(output) } else if opcode == 1 { self.enteredOutputs.remove(output) }
            self.updateScale()
        }
    }

    /// libdecor's configure: the size and states asked for, taken, and
    /// committed with the frame (which acknowledges it).
    private func configure(libdecor configuration: OpaquePointer) {
        guard let decorated else { return }
        requestedSize = decorated.contentSize(configuration) ?? (0, 0)
        if let states = decorated.windowState(configuration) {
            (isMaximized, isFullscreen, isActive) = (states.maximized, states.fullscreen, states.active)
        }
        applyRequestedSize()
        decorated.commit(width: Int(size.width.rounded()), height: Int(size.height.rounded()), configuration: configuration)
        configured = true
        scheduleFrame()
    }

    private func compositorAskedToClose() {
        if shouldClose?() ?? true { close() }
    }

    private func sendMinimumSize() {
        guard isOpen else { return }
        let held = heldMinimumSize
        toplevel?.send(8, [.int(Int32(held.width)), .int(Int32(held.height))])
        decorated?.setMinimumSize(width: held.width, height: held.height)
    }

    /// `minimumSize` in whole points, 1 … 32,767 (NaN: 1).
    private var heldMinimumSize: (width: Int, height: Int) {
        func held(_ v: Double) -> Int { v.isFinite ? Int(max(1, min(32767, v.rounded(.up)))) : 1 }
        return (held(minimumSize.width), held(minimumSize.height))
    }

    /// Takes the size the compositor asked for, if it asked for one.
    /// A size of 0 leaves it to the window: the size it had before it was
    /// maximized or made full screen.
    private func applyRequestedSize() {
        let (w, h) = requestedSize
        guard w > 0, h > 0 else {
            if !isMaximized && !isFullscreen { resize(to: floatingSize) }
            return
        }
        let minimum = heldMinimumSize
        let newSize = Size(width: Double(min(32767, max(w, minimum.width))), height: Double(min(32767, max(h, minimum.height))))
        if !isMaximized && !isFullscreen { floatingSize = newSize }
        resize(to: newSize)
    }

    /// The largest scale of the outputs the surface is on.
    private func updateScale() {
        guard isOpen, fractionalScale == nil else { return }
        let on = connection.outputs.filter { enteredOutputs.contains($0.key) }.map(\.value.scale)
        let newScale = Double(on.max() ?? connection.outputs.values.map(\.scale).max() ?? 1)
        guard newScale != scale, resize(to: size, scale: newScale) else { return }
        wl_surface_set_buffer_scale(surface.proxy, Int32(newScale))
    }

    /// The scale the compositor prefers for this surface
    /// (`wp_fractional_scale_v1.preferred_scale`, in 120ths): the frame is
    /// rendered at it, e.g. 250 × 188 pixels for 200 × 150 points at
    /// 125 %, and the viewport shows that buffer at the window's size in
    /// points, so nothing is scaled and nothing blurs. Values that are not
    /// a positive number are ignored; others are held to 1/4 … 8.
    func takePreferredScale(_ newScale: Double) {
        guard isOpen, newScale.isFinite, newScale > 0, viewport != nil else { return }
        let held = min(8, max(0.25, newScale))
        fractionalScale = held
        // The resize sets the viewport's destination.
        guard held != scale, resize(to: size, scale: held) else { return }
        wl_surface_set_buffer_scale(surface.proxy, 1)
    }

    /// Resizes the frame to `newSize` points at `newScale` (nil: the scale
    /// there is); false, with nothing changed, when the host cannot have a
    /// frame that large.
    @discardableResult
    private func resize(to newSize: Size, scale newScale: Double? = nil) -> Bool {
        let newScale = newScale ?? scale
        guard newSize != size || newScale != scale else { return true }
        do {
            try host.resize(
                width: Int((newSize.width * newScale).rounded()), height: Int((newSize.height * newScale).rounded()), scale: newScale)
        } catch {
            return false
        }
        size = newSize
        // At a fractional scale the buffer is shown at the size in points.
        if fractionalScale != nil, let viewport {
            viewport.send(2, [.int(Int32(size.width.rounded())), .int(Int32(size.height.rounded()))])
        }
        damageHistory.removeAll()
        rootView?.frame = host.rootLayer.bounds
        onResize?(size)
        scheduleFrame()
        return true
    }

    /// Asks the compositor to maximize the window or to give it back its
    /// size; the size follows the compositor's configure.
    public func setMaximized(_ maximized: Bool) {
        guard isOpen else { return }
        toplevel?.send(maximized ? 9 : 10)
        decorated?.setMaximized(maximized)
        connection.flush()
    }

    /// Asks the compositor to show the window full screen, or not.
    public func setFullscreen(_ fullscreen: Bool) {
        guard isOpen else { return }
        if fullscreen { toplevel?.send(11, [.object(nil)]) } else { toplevel?.send(12) }
        decorated?.setFullscreen(fullscreen)
        connection.flush()
    }

    // MARK: Frames

    /// Whether the next frame would show something new.
    public var needsFrame: Bool { isOpen && configured && (host.needsFrame || presentedFrames == 0) }

    /// Whether the compositor is ready for a frame (its last callback came).
    public var isReadyForFrame: Bool { !waitingForFrame }

    /// Renders and presents a frame if one is due and the compositor is
    /// ready for it; returns whether it did.
    @discardableResult
    public func renderFrameIfNeeded() -> Bool {
        connection.dispatchPending()
        guard needsFrame, !waitingForFrame else { return false }
        guard let buffer = freeBuffer() else { return false }
        let damage = host.renderFrame()
        frameNumber += 1
        let rects = presentedFrames == 0 ? [wholeFrame] : damage.compactMap { PixelRect($0, within: host.width, host.height) }
        damageHistory.append((frameNumber, rects))
        if damageHistory.count > 4 { damageHistory.removeFirst(damageHistory.count - 4) }
        attach(buffer, copying: staleRects(of: buffer))
        requestFrameCallback()
        wl_surface_commit(surface.proxy)
        connection.flush()
        presentedFrames += 1
        let events = eventsSinceFrame
        eventsSinceFrame.removeAll()
        framePresented?(host.clock.now, events)
        return true
    }

    /// The whole frame, in device pixels.
    private var wholeFrame: PixelRect { PixelRect(x: 0, y: 0, width: host.width, height: host.height) }

    /// What `buffer` lacks of the last frame: every frame's damage since its
    /// own, or the whole frame when the history does not reach back to it.
    private func staleRects(of buffer: ShmBuffer) -> [PixelRect] {
        if buffer.frame == frameNumber { return [] }
        guard let held = buffer.frame, let first = damageHistory.first, first.frame <= held + 1 else { return [wholeFrame] }
        return damageHistory.filter { $0.frame > held }.flatMap(\.rects)
    }

    /// Copies `rects` of the frame into `buffer`, attaches it and declares
    /// them damaged (the commit is the caller's).
    private func attach(_ buffer: ShmBuffer, copying rects: [PixelRect]) {
        host.withFrameBuffer { buffer.copy($0, rects: rects) }
        buffer.frame = frameNumber
        buffer.busy = true
        let s = surface.proxy
        wl_surface_attach(s, buffer.buffer.proxy, 0, 0)
        for r in rects { wl_surface_damage_buffer(s, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height)) }
    }

    /// Shows the last rendered frame's `rects` (device pixels; nil: the
    /// whole frame) now, without rendering or waiting for a frame
    /// callback, and waits until the compositor has handled the commit (a
    /// round trip): a redraw, or a measure of presentation alone
    /// (`strata-bench window`). Waits for a buffer to be released if all
    /// three are held; does nothing before the first frame.
    public func presentFrame(rects: [Rect]? = nil) {
        guard isOpen, configured, presentedFrames > 0 else { return }
        var buffer = freeBuffer()
        var tries = 0
        while buffer == nil && tries < 100 && connection.roundtrip() {
            buffer = freeBuffer()
            tries += 1
        }
        guard let buffer else { return }
        let asked = rects.map { $0.compactMap { PixelRect($0, within: host.width, host.height) } } ?? [wholeFrame]
        // A buffer behind the last frame gets what it lacks too.
        attach(buffer, copying: asked + staleRects(of: buffer))
        wl_surface_commit(surface.proxy)
        connection.roundtrip()
    }

    /// A buffer of the frame's size the compositor does not hold; nil when
    /// all three are held.
    private func freeBuffer() -> ShmBuffer? {
        let (w, h) = (host.width, host.height)
        for b in buffers where b.width != w || b.height != h {
            b.destroy()
        }
        buffers.removeAll { $0.width != w || $0.height != h }
        if let b = buffers.first(where: { !$0.busy }) { return b }
        guard buffers.count < 3, let b = try? ShmBuffer(connection: connection, width: w, height: h) else { return nil }
        buffers.append(b)
        return b
    }

    private func requestFrameCallback() {
        guard let cb = wl_surface_frame(surface.proxy) else { return }
        let callback = WaylandObject(cb)
        pendingFrameCallback = callback
        waitingForFrame = true
        callback.onEvent = { [unowned self] opcode, _ in
            guard opcode == 0 else { return }
            self.waitingForFrame = false
            self.pendingFrameCallback = nil
            self.scheduleFrame()
        }
    }

    /// Renders on the main queue soon if a frame is due and may be drawn.
    func scheduleFrame() {
        guard isOpen, !frameScheduled else { return }
        frameScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.frameScheduled = false
                self.renderFrameIfNeeded()
                // Animations go on: the next callback schedules the next frame.
            }
        }
    }

    /// Reads and handles the compositor's events now (a test's loop).
    public func processEvents() {
        connection.readAndDispatch()
        connection.dispatchPending()
    }

    /// Waits until the compositor has handled every request so far and
    /// its answers are handled; false when the connection is gone.
    @discardableResult
    public func roundtrip() -> Bool { isOpen && connection.roundtrip() }

    /// Runs the main loop until the window closes.
    public func run() {
        while isOpen { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.25)) }
    }

    /// Closes the window (once), lets its objects go and ends the connection.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        host.frameRequestHandler = nil
        dispatcher?.detach()
        keyboard.leave()
        accessibilityBridge?.close()
        accessibilityBridge = nil
        if connection.failure == nil {
            textInput?.destroy()
            clipboard?.destroy()
            for b in buffers { b.destroy() }
            pendingFrameCallback?.destroy(request: nil)
            for device in [pointer, keyboardObject, touch] { device.map(Self.release) }
            fractionalScaleObject?.destroy()
            viewport?.destroy()
            decoration?.destroy()
            toplevel?.destroy()
            xdgSurface?.destroy()
            decorated?.destroy()
            cursors.destroy()
            surface.destroy()
        }
        buffers.removeAll()
        connection.disconnect()
        onClose?()
    }

    isolated deinit {
        close()
    }
}
