/// When an animation plays, relative to its parent's time (`CAMediaTiming`).
public struct MediaTiming: Hashable, Sendable {
    /// The start, in the parent's time. 0 when an animation is added means "at
    /// the commit of the transaction that adds it".
    public var beginTime: Double = 0
    /// One iteration's length, in seconds. 0 means the transaction's animation
    /// duration (0.25 s by default), as in Core Animation.
    public var duration: Double = 0
    /// How fast local time runs against the parent's (0 freezes it at
    /// `timeOffset`; negative runs backwards).
    public var speed: Double = 1
    /// Added to local time.
    public var timeOffset: Double = 0
    /// Iterations (fractions and `.infinity` allowed); 0 means one.
    public var repeatCount: Double = 0
    /// Total time to repeat for, taking precedence over `repeatCount` when positive.
    public var repeatDuration: Double = 0
    /// Whether each iteration plays forwards and then backwards.
    public var autoreverses = false
    /// What the animation shows outside its active time.
    public var fillMode: FillMode = .removed

    public enum FillMode: Hashable, Sendable {
        /// No effect before the start or after the end.
        case removed
        /// The end value stays after the end.
        case forwards
        /// The start value shows before the start.
        case backwards
        /// Both.
        case both
    }

    public init() {}

    /// One iteration, forwards and (with `autoreverses`) back.
    func iterationDuration(_ d: Double) -> Double { autoreverses ? 2 * d : d }

    /// The active duration: all the iterations.
    func activeDuration(_ d: Double) -> Double {
        if repeatDuration > 0 { return repeatDuration }
        let count = repeatCount > 0 ? repeatCount : 1
        return count * iterationDuration(d)
    }

    /// The local time for a parent time, after begin, speed and offset.
    func localTime(_ parentTime: Double) -> Double {
        (parentTime - beginTime) * speed + timeOffset
    }

    /// Where an animation of simple duration `d` is at parent time `t`: its
    /// iteration and the fraction through it (0…1, reversed on the way back),
    /// or nil when it has no effect then (outside its active time and not filled).
    func progress(at parentTime: Double, duration d: Double) -> (iteration: Double, fraction: Double)? {
        let d = d > 0 && d.isFinite ? d : 0
        var local = localTime(parentTime)
        guard !local.isNaN else { return nil }
        let active = activeDuration(d)
        if local < 0 {
            guard fillMode == .backwards || fillMode == .both else { return nil }
            local = 0
        }
        var atEnd = false
        if local >= active {
            guard fillMode == .forwards || fillMode == .both else { return nil }
            local = active
            atEnd = true
        }
        guard d > 0 else { return (0, 1) }
        let period = iterationDuration(d)
        var iteration = (local / period).rounded(.down)
        var within = local - iteration * period
        if atEnd && within == 0 && iteration > 0 {
            // The end of the last whole iteration, not the start of the next.
            iteration -= 1
            within = period
        }
        var fraction = within / d
        if autoreverses && fraction > 1 { fraction = 2 - fraction }
        return (iteration, min(1, max(0, fraction)))
    }

    /// The parent time at which the active time ends (infinity for endless ones).
    func endTime(duration d: Double) -> Double {
        guard speed != 0 else { return .infinity }
        let active = activeDuration(d)
        guard active.isFinite else { return .infinity }
        return beginTime + (active - timeOffset) / abs(speed)
    }
}
