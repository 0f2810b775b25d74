import Dispatch
public import Foundation
import StrataGraphics
import StrataQueues

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A layer that draws its contents in tiles, on demand, at the level of
/// detail the current zoom needs (`CATiledLayer`): for images far larger than
/// memory allows as one bitmap, and for contents that are expensive to draw.
///
/// Each frame the compositor works out which tiles of the level it needs
/// intersect the part of the layer on screen, draws those it has, and asks
/// for the others. They are drawn on the shared `QueuePool`, several at once,
/// through `draw(in:)`; until one arrives, a coarser tile it has stands in,
/// and a new tile fades in over `fadeDuration`. The main actor never waits for
/// a tile, and a slow one holds up only the queue drawing it.
///
/// `draw(in:)` is **nonisolated** here and is called from several threads at
/// once: override it with code that reads only `Sendable`, immutable data
/// (the tile's area is `canvas.clipBoundingBox`, in layer coordinates). The
/// delegate's `draw(_:in:)`, being main-actor, is not used.
///
/// Levels of detail: level 0 draws `contentsScale` pixels per point; each
/// level below halves that, and `levelsOfDetailBias` of the levels are above
/// it (2, 4, … times). The tile drawn is the coarsest level that still has at
/// least as many pixels as the screen shows, within the levels there are.
///
/// Tiles are cached up to `maximumCacheBytes` (4 bytes a pixel); past it the
/// least recently shown are dropped. `setNeedsDisplay()` redraws every tile
/// and `setNeedsDisplay(in:)` those it touches; the old ones stay on screen
/// until their replacements are ready.
open class TiledLayer: Layer, TiledLayerProperties {
    public convenience override init() {
        self.init(pool: .shared)
    }

    /// A tiled layer whose tiles are drawn on `pool` (the shared pool unless
    /// the app keeps tile drawing apart from its other background work).
    public init(pool: QueuePool) {
        super.init()
        becomeTiledLayer(pool: pool) { [weak self] canvas in
            guard let layer = self else { return }
            layer.draw(in: canvas)
            // The last reference may be this one: the layer is let go on the
            // main queue, so that it never ends on a drawing thread.
            DispatchQueue.main.async { withExtendedLifetime(layer) {} }
        }
    }

    public required init?(coder: NSCoder) {
        // A copy shares its model's tiles (the state holds the cache).
        super.init(coder: coder)
        if state.tiled == nil { state.tiled = TiledState(store: TileStore()) }
    }

    /// Draws one tile's part of the contents; `canvas` is in layer
    /// coordinates, clipped to the tile. Called on pool queues, concurrently:
    /// see the class documentation.
    nonisolated open override func draw(in canvas: Canvas) {}

    /// Invalidates the tiles the requested area touches (all, after
    /// `setNeedsDisplay()`); they are redrawn when next shown.
    open override func display() { invalidateTiles() }
}

/// What a `TiledLayer` has, in Strata's types: declared here rather than in
/// the class so that QuartzCore's Core Animation class of the same kind,
/// which is a `Layer` of this kind but not a `TiledLayer`, has them too (see
/// `LayerProperties`).
@MainActor
public protocol TiledLayerProperties: Layer {}

extension TiledLayerProperties {
    /// Makes the layer one of this kind: its class's initializers, and the
    /// set-up of the Core Animation layer of the kind.
    package func becomeTiledLayer(pool: QueuePool, drawing: @escaping @Sendable (Canvas) -> Void) {
        let store = TileStore(pool: pool)
        state.tiled = TiledState(store: store)
        store.setDrawing(drawing)
    }

    /// The tile cache.
    var store: TileStore { state.tiled!.store }

    /// Invalidates the tiles the requested area touches (all, after
    /// `setNeedsDisplay()`): a tiled layer's `display()`.
    package func invalidateTiles() {
        let area = needsDisplayRect
        needsDisplayRect = nil
        store.invalidate(area)
        markDirty()
    }

    fileprivate func set<V: Equatable & Sendable>(_ key: String, _ kp: WritableKeyPath<TiledState, V>, _ v: V) {
        let part: WritableKeyPath<LayerState, TiledState> = \LayerState.tiled!
        change(key, part.appending(path: kp), v)
    }

