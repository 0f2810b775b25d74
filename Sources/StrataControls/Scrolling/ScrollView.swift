import Foundation
import StrataGraphics
import StrataLayers

/// What a scroll view tells its delegate, in UIScrollView's order: will
/// begin dragging, did scroll (at every change), will end dragging (which
/// may move the target), did end dragging (will it decelerate?), will
/// begin decelerating, did end decelerating; a programmatic animated
/// scroll ends with did end scrolling animation. Every method has a default
/// that does nothing.
@MainActor
public protocol ScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// `velocity` in points per millisecond, as UIKit gives it; set
    /// `targetContentOffset` to land the fling elsewhere (exactly there).
    func scrollViewWillEndDragging(_ scrollView: ScrollView, velocity: Point, targetContentOffset: inout Point)
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate: Bool)
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView)
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewWillEndDragging(_ scrollView: ScrollView, velocity: Point, targetContentOffset: inout Point) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
}

/// A view whose content, larger than itself, moves under the pointer:
/// `UIScrollView`.
///
/// Subviews are placed in content coordinates; `contentOffset` is the
/// content point at the view's top left (the layer's bounds origin, as in
/// UIKit). A drag follows the pointer (rubber-banded past the edges), a
/// release continues with the deceleration of `decelerationRate` in closed
/// form, a fling that reaches an edge decelerates to it and springs back,
/// and content left past an edge springs back critically damped. Paging
/// lands on multiples of the view's size; a delegate can move where a
/// fling lands (`scrollViewWillEndDragging`) and the fling is re-aimed to
/// land exactly there. Motion runs on the frame clock (`frame(at:)`), so it
/// is exact and reproducible under a `ManualClock`.
@MainActor
open class ScrollView: View {
    /// A scroll pane, unless set.
    open override var accessibilityRole: AccessibilityRole {
        get { accessibility.role ?? .scrollPane }
        set { accessibility.role = newValue }
    }

    /// The directions `accessibilityScroll(_:)` can move the content
    /// now: those with content beyond the view's edge that way.
    public var accessibilityScrollDirections: [AccessibilityScrollDirection] {
        let o = contentOffset, lo = minimumContentOffset, hi = maximumContentOffset
        var out: [AccessibilityScrollDirection] = []
        if o.y > lo.y + 0.5 { out.append(.up) }
        if o.y < hi.y - 0.5 { out.append(.down) }
        if o.x > lo.x + 0.5 { out.append(.left) }
        if o.x < hi.x - 0.5 { out.append(.right) }
        return out
    }

    /// Scrolls a page (the view's size less a tenth, so a line of context
    /// stays), at once, and posts `.pageScrolled` with
    /// `accessibilityScrollStatus`.
    open override func accessibilityScroll(_ direction: AccessibilityScrollDirection) -> Bool {
        let b = bounds
        var o = contentOffset
        switch direction {
        case .up: o.y -= b.height * 0.9
        case .down: o.y += b.height * 0.9
        case .left: o.x -= b.width * 0.9
        case .right: o.x += b.width * 0.9
        }
        let before = contentOffset
        setContentOffset(o, animated: false)
        guard contentOffset != before else { return false }
        AccessibilityCenter.post(.pageScrolled(accessibilityScrollStatus), from: self)
        return true
    }

    /// Where the content is, as a screen reader says it after a page
    /// scroll (`accessibilityScrollStatus(for:)`): "Page 2 of 5" by default.
    open var accessibilityScrollStatus: String {
        let page = Swift.max(1, bounds.height)
        let pages = Swift.max(1, Int((contentSize.height / page).rounded(.up)))
        let current = Swift.min(pages, Int(((contentOffset.y - minimumContentOffset.y) / page).rounded()) + 1)
        return "Page \(current) of \(pages)"
    }

