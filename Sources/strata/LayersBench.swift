import ArgumentParser
import Foundation
import StrataGraphics
import StrataLayers

/// `strata bench layers`: the layer system's frame costs (issue 5's cases).
struct LayersBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layers",
        abstract: "Times compositing, damage, commits and animation of layer trees.",
        discussion: """
            Prints `strata CASE MEDIAN_MS` for composite-full (a 1920 × 1080 frame from scratch: \
            500 layers with rounded backgrounds, images, borders, shadows, opacity, masks and text), \
            composite-damage (one 64 × 64 layer changes colour; commit and render), commit-10k \
            (10,000 layers on screen move in one transaction, actions disabled; the moves and the commit), \
            commit-10k-animated (the same with each move's implicit animation) and animate-1k (1,000 layers with running position and opacity animations; one frame).
            """)

    @Option(help: "Timed runs per case (after two warm-ups).")
    var `repeat` = 20

    @Option(help: "Write the composite-full frame to this PNG file.")
    var png: String?

    @Option(help: "Run only these cases (comma-separated), e.g. for profiling.")
    var only: String?

    func run() throws {
        try MainActor.assumeIsolated { try runOnMain() }
    }

    @MainActor
    func runOnMain() throws {
        func median(_ body: () -> Void) -> Double { medianMilliseconds(repeat: `repeat`, body) }
        let selected = only.map { Set($0.split(separator: ",").map(String.init)) }
        func wanted(_ name: String) -> Bool { selected?.contains(name) ?? true }
        func report(_ name: String, _ ms: @autoclosure () -> Double) {
            guard wanted(name) else { return }
            let ms = ms()
            FileHandle.standardOutput.write(Data(String(format: "strata %@ %.3f\n", name, ms).utf8))
        }

        // composite-full and composite-damage share a scene.
        let clock = ManualClock()
        let host = try LayerHost(width: 1920, height: 1080, clock: clock)
        let (compositor, changing) = try LayersBench.buildScene(host.rootLayer)
        host.renderFrame()
        report("composite-full", median {
            compositor.invalidate()
            compositor.render(host.renderTree, at: clock.now)
        })
        if let png { try compositor.frame.makeImage().writePNG(to: png) }
        var flip = false
        report("composite-damage", median {
            flip.toggle()
            Transaction.perform {
                Transaction.disableActions = true
                changing.backgroundColor = flip ? Color(red: 0.2, green: 0.6, blue: 1) : Color(red: 1, green: 0.4, blue: 0.2)
            }
            host.renderFrame()
        })

        if wanted("commit-10k") || wanted("commit-10k-animated") { try commit10k(report) }
        if wanted("animate-1k") { try animate1k(report) }
    }

    /// commit-10k: layers already on screen move in one transaction.
    @MainActor
    func commit10k(_ report: (String, @autoclosure () -> Double) -> Void) throws {
        let big = try LayerHost(width: 1920, height: 1080, clock: ManualClock())
        var layers: [Layer] = []
        for i in 0..<10_000 {
            let l = Layer()
            l.frame = Rect(x: Double(i % 100) * 19, y: Double(i / 100) * 10, width: 16, height: 8)
            l.backgroundColor = Color(red: Double(i % 7) / 7, green: 0.5, blue: 0.8)
            big.rootLayer.addSublayer(l)
            layers.append(l)
        }
        Transaction.flush()
        var step = 0.0
        func move(animated: Bool) {
            step += 1
            Transaction.begin()
            Transaction.disableActions = !animated
            for l in layers { l.position = Point(x: l.position.x + (step.truncatingRemainder(dividingBy: 2) == 0 ? 1 : -1), y: l.position.y) }
            Transaction.commit()
        }
        report("commit-10k", medianMilliseconds(repeat: `repeat`) { move(animated: false) })
        // The same moves with their implicit animations: 10,000 animations
        // made, each from the presentation value of the one it replaces.
        report("commit-10k-animated", medianMilliseconds(repeat: `repeat`) { move(animated: true) })
    }

    /// animate-1k: one frame of 1,000 layers with running animations.
    @MainActor
    func animate1k(_ report: (String, @autoclosure () -> Double) -> Void) throws {
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
        report("animate-1k", medianMilliseconds(repeat: `repeat`) { anim.advance() })
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
        for y in 0..<48 { for x in 0..<48 {
            let i = (y * 48 + x) * 4
            px[i] = UInt8(x * 5); px[i + 1] = UInt8(y * 5); px[i + 2] = 160; px[i + 3] = 255
        } }
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
