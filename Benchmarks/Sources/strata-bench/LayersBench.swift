import ArgumentParser
import Foundation
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataTestSupport
import StrataTiles
import Synchronization

/// `strata-bench layers`: the layer system's frame costs.
struct LayersBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layers",
        abstract: "Times compositing, damage, commits and animation of layer trees.",
        discussion: """
            Prints `strata CASE MEDIAN_MS` for composite-full (a 1920 × 1080 frame from scratch: \
            500 layers with rounded backgrounds, images, borders, shadows, opacity, masks and text), \
            composite-damage (one 64 × 64 layer changes colour; commit and render), commit-10k \
            (10,000 layers on screen move in one transaction, actions disabled; the moves and the commit), \
            commit-10k-animated (the same with each move's implicit animation), animate-1k (1,000 layers with running position and opacity animations; one frame), \
            async-redraw (200 asynchronous layers redrawn every frame: the main actor's time per frame, p99), \
            emitter-10k (10,000 live additive particles, 1920 × 1080: one frame) and tiled-pan (one frame of a pan across \
            the tiled 8192 × 4608 scene, warm cache). composite-full-4k is composite-full's scene drawn at \
            3840 × 2160 (two pixels a point). With --threads 1,2 the composite cases run once per thread count, \
            their rounds alternated, printed as CASE-threads-N.
            """)

    @Option(
        help: """
            Threads the compositor draws a large rectangle on, in bands (Compositor.threadCount): one count, or \
            several (comma-separated) to alternate them in one process. Default 1.
            """)
    var threads = "1"

    @Option(help: "Bands a thread for the composite cases (Compositor.bandsPerThread; default: the compositor's own rule).")
    var bandsPerThread: Int?

    @Option(help: "Timed runs per case (after two warm-ups).")
    var `repeat` = 20

    @Option(help: "Write the composite-full frame to this PNG file.")
    var png: String?

    @Option(help: "Run only these cases (comma-separated), e.g. for profiling.")
    var only: String?

    @Option(
        help: """
            native (Strata's layers), quartzcore (commit-10k, commit-10k-animated and animate-1k built \
            through CALayer, CATransaction and CABasicAnimation in a UIWindow, printed as strata-ca lines), \
            or both: those three cases built both ways in one process, their rounds alternated.
            """)
    var frontEnd = "native"

    @Option(help: "With --front-end both: how many times the two front ends take turns.")
    var rounds = 10

    @Flag(
        help: """
            With --front-end both: build the commit cases' Core Animation side as a second native scene, \
            to show what the comparison gives two equal scenes (1.00 when it is fair).
            """)
    var control = false

    func run() throws {
        try MainActor.assumeIsolated { try runOnMain() }
    }

    @MainActor
    func runOnMain() throws {
        func median(_ body: () -> Void) -> Double { medianMilliseconds(repeat: `repeat`, body) }
        let selected = only.map { Set($0.split(separator: ",").map(String.init)) }
        func wanted(_ name: String) -> Bool { selected?.contains(name) ?? true }
        guard ["native", "quartzcore", "both"].contains(frontEnd) else {
            throw ValidationError("--front-end must be native, quartzcore or both, not \(frontEnd)")
        }
        let label = frontEnd == "quartzcore" ? "strata-ca" : "strata"
        func report(_ name: String, _ ms: @autoclosure () -> Double) {
            guard wanted(name) else { return }
            let ms = ms()
            FileHandle.standardOutput.write(Data(String(format: "%@ %@ %.3f\n", label, name, ms).utf8))
        }
        if frontEnd == "both" {
            try CALayersBench.runBoth(repeat: `repeat`, rounds: rounds, control: control, wanted: wanted) { who, name, ms in
                guard wanted(name) else { return }
                FileHandle.standardOutput.write(Data(String(format: "%@ %@ %.3f\n", who, name, ms()).utf8))
            }
            return
        }
        if frontEnd == "quartzcore" {
            CALayersBench.run(repeat: `repeat`, wanted: wanted, report: report)
            return
        }

        let threadCounts = threads.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !threadCounts.isEmpty, threadCounts.allSatisfy({ $0 >= 1 && $0 <= 64 }) else {
            throw ValidationError("--threads takes counts from 1 to 64, comma-separated, not \(threads)")
        }
        // composite-full and composite-damage share a scene.
        let clock = ManualClock()
        let host = try LayerHost(width: 1920, height: 1080, clock: clock)
        host.renderingThreadCount = threadCounts[0]
        let (compositor, changing) = try LayersBench.buildScene(host.rootLayer)
        host.renderFrame()
        let big = try Compositor(width: 3840, height: 2160, scale: 2)
        for (name, c) in [("composite-full", compositor), ("composite-full-4k", big)] where wanted(name) {
            func frame(_ n: Int) {
                c.threadCount = n
                c.bandsPerThread = bandsPerThread
                c.invalidate()
                c.render(host.renderTree, at: clock.now)
            }
            if threadCounts.count == 1 {
                report(name, median { frame(threadCounts[0]) })
            } else {
                // Rounds alternated between the thread counts; each count's
                // median over all its frames.
                var times = [[Double]](repeating: [], count: threadCounts.count)
                let perRound = max(1, `repeat` / 10)
                for n in threadCounts { frame(n) }
                for _ in 0..<10 {
                    for (i, n) in threadCounts.enumerated() {
                        for _ in 0..<perRound {
                            let t0 = DispatchTime.now().uptimeNanoseconds
                            frame(n)
                            times[i].append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                        }
                    }
                }
                // Every count draws the same frame.
                frame(threadCounts[0])
                let first = c.frame.makeImage()
                for n in threadCounts.dropFirst() {
                    frame(n)
                    guard c.frame.makeImage() == first else {
                        throw ValidationError("\(name): \(n) threads drew another frame than \(threadCounts[0])")
                    }
                }
                for (i, n) in threadCounts.enumerated() {
                    let line = String(format: "%@ %@-threads-%d %.3f\n", label, name, n, StrataDemos.median(times[i]))
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            }
            if let png, c === compositor { try c.frame.makeImage().writePNG(to: png) }
            if let png, c === big { try c.frame.makeImage().writePNG(to: png.replacingOccurrences(of: ".png", with: "-4k.png")) }
        }
        var flip = false
        report(
            "composite-damage",
            median {
                flip.toggle()
                Transaction.perform {
                    Transaction.disableActions = true
                    changing.backgroundColor = flip ? Color(red: 0.2, green: 0.6, blue: 1) : Color(red: 1, green: 0.4, blue: 0.2)
                }
                host.renderFrame()
            })

        if wanted("commit-10k") || wanted("commit-10k-animated") { try commit10k(report) }
        if wanted("animate-1k") { try animate1k(report) }
        if wanted("async-redraw") { try asyncRedraw(report) }
        if wanted("emitter-10k") { try emitter10k(report) }
        if wanted("tiled-pan") { try tiledPan(report) }
    }

    /// async-redraw: 200 asynchronous layers redrawn every frame. What is
    /// timed is the main actor's share of each frame: the 200 requests, the
    /// commit (which starts the 200 drawings on the pool and hands the frame
    /// to the renderer's thread: `rendersAsynchronously`), and later the 200
    /// results applied on the main queue. The drawing on the pool and the
    /// compositing on the renderer's thread are waited for untimed, between
    /// the two timed parts, as the main actor is free while they run. Reported: the 99th percentile over
    /// `repeat × 10` frames.
    @MainActor
    func asyncRedraw(_ report: (String, @autoclosure () -> Double) -> Void) throws {
        let host = try LayerHost(width: 1920, height: 1080, clock: ManualClock())
        // The main actor commits; the renderer composites on its own thread.
        host.rendersAsynchronously = true
        final class Painter: AsyncLayerDelegate {
            var applied = 0
            var frame = 0
            final class Count: Sendable { let n = Atomic<Int>(0) }
            let drawn = Count()
            func newAsyncDisplayTask(for layer: AsyncLayer) -> AsyncDisplayTask {
                let shade = Double(frame % 10) / 10
                let drawn = self.drawn
                return AsyncDisplayTask(
                    display: { canvas, size, isCancelled in
                        defer { drawn.n.wrappingAdd(1, ordering: .releasing) }
                        canvas.fillColor = Color(red: 0.2, green: shade, blue: 0.8)
                        canvas.fill(Rect(origin: .zero, size: size))
                        guard !isCancelled() else { return }
                        canvas.fillColor = .white
                        for i in 0..<6 {
                            canvas.fillEllipse(in: Rect(x: 6 + Double(i) * 14, y: size.height / 2 - 5, width: 10, height: 10))
                        }
                        canvas.strokeColor = .black
                        canvas.lineWidth = 2
                        var p = Path()
                        p.move(to: Point(x: 4, y: size.height - 6))
                        p.addLine(to: Point(x: size.width - 4, y: 6))
                        canvas.stroke(p)
                    },
                    didDisplay: { [weak self] _, finished in
                        if finished { self?.applied += 1 }
                    })
            }
        }
        let painter = Painter()
        var layers: [AsyncLayer] = []
        for i in 0..<200 {
            let l = AsyncLayer()
            l.frame = Rect(x: Double(i % 20) * 96, y: Double(i / 20) * 54, width: 90, height: 48)
            l.delegate = painter
            host.rootLayer.addSublayer(l)
            layers.append(l)
        }
        host.renderFrame()
        var times: [Double] = []
        let frames = max(10, `repeat` * 10)
        for f in 0..<(frames + 5) {
            painter.frame = f
            painter.applied = 0
            painter.drawn.n.store(0, ordering: .relaxed)
            let t0 = DispatchTime.now().uptimeNanoseconds
            for l in layers { l.setNeedsDisplay() }
            host.advance()
            var mainNanos = DispatchTime.now().uptimeNanoseconds - t0
            // The pool draws (untimed: the main actor is free meanwhile)...
            let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
            while painter.drawn.n.load(ordering: .acquiring) < layers.count
                || QueuePool.shared.outstanding(.userInitiated).contains(where: { $0 > 0 }),
                DispatchTime.now().uptimeNanoseconds < deadline
            {
                usleep(200)
            }
            host.finishRendering()
            // ...and the results, queued on the main queue, are applied as the
            // run loop would apply them (timed; the run loop does not wait).
            let a = DispatchTime.now().uptimeNanoseconds
            while painter.applied < layers.count, DispatchTime.now().uptimeNanoseconds < deadline {
                _ = RunLoop.main.run(mode: .default, before: .distantPast)
            }
            mainNanos += DispatchTime.now().uptimeNanoseconds - a
            if f >= 5 { times.append(Double(mainNanos) / 1e6) }
        }
        report("async-redraw", percentile(times, 0.99))
    }

    /// emitter-10k: one 1920 × 1080 frame of an additive emitter with 10,000
    /// live particles (16-pixel sparks spread over the screen).
    @MainActor
    func emitter10k(_ report: (String, @autoclosure () -> Double) -> Void) throws {
        let clock = ManualClock()
        let host = try LayerHost(width: 1920, height: 1080, clock: clock, backgroundColor: .black)
        let e = EmitterLayer()
        e.frame = host.rootLayer.bounds
        e.emitterPosition = Point(x: 960, y: 540)
        e.emitterSize = Size(width: 1800, height: 1000)
        e.emitterShape = .rectangle
        e.emitterMode = .surface
        e.renderMode = .additive
        var cell = EmitterCell()
        cell.contents = try LayerGallery.spark(16)
        cell.birthRate = 5000
        cell.lifetime = 2
        cell.velocity = 40
        cell.emissionRange = 2 * .pi
        cell.spinRange = 2
        cell.color = Color(red: 1, green: 0.6, blue: 0.3, alpha: 0.6)
        cell.alphaSpeed = -0.2
        e.emitterCells = [cell]
        host.rootLayer.addSublayer(e)
        host.renderFrame()
        host.advance(by: 3)
        guard e.particles(atEmitterTime: 3).count == 10_000 else {
            throw ValidationError("emitter-10k has \(e.particles(atEmitterTime: 3).count) particles, not 10,000")
        }
        report("emitter-10k", medianMilliseconds(repeat: `repeat`) { host.advance() })
        if let png { try host.makeImage().writePNG(to: png.replacingOccurrences(of: ".png", with: "-emitter.png")) }
    }

    /// tiled-pan: one 1920 × 1080 frame of a pan across the 8192 × 4608 scene
    /// cut into a pyramid and shown by a TilePyramidLayer, the tiles of the
    /// pan already cached (one untimed pass first, waiting for each frame's
    /// tiles). The pan moves 96 points a frame.
    @MainActor
    func tiledPan(_ report: (String, @autoclosure () -> Double) -> Void) throws {
        let dir = "/tmp/strata-tiled-pan"
        if (try? TilePyramid(directory: dir)) == nil {
            try? FileManager.default.removeItem(atPath: dir)
            try FileManager.default.createDirectory(atPath: dir + "-src", withIntermediateDirectories: true)
            try TilesBench.makeScene(width: 8192, height: 4608).writeJPEG(to: dir + "-src/scene.jpg", quality: 0.9)
            try TileCutter().cut(dir + "-src/scene.jpg", into: dir)
        }
        let pyramid = try TilePyramid(directory: dir)
        let host = try LayerHost(width: 1920, height: 1080, clock: ManualClock())
        let layer = TilePyramidLayer(pyramid: pyramid, directory: dir)
        layer.anchorPoint = .zero
        layer.fadeDuration = 0
        host.rootLayer.addSublayer(layer)
        let steps = 60
        func place(_ i: Int) {
            Transaction.perform {
                Transaction.disableActions = true
                layer.position = Point(x: -Double(i % steps) * 96, y: -1200)
            }
        }
        for i in 0..<steps {
            place(i)
            host.renderFrame()
            while layer.pendingTileCount > 0 { usleep(1000) }
            host.renderFrame()
        }
        var i = 0
        report(
            "tiled-pan",
            medianMilliseconds(repeat: max(`repeat`, steps)) {
                i += 1
                place(i)
                host.renderFrame()
            })
        if layer.pendingTileCount > 0 || layer.drawnTileCount == 0 {
            throw ValidationError("tiled-pan: the cache was not warm (\(layer.pendingTileCount) tiles pending)")
        }
        if let png { try host.makeImage().writePNG(to: png.replacingOccurrences(of: ".png", with: "-tiled.png")) }
    }

    /// commit-10k: layers already on screen move in one transaction.
    @MainActor
    func commit10k(_ report: (String, @autoclosure () -> Double) -> Void) throws {
        let move = try Self.commitScene()
        report("commit-10k", medianMillisecondsSettled(repeat: `repeat`) { move(false) })
        // The same moves with their implicit animations: 10,000 animations
        // made, each from the presentation value of the one it replaces.
        report("commit-10k-animated", medianMillisecondsSettled(repeat: `repeat`) { move(true) })
    }

    /// commit-10k's scene: 10,000 layers on screen. Returns one round, which
    /// moves them all in one transaction (with their implicit animations
    /// when passed true) and commits.
    @MainActor
    static func commitScene() throws -> (_ animated: Bool) -> Void {
        let scene = try NativeCommitScene()
        for i in 0..<commitSceneLayers { scene.addLayer(i) }
        return scene.finish()
    }

    /// animate-1k: one frame of 1,000 layers with running animations.
    @MainActor
    func animate1k(_ report: (String, @autoclosure () -> Double) -> Void) throws {
        let frame = try Self.animateScene()
        report("animate-1k", medianMilliseconds(repeat: `repeat`) { frame() })
    }

    /// animate-1k's scene: 1,000 layers with running position and opacity
    /// animations. Returns one round: a frame, rendered.
    @MainActor
    static func animateScene() throws -> () -> Void {
        let animClock = ManualClock()
        let anim = try LayerHost(width: 1920, height: 1080, clock: animClock)
        for i in 0..<1_000 {
            let l = Layer()
            l.frame = Rect(x: Double(i % 40) * 48, y: Double(i / 40) * 43, width: 40, height: 36)
            l.backgroundColor = Color(red: 0.3, green: Double(i % 10) / 10, blue: 0.9)
            l.cornerRadius = 6
            anim.rootLayer.addSublayer(l)
            var move = BasicAnimation(keyPath: "position.x", by: 40.0, duration: 2)
            move.repeatCount = .infinity
            move.autoreverses = true
            l.add(move, forKey: "move")
            var fade = BasicAnimation(keyPath: "opacity", from: 1.0, to: 0.3, duration: 1.5)
            fade.repeatCount = .infinity
            fade.autoreverses = true
            l.add(fade, forKey: "fade")
        }
        anim.renderFrame()
        return { _ = anim.advance() }
    }

    /// 500 layers of every kind the issue lists; returns the compositor to time
    /// and a 64 × 64 layer to change.
    @MainActor
    static func buildScene(_ root: Layer) throws -> (Compositor, Layer) {
        let compositor = try Compositor(width: 1920, height: 1080)
        var rng = SplitMix64(seed: 5)
        func u() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        // A small image for contents.
        var px = [UInt8](repeating: 0, count: 48 * 48 * 4)
        for y in 0..<48 {
            for x in 0..<48 {
                let i = (y * 48 + x) * 4
                px[i] = UInt8(x * 5); px[i + 1] = UInt8(y * 5); px[i + 2] = 160; px[i + 3] = 255
            }
        }
        let image = try Image(width: 48, height: 48, premultipliedPixels: px)
        for i in 0..<500 {
            let kind = i % 10
            let l: Layer
            if kind == 9 {
                let t = TextLayer()
                t.string = "Label \(i)"
                t.fontSize = 14
                t.foregroundColor = .black
                l = t
            } else {
                l = Layer()
            }
            let w = 40 + u() * 120, h = 30 + u() * 80
            l.frame = Rect(x: u() * (1920 - w), y: u() * (1080 - h), width: w, height: h)
            l.backgroundColor = Color(red: u(), green: u(), blue: u(), alpha: kind == 9 ? 1 : 0.6 + u() * 0.4)
            switch kind {
            case 0, 1: l.cornerRadius = 12
            case 2: l.contents = image; l.contentsGravity = .resizeAspectFill; l.masksToBounds = true
            case 3: l.borderWidth = 3; l.borderColor = .black; l.cornerRadius = 8
            case 4: l.shadowOpacity = 0.5; l.shadowRadius = 6; l.shadowOffset = Size(width: 0, height: 4); l.cornerRadius = 10
            case 5:
                l.opacity = 0.7
                let sub = Layer()
                sub.frame = Rect(x: 5, y: 5, width: w / 2, height: h / 2)
                sub.backgroundColor = .white
                l.addSublayer(sub)
            case 6:
                let m = Layer()
                m.frame = l.bounds
                m.backgroundColor = .black
                m.cornerRadius = min(w, h) / 2
                l.mask = m
            case 7: l.shadowOpacity = 0.4; l.shadowPath = Path(rect: l.bounds); l.shadowRadius = 4
            default: break
            }
            root.addSublayer(l)
        }
        let c = Layer()
        c.frame = Rect(x: 900, y: 500, width: 64, height: 64)
        c.backgroundColor = Color(red: 1, green: 0.4, blue: 0.2)
        root.addSublayer(c)
        return (compositor, c)
    }
}

