import Dispatch
import StrataGraphics
import StrataQueues
import Synchronization

/// What an asynchronous layer's delegate gives it to draw its contents.
///
/// `display` runs on a queue of the shared `QueuePool`, never on the main
/// actor; it should call `isCancelled` now and then and return early when it
/// says so (a newer request overtook this one, or the layer went away).
/// `willDisplay` and `didDisplay` run on the main actor.
public struct AsyncDisplayTask: Sendable {
    public var willDisplay: (@MainActor @Sendable (Layer) -> Void)?
    /// Draws into `canvas` (bounds coordinates, scaled by `contentsScale`),
    /// of `size` points.
    public var display: @Sendable (_ canvas: Canvas, _ size: Size, _ isCancelled: @Sendable () -> Bool) -> Void
    /// Told whether the drawing reached the layer (`false`: cancelled).
    public var didDisplay: (@MainActor @Sendable (Layer, _ finished: Bool) -> Void)?

    public init(
        willDisplay: (@MainActor @Sendable (Layer) -> Void)? = nil,
        display: @escaping @Sendable (_ canvas: Canvas, _ size: Size, _ isCancelled: @Sendable () -> Bool) -> Void,
        didDisplay: (@MainActor @Sendable (Layer, _ finished: Bool) -> Void)? = nil
    ) {
        self.willDisplay = willDisplay
        self.display = display
        self.didDisplay = didDisplay
    }
}

/// The delegate of an `AsyncLayer`: supplies a display task for each redraw.
@MainActor
public protocol AsyncLayerDelegate: LayerDelegate {
    func newAsyncDisplayTask(for layer: AsyncLayer) -> AsyncDisplayTask
}

/// A counter that a redraw request or the layer's end bumps: a task that
/// started at an older value has been overtaken.
final class Sentinel: Sendable {
    private let counter = Atomic<Int>(0)
    var value: Int { counter.load(ordering: .acquiring) }
    @discardableResult
    func increase() -> Int { counter.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue }
}

/// A layer whose contents are drawn off the main actor (the feed list's
/// asynchronous layer).
///
/// `setNeedsDisplay()` requests made in one turn of the main loop are
/// coalesced: the display runs once, at the transaction's commit. The
/// delegate's task then draws on a queue of `QueuePool.shared`, and the finished
/// image becomes the contents in the next transaction. Every request (and the
/// layer's end) bumps a sentinel; a task that sees a newer value stops at its
/// next check, and its result is never shown. Without an `AsyncLayerDelegate`
/// the layer displays as any layer does.
open class AsyncLayer: Layer {
    /// Whether the task draws on the pool (the default) or at once, on the
    /// main actor, during the display.
    public var displaysAsynchronously = true
    /// Whether the old contents are removed when an asynchronous redraw starts
    /// (a blank until the new ones are ready) or kept until then (the default:
    /// no flicker, but old contents may show at a new size for a moment).
    public var clearsContentsBeforeAsynchronousDisplay = false
    /// The pool priority the drawing runs at.
    public var drawingPriority = DrawingPriority.userInitiated
    /// The pool the drawing runs on (default: the shared pool).
    public var drawingPool = QueuePool.shared

    let sentinel = Sentinel()

    /// Cancels the drawing under way, if any: its result will not be shown
    /// (a reused cell must never show its old row's drawing).
    public func cancelAsynchronousDisplay() {
        sentinel.increase()
    }

    override func requestedDisplay() {
        sentinel.increase()
    }

    deinit {
        sentinel.increase()
    }

    open override func display() {
        guard let asyncDelegate = delegate as? any AsyncLayerDelegate else {
            super.display()
            return
        }
        let task = asyncDelegate.newAsyncDisplayTask(for: self)
        let started = sentinel.increase()
        task.willDisplay?(self)
        let b = bounds, scale = contentsScale
        guard let (w, h) = Layer.backingSize(b, scale: scale) else {
            setContentsWithoutAction(nil)
            task.didDisplay?(self, true)
            return
        }
        let draw: @Sendable (_ isCancelled: @Sendable () -> Bool) -> Image? = { isCancelled in
            guard !isCancelled(), let canvas = try? Canvas(width: w, height: h) else { return nil }
            Layer.drawInBoundsSpace(canvas, b, scale: scale)
            task.display(canvas, b.size, isCancelled)
            return isCancelled() ? nil : canvas.makeImage()
        }
        guard displaysAsynchronously else {
            let image = draw { false }
            setContentsWithoutAction(image)
            task.didDisplay?(self, image != nil)
            return
        }
        if clearsContentsBeforeAsynchronousDisplay { setContentsWithoutAction(nil) }
        let sentinel = self.sentinel
        let isCancelled: @Sendable () -> Bool = { sentinel.value != started }
        drawingPool.async(drawingPriority) { [weak self] in
            let image = draw(isCancelled)
            AsyncDisplayInbox.deliver { [weak self] in
                guard let self else { return }
                if let image, !isCancelled() {
                    self.setContentsWithoutAction(image)
                    task.didDisplay?(self, true)
                } else {
                    task.didDisplay?(self, false)
                }
            }
        }
    }
}

/// Finished asynchronous drawings waiting for the main actor, applied
/// together in one turn: by the main queue (one block for however many
/// arrived meanwhile), or by a `LayerHost` at the start of its next frame,
/// whichever comes first. A host driven headless, in a loop that never
/// yields to the main queue, still shows each drawing at the frame after it
/// finished, as YYKit applies its layers' results from a run-loop observer
/// before the transaction commits.
public enum AsyncDisplayInbox {
    // `Locked`, not `Mutex`: the thread sanitizer sees its locking (see `Locked`).
    private static let pending = Locked<[@MainActor @Sendable () -> Void]>([])

    /// Queues `apply` for the main actor: any work finished on the pool
    /// whose result the main actor applies (a drawing, a batch of layouts).
    public static func deliver(_ apply: @escaping @MainActor @Sendable () -> Void) {
        let first = pending.withLock { list in
            list.append(apply)
            return list.count == 1
        }
        if first {
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    _ = AsyncDisplayInbox.drain()
                }
            }
        }
    }

    /// Applies every drawing that has arrived, in the order they finished;
    /// returns how many.
    @MainActor
    @discardableResult
    public static func drain() -> Int {
        let list = pending.withLock { list in
            let taken = list
            list.removeAll()
            return taken
        }
        for apply in list { apply() }
        return list.count
    }

    /// Whether drawings are waiting.
    public static var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}
