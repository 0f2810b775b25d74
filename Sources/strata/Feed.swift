import ArgumentParser
import Foundation
@_spi(Benchmarks) import StrataControls
import StrataGraphics
import StrataLayers
import StrataScenes

/// The scripted gestures of the feed runs, with what each measures.
@MainActor
struct FeedRun {
    let driver: FeedDriver
    var frames: [FeedDriver.Frame] = []
    var blankAtRest = 0
    var blankInMotion = 0
    var movingFrames = 0
    var hitch = 0.0
    var framesWritten = 0
    /// The frames with blank rows at rest (indices).
    var blankAtRestFrames: [Int] = []
    /// Time the virtual machine's cores were taken by its host during each
    /// frame (ms, from /proc/stat's steal column; 10 ms steps), which no
    /// program inside can prevent.
    var stolen: [Double] = []
    var directory: String?
    var every = 1

    init(driver: FeedDriver, directory: String? = nil, every: Int = 1) {
        self.driver = driver
        self.directory = directory
        self.every = max(1, every)
    }

    /// Renders frames until the list rests, then `idle` more; blank rows
    /// count as at rest from the second frame after it stops.
    mutating func settle(idle: Int = 20, limit: Int = 2000) {
        var restFrames = 0
        var n = 0
        while restFrames < idle && n < limit {
            let f = driver.frame()
            n += 1
            record(f)
            if f.moving {
                restFrames = 0
                countMotion(f)
            } else {
                restFrames += 1
                if restFrames > 2 {
                    blankAtRest += f.blank
                    if f.blank > 0 { blankAtRestFrames.append(frames.count - 1) }
                }
            }
        }
    }

    mutating func frames(_ count: Int) {
        for _ in 0..<count {
            let f = driver.frame()
            record(f)
            if f.moving { countMotion(f) }
        }
    }

    /// A frame in motion: its blank rows and its hitch (time past the 60 Hz budget).
    private mutating func countMotion(_ f: FeedDriver.Frame) {
        blankInMotion += f.blank
        movingFrames += 1
        hitch += max(0, f.total - 1000.0 / 60)
    }

    /// Whether frames keep to a 60 Hz clock on the wall (each waits for its
    /// vsync, as on a screen), so the pool has a frame's real time to draw.
    var paced = true
    private var deadline = DispatchTime.now().uptimeNanoseconds

    /// The longest frame among those during which the host took no time
    /// from the machine's cores: no steal counted in the frame or the frames
    /// on either side (the counter moves in 10 ms ticks, so a little theft
    /// shows a frame late, or not at all).
    var unstolenFrameMax: Double {
        frames.indices.filter { i in (Swift.max(0, i - 1)...Swift.min(frames.count - 1, i + 1)).allSatisfy { stolen[$0] == 0 } }
            .map { frames[$0].total }.max() ?? 0
    }

    /// The system's stolen time so far (ms): /proc/stat's steal column, in 10 ms ticks.
    static func stolenMS() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first
        else { return 0 }
        let fields = line.split(separator: " ")
        return fields.count > 8 ? (Double(fields[8]) ?? 0) * 10 : 0
    }
    private var lastStolen = FeedRun.stolenMS()

    private mutating func record(_ f: FeedDriver.Frame) {
        let s = FeedRun.stolenMS()
        stolen.append(s - lastStolen)
        lastStolen = s
        if paced {
            let period: UInt64 = 16_666_667
            let now = DispatchTime.now().uptimeNanoseconds
            deadline += period
            if now < deadline { usleep(UInt32((deadline - now) / 1000)) } else { deadline = now }
        }
        frames.append(f)
        if let directory, frames.count % every == 0 {
            try? driver.host.writePNG(to: "\(directory)/frame-\(String(format: "%05d", frames.count)).png")
            framesWritten += 1
        }
    }

    /// Slow, fast, a reversal mid-fling, a drag held still; the fast
    /// fling's rows drawn and passed.
    mutating func script() -> (drawn: Int, passed: Int) {
        let list = driver.list
        driver.fling(1000)
        settle()
        list.resetDrawingCounts()
        let firstBefore = list.visibleRows.lowerBound
        driver.fling(8000)
        settle()
        let drawn = list.rowsDrawn
        let passed = max(0, list.visibleRows.lowerBound - firstBefore)
        driver.fling(6000)
        frames(20)
        driver.fling(-3000)
        settle()
        // A drag held still, then let go without a fling.
        let x = list.bounds.width / 2
        driver.play(GestureScript.drag(from: Point(x: x, y: 500), to: Point(x: x, y: 300), duration: 0.4, release: false))
        frames(30)
        driver.play(
            {
                var s = GestureScript()
                s.add(.pointer(.up, Point(x: x, y: 300)), at: 0)
                return s
            }())
        settle()
        return (drawn, passed)
    }
}

struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Drives the demo feed headless with scripted flings and prints frame statistics.",
        discussion: """
            A list of --posts generated posts (Chinese and English text with mentions, topics, \
            links and emoticons, 0 to 9 pictures) in a 360 × 640 point list at scale 3, \
            flung at --fling points per second down, then back; prints the main thread's time \
            per frame, blank rows at rest and in motion, rows drawn and skipped, cells made and \
            memory. With --frames DIR it writes every --every'th frame as a PNG there.
            """)

    @Option(help: "Posts in the feed.")
    var posts = 10_000
    @Option(help: "The fling's speed, points per second.")
    var fling = 6000.0
    @Option(help: "Write frames as PNG files into this folder.")
    var frames: String?
    @Option(help: "Write every N'th frame.")
    var every = 10

    func validate() throws {
        guard posts >= 0, posts <= 10_000_000 else { throw ValidationError("--posts must be 0 to 10,000,000") }
        guard fling.isFinite, abs(fling) <= 100_000 else { throw ValidationError("--fling must be a speed within ±100,000 pt/s") }
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
    }

    func run() throws {
        if let frames { try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true) }
        try MainActor.assumeIsolated {
            let driver = try FeedDriver(posts: posts)
            let start = DispatchTime.now().uptimeNanoseconds
            let first = driver.firstScreen()
            let firstMS = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            var run = FeedRun(driver: driver, directory: frames, every: every)
            driver.list.resetDrawingCounts()
            driver.fling(fling)
            run.settle()
            let drawn = driver.list.rowsDrawn, skipped = driver.list.rowsSkipped
            driver.fling(-fling)
            run.settle()
            let main = run.frames.map(\.main)
            print(String(format: "first screen: %d frames, %.1f ms", first, firstMS))
            print(
                String(
                    format: "frames: %d; main thread p50 %.3f ms, p99 %.3f ms, max %.3f ms; whole frame max %.2f ms",
                    run.frames.count, percentile(main, 0.5), percentile(main, 0.99), main.max() ?? 0,
                    run.frames.map(\.total).max() ?? 0))
            print("blank rows: \(run.blankAtRest) at rest, \(run.blankInMotion) in motion (\(run.movingFrames) frames moving)")
            print("first fling: \(drawn) rows drawn, \(skipped) skipped; cells made \(driver.list.cellsCreated)")
            print(String(format: "memory: %.1f MB resident", residentMB()))
            if let frames { print("\(run.framesWritten) frames written to \(frames)") }
        }
    }
}

/// Resident memory in MB.
func residentMB() -> Double { Double(StreamBench.residentBytes()) / 1_048_576 }

struct FeedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Times issue 19's feed list.",
        discussion: """
            A 10,000-post feed in a 360 × 640 point list at scale 3, driven by a script of \
            flings (1,000 and 8,000 pt/s, a reversal mid-fling, a drag held still) at 60 frames \
            a second, kept to the wall clock (36,000 frames take ten minutes; --frames sets \
            how many). Prints `strata CASE VALUE` for feed-main-p50/p99/max, feed-frame-max, \
            feed-frame-max-unstolen (the longest frame among those during which a virtual \
            machine's host took no time from its cores, by /proc/stat's steal column), \
            feed-hitch, feed-blank-at-rest, feed-blank-in-motion, feed-fast-fling-drawn, \
            feed-fast-fling-passed, feed-memory-growth and feed-first-screen.
            """)

    @Option(help: "Frames of scripted scrolling in all (the memory figure is taken after them).")
    var frames = 36_000

    @Flag(help: "Render frames back to back instead of keeping to a 60 Hz clock on the wall.")
    var unpaced = false

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
            let baseline = residentMB()
            var run = FeedRun(driver: driver)
            run.paced = !unpaced
            let (drawn, passed) = run.script()
            while run.frames.count < frames {
                _ = run.script()
                if driver.list.visibleRows.lowerBound > 9000 { driver.list.scrollToRow(0, at: .top, animated: false) }
            }
            let growth = residentMB() - baseline
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
