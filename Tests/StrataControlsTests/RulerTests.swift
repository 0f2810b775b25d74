import Foundation
import StrataGraphics
import StrataLayers
import Testing

@_spi(Benchmarks) @testable import StrataControls

@MainActor
@Suite struct RulerTests {
    func make(step: Double = 0.1, min: Double = 0, max: Double = 300, value: Double = 72.5, width: Double = 320) throws -> (
        LayerHost, InputDispatcher, RulerView
    ) {
        let host = try LayerHost(width: Int(width), height: 80)
        let root = View(frame: Rect(x: 0, y: 0, width: width, height: 80))
        let ruler = RulerView(frame: Rect(x: 0, y: 0, width: width, height: 80), scale: try RulerScale(step: step, minimum: min, maximum: max))
        ruler.backgroundColor = .white
        root.addSubview(ruler)
        let d = InputDispatcher(rootView: root, host: host)
        try ruler.setValue(value, animated: false)
        host.renderFrame()
        return (host, d, ruler)
    }

    func fling(_ d: InputDispatcher, _ host: LayerHost, from x0: Double = 250, by dx: Double, in duration: Double) {
        let clock = host.clock as! ManualClock
        let t0 = clock.now
        d.send(.pointer(PointerEvent(.down, at: Point(x: x0, y: 40), timestamp: t0)))
        let steps = Swift.max(1, Int(duration / 0.008))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            d.send(.pointer(PointerEvent(.moved, at: Point(x: x0 + dx * f, y: 40), timestamp: t0 + duration * f)))
        }
        clock.set(t0 + duration)
        d.send(.pointer(PointerEvent(.up, at: Point(x: x0 + dx, y: 40), timestamp: t0 + duration)))
    }

    @Test func theValueIsTheTickUnderThePointer() throws {
        let (_, _, r) = try make()
        #expect(r.tickIndex == 725 && r.value == 72.5)
        try r.setValue(1e9, animated: false)  // held to the maximum
        #expect(r.value == 300)
        try r.setValue(-5, animated: false)
        #expect(r.value == 0)
        // A million ticks away is exact: index times step, no drift.
        let (_, _, wide) = try make(step: 0.1, min: -1e7, max: 1e7, value: 0)
        try wide.setValue(100_000.0, animated: false)
        #expect(wide.tickIndex == 1_000_000 && wide.value == Double(1_000_000) * 0.1)
        #expect(throws: RulerError.self) { try wide.setValue(.nan, animated: false) }
        #expect(throws: RulerError.self) { try wide.setValue(.infinity, animated: true) }
    }

    @Test func badScalesAreErrors() {
        #expect(throws: RulerError.invalidStep(0)) { _ = try RulerScale(step: 0, minimum: 0, maximum: 1) }
        #expect(throws: RulerError.invalidStep(-1)) { _ = try RulerScale(step: -1, minimum: 0, maximum: 1) }
        #expect(throws: RulerError.self) { _ = try RulerScale(step: .nan, minimum: 0, maximum: 1) }
        #expect(throws: RulerError.minimumAboveMaximum(5, 1)) { _ = try RulerScale(step: 1, minimum: 5, maximum: 1) }
        #expect(throws: RulerError.invalidBound(.infinity)) { _ = try RulerScale(step: 1, minimum: 0, maximum: .infinity) }
        #expect(throws: RulerError.self) { _ = try RulerScale(step: 1e-300, minimum: 0, maximum: 1) }
        #expect(RulerError.invalidStep(0).description.contains("above 0"))
    }

    @Test func aFlingComesToRestOnATickWithoutNewLayers() throws {
        let (host, d, r) = try make(min: -1e6, max: 1e6, value: 0)
        var changes: [RulerValueChange] = []
        var perFrame: [Int] = []
        r.onValueChanged = { changes.append($0) }
        let created = r.blocksCreated
        #expect(created > 0)
        fling(d, host, by: -200, in: 0.08)  // 2500 pt/s to the left: values grow
        var frames = 0
        while r.isDecelerating && frames < 600 {
            let before = changes.count
            host.advance()
            perFrame.append(changes.count - before)
            frames += 1
        }
        host.advance()
        #expect(!r.isDecelerating)
        #expect(r.blocksCreated == created)  // reused, none made
        #expect((perFrame.max() ?? 0) <= 1)  // at most one callback a frame
        #expect(changes.last?.isFinal == true && changes.last?.tickIndex == r.tickIndex)
        // 200 pt dragged (20 ticks) and 2500 pt/s flung (1,249 pt more): 14.5.
        #expect(abs(r.value - 14.5) < 0.15, "\(r.value)")
        // At rest exactly on a tick: the offset puts the tick under the pointer.
        let o = r.contentOffset.x + 160
        let fraction = (o / 10).rounded() - o / 10
        #expect(abs(fraction) < 1e-9)
    }

    @Test func aLongFlingAcrossRecentresLandsWhereTheFormulaSays() throws {
        let (host, d, r) = try make(min: 0, max: 1e6, value: 72.5, width: 480)
        var perFrame: [Int] = []
        var calls = 0
        r.onValueChanged = { _ in calls += 1 }
        // 20,000 pt/s: 1,600 pt dragged, then 9,990 pt of fling, five seconds long.
        fling(d, host, from: 400, by: -1600, in: 0.08)
        var frames = 0
        while r.isDecelerating && frames < 1000 {
            let before = calls
            host.advance()
            perFrame.append(calls - before)
            frames += 1
        }
        host.advance()
        #expect(r.recentreCount >= 1)
        #expect(abs(Double(frames) / 60 - 4.95) < 0.1)
        // 1,600 pt is 160 ticks (16); 20,000 / 2.002 = 9,990 pt is 999 ticks (99.9).
        #expect(abs(r.value - (72.5 + 16 + 99.9)) <= 0.15, "\(r.value)")
        #expect((perFrame.max() ?? 0) == 1)
    }

    @Test func recentringDoesNotChangeThePicture() throws {
        func picture(recentring: Bool) throws -> (Image, Int) {
            let (host, _, r) = try make(min: -1e6, max: 1e6, value: 0)
            r.recentres = recentring
            // Far from the middle of the strip, at once.
            r.contentOffset = Point(x: r.contentOffset.x + 7_000.5, y: 0)
            host.renderFrame()
            return (host.makeImage(), r.recentreCount)
        }
        let (moved, count) = try picture(recentring: true)
        let (plain, none) = try picture(recentring: false)
        #expect(count == 1 && none == 0)
        #expect(moved == plain)
    }

    @Test func theEndsRubberBandOrWrap() throws {
        let (host, d, r) = try make(min: 0, max: 300, value: 0.5)
        fling(d, host, by: 300, in: 0.5)  // drag past the minimum, slowly
        #expect(r.value == 0)
        #expect(r.contentOffset.x < r.minimumContentOffset.x)
        for _ in 0..<120 { host.advance() }
        #expect(abs(r.contentOffset.x - r.minimumContentOffset.x) < 1e-9 && r.value == 0)
        // Wrapping: one past the maximum is the minimum.
        r.wrapsAround = true
        try r.setValue(300, animated: false)
        r.step(by: 1)
        #expect(r.value == 0)
        r.step(by: -2)
        #expect(abs(r.value - 299.9) < 1e-9)
    }

    @Test func keysAndTheWheelStepByTicks() throws {
        let (_, d, r) = try make(value: 50)
        #expect(r.becomeFirstResponder())
        d.send(.key(KeyEvent(.down, key: .right, timestamp: 0)))
        #expect(abs(r.value - 50.1) < 1e-9)
        d.send(.key(KeyEvent(.down, key: .pageDown, timestamp: 0)))
        #expect(abs(r.value - 51.1) < 1e-9)
        d.send(.key(KeyEvent(.down, key: .home, timestamp: 0)))
        #expect(r.value == 0)
        d.send(.key(KeyEvent(.down, key: .end, timestamp: 0)))
        #expect(r.value == 300)
        d.send(.scroll(.wheel(lines: Size(width: 0, height: -3), at: Point(x: 100, y: 40), timestamp: 0)))
        #expect(abs(r.value - 299.7) < 1e-9)
        // Right to left: the right arrow goes down.
        r.isRightToLeft = true
        d.send(.key(KeyEvent(.down, key: .right, timestamp: 0)))
        #expect(abs(r.value - 299.6) < 1e-9)
    }

    @Test func theValueIsTheTickNearestThePointer() throws {
        let (host, _, r) = try make(step: 0.25, min: -10, max: 10, value: 0)
        let at0 = r.contentOffset.x
        // On a tick, and just short of halfway to the next (ticks 10 pt apart).
        for (shift, index) in [(0.0, 0), (10.0, 1), (4.9, 0), (5.1, 1), (-14.9, -1), (-15.1, -2)] {
            r.contentOffset = Point(x: at0 + shift, y: 0)
            host.renderFrame()
            #expect(r.tickIndex == index, "\(shift)")
            #expect(r.value == Double(index) * 0.25)
        }
    }

    @Test func aVerticalRulerRunsDown() throws {
        let host = try LayerHost(width: 100, height: 400)
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 400))
        let r = RulerView(frame: root.bounds, scale: try RulerScale(step: 1, minimum: 0, maximum: 250))
        r.orientation = .vertical
        root.addSubview(r)
        try r.setValue(120, animated: false)
        let d = InputDispatcher(rootView: root, host: host)
        #expect(r.value == 120)
        // Dragging up 100 pt at 100 pt/s: ten ticks, and five more of fling.
        try GestureScript.drag(from: Point(x: 50, y: 300), to: Point(x: 50, y: 200), duration: 1)
            .play(on: d, host: host, settle: { !r.isDecelerating })
        #expect(abs(r.value - 135) <= 1, "\(r.value)")
        #expect(r.becomeFirstResponder())
        let before = r.value
        d.send(.key(KeyEvent(.down, key: .down, timestamp: 10)))
        #expect(r.value == before + 1)
    }

    @Test func rightToLeftDragsTheOtherWay() throws {
        let (host, d, r) = try make(value: 100)
        r.isRightToLeft = true
        try r.setValue(100, animated: false)
        fling(d, host, by: 100, in: 1)  // drag right at 100 pt/s: values grow in RTL
        for _ in 0..<120 { host.advance() }
        // 10 ticks dragged and 50 pt (5 ticks) of fling: 101.5.
        #expect(abs(r.value - 101.5) < 0.15, "\(r.value)")
    }
}

