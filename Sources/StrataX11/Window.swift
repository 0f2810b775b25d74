internal import CX11
import Dispatch
import Foundation
import StrataAccessibility
import StrataControls
import StrataGraphics
import StrataLayers

/// A window on an X11 display showing a layer tree: `UIWindow` and
/// `NSWindow` for Linux desktops (natively or through XWayland).
///
/// The window owns a `LayerHost` (its frame, in device pixels, is the
/// window's size in points times `scale`) and, with a `rootView`, an
/// `InputDispatcher` that X's pointer, wheel and key events go to.
///
/// **Frames.** `run()` (or anything that runs the main queue: an async main, a test awaiting) runs the window's
/// loop on the main actor: a dispatch source reads X events when the
/// connection has some, and a one-shot timer renders the next frame while
/// the host has something to show (`LayerHost.needsFrame`: a commit,
/// animations, scroll physics, a pointer held down), a frame interval (1/60
/// s) after the last; with nothing to show it is not set, so an idle window
/// costs no CPU. A commit made while idle (an asynchronous drawing landing,
/// an app's change) sets it again. After input the next frame comes half an
/// interval after the last one, or at once if that has passed, so what the
/// pointer does is on screen within a frame's time of its arrival. The loop
/// is in two steps a test can call itself: `processEvents()` and
/// `renderFrameIfNeeded()`.
///
/// **Presentation.** Each frame's damaged rectangles are copied from the
/// frame buffer into an image in shared memory and shown with
/// `XShmPutImage` (MIT-SHM); where the server cannot share memory (a
/// remote display) or `usesSharedMemory` was turned off, with `XPutImage`.
///
/// **Closing.** The window manager's close button sends
/// `WM_DELETE_WINDOW`: `shouldClose` is asked, then the window closes
/// (`close()`), calls `onClose` and ends `run()`.
@MainActor
public final class Window {
    /// The layer tree's host; its root layer fills the window.
    public let host: LayerHost
    /// Device pixels per point.
    public let scale: Double
    /// The root layer (`host.rootLayer`).
    public var rootLayer: Layer { host.rootLayer }
    /// The view tree input goes to: set it and the window makes an
    /// `InputDispatcher` for it and keeps the view the window's size.
    public var rootView: View? {
        didSet {
            oldValue?.layer.removeFromSuperlayer()
            dispatcher?.detach()
            dispatcher = rootView.map { InputDispatcher(rootView: $0, host: host) }
            dispatcher?.windowFocusObserver = { [weak self] from, to in
                guard let self else { return }
                self.updateInputContextFocus()
                self.accessibilityBridge?.focusDidMove(from: from, to: to)
            }
            if let selections { dispatcher?.clipboard = selections }
            startAccessibility()
            rootView?.frame = host.rootLayer.bounds
        }
    }
    /// The dispatcher for `rootView`.
    public internal(set) var dispatcher: InputDispatcher?
    /// The window's size in points.
    public internal(set) var size: Size
    /// Whether frames go through shared memory (false on a remote display,
    /// or when turned off at creation).
    public var usesSharedMemory: Bool { presenter?.usesSharedMemory ?? false }
    /// Whether the window is on screen (false once closed).
    public internal(set) var isOpen = true
    /// Asked when the window manager's close button is pressed; return false
    /// to keep the window open. Default: nil (close).
    public var shouldClose: (@MainActor () -> Bool)?
    /// Called once the window has closed.
    public var onClose: (@MainActor () -> Void)?
    /// Called after the window's size changed and the tree was laid out at it.
    public var onResize: (@MainActor (Size) -> Void)?
    /// Called with every input event before it is delivered (the benchmark's
    /// latency probe); return false to drop it.
    public var eventObserver: (@MainActor (InputEvent) -> Bool)?
    /// Called after each frame is presented, with the input events it was
    /// the first frame to show (their timestamps).
    public var framePresented: (@MainActor (_ presented: Double, _ events: [Double]) -> Void)?
    /// Frames a second the timer aims at (the display's rate; default 60;
    /// held to 1…1000, and 60 for values that are not numbers).
    public let framesPerSecond: Double

