import StrataGraphics

@inline(__always) func distance(_ a: Point, _ b: Point) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}

/// Taps: `numberOfTapsRequired` presses and releases, each moving less
/// than `allowableMovement`, each following the last within
/// `maximumTapInterval`. Discrete: it recognizes (`.ended`) on the last
/// release, or fails.
@MainActor
open class TapGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired = 1 {
        didSet { numberOfTapsRequired = Swift.max(1, Swift.min(10, numberOfTapsRequired)) }
    }
    public var allowableMovement = 10.0
    public var maximumTapInterval = 0.35

    private var taps = 0
    private var firstDown: Point?
    private var pressStart: Point?
    private var lastUp = 0.0
    private var isDown = false

    open override func pointerBegan(_ event: PointerEvent) {
        if taps > 0,
            event.timestamp - lastUp > maximumTapInterval
                || distance(event.location, firstDown ?? event.location) > 4 * allowableMovement
        {
            setState(.failed)
            return
        }
        if firstDown == nil { firstDown = event.location }
        pressStart = event.location
        isDown = true
    }

    open override func pointerMoved(_ event: PointerEvent) {
        if let s = pressStart, distance(event.location, s) > allowableMovement { setState(.failed) }
    }

    open override func pointerEnded(_ event: PointerEvent) {
        guard isDown else { return }
        isDown = false
        taps += 1
        lastUp = event.timestamp
        if taps >= numberOfTapsRequired { setState(.recognized) }
    }

    open override func frame(at time: Double) {
        // Waiting for the next tap too long: not this gesture.
        if state == .possible, !isDown, taps > 0, taps < numberOfTapsRequired, time - lastUp > maximumTapInterval {
            setState(.failed)
        }
    }

    /// Whether it is between taps, waiting for the next.
    var isWaitingForTap: Bool { state == .possible && !isDown && taps > 0 }

    open override func reset() {
        super.reset()
        taps = 0
        firstDown = nil
        pressStart = nil
        isDown = false
    }
}

/// A press held `minimumPressDuration` without moving more than
/// `allowableMovement`: begins then, changes as the pointer moves, ends on
/// release. Continuous.
@MainActor
open class LongPressGestureRecognizer: GestureRecognizer {
    public var minimumPressDuration = 0.5
    public var allowableMovement = 10.0

    private var downAt = 0.0
    private var downLocation: Point?

    open override func pointerBegan(_ event: PointerEvent) {
        guard downLocation == nil else { return }
        downAt = event.timestamp
        downLocation = event.location
    }

    open override func pointerMoved(_ event: PointerEvent) {
        switch state {
        case .possible:
            if let d = downLocation, distance(event.location, d) > allowableMovement { setState(.failed) }
        case .began, .changed: setState(.changed)
        default: break
        }
    }

    open override func pointerEnded(_ event: PointerEvent) {
        if state == .began || state == .changed { setState(.ended) } else if state == .possible { setState(.failed) }
        downLocation = nil
    }

    open override func frame(at time: Double) {
        if state == .possible, downLocation != nil, time - downAt >= minimumPressDuration { setState(.began) }
    }

    open override func reset() {
        super.reset()
        downLocation = nil
    }
}

/// A drag: begins once the pointer has moved `minimumDistance` from where
/// it went down, changes with each move, ends on release. `translation`
/// is measured from where it went down; `velocity` is the
/// `VelocityTracker`'s estimate (points per second), at release the
/// velocity the gesture ended with.
@MainActor
open class PanGestureRecognizer: GestureRecognizer {
    public var minimumDistance = 8.0
    private var start = Point(x: 0, y: 0)
    private var offset = Point(x: 0, y: 0)
    private var tracker = VelocityTracker()
    private var released: Point?
    private var isDown = false

    /// The translation in `view`'s coordinates (the root's when nil).
    public func translation(in view: View?) -> Point {
        let t = Point(x: lastLocation.x - start.x - offset.x, y: lastLocation.y - start.y - offset.y)
        guard let view else { return t }
        let a = view.convert(Point(x: 0, y: 0), from: nil), b = view.convert(t, from: nil)
        return Point(x: b.x - a.x, y: b.y - a.y)
    }

    /// Makes the translation read `translation` now (root coordinates).
    public func setTranslation(_ translation: Point) {
        offset = Point(x: lastLocation.x - start.x - translation.x, y: lastLocation.y - start.y - translation.y)
    }

    /// The velocity in points per second (root coordinates).
    public var velocity: Point { released ?? tracker.velocity(at: lastTimestamp) }

    open override func pointerBegan(_ event: PointerEvent) {
        guard !isDown else { return }
        isDown = true
        start = event.location
        offset = Point(x: 0, y: 0)
        released = nil
        tracker.reset()
        tracker.add(event.location, at: event.timestamp)
    }

    open override func pointerMoved(_ event: PointerEvent) {
        tracker.add(event.location, at: event.timestamp)
        switch state {
        case .possible:
            if distance(event.location, start) >= minimumDistance { setState(.began) }
        case .began, .changed: setState(.changed)
        default: break
        }
    }

    open override func pointerEnded(_ event: PointerEvent) {
        isDown = false
        tracker.add(event.location, at: event.timestamp)
        if state == .began || state == .changed {
            released = tracker.velocity(at: event.timestamp)
            setState(.ended)
        } else if state == .possible {
            setState(.failed)
        }
    }

    open override func reset() {
        super.reset()
        isDown = false
        released = nil
    }
}
