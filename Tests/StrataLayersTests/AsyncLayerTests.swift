import Dispatch
import Foundation
import StrataGraphics
import Synchronization
import Testing

@testable import StrataLayers

/// Supplies tasks that fill the bounds with `color`, counting draws, noting
/// whether any ran on the main thread, and optionally waiting on a gate first.
@MainActor
private final class Painter: AsyncLayerDelegate {
    var color = Color(red: 1, green: 0, blue: 0)
    let draws = Counter()
    let onMain = Counter()
    let cancelledSeen = Counter()
    var gate: DispatchSemaphore?
    let started = Counter()
    var finished: [Bool] = []

    func newAsyncDisplayTask(for layer: AsyncLayer) -> AsyncDisplayTask {
        let color = self.color, gate = self.gate
        let draws = self.draws, onMain = self.onMain, started = self.started, cancelledSeen = self.cancelledSeen
        return AsyncDisplayTask(
            display: { canvas, size, isCancelled in
                started.add()
                if Thread.isMainThread { onMain.add() }
                gate?.wait()
                if isCancelled() {
                    cancelledSeen.add()
                    return
                }
                draws.add()
                canvas.fillColor = color
                canvas.fill(Rect(origin: .zero, size: size))
            },
            didDisplay: { [weak self] _, finished in
                self?.finished.append(finished)
            })
    }
}

private final class Counter: Sendable {
    private let n = Atomic<Int>(0)
    func add() { n.wrappingAdd(1, ordering: .relaxed) }
    var value: Int { n.load(ordering: .relaxed) }
}

/// Waits until every queue of the shared pool has run the tasks sent to it
/// before the call, then until the main queue has run what they sent it: an
/// order, not a time.
func drainPoolAndMainQueue() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            let pool = QueuePool.shared
            for priority in DrawingPriority.allCases {
                for _ in 0..<pool.queuesPerPriority { pool.queue(priority).sync {} }
            }
            DispatchQueue.main.async { done.resume() }
        }
    }
}