    /// The window's title (the title bar's text).
    public var title: String {
        didSet {
            setTitle()
            accessibilityBridge?.name = title
        }
    }
    /// What shows the window's views to assistive tools (Orca): made when
    /// assistive technology is on (`AccessibilityBridge.isEnabled()`), nil
    /// otherwise, when accessibility costs nothing.
    public internal(set) var accessibilityBridge: AccessibilityBridge?
    /// The X selections, the views' clipboard (`InputDispatcher.clipboard`).
    var selections: X11Clipboard?
    /// The smallest size the window manager lets the user make the window.
    public var minimumSize: Size { didSet { setSizeHints() } }
    /// The pointer's shape (set from the view under the pointer as it moves).
    public internal(set) var cursor: StrataControls.Cursor = .arrow

    let display: OpaquePointer
    let xWindow: CX11.Window
    let screen: Int32
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    let wantsSharedMemory: Bool
    var presenter: FramePresenter?
    var deleteAtom: Atom = 0
    var protocolsAtom: Atom = 0
    var inputMethod: XIM?
    var inputContext: XIC?
    /// The input method asked for at creation, as `XMODIFIERS` names it.
    let inputMethodModifiers: String?
    /// Where the input context's pre-edit callbacks report (nil without).
    var preeditTarget: UnsafeMutablePointer<strata_preedit_target>?
    /// The input method's composition, by character as it counts them.
    var preedit: [Unicode.Scalar] = []
    var preeditCaret = 0
    /// The caret last told to the input method (window pixels).
    var inputMethodSpot: (x: Int16, y: Int16)?
    /// Whether the input context has focus (a text client is focused).
    var inputContextFocused = false
    var eventSource: DescriptorWatch?
    var timer: DispatchSourceTimer?
    /// When frames are due: the policy every windowing backend shares.
    var frames: FrameScheduler
    /// Input events delivered so far.
    var inputCount = 0
    /// A size the server gave us that the frame has not been made for yet,
    /// and when it came (a resize settles before the frame is remade).
    var pendingSize: (width: Int, height: Int, at: Double)?
    /// The whole window must be shown again (exposed, or remade).
    var needsFullPresent = true
    var cursors: [StrataControls.Cursor: CX11.Cursor] = [:]
    var keysDown: Set<UInt32> = []
    /// X server time (ms) and host time of the first event, to put event
    /// times on the host's clock.
    var timeAnchor: (server: UInt, host: Double)?
    /// Input events delivered since the last frame was presented.
    var eventsSinceFrame: [Double] = []
    var xinput: XInputPointer?
    var lastPointer = Point(x: 0, y: 0)

