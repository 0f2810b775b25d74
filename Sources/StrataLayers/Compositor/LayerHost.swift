import Dispatch
import Foundation
import StrataGraphics
import StrataQueues

/// Where a layer tree is shown: the root of a tree, its clock, and a renderer
/// that composites committed render trees on its own thread.
///
/// The headless host renders into a frame buffer that can be saved as PNG;
/// a window host presents the same frames. Each frame (`renderFrame()`):
/// commits outstanding changes (`Transaction.flush()`), ends the animations
/// that are over (running their completions), and has the renderer evaluate
/// the animations at the clock's time and redraw what changed.
@MainActor
public final class LayerHost {
    public let rootLayer: Layer
    public let clock: any MediaClock
    /// The frame's size in device pixels (`resize(width:height:)` changes it).
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var scale: Double
    /// The last committed render tree.
    public private(set) var renderTree: RenderNode?
    /// Frame timings.
    public private(set) var statistics: FrameStatistics
    /// The display links called at each frame, in the order they were added.
    var displayLinks: [DisplayLink] = []
    let renderer: Renderer

    /// A host for a `width` × `height` pixel frame showing `scale` pixels per
    /// point. The root layer fills the frame.
    public init(
        width: Int, height: Int, scale: Double = 1, clock: any MediaClock = ManualClock(),
        backgroundColor: Color = .white, frameBudget: Double = 1.0 / 60
    ) throws {
        let compositor = try Compositor(width: width, height: height, scale: scale, backgroundColor: backgroundColor)
        renderer = Renderer(compositor)
        self.width = width
        self.height = height
        self.scale = compositor.scale
        self.clock = clock
        statistics = FrameStatistics(budget: frameBudget)
        rootLayer = Layer()
        rootLayer.host = self
        Layer.treesChanged()
        rootLayer.anchorPoint = .zero
        rootLayer.bounds = Rect(x: 0, y: 0, width: Double(width) / compositor.scale, height: Double(height) / compositor.scale)
        Transaction.dirtyHosts[ObjectIdentifier(self)] = self
    }

    deinit {
        Layer.treesChanged()
    }

    /// Turns the model tree into a new render tree (called by transactions).
    ///
    /// The old tree is let go on a utility queue of the pool, not here:
    /// its last release frees the nodes and contents the new tree no longer
    /// shares, images among them, and images drawn on pool threads live in
    /// those threads' malloc arenas, whose locks the main actor would wait for
    /// while the pool allocates (as the feed lists of iOS free their old
    /// objects in the background, for the same reason).
    func commit() {
        let old = renderTree.map { Locked<RenderNode?>($0) }
        renderTree = rootLayer.commitNode()
        if let old { QueuePool.shared.async(.utility) { old.withLock { $0 = nil } } }
        let wasCurrent = renderedTreeIsCurrent
        renderedTreeIsCurrent = false
        if wasCurrent { frameRequestHandler?() }
    }

    /// Whether the last committed tree has been rendered.
    private var renderedTreeIsCurrent = false

    /// Called when the host, after rendering everything it had, gets
    /// something new to render: a commit (at the end of a turn of the main
    /// loop, say, after an asynchronous drawing landed). A window uses it to
    /// start its frame clock again; nothing calls it while frames are due anyway.
    public var frameRequestHandler: (@MainActor () -> Void)?

    /// Whether rendering a frame now would change anything: a commit not
    /// yet rendered, changes not yet committed, running animations, display
    /// links that are not paused, or layers the compositor redraws every
    /// frame (particles, tiles fading in). A window renders only while this
    /// holds, so that an idle window costs no CPU.
    public var needsFrame: Bool {
        if renderTree == nil || !renderedTreeIsCurrent || rootLayer.isDirty || rootLayer.subtreeDirty { return true }
        if displayLinks.contains(where: { !$0.isPaused }) { return true }
        if renderer.lastFrameAnimated.withLock({ $0 }) { return true }
        return AnimationRegistry.animated.values.contains { $0.rootLayer === rootLayer && !$0.animationEntries.isEmpty }
    }

    /// Changes the frame's size to `width` × `height` device pixels (at
    /// least 1 × 1), and with `scale` its pixels per point (a window moved
    /// to a screen of another scale): the root layer's bounds follow, and
    /// the next frame is drawn whole. A scale that is not a positive finite
    /// number keeps the one there is; any other is taken (the root layer's
    /// bounds in points are held to the layers' limits). Throws for sizes a
    /// frame buffer cannot have.
    public func resize(width: Int, height: Int, scale newScale: Double? = nil) throws {
        let newScale = newScale.map { $0.isFinite && $0 > 0 ? $0 : scale } ?? scale
        guard width != self.width || height != self.height || newScale != scale else { return }
        let compositor = try Compositor(
            width: max(1, width), height: max(1, height), scale: newScale)
        renderer.replace(compositor)
        self.width = compositor.width
        self.height = compositor.height
        scale = compositor.scale
        rootLayer.bounds = Rect(x: 0, y: 0, width: Double(self.width) / scale, height: Double(self.height) / scale)
        renderedTreeIsCurrent = false
    }