/// What a review found: flings past the strip's ends, trackpads, jumps
/// during motion, touch-down, scale changes, resizing, hostile numbers.
@MainActor
@Suite struct RulerEdgeCaseTests {
    func make(width: Double = 314, min: Double = 0, max: Double = 1e6, value: Double = 500) throws -> (
        LayerHost, InputDispatcher, RulerView
    ) {
        let host = try LayerHost(width: Int(width), height: 80)
        let root = View(frame: Rect(x: 0, y: 0, width: width, height: 80))
        let r = RulerView(frame: root.bounds, scale: try RulerScale(step: 0.1, minimum: min, maximum: max))
        root.addSubview(r)
        try r.setValue(value, animated: false)
        return (host, InputDispatcher(rootView: root, host: host), r)
    }

    /// Whether a tick sits exactly under the pointer.
    func onTick(_ r: RulerView) -> Bool {
        let c = r.contentOffset.x + r.bounds.width / 2
        return abs((c / 10).rounded() - c / 10) < 1e-9
    }

    @Test func aFlingFartherThanTheStripLandsOnItsTickInOneMotion() throws {
        let (host, d, r) = try make()
        var finals = 0
        r.onValueChanged = { if $0.isFinal { finals += 1 } }
        try GestureScript.fling(from: Point(x: 250, y: 40), velocity: Point(x: -20_000, y: 0))
            .play(on: d, host: host, settle: { !r.isDecelerating })
        // At rest the moment the fling ends: on a tick, at the formula's distance.
        #expect(onTick(r))
        // 1,600 pt dragged (16.0) and 9,990 pt of fling (99.9).
        #expect(abs(r.value - (500 + 16 + 99.9)) <= 0.2, "\(r.value)")
        host.advance()
        #expect(finals == 1 && onTick(r))
    }

