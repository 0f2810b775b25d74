public import CoreGraphics
internal import Foundation
internal import StrataGraphics
public import StrataLayers
internal import Synchronization

/// What a tile's drawing held, sent to the main queue to be let go there.
struct HeldForMain: @unchecked Sendable {
    // Unchecked: only kept alive and released; nothing is called on them
    // off the main actor here.
    let layer: CATiledLayer
    let delegate: (any CALayerDelegate)?
}

/// A weak reference to a layer's delegate, for the drawing threads.
struct WeakDelegate: @unchecked Sendable {
    // Unchecked: a main-actor protocol's existential is not Sendable. The
    // reference itself is safe to load on any thread (weak loads are atomic);
    // what the drawing threads do with it is call `draw(_:in:)`, as Core
    // Animation does, which `CATiledLayer` documents.
    weak var delegate: (any CALayerDelegate)?
}

/// A layer that draws its contents in tiles, when and where they come on
/// screen, on background threads (`CATiledLayer`): for images far larger
/// than one bitmap should be, maps, and documents that zoom.
///
/// As in Core Animation, **`draw(in:)` runs on background threads**,
/// several tiles at once, and so does the delegate's `draw(_:in:)`. The
/// context is clipped to the tile: `ctx.boundingBoxOfClipPath` is the
/// tile's area in the layer's coordinates, and the CTM's scale its
/// resolution. The drawing code must be thread-safe: it may read the
/// context, `tileSize`, `levelsOfDetail`, `levelsOfDetailBias` and
/// immutable data of its own, and use Core Graphics, Core Text and UIKit's
/// drawing (whose current-context stack is per thread); anything else of
/// the main actor's it must not touch. `draw(in:)` is `nonisolated` here, so
/// an override is too; the delegate's `draw(_:in:)` is declared on the main
/// actor, as `CALayerDelegate`'s methods are, and is called from the
/// drawing threads all the same, as Core Animation calls it.
///
/// Until a tile is drawn, a coarser level's tile stands in for it, and a
/// new tile fades in over the class's `fadeDuration()`.
/// `setNeedsDisplay()` redraws every tile, `setNeedsDisplay(_:)` those the
/// rectangle touches; the old ones stay until their replacements are ready.
@MainActor
open class CATiledLayer: CALayer, TiledLayerProperties {
    /// This layer as a Strata tiled layer.
    private var tiled: any TiledLayerProperties { self }
    /// The delegate, for the drawing threads.
    private let delegateBox = Mutex<WeakDelegate>(WeakDelegate())

    /// The tiling, readable from the drawing threads.
    private let tiling = Mutex(Tiling())
    private struct Tiling {
        var tileSize = CGSize(width: 256, height: 256)
        var levelsOfDetail = 1
        var levelsOfDetailBias = 0
    }

    /// The tiling, read on any thread. Nonisolated, so that the lock's
    /// closure is too: a closure formed on the main actor would check that
    /// it runs there, and a tile's drawing reads these.
    private nonisolated func currentTiling() -> Tiling { tiling.withLock { $0 } }

    override func setUp() {
        super.setUp()
        // Each tile is drawn on a pool thread through `draw(in:)`. The layer
        // is held weakly, so that a tile being drawn keeps it alive only
        // while it draws.
        becomeTiledLayer(pool: .shared) { [weak self] canvas in
            guard let layer = self else { return }
            let delegate = layer.delegateForDrawing()
            layer.draw(in: CGContext(canvas: canvas))
            // The main actor may have let go of the layer or its delegate while
            // the tile drew: the last references go there, not here, so that
            // their deinits (a view's, a controller's) run on the main actor.
            let last = HeldForMain(layer: layer, delegate: delegate)
            DispatchQueue.main.async { withExtendedLifetime(last) {} }
        }
        tiled.fadeDuration = Double(Self.fadeDuration())
    }

    /// Invalidates the tiles asked for: they are drawn again when next shown.
    open override func display() { invalidateTiles() }

    /// The delegate, read for a drawing thread.
    nonisolated func delegateForDrawing() -> (any CALayerDelegate)? {
        delegateBox.withLock { $0.delegate }
    }

    /// How long a new tile takes to fade in, in seconds (0.25 by default):
    /// a subclass overrides it to change it, as in Core Animation.
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    /// The largest size of a tile, in pixels (256 × 256 by default): in
    /// points it is this divided by `contentsScale`. Each side is rounded up
    /// to whole pixels and kept within 16…4096; a size that is not finite,
    /// or not positive, is ignored. Nonisolated, so that a tile's drawing
    /// may read it.
    public nonisolated var tileSize: CGSize {
        get { currentTiling().tileSize }
        set {
            guard newValue.width.isFinite, newValue.height.isFinite, newValue.width > 0, newValue.height > 0 else { return }
            func side(_ v: CGFloat) -> CGFloat { Swift.min(4096, Swift.max(16, v.rounded(.up))) }
            let size = CGSize(width: side(newValue.width), height: side(newValue.height))
            updateTiling { $0.tileSize = size }
        }
    }

