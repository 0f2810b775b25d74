import StrataGraphics
import StrataQueues

/// Turns render trees into frames: evaluates animations at the frame's time,
/// composites the layers into a frame buffer it keeps, and redraws only the
/// damaged region, the union of what changed since the previous frame.
///
/// A frame takes two passes. The first (`FramePass`) resolves the render tree
/// into a tree of `FrameNode`s and compares each layer's record with the
/// previous frame's to find the damage; the second (`Compositor+Draw.swift`)
/// clears each damaged rectangle and draws the frame nodes clipped to it.
///
/// A compositor is used from one thread at a time (the renderer's); it is not
/// `Sendable`.
public final class Compositor {
    public let width: Int
    public let height: Int
    /// Device pixels per point.
    public let scale: Double
    /// What shows where no layer draws.
    public var backgroundColor: Color {
        didSet { records.removeAll() }
    }
    /// The frame buffer, as of the last `render`.
    public let frame: Bitmap
    /// The rectangles redrawn by the last `render`, in device pixels.
    public private(set) var lastDamage: [Rect] = []
    /// The regions whose pixels the last `render` moved instead of redrawing
    /// them (scrolled content, see `FrameCopy`), done before the redrawing.
    public private(set) var lastCopies: [FrameCopy] = []

    /// What each layer drew in the previous frame, by layer (and replicator copy).
    var records: [Int: Record] = [:]
    /// While a rectangle is redrawn: the layer whose background hides what
    /// is painted before it there, and the layers on the way down to it
    /// (`Compositor+Occlusion.swift`).
    var occlusion: (node: FrameNode, path: Set<ObjectIdentifier>)?
    /// The inverse of the transform the target canvas had before the
    /// compositor drew (identity for its own frame; `Layer.render(in:)`
    /// draws into a canvas whose user space is already placed): clips the
    /// compositor works out in device pixels are given back in it. It
    /// belongs to `baseCanvas` alone: the offscreen canvases of groups start
    /// in device pixels.
    var baseInverse = Transform.identity
    weak var baseCanvas: Canvas?
    /// While `Layer.render(in:)` draws on a vector canvas: the layers whose
    /// contents are drawn again there, by id (`Layer.drawsVectorContents`).
    var vectorContents: [Int: @Sendable (Canvas) -> Void] = [:]
    /// Whether hidden layers are skipped (tests turn it off to compare).
    var cullsOccludedLayers = true
    /// Whether the last render had layers that change from frame to frame
    /// without a commit (animations, particles, tiles fading in): another
    /// frame is due even if nothing else changes.
    public private(set) var lastFrameAnimated = false
    /// How many of the last render's rectangles had an opaque cover.
    var lastCoveredRectCount = 0
    /// While a band of a rectangle is drawn (`drawRect(_:rows:_:in:)`): the
    /// canvas on the frame, the whole rectangle and the band's rows. Groups
    /// drawn straight into that canvas are made over the whole rectangle's
    /// part, as one thread makes them (their offscreen bitmaps then start at
    /// the same pixel, and shapes in them come out the same), with only the
    /// band's rows (and their shadow's reach) drawn.
    var band: (canvas: Canvas, rect: Rect, rows: Range<Int>)?
    /// Blurred shadow masks, by layer, with what they were made from.
    var shadowCache: [Int: (signature: Int, mask: CoverageMask, origin: (Int, Int))] = [:]

    /// What one layer's own pixels in a frame depend on (`FramePass`): where
    /// it differs from the previous frame's, or the layer is animated, the
    /// layer is redrawn.
    struct Record: Equatable {
        /// What the layer draws: its `RenderNode.lookVersion`, which a move
        /// leaves alone (the move is in `transform`); in a transform layer's
        /// 3D space its `stateVersion`, since a move there can reorder it
        /// among its siblings without changing its own map.
        var version: Int
        /// Layer coordinates to device pixels.
        var transform: Homography
        /// The ancestors' opacity.
        var opacity: Double
        var clip: Rect
        /// What it covers on screen: its own box, and the shadow it casts
        /// from its sublayers.
        var box: Rect
        /// Changing without a change of state: running animations, particles,
        /// fading tiles.
        var animated: Bool
        /// A hash of what else changes its pixels: the tint of the replicator
        /// copies it is in, and its special layer's content version (a tiled
        /// layer's, bumped when tiles arrive).
        var tintAndContentVersion: Int
    }

