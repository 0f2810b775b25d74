import Dispatch
import Foundation
import StrataGraphics
import StrataTestSupport
import Synchronization
import Testing

@testable import StrataLayers

/// What the test tiles saw while drawing: one record per tile drawn.
final class TileLog: Sendable {
    struct Draw: Sendable {
        var area: Rect
        var scale: Double
        var onMain: Bool
    }
    let draws = Locked<[Draw]>([])
    let active = Atomic<Int>(0)
    let mostActive = Atomic<Int>(0)
    var count: Int { draws.withLock { $0.count } }
    var all: [Draw] { draws.withLock { $0 } }
}

/// A tiled layer that fills each tile with a colour picked by `colorFor`
/// (from the tile's area and pixels per point), optionally after `delay`, and
/// blocking on `gate` for tiles `isSlow` picks.
final class PaintedTiles: TiledLayer {
    let log = TileLog()
    struct Settings: Sendable {
        var colorFor: @Sendable (Rect, Double) -> Color = { _, _ in .red }
        var delay: Double = 0
        var isSlow: @Sendable (Rect) -> Bool = { _ in false }
    }
    let settings = Locked(Settings())
    var colorFor: @Sendable (Rect, Double) -> Color {
        get { settings.withLock { $0.colorFor } }
        set { settings.withLock { $0.colorFor = newValue } }
    }
    var delay: Double {
        get { settings.withLock { $0.delay } }
        set { settings.withLock { $0.delay = newValue } }
    }
    var isSlow: @Sendable (Rect) -> Bool {
        get { settings.withLock { $0.isSlow } }
        set { settings.withLock { $0.isSlow = newValue } }
    }
    let gate = DispatchSemaphore(value: 0)

    nonisolated override func draw(in canvas: Canvas) {
        let area = canvas.clipBoundingBox, scale = canvas.transform.a
        let (colorFor, delay, isSlow) = settings.withLock { ($0.colorFor, $0.delay, $0.isSlow) }
        let now = log.active.wrappingAdd(1, ordering: .relaxed).newValue
        var seen = log.mostActive.load(ordering: .relaxed)
        while now > seen, !log.mostActive.compareExchange(expected: seen, desired: now, ordering: .relaxed).exchanged {
            seen = log.mostActive.load(ordering: .relaxed)
        }
        if isSlow(area) { gate.wait() }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        canvas.fillColor = colorFor(area, scale)
        canvas.fill(area)
        log.active.wrappingSubtract(1, ordering: .relaxed)
        log.draws.withLock { $0.append(.init(area: area, scale: scale, onMain: Thread.isMainThread)) }
    }
}

/// Renders frames until no tile is pending (at most about 3 s).
@MainActor
func settle(_ host: LayerHost, _ layer: TiledLayer, leaving: Int = 0, tries: Int = 600) async {
    host.advance()
    for _ in 0..<tries where layer.pendingTileCount > leaving {
        // Asleep without holding the main actor, so that other suites' tests
        // waiting on it (and holding pool queues) go on.
        try? await Task.sleep(nanoseconds: 5_000_000)
        host.advance()
    }
    host.advance()
}

