/// When a window's next frame is due: the platform-neutral part of a
/// window's loop, a value of times alone (host seconds, as a `MediaClock`
/// gives them), so that every windowing backend paces frames the same way
/// and the policy is tested without a display.
///
/// - Frames come at most `framesPerSecond` a second, a frame interval after
///   the last one.
/// - After input, the next frame comes half an interval after the last (at
///   once when that is past), so that what a pointer does shows within a
///   frame's time of its arrival.
/// - While frames keep being needed, each next deadline keeps the cadence of
///   the deadlines (`fired + interval`), not of when each frame happened to
///   finish, but never comes sooner than half an interval after the last
///   frame, nor in the past.
/// - An idle window (nothing needs a frame) arms nothing: it draws nothing.
/// - A time that is not finite is no time: it arms nothing and presents
///   nothing.
///
/// ```swift
/// var frames = FrameScheduler(framesPerSecond: 60)
/// if let t = frames.schedule(now: clock.now) { timer.arm(at: t) }   // something changed
/// let due = frames.fire(now: clock.now)                              // the timer fired
/// render(); frames.framePresented(at: clock.now)
/// if needsFrame, let t = frames.next(now: clock.now, afterDeadline: due) { timer.arm(at: t) }
/// ```
public struct FrameScheduler: Sendable, Equatable {
    /// Frames a second, held within 1…1000 (60 for values that are not numbers).
    public let framesPerSecond: Double
    /// When the last frame was presented (−∞ before the first).
    public private(set) var lastFrameTime = -Double.infinity
    /// The time the frame timer is armed for, or nil when it is not.
    public private(set) var deadline: Double?

    public init(framesPerSecond: Double = 60) {
        self.framesPerSecond = framesPerSecond.isFinite && framesPerSecond >= 1 ? Swift.min(1000, framesPerSecond) : 60
    }

    /// The time between frames.
    public var interval: Double { 1 / framesPerSecond }

    /// A frame is needed (something changed, or input arrived when
    /// `afterInput`): the time to arm the timer for, or nil when it is
    /// already armed as early or earlier.
    public mutating func schedule(now: Double, afterInput: Bool = false) -> Double? {
        guard now.isFinite else { return nil }
        let earliest = lastFrameTime + (afterInput ? interval / 2 : interval)
        return arm(Swift.max(now, earliest))
    }

    /// The timer fired: returns the time it was armed for (`now` when it was
    /// not armed), the anchor of the next deadline, and disarms it.
    public mutating func fire(now: Double) -> Double {
        defer { deadline = nil }
        return deadline ?? now
    }

    /// A frame was presented at `now`.
    public mutating func framePresented(at now: Double) {
        guard now.isFinite else { return }
        lastFrameTime = now
    }

    /// After a frame, when another is still needed: the time to arm the
    /// timer for, keeping the cadence of the deadline that fired, never
    /// sooner than half an interval after the last frame nor before `now`;
    /// nil when it is already armed as early or earlier.
    public mutating func next(now: Double, afterDeadline fired: Double) -> Double? {
        guard now.isFinite else { return nil }
        return arm(Swift.max(now, fired + interval, lastFrameTime + interval / 2))
    }

    /// Disarms the timer (the window closed).
    public mutating func cancel() {
        deadline = nil
    }

    private mutating func arm(_ t: Double) -> Double? {
        guard t < (deadline ?? .infinity) else { return nil }
        deadline = t
        return t
    }
}
