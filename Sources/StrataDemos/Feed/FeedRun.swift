import Foundation
@_spi(Benchmarks) import StrataControls
import StrataGraphics
import StrataLayers

/// The scripted gestures of the feed runs, with what each measures.
@MainActor
public struct FeedRun {
    public let driver: FeedDriver
    public var frames: [FeedDriver.Frame] = []
    public var blankAtRest = 0
    public var blankInMotion = 0
    public var movingFrames = 0
    public var hitch = 0.0
    public var framesWritten = 0
    /// The frames with blank rows at rest (indices).
    public var blankAtRestFrames: [Int] = []
    /// Time the virtual machine's cores were taken by its host during each
    /// frame (ms, from /proc/stat's steal column; 10 ms steps), which no
    /// program inside can prevent.
    public var stolen: [Double] = []
    public var directory: String?
    public var every = 1

    public init(driver: FeedDriver, directory: String? = nil, every: Int = 1) {
        self.driver = driver
        self.directory = directory
        self.every = max(1, every)
    }

    /// Renders frames until the list rests, then `idle` more; blank rows
    /// count as at rest from the second frame after it stops.
    public mutating func settle(idle: Int = 20, limit: Int = 2000) {
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

    public mutating func frames(_ count: Int) {
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
    public var paced = true
    private var deadline = DispatchTime.now().uptimeNanoseconds

    /// The longest frame among those during which the host took no time
    /// from the machine's cores: no steal counted in the frame or the frames
    /// on either side (the counter moves in 10 ms ticks, so a little theft
    /// shows a frame late, or not at all).
    public var unstolenFrameMax: Double {
        frames.indices.filter { i in (Swift.max(0, i - 1)...Swift.min(frames.count - 1, i + 1)).allSatisfy { stolen[$0] == 0 } }
            .map { frames[$0].total }.max() ?? 0
    }

    /// The system's stolen time so far (ms): /proc/stat's steal column, in 10 ms ticks.
    public static func stolenMS() -> Double {
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
    public mutating func script() -> (drawn: Int, passed: Int) {
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
