import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataWayland
import StrataX11

/// The window systems a `Window` can open on.
public enum WindowBackend: String, Sendable, CaseIterable {
    /// A Wayland compositor (GNOME, KDE, sway, weston).
    case wayland
    /// An X11 display (or XWayland).
    case x11

    /// The backend to use in `environment`: `STRATA_WINDOW_BACKEND`
    /// (`wayland` or `x11`) when set, else Wayland when `WAYLAND_DISPLAY`
    /// is set or a `wayland-0` socket is in `XDG_RUNTIME_DIR`, else X11
    /// when `DISPLAY` is set; nil when there is neither.
    public static func preferred(in environment: [String: String] = ProcessInfo.processInfo.environment) -> WindowBackend? {
        if let forced = environment["STRATA_WINDOW_BACKEND"].flatMap({ WindowBackend(rawValue: $0.lowercased()) }) {
            return forced
        }
        if let name = environment["WAYLAND_DISPLAY"], !name.isEmpty { return .wayland }
        if let dir = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: dir + "/wayland-0") { return .wayland }
        if let name = environment["DISPLAY"], !name.isEmpty { return .x11 }
        return nil
    }

    /// The backend a display name is for: an X display has a colon
    /// (`:0`, `host:1.0`); anything else names a Wayland socket.
    public static func forDisplay(_ name: String) -> WindowBackend { name.contains(":") ? .x11 : .wayland }
}

/// A window on the desktop showing a layer tree, on Wayland or X11
/// (`UIWindow` and `NSWindow` for Linux): the same API over both, the
/// backend chosen as `WindowBackend.preferred(in:)` says, or as asked.
///
/// Everything above the window system is shared: the `LayerHost` and its
/// frames, the `InputDispatcher` that pointer, wheel and key input go to
/// once `rootView` is set, and the close and resize callbacks. See
/// `StrataX11.Window` and `StrataWayland.WaylandWindow` for what each
/// backend does.
@MainActor
public final class Window {
    /// The window system's window.
    public enum Backing {
        case x11(StrataX11.Window)
        case wayland(WaylandWindow)
    }

    /// The window this one is, on its window system.
    public let backing: Backing

    /// Opens a window of `size` points.
    /// - Parameters:
    ///   - title: the title the window system shows.
    ///   - size: the window's size in points.
    ///   - display: an X display (`:0`) or a Wayland socket (a name under
    ///     `XDG_RUNTIME_DIR`, or an absolute path); nil: the environment's.
    ///   - backend: the window system; nil: the one `display` names, else
    ///     `WindowBackend.preferred(in:)`.
    ///   - scale: device pixels per point on X11 (Wayland takes the
    ///     output's).
    ///   - usesSharedMemory: on X11, whether to present through MIT-SHM
    ///     (Wayland always shares memory with the compositor).
    ///   - backgroundColor: what the frame shows where no layer draws.
    /// - Throws: `WindowError.noDisplay` when there is no window system at
    ///   all, and each backend's errors (`WindowError`, `WaylandError`).
    public init(
        title: String = "Strata", size: Size, scale: Double? = nil, display: String? = nil, backend: WindowBackend? = nil,
        usesSharedMemory: Bool = true, backgroundColor: Color = .white
    ) throws {
        guard let chosen = backend ?? display.map(WindowBackend.forDisplay) ?? WindowBackend.preferred() else {
            throw WindowError.noDisplay("neither WAYLAND_DISPLAY nor DISPLAY is set")
        }
        switch chosen {
        case .x11:
            backing = .x11(
                try StrataX11.Window(
                    title: title, size: size, scale: scale, display: display, usesSharedMemory: usesSharedMemory,
                    backgroundColor: backgroundColor))
        case .wayland:
            backing = .wayland(try WaylandWindow(title: title, size: size, display: display, backgroundColor: backgroundColor))
        }
    }