    /// Opens a window of `size` points on `display` (default: `DISPLAY`),
    /// at `scale` device pixels per point (default: the desktop's `Xft.dpi`
    /// over 96), and shows it. `inputMethod` picks the input method as
    /// `XMODIFIERS` does (`"@im=ibus"`, `"@im=fcitx"`); default: the
    /// environment's `XMODIFIERS`.
    /// - Throws: `WindowError.noDisplay` without a display,
    ///   `.invalidSize` for sizes that are not positive numbers, and
    ///   `.unsupportedVisual` for screens that are not true colour.
    public init(
        title: String = "Strata", size: Size, scale: Double? = nil, display name: String? = nil,
        usesSharedMemory: Bool = true, framesPerSecond: Double = 60, backgroundColor: Color = .white, inputMethod: String? = nil
    ) throws {
        inputMethodModifiers = inputMethod
        guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1, size.width <= 32767,
            size.height <= 32767
        else { throw WindowError.invalidSize(width: size.width, height: size.height) }
        let name = name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard !name.isEmpty, let display = XOpenDisplay(name) else { throw WindowError.noDisplay(name) }
        XErrors.install()
        XErrors.watch(display)
        self.display = display
        screen = strata_x_default_screen(display)
        visual = strata_x_default_visual(display, screen)
        depth = strata_x_default_depth(display, screen)
        do { try FramePresenter.checkVisual(visual, depth: depth) } catch {
            XCloseDisplay(display)
            throw error
        }
        let requested = scale ?? desktopScale(display)
        self.scale = requested.isFinite && requested > 0 ? min(8, requested) : 1
        frames = FrameScheduler(framesPerSecond: framesPerSecond)
        self.framesPerSecond = frames.framesPerSecond
        self.title = title
        minimumSize = Size(width: 1, height: 1)
        self.size = size
        wantsSharedMemory = usesSharedMemory
        let pw = max(1, Int((size.width * self.scale).rounded())), ph = max(1, Int((size.height * self.scale).rounded()))
        do {
            host = try LayerHost(
                width: pw, height: ph, scale: self.scale, clock: SystemClock.shared, backgroundColor: backgroundColor,
                frameBudget: 1 / self.framesPerSecond)
        } catch {
            XCloseDisplay(display)
            throw WindowError.invalidSize(width: size.width, height: size.height)
        }
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = strata_x_black_pixel(display, screen)
        attributes.bit_gravity = NorthWestGravity
        attributes.event_mask =
            ExposureMask | StructureNotifyMask | KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask
            | PointerMotionMask | FocusChangeMask
        xWindow = XCreateWindow(
            display, strata_x_root_window(display, screen), 0, 0, UInt32(pw), UInt32(ph), 0, depth, UInt32(InputOutput), visual,
            UInt(CWBackPixel | CWBitGravity | CWEventMask), &attributes)
        protocolsAtom = XInternAtom(display, "WM_PROTOCOLS", 0)
        deleteAtom = XInternAtom(display, "WM_DELETE_WINDOW", 0)
        XSetWMProtocols(display, xWindow, &deleteAtom, 1)
        var supported: Int32 = 0
        // Held keys repeat as presses only (no release between): `isRepeat`.
        XkbSetDetectableAutoRepeat(display, 1, &supported)
        setTitle()
        setSizeHints()
        openInputMethod()
        selections = X11Clipboard(window: self)
        xinput = XInputPointer(display: display, window: xWindow)
        XMapWindow(display, xWindow)
        XFlush(display)
        do {
            presenter = try FramePresenter(
                display: display, window: xWindow, visual: visual, depth: depth, width: pw, height: ph, sharedMemory: usesSharedMemory)
        } catch {
            XDestroyWindow(display, xWindow)
            XCloseDisplay(display)
            throw error
        }
        host.frameRequestHandler = { [weak self] in self?.scheduleFrames() }
        startSources()
    }

    isolated deinit {
        closeConnection()
    }

    // MARK: Properties sent to the server

    func setTitle() {
        guard isOpen else { return }
        XStoreName(display, xWindow, title)
        let utf8 = XInternAtom(display, "UTF8_STRING", 0), netName = XInternAtom(display, "_NET_WM_NAME", 0)
        let bytes = Array(title.utf8)
        bytes.withUnsafeBufferPointer { b in
            _ = XChangeProperty(display, xWindow, netName, utf8, 8, PropModeReplace, b.baseAddress, Int32(b.count))
        }
        XFlush(display)
    }

    func setSizeHints() {
        guard isOpen, let hints = XAllocSizeHints() else { return }
        defer { XFree(hints) }
        let w = minimumSize.width.isFinite ? max(1, minimumSize.width) : 1
        let h = minimumSize.height.isFinite ? max(1, minimumSize.height) : 1
        hints.pointee.flags = PMinSize
        hints.pointee.min_width = Int32(min(32767, (w * scale).rounded(.up)))
        hints.pointee.min_height = Int32(min(32767, (h * scale).rounded(.up)))
        XSetWMNormalHints(display, xWindow, hints)
        XFlush(display)
    }

    /// Asks for a new size in points (the window manager may refuse); the
    /// frame follows once the server reports the change.
    public func setSize(_ size: Size) {
        guard isOpen, size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1 else { return }
        let w = max(1, min(32767, Int((size.width * scale).rounded()))), h = max(1, min(32767, Int((size.height * scale).rounded())))
        XResizeWindow(display, xWindow, UInt32(w), UInt32(h))
        XFlush(display)
    }

    // MARK: The loop