    /// The most threads a frame is drawn on (`Compositor.threadCount`):
    /// full frames and other large redraws are drawn in bands on the
    /// shared `QueuePool`, with the same pixels as on one thread. By
    /// default, the processors available; 1 draws every frame on one
    /// thread.
    public var renderingThreadCount: Int {
        get { renderer.withCompositor { $0.threadCount } }
        set { renderer.withCompositor { $0.threadCount = newValue } }
    }

    /// Runs `body` with the frame buffer as of the last render, on the
    /// renderer's thread while the caller waits (a render in flight ends
    /// first). A window copies what it presents from here.
    public func withFrameBuffer<R>(_ body: (Bitmap) -> R) -> R {
        renderer.withCompositor { body($0.frame) }
    }

    /// Whether `renderFrame()` hands the render to the renderer's thread and
    /// returns at once (default `false`: it waits and returns the damage).
    ///
    /// Asynchronous rendering is Core Animation's arrangement: the main actor
    /// commits, and the render server draws the committed tree meanwhile. The
    /// next frame, `makeImage()` and `writePNG(to:)` wait for a render in
    /// flight, so they always see the last committed frame. `renderFrame()`
    /// then returns no damage, and the statistics time the main actor's part.
    public var rendersAsynchronously = false

    /// Renders one frame at the clock's current time and returns the damaged
    /// rectangles (device pixels).
    @discardableResult
    public func renderFrame() -> [Rect] {
        let start = DispatchTime.now().uptimeNanoseconds
        // Asynchronous drawings that finished since the last frame.
        AsyncDisplayInbox.drain()
        // Display links first, so what they change is in this frame (a copy:
        // a link may invalidate itself or add others).
        for link in displayLinks { link.fire(at: clock.now, frameDuration: statistics.budget) }
        Transaction.flush()
        AnimationRegistry.endAnimations()
        Transaction.flush()
        if renderTree == nil || rootLayer.isDirty || rootLayer.subtreeDirty { commit() }
        renderedTreeIsCurrent = true
        if rendersAsynchronously {
            renderer.renderLater(renderTree, at: clock.now)
            let end = DispatchTime.now().uptimeNanoseconds
            statistics.record(duration: Double(end - start) / 1e9, at: clock.now)
            return []
        }
        let damage = renderer.render(renderTree, at: clock.now)
        let end = DispatchTime.now().uptimeNanoseconds
        statistics.record(duration: Double(end - start) / 1e9, at: clock.now)
        return damage
    }

    /// Advances a manual clock by `seconds` (default one 60 Hz frame) and
    /// renders a frame. With a real clock it only renders.
    @discardableResult
    public func advance(by seconds: Double = 1.0 / 60) -> [Rect] {
        (clock as? ManualClock)?.advance(by: seconds)
        return renderFrame()
    }

    /// Waits for a render in flight (with `rendersAsynchronously`) to end.
    public func finishRendering() { renderer.withCompositor { _ in } }

    /// Forgets the last frame, so that the next `renderFrame` draws every
    /// layer again instead of what changed (after the frame buffer was
    /// written by something else, or to time whole frames).
    public func invalidateFrame() { renderer.withCompositor { $0.invalidate() } }

    /// How the last finished render went on the renderer's thread: how long
    /// it waited to start, how long it took on the wall clock and how much
    /// CPU time the thread spent on it. A render that took much longer than
    /// its CPU time waited for a core or a lock (the pool's threads drawing
    /// beside it); one whose CPU time is long had much to draw.
    public var lastRenderTiming: RenderTiming { renderer.timing.withLock { $0 } }

    /// The last rendered frame.
    public func makeImage() -> Image { renderer.image() }

    /// The frame's background colour.
    public var backgroundColor: Color { renderer.withCompositor { $0.backgroundColor } }

    /// Draws what the host shows into `canvas`, in points from its current
    /// user space: the background, then the root layer's tree at the
    /// clock's time (`Layer.render(in:rasterScale:)`). On a vector canvas (a
    /// PDF page, an SVG drawing of the root layer's size) the frame comes
    /// out as vectors, text and images, what only pixels can show at
    /// `rasterScale` pixels a point (the host's scale when nil, at least 2).
    public func render(in canvas: Canvas, rasterScale: Double? = nil) {
        canvas.saveGState()
        canvas.fillColor = backgroundColor
        canvas.fill(rootLayer.bounds)
        canvas.restoreGState()
        rootLayer.render(in: canvas, rasterScale: rasterScale ?? max(2, scale))
    }

