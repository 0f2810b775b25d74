import ArgumentParser
import Foundation
import StrataAccessibility
@_spi(Benchmarks) import StrataControls
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataTestSupport

struct FeedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Times the feed list: frame times, blank rows, memory.",
        discussion: """
            A 10,000-post feed in a 360 × 640 point list at scale 3, driven by a script of \
            flings (1,000 and 8,000 pt/s, a reversal mid-fling, a drag held still) at 60 frames \
            a second, kept to the wall clock (36,000 frames take ten minutes; --frames sets \
            how many). Prints `strata CASE VALUE` for feed-main-p50/p99/max, feed-frame-max, \
            feed-frame-max-unstolen (the longest frame among those during which a virtual \
            machine's host took no time from its cores, by /proc/stat's steal column), \
            feed-hitch, feed-blank-at-rest, feed-blank-in-motion, feed-fast-fling-drawn, \
            feed-fast-fling-passed, feed-memory-growth and feed-first-screen. With \
            --accessibility, a screen reader listens throughout: the run starts a D-Bus session \
            bus of its own with the accessibility bus on, puts the feed on it through \
            `AccessibilityBridge`, and runs Benchmarks/Peers/atspi_listener.py, which listens \
            for every event as Orca does and reads the list's shown rows four times a second; \
            the bridge's answers are counted in the main actor's time.
            """)

    @Option(help: "Frames of scripted scrolling in all (the memory figure is taken after them).")
    var frames = 36_000

    @Flag(help: "Render frames back to back instead of keeping to a 60 Hz clock on the wall.")
    var unpaced = false

    @Flag(help: "Run with a screen reader listening on an accessibility bus of the run's own.")
    var accessibility = false

    func run() throws {
        try MainActor.assumeIsolated {
            let driver = try FeedDriver(posts: 10_000)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = driver.firstScreen()
            let first = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            // Let the rest of the layouts land before timing frames.
            while driver.controller.store.pending > 0 {
                driver.frame()
                usleep(5000)
            }
            let listening = accessibility ? try ScreenReaderLoad(root: driver.root) : nil
            if let listening { driver.beforeFrame = { listening.bridge.answerPendingCalls() } }
            let baseline = residentMB()
            var run = FeedRun(driver: driver)
            run.paced = !unpaced
            let (drawn, passed) = run.script()
            while run.frames.count < frames {
                _ = run.script()
                if driver.list.visibleRows.lowerBound > 9000 { driver.list.scrollToRow(at: IndexPath(row: 0, section: 0), at: .top, animated: false) }
            }
            let growth = residentMB() - baseline
            if let listening { FileHandle.standardError.write("  screen reader: \(listening.stop())\n".data(using: .utf8)!) }
            let main = run.frames.map(\.main)
            let seconds = Double(max(1, run.movingFrames)) / 60
            let figures: [(String, Double)] = [
                ("feed-main-p50", percentile(main, 0.5)), ("feed-main-p99", percentile(main, 0.99)),
                ("feed-main-max", main.max() ?? 0), ("feed-frame-max", run.frames.map(\.total).max() ?? 0),
                ("feed-frame-max-unstolen", run.unstolenFrameMax),
                ("feed-hitch", run.hitch / seconds), ("feed-blank-at-rest", Double(run.blankAtRest)),
                ("feed-blank-in-motion", Double(run.blankInMotion)), ("feed-fast-fling-drawn", Double(drawn)),
                ("feed-fast-fling-passed", Double(passed)), ("feed-memory-growth", growth), ("feed-first-screen", first),
            ]
            for (name, value) in figures { print(String(format: "strata %@ %.3f", name, value)) }
            if ProcessInfo.processInfo.environment["STRATA_BENCH_DETAIL"] != nil {
                let worst = run.frames.enumerated().sorted { $0.element.total > $1.element.total }.prefix(8)
                for (i, f) in worst {
                    FileHandle.standardError.write(
                        String(
                            format: "  frame %d: %.2f ms whole, %.3f ms main, render %.2f ms (CPU %.2f, waited %.2f), %.0f ms stolen, %d blank, %@\n",
                            i,
                            f.total, f.main, f.render, f.renderCPU, f.renderWait, run.stolen[i], f.blank,
                            f.moving ? "moving" : "at rest"
                        )
                        .data(using: .utf8)!)
                }
            }
            let over = run.frames.indices.filter { run.frames[$0].total > 1000.0 / 60 }
            FileHandle.standardError.write(
                "  frames over 16.67 ms: \(over.count), \(over.filter { run.stolen[$0] > 0 }.count) with time stolen by the host; blank at rest in frames \(run.blankAtRestFrames.prefix(20))\n"
                    .data(using: .utf8)!)
            FileHandle.standardError.write(
                "  \(run.frames.count) frames, \(run.movingFrames) moving; cells made \(driver.list.cellsCreated), spare \(driver.list.spareCellCount)\n"
                    .data(using: .utf8)!)
        }
    }
}

/// A screen reader on the feed: a session bus with the accessibility bus
/// on, the feed's bridge, and `atspi_listener.py` reading it.
@MainActor
final class ScreenReaderLoad {
    let bus: PrivateSessionBus
    let bridge: AccessibilityBridge
    let listener = Process()
    let output = Pipe()

    init(root: View) throws {
        bus = try PrivateSessionBus("bench-a11y")
        try AccessibilityBridge.setEnabled(true, sessionBus: bus.address)
        bridge = try AccessibilityBridge(rootView: root, name: "Strata feed bench", sessionBus: bus.address)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Peers/atspi_listener.py")
            .standardized.path
        let ready = NSTemporaryDirectory() + "strata-bench-a11y-\(getpid())"
        unlink(ready)
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        listener.arguments = [script, bridge.name, ready]
        listener.environment = bus.environment
        listener.standardOutput = output
        try listener.run()
        // Answer the reader while it finds the app and starts listening.
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: ready) {
            guard listener.isRunning, Date() < deadline else {
                throw ValidationError("the screen reader (atspi_listener.py) did not start: is python3-pyatspi installed?")
            }
            bridge.answerPendingCalls()
            usleep(2000)
        }
        unlink(ready)
    }

    /// Stops the reader; what it did ("events N reads N rows N").
    func stop() -> String {
        listener.terminate()
        // Answer calls it was making while it stops.
        while listener.isRunning {
            bridge.answerPendingCalls()
            usleep(2000)
        }
        bridge.close()
        bus.stop()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