/// Waits, without holding the main actor, until `condition` holds (giving
/// up after 3,000 tries and two minutes, for a parallel run whose other
/// suites keep the pool busy; the expectations after it say what was
/// missing).
@MainActor
func until(_ condition: () -> Bool) async {
    let deadline = Date().addingTimeInterval(120)
    var tries = 0
    while !condition() && (tries < 3000 || Date() < deadline) {
        tries += 1
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}

@MainActor
func withoutActions(_ body: () -> Void) {
    Transaction.begin()
    Transaction.disableActions = true
    body()
    Transaction.commit()
}

@MainActor
@Suite struct TiledLayerTests {
    func scene(size: Int = 300, layerSize: Double = 2048, pool: QueuePool = .shared) -> (LayerHost, PaintedTiles) {
        let host = try! LayerHost(width: size, height: size)
        let tiles = PaintedTiles(pool: pool)
        tiles.frame = Rect(x: 0, y: 0, width: layerSize, height: layerSize)
        tiles.fadeDuration = 0
        host.rootLayer.addSublayer(tiles)
        return (host, tiles)
    }

    @Test func onlyTheVisibleTilesAreDrawnOffTheMainThread() async {
        let (host, tiles) = scene()
        tiles.colorFor = { r, _ in r.minX == 0 && r.minY == 0 ? .red : .blue }
        let first = host.renderFrame()
        // The main actor did not wait: the first frame shows no tiles yet.
        #expect(!first.isEmpty)
        await settle(host, tiles)
        // 300 × 300 points of a 2048-point layer: 2 × 2 tiles of 256.
        #expect(tiles.log.count == 4)
        #expect(
            Set(tiles.log.all.map(\.area)) == [
                Rect(x: 0, y: 0, width: 256, height: 256), Rect(x: 256, y: 0, width: 256, height: 256),
                Rect(x: 0, y: 256, width: 256, height: 256), Rect(x: 256, y: 256, width: 256, height: 256),
            ])
        #expect(tiles.log.all.allSatisfy { !$0.onMain })
        let b = Bitmap(image: host.makeImage())
        #expect(near(b[10, 10], red, 2) && near(b[255, 255], red, 2))
        #expect(near(b[256, 10], blue, 2) && near(b[10, 299], blue, 2))
        #expect(tiles.cachedTileCount == 4 && tiles.cachedBytes == 4 * 256 * 256 * 4)
        #expect(matchesAFullRedraw(host))
    }

    @Test func tilesAreDrawnConcurrentlyOnThePool() async {
        // A pool of its own, so that other suites' blocked drawings do not
        // take its queues. Every tile waits at the gate: both queues hold
        // one at once (two drawings overlap), never a third.
        let pool = QueuePool(queuesPerPriority: 2)
        let (host, tiles) = scene(size: 1024, pool: pool)
        tiles.isSlow = { _ in true }
        host.renderFrame()
        await until { tiles.log.active.load(ordering: .relaxed) == 2 }
        #expect(tiles.log.mostActive.load(ordering: .relaxed) == 2)
        for _ in 0..<16 { tiles.gate.signal() }
        await settle(host, tiles)
        #expect(tiles.log.count == 16)
        #expect(tiles.log.mostActive.load(ordering: .relaxed) == 2)
    }

    @Test func theLevelOfDetailFollowsTheScale() async {
        let (host, tiles) = scene()
        tiles.levelsOfDetail = 3
        tiles.levelsOfDetailBias = 1
        // Shown at a quarter: the level at half scale is the lowest there is
        // (bias 1 of 3 levels: 2, 1 and 0.5).
        tiles.transform = Transform3D(scaleX: 0.25, y: 0.25)
        tiles.position = Point(x: 0, y: 0)
        tiles.anchorPoint = .zero
        await settle(host, tiles)
        #expect(!tiles.log.all.isEmpty)
        #expect(tiles.log.all.allSatisfy { $0.scale == 0.5 && $0.area.width == 512 })
        // Shown at 1.5: the level at 2.
        let before = tiles.log.count
        withoutActions { tiles.transform = Transform3D(scaleX: 1.5, y: 1.5) }
        await settle(host, tiles)
        let later = tiles.log.all.dropFirst(before)
        #expect(!later.isEmpty && later.allSatisfy { $0.scale == 2 && $0.area.width == 128 })
    }

    @Test func theTileSizeIsInPixels() async {
        let (host, tiles) = scene()
        tiles.contentsScale = 2
        tiles.tileSize = Size(width: 128, height: 64)
        await settle(host, tiles)
        // 128 × 64 pixels at 2 pixels a point: 64 × 32 points.
        #expect(tiles.log.all.allSatisfy { $0.area.width == 64 && $0.area.height == 32 && $0.scale == 2 })
        #expect(tiles.log.count == 5 * 10)
    }

    @Test func tilesAtAScaleThatIsNotAPowerOfTwoAreWholeTiles() async {
        // 256 pixels at 3 pixels a point: 85.33… points a tile, which scaled
        // back comes out a hair over 256; each tile is still 256 × 256.
        let host = try! LayerHost(width: 300, height: 300, scale: 3)
        let tiles = PaintedTiles()
        // Columns 5 and 6 and rows 7 and 8 on screen: where the sum comes
        // out over (column 5 and rows 7 and 8, for one).
        let t = 256.0 / 3
        tiles.frame = Rect(x: -5 * t - 1, y: -7 * t - 1, width: 2048, height: 2048)
        tiles.fadeDuration = 0
        tiles.contentsScale = 3
        host.rootLayer.addSublayer(tiles)
        await settle(host, tiles)
        // 100 × 100 points on screen: 2 × 2 tiles of 85.33 points.
        #expect(Set(tiles.log.all.map { Int(($0.area.minX / t).rounded()) }) == [5, 6])
        #expect(Set(tiles.log.all.map { Int(($0.area.minY / t).rounded()) }) == [7, 8])
        #expect(tiles.cachedTileCount == 4)
        #expect(tiles.cachedBytes == 4 * 256 * 256 * 4)
    }

    /// A layer a billion points wide at contents scale 1000, shrunk a million
    /// times: billions of tiles a side at the level it asks for. It draws
    /// none (past 4096 a frame), and counting them must not overflow.
    @Test func farTooManyTilesDrawNoneWithoutOverflow() {
        let (host, tiles) = scene(size: 100)
        withoutActions {
            tiles.contentsScale = 1000
            tiles.bounds = Rect(x: 0, y: 0, width: 1e9, height: 1e9)
            tiles.position = Point(x: 50, y: 50)
            tiles.transform = Transform3D(scaleX: 1e-6, y: 1e-6)
        }
        host.renderFrame()
        #expect(tiles.pendingTileCount == 0 && tiles.log.count == 0)
    }

    @Test func badTileSizesAreIgnoredOrClamped() {
        let tiles = TiledLayer()
        for bad in [Size(width: 0, height: 10), Size(width: -5, height: 10), Size(width: .nan, height: 10), Size(width: 10, height: .infinity)] {
            tiles.tileSize = bad
            #expect(tiles.tileSize == Size(width: 256, height: 256))
        }
        tiles.tileSize = Size(width: 3, height: 100_000)
        #expect(tiles.tileSize == Size(width: 16, height: 4096))
        tiles.tileSize = Size(width: 100.2, height: 50)
        #expect(tiles.tileSize == Size(width: 101, height: 50))
        tiles.levelsOfDetail = -3
        #expect(tiles.levelsOfDetail == 1)
        tiles.fadeDuration = -1
        #expect(tiles.fadeDuration == 0)
        tiles.fadeDuration = .nan
        #expect(tiles.fadeDuration == 0)
    }

    @Test func setNeedsDisplayInRectRedrawsOnlyTheTilesItTouches() async {
        let (host, tiles) = scene()
        await settle(host, tiles)
        #expect(tiles.log.count == 4)
        tiles.colorFor = { _, _ in .blue }
        tiles.setNeedsDisplay(in: Rect(x: 300, y: 10, width: 5, height: 5))
        await settle(host, tiles)
        #expect(tiles.log.count == 5)
        #expect(tiles.log.all.last?.area == Rect(x: 256, y: 0, width: 256, height: 256))
        let b = Bitmap(image: host.makeImage())
        #expect(near(b[290, 10], blue, 2) && near(b[10, 10], red, 2) && near(b[290, 290], red, 2))
        // All of them.
        tiles.setNeedsDisplay()
        await settle(host, tiles)
        #expect(tiles.log.count == 9)
        #expect(near(Bitmap(image: host.makeImage())[10, 10], blue, 2))
        #expect(matchesAFullRedraw(host))
    }

    /// A 100-point scene whose red tile fades in over `fade` seconds, drawn
    /// and shown by a first frame, at alpha 0 (checked): the fade tests' start.
    func fadingTile(_ fade: Double) async -> LayerHost {
        let (host, tiles) = scene(size: 100)
        tiles.fadeDuration = fade
        host.renderFrame()
        await until { tiles.pendingTileCount == 0 }
        host.renderFrame()
        #expect(near(centre(host), white, 2))
        return host
    }

    /// The host's picture's pixel at (50, 50).
    func centre(_ host: LayerHost) -> Pixel { Bitmap(image: host.makeImage())[50, 50] }

    @Test func newTilesFadeIn() async {
        // The first frame with the tile shows it at alpha 0; half the fade
        // later it is half there.
        let host = await fadingTile(0.5)
        host.advance(by: 0.25)
        #expect(near(centre(host), Pixel(r: 255, g: 128, b: 128, a: 255), 3))
        host.advance(by: 0.25)
        #expect(near(centre(host), red, 2))
        #expect(matchesAFullRedraw(host))
    }

    @Test func aFadeThatEndsBetweenFramesEndsOnScreen() async {
        // The only frame during the fade shows the tile at alpha 0; the next
        // comes after the fade has ended, with no tile arriving between:
        // it must draw the tile whole (it kept the transparent one).
        let host = await fadingTile(0.25)
        host.advance(by: 1)
        #expect(near(centre(host), red, 2))
        host.advance(by: 1)
        #expect(near(centre(host), red, 2))
        #expect(matchesAFullRedraw(host))
    }

    @Test func aCoarserTileStandsInUntilTheSharpOneArrives() async {
        let (host, tiles) = scene(size: 200)
        tiles.levelsOfDetail = 2
        tiles.colorFor = { _, scale in scale < 1 ? .blue : .red }
        tiles.anchorPoint = .zero
        tiles.position = .zero
        tiles.transform = Transform3D(scaleX: 0.5, y: 0.5)
        await settle(host, tiles)
        #expect(near(Bitmap(image: host.makeImage())[50, 50], blue, 2))
        // Zoomed to 1: the level-0 tiles are held up; the half-scale one shows.
        tiles.isSlow = { _ in true }
        withoutActions { tiles.transform = .identity }
        host.renderFrame()
        await until { tiles.log.active.load(ordering: .relaxed) > 0 }  // a sharp tile is being drawn, held at the gate
        host.renderFrame()
        #expect(near(Bitmap(image: host.makeImage())[50, 50], blue, 2))
        tiles.isSlow = { _ in false }
        for _ in 0..<8 { tiles.gate.signal() }
        await settle(host, tiles)
        #expect(near(Bitmap(image: host.makeImage())[50, 50], red, 2))
    }

    @Test func aSlowTileHoldsUpNeitherTheOthersNorTheMainActor() async {
        let (host, tiles) = scene(size: 600, pool: QueuePool(queuesPerPriority: 2))
        tiles.isSlow = { r in r.minX == 0 && r.minY == 0 }
        host.renderFrame()
        await settle(host, tiles, leaving: 1)
        // Every tile but the slow one arrived, and no frame waited for it:
        // the slow tile is held until the test lets it go, so a frame that
        // waited would never end. (Each frame's own time is what is bounded;
        // the wall time of the whole wait depends on what else the machine
        // runs, and went past 8 s once with the full suite beside it.)
        #expect(tiles.pendingTileCount == 1)
        #expect(tiles.log.count == 8)
        #expect(host.statistics.framesRendered > 1)
        let b = Bitmap(image: host.makeImage())
        #expect(near(b[10, 10], white, 2) && near(b[300, 300], red, 2) && near(b[590, 10], red, 2))
        // Tiles asked for later, while it is still stuck, arrive too.
        withoutActions { tiles.position.x -= 300 }
        await settle(host, tiles, leaving: 1)
        #expect(tiles.log.count == 11)
        #expect(near(Bitmap(image: host.makeImage())[590, 10], red, 2))
        tiles.gate.signal()
        await settle(host, tiles)
        #expect(near(Bitmap(image: host.makeImage())[10, 10], red, 2))
    }

    @Test(.tags(.slow)) func scrollingAcross10000TilesKeepsTheCacheWithinItsBound() async {
        // A 1600-point layer in 16-pixel tiles: 100 × 100 tiles, seen 64
        // points (4 × 4 tiles) at a time, the cache allowing 40 tiles.
        let (host, tiles) = scene(size: 64, layerSize: 1600)
        tiles.tileSize = Size(width: 16, height: 16)
        tiles.maximumCacheBytes = 40 * 16 * 16 * 4
        tiles.anchorPoint = .zero
        var worst = 0
        for row in 0..<25 {
            for column in 0..<25 {
                withoutActions { tiles.position = Point(x: -Double(column) * 64, y: -Double(row) * 64) }
                await settle(host, tiles, tries: 100)
                worst = max(worst, tiles.cachedBytes)
            }
        }
        #expect(worst <= 40 * 16 * 16 * 4)
        #expect(tiles.cachedTileCount <= 40)
        // Every tile was shown once: 10,000 drawn.
        #expect(tiles.log.count == 10_000)
        #expect(near(Bitmap(image: host.makeImage())[10, 10], red, 2))
    }
}