    /// The most threads a large damaged rectangle (a full frame) is drawn
    /// on: it is cut into horizontal bands, drawn in parallel on the
    /// calling thread and the shared `QueuePool`'s queues, with the same
    /// pixels as on one thread. Rectangles under `bandedArea` device
    /// pixels are drawn on the calling thread alone, as are all of them
    /// with 1 (large ones still in bands, one after another, for the
    /// cache's sake: `localBandBytes`). Held within 1 ... 64; by default,
    /// the processors available.
    /// Each thread's canvas is kept for the next frame, with its
    /// rasterizers' buffers (the cell grid, up to about 8 MiB after the
    /// largest shapes; what the stroke rasterizer grew for a very long
    /// outline is given back after each frame); lowering the count lets
    /// the extra ones go.
    public var threadCount: Int = QueuePool.shared.queuesPerPriority {
        didSet {
            threadCount = min(64, max(1, threadCount))
            if bandCompositors.count > threadCount - 1 { bandCompositors.removeLast(bandCompositors.count - (threadCount - 1)) }
        }
    }
    /// The smallest damaged rectangle, in device pixels, drawn in bands
    /// (default 512 × 512): below it, handing the bands out costs more than
    /// a second core saves. A value of 1 or less bands every rectangle of
    /// 32 rows or more.
    public var bandedArea = 512 * 512
    /// How many bands a banded rectangle is cut into for each thread, held
    /// within 1 ... 16; nil (the default) for one a thread and at least
    /// eight with more than one thread, and none over `localBandBytes` of
    /// the frame. The threads take bands as they are free, so more bands even
    /// out bands that cost more than others, while every band sets up again
    /// each layer that crosses into it (measured in the benchmark results:
    /// on 2 threads four bands a thread drew a 4K frame fastest, on 8 and
    /// 16 one).
    public var bandsPerThread: Int? {
        didSet { bandsPerThread = bandsPerThread.map { min(16, max(1, $0)) } }
    }
    /// The pool the bands are drawn on.
    let pool: QueuePool
    /// The canvas on `frame` that damaged rectangles are drawn with, kept
    /// from frame to frame: its rasterizers' buffers stay grown (a cell
    /// grid of 4 to 8 MiB for a large shape), instead of being allocated
    /// and zeroed again every frame.
    private(set) lazy var frameCanvas = Canvas(bitmap: frame)
    /// The compositors that draw bands on the other threads
    /// (`drawInParallel`), kept with their canvases from frame to frame for
    /// the same reason: at most `threadCount - 1`.
    private var bandCompositors: [Compositor] = []

    public init(width: Int, height: Int, scale: Double = 1, backgroundColor: Color = .white) throws {
        frame = try Bitmap(width: width, height: height)
        self.width = width
        self.height = height
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        self.backgroundColor = backgroundColor
        pool = .shared
    }

    /// A compositor that draws bands of `other`'s frame on another thread:
    /// the same frame and settings, its own occlusion, and the shadows
    /// `other` has made so far (those it makes are handed back after the
    /// frame, `adoptShadows(of:)`).
    private init(bandsOf other: Compositor) {
        frame = other.frame
        width = other.width
        height = other.height
        scale = other.scale
        backgroundColor = other.backgroundColor
        cullsOccludedLayers = other.cullsOccludedLayers
        shadowCache = other.shadowCache
        pool = other.pool
    }

