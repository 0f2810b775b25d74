import Foundation
import StrataGraphics
import StrataLayers
import Testing

@testable import StrataControls

@Suite struct ScrollPhysicsTests {
    @Test(arguments: [ScrollPhysics.DecelerationRate.normal, .fast])
    func aFlingComesToRestWhereTheFormulaSays(rate: ScrollPhysics.DecelerationRate) {
        let x0 = 100.0, v0 = 2000.0
        let rest = x0 - v0 / (1000 * log(rate.rawValue))
        #expect(abs(ScrollPhysics.restingPoint(from: x0, velocity: v0, rate: rate) - rest) < 1e-9)
        let duration = ScrollPhysics.duration(velocity: v0, rate: rate)
        // Within half a point of rest at the duration, and not before it.
        #expect(abs(ScrollPhysics.position(from: x0, velocity: v0, rate: rate, at: duration) - rest) <= 0.5 + 1e-9)
        #expect(abs(ScrollPhysics.position(from: x0, velocity: v0, rate: rate, at: duration * 0.9) - rest) > 0.5)
        // Velocity is the position's derivative.
        let t = 0.2, h = 1e-6
        let numeric =
            (ScrollPhysics.position(from: x0, velocity: v0, rate: rate, at: t + h)
                - ScrollPhysics.position(from: x0, velocity: v0, rate: rate, at: t - h)) / (2 * h)
        #expect(abs(numeric - ScrollPhysics.velocity(v0, rate: rate, at: t)) < 1e-3)
        // The anchors' worked example: 2000 pt/s stops 999 pt on (normal), 199 pt (fast).
        let travel = rest - x0
        #expect(abs(travel - (rate == .normal ? 999.0 : 199.0)) < 1)
        // Aimed at a target, it rests exactly there.
        let v = ScrollPhysics.velocity(toRestAt: 640, from: x0, rate: rate)
        #expect(abs(ScrollPhysics.restingPoint(from: x0, velocity: v, rate: rate) - 640) < 1e-9)
    }

    @Test func theRubberBandFollowsItsFormula() {
        #expect(abs(ScrollPhysics.rubberBand(100, dimension: 960) - 0.55 * 100 * 960 / (960 + 55)) < 1e-9)
        #expect(abs(ScrollPhysics.rubberBand(100, dimension: 960) - 52) < 0.1)
        #expect(abs(ScrollPhysics.rubberBand(960, dimension: 960) - 341) < 0.5)
        #expect(ScrollPhysics.rubberBand(-100, dimension: 960) == -ScrollPhysics.rubberBand(100, dimension: 960))
        #expect(ScrollPhysics.rubberBand(1e12, dimension: 960) < 960)
        for x in [-500.0, -3, 0, 7, 480, 2000] {
            let b = ScrollPhysics.rubberBand(x, dimension: 600)
            #expect(abs(ScrollPhysics.inverseRubberBand(b, dimension: 600) - x) < 1e-6)
        }
        #expect(ScrollPhysics.rubberBand(.nan, dimension: 600) == 0 && ScrollPhysics.rubberBand(5, dimension: 0) == 0)
    }

    @Test func theSpringSettlesWithinHalfAPoint() {
        for (x0, v0) in [(80.0, 0.0), (-40, 3000), (0, -2500), (120, 1e9)] {
            let s = ScrollPhysics.Spring(offset: x0, velocity: v0)
            var t = 0.0
            while !s.isSettled(at: t) && t < 5 { t += 1.0 / 60 }
            #expect(t < 1.5, "\(x0), \(v0)")
            #expect(abs(s.offset(at: t)) < 0.5)
            // Critically damped: it crosses its rest at most once, and never oscillates.
            let signs = (0..<300).map { s.offset(at: Double($0) / 100) }.filter { abs($0) > 1e-9 }.map { $0 > 0 }
            #expect(zip(signs, signs.dropFirst()).filter { $0 != $1 }.count <= 1)
        }
        #expect(ScrollPhysics.DecelerationRate(rawValue: .nan) == .normal)
        #expect(ScrollPhysics.DecelerationRate(rawValue: 2).rawValue == 0.9999)
    }
}

