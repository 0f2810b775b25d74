internal import CX11
import Foundation

/// Why a virtual display could not be started.
public enum VirtualDisplayError: Error, CustomStringConvertible {
    /// Xvfb is not installed (Debian's package `xvfb`).
    case xvfbMissing
    /// Xvfb started but gave no display, or exited.
    case failed(String)

    public var description: String {
        switch self {
        case .xvfbMissing: "Xvfb is not installed (apt-get install xvfb; scripts/install-deps.sh does)"
        case .failed(let why): "Xvfb did not start: \(why)"
        }
    }
}

/// An Xvfb server of its own, on a display number it picks free
/// (`-displayfd`), stopped when this goes away: what the window tests and
/// `strata-bench window` show their windows on when there is no display.
///
/// The server is spawned with `posix_spawn` and a clear signal mask:
/// `Process` spawns from the calling thread, and a dispatch worker thread
/// blocks every signal, which the child inherits, so such an Xvfb ignored
/// the `SIGTERM` that stops it. It runs with `-terminate` while holding a
/// connection of ours, so it also exits with this process.
public final class VirtualDisplay: @unchecked Sendable {
    // `name` and `pid` are set in `init` and only read after; `stop()`, the
    // one change, runs under the lock.
    /// The display's name (":93").
    public let name: String
    private let pid: pid_t
    private let lock = NSLock()
    private var stopped = false
    /// A connection of our own, held open while the server runs.
    private var keeper: OpaquePointer?

    /// Where Xvfb is, or nil.
    public static var xvfbPath: String? {
        ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts Xvfb with one `width` × `height` screen of 24-bit colour, and
    /// waits (up to `timeout` seconds) until it answers.
    /// `arguments` go to Xvfb after the others (`["-extension", "MIT-SHM"]`
    /// makes a server without shared memory, as a remote one is).
    public init(width: Int = 1920, height: Int = 1080, timeout: Double = 10, arguments extra: [String] = []) throws {
        guard let path = VirtualDisplay.xvfbPath else { throw VirtualDisplayError.xvfbMissing }
        var fds: [Int32] = [0, 0]
        // Both ends close on exec; the child's fd 3 is a copy made by dup2,
        // which does not inherit the flag. (With a plain pipe whose read end
        // was fd 3, closing that end in the child closed the copy too.)
        guard pipe(&fds) == 0 else { throw VirtualDisplayError.failed("pipe: errno \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }
        // -displayfd 3: Xvfb picks a free number and writes it to fd 3.
        let arguments =
            [
                path, "-displayfd", "3", "-screen", "0", "\(max(64, width))x\(max(64, height))x24", "-nolisten", "tcp", "-terminate",
            ] + extra
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 3)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &attributes, &argv, environ)
        close(writeEnd)
        guard status == 0 else { throw VirtualDisplayError.failed("posix_spawn: error \(status)") }
        pid = child
        // Read the number (a line) with a deadline.
        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 64)
        while !text.contains("\n"), Date() < deadline {
            var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = read(readEnd, &buffer, buffer.count)
            if n <= 0 { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            VirtualDisplay.end(child)
            throw VirtualDisplayError.failed("no display number in \(timeout) s")
        }
        name = ":\(number)"
        // It answers once the number is written; check anyway. The
        // connection stays open: with `-terminate` the server exits when its
        // last client goes, so it cannot outlive this process.
        while Date() < deadline {
            if let d = XOpenDisplay(name) {
                keeper = d
                return
            }
            usleep(20_000)
        }
        VirtualDisplay.end(child)
        throw VirtualDisplayError.failed("display \(name) does not answer")
    }

    /// Stops the server and waits for it to exit.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if let keeper { XCloseDisplay(keeper) }
        keeper = nil
        VirtualDisplay.end(pid)
    }

    deinit { stop() }

    /// Terminates `pid` and reaps it (killing it after 5 s).
    static func end(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(5)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() >= deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return
            }
            usleep(2_000)
        }
    }
}