@MainActor
private func settle(_ done: () -> Bool) async {
    // 600 tries and two minutes at least: under a parallel run the pool's
    // threads and the main actor can be busy with other suites' work for
    // minutes.
    let deadline = Date().addingTimeInterval(120)
    var tries = 0
    while !done() && (tries < 600 || Date() < deadline) {
        tries += 1
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
}

@MainActor
private func pixel(_ layer: Layer) -> Pixel? {
    layer.contents.map { $0[0, 0] }
}

@Suite @MainActor struct AsyncLayerTests {
    /// Displays run when a host's tree commits.
    private let host = try! LayerHost(width: 16, height: 16)

    private func make() -> (AsyncLayer, Painter) {
        let l = AsyncLayer()
        l.frame = Rect(x: 0, y: 0, width: 8, height: 8)
        let p = Painter()
        l.delegate = p
        host.rootLayer.addSublayer(l)
        return (l, p)
    }

    @Test func requestsInOneTurnDrawOnceOffTheMainThread() async {
        let (l, p) = make()
        for _ in 0..<10 { l.setNeedsDisplay() }
        Transaction.flush()
        await settle { p.finished.count == 1 }
        #expect(p.draws.value == 1 && p.onMain.value == 0)
        #expect(p.finished == [true])
        #expect(pixel(l) == Pixel(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func anOvertakenDrawNeverReachesTheLayer() async {
        let (l, p) = make()
        let gate = DispatchSemaphore(value: 0)
        p.gate = gate
        l.setNeedsDisplay()
        Transaction.flush()
        await settle { p.started.value == 1 }
        // A newer request while the first is still drawing.
        p.gate = nil
        p.color = Color(red: 0, green: 0, blue: 1)
        l.setNeedsDisplay()
        Transaction.flush()
        gate.signal()
        await settle { p.finished.count == 2 }
        #expect(p.cancelledSeen.value == 1 && p.draws.value == 1)
        #expect(p.finished.sorted { !$0 && $1 } == [false, true])
        #expect(pixel(l) == Pixel(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func aLayerGoneMidDrawIsReleasedAndItsResultDropped() async {
        let p = Painter()
        let gate = DispatchSemaphore(value: 0)
        p.gate = gate
        var l: AsyncLayer? = AsyncLayer()
        weak let gone = l
        l!.frame = Rect(x: 0, y: 0, width: 8, height: 8)
        l!.delegate = p
        host.rootLayer.addSublayer(l!)
        l!.setNeedsDisplay()
        Transaction.flush()
        await settle { p.started.value == 1 }
        // Mid-draw, the layer goes.
        l!.removeFromSuperlayer()
        l = nil
        #expect(gone == nil)
        gate.signal()
        await settle { p.cancelledSeen.value == 1 }
        #expect(p.started.value == 1 && p.cancelledSeen.value == 1 && p.draws.value == 0)
        // Once the pool's queues have run everything sent before now (the
        // draw among it) and the main queue has run what they sent it, no
        // result can still be on its way.
        await drainPoolAndMainQueue()
        #expect(p.finished.isEmpty)
    }

    @Test func synchronousDisplayWhenAsked() {
        let (l, p) = make()
        l.displaysAsynchronously = false
        l.setNeedsDisplay()
        Transaction.flush()
        #expect(p.draws.value == 1 && p.finished == [true])
        #expect(pixel(l) == Pixel(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func contentsCanBeClearedBeforeARedraw() async {
        let (l, p) = make()
        l.setNeedsDisplay()
        Transaction.flush()
        await settle { p.finished.count == 1 }
        #expect(l.contents != nil)
        l.clearsContentsBeforeAsynchronousDisplay = true
        p.gate = DispatchSemaphore(value: 0)
        let gate = p.gate!
        l.setNeedsDisplay()
        Transaction.flush()
        #expect(l.contents == nil)
        gate.signal()
        await settle { p.finished.count == 2 }
        #expect(l.contents != nil)
    }
}

/// A host that renders on its renderer's thread while the main actor goes on.
@Suite @MainActor struct AsyncRenderingTests {
    /// Frame after frame of a moving, recolouring layer, the asynchronous
    /// host shows what a synchronous one shows; `renderFrame` returns at once
    /// with no damage, and `makeImage` waits for the render in flight.
    @Test func anAsynchronousHostShowsWhatASynchronousOneShows() throws {
        let sync = try LayerHost(width: 120, height: 90), async = try LayerHost(width: 120, height: 90)
        async.rendersAsynchronously = true
        let layers = [sync, async].map { host -> Layer in
            let l = layer(Rect(x: 0, y: 10, width: 30, height: 30), Color(red: 1, green: 0, blue: 0))
            host.rootLayer.addSublayer(l)
            host.renderFrame()
            return l
        }
        for step in 1...12 {
            for l in layers {
                l.position = Point(x: 15 + Double(step) * 7, y: 25 + Double(step % 3) * 9)
                l.backgroundColor = Color(red: 1, green: Double(step) / 12, blue: 0)
            }
            let damage = sync.advance(by: 0.02)
            #expect(!damage.isEmpty)
            #expect(async.advance(by: 0.02).isEmpty)
            #expect(async.makeImage() == sync.makeImage(), "frame \(step)")
        }
    }

    /// The render tree a commit replaces is let go (off the main actor) and
    /// freed.
    @Test func aReplacedRenderTreeIsFreed() async throws {
        let host = try LayerHost(width: 50, height: 50)
        let l = layer(Rect(x: 0, y: 0, width: 10, height: 10), .black)
        host.rootLayer.addSublayer(l)
        host.renderFrame()
        weak let old = host.renderTree
        #expect(old != nil)
        l.backgroundColor = Color(red: 0, green: 0, blue: 1)
        host.renderFrame()
        #expect(host.renderTree !== old)
        await settle { old == nil }
        #expect(old == nil)
    }
}