    /// The whole frame, as a rectangle.
    var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// Renders `root` at media time `time`: finds what changed since the last
    /// frame and redraws only that, moving the pixels of scrolled content
    /// where it can (`lastCopies`). Returns the rectangles whose pixels
    /// changed: the moved regions, then the redrawn rectangles.
    @discardableResult
    public func render(_ root: RenderNode?, at time: Double) -> [Rect] {
        var pass = FramePass(bounds: bounds, scale: scale, time: time, previousRecords: records)
        let tree = root.flatMap { pass.prepareRoot($0) }
        pass.damageAroundCopies(tree)
        // Layers that drew before and are gone now (and where a copy moved their pixels).
        for (key, old) in records where pass.records[key] == nil {
            pass.damage.add(old.box)
            for copy in pass.copies { pass.damage.add(copy.moved(old.box)) }
        }
        records = pass.records
        lastFrameAnimated = pass.hasAnimatedRecords
        // Shadows of layers that no longer draw are dropped, so the cache holds
        // at most one mask per layer on screen.
        if shadowCache.count > records.count || shadowCache.keys.contains(where: { records[$0] == nil }) {
            shadowCache = shadowCache.filter { records[$0.key] != nil }
        }
        let rects = pass.damage.rects
        lastDamage = rects
        lastCopies = pass.copies
        for copy in pass.copies { frame.scrollPixels(in: copy.rect, byX: copy.dx, y: copy.dy) }
        lastCoveredRectCount = 0
        guard !rects.isEmpty else { return pass.copies.map(\.rect) }
        let canvas = frameCanvas
        // (Made only for a rectangle drawn in bands.)
        lazy var boxes = records.values.map(\.box)
        for rect in rects {
            let bands = self.bands(of: rect, boxes: boxes)
            if bands.count > 1 {
                drawInParallel(rect, bands, tree)
            } else if drawRect(rect, tree, in: canvas) {
                lastCoveredRectCount += 1
            }
        }
        canvas.trimScratch()
        return pass.copies.map(\.rect) + rects
    }

    /// Clears device rectangle `rect` and draws `tree` clipped to it; with
    /// `rows`, only those rows of it (a band), each exactly as drawing all of
    /// `rect` gives it. Returns whether an opaque layer covered what was drawn.
    @discardableResult
    func drawRect(_ rect: Rect, rows: Range<Int>? = nil, _ tree: FrameNode?, in canvas: Canvas) -> Bool {
        canvas.saveGState()
        var visible = rect
        if let rows {
            canvas.limitRows(to: rows)
            visible = rect.intersection(Rect(x: rect.minX, y: Double(rows.lowerBound), width: rect.width, height: Double(rows.count)))
            band = (canvas, rect, rows)
        }
        canvas.clip(to: rect)
        // What an opaque layer hides there is not painted.
        occlusion = cullsOccludedLayers ? tree.flatMap { occluder(of: visible, in: $0) } : nil
        let covered = occlusion != nil
        if !covered {
            canvas.blendMode = .copy
            canvas.fillColor = backgroundColor
            canvas.fill(visible)
            canvas.blendMode = .normal
        }
        // Layers are culled against the band: a layer's extent holds all it
        // draws (contents and text past its bounds too, `FramePass.ownBox`).
        if let tree { draw(tree, in: canvas, origin: (0, 0), clip: visible, alpha: 1) }
        occlusion = nil
        band = nil
        canvas.restoreGState()
        return covered
    }

    /// The horizontal bands `rect` is drawn in, as device rows: one band,
    /// all of its rows, when it is small (under `bandedArea` pixels or 32
    /// rows); else `bandsPerThread` bands a thread, by default one a thread
    /// and at least eight with more than one thread (the threads take them
    /// as they are free, so that a band with more layers in it does not
    /// leave the others waiting), and at least one for each
    /// `localBandBytes` of the frame it covers on any number of threads;
    /// at least 16 rows each.
    ///
    /// With `boxes` (the device boxes of the layers drawn: `records`), the
    /// rows are split by an estimate of their cost rather than evenly: each
    /// row of `rect` costs its width (the background) plus
    /// `layerPixelCost` for each pixel of a box across it, and each band
    /// gets an equal share. Threads take one band each by default, so the
    /// frame takes as long as its slowest band: with 500 layers at random
    /// on a 4K frame, even rows gave bands 0.8 to 1.23 of their mean
    /// (`strata-bench layers`; see `layerPixelCost`). The split does not
    /// change a pixel: every band draws its rows as the whole rectangle
    /// would.
    func bands(of rect: Rect, boxes: @autoclosure () -> [Rect] = []) -> [Range<Int>] {
        let top = Int(rect.minY.rounded(.down)), rows = Int(rect.maxY.rounded(.up)) - top
        guard rect.width * rect.height >= Double(bandedArea), rows >= 32 else { return [top..<(top + rows)] }
        let local = Int((rect.width * Double(rows) * 4 / Double(Compositor.localBandBytes)).rounded(.up))
        let wanted = bandsPerThread.map { threadCount * $0 } ?? max(threadCount > 1 ? max(threadCount, 8) : 1, local)
        let count = min(wanted, rows / 16)
        guard count > 1 else { return [top..<(top + rows)] }
        if let weighted = Compositor.weightedBands(top: top, rows: rows, count: count, rect: rect, boxes: boxes()) {
            return weighted
        }
        // Whole rows (damage rectangles are on whole pixels), split evenly.
        return (0..<count).map { i in (top + rows * i / count)..<(top + rows * (i + 1) / count) }
    }