    /// The size of a tile in pixels (default 256 × 256): in points it is this
    /// divided by `contentsScale` (and by the level's scale). Each side is
    /// rounded up to whole pixels and kept within 16…4096; a size that is not
    /// finite, or not positive, is ignored.
    @_disfavoredOverload public var tileSize: Size {
        get { Size(width: Double(state.tiled!.tileWidth), height: Double(state.tiled!.tileHeight)) }
        set {
            guard newValue.width.isFinite, newValue.height.isFinite, newValue.width > 0, newValue.height > 0 else { return }
            set("tileWidth", \.tileWidth, Int(saturating: min(4096, max(16, newValue.width.rounded(.up)))))
            set("tileHeight", \.tileHeight, Int(saturating: min(4096, max(16, newValue.height.rounded(.up)))))
        }
    }

    /// How many levels of detail there are (default 1), each half the
    /// resolution of the one above; kept within 1…30.
    @_disfavoredOverload public var levelsOfDetail: Int {
        get { state.tiled!.levelsOfDetail }
        set { set("levelsOfDetail", \.levelsOfDetail, min(30, max(1, newValue))) }
    }

    /// How many of the levels magnify, above `contentsScale` (default 0);
    /// kept within 0…(`levelsOfDetail` − 1) when drawing.
    @_disfavoredOverload public var levelsOfDetailBias: Int {
        get { state.tiled!.levelsOfDetailBias }
        set { set("levelsOfDetailBias", \.levelsOfDetailBias, min(30, max(0, newValue))) }
    }

    /// How long a new tile takes to fade in, in seconds (default 0.25; 0 for
    /// none; negative and non-finite values count as 0).
    @_disfavoredOverload public var fadeDuration: Double {
        get { state.tiled!.fadeDuration }
        set { set("fadeDuration", \.fadeDuration, newValue.isFinite ? max(0, newValue) : 0) }
    }

    /// The most the tile cache may hold, in bytes (default 64 MiB).
    @_disfavoredOverload public var maximumCacheBytes: Int {
        get { store.maximumBytes }
        set { store.maximumBytes = max(0, newValue) }
    }

    /// The pool priority tiles are drawn at (default `userInitiated`).
    @_disfavoredOverload public var drawingPriority: DrawingPriority {
        get { store.priority }
        set { store.priority = newValue }
    }

    /// Bytes the cached tiles hold now.
    @_disfavoredOverload public var cachedBytes: Int { store.statistics.bytes }

    /// Tiles cached now.
    @_disfavoredOverload public var cachedTileCount: Int { store.statistics.tiles }

    /// Tiles waiting to be drawn or being drawn.
    @_disfavoredOverload public var pendingTileCount: Int { store.statistics.pending }

    /// Tiles drawn since the layer was made.
    @_disfavoredOverload public var drawnTileCount: Int { store.statistics.drawn }
}

/// A tiled layer's tiling, and the cache it shares with its render nodes.
struct TiledState: Sendable {
    var tileWidth = 256
    var tileHeight = 256
    var levelsOfDetail = 1
    var levelsOfDetailBias = 0
    var fadeDuration = 0.25
    let store: TileStore

    init(store: TileStore) { self.store = store }

    /// The level for a screen showing `needed` pixels per point per unit of
    /// `contentsScale`: the coarsest with at least that many, within the levels.
    func level(forScale needed: Double) -> Int {
        let top = min(levelsOfDetailBias, levelsOfDetail - 1)
        let bottom = top - (levelsOfDetail - 1)
        guard needed > 0, needed.isFinite else { return top }
        let e = log2(needed) - 1e-9
        guard e.isFinite else { return top }
        return min(top, max(bottom, Int(saturating: e.rounded(.up))))
    }

    var lowestLevel: Int { min(levelsOfDetailBias, levelsOfDetail - 1) - (levelsOfDetail - 1) }
}

/// A tile: its level (scale 2^level) and column and row.
struct TileKey: Hashable, Sendable {
    var level: Int
    var x: Int
    var y: Int
}

/// One tile asked for by a frame: where it is (layer points) and how many
/// pixels per point it is drawn at.
struct TileRequest {
    var key: TileKey
    var rect: Rect
    var scale: Double
}

