import Foundation
import StrataGraphics
import StrataLayers
import Testing

@testable import StrataControls

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
