import CoreGraphics
import Foundation
import QuartzCore
import StrataGraphics
import StrataLayers
import Synchronization
import Testing

@testable import QuartzCore

/// What tile drawings saw: each tile's area (the clip's bounding box), its
/// pixels per point, and whether it ran on the main thread.
final class TileDraws: Sendable {
    struct Draw: Sendable {
        var area: CGRect
        var scale: CGFloat
        var onMain: Bool
    }
    let draws = Mutex<[Draw]>([])
    func note(_ ctx: CGContext) {
        let d = Draw(area: ctx.boundingBoxOfClipPath, scale: ctx.ctm.a, onMain: Thread.isMainThread || MainQueue.isCurrent)
        draws.withLock { $0.append(d) }
    }
    var all: [Draw] { draws.withLock { $0 } }
}

/// A tiled layer that paints the tile at the origin red and the others
/// blue, with no fade.
final class CornerTiles: CATiledLayer {
    override class func fadeDuration() -> CFTimeInterval { 0 }
    let log = TileDraws()
    nonisolated override func draw(in ctx: CGContext) {
        log.note(ctx)
        let area = ctx.boundingBoxOfClipPath
        if area.minX == 0 && area.minY == 0 {
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        } else {
            ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        }
        ctx.fill(area)
    }
}

/// A tiled layer whose tiles fade in over a second.
final class SlowFadeTiles: CATiledLayer {
    override class func fadeDuration() -> CFTimeInterval { 1 }
}

/// A delegate that draws tiles green, as the seed's view controller does.
/// Its drawing is nonisolated, as Swift 6 code on iOS declares it.
@MainActor
final class TileDelegate: CALayerDelegate {
    let log = TileDraws()
    /// The tile widths the drawings read from the layer.
    let sizes = Mutex<[CGFloat]>([])
    nonisolated func draw(_ layer: CALayer, in ctx: CGContext) {
        log.note(ctx)
        // Safe from a drawing thread: the tile size is, and closures are
        // (a main-actor closure would check where it runs).
        let size = (layer as! CATiledLayer).tileSize
        let corners = [0, 1].map { CGFloat($0) * size.width }
        sizes.withLock { $0.append(corners[1]) }
        ctx.setFillColor(red: 0, green: 0.5, blue: 0, alpha: 1)
        ctx.fill(CGRect(origin: ctx.boundingBoxOfClipPath.origin, size: CGSize(width: size.width / 2, height: size.height / 2)))
    }
}

/// Renders frames of `host` until `layer` has no tile pending (giving up
/// after 600 tries and two minutes: under a parallel run the queue pool's
/// threads can be busy with other suites' work for a long time).
@MainActor
func settleTiles(_ host: LayerHost, _ layer: CATiledLayer) async {
    let tiled: any TiledLayerProperties = layer
    host.advance()
    let deadline = Date().addingTimeInterval(120)
    var tries = 0
    while tiled.pendingTileCount > 0 && (tries < 600 || Date() < deadline) {
        tries += 1
        try? await Task.sleep(nanoseconds: 5_000_000)
        host.advance()
    }
    host.advance()
}

@MainActor
@Suite struct CATiledLayerTests {
    func scene(_ layer: CATiledLayer, size: Int = 300) throws -> LayerHost {
        let host = try LayerHost(width: size, height: size, backgroundColor: .white)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.frame = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        host.rootLayer.addSublayer(layer.strata)
        CATransaction.commit()
        return host
    }