/// A tiled layer's tiles: cached images, the queue of tiles to draw, and the
/// workers drawing them on the pool. All state is behind one mutex, held only
/// for bookkeeping, never while a tile is drawn.
final class TileStore: Sendable {
    struct Entry {
        var rect: Rect
        var scale: Double
        var image: Image?
        var bytes = 0
        /// The frame that last asked for it.
        var lastUse: Int
        /// The media time it first showed (for the fade).
        var shownAt: Double?
        /// Waiting for or being drawn.
        var queued = false
        /// The generation the image was drawn at (−1: none yet), and the last
        /// one that invalidated it.
        var stamp = -1
        var dirtyAt = 0
        var isStale: Bool { image == nil || stamp < dirtyAt }
    }

    struct State {
        var entries: [TileKey: Entry] = [:]
        /// Tiles to draw, the most recently asked for last.
        var queue: [TileKey] = []
        var bytes = 0
        var frame = 0
        var generation = 0
        /// Bumped whenever a tile arrives.
        var version = 0
        /// Workers sent to the pool and not started yet.
        var launched = 0
        /// Started workers, with when they began their current tile (nil
        /// between tiles).
        var workers: [Int: UInt64?] = [:]
        var nextWorker = 0
        var drawn = 0
        var maximumBytes = 64 << 20
        var priority = DrawingPriority.userInitiated
        /// When the last fade in progress ends.
        var fadesUntil = -Double.infinity
        /// The time of the last frame begun (`beginFrame`).
        var lastFrameTime = -Double.infinity
        var draw: (@Sendable (Canvas) -> Void)?
    }

    let state = Locked(State())
    let pool: QueuePool

    init(pool: QueuePool = .shared) { self.pool = pool }

    func setDrawing(_ draw: @escaping @Sendable (Canvas) -> Void) { state.withLock { $0.draw = draw } }

    var maximumBytes: Int {
        get { state.withLock { $0.maximumBytes } }
        set {
            state.withLock {
                $0.maximumBytes = newValue
                TileStore.evict(&$0)
            }
        }
    }

    var priority: DrawingPriority {
        get { state.withLock { $0.priority } }
        set { state.withLock { $0.priority = newValue } }
    }

    var statistics: (bytes: Int, tiles: Int, pending: Int, drawn: Int) {
        state.withLock { s in
            (s.bytes, s.entries.values.count { $0.image != nil }, s.entries.values.count { $0.queued }, s.drawn)
        }
    }

    /// Starts a frame; returns the version (which changes when tiles arrive)
    /// and whether a fade is still running at `time`.
    func beginFrame(at time: Double) -> (version: Int, fading: Bool) {
        state.withLock { s in
            s.frame += 1
            // A fade running at the last frame drew tiles partly
            // transparent: this frame draws them again even where the fade
            // has ended since (a frame that comes after the fade's end
            // would otherwise find nothing changed and keep them so).
            let fading = s.fadesUntil > time || s.fadesUntil > s.lastFrameTime
            s.lastFrameTime = time
            return (s.version, fading)
        }
    }

    /// The images of the requested tiles that are ready, with their fade (0…1);
    /// queues those missing or stale, and starts workers to draw them.
    func tiles(_ requests: [TileRequest], at time: Double, fade: Double) -> [(image: Image, alpha: Double)?] {
        var out: [(image: Image, alpha: Double)?] = []
        out.reserveCapacity(requests.count)
        let start = state.withLock { s -> (count: Int, priority: DrawingPriority) in
            for r in requests {
                var e = s.entries[r.key] ?? Entry(rect: r.rect, scale: r.scale, lastUse: s.frame)
                e.lastUse = s.frame
                if e.rect != r.rect || e.scale != r.scale {
                    // The tiling changed (bounds, contents scale or tile size):
                    // this image no longer fits.
                    e.rect = r.rect
                    e.scale = r.scale
                    s.bytes -= e.bytes
                    e.image = nil
                    e.bytes = 0
                    e.shownAt = nil
                }
                if e.isStale && !e.queued {
                    e.queued = true
                    s.queue.append(r.key)
                }
                if let image = e.image {
                    let shown = e.shownAt ?? time
                    e.shownAt = shown
                    let alpha = fade > 0 ? min(1, max(0, (time - shown) / fade)) : 1
                    if alpha < 1 { s.fadesUntil = max(s.fadesUntil, shown + fade) }
                    out.append((image, alpha))
                } else {
                    out.append(nil)
                }
                s.entries[r.key] = e
            }
            // Workers at work: those sent and not started, and those drawing
            // for less than 100 ms. One stuck on a slow tile does not count,
            // so the rest of the queue goes on without it (the pool sends new
            // workers to its idle queues first).
            let now = DispatchTime.now().uptimeNanoseconds
            let active =
                s.launched
                + s.workers.values.count { started in
                    guard let started else { return true }
                    return now &- started < 100_000_000
                }
            let wanted = min(s.queue.count, pool.queuesPerPriority) - active
            if wanted > 0 { s.launched += wanted }
            return (max(0, wanted), s.priority)
        }
        for _ in 0..<start.count { pool.async(start.priority) { self.work() } }
        return out
    }

