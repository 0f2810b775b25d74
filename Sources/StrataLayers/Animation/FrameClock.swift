import Dispatch
import StrataQueues

/// A source of media time, in seconds (`CACurrentMediaTime`).
public protocol MediaClock: AnyObject, Sendable {
    /// The current media time.
    var now: Double { get }
}

/// The system's monotonic clock.
public final class SystemClock: MediaClock {
    public static let shared = SystemClock()
    public init() {}
    public var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// A clock that moves only when told to: for tests and headless rendering,
/// where every frame must be reproducible.
public final class ManualClock: MediaClock {
    // The time is read from the renderer's thread as well as the main actor,
    // so it is kept behind a lock.
    private let time: Locked<Double>

    public init(start: Double = 0) { time = Locked(start.isFinite ? start : 0) }

    public var now: Double { time.value }

    /// Moves the clock forward by `seconds` (negative and non-finite steps are ignored).
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        time.withLock { $0 += seconds }
    }

    /// Sets the time (ignored when not finite).
    public func set(_ t: Double) {
        guard t.isFinite else { return }
        time.withLock { $0 = t }
    }
}