    /// How many levels of detail the layer keeps (1 by default), each half
    /// the resolution of the one above; kept within 1…30. Nonisolated, so
    /// that a tile's drawing may read it.
    public nonisolated var levelsOfDetail: Int {
        get { currentTiling().levelsOfDetail }
        set {
            let v = Swift.min(30, Swift.max(1, newValue))
            updateTiling { $0.levelsOfDetail = v }
        }
    }

    /// How many of the levels magnify, above `contentsScale` (0 by
    /// default); kept within 0…30. Nonisolated, so that a tile's drawing
    /// may read it.
    public nonisolated var levelsOfDetailBias: Int {
        get { currentTiling().levelsOfDetailBias }
        set {
            let v = Swift.min(30, Swift.max(0, newValue))
            updateTiling { $0.levelsOfDetailBias = v }
        }
    }

    /// Changes the tiling and hands it to the Strata layer on the main
    /// actor: now, when called there (as it is, but for odd code), else at
    /// the main queue's next turn.
    private nonisolated func updateTiling(_ change: (inout Tiling) -> Void) {
        tiling.withLock { change(&$0) }
        let owner = self
        // Applies the tiling as it is when it runs, so that a change queued
        // from another thread cannot undo a later one made here.
        let apply: @MainActor @Sendable () -> Void = {
            let t = owner.currentTiling()
            let layer = owner.tiled
            layer.tileSize = Size(width: Double(t.tileSize.width), height: Double(t.tileSize.height))
            layer.levelsOfDetail = t.levelsOfDetail
            layer.levelsOfDetailBias = t.levelsOfDetailBias
        }
        if MainQueue.isCurrent {
            MainActor.assumeIsolated(apply)
        } else {
            DispatchQueue.main.async(execute: apply)
        }
    }

    /// Draws one tile into `ctx`, clipped to it, on a background thread:
    /// the delegate's `draw(_:in:)` by default. See the class's notes on
    /// what the drawing may touch.
    nonisolated open override func draw(in ctx: CGContext) {
        guard let delegate = delegateForDrawing() else { return }
        if let view = delegate as? any CATiledLayerDrawing {
            view.drawTile(of: self, in: ctx)
            return
        }
        let layer = self
        // The context stays on this thread: the closure runs here, now.
        nonisolated(unsafe) let ctx = ctx
        // The delegate's method is declared on the main actor; Core
        // Animation calls it here, on the tile's thread, and so does this
        // (the class's documentation tells the delegate so). What makes it
        // safe is the delegate's part: it draws into `ctx` and reads only
        // what it may read from any thread.
        runOffMainActor { delegate.draw(layer, in: ctx) }
    }

    override func takePresentedValues(from model: CALayer) {
        super.takePresentedValues(from: model)
        guard let model = model as? CATiledLayer else { return }
        let t = model.currentTiling()
        tiling.withLock { $0 = t }
    }

    override func delegateDidChange() {
        let d = delegate
        delegateBox.withLock { $0.delegate = d }
    }
}

/// Runs `body`, declared on the main actor, on the calling thread, with no
/// hop and no check: for the one call Core Animation makes off the main
/// thread by design (a tiled layer's delegate drawing a tile). A
/// synchronous main-actor closure has the same calling convention as a
/// plain one; only the compiler's static isolation is stepped over.
package nonisolated func runOffMainActor(_ body: @MainActor () -> Void) {
    withoutActuallyEscaping(body) { escaping in
        unsafeBitCast(escaping, to: (() -> Void).self)()
    }
}

/// Whether the caller runs on the main queue, the main actor's executor
/// (which a test harness may drain from a thread other than the main one,
/// so `Thread.isMainThread` will not do).
enum MainQueue {
    private static let key = DispatchSpecificKey<UInt8>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return true
    }()
    static var isCurrent: Bool { marked && DispatchQueue.getSpecific(key: key) == 1 }
}

/// A delegate that draws a tiled layer's tiles its own way, off the main
/// actor: a `UIView` whose layer is a `CATiledLayer` draws each tile through
/// its `draw(_:)`, with the tile's rectangle, as UIKit does.
package protocol CATiledLayerDrawing: AnyObject {
    nonisolated func drawTile(of layer: CATiledLayer, in ctx: CGContext)
}
