import Foundation

/// What a program run by `runProgram` ended with.
public struct ProgramFailure: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// Runs `path` with `arguments` and `environment` to its end (waiting at
/// most `timeout` seconds, then killing it), calling `wait` while it runs,
/// and returns its standard output and exit status.
///
/// It spawns with `posix_spawn` and a clear signal mask, and takes the
/// output through a file: `Process` waits for its child on the main
/// queue, which a main-actor test holds (it deadlocks), and a daemon that
/// forks keeps a pipe open after the command returns.
public func runProgram(
    _ path: String, _ arguments: [String], environment: [String: String], timeout: Double = 20, while wait: () -> Void = {}
) throws -> (output: String, status: Int32) {
    let file = NSTemporaryDirectory() + "strata-run-\(getpid())-\(UUID().uuidString.prefix(8))"
    defer { unlink(file) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for a in argv + envp { free(a) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, path, &actions, &attributes, &argv, &envp)
    guard spawned == 0 else { throw ProgramFailure(description: "\(path): posix_spawn error \(spawned)") }
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(timeout)
    while waitpid(child, &status, WNOHANG) == 0 {
        guard Date() < deadline else {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            throw ProgramFailure(description: "\(path) \(arguments) did not finish in \(timeout) s")
        }
        wait()
        usleep(2000)
    }
    let output = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
    // The exit status (WIFEXITED and WEXITSTATUS are macros Swift cannot call).
    return (output, status & 0x7F == 0 ? (status >> 8) & 0xFF : -1)
}

/// A D-Bus session bus of a test's own (`dbus-daemon --session`), with
/// fresh configuration, cache, data and runtime folders: what the input
/// method and accessibility tests start their daemons on, as a desktop
/// session would. `environment` is the one to run programs with.
public final class PrivateSessionBus {
    public let folder: String
    public private(set) var environment: [String: String]
    public let address: String
    private var pid: pid_t = 0

    /// Whether `dbus-daemon` is installed (`scripts/install-deps.sh` installs it).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") }

    /// Starts the bus; `extra` is added to the environment.
    public init(_ name: String, extra: [String: String] = [:]) throws {
        folder = NSTemporaryDirectory() + "strata-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
        for sub in ["config", "cache", "data", "runtime"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
        }
        chmod("\(folder)/runtime", 0o700)
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = "\(folder)/config"
        env["XDG_CACHE_HOME"] = "\(folder)/cache"
        env["XDG_DATA_HOME"] = "\(folder)/data"
        env["XDG_RUNTIME_DIR"] = "\(folder)/runtime"
        env["GSETTINGS_BACKEND"] = "memory"
        env["LANG"] = "C.UTF-8"
        // GTK programs the daemons start (ibus-x11) make no accessibility bus of their own.
        env["NO_AT_BRIDGE"] = "1"
        env.removeValue(forKey: "AT_SPI_BUS_ADDRESS")
        for (k, v) in extra { env[k] = v }
        let (output, _) = try runProgram(
            "/usr/bin/dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"], environment: env)
        let lines = output.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let pid = pid_t(lines[1]) else {
            try? FileManager.default.removeItem(atPath: folder)
            throw ProgramFailure(description: "dbus-daemon said: \(output)")
        }
        self.pid = pid
        address = lines[0]
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        environment = env
    }

    /// Sets `key` in the environment programs are run with.
    public func set(_ key: String, _ value: String) { environment[key] = value }

    /// Stops the bus (and so the services it started) and removes the folder.
    public func stop() {
        if pid > 0 { kill(pid, SIGTERM) }
        pid = 0
        try? FileManager.default.removeItem(atPath: folder)
    }
}
