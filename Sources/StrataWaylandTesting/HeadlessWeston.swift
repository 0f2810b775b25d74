import Foundation
import StrataGraphics

/// A headless weston for tests and benchmarks, started by them: pixman
/// rendering, a private runtime directory, and a socket given to windows by
/// its absolute path (`socketPath`); `--debug`, so that `screenshot()` may
/// ask for the output's pixels. Its shell is the desktop shell: under
/// kiosk-shell the headless output never repaints, so frame callbacks
/// never come.
public final class HeadlessWeston: @unchecked Sendable {
    // Safe to share: `process` is only started in init and terminated in
    // `stop()` (and deinit), which the owner calls from one task; the other
    // stored values are constants.
    public let runtimeDirectory: URL
    /// The socket's absolute path: the display to give a window.
    public let socketPath: String
    let process: Process

    /// Starts weston with one headless output of `width` × `height` pixels
    /// at `scale`, and waits (up to 10 s) for its socket.
    public init(width: Int = 400, height: Int = 300, scale: Int = 1) throws {
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
            "--width=\(width)", "--height=\(height)", "--scale=\(scale)", "--no-config", "--debug",
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

    /// The output as the compositor shows it now (weston-screenshooter,
    /// which weston allows with `--debug`).
    public func screenshot() throws -> Image {
        let dir = runtimeDirectory.appendingPathComponent("shots-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shooter = Process()
        shooter.executableURL = URL(fileURLWithPath: "/usr/bin/weston-screenshooter")
        shooter.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WAYLAND_DISPLAY"] = "wayland-test"
        shooter.environment = env
        shooter.standardOutput = FileHandle.nullDevice
        shooter.standardError = FileHandle.nullDevice
        try shooter.run()
        shooter.waitUntilExit()
        guard let file = try FileManager.default.contentsOfDirectory(atPath: dir.path).first(where: { $0.hasSuffix(".png") }) else {
            throw WestonError("weston-screenshooter wrote no picture")
        }
        return try Image(contentsOfPNGFile: dir.appendingPathComponent(file).path)
    }

    deinit { stop() }

    /// Stops weston (once) and removes its runtime directory.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}

/// Why weston could not be started or asked.
public struct WestonError: Error, CustomStringConvertible {
    public let description: String
    init(_ d: String) { description = d }
}