/// A commit case's scene, built a layer at a time, so that two scenes
/// compared in one process can be built in turn, layer by layer, and share
/// the heap alike.
@MainActor
protocol CommitScene: AnyObject {
    /// Adds the `i`-th of the scene's layers.
    func addLayer(_ i: Int)
    /// Commits the scene and returns one round: every layer moved in one
    /// transaction (with their implicit animations when passed true).
    func finish() -> (_ animated: Bool) -> Void
}

/// The layers in a commit case's scene.
let commitSceneLayers = 10_000

/// commit-10k's scene through Strata's layers, in a host of its own.
@MainActor
final class NativeCommitScene: CommitScene {
    let host: LayerHost
    private var layers: [Layer] = []

    init() throws { host = try LayerHost(width: 1920, height: 1080, clock: ManualClock()) }

    func addLayer(_ i: Int) {
        let l = Layer()
        l.frame = Rect(x: Double(i % 100) * 19, y: Double(i / 100) * 10, width: 16, height: 8)
        l.backgroundColor = Color(red: Double(i % 7) / 7, green: 0.5, blue: 0.8)
        host.rootLayer.addSublayer(l)
        layers.append(l)
    }

    func finish() -> (_ animated: Bool) -> Void {
        Transaction.flush()
        var step = 0.0
        let layers = self.layers, host = self.host
        return { animated in
            withExtendedLifetime(host) {
                step += 1
                Transaction.begin()
                Transaction.disableActions = !animated
                let dx = step.truncatingRemainder(dividingBy: 2) == 0 ? 1.0 : -1.0
                for l in layers { l.position = Point(x: l.position.x + dx, y: l.position.y) }
                Transaction.commit()
            }
        }
    }
}