    /// What a pixel of a layer's box costs against a pixel of background
    /// (`bands(of:boxes:)`): a layer blends what is under it, often through
    /// a mask or a shader, where the background is only stored. Fitted to
    /// the per-band times of `strata-bench layers`' 4K frame (eight bands
    /// on one thread, each band's time averaged over 60 frames in which the
    /// bands took turns to go first): the slowest band 1.23 of the mean
    /// with even rows, 1.09 to 1.11 with a layer pixel at 1.5 to 3
    /// background pixels, 1.13 to 1.15 at 5 to 8. (What the boxes do not
    /// tell, text, groups and images against plain backgrounds, is the rest.)
    static let layerPixelCost = 2.0

    /// `count` bands of rows `top ..< top + rows`, at least 16 rows each,
    /// whose estimated costs (`bands(of:boxes:)`) are as equal as whole rows
    /// allow; nil without boxes in the rectangle, or where the costs are not
    /// finite.
    static func weightedBands(top: Int, rows: Int, count: Int, rect: Rect, boxes: [Rect]) -> [Range<Int>]? {
        guard !boxes.isEmpty, rect.width.isFinite, rect.width > 0 else { return nil }
        // A box's width added to its first row and taken off after its
        // last: summed down the rows, each row's layer pixels.
        var change = [Double](repeating: 0, count: rows + 1)
        var any = false
        for box in boxes {
            let b = box.intersection(rect)
            guard !b.isNull, b.width > 0, b.height > 0, b.width.isFinite, b.height.isFinite else { continue }
            let y0 = min(rows, max(0, Int(b.minY.rounded(.down)) - top))
            let y1 = min(rows, max(y0, Int(b.maxY.rounded(.up)) - top))
            guard y1 > y0 else { continue }
            change[y0] += b.width
            change[y1] -= b.width
            any = true
        }
        guard any else { return nil }
        var cost = [Double](repeating: 0, count: rows)
        var across = 0.0, total = 0.0
        for r in 0..<rows {
            across += change[r]
            cost[r] = rect.width + layerPixelCost * max(0, across)
            total += cost[r]
        }
        guard total.isFinite, total > 0 else { return nil }
        // Each band ends where the running cost first reaches its share,
        // leaving 16 rows at least for it and for each band after it.
        var bands: [Range<Int>] = []
        bands.reserveCapacity(count)
        var start = 0, sum = 0.0, r = 0
        for i in 1..<count {
            let target = total * Double(i) / Double(count)
            while r < rows && sum + cost[r] <= target {
                sum += cost[r]
                r += 1
            }
            let end = min(max(r, start + 16), rows - 16 * (count - i))
            while r < end {
                sum += cost[r]
                r += 1
            }
            while r > end {
                r -= 1
                sum -= cost[r]
            }
            bands.append((top + start)..<(top + end))
            start = end
        }
        bands.append((top + start)..<(top + rows))
        return bands
    }

    /// The most bytes of the frame one band covers by default, on any
    /// number of threads: a band's layers then blend into pixels still in
    /// the processor's cache (filled with the background just before), where
    /// a whole 4K frame (32 MiB) goes out to memory between layers. On one
    /// thread of a 2-core AMD EPYC (32 MiB of L3), a 3840 × 2160 frame of
    /// `strata-bench layers` took 0.77 of its time in eight bands, one after
    /// another (0.80 in 16, 0.84 in 4), and a 1920 × 1080 frame 0.91 in
    /// four or two; more bands set up more often the layers that cross
    /// their edges.
    static let localBandBytes = 4 << 20

