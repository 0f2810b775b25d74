internal import CX11
import Foundation
import StrataQueues
import Synchronization

/// Why a window could not be made or shown.
public enum WindowError: Error, CustomStringConvertible, Equatable {
    /// No X display could be opened (`DISPLAY` unset, or nothing listening).
    case noDisplay(String)
    /// The screen's visual is not one the presenter converts to (24- or
    /// 32-bit true colour with 8-bit red, green and blue).
    case unsupportedVisual(String)
    /// A size that is not a number, or zero or less, or too large for a window.
    case invalidSize(width: Double, height: Double)
    /// The X server refused something (the request and its error code).
    case serverError(String)

    public var description: String {
        switch self {
        case .noDisplay(let name):
            "no X display: cannot open \(name.isEmpty ? "the display (DISPLAY is not set)" : "display \"\(name)\"")"
        case .unsupportedVisual(let what): "unsupported X visual: \(what)"
        case .invalidSize(let w, let h): "invalid window size \(w) × \(h) points"
        case .serverError(let what): "X server error: \(what)"
        }
    }
}

/// X errors, recorded instead of ending the process (Xlib's default
/// handler exits). Xlib calls the handler on the thread that made the
/// failing request; the code is kept in an atomic so any thread may read it.
enum XErrors {
    static let last = Atomic<Int32>(0)
    static let installed = Atomic<Bool>(false)

    static func install() {
        guard !installed.exchange(true, ordering: .relaxed) else { return }
        _ = XSetErrorHandler { _, event in
            XErrors.last.store(Int32(event?.pointee.error_code ?? 1), ordering: .relaxed)
            return 0
        }
        // A lost connection (the server went away) is reported, not printed
        // before the process ends: `watch(_:)` keeps the process alive.
        _ = XSetIOErrorHandler { _ in 0 }
    }

    /// Connections the server dropped, by their `Display` pointer (`Locked`,
    /// as in the rest of the package, so the thread sanitizer sees the lock).
    private static let lost = Locked<Set<Int>>([])

    /// Keeps a lost connection to `display` from ending the process (Xlib's
    /// default exits): Xlib marks the connection dead and later calls on it
    /// return at once; `isLost` tells the window to close.
    static func watch(_ display: OpaquePointer) {
        XSetIOErrorExitHandler(
            display,
            { display, _ in
                guard let display else { return }
                _ = XErrors.lost.withLock { $0.insert(Int(bitPattern: UnsafeRawPointer(display))) }
            }, nil)
    }

    static func isLost(_ display: OpaquePointer) -> Bool {
        lost.withLock { $0.contains(Int(bitPattern: UnsafeRawPointer(display))) }
    }

    static func forget(_ display: OpaquePointer) {
        _ = lost.withLock { $0.remove(Int(bitPattern: UnsafeRawPointer(display))) }
    }

    /// Runs `body`, waits for the server to answer everything, and returns
    /// the error code it reported (0 for none).
    static func checking(_ display: OpaquePointer, _ body: () -> Void) -> Int32 {
        XSync(display, 0)
        last.store(0, ordering: .relaxed)
        body()
        XSync(display, 0)
        return last.exchange(0, ordering: .relaxed)
    }
}

/// Whether an X display can be opened: `DISPLAY` (or `name`) names a server
/// that answers.
public func displayIsAvailable(_ name: String? = nil) -> Bool {
    let name = name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
    guard !name.isEmpty, let d = XOpenDisplay(name) else { return false }
    XCloseDisplay(d)
    return true
}

/// The scale factor the desktop asks for: `Xft.dpi` from the server's
/// resource database over 96, rounded to a quarter; 1 without one.
func desktopScale(_ display: OpaquePointer) -> Double {
    guard let resources = XResourceManagerString(display) else { return 1 }
    return scale(fromResources: String(cString: resources))
}

/// `Xft.dpi` in a resource string (lines of `name:\tvalue`) over 96,
/// rounded to a quarter and kept within 1…4; 1 when it is missing or bad.
func scale(fromResources text: String) -> Double {
    for line in text.split(whereSeparator: \.isNewline) {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Xft.dpi",
            let dpi = Double(parts[1].trimmingCharacters(in: .whitespaces)), dpi.isFinite, dpi > 0
        else { continue }
        return min(4, max(1, (dpi / 96 * 4).rounded() / 4))
    }
    return 1
}
