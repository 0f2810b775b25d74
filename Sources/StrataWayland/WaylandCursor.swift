internal import CWaylandClient
import Foundation
import StrataControls

/// The pointer's shapes over a window's content, from the desktop's cursor
/// theme (`XCURSOR_THEME`, `XCURSOR_SIZE`) through libwayland-cursor, at
/// the window's scale rounded up so they are crisp. A theme without a
/// shape falls back to its other names for it, then to the arrow, then to
/// libwayland-cursor's own arrow.
@MainActor
final class WaylandCursor {
    private let connection: WaylandConnection
    /// The loaded theme (`struct wl_cursor_theme *`) and the scale it was
    /// loaded for.
    private var theme: OpaquePointer?
    private var themeScale = 0
    private var surface: WaylandObject?
    /// The shape shown since the pointer last entered; nil: none yet.
    private(set) var shown: Cursor?

    init(connection: WaylandConnection) {
        self.connection = connection
    }

    /// The theme's names for `cursor`, most current first (the CSS names
    /// freedesktop themes use, then X11's).
    static func names(_ cursor: Cursor) -> [String] {
        switch cursor {
        case .arrow: ["default", "left_ptr"]
        case .pointingHand: ["pointer", "hand2", "pointing_hand"]
        case .iBeam: ["text", "xterm", "ibeam"]
        case .crosshair: ["crosshair", "cross"]
        case .openHand: ["grab", "openhand", "hand1"]
        case .closedHand: ["grabbing", "closedhand", "fleur"]
        case .resizeLeftRight: ["ew-resize", "sb_h_double_arrow", "h_double_arrow"]
        case .resizeUpDown: ["ns-resize", "sb_v_double_arrow", "v_double_arrow"]
        }
    }

    /// The theme's size in points: `XCURSOR_SIZE`, else 24, held to 8 … 256.
    static func themeSize(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        guard let v = environment["XCURSOR_SIZE"].flatMap({ Int($0) }) else { return 24 }
        return min(256, max(8, v))
    }

    /// Forgets the shape shown: the compositor has a new pointer focus.
    func reset() { shown = nil }

    /// Shows `cursor` for `pointer` (since the enter with `serial`) at
    /// `scale`; false when neither the theme nor the library has an
    /// image for it.
    @discardableResult
    func show(_ cursor: Cursor, pointer: WaylandObject, serial: UInt32, scale: Double) -> Bool {
        let s = scale.isFinite ? max(1, min(8, Int(scale.rounded(.up)))) : 1
        if theme == nil || themeScale != s { loadTheme(scale: s) }
        guard let theme, let compositor = connection.compositor else { return false }
        var found: UnsafeMutablePointer<wl_cursor>?
        for name in Self.names(cursor) + Self.names(.arrow) where found == nil {
            found = wl_cursor_theme_get_cursor(theme, name)
        }
        guard let found, found.pointee.image_count > 0, let image = found.pointee.images[0],
            let buffer = wl_cursor_image_get_buffer(image)
        else { return false }
        if surface == nil, let made = wl_compositor_create_surface(compositor.proxy) { surface = WaylandObject(made) }
        guard let surface else { return false }
        wl_surface_set_buffer_scale(surface.proxy, Int32(s))
        wl_surface_attach(surface.proxy, buffer, 0, 0)
        wl_surface_damage_buffer(surface.proxy, 0, 0, Int32(image.pointee.width), Int32(image.pointee.height))
        wl_surface_commit(surface.proxy)
        // set_cursor(serial, surface, hotspot x, y), the hotspot in points.
        pointer.send(
            0,
            [
                .uint(serial), .object(surface.proxy), .int(Int32(image.pointee.hotspot_x) / Int32(s)),
                .int(Int32(image.pointee.hotspot_y) / Int32(s)),
            ])
        connection.flush()
        shown = cursor
        return true
    }

    private func loadTheme(scale: Int) {
        if let theme { wl_cursor_theme_destroy(theme) }
        theme = nil
        guard let shm = connection.shm else { return }
        let name = ProcessInfo.processInfo.environment["XCURSOR_THEME"]
        theme = wl_cursor_theme_load(name, Int32(Self.themeSize() * scale), shm.proxy)
        themeScale = scale
    }

    /// Lets the surface and the theme (and its buffers) go.
    func destroy() {
        surface?.destroy()
        surface = nil
        if let theme { wl_cursor_theme_destroy(theme) }
        theme = nil
    }
}