    /// Draws `bands` (disjoint rows of `rect`) on up to `threadCount`
    /// threads: this compositor on the calling thread, a band compositor on
    /// each other one (kept for the next frame, with its canvas). With one
    /// thread, the bands one after another on the calling thread
    /// (`localBandBytes`).
    private func drawInParallel(_ rect: Rect, _ bands: [Range<Int>], _ tree: FrameNode?) {
        let workers = min(threadCount, bands.count)
        while bandCompositors.count < workers - 1 { bandCompositors.append(Compositor(bandsOf: self)) }
        let helpers = Array(bandCompositors.prefix(workers - 1))
        for helper in helpers { helper.follow(self) }
        let crew = BandCrew(rect: rect, bands: bands, tree: tree, compositors: [self] + helpers)
        pool.perform(tasks: bands.count, workers: workers) { task, worker in
            crew.draw(task, worker: worker)
        }
        // The rectangle had an opaque cover when every band had one.
        if crew.workers.reduce(0, { $0 + $1.covered }) == bands.count { lastCoveredRectCount += 1 }
        for helper in helpers {
            helper.frameCanvas.trimScratch()
            adoptShadows(of: helper)
            // Its copy is not kept: the next rectangle hands it this one's.
            helper.shadowCache = [:]
        }
    }

    /// Takes on `other`'s settings and shadows before drawing bands of its
    /// frame (a band compositor kept from an earlier frame).
    private func follow(_ other: Compositor) {
        if backgroundColor != other.backgroundColor { backgroundColor = other.backgroundColor }
        cullsOccludedLayers = other.cullsOccludedLayers
        shadowCache = other.shadowCache
    }

    /// Keeps the shadows a band compositor made.
    private func adoptShadows(of other: Compositor) {
        for (key, entry) in other.shadowCache where shadowCache[key]?.signature != entry.signature {
            shadowCache[key] = entry
        }
    }

    /// Forgets the previous frame, so that the next `render` redraws everything.
    public func invalidate() { records.removeAll() }
}

/// One rectangle's bands and what draws them: worker `w` draws its bands
/// with `workers[w]`, its compositor and a canvas of its own on the frame.
///
/// `@unchecked Sendable`: the frame nodes, the compositors and the frame
/// are not `Sendable`, and are shared here by rule. While `perform` runs,
/// the calling thread does nothing but draw bands; the frame nodes are only
/// read (the first pass made them); each worker's compositor, canvas and
/// count are used by that worker's thread alone (one object each, so no two
/// threads write to one array); and bands are disjoint rows of the frame, so
/// no pixel is written by two threads. `perform` returns after every band
/// has been drawn.
private final class BandCrew: @unchecked Sendable {
    /// What one worker keeps.
    final class Worker {
        let compositor: Compositor
        /// Bands it found covered by an opaque layer.
        var covered = 0
        init(_ compositor: Compositor) { self.compositor = compositor }
    }

    let rect: Rect
    let bands: [Range<Int>]
    let tree: FrameNode?
    let workers: [Worker]

    init(rect: Rect, bands: [Range<Int>], tree: FrameNode?, compositors: [Compositor]) {
        self.rect = rect
        self.bands = bands
        self.tree = tree
        workers = compositors.map(Worker.init)
    }

    func draw(_ task: Int, worker w: Int) {
        let worker = workers[w]
        if worker.compositor.drawRect(rect, rows: bands[task], tree, in: worker.compositor.frameCanvas) { worker.covered += 1 }
    }
}
@inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }

func multiply(_ a: Color?, _ b: Color) -> Color {
    guard let a else { return b }
    return Color(red: a.red * b.red, green: a.green * b.green, blue: a.blue * b.blue, alpha: a.alpha * b.alpha)
}

/// `c` multiplied by a replicator copy's tint, if any.
func tinted(_ c: Color, _ tint: Color?) -> Color { tint.map { multiply($0, c) } ?? c }