    public weak var delegate: (any ScrollViewDelegate)?
    public var contentSize = Size(width: 0, height: 0) {
        didSet {
            func held(_ v: Double) -> Double { v.isFinite ? Swift.min(1e9, Swift.max(0, v)) : 0 }
            let h = Size(width: held(contentSize.width), height: held(contentSize.height))
            if h != contentSize { contentSize = h }
            updateIndicators()
        }
    }
    public var contentInset = EdgeInsets.zero { didSet { updateIndicators() } }
    public var decelerationRate = ScrollPhysics.DecelerationRate.normal
    public var bounces = true
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    public var isPagingEnabled = false
    public var isScrollEnabled = true {
        didSet { panGestureRecognizer.isEnabled = isScrollEnabled }
    }
    public var showsVerticalScrollIndicator = true
    public var showsHorizontalScrollIndicator = true
    /// The recognizer that drags the content. A pointer going down anywhere
    /// in the view stops a fling (as a finger does), and lifting it without
    /// a drag lets the content rest there.
    public let panGestureRecognizer: PanGestureRecognizer = ScrollPan()
    /// A fling the pointer caught on its way down.
    private var caughtFling = false
    public private(set) var isDragging = false
    public private(set) var isDecelerating = false

    private let verticalIndicator = Layer()
    private let horizontalIndicator = Layer()
    private var indicatorShownUntil = -Double.infinity
    /// The last frame's time: motions start from it, whatever an event's
    /// timestamp says (a wild timestamp must not start a motion in the far
    /// future, which would never end).
    private var now = 0.0
    /// The drag's start, in unbanded offsets.
    private var dragStart = Point(x: 0, y: 0)
    private var motion: Motion?
    /// A trackpad's unbanded offset while its fingers are down.
    private var preciseOffset: Point?

