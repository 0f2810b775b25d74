import ArgumentParser
import Foundation
@_spi(Benchmarks) import StrataControls
import StrataDemos
import StrataGraphics
import StrataLayers

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
