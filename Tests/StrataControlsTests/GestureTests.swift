import StrataGraphics
import StrataLayers
import Testing

@testable import StrataControls

@Suite struct VelocityTrackerTests {
    @Test func constantSpeedIsMeasuredExactly() {
        var t = VelocityTracker()
        for i in 0...12 { t.add(Point(x: 100 + 1500 * Double(i) * 0.008, y: 50 - 300 * Double(i) * 0.008), at: Double(i) * 0.008) }
        let v = t.velocity()
        #expect(abs(v.x - 1500) < 1e-6 && abs(v.y + 300) < 1e-6)
    }

    @Test func accelerationGivesTheSpeedAtTheNewestSample() {
        // x = 2000 t², v = 4000 t: at t = 0.096, 384.
        var t = VelocityTracker()
        for i in 0...12 {
            let s = Double(i) * 0.008
            t.add(Point(x: 2000 * s * s, y: 0), at: s)
        }
        #expect(abs(t.velocity().x - 4000 * 0.096) < 1e-6)
    }

    @Test func onlyTheLast100MillisecondsCount() {
        var t = VelocityTracker()
        // Fast for a long time, then 100 ms and more at 200 pt/s.
        for i in 0..<50 { t.add(Point(x: Double(i) * 50, y: 0), at: Double(i) * 0.01) }
        let x0 = 49.0 * 50
        for i in 1...15 { t.add(Point(x: x0 + 200 * Double(i) * 0.01, y: 0), at: 0.49 + Double(i) * 0.01) }
        #expect(abs(t.velocity().x - 200) < 1e-6)
    }

    @Test func aPauseBeforeReleaseIsZero() {
        var t = VelocityTracker()
        for i in 0...10 { t.add(Point(x: Double(i) * 20, y: 0), at: Double(i) * 0.01) }
        #expect(t.velocity(at: 0.1).x > 1000)
        #expect(t.velocity(at: 0.2) == Point(x: 0, y: 0))
        // A gap between samples cuts the older ones off: one sample left.
        t.add(Point(x: 200, y: 0), at: 0.3)
        #expect(t.velocity() == Point(x: 0, y: 0))
        t.add(Point(x: 210, y: 0), at: 0.31)
        #expect(abs(t.velocity().x - 1000) < 1e-6)
    }

    @Test func badSamplesAreIgnored() {
        var t = VelocityTracker()
        #expect(t.velocity() == Point(x: 0, y: 0))
        t.add(Point(x: .nan, y: 0), at: 0)
        t.add(Point(x: 0, y: 0), at: .infinity)
        t.add(Point(x: 0, y: 0), at: 1)
        t.add(Point(x: 5, y: 0), at: 0.5)  // out of order
        t.add(Point(x: 10, y: 0), at: 1.01)
        #expect(abs(t.velocity().x - 1000) < 1e-6)
        // Samples at one instant do not divide by zero.
        var same = VelocityTracker()
        same.add(Point(x: 0, y: 0), at: 1)
        same.add(Point(x: 9, y: 0), at: 1)
        #expect(same.velocity().x.isFinite)
    }
}

/// A view that records the pointer events it handles.
@MainActor
final class RecordingView: View {
    var events: [PointerEvent.Phase] = []
    var handles = true
    var scrolls: [Size] = []
    var keys: [Key] = []
    override func pointerEvent(_ event: PointerEvent) -> Bool {
        guard handles else { return false }
        events.append(event.phase)
        return true
    }
    override func scrollEvent(_ event: ScrollEvent) -> Bool {
        guard handles else { return false }
        scrolls.append(event.delta)
        return true
    }
    override var canBecomeFirstResponder: Bool { true }
    override func keyEvent(_ event: KeyEvent) -> Bool {
        guard handles else { return false }
        keys.append(event.key)
        return true
    }
}

