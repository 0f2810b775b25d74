import Dispatch
import Foundation
@_spi(Benchmarks) import StrataControls
import StrataLayers
import StrataText

#if canImport(Glibc)
import Glibc
#endif

/// The demo feed in a headless host, driven frame by frame under a manual
/// clock with scripted gestures: what `strata feed`, `strata-bench feed`,
/// the gallery and the tests run.
@MainActor
public final class FeedDriver {
    public let host: LayerHost
    public let root: View
    public let list: ListView
    public let controller: FeedController
    public let dispatcher: InputDispatcher
    public let clock: ManualClock

    /// One frame's figures.
    public struct Frame: Sendable {
        /// The main thread's CPU time (ms): events, physics, layout, commit.
        public var main: Double
        /// The whole frame with rendering (ms, wall clock).
        public var total: Double
        /// The render on the renderer's thread: wall clock and CPU time (ms).
        public var render: Double
        public var renderCPU: Double
        /// From the commit until the renderer started (ms).
        public var renderWait: Double
        /// Visible rows without their contents.
        public var blank: Int
        public var moving: Bool
    }

    /// A feed of `posts` posts in a list of `width` × `height` points at
    /// `scale`; with `drawsCellsSynchronously`, cells draw at once (pictures
    /// that do not depend on the pool's speed).
    public init(posts: Int, width: Double = 360, height: Double = 640, scale: Double = 3, drawsCellsSynchronously: Bool = false) throws {
        host = try LayerHost(width: Int(width * scale), height: Int(height * scale), scale: scale, backgroundColor: Color(white: 0.93))
        host.rendersAsynchronously = true
        clock = host.clock as! ManualClock
        root = View(frame: Rect(x: 0, y: 0, width: width, height: height))
        list = ListView(frame: root.bounds)
        list.contentsScale = scale
        list.backgroundColor = Color(white: 0.93)
        root.addSubview(list)
        dispatcher = InputDispatcher(rootView: root, host: host)
        controller = FeedController(posts: posts, width: width)
        controller.drawsCellsSynchronously = drawsCellsSynchronously
        controller.attach(to: list)
    }

    /// Work of the main actor's done at the start of each frame, counted in
    /// its time (an accessibility bridge answering an assistive tool).
    public var beforeFrame: (@MainActor () -> Void)?

    /// Advances the clock one 60 Hz frame and renders it.
    @discardableResult
    public func frame() -> Frame {
        let t0 = ThreadClock.now(), c0 = ThreadClock.cpuTime()
        beforeFrame?()
        clock.advance(by: 1.0 / 60)
        host.renderFrame()
        let c1 = ThreadClock.cpuTime()
        host.finishRendering()
        let t1 = ThreadClock.now()
        let r = host.lastRenderTiming
        return Frame(
            main: Double(c1 - c0) / 1e6, total: Double(t1 - t0) / 1e6, render: r.duration * 1000, renderCPU: r.cpuTime * 1000,
            renderWait: r.wait * 1000,
            blank: list.blankVisibleRows,
            moving: list.isDecelerating || list.isDragging)
    }

    /// Frames until the first screen is laid out and drawn (at most
    /// `limit`); the frames it took.
    public func firstScreen(limit: Int = 600) -> Int {
        var n = 0
        while n < limit {
            frame()
            n += 1
            if controller.store.layout(0) != nil, list.blankVisibleRows == 0, !list.visibleRows.isEmpty { break }
            // Let the pool work between frames, as a real frame's wait would.
            usleep(2000)
        }
        return n
    }

    /// Plays `script` with the clock at each event's time (no frames between
    /// its events).
    public func play(_ script: GestureScript) {
        let t0 = clock.now
        for (t, e) in script.events {
            clock.set(t0 + t)
            switch e {
            case .pointer(let phase, let at):
                dispatcher.send(.pointer(PointerEvent(phase, at: at, timestamp: t0 + t)))
            default:
                break
            }
        }
    }

    /// A fling at `velocity` points per second (positive moves the content up: scrolls down).
    public func fling(_ velocity: Double) {
        let h = list.bounds.height
        let start = Point(x: list.bounds.width / 2, y: velocity > 0 ? h * 0.8 : h * 0.2)
        if let script = try? GestureScript.fling(from: start, velocity: Point(x: 0, y: -velocity)) { play(script) }
    }

    /// Frames, pausing 2 ms between them for the pool, until every
    /// layout has landed and nothing visible is blank: at least `limit`
    /// frames, or `timeout` seconds of wall time, whichever lasts longer (the
    /// pool's threads run below the main thread's priority, so on a machine
    /// busy with other work, such as a full test run, they may take many
    /// times as long as alone). False when it did not settle.
    @discardableResult
    public func settle(limit: Int = 3000, timeout: Double = 120) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Swift.max(0, Swift.min(3600, timeout)) * 1e9)
        var frames = 0
        while frames < limit || DispatchTime.now().uptimeNanoseconds < deadline {
            frame()
            frames += 1
            if controller.store.pending == 0, list.blankVisibleRows == 0, !list.isDecelerating { return true }
            usleep(2000)
        }
        return false
    }

    /// A visible mention, topic or link: its row, the entity and its centre in the list's view.
    public func visibleEntity(_ kinds: [TextEntity.Kind] = [.link, .mention, .topic]) -> (row: Int, entity: TextEntity, at: Point)? {
        for row in list.visibleRows {
            guard let l = controller.store.layout(row) else { continue }
            for e in l.entities where kinds.contains(e.kind) {
                guard let r = l.text.rects(forCharacters: e.range).first else { continue }
                let y = list.rectForRow(row).minY + l.textOrigin.y + r.midY - list.contentOffset.y
                if y > 0 && y < list.bounds.height { return (row, e, Point(x: l.textOrigin.x + r.midX, y: y)) }
            }
        }
        return nil
    }
}
