import StrataGraphics
import StrataLayers

/// A scripted gesture: input events at set times, played against a view
/// tree frame by frame on a host's manual clock, so a drag, a fling or a
/// wheel turn runs headless exactly the same every time.
///
/// ```swift
/// let fling = GestureScript.drag(from: Point(x: 300, y: 40), to: Point(x: 100, y: 40), duration: 0.12)
/// try fling.play(on: dispatcher, host: host, settle: { !ruler.isDecelerating }) { frame in
///     try host.writePNG(to: "frames/\(frame).png")
/// }
/// ```
public struct GestureScript: Sendable {
    /// The events in order of time (seconds from the script's start).
    public private(set) var events: [(time: Double, event: ScriptedEvent)] = []

    /// An event without its time (the script sets it when it plays).
    public enum ScriptedEvent: Sendable {
        case pointer(PointerEvent.Phase, Point)
        case wheel(lines: Size, at: Point)
        case key(Key)
    }

    public init() {}

    /// When the last event happens.
    public var duration: Double { events.last?.time ?? 0 }

    /// Adds `event` at `time` (kept in order; times that are not finite or
    /// negative are 0).
    public mutating func add(_ event: ScriptedEvent, at time: Double) {
        let t = time.isFinite ? Swift.max(0, time) : 0
        let i = events.firstIndex { $0.time > t } ?? events.count
        events.insert((t, event), at: i)
    }

    /// A press at `from`, moves along a straight line to `to` at constant
    /// speed (`samplesPerSecond` moves a second), and a release there
    /// (unless `release` is false: the pointer stays down). Its speed is
    /// the distance over `duration`, which a pan's velocity tracker measures
    /// exactly.
    public static func drag(
        from: Point, to: Point, duration: Double, release: Bool = true, samplesPerSecond: Double = 125
    ) -> GestureScript {
        var s = GestureScript()
        let d = duration.isFinite ? Swift.max(0.001, duration) : 0.1
        let steps = Swift.max(2, Int((d * (samplesPerSecond.isFinite ? Swift.min(1000, Swift.max(10, samplesPerSecond)) : 125)).rounded()))
        s.add(.pointer(.down, from), at: 0)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            s.add(.pointer(.moved, Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)), at: d * f)
        }
        if release { s.add(.pointer(.up, to), at: d) }
        return s
    }

    /// A fling: a drag of 80 ms at `velocity` (points per second) from
    /// `start`, released.
    /// - Throws: `ScriptError.invalidVelocity` for a velocity that is not
    ///   finite.
    public static func fling(
        from start: Point, velocity: Point, samplesPerSecond: Double = 125
    ) throws(ScriptError) -> GestureScript {
        guard velocity.x.isFinite, velocity.y.isFinite else { throw .invalidVelocity(velocity) }
        let vx = velocity.x, vy = velocity.y
        return drag(
            from: start, to: Point(x: start.x + vx * 0.08, y: start.y + vy * 0.08), duration: 0.08,
            samplesPerSecond: samplesPerSecond)
    }

    /// A press and release at `point`.
    public static func tap(at point: Point, holding: Double = 0.05) -> GestureScript {
        var s = GestureScript()
        s.add(.pointer(.down, point), at: 0)
        s.add(.pointer(.up, point), at: holding)
        return s
    }

    /// `other` played `gap` seconds after this script ends.
    public func then(_ other: GestureScript, after gap: Double = 0) -> GestureScript {
        var s = self
        let offset = duration + (gap.isFinite ? Swift.max(0, gap) : 0)
        for e in other.events { s.add(e.event, at: e.time + offset) }
        return s
    }

    /// Plays the script on `dispatcher`, rendering `host` at `frameRate`
    /// frames a second on its `ManualClock` (the script starts at the
    /// clock's time). Each frame first sends the events due by its time (the
    /// clock is set to each event's time as it is sent), then renders; it
    /// goes on after the last event until `settle` says the motion is over
    /// (at most `maximumDuration` seconds in all). `onFrame` gets each
    /// frame's number after it is rendered. Returns the frames rendered.
    @MainActor
    @discardableResult
    public func play(
        on dispatcher: InputDispatcher, host: LayerHost, frameRate: Double = 60, maximumDuration: Double = 60,
        settle: (() -> Bool)? = nil, onFrame: ((Int) throws -> Void)? = nil
    ) throws -> Int {
        guard let clock = host.clock as? ManualClock else { throw ScriptError.needsManualClock }
        let start = clock.now
        let step = 1 / (frameRate.isFinite ? Swift.min(1000, Swift.max(1, frameRate)) : 60)
        let maximumDuration = maximumDuration.isFinite ? Swift.min(3600, Swift.max(0, maximumDuration)) : 60
        var next = 0, frame = 0
        var time = start
        while true {
            time += step
            while next < events.count, start + events[next].time <= time {
                let (t, e) = events[next]
                clock.set(start + t)
                let at = start + t
                switch e {
                case .pointer(let phase, let p): dispatcher.send(.pointer(PointerEvent(phase, at: p, timestamp: at)))
                case .wheel(let lines, let p): dispatcher.send(.scroll(.wheel(lines: lines, at: p, timestamp: at)))
                case .key(let k):
                    dispatcher.send(.key(KeyEvent(.down, key: k, timestamp: at)))
                    dispatcher.send(.key(KeyEvent(.up, key: k, timestamp: at)))
                }
                next += 1
            }
            clock.set(time)
            host.renderFrame()
            frame += 1
            try onFrame?(frame)
            let finished = next >= events.count && (settle?() ?? true)
            if finished || time - start >= maximumDuration { break }
        }
        return frame
    }

    public enum ScriptError: Error, CustomStringConvertible {
        case needsManualClock
        case invalidVelocity(Point)
        public var description: String {
            switch self {
            case .needsManualClock: "a gesture script plays on a host with a ManualClock"
            case .invalidVelocity(let v): "a fling's velocity must be finite, not \(v.x), \(v.y)"
            }
        }
    }
}