@MainActor
@Suite struct DispatchTests {
    func tree() -> (InputDispatcher, View, RecordingView, RecordingView) {
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let a = RecordingView(frame: Rect(x: 20, y: 20, width: 200, height: 200))
        let b = RecordingView(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        root.addSubview(a)
        a.addSubview(b)
        return (InputDispatcher(rootView: root), root, a, b)
    }

    func down(_ x: Double, _ y: Double, _ t: Double) -> InputEvent { .pointer(PointerEvent(.down, at: Point(x: x, y: y), timestamp: t)) }
    func move(_ x: Double, _ y: Double, _ t: Double) -> InputEvent { .pointer(PointerEvent(.moved, at: Point(x: x, y: y), timestamp: t)) }
    func up(_ x: Double, _ y: Double, _ t: Double) -> InputEvent { .pointer(PointerEvent(.up, at: Point(x: x, y: y), timestamp: t)) }

    @Test func hitTestingFindsTheDeepestViewThatTakesInput() {
        let (_, root, a, b) = tree()
        #expect(root.hitTest(Point(x: 100, y: 100)) === b)
        #expect(root.hitTest(Point(x: 30, y: 30)) === a)
        #expect(root.hitTest(Point(x: 300, y: 250)) === root)
        #expect(root.hitTest(Point(x: 500, y: 10)) == nil)
        b.isUserInteractionEnabled = false
        #expect(root.hitTest(Point(x: 100, y: 100)) === a)
        a.isHidden = true
        #expect(root.hitTest(Point(x: 100, y: 100)) === root)
        // Transforms are followed: b turned half a turn about its centre.
        a.isHidden = false
        b.isUserInteractionEnabled = true
        b.layer.transform = Transform3D(rotationAngle: .pi, x: 0, y: 0, z: 1)
        #expect(root.hitTest(Point(x: 100, y: 100)) === b)
        // Root (80, 80) is b's (10, 10) unturned: turned, (90, 90).
        let p = b.convert(Point(x: 80, y: 80), from: nil)
        #expect(abs(p.x - 90) < 1e-9 && abs(p.y - 90) < 1e-9)
    }

    @Test func theViewThatTakesADownCapturesThePointer() {
        let (d, _, a, b) = tree()
        d.send(down(100, 100, 0))
        d.send(move(390, 290, 0.01))  // outside both: still b's
        d.send(up(390, 290, 0.02))
        #expect(b.events == [.down, .moved, .up])
        #expect(a.events.isEmpty)
        // A view that does not handle the down passes it up the chain.
        b.handles = false
        d.send(down(100, 100, 1))
        d.send(up(100, 100, 1.01))
        #expect(a.events == [.down, .up])
        // Bad coordinates are refused.
        #expect(!d.send(down(.nan, 0, 2)))
    }

    @Test func scrollsAndKeysFollowTheirChains() {
        let (d, _, a, b) = tree()
        d.send(.scroll(.wheel(lines: Size(width: 0, height: 2), at: Point(x: 100, y: 100), timestamp: 0)))
        #expect(b.scrolls == [Size(width: 0, height: 80)])
        b.handles = false
        d.send(.scroll(.precise(Size(width: 3, height: .nan), phase: .changed, at: Point(x: 100, y: 100), timestamp: 0)))
        #expect(a.scrolls == [Size(width: 3, height: 0)])
        #expect(!d.send(.key(KeyEvent(.down, key: .left, timestamp: 0))))
        #expect(b.becomeFirstResponder() && b.isFirstResponder)
        d.send(.key(KeyEvent(.down, key: .right, timestamp: 0)))
        #expect(a.keys == [.right] && b.keys.isEmpty)
        b.removeFromSuperview()
        #expect(d.firstResponder == nil)
    }

    @Test func aTapRecognizes() {
        let (d, _, _, b) = tree()
        var taps = 0
        let tap = TapGestureRecognizer { _ in taps += 1 }
        b.addGestureRecognizer(tap)
        d.send(down(100, 100, 0))
        d.send(up(102, 101, 0.1))
        #expect(taps == 1 && tap.state == .possible)  // recognized, then reset
        // Moving too far fails it.
        d.send(down(100, 100, 1))
        d.send(move(130, 100, 1.05))
        d.send(up(130, 100, 1.1))
        #expect(taps == 1)
    }

    @Test func aSingleTapWaitsForTheDoubleTapToFail() {
        let (d, _, _, b) = tree()
        var log: [String] = []
        let double = TapGestureRecognizer { _ in log.append("double") }
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer { _ in log.append("single") }
        single.require(toFail: double)
        b.addGestureRecognizer(single)
        b.addGestureRecognizer(double)
        // A double tap: only the double.
        d.send(down(100, 100, 0))
        d.send(up(100, 100, 0.05))
        d.frame(at: 0.1)
        #expect(log.isEmpty)
        d.send(down(101, 100, 0.2))
        d.send(up(101, 100, 0.25))
        #expect(log == ["double"])
        // A single tap: the single, once the double's time has run out.
        d.send(down(100, 100, 2))
        d.send(up(100, 100, 2.05))
        d.frame(at: 2.2)
        #expect(log == ["double"])
        d.frame(at: 2.5)
        #expect(log == ["double", "single"])
    }

    @Test func aLongPressBeginsOnTime() {
        let (d, _, _, b) = tree()
        var states: [GestureRecognizer.State] = []
        let press = LongPressGestureRecognizer { states.append($0.state) }
        b.addGestureRecognizer(press)
        d.send(down(100, 100, 0))
        d.frame(at: 0.4)
        #expect(states.isEmpty)
        d.frame(at: 0.5)
        #expect(states == [.began])
        #expect(b.events == [.down, .cancelled])  // the view lost the pointer
        d.send(move(104, 100, 0.6))
        d.send(up(104, 100, 0.7))
        #expect(states == [.began, .changed, .ended])
        // Moving before the time fails it.
        d.send(down(100, 100, 1))
        d.send(move(120, 100, 1.1))
        d.frame(at: 1.6)
        d.send(up(120, 100, 1.7))
        #expect(states.count == 3)
    }

    @Test func aPanReportsTranslationAndReleaseVelocity() {
        let (d, _, a, b) = tree()
        var states: [GestureRecognizer.State] = []
        var translations: [Point] = []
        let pan = PanGestureRecognizer { g in
            states.append(g.state)
            translations.append((g as! PanGestureRecognizer).translation(in: nil))
        }
        a.addGestureRecognizer(pan)
        // 1000 pt/s to the left, samples every 8 ms.
        d.send(down(150, 100, 0))
        for i in 1...12 { d.send(move(150 - 8 * Double(i), 100, Double(i) * 0.008)) }
        d.send(up(150 - 8 * 12, 100, 0.096))
        #expect(states.first == .began && states.last == .ended)
        #expect(states.dropFirst().dropLast().allSatisfy { $0 == .changed })
        #expect(translations.last == Point(x: -96, y: 0))
        #expect(abs(pan.velocity.x + 1000) < 1e-6)
        // b, under the pointer, saw it go down and then be cancelled.
        #expect(b.events == [.down, .cancelled])
        // A drag that stops before release ends with no velocity.
        d.send(down(150, 100, 1))
        for i in 1...5 { d.send(move(150 + 10 * Double(i), 100, 1 + Double(i) * 0.01)) }
        d.send(up(200, 100, 1.2))
        #expect(pan.velocity == Point(x: 0, y: 0))
    }

    @Test func recognizersGiveWayUnlessSimultaneous() {
        let (d, _, a, b) = tree()
        var inner = 0, outer = 0
        let innerPan = PanGestureRecognizer { g in if g.state == .began { inner += 1 } }
        let outerPan = PanGestureRecognizer { g in if g.state == .began { outer += 1 } }
        b.addGestureRecognizer(innerPan)
        a.addGestureRecognizer(outerPan)
        func drag(_ t: Double) {
            d.send(down(100, 100, t))
            d.send(move(130, 100, t + 0.01))
            d.send(up(130, 100, t + 0.02))
        }
        drag(0)
        #expect(inner == 1 && outer == 0)  // the deepest first; the other fails
        outerPan.shouldRecognizeSimultaneously = { _, _ in true }
        drag(1)
        #expect(inner == 2 && outer == 1)
        // A disabled recognizer sees nothing.
        innerPan.isEnabled = false
        outerPan.shouldRecognizeSimultaneously = nil
        drag(2)
        #expect(inner == 2 && outer == 2)
        // One that may not begin fails.
        outerPan.shouldBegin = { _ in false }
        drag(3)
        #expect(outer == 2)
    }

    @Test func aDispatcherFollowsItsHostsFrames() throws {
        let host = try LayerHost(width: 200, height: 100)
        let root = View()
        let d = InputDispatcher(rootView: root, host: host)
        #expect(root.frame == Rect(x: 0, y: 0, width: 200, height: 100))
        let press = LongPressGestureRecognizer()
        root.addGestureRecognizer(press)
        d.send(down(10, 10, 0))
        for _ in 0..<40 { host.advance() }
        #expect(press.state == .began)
        d.detach()
    }
}

@MainActor
@Suite struct GestureScriptTests {
    @Test func aDragIsEvenlyTimedAndPlaysFrameByFrame() throws {
        let drag = GestureScript.drag(from: Point(x: 300, y: 40), to: Point(x: 100, y: 40), duration: 0.12)
        #expect(drag.duration == 0.12)
        #expect(drag.events.count == 2 + 15)  // down, 15 moves at 125 a second, up
        let tapAfter = drag.then(.tap(at: Point(x: 5, y: 5)), after: 0.5)
        #expect(abs(tapAfter.duration - (0.12 + 0.5 + 0.05)) < 1e-12)
        // Played on a ruler: the pan sees exactly the drag's speed.
        let host = try LayerHost(width: 400, height: 80)
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 80))
        let ruler = RulerView(frame: root.bounds, scale: try RulerScale(step: 1, minimum: 0, maximum: 10_000))
        root.addSubview(ruler)
        try ruler.setValue(5000, animated: false)
        let d = InputDispatcher(rootView: root, host: host)
        var velocity = Point(x: 0, y: 0)
        ruler.panGestureRecognizer.addAction { g in if g.state == .ended { velocity = (g as! PanGestureRecognizer).velocity } }
        var seen = 0
        let frames = try drag.play(on: d, host: host, settle: { !ruler.isDecelerating }, onFrame: { _ in seen += 1 })
        #expect(abs(velocity.x + 200 / 0.12) < 1e-6)
        #expect(frames == seen && frames > 60)
        #expect(!ruler.isDecelerating)
        // A fling must have a finite velocity.
        #expect(throws: GestureScript.ScriptError.self) {
            _ = try GestureScript.fling(from: Point(x: 0, y: 0), velocity: Point(x: .nan, y: 0))
        }
        #expect(try GestureScript.fling(from: Point(x: 0, y: 0), velocity: Point(x: 1000, y: 0)).duration == 0.08)
        // A host without a manual clock cannot play a script.
        let live = try LayerHost(width: 10, height: 10, clock: SystemClock.shared)
        #expect(throws: GestureScript.ScriptError.self) { try GestureScript.tap(at: Point(x: 1, y: 1)).play(on: d, host: live) }
    }
}
