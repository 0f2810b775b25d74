internal import CWaylandClient
import Foundation

/// A toplevel that libdecor makes and decorates: libdecor asks the
/// compositor to draw the title bar and borders (`xdg-decoration`) where it
/// offers that, and otherwise draws them itself around the surface, in
/// subsurfaces, with its plugin (libdecor-cairo on Debian): title, the
/// close, maximize and minimize buttons, moving by the title bar and
/// resizing by the edges, with the theme's cursors over them.
///
/// Why libdecor and not a title bar drawn by Strata: it is what GTK-less
/// toolkits use on Wayland (SDL, GLFW, winit's users, Qt's fallback), it
/// follows the desktop's look where a plugin for it exists, and the
/// details a hand-made one gets wrong (resize edges and corners, the
/// window menu, tiled states, double-click to maximize) are done.
///
/// libdecor's objects are dispatched on the window's connection, so its
/// callbacks come on the main actor, from the window's own dispatch.
@MainActor
final class DecoratedFrame {
    let context: OpaquePointer
    /// The libdecor frame, once `decorate` made it.
    private var frame: OpaquePointer?
    /// A configure: the frame and its configuration, to be committed
    /// (`commit(width:height:configuration:)`) before the callback returns.
    var onConfigure: ((OpaquePointer) -> Void)?
    var onClose: (() -> Void)?
    /// The decoration asks for the main surface to be committed.
    var onCommit: (() -> Void)?
    private var isDestroyed = false

    /// Starts libdecor on `display` and decorates `surface`; nil when
    /// libdecor cannot.
    init?(display: OpaquePointer, surface: OpaquePointer) {
        guard let context = libdecor_new(display, decorInterface) else { return nil }
        self.context = context
        // Its callbacks find this object by its address (not retained:
        // the window keeps it, and `destroy` ends them).
        guard let frame = libdecor_decorate(context, surface, frameInterface, Unmanaged.passUnretained(self).toOpaque()) else {
            libdecor_unref(context)
            return nil
        }
        self.frame = frame
    }

    func setTitle(_ title: String) {
        guard !isDestroyed, let frame else { return }
        libdecor_frame_set_title(frame, WaylandArgument.fitting(title))
    }

    func setAppID(_ id: String) {
        guard !isDestroyed, let frame else { return }
        libdecor_frame_set_app_id(frame, WaylandArgument.fitting(id))
    }

    func setMinimumSize(width: Int, height: Int) {
        guard !isDestroyed, let frame else { return }
        libdecor_frame_set_min_content_size(frame, Int32(width), Int32(height))
    }

    func setMaximized(_ maximized: Bool) {
        guard !isDestroyed, let frame else { return }
        if maximized { libdecor_frame_set_maximized(frame) } else { libdecor_frame_unset_maximized(frame) }
    }

    func setFullscreen(_ fullscreen: Bool) {
        guard !isDestroyed, let frame else { return }
        if fullscreen { libdecor_frame_set_fullscreen(frame, nil) } else { libdecor_frame_unset_fullscreen(frame) }
    }

    /// Maps the frame: its first commit, which the compositor answers
    /// with a configure.
    func map() {
        guard !isDestroyed, let frame else { return }
        libdecor_frame_map(frame)
    }

    /// The content size `configuration` asks for, in points; nil when it
    /// leaves the size to the window.
    func contentSize(_ configuration: OpaquePointer) -> (width: Int, height: Int)? {
        guard !isDestroyed, let frame else { return nil }
        var w: Int32 = 0, h: Int32 = 0
        guard libdecor_configuration_get_content_size(configuration, frame, &w, &h) else { return nil }
        return (Int(w), Int(h))
    }

    /// The window states `configuration` gives, when it gives them.
    func windowState(_ configuration: OpaquePointer) -> (maximized: Bool, fullscreen: Bool, active: Bool)? {
        var state = LIBDECOR_WINDOW_STATE_NONE
        guard libdecor_configuration_get_window_state(configuration, &state) else { return nil }
        func has(_ flag: libdecor_window_state) -> Bool { state.rawValue & flag.rawValue != 0 }
        return (has(LIBDECOR_WINDOW_STATE_MAXIMIZED), has(LIBDECOR_WINDOW_STATE_FULLSCREEN), has(LIBDECOR_WINDOW_STATE_ACTIVE))
    }

    /// Commits the content size for `configuration` (acknowledging it), or
    /// for the frame as it is (nil): the decorations follow.
    func commit(width: Int, height: Int, configuration: OpaquePointer?) {
        guard !isDestroyed, let frame, let state = libdecor_state_new(Int32(width), Int32(height)) else { return }
        libdecor_frame_commit(frame, state, configuration)
        libdecor_state_free(state)
    }

    /// Lets the frame and libdecor go (the toplevel, the decorations and
    /// their surfaces), not the decorated surface.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        onConfigure = nil
        onClose = nil
        onCommit = nil
        if let frame { libdecor_frame_unref(frame) }
        libdecor_unref(context)
    }
}

/// The `DecoratedFrame` a libdecor callback is for.
private func decoratedFrame(_ userData: UnsafeMutableRawPointer?) -> UInt? {
    userData.map { UInt(bitPattern: $0) }
}

/// Calls `body` on the main actor with the frame at `address`: libdecor's
/// callbacks run inside the window's dispatch, on the main actor; only
/// the address crosses.
private func withFrame(_ address: UInt?, _ body: @MainActor (DecoratedFrame) -> Void) {
    guard let address else { return }
    MainActor.assumeIsolated {
        body(Unmanaged<DecoratedFrame>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue())
    }
}

// The callback tables libdecor keeps pointers to for as long as it runs:
// made once, never freed, never written after; libdecor only reads them.
nonisolated(unsafe) private let decorInterface: UnsafeMutablePointer<libdecor_interface> = {
    let table = UnsafeMutablePointer<libdecor_interface>.allocate(capacity: 1)
    table.initialize(to: libdecor_interface())
    table.pointee.error = { _, _, message in
        // An error of libdecor's (a compositor it cannot decorate on, or a
        // configuration it refuses): the window goes on undecorated.
        let text = message.map { String(cString: $0) } ?? "unknown"
        FileHandle.standardError.write(Data("strata: libdecor: \(text)\n".utf8))
    }
    return table
}()

nonisolated(unsafe) private let frameInterface: UnsafeMutablePointer<libdecor_frame_interface> = {
    let table = UnsafeMutablePointer<libdecor_frame_interface>.allocate(capacity: 1)
    table.initialize(to: libdecor_frame_interface())
    table.pointee.configure = { _, configuration, userData in
        guard let configuration else { return }
        let c = UInt(bitPattern: configuration)
        withFrame(decoratedFrame(userData)) { $0.onConfigure?(OpaquePointer(bitPattern: c)!) }
    }
    table.pointee.close = { _, userData in withFrame(decoratedFrame(userData)) { $0.onClose?() } }
    table.pointee.commit = { _, userData in withFrame(decoratedFrame(userData)) { $0.onCommit?() } }
    table.pointee.dismiss_popup = { _, _, _ in }
    return table
}()