    @Test func aTrackpadScrollEndsOnATick() throws {
        let (host, d, r) = try make()
        d.send(.scroll(.precise(Size(width: 13.3, height: 0), phase: .began, at: Point(x: 10, y: 10), timestamp: 0)))
        d.send(.scroll(.precise(Size(width: 4.4, height: 0), phase: .changed, at: Point(x: 10, y: 10), timestamp: 0.02)))
        d.send(.scroll(.precise(Size(width: 0, height: 0), phase: .ended, at: Point(x: 10, y: 10), timestamp: 0.04)))
        for _ in 0..<60 { host.advance() }
        // 17.7 pt is 1.77 ticks: it settles on the second.
        #expect(onTick(r) && abs(r.value - 500.2) < 1e-9, "\(r.value)")
    }

    @Test func aKeyOrATouchDuringAFlingStopsIt() throws {
        let (host, d, r) = try make()
        try GestureScript.fling(from: Point(x: 250, y: 40), velocity: Point(x: -3000, y: 0))
            .play(on: d, host: host, settle: { true })
        for _ in 0..<10 { host.advance() }
        #expect(r.isDecelerating)
        #expect(r.becomeFirstResponder())
        let mid = r.value
        d.send(.key(KeyEvent(.down, key: .right, timestamp: (host.clock as! ManualClock).now)))
        #expect(!r.isDecelerating && abs(r.value - (mid + 0.1)) < 1e-9)
        for _ in 0..<60 { host.advance() }
        #expect(abs(r.value - (mid + 0.1)) < 1e-9 && onTick(r))
        // A touch catches a fling, and lifting it leaves the ruler on a tick.
        try GestureScript.fling(from: Point(x: 250, y: 40), velocity: Point(x: -3000, y: 0))
            .play(on: d, host: host, settle: { true })
        for _ in 0..<10 { host.advance() }
        try GestureScript.tap(at: Point(x: 100, y: 40)).play(on: d, host: host, settle: { !r.isDecelerating })
        for _ in 0..<60 { host.advance() }
        #expect(!r.isDecelerating && onTick(r))
    }

