import Foundation

/// A headless sway (wlroots) for tests and benchmarks, started by them:
/// one headless output, pixman rendering, no input devices of its own, a
/// private runtime directory and its socket by absolute path
/// (`socketPath`). Unlike weston it draws server-side decorations
/// (`xdg-decoration`) and takes virtual pointers and keyboards
/// (`VirtualInput`), so real input goes through a real compositor; its IPC
/// socket (`command(_:)`, `contentRect(appID:)`) says where it put a window.
///
/// sway refuses to run as root: as root, it is started as `nobody`
/// (uid 65534, through `setpriv`), owning its runtime directory; root's
/// clients connect to its socket all the same.
public final class HeadlessSway: @unchecked Sendable {
    // Safe to share: `process` is only started in init and terminated in
    // `stop()` (and deinit), which the owner calls from one task; the other
    // stored values are constants.
    public let runtimeDirectory: URL
    /// The Wayland socket's absolute path: the display to give a window.
    public let socketPath: String
    /// sway's IPC socket.
    public let ipcSocketPath: String
    /// The output's size in pixels.
    public let width: Int, height: Int
    let process: Process

    /// Starts sway with one headless output of `width` × `height` pixels
    /// at `scale` (a number, fractional allowed) and waits (up to 10 s)
    /// for its sockets.
    public init(width: Int = 800, height: Int = 600, scale: Double = 1) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") else {
            throw WestonError("sway is not installed (scripts/install-deps.sh installs it)")
        }
        guard width > 0, height > 0, width <= 8192, height <= 8192, scale.isFinite, scale > 0 else {
            throw WestonError("a headless output of \(width) × \(height) at scale \(scale) cannot be made")
        }
        self.width = width
        self.height = height
        let fm = FileManager.default
        runtimeDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strata-sway-\(UUID().uuidString.prefix(8))")
        try fm.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let config = runtimeDirectory.appendingPathComponent("config")
        try """
        output HEADLESS-1 resolution \(width)x\(height) scale \(scale)
        xwayland disable
        default_border normal 2
        focus_follows_mouse no
        """.write(to: config, atomically: false, encoding: .utf8)
        let asRoot = getuid() == 0
        if asRoot {
            // sway's runtime directory must be its own.
            for path in [runtimeDirectory.path, config.path] { chown(path, 65534, 65534) }
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: asRoot ? "/usr/bin/setpriv" : "/usr/bin/sway")
        process.arguments =
            (asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/sway"] : []) + ["-c", config.path]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WLR_BACKENDS"] = "headless"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env["WLR_RENDERER"] = "pixman"
        env["WLR_HEADLESS_OUTPUTS"] = "1"
        for name in ["WAYLAND_DISPLAY", "DISPLAY", "SWAYSOCK", "I3SOCK"] { env[name] = nil }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var found: (wayland: String, ipc: String)?
        while found == nil {
            let names = (try? fm.contentsOfDirectory(atPath: runtimeDirectory.path)) ?? []
            if let w = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
                let i = names.first(where: { $0.hasPrefix("sway-ipc.") })
            {
                found = (w, i)
                break
            }
            guard process.isRunning, Date() < deadline else {
                if process.isRunning { process.terminate() }
                try? fm.removeItem(at: runtimeDirectory)
                throw WestonError("sway did not start")
            }
            usleep(20_000)
        }
        socketPath = runtimeDirectory.appendingPathComponent(found!.wayland).path
        ipcSocketPath = runtimeDirectory.appendingPathComponent(found!.ipc).path
        // The IPC socket is made before the output is ready: wait for an answer.
        while (try? message(type: 3, "")) == nil {
            guard Date() < deadline else {
                stop()
                throw WestonError("sway's IPC did not answer")
            }
            usleep(20_000)
        }
    }

    /// Runs sway commands (`swaymsg`'s); throws if sway says one failed.
    @discardableResult
    public func command(_ text: String) throws -> String {
        let reply = try message(type: 0, text)
        if reply.contains("\"success\": false") || reply.contains("\"success\":false") {
            throw WestonError("sway refused '\(text)': \(reply)")
        }
        return reply
    }

    /// Where sway shows the content of the window whose app id is `appID`
    /// (its surface, inside the decorations), in output pixels; nil while
    /// it has no such window.
    public func contentRect(appID: String) throws -> (x: Double, y: Double, width: Double, height: Double)? {
        let tree = try message(type: 4, "")
        guard let json = try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else { return nil }
        func find(_ node: [String: Any]) -> [String: Any]? {
            if node["app_id"] as? String == appID { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { if let f = find(child) { return f } }
            }
            return nil
        }
        guard let node = find(json), let rect = node["rect"] as? [String: Any], let inner = node["window_rect"] as? [String: Any]
        else { return nil }
        func v(_ d: [String: Any], _ k: String) -> Double { (d[k] as? NSNumber)?.doubleValue ?? 0 }
        return (v(rect, "x") + v(inner, "x"), v(rect, "y") + v(inner, "y"), v(inner, "width"), v(inner, "height"))
    }

    /// One i3/sway IPC exchange: "i3-ipc", the payload's length and the
    /// message type (native-endian 32-bit), the payload; the reply's payload.
    func message(type: UInt32, _ payload: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WestonError("no socket for sway's IPC") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(ipcSocketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { throw WestonError("sway's IPC path is too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = b }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw WestonError("sway's IPC did not take a connection") }
        var out = Array("i3-ipc".utf8)
        let body = Array(payload.utf8)
        withUnsafeBytes(of: UInt32(body.count)) { out += $0 }
        withUnsafeBytes(of: type) { out += $0 }
        out += body
        guard out.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == out.count else {
            throw WestonError("sway's IPC took no message")
        }
        func read(_ n: Int) throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: n)
            var got = 0
            while got < n {
                let r = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, n - got, 0) }
                guard r > 0 else { throw WestonError("sway's IPC closed before its reply") }
                got += r
            }
            return bytes
        }
        let header = try read(14)
        let length = header[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard length < 64 << 20 else { throw WestonError("sway's IPC reply is too long") }
        return String(decoding: try read(Int(length)), as: UTF8.self)
    }

    deinit { stop() }

    /// Stops sway (once) and removes its runtime directory. (With
    /// SIGKILL: sway handles SIGTERM with a signal handler, and a process
    /// started from a Swift program's worker thread may begin with SIGTERM
    /// blocked, as it was there.)
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}