    /// The window system this window is on.
    public var backend: WindowBackend {
        switch backing {
        case .x11: .x11
        case .wayland: .wayland
        }
    }

    /// The backend's window, through what both have in common.
    private var platform: any PlatformWindow {
        switch backing {
        case .x11(let w): w
        case .wayland(let w): w
        }
    }

    public var host: LayerHost { platform.host }
    public var rootLayer: Layer { host.rootLayer }
    /// Device pixels per point.
    public var scale: Double { platform.scale }
    /// The size in points.
    public var size: Size { platform.size }
    public var isOpen: Bool { platform.isOpen }
    /// The view tree input goes to (the window makes an `InputDispatcher`).
    public var rootView: View? {
        get { platform.rootView }
        set { platform.rootView = newValue }
    }
    /// The dispatcher for `rootView`.
    public var dispatcher: InputDispatcher? { platform.dispatcher }
    public var title: String {
        get { platform.title }
        set { platform.title = newValue }
    }
    /// The smallest size the window may be made, in points.
    public var minimumSize: Size {
        get { platform.minimumSize }
        set { platform.minimumSize = newValue }
    }
    /// Asked before the window system's close request closes the window.
    public var shouldClose: (@MainActor () -> Bool)? {
        get { platform.shouldClose }
        set { platform.shouldClose = newValue }
    }
    public var onClose: (@MainActor () -> Void)? {
        get { platform.onClose }
        set { platform.onClose = newValue }
    }
    /// Called with the new size in points.
    public var onResize: (@MainActor (Size) -> Void)? {
        get { platform.onResize }
        set { platform.onResize = newValue }
    }
    /// Sees each input event first; returning false keeps it from the views.
    public var eventObserver: (@MainActor (InputEvent) -> Bool)? {
        get { platform.eventObserver }
        set { platform.eventObserver = newValue }
    }
    /// Whether the next frame would show something new.
    public var needsFrame: Bool { platform.needsFrame }

    /// Renders and presents a frame if one is due; returns whether it did.
    @discardableResult
    public func renderFrameIfNeeded() -> Bool { platform.renderFrameIfNeeded() }

    /// Where the window's top-left corner is on the screen, in device
    /// pixels; Wayland does not tell clients, so (0, 0) there.
    public var screenOrigin: (x: Int, y: Int) {
        switch backing {
        case .x11(let w): w.screenOrigin
        case .wayland: (0, 0)
        }
    }

    /// The window's pixels: read back from the X server, or on Wayland
    /// (where a client cannot read the screen) the last frame presented.
    public func readPixels() throws -> Image {
        switch backing {
        case .x11(let w): return try w.readPixels()
        case .wayland(let w):
            w.host.finishRendering()
            return w.host.makeImage()
        }
    }

    /// Runs the main loop until the window closes.
    public func run() { platform.run() }

    /// Waits, without blocking the main actor, until the window closes.
    public func waitUntilClosed() async {
        while isOpen { try? await Task.sleep(nanoseconds: 20_000_000) }
    }

    public func close() { platform.close() }
}

/// What the X11 and Wayland windows have in common, for `Window` to
/// forward to either.
@MainActor
protocol PlatformWindow: AnyObject {
    var host: LayerHost { get }
    var scale: Double { get }
    var size: Size { get }
    var isOpen: Bool { get }
    var rootView: View? { get set }
    var dispatcher: InputDispatcher? { get }
    var title: String { get set }
    var minimumSize: Size { get set }
    var shouldClose: (@MainActor () -> Bool)? { get set }
    var onClose: (@MainActor () -> Void)? { get set }
    var onResize: (@MainActor (Size) -> Void)? { get set }
    var eventObserver: (@MainActor (InputEvent) -> Bool)? { get set }
    var needsFrame: Bool { get }
    func renderFrameIfNeeded() -> Bool
    func run()
    func close()
}

extension StrataX11.Window: PlatformWindow {}
extension WaylandWindow: PlatformWindow {}
