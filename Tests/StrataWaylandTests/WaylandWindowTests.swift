import Foundation
import StrataGraphics
import StrataLayers
import StrataWayland
import Testing

/// A headless weston of the tests' own: a private runtime directory and a
/// socket given to the window by its absolute path. (Its desktop shell:
/// under kiosk-shell the headless output never repaints, so frame
/// callbacks never come.)
final class HeadlessWeston: @unchecked Sendable {
    // Safe to share: `process` is only started in init and terminated in
    // `stop()`, which the owning test calls once, on its own task.
    let runtimeDirectory: URL
    let socketPath: String
    let process: Process

    init(width: Int = 320, height: Int = 240, scale: Int = 1) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/weston") else {
            throw WestonError("weston is not installed (scripts/install-deps.sh installs it)")
        }
        runtimeDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strata-wl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        socketPath = runtimeDirectory.appendingPathComponent("wayland-test").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
        process.arguments = [
            "--backend=headless-backend.so", "--use-pixman", "--shell=desktop-shell.so", "--socket=wayland-test", "--idle-time=0",
            "--width=\(width)", "--height=\(height)", "--scale=\(scale)", "--no-config",
        ]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WAYLAND_DISPLAY"] = nil
        env["DISPLAY"] = nil
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw WestonError("weston did not start")
            }
            usleep(20_000)
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}

struct WestonError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

@MainActor
@Suite(.serialized) struct WaylandWindowTests {
    @Test func noCompositorAndBadSizesThrowClearErrors() {
        #expect(throws: WaylandError.noCompositor("/nonexistent/wayland-socket")) {
            try WaylandWindow(size: Size(width: 100, height: 100), display: "/nonexistent/wayland-socket")
        }
        for bad in [Size(width: .nan, height: 10), Size(width: 0, height: 10), Size(width: 10, height: -1), Size(width: 1e9, height: 10)] {
            // Checked before connecting: the error is the size's, not the display's.
            let error = #expect(throws: WaylandError.self) { try WaylandWindow(size: bad, display: "/nonexistent/wayland-socket") }
            guard case .invalidSize(let w, let h)? = error else {
                Issue.record("expected invalidSize, got \(String(describing: error))")
                continue
            }
            #expect((w.isNaN && bad.width.isNaN) || (w == bad.width && h == bad.height))
        }
        #expect(WaylandError.noCompositor("").description.contains("WAYLAND_DISPLAY"))
    }

    @Test func aWindowIsConfiguredAndPresentsFramesPacedByTheCompositor() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let window = try WaylandWindow(title: "test", size: Size(width: 200, height: 150), display: weston.socketPath)
        // The desktop shell leaves the size to the window.
        #expect(window.size == Size(width: 200, height: 150))
        #expect(window.host.width == 200 && window.host.height == 150)
        let red = Layer()
        red.frame = Rect(x: 10, y: 10, width: 50, height: 40)
        red.backgroundColor = Color(red: 1, green: 0, blue: 0)
        window.host.rootLayer.addSublayer(red)
        Transaction.flush()
        #expect(window.renderFrameIfNeeded())
        // Until the compositor's callback comes, no frame is drawn.
        #expect(!window.isReadyForFrame)
        red.opacity = 0.5
        Transaction.flush()
        #expect(!window.renderFrameIfNeeded())
        // The callback comes once the compositor has shown the frame.
        let deadline = Date().addingTimeInterval(5)
        while !window.isReadyForFrame && Date() < deadline {
            window.roundtrip()
            usleep(2000)
        }
        #expect(window.isReadyForFrame)
        #expect(window.renderFrameIfNeeded())
        #expect(window.presentedFrames == 2)
        window.close()
        #expect(!window.isOpen)
    }

    @Test func aCompositorThatDiesClosesTheWindowAndTheProcessLives() throws {
        let weston = try HeadlessWeston()
        let window = try WaylandWindow(size: Size(width: 100, height: 100), display: weston.socketPath)
        var closed = false
        window.onClose = { closed = true }
        weston.stop()
        let deadline = Date().addingTimeInterval(5)
        while window.isOpen && Date() < deadline {
            window.roundtrip()
            window.processEvents()
            usleep(2000)
        }
        #expect(!window.isOpen && closed)
        #expect(window.connectionFailure != nil)
        #expect(!window.renderFrameIfNeeded())
    }
}
