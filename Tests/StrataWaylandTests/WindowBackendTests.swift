import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataWayland
import StrataWaylandTesting
import StrataWindow
import StrataX11
import StrataX11Testing
import Testing

/// One `Window` over Wayland and X11: which it opens on, and that the
/// same calls work on both. (`StrataWindow.Window`: StrataX11 has a
/// `Window` of its own.)
@MainActor
@Suite(.serialized) struct WindowBackendTests {
    @Test func theEnvironmentChoosesTheBackend() throws {
        let dir = NSTemporaryDirectory() + "strata-xdg-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(WindowBackend.preferred(in: [:]) == nil)
        #expect(WindowBackend.preferred(in: ["DISPLAY": ":0"]) == .x11)
        #expect(WindowBackend.preferred(in: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-1"]) == .wayland)
        #expect(WindowBackend.preferred(in: ["DISPLAY": "", "WAYLAND_DISPLAY": ""]) == nil)
        #expect(WindowBackend.preferred(in: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "w", "STRATA_WINDOW_BACKEND": "X11"]) == .x11)
        #expect(WindowBackend.preferred(in: ["STRATA_WINDOW_BACKEND": "wayland"]) == .wayland)
        // An unknown forced backend is ignored.
        #expect(WindowBackend.preferred(in: ["STRATA_WINDOW_BACKEND": "mir", "DISPLAY": ":1"]) == .x11)
        // A compositor's socket in the runtime directory, without WAYLAND_DISPLAY.
        #expect(WindowBackend.preferred(in: ["XDG_RUNTIME_DIR": dir, "DISPLAY": ":0"]) == .x11)
        #expect(FileManager.default.createFile(atPath: dir + "/wayland-0", contents: nil))
        #expect(WindowBackend.preferred(in: ["XDG_RUNTIME_DIR": dir, "DISPLAY": ":0"]) == .wayland)
        #expect(WindowBackend.forDisplay(":99") == .x11 && WindowBackend.forDisplay("wayland-0") == .wayland)
        #expect(WindowBackend.forDisplay("/run/user/1000/wayland-0") == .wayland)
    }

    @Test func noWindowSystemIsAClearError() {
        #expect(throws: WaylandError.noCompositor("/nonexistent/socket")) {
            try StrataWindow.Window(size: Size(width: 10, height: 10), display: "/nonexistent/socket")
        }
        #expect(throws: WindowError.noDisplay(":987")) {
            try StrataWindow.Window(size: Size(width: 10, height: 10), display: ":987")
        }
    }

    /// The same program on both window systems.
    func exercise(_ window: StrataWindow.Window) throws {
        let view = View()
        window.rootView = view
        #expect(window.dispatcher != nil && view.frame.size == window.size)
        let square = Layer()
        square.frame = Rect(x: 4, y: 4, width: 10, height: 10)
        square.backgroundColor = Color(red: 0, green: 0, blue: 1)
        window.rootLayer.addSublayer(square)
        Transaction.flush()
        #expect(window.renderFrameIfNeeded())
        let pixels = try window.readPixels()
        #expect(pixels.width == Int(window.size.width * window.scale))
        #expect(pixels[8, 8] == Pixel(r: 0, g: 0, b: 255, a: 255))
        var closed = false
        window.onClose = { closed = true }
        window.close()
        #expect(!window.isOpen && closed)
    }

    @Test func onWayland() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let window = try StrataWindow.Window(title: "both", size: Size(width: 60, height: 40), display: weston.socketPath)
        #expect(window.backend == .wayland && window.screenOrigin == (0, 0))
        try exercise(window)
    }

    @Test func onX11() throws {
        let display = try VirtualDisplay(width: 320, height: 240)
        let window = try StrataWindow.Window(title: "both", size: Size(width: 60, height: 40), scale: 1, display: display.name)
        #expect(window.backend == .x11)
        try exercise(window)
    }
}