    public override init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), layer: Layer = Layer()) {
        super.init(frame: frame, layer: layer)
        layer.masksToBounds = true
        for l in [verticalIndicator, horizontalIndicator] {
            l.anchorPoint = .zero
            l.backgroundColor = Color(white: 0, alpha: 0.35)
            l.opacity = 0
            l.zPosition = 1000
            layer.addSublayer(l)
        }
        panGestureRecognizer.minimumDistance = 3.5
        (panGestureRecognizer as! ScrollPan).scrollView = self
        panGestureRecognizer.addAction { [weak self] g in self?.pan(g as! PanGestureRecognizer) }
        addGestureRecognizer(panGestureRecognizer)
    }

    // MARK: Offsets

    /// Device pixels per point that moving content lands on: with a value
    /// above 0, every offset the scroll view sets itself (dragging, flings,
    /// springs, animations, wheels) is rounded to a whole device pixel, as
    /// UIScrollView rounds to the screen's scale, so drawn contents move by
    /// whole pixels and are copied rather than resampled. 0 (the default):
    /// offsets are kept as computed.
    public var pixelAlignment = 0.0 {
        didSet { if !(pixelAlignment >= 0 && pixelAlignment.isFinite) { pixelAlignment = 0 } }
    }

    /// The content point at the view's top left.
    public var contentOffset: Point {
        get { layer.bounds.origin }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return }
            var newValue = newValue
            if pixelAlignment > 0 {
                newValue = Point(
                    x: (newValue.x * pixelAlignment).rounded() / pixelAlignment,
                    y: (newValue.y * pixelAlignment).rounded() / pixelAlignment)
            }
            let b = layer.bounds
            guard b.origin != newValue else { return }
            withoutActions {
                layer.bounds = Rect(x: newValue.x, y: newValue.y, width: b.width, height: b.height)
            }
            updateIndicators()
            contentOffsetDidChange()
            delegate?.scrollViewDidScroll(self)
        }
    }

    /// Called at every change of `contentOffset`, before the delegate's
    /// `scrollViewDidScroll` (a subclass lays its content out here).
    open func contentOffsetDidChange() {}

    /// Called when the content comes to rest after a drag, a fling, an
    /// animated scroll or a trackpad scroll.
    open func scrollingDidEnd() {}

    /// The smallest and largest offsets at rest (the inset content's ends).
    open var minimumContentOffset: Point { Point(x: -contentInset.left, y: -contentInset.top) }
    open var maximumContentOffset: Point {
        let b = bounds
        return Point(
            x: Swift.max(-contentInset.left, contentSize.width + contentInset.right - b.width),
            y: Swift.max(-contentInset.top, contentSize.height + contentInset.bottom - b.height))
    }

    /// Whether the content can move along x (or y): longer than the view,
    /// or told to bounce anyway.
    var scrollsX: Bool { maximumContentOffset.x > minimumContentOffset.x || alwaysBounceHorizontal }
    var scrollsY: Bool { maximumContentOffset.y > minimumContentOffset.y || alwaysBounceVertical }

    /// Moves the content; animated, along an ease-in-ease-out of 0.3 s that
    /// ends with `scrollViewDidEndScrollingAnimation`. The offset is held
    /// to the content's ends.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        guard offset.x.isFinite, offset.y.isFinite else { return }
        let target = clamped(offset)
        stopMotion()
        guard animated else {
            contentOffset = target
            return
        }
        motion = .animation(from: contentOffset, to: target, start: now, duration: 0.3)
        showIndicators()
        needsFrames = true
    }

    /// Scrolls the least that shows `rect` (content coordinates).
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite else { return }
        let b = bounds
        var o = contentOffset
        if rect.maxX > o.x + b.width { o.x = rect.maxX - b.width }
        if rect.minX < o.x { o.x = rect.minX }
        if rect.maxY > o.y + b.height { o.y = rect.maxY - b.height }
        if rect.minY < o.y { o.y = rect.minY }
        setContentOffset(o, animated: animated)
    }

    /// Scrolls to the top of the content.
    public func scrollToTop(animated: Bool) {
        setContentOffset(Point(x: contentOffset.x, y: minimumContentOffset.y), animated: animated)
    }

    /// Shows the scroll indicators for a moment.
    public func flashScrollIndicators() {
        indicatorShownUntil = clockNow + 1.5
        updateIndicators()
        needsFrames = true
    }

    func clamped(_ p: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset
        return Point(x: Swift.min(hi.x, Swift.max(lo.x, p.x)), y: Swift.min(hi.y, Swift.max(lo.y, p.y)))
    }

    private var clockNow: Double { now }

    /// An event's time, held to the last frame's time and one second after
    /// it (NaN is the frame's time).
    private func eventTime(_ t: Double) -> Double {
        t.isFinite ? Swift.min(now + 1, Swift.max(now, t)) : now
    }

    // MARK: Dragging

    /// The offset was just moved by `delta` by a subclass, content and all
    /// (a ruler jumping to a value): a drag under way goes on from there.
    func offsetJumped(by delta: Point) {
        dragStart = Point(x: dragStart.x + delta.x, y: dragStart.y + delta.y)
        if let p = preciseOffset { preciseOffset = Point(x: p.x + delta.x, y: p.y + delta.y) }
    }

    /// A pointer went down in the view: a fling or spring stops there.
    func pointerWentDown() {
        if case .deceleration? = motion {
            stopMotion()
            caughtFling = true
        }
    }

    /// The pointer came up without dragging: a caught fling rests here.
    func pointerWentUpWithoutDrag() {
        guard caughtFling else { return }
        caughtFling = false
        if contentOffset != clamped(contentOffset) {
            release(velocity: Point(x: 0, y: 0), at: now)
        } else {
            hideIndicatorsSoon(at: now)
            scrollingDidEnd()
        }
    }

    private func pan(_ g: PanGestureRecognizer) {
        switch g.state {
        case .began:
            stopMotion()
            caughtFling = false
            isDragging = true
            dragStart = unbanded(contentOffset)
            delegate?.scrollViewWillBeginDragging(self)
            follow(g)
        case .changed:
            follow(g)
        case .ended:
            follow(g)
            release(velocity: Point(x: -g.velocity.x, y: -g.velocity.y), at: eventTime(g.lastTimestamp))
        case .cancelled:
            isDragging = false
            release(velocity: Point(x: 0, y: 0), at: eventTime(g.lastTimestamp))
        default: break
        }
    }

    /// The offset the content would be at without the rubber band.
    private func unbanded(_ p: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset, b = bounds
        func axis(_ v: Double, _ lo: Double, _ hi: Double, _ d: Double) -> Double {
            if v < lo { return lo + ScrollPhysics.inverseRubberBand(v - lo, dimension: d) }
            if v > hi { return hi + ScrollPhysics.inverseRubberBand(v - hi, dimension: d) }
            return v
        }
        return Point(x: axis(p.x, lo.x, hi.x, b.width), y: axis(p.y, lo.y, hi.y, b.height))
    }

    /// The shown offset for an unbanded one: past an edge, rubber-banded
    /// (or held at the edge without `bounces`).
    private func banded(_ p: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset, b = bounds
        func axis(_ v: Double, _ lo: Double, _ hi: Double, _ d: Double) -> Double {
            if v < lo { return bounces ? lo + ScrollPhysics.rubberBand(v - lo, dimension: d) : lo }
            if v > hi { return bounces ? hi + ScrollPhysics.rubberBand(v - hi, dimension: d) : hi }
            return v
        }
        return Point(x: axis(p.x, lo.x, hi.x, b.width), y: axis(p.y, lo.y, hi.y, b.height))
    }

    private func follow(_ g: PanGestureRecognizer) {
        let t = g.translation(in: nil)
        let raw = Point(x: scrollsX ? dragStart.x - t.x : contentOffset.x, y: scrollsY ? dragStart.y - t.y : contentOffset.y)
        contentOffset = banded(raw)
        showIndicators()
    }

    /// The end of a drag: where the fling will land (a page, or where the
    /// delegate says), then the motion there.
    func release(velocity v: Point, at time: Double) {
        let start = contentOffset
        let vx = scrollsX && v.x.isFinite ? v.x : 0, vy = scrollsY && v.y.isFinite ? v.y : 0
        let rate = decelerationRate
        let natural = clamped(
            Point(
                x: ScrollPhysics.restingPoint(from: start.x, velocity: vx, rate: rate),
                y: ScrollPhysics.restingPoint(from: start.y, velocity: vy, rate: rate)))
        var target =
            isPagingEnabled
            ? pageTarget(from: start, velocity: Point(x: vx, y: vy))
            : targetContentOffset(forProposed: natural, velocity: Point(x: vx, y: vy))
        let proposed = target
        delegate?.scrollViewWillEndDragging(self, velocity: Point(x: vx / 1000, y: vy / 1000), targetContentOffset: &target)
        // A target the delegate moved is held within the content's ends.
        target = target.x.isFinite && target.y.isFinite ? clamped(target) : proposed
        isDragging = false
        // A target other than the natural one (paging, snapping): re-aim the
        // fling so it comes to rest exactly there.
        let aimed = target != natural
        let axes = [
            axisMotion(start.x, vx, target.x, aimed, minimumContentOffset.x, maximumContentOffset.x, time),
            axisMotion(start.y, vy, target.y, aimed, minimumContentOffset.y, maximumContentOffset.y, time),
        ]
        let moves = axes.contains { !$0.isIdle }
        delegate?.scrollViewDidEndDragging(self, willDecelerate: moves)
        guard moves else {
            hideIndicatorsSoon(at: time)
            scrollingDidEnd()
            return
        }
        motion = .deceleration(x: axes[0], y: axes[1])
        isDecelerating = true
        delegate?.scrollViewWillBeginDecelerating(self)
        needsFrames = true
    }

    /// Where a fling released with `velocity` (points per second) should
    /// land, given where it would (`proposed`): a subclass snaps it here (a
    /// ruler to its ticks); the delegate may still move it. Default: as
    /// proposed.
    open func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point { proposed }

    /// Moves the content and the offset together by `delta`, with any
    /// motion under way, so nothing on screen changes: how content that
    /// never ends is recentred (the subclass moves its content's
    /// coordinates by the same amount). No `scrollViewDidScroll`.
    public func shiftContent(by delta: Point) {
        guard delta.x.isFinite, delta.y.isFinite, delta != Point(x: 0, y: 0) else { return }
        func shifted(_ phase: AxisMotion.Phase, _ d: Double) -> AxisMotion.Phase {
            switch phase {
            case .idle: return .idle
            case .fling(let x0, let v0, let start, let rest, let rate):
                return .fling(x0: x0 + d, v0: v0, start: start, rest: rest + d, rate: rate)
            case .spring(let s, let rest, let start): return .spring(s, rest: rest + d, start: start)
            }
        }
        switch motion {
        case .deceleration(let x, let y)?:
            motion = .deceleration(x: AxisMotion(phase: shifted(x.phase, delta.x)), y: AxisMotion(phase: shifted(y.phase, delta.y)))
        case .animation(let from, let to, let start, let duration)?:
            motion = .animation(
                from: Point(x: from.x + delta.x, y: from.y + delta.y), to: Point(x: to.x + delta.x, y: to.y + delta.y), start: start,
                duration: duration)
        case nil: break
        }
        dragStart = Point(x: dragStart.x + delta.x, y: dragStart.y + delta.y)
        if let p = preciseOffset { preciseOffset = Point(x: p.x + delta.x, y: p.y + delta.y) }
        let b = layer.bounds
        withoutActions {
            layer.bounds = Rect(x: b.origin.x + delta.x, y: b.origin.y + delta.y, width: b.width, height: b.height)
        }
        updateIndicators()
    }

    private func pageTarget(from p: Point, velocity v: Point) -> Point {
        let b = bounds
        func axis(_ x: Double, _ v: Double, _ page: Double, _ lo: Double, _ hi: Double) -> Double {
            guard page > 0 else { return x }
            let current = (x - lo) / page
            let index = v > 50 ? current.rounded(.up) : v < -50 ? current.rounded(.down) : current.rounded()
            return Swift.min(hi, Swift.max(lo, lo + index * page))
        }
        let lo = minimumContentOffset, hi = maximumContentOffset
        return Point(x: axis(p.x, v.x, b.width, lo.x, hi.x), y: axis(p.y, v.y, b.height, lo.y, hi.y))
    }

    /// One axis's motion from a release at `x` with velocity `v`.
    private func axisMotion(
        _ x: Double, _ v: Double, _ target: Double, _ aimed: Bool, _ lo: Double, _ hi: Double, _ t0: Double
    ) -> AxisMotion {
        // Past an edge: spring back to it, with the release's velocity.
        if x < lo || x > hi {
            let edge = x < lo ? lo : hi
            return AxisMotion(phase: .spring(ScrollPhysics.Spring(offset: x - edge, velocity: v), rest: edge, start: t0))
        }
        // Pages land at the fast rate, so a page turn settles in well under a
        // second rather than drifting for three.
        let rate = isPagingEnabled && aimed ? ScrollPhysics.DecelerationRate.fast : decelerationRate
        let velocity = aimed ? ScrollPhysics.velocity(toRestAt: target, from: x, rate: rate) : v
        if abs(ScrollPhysics.restingPoint(from: x, velocity: velocity, rate: rate) - x) < 0.5 {
            return target == x
                ? AxisMotion(phase: .idle) : AxisMotion(phase: .fling(x0: x, v0: velocity, start: t0, rest: target, rate: rate))
        }
        let rest = aimed ? target : ScrollPhysics.restingPoint(from: x, velocity: velocity, rate: rate)
        return AxisMotion(phase: .fling(x0: x, v0: velocity, start: t0, rest: rest, rate: rate))
    }

    // MARK: Motion on the frame clock

    enum Motion {
        case deceleration(x: AxisMotion, y: AxisMotion)
        case animation(from: Point, to: Point, start: Double, duration: Double)
    }

    struct AxisMotion {
        enum Phase {
            case idle
            /// Decelerating from x0 at v0 since `start`, to rest at `rest`,
            /// at `rate`.
            case fling(x0: Double, v0: Double, start: Double, rest: Double, rate: ScrollPhysics.DecelerationRate)
            /// Springing back to `rest`.
            case spring(ScrollPhysics.Spring, rest: Double, start: Double)
        }
        var phase: Phase
        var isIdle: Bool {
            if case .idle = phase { return true }
            return false
        }
    }

    func stopMotion() {
        guard let m = motion else { return }
        motion = nil
        if case .deceleration = m, isDecelerating {
            isDecelerating = false
            delegate?.scrollViewDidEndDecelerating(self)
        }
    }

    /// Advances the motion to `time` (and the indicators' fade).
    open override func frame(at time: Double) {
        now = Swift.max(now, time)
        switch motion {
        case .deceleration(var x, var y)?:
            let ox = step(&x.phase, time, minimumContentOffset.x, maximumContentOffset.x, bounds.width)
            let oy = step(&y.phase, time, minimumContentOffset.y, maximumContentOffset.y, bounds.height)
            // The motion is stored before the offset is set: setting it may
            // recentre the content (`shiftContent`), which moves the motion.
            let done = x.isIdle && y.isIdle
            motion = done ? nil : .deceleration(x: x, y: y)
            contentOffset = Point(x: ox ?? contentOffset.x, y: oy ?? contentOffset.y)
            if done {
                isDecelerating = false
                hideIndicatorsSoon(at: time)
                delegate?.scrollViewDidEndDecelerating(self)
                scrollingDidEnd()
            } else {
                showIndicators()
            }
        case .animation(let from, let to, let start, let duration)?:
            let t = Swift.min(1, Swift.max(0, (time - start) / duration))
            let e = TimingFunction.easeInEaseOut.value(at: t)
            if t >= 1 {
                motion = nil
                contentOffset = to
                hideIndicatorsSoon(at: time)
                delegate?.scrollViewDidEndScrollingAnimation(self)
                scrollingDidEnd()
            } else {
                contentOffset = Point(x: from.x + (to.x - from.x) * e, y: from.y + (to.y - from.y) * e)
            }
        case nil:
            break
        }
        updateIndicators()
        if motion == nil, !isDragging, time >= indicatorShownUntil + Self.fadeDuration { needsFrames = false }
    }

    /// One axis at `time`: its offset, or nil when it does not move. Idle
    /// once at rest.
    private func step(_ phase: inout AxisMotion.Phase, _ time: Double, _ lo: Double, _ hi: Double, _ d: Double) -> Double? {
        switch phase {
        case .idle:
            return nil
        case .fling(let x0, let v0, let start, let rest, let rate):
            let t = time - start
            // Reaching an edge: decelerate to it, then spring with the
            // velocity it has there (or stop there without `bounces`).
            for edge in [lo, hi] where (v0 < 0 && edge == lo && rest < lo) || (v0 > 0 && edge == hi && rest > hi) {
                if let te = ScrollPhysics.time(toReach: edge, from: x0, velocity: v0, rate: rate), t >= te {
                    guard bounces else {
                        phase = .idle
                        return edge
                    }
                    let ve = ScrollPhysics.velocity(v0, rate: rate, at: te)
                    phase = .spring(ScrollPhysics.Spring(offset: 0, velocity: ve), rest: edge, start: start + te)
                    return step(&phase, time, lo, hi, d)
                }
            }
            if t >= ScrollPhysics.duration(velocity: v0, rate: rate) {
                phase = .idle
                return rest
            }
            return ScrollPhysics.position(from: x0, velocity: v0, rate: rate, at: t)
        case .spring(let s, let rest, let start):
            let t = time - start
            if s.isSettled(at: t) {
                phase = .idle
                return rest
            }
            return rest + s.offset(at: t)
        }
    }

    // MARK: Wheel and trackpad

    open override func scrollEvent(_ event: ScrollEvent) -> Bool {
        guard isScrollEnabled, !isDragging else { return false }
        let time = eventTime(event.timestamp)
        var d = event.delta
        // A vertical wheel with shift held scrolls across.
        if !event.isPrecise, event.modifiers.contains(.shift), d.width == 0 { d = Size(width: d.height, height: 0) }
        if !scrollsX { d.width = 0 }
        if !scrollsY { d.height = 0 }
        switch event.phase {
        case .began:
            stopMotion()
            preciseOffset = unbanded(contentOffset)
            fallthrough
        case .changed:
            let base = preciseOffset ?? unbanded(contentOffset)
            let raw = Point(x: base.x + d.width, y: base.y + d.height)
            preciseOffset = raw
            contentOffset = banded(raw)
            showIndicators()
        case .ended, .cancelled, .momentumEnded:
            preciseOffset = nil
            if contentOffset != clamped(contentOffset) {
                release(velocity: Point(x: 0, y: 0), at: time)
            } else {
                hideIndicatorsSoon(at: time)
                // At rest where the fingers left it (a ruler snaps here).
                if motion == nil { scrollingDidEnd() }
            }
        case .momentum:
            // The system's coasting, held to the content's ends.
            guard motion == nil else { return true }
            contentOffset = clamped(Point(x: contentOffset.x + d.width, y: contentOffset.y + d.height))
            showIndicators()
        case .none:
            // A wheel step: at once, within the ends, indicators flashed.
            guard d.width != 0 || d.height != 0 else { return false }
            stopMotion()
            let target = clamped(Point(x: contentOffset.x + d.width, y: contentOffset.y + d.height))
            guard target != contentOffset else { return false }
            contentOffset = target
            indicatorShownUntil = time + 0.5
            needsFrames = true
        }
        return true
    }

    // MARK: Indicators

    static let fadeDuration = 0.33

    private func showIndicators() {
        indicatorShownUntil = Swift.max(indicatorShownUntil, clockNow)
        updateIndicators()
    }

    private func hideIndicatorsSoon(at time: Double) {
        indicatorShownUntil = Swift.max(indicatorShownUntil, time)
        needsFrames = true
    }

    /// Places the indicators along the right and bottom edges (in content
    /// coordinates, so they stay put) with their opacity: full while moving,
    /// fading over 0.33 s after.
    private func updateIndicators() {
        let b = bounds, o = contentOffset
        let moving = isDragging || motion != nil
        let fade = moving ? 1 : Swift.max(0, 1 - (clockNow - indicatorShownUntil) / Self.fadeDuration)
        let opacity = clockNow <= indicatorShownUntil || moving ? 1 : Swift.min(1, fade)
        let thickness = 3.0, inset = 3.0
        let contentH = contentSize.height + contentInset.top + contentInset.bottom
        let contentW = contentSize.width + contentInset.left + contentInset.right
        withoutActions {
            for (indicator, vertical) in [(verticalIndicator, true), (horizontalIndicator, false)] {
                let shows = vertical ? showsVerticalScrollIndicator && contentH > b.height : showsHorizontalScrollIndicator && contentW > b.width
                indicator.opacity = shows ? opacity : 0
                guard shows else { continue }
                let track = (vertical ? b.height : b.width) - 2 * inset - thickness
                let content = vertical ? contentH : contentW, view = vertical ? b.height : b.width
                var length = Swift.max(Swift.min(track, track * view / content), Swift.min(track, 36))
                let lo = vertical ? minimumContentOffset.y : minimumContentOffset.x
                let hi = vertical ? maximumContentOffset.y : maximumContentOffset.x
                let at = vertical ? o.y : o.x
                guard (hi - lo).isFinite else {
                    indicator.opacity = 0
                    continue
                }
                var fraction = hi > lo ? (at - lo) / (hi - lo) : 0
                // Past an edge the knob shrinks, as UIKit's does.
                if fraction < 0 {
                    length = Swift.max(thickness * 2, length + fraction * (hi - lo) * track / view)
                    fraction = 0
                } else if fraction > 1 {
                    length = Swift.max(thickness * 2, length - (fraction - 1) * (hi - lo) * track / view)
                    fraction = 1
                }
                let pos = inset + (track - length) * fraction
                indicator.cornerRadius = thickness / 2
                indicator.frame =
                    vertical
                    ? Rect(x: o.x + b.width - inset - thickness, y: o.y + pos, width: thickness, height: length)
                    : Rect(x: o.x + pos, y: o.y + b.height - inset - thickness, width: length, height: thickness)
            }
        }
    }
}

/// The scroll view's pan: tells it when a pointer goes down (to catch a
/// fling) and when it comes up without a drag.
@MainActor
final class ScrollPan: PanGestureRecognizer {
    weak var scrollView: ScrollView?
    private var dragged = false

    override func pointerBegan(_ event: PointerEvent) {
        dragged = false
        scrollView?.pointerWentDown()
        super.pointerBegan(event)
    }

    override func pointerEnded(_ event: PointerEvent) {
        dragged = state == .began || state == .changed
        super.pointerEnded(event)
        if !dragged { scrollView?.pointerWentUpWithoutDrag() }
    }
}