    /// Runs the window's loop until it closes (the main thread's run loop,
    /// which also runs the main queue: asynchronous drawings, transactions).
    public func run() {
        while isOpen {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.25))
        }
    }

    /// Waits, without blocking the main actor, until the window closes.
    public func waitUntilClosed() async {
        while isOpen { try? await Task.sleep(nanoseconds: 20_000_000) }
    }

    func startSources() {
        eventSource = DescriptorWatch(strata_x_connection_number(display), for: .readable, queue: .main) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let before = self.inputCount
                self.processEvents()
                self.scheduleFrames(afterInput: self.inputCount != before)
            }
        }
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: .main)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.timerFired() }
        }
        timer.schedule(deadline: .distantFuture, repeating: .never)
        timer.resume()
        self.timer = timer
        scheduleFrames()
    }

    /// Sets the frame timer for the next frame, if one is due
    /// (`FrameScheduler.schedule(now:afterInput:)`).
    func scheduleFrames(afterInput: Bool = false) {
        guard isOpen, needsFrame, timer != nil else { return }
        if let t = frames.schedule(now: SystemClock.shared.now, afterInput: afterInput) { arm(at: t) }
    }

    /// Arms the one-shot frame timer for host time `t`.
    func arm(at t: Double) {
        let ns = UInt64(max(0, min(t, 1e9)) * 1e9)
        timer?.schedule(deadline: DispatchTime(uptimeNanoseconds: ns), repeating: .never, leeway: .microseconds(200))
    }

    func timerFired() {
        let fired = frames.fire(now: SystemClock.shared.now)
        processEvents()
        endScrollGesture(at: SystemClock.shared.now)
        renderFrameIfNeeded()
        if needsFrame {
            if let t = frames.next(now: SystemClock.shared.now, afterDeadline: fired) { arm(at: t) }
        } else {
            XFlush(display)
        }
    }

    /// Whether the server dropped the connection (it exited, or the
    /// network failed): the window then closes, calling `onClose`.
    public var connectionLost: Bool {
        if !lostConnection, isOpen, XErrors.isLost(display) { lostConnection = true }
        return lostConnection
    }
    var lostConnection = false

    /// Whether the next frame would show something new.
    public var needsFrame: Bool {
        isOpen && (host.needsFrame || pendingSize != nil || needsFullPresent || xinput?.isScrolling == true)
    }

    /// Renders and presents a frame if one is due (`needsFrame`); returns
    /// whether it did. A size change waits a tenth of a second to settle.
    @discardableResult
    public func renderFrameIfNeeded() -> Bool {
        guard needsFrame else { return false }
        if connectionLost {
            close()
            return false
        }
        let now = SystemClock.shared.now
        if let p = pendingSize, now - p.at >= 0.1 {
            pendingSize = nil
            applySize(width: p.width, height: p.height)
        }
        guard host.needsFrame || needsFullPresent else { return false }
        let damage = host.renderFrame()
        present(damage)
        frames.framePresented(at: now)
        return true
    }

    func present(_ damage: [Rect]) {
        guard let presenter else { return }
        let rects = presenter.pixelRects(needsFullPresent ? nil : damage)
        needsFullPresent = false
        if !rects.isEmpty { host.withFrameBuffer { presenter.present($0, rects: rects) } }
        let events = eventsSinceFrame
        eventsSinceFrame.removeAll()
        if let framePresented {
            presenter.waitForCompletion()
            framePresented(SystemClock.shared.now, events)
        }
    }

    /// Shows the last rendered frame's `rects` (device pixels; nil: the
    /// whole frame) in the window now, without rendering, and waits until
    /// the server has them: a redraw after the screen was disturbed, or a
    /// measure of presentation alone (`strata-bench window`).
    public func presentFrame(rects: [Rect]? = nil) {
        guard isOpen, let presenter else { return }
        let pixelRects = presenter.pixelRects(rects)
        host.withFrameBuffer { presenter.present($0, rects: pixelRects) }
        // Shared images: the wait is a round trip; plain puts need one.
        if presenter.usesSharedMemory { presenter.waitForCompletion() } else { XSync(display, 0) }
    }

    /// Shows the whole frame again at the next frame.
    public func setNeedsFullPresent() {
        needsFullPresent = true
        scheduleFrames()
    }

    func applySize(width: Int, height: Int) {
        guard width != host.width || height != host.height else { return }
        presenter?.waitForCompletion()
        presenter = nil
        do {
            try host.resize(width: width, height: height)
            presenter = try FramePresenter(
                display: display, window: xWindow, visual: visual, depth: depth, width: host.width, height: host.height,
                sharedMemory: wantsSharedMemory)
        } catch {
            // Out of memory or refused: keep the last frame's size.
            presenter = try? FramePresenter(
                display: display, window: xWindow, visual: visual, depth: depth, width: host.width, height: host.height,
                sharedMemory: wantsSharedMemory)
        }
        size = Size(width: Double(host.width) / scale, height: Double(host.height) / scale)
        rootView?.frame = host.rootLayer.bounds
        needsFullPresent = true
        onResize?(size)
    }

    /// Closes the window: it leaves the screen, the loop stops and `onClose` runs.
    public func close() {
        guard isOpen else { return }
        closeConnection()
        onClose?()
    }

    func closeConnection() {
        guard isOpen else { return }
        isOpen = false
        accessibilityBridge?.close()
        accessibilityBridge = nil
        eventSource?.cancel()
        eventSource = nil
        timer?.cancel()
        timer = nil
        frames.cancel()
        let lost = connectionLost
        presenter?.connectionLost = lost
        presenter = nil
        defer { XErrors.forget(display) }
        if lost {
            // No Xlib call is safe on a dead connection, not even
            // `XCloseDisplay` (it flushes): the connection's memory is left
            // to the process (a few kilobytes, once per lost server).
            cursors.removeAll()
            inputContext = nil
            inputMethod = nil
            dispatcher?.detach()
            return
        }
        for (_, c) in cursors { XFreeCursor(display, c) }
        cursors.removeAll()
        if let inputContext { XDestroyIC(inputContext) }
        if let inputMethod { XCloseIM(inputMethod) }
        inputContext = nil
        inputMethod = nil
        preeditTarget?.deallocate()
        preeditTarget = nil
        XDestroyWindow(display, xWindow)
        XCloseDisplay(display)
        dispatcher?.detach()
    }

    // MARK: Reading back

    /// The window's pixels as the server has them (`XGetImage`), as an
    /// opaque image: what is on screen, for tests and screenshots.
    public func readPixels() throws -> Image {
        guard isOpen else { throw WindowError.serverError("the window is closed") }
        presenter?.waitForCompletion()
        XSync(display, 0)
        var w = UInt32(0), h = UInt32(0), border = UInt32(0), d = UInt32(0), x = Int32(0), y = Int32(0)
        var root: CX11.Window = 0
        XGetGeometry(display, xWindow, &root, &x, &y, &w, &h, &border, &d)
        guard let img = XGetImage(display, xWindow, 0, 0, w, h, UInt(bitPattern: -1), ZPixmap) else {
            throw WindowError.serverError("XGetImage failed")
        }
        defer { _ = strata_x_destroy_image(img) }
        let width = Int(w), height = Int(h)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let row = Int(img.pointee.bytes_per_line)
        let data = UnsafeRawPointer(img.pointee.data!)
        let bpp = Int(img.pointee.bits_per_pixel)
        guard bpp == 32 else { throw WindowError.unsupportedVisual("\(bpp) bits per pixel in XGetImage") }
        for yy in 0..<height {
            for xx in 0..<width {
                let v = data.loadUnaligned(fromByteOffset: yy * row + xx * 4, as: UInt32.self)
                let i = (yy * width + xx) * 4
                pixels[i] = UInt8((v >> 16) & 0xFF)
                pixels[i + 1] = UInt8((v >> 8) & 0xFF)
                pixels[i + 2] = UInt8(v & 0xFF)
            }
        }
        return try Image(width: width, height: height, premultipliedPixels: pixels)
    }

    /// Where the window's top left is on the screen (device pixels).
    public var screenOrigin: (x: Int, y: Int) {
        guard isOpen else { return (0, 0) }
        var x = Int32(0), y = Int32(0)
        var child: CX11.Window = 0
        XTranslateCoordinates(display, xWindow, strata_x_root_window(display, screen), 0, 0, &x, &y, &child)
        return (Int(x), Int(y))
    }

    /// Whether the pointer comes through XInput 2.1 (smooth scrolling with
    /// inferred phases) rather than core events (wheel steps only).
    public var usesXInput2: Bool { xinput != nil }

    /// The X window's ID (`XID`), for tools that address it (xdotool, xwd).
    public var windowID: UInt { UInt(xWindow) }

    /// Waits until the server has handled every request sent (a test's barrier).
    public func sync() {
        guard isOpen else { return }
        XSync(display, 0)
    }
}