    /// Writes the last rendered frame as a PNG file.
    public func writePNG(to path: String) throws {
        try makeImage().writePNG(to: path)
    }
}

/// Runs a compositor on its own thread.
final class Renderer: @unchecked Sendable {
    // The compositor is used only in the queue's tasks and `sync` bodies,
    // which never overlap, so no two threads ever touch it at once; that is
    // what makes sharing this object safe.
    /// A thread of its own, which yields to the main actor (`ThreadClass`).
    private let queue = PoolQueue(label: "strata.renderer", class: .interactive)
    private var compositor: Compositor
    /// The last render's timing.
    let timing = Locked(RenderTiming())
    /// Whether the last render had layers that change without a commit.
    let lastFrameAnimated = Locked(false)
    init(_ compositor: Compositor) { self.compositor = compositor }

    /// Renders with `new` (given the old one's background) from now on; a
    /// render in flight ends first.
    func replace(_ new: Compositor) {
        queue.sync {
            new.backgroundColor = compositor.backgroundColor
            new.threadCount = compositor.threadCount
            new.bandedArea = compositor.bandedArea
            compositor = new
        }
    }

    func render(_ tree: RenderNode?, at time: Double) -> [Rect] {
        let sent = ThreadClock.now()
        return queue.sync { timed(sent) { compositor.render(tree, at: time) } }
    }

    /// Renders on the renderer's queue without waiting; later calls wait
    /// their turn behind it.
    func renderLater(_ tree: RenderNode?, at time: Double) {
        let sent = ThreadClock.now()
        queue.async { [self] in _ = timed(sent) { compositor.render(tree, at: time) } }
    }

    private func timed<R>(_ sent: UInt64, _ body: () -> R) -> R {
        let start = ThreadClock.now(), cpu = ThreadClock.cpuTime()
        let result = body()
        let end = ThreadClock.now(), cpuEnd = ThreadClock.cpuTime()
        let animated = compositor.lastFrameAnimated
        lastFrameAnimated.withLock { $0 = animated }
        timing.withLock {
            $0 = RenderTiming(
                wait: Double(start - sent) / 1e9, duration: Double(end - start) / 1e9, cpuTime: Double(cpuEnd - cpu) / 1e9)
        }
        return result
    }

    func image() -> Image {
        queue.sync { compositor.frame.makeImage() }
    }

    /// Runs `body` with the compositor, on the renderer's queue.
    func withCompositor<R>(_ body: (Compositor) -> R) -> R {
        queue.sync { body(compositor) }
    }
}

/// One render on the renderer's thread (seconds).
public struct RenderTiming: Sendable, Equatable {
    /// From the frame's commit until the renderer started on it.
    public var wait: Double = 0
    /// The render, on the wall clock.
    public var duration: Double = 0
    /// The renderer thread's CPU time during the render: not the pool
    /// threads' that draw bands of a large frame with it
    /// (`renderingThreadCount`).
    public var cpuTime: Double = 0
}

/// Frame timing, measured the way a display link sees it.
public struct FrameStatistics: Sendable {
    /// The time one frame may take (1/60 s by default).
    public let budget: Double
    public private(set) var framesRendered = 0
    public private(set) var framesOverBudget = 0
    /// Render times in seconds, most recent last (the last 10,000 frames).
    public private(set) var durations: [Double] = []
    private var firstTimestamp: Double?
    private var lastTimestamp: Double?

    init(budget: Double) { self.budget = budget > 0 && budget.isFinite ? budget : 1.0 / 60 }

    mutating func record(duration: Double, at timestamp: Double) {
        framesRendered += 1
        if duration > budget { framesOverBudget += 1 }
        durations.append(duration)
        if durations.count > 10_000 { durations.removeFirst(durations.count - 10_000) }
        if firstTimestamp == nil { firstTimestamp = timestamp }
        lastTimestamp = timestamp
    }

    public var mean: Double { durations.isEmpty ? 0 : durations.reduce(0, +) / Double(durations.count) }
    public var p50: Double { percentile(0.5) }
    public var p99: Double { percentile(0.99) }
    public var max: Double { durations.max() ?? 0 }

    /// The value below which a fraction `q` of the frame times lie (nearest rank).
    public func percentile(_ q: Double) -> Double {
        guard !durations.isEmpty else { return 0 }
        let sorted = durations.sorted()
        let rank = Int(saturating: (q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }

    /// Frames per second over the clock time the frames spanned (frames − 1
    /// intervals between the first and the last frame's timestamps), as a
    /// display link counts them; 0 before two frames.
    public var framesPerSecond: Double {
        guard framesRendered > 1, let a = firstTimestamp, let b = lastTimestamp, b > a else { return 0 }
        return Double(framesRendered - 1) / (b - a)
    }
}