    @Test func drawInIsCalledForTheVisibleTilesOffTheMainThread() async throws {
        let layer = CornerTiles()
        let host = try scene(layer)
        await settleTiles(host, layer)
        let draws = layer.log.all
        // 300 × 300 points of a 2048-point layer: 2 × 2 tiles of 256.
        #expect(
            Set(draws.map { [$0.area.minX, $0.area.minY, $0.area.width, $0.area.height] }) == [
                [0, 0, 256, 256], [256, 0, 256, 256], [0, 256, 256, 256], [256, 256, 256, 256],
            ])
        #expect(draws.allSatisfy { !$0.onMain })
        #expect(draws.allSatisfy { $0.scale == 1 })
        // The origin's tile is at the top left, as on iOS.
        let b = host.makeImage()
        #expect(b[10, 10] == Pixel(r: 255, g: 0, b: 0, a: 255))
        #expect(b[255, 255] == Pixel(r: 255, g: 0, b: 0, a: 255))
        #expect(b[260, 10] == Pixel(r: 0, g: 0, b: 255, a: 255))
        #expect(b[10, 290] == Pixel(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func theDelegateDrawsTilesOffTheMainThread() async throws {
        let layer = CATiledLayer()
        let delegate = TileDelegate()
        layer.delegate = delegate
        layer.tileSize = CGSize(width: 100, height: 100)
        let host = try scene(layer, size: 200)
        await settleTiles(host, layer)
        // The tiles fade in over a quarter of a second from the frame that
        // first shows them.
        _ = host.advance(by: 0.3)
        _ = host.advance(by: 0.3)
        let draws = delegate.log.all
        #expect(draws.count == 4)
        #expect(draws.allSatisfy { !$0.onMain && $0.area.width == 100 })
        #expect(delegate.sizes.withLock { $0 } == [100, 100, 100, 100])
        // Each tile's top-left quarter is green.
        let b = host.makeImage()
        #expect(b[10, 10] == Pixel(r: 0, g: 128, b: 0, a: 255))
        #expect(b[110, 110] == Pixel(r: 0, g: 128, b: 0, a: 255))
        #expect(b[60, 60] == Pixel(r: 255, g: 255, b: 255, a: 255))
        // No delegate, no drawing: a layer let go of its delegate draws
        // its tiles again, empty.
        let tiled: any TiledLayerProperties = layer
        let drawn = tiled.drawnTileCount
        layer.delegate = nil
        layer.setNeedsDisplay()
        await settleTiles(host, layer)
        #expect(tiled.drawnTileCount == drawn + 4)
        #expect(delegate.log.all.count == 4)
    }

    @Test func contentsScaleMakesTilesOfFewerPoints() async throws {
        let layer = CornerTiles()
        layer.contentsScale = 2
        let host = try LayerHost(width: 400, height: 400, scale: 2, backgroundColor: .white)
        layer.frame = CGRect(x: 0, y: 0, width: 1024, height: 1024)
        host.rootLayer.addSublayer(layer.strata)
        await settleTiles(host, layer)
        // 256 pixels at 2 pixels a point: tiles of 128 points, 2 × 2 of them.
        let draws = layer.log.all
        #expect(draws.count == 4)
        #expect(draws.allSatisfy { $0.area.width == 128 && $0.scale == 2 })
    }

    @Test func setNeedsDisplayRedrawsTheTilesItTouches() async throws {
        let layer = CornerTiles()
        let host = try scene(layer)
        await settleTiles(host, layer)
        #expect(layer.log.all.count == 4)
        layer.setNeedsDisplay(CGRect(x: 300, y: 10, width: 5, height: 5))
        await settleTiles(host, layer)
        #expect(layer.log.all.count == 5)
        #expect(layer.log.all.last?.area == CGRect(x: 256, y: 0, width: 256, height: 256))
        layer.setNeedsDisplay()
        await settleTiles(host, layer)
        #expect(layer.log.all.count == 9)
    }

    @Test func theTilingKeepsToItsLimits() {
        let layer = CATiledLayer()
        #expect(layer.tileSize == CGSize(width: 256, height: 256))
        #expect(layer.levelsOfDetail == 1 && layer.levelsOfDetailBias == 0)
        layer.tileSize = CGSize(width: 100.2, height: 3)
        #expect(layer.tileSize == CGSize(width: 101, height: 16))
        layer.tileSize = CGSize(width: CGFloat.nan, height: 10)
        layer.tileSize = CGSize(width: -5, height: 10)
        layer.tileSize = CGSize(width: CGFloat.infinity, height: 10)
        #expect(layer.tileSize == CGSize(width: 101, height: 16))
        layer.tileSize = CGSize(width: 1e9, height: 1e9)
        #expect(layer.tileSize == CGSize(width: 4096, height: 4096))
        layer.levelsOfDetail = 0
        #expect(layer.levelsOfDetail == 1)
        layer.levelsOfDetail = 1000
        #expect(layer.levelsOfDetail == 30)
        layer.levelsOfDetailBias = -3
        #expect(layer.levelsOfDetailBias == 0)
        layer.levelsOfDetailBias = 99
        #expect(layer.levelsOfDetailBias == 30)
    }

    @Test func fadeDurationIsTheClasss() {
        #expect(CATiledLayer.fadeDuration() == 0.25)
        #expect((CATiledLayer() as any TiledLayerProperties).fadeDuration == 0.25)
        #expect((SlowFadeTiles() as any TiledLayerProperties).fadeDuration == 1)
    }

    @Test func aLayerAndDelegateLetGoWhileATileDrawsGoOnTheMainActor() async throws {
        let host = try LayerHost(width: 300, height: 300)
        let gate = TileGate()
        weak var gone: CATiledLayer?
        weak var goneDelegate: GatedDelegate?
        do {
            let layer = CATiledLayer()
            let delegate = GatedDelegate(gate: gate)
            layer.delegate = delegate
            layer.tileSize = CGSize(width: 512, height: 512)
            layer.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
            host.rootLayer.addSublayer(layer.strata)
            host.renderFrame()
            gone = layer
            goneDelegate = delegate
            for _ in 0..<300 where !gate.started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            #expect(gate.started.withLock { $0 })
            layer.strata.removeFromSuperlayer()
        }
        // The tile's drawing holds the last references now.
        #expect(gone != nil && goneDelegate != nil)
        gate.open.signal()
        for _ in 0..<300 where gone != nil || goneDelegate != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(gone == nil && goneDelegate == nil)
        #expect(GatedDelegate.deinitOnMain.withLock { $0 } == [true])
        #expect(host.rootLayer.sublayers.isEmpty)
    }
}

/// Where a tile's drawing waits: `started` once it has begun, and it goes
/// on when `open` is signalled.
final class TileGate: Sendable {
    let open = DispatchSemaphore(value: 0)
    let started = Mutex(false)
}

/// A delegate whose drawing waits at its gate, and which records where its
/// deinit ran.
final class GatedDelegate: CALayerDelegate {
    nonisolated static let deinitOnMain = Mutex<[Bool]>([])
    let gate: TileGate
    init(gate: TileGate) { self.gate = gate }
    nonisolated func draw(_ layer: CALayer, in ctx: CGContext) {
        gate.started.withLock { $0 = true }
        gate.open.wait()
    }
    deinit {
        let onMain = Thread.isMainThread || MainQueue.isCurrent
        GatedDelegate.deinitOnMain.withLock { $0.append(onMain) }
    }
}
