import StrataLayers
import Testing

/// The frame pacing every window shares (`FrameScheduler`), on a manual clock.
@Suite @MainActor struct FrameSchedulerTests {
    func near(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-12 } ?? false }

    @Test func framesComeAnIntervalApartAndSoonerAfterInput() {
        let clock = ManualClock()
        var frames = FrameScheduler(framesPerSecond: 50)  // 20 ms
        #expect(frames.interval == 0.02)
        // The first frame: at once.
        let first = frames.schedule(now: clock.now)
        #expect(first == clock.now && frames.deadline == clock.now)
        // Asked again for a later time: the earlier deadline stands.
        #expect(frames.schedule(now: clock.now + 0.5) == nil)
        #expect(frames.fire(now: clock.now) == first && frames.deadline == nil)
        frames.framePresented(at: clock.now)
        // A change 5 ms later: a frame an interval after the last one.
        clock.advance(by: 0.005)
        #expect(near(frames.schedule(now: clock.now), 0.02))
        // Input then: half an interval after the last frame, earlier, so it wins.
        #expect(near(frames.schedule(now: clock.now, afterInput: true), 0.01))
        // Input long after the last frame: at once.
        _ = frames.fire(now: clock.now)
        clock.advance(by: 1)
        #expect(frames.schedule(now: clock.now, afterInput: true) == clock.now)
    }

    @Test func busyFramesKeepTheDeadlinesCadence() {
        let clock = ManualClock()
        var frames = FrameScheduler(framesPerSecond: 60)
        let interval = 1.0 / 60
        var due = frames.schedule(now: clock.now)!
        var shown: [Double] = []
        for k in 0..<6 {
            // The timer fires a little late, and the frame takes 4 ms more.
            clock.advance(by: due - clock.now + 0.001)
            let fired = frames.fire(now: clock.now)
            #expect(fired == due)
            clock.advance(by: 0.004)
            frames.framePresented(at: clock.now)
            shown.append(clock.now)
            due = frames.next(now: clock.now, afterDeadline: fired)!
            // On the deadlines' cadence, not drifting by the frames' 5 ms.
            #expect(abs(due - Double(k + 1) * interval) < 1e-12)
        }
        // A frame that overran: the next comes half an interval after it, not in the past.
        clock.advance(by: due - clock.now)
        let fired = frames.fire(now: clock.now)
        clock.advance(by: 0.05)
        frames.framePresented(at: clock.now)
        #expect(near(frames.next(now: clock.now, afterDeadline: fired), clock.now + interval / 2))
        frames.cancel()
        #expect(frames.deadline == nil)
    }

    @Test func timesThatAreNotNumbersArmNothing() {
        for bad in [Double.nan, .infinity, -.infinity] {
            var frames = FrameScheduler()
            #expect(frames.schedule(now: bad) == nil && frames.deadline == nil, "\(bad)")
            #expect(frames.next(now: bad, afterDeadline: 0) == nil, "\(bad)")
            frames.framePresented(at: bad)
            #expect(frames.lastFrameTime == -.infinity, "\(bad)")
            frames.framePresented(at: 0)
            #expect(frames.schedule(now: 1, afterInput: true) == 1)
        }
    }

    @Test func ratesAreHeld() {
        for (rate, held) in [(0.0, 60.0), (.nan, 60), (-5, 60), (.infinity, 60), (1e9, 1000), (0.5, 60), (1, 1), (144, 144)] {
            #expect(FrameScheduler(framesPerSecond: rate).framesPerSecond == held, "\(rate)")
        }
    }
}
