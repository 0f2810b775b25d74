import Foundation
import StrataX11
import Testing

/// The Xvfb a test module's window tests share, started when it is made
/// (keep it in a global `let`, which Swift makes on first use), or why it
/// could not start. Tests that need it say so and are skipped, with the
/// reason, where it cannot run; never passed:
///
/// ```swift
/// let testDisplay = WindowTestDisplay()
///
/// @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement))
/// func drawsInAWindow() async throws {
///     let window = try Window(size: Size(width: 100, height: 100), display: try #require(testDisplay.name))
///     …
/// }
/// ```
///
/// Each module has a server of its own, so that synthetic input in one
/// module's tests never moves the pointer under another's.
public final class WindowTestDisplay: Sendable {
    private let display: Result<VirtualDisplay, VirtualDisplayError>

    /// Starts an Xvfb of `width` × `height` pixels.
    public init(width: Int = 1280, height: Int = 1024) {
        do {
            display = .success(try VirtualDisplay(width: width, height: height))
        } catch let e as VirtualDisplayError {
            display = .failure(e)
        } catch {
            display = .failure(.failed("\(error)"))
        }
    }

    /// Why a window test is skipped where the display cannot run.
    public static let requirement: Comment = "needs a virtual X display: Xvfb, which scripts/install-deps.sh installs"

    /// The display's name, or nil (printing why) where Xvfb cannot run.
    public var name: String? {
        switch display {
        case .success(let d):
            return d.name
        case .failure(let e):
            print("window tests skipped: \(e)")
            return nil
        }
    }

    /// Whether the display runs.
    public var isAvailable: Bool { name != nil }
}

/// Runs the window's loop (events, frames and the main queue) until
/// `condition` holds or `timeout` seconds pass; returns whether it held.
/// The default limit is long (two minutes): it only matters when the
/// condition never holds, and a test module's suites run side by side, so
/// on a busy machine events and frames can take many seconds to come round
/// (20 s was once too short for a paste between two windows in CI).
@MainActor
public func pump(_ window: Window, timeout: Double = 120, until condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        window.processEvents()
        window.renderFrameIfNeeded()
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 3_000_000)
    }
    return condition()
}
