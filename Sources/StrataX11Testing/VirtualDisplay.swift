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
/// `strata bench window` show their windows on when there is no display.
public final class VirtualDisplay: @unchecked Sendable {
    // Its state is set in `init` and read after; `stop()` is the only
    // change, guarded by the lock.
    /// The display's name (":93").
    public let name: String
    private let process: Process
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
    public init(width: Int = 1920, height: Int = 1080, timeout: Double = 10) throws {
        guard let path = VirtualDisplay.xvfbPath else { throw VirtualDisplayError.xvfbMissing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        // -displayfd 1: Xvfb picks a free number and writes it to standard output.
        process.arguments = [
            "-displayfd", "1", "-screen", "0", "\(max(64, width))x\(max(64, height))x24", "-nolisten", "tcp", "-terminate",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw VirtualDisplayError.failed("\(error)") }
        self.process = process
        // Read the number (a line) with a deadline.
        let reader = out.fileHandleForReading
        let fd = reader.fileDescriptor
        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        while !text.contains("\n"), Date() < deadline, process.isRunning {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let data = reader.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if process.isRunning { process.terminate() }
            throw VirtualDisplayError.failed(process.isRunning ? "no display number in \(timeout) s" : "it exited")
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
        process.terminate()
        throw VirtualDisplayError.failed("display \(name) does not answer")
    }

    /// Stops the server (and waits for it to exit).
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if let keeper { XCloseDisplay(keeper) }
        keeper = nil
        guard process.isRunning else { return }
        // Polled rather than `waitUntilExit()`, which runs the calling
        // thread's run loop and can wait forever off the main thread.
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }
}