/// Records a delegate's calls in order.
@MainActor
final class DelegateLog: ScrollViewDelegate {
    var calls: [String] = []
    var retarget: ((Point) -> Point)?
    func scrollViewDidScroll(_ s: ScrollView) { if calls.last != "didScroll" { calls.append("didScroll") } }
    func scrollViewWillBeginDragging(_ s: ScrollView) { calls.append("willBeginDragging") }
    func scrollViewWillEndDragging(_ s: ScrollView, velocity: Point, targetContentOffset: inout Point) {
        calls.append("willEndDragging")
        if let retarget { targetContentOffset = retarget(targetContentOffset) }
    }
    func scrollViewDidEndDragging(_ s: ScrollView, willDecelerate: Bool) { calls.append("didEndDragging(\(willDecelerate))") }
    func scrollViewWillBeginDecelerating(_ s: ScrollView) { calls.append("willBeginDecelerating") }
    func scrollViewDidEndDecelerating(_ s: ScrollView) { calls.append("didEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ s: ScrollView) { calls.append("didEndScrollingAnimation") }
}

@MainActor
@Suite struct ScrollViewTests {
    func make(content: Size = Size(width: 400, height: 5000)) -> (InputDispatcher, ScrollView, DelegateLog) {
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 600))
        let s = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 600))
        s.contentSize = content
        root.addSubview(s)
        let log = DelegateLog()
        s.delegate = log
        return (InputDispatcher(rootView: root), s, log)
    }

    /// A drag down the screen from y0 by dy over `duration`, 8 ms a sample,
    /// then a release `pause` later; returns the release time.
    @discardableResult
    func drag(_ d: InputDispatcher, y0: Double = 500, dy: Double, duration: Double, pause: Double = 0, at t0: Double = 0) -> Double {
        d.send(.pointer(PointerEvent(.down, at: Point(x: 200, y: y0), timestamp: t0)))
        let steps = Swift.max(1, Int(duration / 0.008))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            d.send(.pointer(PointerEvent(.moved, at: Point(x: 200, y: y0 + dy * f), timestamp: t0 + duration * f)))
        }
        let end = t0 + duration + pause
        d.send(.pointer(PointerEvent(.up, at: Point(x: 200, y: y0 + dy), timestamp: end)))
        return end
    }

    /// Frames every 1/60 s from `t` until `done` or 10 s; returns the time.
    @discardableResult
    func run(_ d: InputDispatcher, from t: Double, until done: () -> Bool) -> Double {
        var time = t
        while !done() && time < t + 10 {
            time += 1.0 / 60
            d.frame(at: time)
        }
        return time
    }

    @Test func aDragWithoutAFlingEndsWithoutDeceleration() {
        let (d, s, log) = make()
        drag(d, dy: -200, duration: 0.3, pause: 0.1)
        #expect(abs(s.contentOffset.y - 200) < 1e-9)
        #expect(log.calls == ["willBeginDragging", "didScroll", "willEndDragging", "didEndDragging(false)"])
    }

    @Test(arguments: [ScrollPhysics.DecelerationRate.normal, .fast])
    func aFlingDeceleratesToTheRestingPoint(rate: ScrollPhysics.DecelerationRate) {
        let (d, s, log) = make(content: Size(width: 400, height: 100_000))
        s.decelerationRate = rate
        // 2000 pt/s up the screen: the content moves down by 999 pt more.
        let release = drag(d, dy: -160, duration: 0.08)
        let start = s.contentOffset.y
        run(d, from: release) { !s.isDecelerating }
        // Within half a point of x0 − v0/(1000 ln d) from the release.
        let expected = ScrollPhysics.restingPoint(from: start, velocity: 2000, rate: rate)
        #expect(abs(s.contentOffset.y - expected) <= 0.5, "\(s.contentOffset.y - expected)")
        #expect(abs(expected - start - (rate == .normal ? 999 : 199)) < 1)
        #expect(
            log.calls == [
                "willBeginDragging", "didScroll", "willEndDragging", "didEndDragging(true)", "willBeginDecelerating", "didScroll",
                "didEndDecelerating",
            ])
    }

    @Test func aFlingIntoAnEdgeSpringsBackToIt() {
        let (d, s, log) = make(content: Size(width: 400, height: 1000))
        s.contentOffset = Point(x: 0, y: 300)
        let release = drag(d, dy: 160, duration: 0.08)  // 2000 pt/s toward the top
        var overshoot = 0.0
        let end = run(d, from: release) {
            overshoot = Swift.min(overshoot, s.contentOffset.y)
            return !s.isDecelerating
        }
        #expect(overshoot < -5)  // went past the top
        #expect(s.contentOffset.y == 0)  // and settled on it
        #expect(end - release < 3)
        #expect(log.calls.suffix(3) == ["willBeginDecelerating", "didScroll", "didEndDecelerating"])
    }

    @Test func draggingPastAnEdgeIsRubberBandedAndSpringsBack() {
        let (d, s, _) = make(content: Size(width: 400, height: 1000))
        let release = drag(d, y0: 100, dy: 300, duration: 0.5, pause: 0.1)
        #expect(abs(s.contentOffset.y - ScrollPhysics.rubberBand(-300, dimension: 600)) < 1e-6)
        run(d, from: release) { !s.isDecelerating }
        #expect(s.contentOffset.y == 0)
        // Without bounces it stops at the edge.
        s.bounces = false
        drag(d, y0: 100, dy: 300, duration: 0.5, pause: 0.1, at: 20)
        #expect(s.contentOffset.y == 0)
    }

    @Test func pagingAndSnappingLandExactly() {
        let (d, s, log) = make(content: Size(width: 400, height: 6000))
        s.isPagingEnabled = true
        let release = drag(d, dy: -100, duration: 0.05)  // a flick up: the next page
        run(d, from: release) { !s.isDecelerating }
        #expect(s.contentOffset.y == 600)
        // A delegate snaps flings to multiples of 250.
        s.isPagingEnabled = false
        log.retarget = { p in Point(x: p.x, y: (p.y / 250).rounded() * 250) }
        let r2 = drag(d, dy: -150, duration: 0.1, at: 20)
        run(d, from: r2) { !s.isDecelerating }
        #expect(s.contentOffset.y.truncatingRemainder(dividingBy: 250) == 0)
        #expect(s.contentOffset.y > 600)
    }

    @Test func anAnimatedScrollEndsWithItsCallback() {
        let (d, s, log) = make()
        s.setContentOffset(Point(x: 0, y: 1200), animated: true)
        run(d, from: 0) { s.contentOffset.y == 1200 }
        #expect(log.calls == ["didScroll", "didEndScrollingAnimation"])
        s.scrollRectToVisible(Rect(x: 0, y: 3000, width: 10, height: 100), animated: false)
        #expect(s.contentOffset.y == 2500)
        s.scrollToTop(animated: false)
        #expect(s.contentOffset.y == 0)
        s.setContentOffset(Point(x: 0, y: 1e12), animated: false)
        #expect(s.contentOffset.y == 4400)
        s.setContentOffset(Point(x: .nan, y: 0), animated: false)
        #expect(s.contentOffset.y == 4400)
    }

    @Test func wheelAndTrackpadScroll() {
        let (d, s, _) = make(content: Size(width: 400, height: 1000))
        d.send(.scroll(.wheel(lines: Size(width: 0, height: 3), at: Point(x: 10, y: 10), timestamp: 0)))
        #expect(s.contentOffset.y == 120)
        d.send(.scroll(.wheel(lines: Size(width: 0, height: 100), at: Point(x: 10, y: 10), timestamp: 0.1)))
        #expect(s.contentOffset.y == 400)
        // A trackpad past the top is rubber-banded, then springs back.
        s.contentOffset = Point(x: 0, y: 0)
        d.send(.scroll(.precise(Size(width: 0, height: -50), phase: .began, at: Point(x: 10, y: 10), timestamp: 1)))
        d.send(.scroll(.precise(Size(width: 0, height: -50), phase: .changed, at: Point(x: 10, y: 10), timestamp: 1.02)))
        #expect(abs(s.contentOffset.y - ScrollPhysics.rubberBand(-100, dimension: 600)) < 1e-6)
        d.send(.scroll(.precise(Size(width: 0, height: 0), phase: .ended, at: Point(x: 10, y: 10), timestamp: 1.05)))
        run(d, from: 1.05) { !s.isDecelerating }
        #expect(s.contentOffset.y == 0)
    }

    @Test func hostileSizesAreHeld() {
        let (_, s, _) = make()
        s.contentSize = Size(width: .nan, height: -5)
        #expect(s.contentSize == Size(width: 0, height: 0))
        #expect(s.maximumContentOffset == Point(x: 0, y: 0))
        s.contentInset = EdgeInsets(top: .infinity, left: -1e30, bottom: 0, right: 0)
        #expect(s.contentInset.top == 0 && s.contentInset.left == -1e7)
    }
}