    /// A cached tile of a coarser level (down to `lowest`) covering `key`, to
    /// show until `key` arrives.
    func standIn(for key: TileKey, lowest: Int) -> (image: Image, rect: Rect)? {
        state.withLock { s in
            var level = key.level - 1, x = key.x, y = key.y
            while level >= lowest {
                x = x >> 1
                y = y >> 1
                if let e = s.entries[TileKey(level: level, x: x, y: y)], let image = e.image {
                    return (image, e.rect)
                }
                level -= 1
            }
            return nil
        }
    }

    /// Marks the tiles that intersect `area` (layer points; nil: all) stale.
    func invalidate(_ area: Rect?) {
        state.withLock { s in
            s.generation += 1
            for (k, e) in s.entries where area.map({ $0.intersects(e.rect) }) ?? true {
                s.entries[k]?.dirtyAt = s.generation
            }
            s.version += 1
        }
    }

    /// A worker: draws queued tiles, newest first, until none is left. Tiles
    /// no frame asked for lately are skipped (scrolled past).
    private func work() {
        let id = state.withLock { s in
            s.launched -= 1
            s.nextWorker += 1
            s.workers[s.nextWorker] = .some(nil)
            return s.nextWorker
        }
        while true {
            let job = state.withLock { s -> (key: TileKey, entry: Entry, generation: Int, draw: (@Sendable (Canvas) -> Void)?)? in
                while let k = s.queue.popLast() {
                    guard var e = s.entries[k], e.queued else { continue }
                    if e.lastUse < s.frame - 1 {
                        e.queued = false
                        s.entries[k] = e.image == nil ? nil : e
                        continue
                    }
                    s.workers[id] = .some(DispatchTime.now().uptimeNanoseconds)
                    return (k, e, s.generation, s.draw)
                }
                s.workers[id] = nil
                return nil
            }
            guard let job else { return }
            let image = TileStore.render(job.entry, job.draw)
            state.withLock { s in
                s.workers[id] = .some(nil)
                guard var e = s.entries[job.key], e.queued else { return }
                e.queued = false
                s.drawn += 1
                if let image, e.rect == job.entry.rect, e.scale == job.entry.scale {
                    s.bytes += image.width * image.height * 4 - e.bytes
                    e.bytes = image.width * image.height * 4
                    e.image = image
                    e.stamp = job.generation
                    s.version += 1
                }
                s.entries[job.key] = e
                TileStore.evict(&s)
            }
        }
    }

    /// Draws one tile into a new image.
    static func render(_ e: Entry, _ draw: (@Sendable (Canvas) -> Void)?) -> Image? {
        // Whole pixels, rounded up, but a side within rounding error of a
        // whole number is that number: a 256-pixel tile at 3 pixels a point
        // is 85.33… points, which comes back as 256.000…03, not 257.
        func pixels(_ v: Double) -> Int {
            let nearest = v.rounded()
            return Int(saturating: abs(v - nearest) < 1e-6 ? nearest : v.rounded(.up))
        }
        let w = pixels(e.rect.width * e.scale), h = pixels(e.rect.height * e.scale)
        guard w > 0, h > 0, let canvas = try? Canvas(width: w, height: h) else { return nil }
        canvas.scaleBy(x: e.scale, y: e.scale)
        canvas.translateBy(x: -e.rect.minX, y: -e.rect.minY)
        canvas.clip(to: e.rect)
        draw?(canvas)
        return canvas.makeImage()
    }

