public import Foundation
internal import StrataLayers

/// Seconds on the system's monotonic clock (`CACurrentMediaTime()`), the
/// clock display links and layers not shown in a window count on.
public func CACurrentMediaTime() -> CFTimeInterval { SystemClock.shared.now }

/// Calls a closure at every frame (`CADisplayLink`): at
/// `preferredFramesPerSecond` (60 by default) on the run loop it is added
/// to. Where iOS code writes `CADisplayLink(target:selector:)`, a port
/// passes the closure (Swift on Linux has no selectors).
@MainActor
public final class CADisplayLink {
    private let handler: @MainActor (CADisplayLink) -> Void
    private var timer: (any DispatchSourceTimer)?
    /// When the last frame was shown, in `CACurrentMediaTime()` seconds.
    public private(set) var timestamp: CFTimeInterval = 0
    /// When the next frame is due.
    public private(set) var targetTimestamp: CFTimeInterval = 0
    /// The time between frames.
    public var duration: CFTimeInterval { 1 / Double(framesPerSecond) }
    /// Paused links skip their calls.
    public var isPaused = false
    /// Frames a second wanted (0: the display's rate, 60); held to 1...120.
    public var preferredFramesPerSecond = 0 {
        didSet { if timer != nil { schedule() } }
    }

    var framesPerSecond: Int { preferredFramesPerSecond <= 0 ? 60 : Swift.min(120, preferredFramesPerSecond) }

    /// A link that calls `handler` with itself at every frame once added to a run loop.
    public init(_ handler: @escaping @MainActor (CADisplayLink) -> Void) {
        self.handler = handler
    }

    /// Starts calling the closure on the main queue, where the main actor
    /// runs (so `runloop` is taken to be the main one, as it is in UIKit
    /// code); `mode` is accepted, every mode being common here.
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        schedule()
    }

    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) { invalidate() }

    /// Stops the calls for good.
    public func invalidate() {
        timer?.cancel()
        timer = nil
    }

    private func schedule() {
        timer?.cancel()
        let interval = duration
        targetTimestamp = CACurrentMediaTime() + interval
        let t = DispatchSource.makeTimerSource(queue: .main)
        t.schedule(deadline: .now() + interval, repeating: interval, leeway: .microseconds(500))
        t.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.fire() }
        }
        t.resume()
        timer = t
    }

    private func fire() {
        let now = CACurrentMediaTime()
        timestamp = now
        targetTimestamp = now + duration
        guard !isPaused else { return }
        handler(self)
    }
}
