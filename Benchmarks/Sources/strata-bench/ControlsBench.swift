import ArgumentParser
import Dispatch
import Foundation
@_spi(Benchmarks) import StrataControls
import StrataDemos
import StrataGraphics
import StrataLayers

struct ControlsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controls",
        abstract: "Times the controls: scrolling, the ruler, gestures.",
        discussion: """
            Prints `strata CASE VALUE`: scroll-fling-main and scroll-fling-frame (ms, p99 over \
            the frames of a 2,000 pt/s fling of a 10,000 × 10,000 point scroll view holding \
            1,000 layers, until it rests: the main thread's CPU time (events, physics, layout, \
            commit; what the scheduler gives other threads is not counted) and the whole frame \
            with rendering, wall clock); ruler-fling-main (ms, p99 of the main thread's CPU time \
            over a 5-second fling across a ruler), \
            ruler-layers-created (layers made after warm-up) and ruler-callbacks-per-frame \
            (the most value callbacks in one frame).
            """)

    @Option(help: "Comma-separated cases to run (default: all).")
    var cases: String?

    func run() throws {
        let selection = CaseSelection(cases)
        let runs = selection.runs, report = selection.report
        try MainActor.assumeIsolated {
            if runs("scroll-fling-main") || runs("scroll-fling-frame") { try Self.scrollFling(report: report) }
            if runs("ruler-fling-main") || runs("ruler-layers-created") || runs("ruler-callbacks-per-frame") {
                try Self.rulerFling(report: report)
            }
        }
    }

    static func now() -> UInt64 { ThreadClock.now() }

    /// The calling thread's CPU time in nanoseconds: the main actor's own
    /// work, without the time the scheduler gives the renderer and the pool
    /// threads on a two-core machine.
    static func threadTime() -> UInt64 { ThreadClock.cpuTime() }

    /// A drag at constant speed, released, sent at once (the clock set to each event's time).
    @MainActor
    static func flick(_ d: InputDispatcher, _ clock: ManualClock, at p: Point, dx: Double, dy: Double, duration: Double) {
        let t0 = clock.now
        for (t, e) in GestureScript.drag(from: p, to: Point(x: p.x + dx, y: p.y + dy), duration: duration).events {
            guard case .pointer(let phase, let at) = e else { continue }
            clock.set(t0 + t)
            d.send(.pointer(PointerEvent(phase, at: at, timestamp: t0 + t)))
        }
    }

    @MainActor
    static func scrollFling(report: (String, Double) -> Void) throws {
        let host = try LayerHost(width: 1280, height: 800)
        host.rendersAsynchronously = true
        let root = View(frame: Rect(x: 0, y: 0, width: 1280, height: 800))
        let scroll = ScrollView(frame: root.bounds)
        scroll.contentSize = Size(width: 10_000, height: 10_000)
        root.addSubview(scroll)
        // 1,000 cards over the content, 40 columns by 25 rows.
        for i in 0..<1000 {
            let card = Layer()
            card.frame = Rect(x: Double(i % 40) * 250 + 10, y: Double(i / 40) * 400 + 10, width: 230, height: 380)
            card.backgroundColor = Color(red: 0.3 + 0.02 * Double(i % 30), green: 0.5, blue: 0.9 - 0.02 * Double(i % 20))
            card.cornerRadius = 12
            scroll.layer.addSublayer(card)
        }
        let d = InputDispatcher(rootView: root, host: host)
        let clock = host.clock as! ManualClock
        host.renderFrame()
        host.finishRendering()
        // 2,000 pt/s up and to the left.
        flick(d, clock, at: Point(x: 900, y: 600), dx: -113, dy: -113, duration: 0.08)
        var main: [Double] = [], frame: [Double] = [], physics: [Double] = []
        var frames = 0
        let detail = ProcessInfo.processInfo.environment["STRATA_BENCH_DETAIL"] != nil
        if detail { d.detach() }
        var wall: [Double] = []
        while (scroll.isDecelerating || frames < 2) && frames < 2000 {
            let t0 = now(), c0 = threadTime()
            clock.advance(by: 1.0 / 60)
            if detail {
                d.frame(at: clock.now)
                physics.append(Double(now() - t0) / 1e6)
            }
            host.renderFrame()
            let t1 = now(), c1 = threadTime()
            host.finishRendering()
            let t2 = now()
            main.append(Double(c1 - c0) / 1e6)
            wall.append(Double(t1 - t0) / 1e6)
            frame.append(Double(t2 - t0) / 1e6)
            frames += 1
        }
        if detail {
            FileHandle.standardError.write(
                "  scroll fling: \(frames) frames; physics p50 \(String(format: "%.3f", percentile(physics, 0.5))) p99 \(String(format: "%.3f", percentile(physics, 0.99))), main CPU p50 \(String(format: "%.3f", percentile(main, 0.5))), main wall p50 \(String(format: "%.3f", percentile(wall, 0.5))) p99 \(String(format: "%.3f", percentile(wall, 0.99)))\n"
                    .data(using: .utf8)!)
        }
        report("scroll-fling-main", percentile(main, 0.99))
        report("scroll-fling-frame", percentile(frame, 0.99))
    }

    @MainActor
    static func rulerFling(report: (String, Double) -> Void) throws {
        let host = try LayerHost(width: 480, height: 100)
        host.rendersAsynchronously = true
        let root = View(frame: Rect(x: 0, y: 0, width: 480, height: 100))
        let ruler = RulerView(frame: Rect(x: 0, y: 10, width: 480, height: 80), scale: try RulerScale(step: 0.1, minimum: 0, maximum: 1e6))
        ruler.backgroundColor = .white
        root.addSubview(ruler)
        try ruler.setValue(72.5, animated: false)
        let d = InputDispatcher(rootView: root, host: host)
        let clock = host.clock as! ManualClock
        var callbacks = 0
        ruler.onValueChanged = { _ in callbacks += 1 }
        host.renderFrame()
        host.finishRendering()
        let created = ruler.blocksCreated
        // About 20,000 pt/s: the fling lasts five seconds.
        flick(d, clock, at: Point(x: 400, y: 50), dx: -1600, dy: 0, duration: 0.08)
        var main: [Double] = []
        var most = 0
        var frames = 0
        while (ruler.isDecelerating || frames < 2) && frames < 2000 {
            let before = callbacks
            let c0 = threadTime()
            clock.advance(by: 1.0 / 60)
            host.renderFrame()
            main.append(Double(threadTime() - c0) / 1e6)
            host.finishRendering()
            most = max(most, callbacks - before)
            frames += 1
        }
        report("ruler-fling-main", percentile(main, 0.99))
        report("ruler-layers-created", Double(ruler.blocksCreated - created))
        report("ruler-callbacks-per-frame", Double(most))
        FileHandle.standardError.write(
            "  ruler fling: \(frames) frames (\(String(format: "%.2f", Double(frames) / 60)) s), value \(ruler.value), \(ruler.recentreCount) recentres\n"
                .data(using: .utf8)!)
    }
}