    /// Drops the least recently shown tiles until the cache is within its bound.
    static func evict(_ s: inout State) {
        guard s.bytes > s.maximumBytes else { return }
        let order = s.entries.filter { $0.value.image != nil }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (k, e) in order {
            guard s.bytes > s.maximumBytes else { break }
            s.bytes -= e.bytes
            if e.queued {
                s.entries[k]?.image = nil
                s.entries[k]?.bytes = 0
                s.entries[k]?.shownAt = nil
            } else {
                s.entries[k] = nil
            }
        }
    }
}

extension LayerState {
    /// A tiled layer's part of the state; nil for other layers.
    var tiled: TiledState? {
        get { special as? TiledState }
        set { special = newValue }
    }
}

/// The tiles one frame shows of a tiled layer (its `FrameNode.specialData`).
final class TileFrame: SpecialFrameData {
    /// Tiles asked for, and what the cache had of each (with its fade).
    typealias Tiles = (requests: [TileRequest], found: [(image: Image, alpha: Double)?])
    /// The tiles on screen, asked for by `prepareFrame`, and those of them
    /// the cache had; nil under perspective, where they are asked for when
    /// drawn, at the scale of the flat drawing.
    let asked: Tiles?
    /// The frame's media time, for the fades of tiles asked for when drawn.
    let time: Double
    /// What the store answered this frame, by question: each band of a frame
    /// drawn on several threads asks at another moment, and a tile that
    /// arrives in between must not show in one band and not the next.
    /// (`Locked`, not `Mutex`, which the thread sanitizer does not see:
    /// docs/Architecture.md, "Lock and cache".)
    private let answers = Locked(Answers())

    struct Answers {
        var standIns: [TileKey: (image: Image, rect: Rect)?] = [:]
        var tiles: [[TileKey]: [(image: Image, alpha: Double)?]] = [:]
    }

    init(asked: Tiles?, time: Double) {
        self.asked = asked
        self.time = time
    }

    /// The stand-in for `key`, as the store first gave it this frame.
    func standIn(for key: TileKey, lowest: Int, in store: TileStore) -> (image: Image, rect: Rect)? {
        if let known = answers.withLock({ $0.standIns[key] }) { return known }
        let found = store.standIn(for: key, lowest: lowest)
        return answers.withLock { a in
            if let known = a.standIns[key] { return known }
            a.standIns[key] = found
            return found
        }
    }

    /// The tiles of `requests` at this frame's time, as the store first gave
    /// them this frame.
    func tiles(_ requests: [TileRequest], fade: Double, in store: TileStore) -> [(image: Image, alpha: Double)?] {
        let keys = requests.map(\.key)
        if let known = answers.withLock({ $0.tiles[keys] }) { return known }
        let found = store.tiles(requests, at: time, fade: fade)
        return answers.withLock { a in
            if let known = a.tiles[keys] { return known }
            a.tiles[keys] = found
            return found
        }
    }
}

extension TiledState: SpecialLayerState {
    /// Starts the store's frame and asks for the tiles on screen. They are
    /// asked for every frame, drawn or not, so that a tile waiting in the
    /// queue is never taken for one scrolled past; the drawing uses what was
    /// found here, so one frame asks once. Tiles that arrived since the last
    /// frame (the store's version) or are fading in redraw the layer.
    func prepareFrame(for layer: FrameNode, at time: Double, in pass: FramePass) -> SpecialFrame? {
        let frame = store.beginFrame(at: time)
        var asked: TileFrame.Tiles?
        if layer.homography.isAffine {
            let requests = tileRequests(layer.state, ctm: layer.homography.affine, area: layer.box)
            asked = (requests, requests.isEmpty ? [] : store.tiles(requests, at: time, fade: fadeDuration))
        }
        return SpecialFrame(isAnimated: frame.fading, contentVersion: frame.version, data: TileFrame(asked: asked, time: pass.time))
    }