    @Test func aNewScaleOrSizeKeepsTheValue() throws {
        let (host, _, r) = try make(value: 72.5)
        r.scale = try RulerScale(step: 0.5, minimum: 0, maximum: 500)
        #expect(r.value == 72.5)
        r.frame = Rect(x: 0, y: 0, width: 200, height: 80)
        host.renderFrame()
        #expect(r.value == 72.5)
        let c = r.contentOffset.x + 100
        #expect(abs((c / 10).rounded() - c / 10) < 1e-9)
    }

    @Test func hostileNumbersDoNotTrap() throws {
        let (host, d, r) = try make(min: -1e9, max: 1e9, value: 0)
        d.send(.scroll(.wheel(lines: Size(width: 1e19, height: 0), at: Point(x: 10, y: 10), timestamp: 0)))
        r.step(by: .max)
        #expect(r.value == 1e9)
        r.step(by: .min)
        #expect(r.value == -1e9)
        r.contentOffset = Point(x: 1e21, y: 0)
        r.contentOffset = Point(x: -1e300, y: 0)
        host.renderFrame()
        #expect(r.value.isFinite)
        // Events with wild times do not leave a motion running for ever.
        try r.setValue(0, animated: false)
        d.send(.pointer(PointerEvent(.down, at: Point(x: 200, y: 40), timestamp: .nan)))
        d.send(.pointer(PointerEvent(.moved, at: Point(x: 150, y: 40), timestamp: 1e300)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: 100, y: 40), timestamp: .infinity)))
        var frames = 0
        while r.isDecelerating && frames < 600 {
            host.advance()
            frames += 1
        }
        #expect(!r.isDecelerating)
    }
}

@MainActor
@Suite struct DispatcherEdgeCaseTests {
    @Test func aLostReleaseDoesNotBlockTheNextPointer() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let v = RecordingView(frame: root.bounds)
        root.addSubview(v)
        let d = InputDispatcher(rootView: root)
        d.send(.pointer(PointerEvent(.down, at: Point(x: 10, y: 10), timestamp: 0)))
        d.send(.pointer(PointerEvent(.down, at: Point(x: 20, y: 20), timestamp: 1)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: 20, y: 20), timestamp: 1.1)))
        #expect(v.events == [.down, .cancelled, .down, .up])
    }

    @Test func aRecognizerDisabledMidDragStaysQuiet() {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        let d = InputDispatcher(rootView: root)
        var began = 0
        let pan = PanGestureRecognizer { if $0.state == .began { began += 1 } }
        root.addGestureRecognizer(pan)
        d.send(.pointer(PointerEvent(.down, at: Point(x: 10, y: 10), timestamp: 0)))
        d.send(.pointer(PointerEvent(.moved, at: Point(x: 40, y: 10), timestamp: 0.1)))
        pan.isEnabled = false
        pan.isEnabled = true
        d.send(.pointer(PointerEvent(.moved, at: Point(x: 80, y: 10), timestamp: 0.2)))
        d.send(.pointer(PointerEvent(.up, at: Point(x: 80, y: 10), timestamp: 0.3)))
        #expect(began == 1)
    }

    @Test func pagingSettlesInUnderASecond() throws {
        let host = try LayerHost(width: 400, height: 600)
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 600))
        let s = ScrollView(frame: root.bounds)
        s.contentSize = Size(width: 400, height: 6000)
        s.isPagingEnabled = true
        root.addSubview(s)
        let d = InputDispatcher(rootView: root, host: host)
        let frames = try GestureScript.drag(from: Point(x: 200, y: 400), to: Point(x: 200, y: 380), duration: 0.05)
            .play(on: d, host: host, settle: { !s.isDecelerating })
        #expect(s.contentOffset.y == 600)
        #expect(Double(frames) / 60 < 1)
        // A script with no end in sight still stops.
        let forever = try GestureScript.tap(at: Point(x: 1, y: 1)).play(on: d, host: host, maximumDuration: .nan, settle: { false })
        #expect(forever <= 60 * 60 + 1)
    }
}