    /// The tiles a tiled layer with presentation state `s` needs where `ctm`
    /// maps its coordinates to pixels and `area` (pixels) is what shows: the
    /// level the scale asks for, the tiles of it that intersect.
    func tileRequests(_ s: LayerState, ctm: Transform, area: Rect) -> [TileRequest] {
        let b = s.bounds
        guard b.width > 0, b.height > 0, b.width.isFinite, b.height.isFinite, !area.isNull,
            let inverse = ctm.inverted()
        else { return [] }
        let deviceScale = abs(ctm.a * ctm.d - ctm.b * ctm.c).squareRoot()
        let cs = s.contentsScale > 0 && s.contentsScale.isFinite ? s.contentsScale : 1
        guard deviceScale > 0, deviceScale.isFinite else { return [] }
        let level = self.level(forScale: deviceScale / cs)
        let k = cs * pow(2, Double(level))
        let tw = Double(tileWidth) / k, th = Double(tileHeight) / k
        let visible = area.applying(inverse).intersection(b)
        guard !visible.isNull, visible.width > 0, visible.height > 0 else { return [] }
        let i0 = Int(saturating: (visible.minX / tw).rounded(.down)), i1 = Int(saturating: (visible.maxX / tw).rounded(.up))
        let j0 = Int(saturating: (visible.minY / th).rounded(.down)), j1 = Int(saturating: (visible.maxY / th).rounded(.up))
        // A layer zoomed far out past its levels would need a tile per pixel
        // or fewer: past 4096 tiles in one frame it draws none.
        // (Each side first, so that the product cannot overflow.)
        guard i1 > i0, j1 > j0, i1 - i0 <= 4096, j1 - j0 <= 4096, (i1 - i0) * (j1 - j0) <= 4096 else { return [] }
        var requests: [TileRequest] = []
        requests.reserveCapacity((i1 - i0) * (j1 - j0))
        for j in j0..<j1 {
            for i in i0..<i1 {
                let rect = Rect(x: Double(i) * tw, y: Double(j) * th, width: tw, height: th).intersection(b)
                guard !rect.isNull, rect.width > 0, rect.height > 0 else { continue }
                requests.append(TileRequest(key: TileKey(level: level, x: i, y: j), rect: rect, scale: k))
            }
        }
        return requests
    }

    /// Draws the tiles for the part of the layer the canvas shows (the canvas
    /// is in layer coordinates): stand-ins first where tiles are missing or
    /// fading in, then the tiles. The frame's `prepareFrame` asked for them,
    /// except under perspective (the layer drawn flat, at another scale),
    /// where they are asked for here.
    func draw(_ layer: FrameNode, in canvas: Canvas) {
        guard let frame = layer.specialData as? TileFrame else { return }
        let tint = layer.tint
        let ctm = canvas.transform
        let requests: [TileRequest], found: [(image: Image, alpha: Double)?]
        if let asked = frame.asked {
            (requests, found) = (asked.requests, asked.found)
        } else {
            requests = tileRequests(layer.state, ctm: ctm, area: canvas.clipBoundingBox.applying(ctm))
            found = requests.isEmpty ? [] : frame.tiles(requests, fade: fadeDuration, in: store)
        }
        guard !requests.isEmpty else { return }
        let axisAligned = ctm.b == 0 && ctm.c == 0
        let inverse = ctm.inverted()
        // A tile's rectangle with its edges on device pixels, so that
        // neighbours meet without an anti-aliased seam.
        func snapped(_ r: Rect) -> Rect {
            guard axisAligned, let inverse else { return r }
            let d = r.applying(ctm)
            let x0 = d.minX.rounded(), y0 = d.minY.rounded(), x1 = d.maxX.rounded(), y1 = d.maxY.rounded()
            guard x1 > x0, y1 > y0 else { return r }
            return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).applying(inverse)
        }
        for (r, tile) in zip(requests, found) where (tile?.alpha ?? 0) < 1 {
            guard let standIn = frame.standIn(for: r.key, lowest: lowestLevel, in: store) else { continue }
            canvas.saveGState()
            canvas.clip(to: snapped(r.rect))
            canvas.draw(tint.map { standIn.image.multiplied(by: $0) } ?? standIn.image, in: snapped(standIn.rect))
            canvas.restoreGState()
        }
        let alpha = canvas.alpha
        for (r, tile) in zip(requests, found) {
            guard let tile else { continue }
            canvas.alpha = alpha * tile.alpha
            canvas.draw(tint.map { tile.image.multiplied(by: $0) } ?? tile.image, in: snapped(r.rect))
        }
        canvas.alpha = alpha
    }
}
