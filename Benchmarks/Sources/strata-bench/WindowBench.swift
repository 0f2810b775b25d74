import ArgumentParser
import Dispatch
import Foundation
import StrataControls
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataTestSupport
import StrataWayland
import StrataWaylandTesting
import StrataX11
import StrataX11Testing

struct WindowBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "window",
        abstract: "Times the window, on X11 or Wayland: presentation, input latency and idle CPU.",
        discussion: """
            Uses DISPLAY, or starts an Xvfb of its own when DISPLAY is not set. Prints \
            `strata CASE VALUE` for present-full (ms, median: a whole 1920 × 1080 frame through \
            shared memory, until the server has it), present-full-noshm (the same with \
            XPutImage), present-damage (one 64 × 64 rectangle), input-latency (ms, p99 over \
            300 pointer moves sent with XTest while dragging a ruler: from the move's arrival in \
            the window to the presented frame that shows it) and idle-cpu (percent of one core \
            over 5 seconds of an idle window showing a static tree). With --backend wayland the \
            same cases run on headless compositors the benchmark starts: presentation and idle \
            CPU on weston (through wl_shm, until the compositor has handled the commit), \
            input-latency on sway at 60 Hz with a virtual pointer (from the move's arrival to \
            the commit of the frame that shows it, which waits for the compositor's frame \
            callback as every frame does).
            """)

    @Option(help: "x11 (default) or wayland.")
    var backend = "x11"

    @Option(help: "Comma-separated cases to run (default: all).")
    var cases: String?

    @Option(help: "Rounds for the presentation medians.")
    var rounds = 100

    func run() throws {
        try MainActor.assumeIsolated { try bench() }
    }

    func validate() throws {
        guard ["x11", "wayland"].contains(backend) else { throw ValidationError("--backend is x11 or wayland") }
    }

    @MainActor
    func bench() throws {
        if backend == "wayland" { return try benchWayland() }
        let selection = CaseSelection(cases)
        var server: VirtualDisplay?
        var name = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        if name.isEmpty {
            server = try VirtualDisplay(width: 1920, height: 1080)
            name = server!.name
        }
        defer { server?.stop() }
        for (label, shm) in [("present-full", true), ("present-full-noshm", false)] where selection.runs(label) {
            let window = try Window(title: "bench", size: Size(width: 1920, height: 1080), scale: 1, display: name, usesSharedMemory: shm)
            defer { window.close() }
            fillWithPicture(window)
            selection.report(label, medianMilliseconds(repeat: rounds) { window.presentFrame() })
            if selection.runs("present-damage"), shm {
                let rect = Rect(x: 700, y: 400, width: 64, height: 64)
                selection.report("present-damage", medianMilliseconds(repeat: rounds * 5) { window.presentFrame(rects: [rect]) })
            }
        }
        if selection.runs("input-latency") { selection.report("input-latency", try inputLatency(name)) }
        if selection.runs("idle-cpu") { selection.report("idle-cpu", try idleCPU(name)) }
    }

    /// The cases on a headless weston of the benchmark's own.
    @MainActor
    func benchWayland() throws {
        let selection = CaseSelection(cases)
        let weston = try HeadlessWeston(width: 1920, height: 1080)
        defer { weston.stop() }
        if selection.runs("present-full") || selection.runs("present-damage") {
            let window = try WaylandWindow(title: "bench", size: Size(width: 1920, height: 1080), display: weston.socketPath)
            defer { window.close() }
            fill(window.host.rootLayer)
            settle(window)
            if selection.runs("present-full") {
                selection.report("present-full", medianMilliseconds(repeat: rounds) { window.presentFrame() })
            }
            if selection.runs("present-damage") {
                let rect = Rect(x: 700, y: 400, width: 64, height: 64)
                selection.report("present-damage", medianMilliseconds(repeat: rounds * 5) { window.presentFrame(rects: [rect]) })
            }
        }
        if selection.runs("input-latency") { selection.report("input-latency", try waylandInputLatency()) }
        if selection.runs("idle-cpu") {
            let window = try WaylandWindow(title: "idle", size: Size(width: 800, height: 600), display: weston.socketPath)
            defer { window.close() }
            buildLayerScene(window.host.rootLayer)
            settle(window)
            let start = cpuSeconds()
            let end = Date().addingTimeInterval(5)
            while Date() < end { _ = RunLoop.main.run(mode: .default, before: end) }
            selection.report("idle-cpu", (cpuSeconds() - start) / 5 * 100)
        }
    }

    /// Runs the main run loop until the Wayland window has nothing due.
    @MainActor
    func settle(_ window: WaylandWindow, atMost seconds: Double = 5) {
        let deadline = Date().addingTimeInterval(seconds)
        while window.needsFrame || !window.isReadyForFrame, Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
        }
    }

    /// A window's frame with something in every pixel (stripes and a gradient).
    @MainActor
    func fillWithPicture(_ window: Window) {
        fill(window.rootLayer)
        settle(window)
    }

    @MainActor
    func fill(_ root: Layer) {
        let gradient = GradientLayer()
        gradient.frame = root.bounds
        gradient.colors = [Color(red: 0.1, green: 0.3, blue: 0.8), Color(red: 0.9, green: 0.5, blue: 0.2)]
        root.addSublayer(gradient)
        for i in 0..<20 {
            let l = Layer()
            l.frame = Rect(x: Double(i) * 96, y: 100, width: 48, height: 880)
            l.backgroundColor = Color(white: Double(i) / 20, alpha: 0.5)
            root.addSublayer(l)
        }
    }

    /// Runs the main run loop (the window's event source and frame timer)
    /// until nothing is due.
    @MainActor
    func settle(_ window: Window, atMost seconds: Double = 5) {
        let deadline = Date().addingTimeInterval(seconds)
        while window.needsFrame, Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
        }
    }

    /// p99 of arrival-to-presentation over 300 pointer moves dragging a ruler.
    @MainActor
    func inputLatency(_ name: String) throws -> Double {
        let size = Size(width: 800, height: 160)
        let window = try Window(title: "latency", size: size, scale: 1, display: name)
        defer { window.close() }
        let root = View(frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        let ruler = RulerView(frame: root.bounds, scale: try RulerScale(step: 0.1, minimum: 0, maximum: 100_000))
        ruler.backgroundColor = .white
        root.addSubview(ruler)
        try ruler.setValue(50_000, animated: false)
        window.rootView = root
        settle(window)
        let input = try SyntheticInput(display: name)
        let o = window.screenOrigin
        let p99 = try dragLatency(
            install: {
                window.eventObserver = $0; window.framePresented = $1
            },
            move: { input.move(toX: o.x + $0, y: o.y + 80) }, press: { input.button(1, down: $0) })
        settle(window)
        return p99
    }

    /// The ruler dragged by 300 moves of a virtual pointer through a
    /// headless sway: p99 of arrival-to-commit.
    @MainActor
    func waylandInputLatency() throws -> Double {
        let sway = try HeadlessSway(width: 800, height: 600)
        defer { sway.stop() }
        let appID = "strata-bench-latency"
        let window = try WaylandWindow(title: "latency", appID: appID, size: Size(width: 800, height: 160), display: sway.socketPath)
        defer { window.close() }
        let input = try VirtualInput(display: sway.socketPath, extent: (sway.width, sway.height))
        // sway tiles the window; the ruler fills what it is given.
        let ruler = RulerView(frame: Rect(x: 0, y: 0, width: 800, height: 160), scale: try RulerScale(step: 0.1, minimum: 0, maximum: 100_000))
        ruler.backgroundColor = .white
        try ruler.setValue(50_000, animated: false)
        window.rootView = ruler
        window.onResize = { ruler.frame = Rect(origin: .zero, size: $0) }
        var content: (x: Double, y: Double, width: Double, height: Double)?
        let deadline = Date().addingTimeInterval(5)
        while !window.hasPointer || content.map({ $0.width != window.size.width }) ?? true, Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
            content = try sway.contentRect(appID: appID)
        }
        guard let content, window.hasPointer else { throw ValidationError("sway gave the window no pointer") }
        settle(window)
        let y = content.y + 80
        let p99 = try dragLatency(
            install: {
                window.eventObserver = $0; window.framePresented = $1
            },
            move: { input.move(toX: content.x + Double($0), y: y) }, press: { input.button(down: $0) })
        settle(window)
        return p99
    }

    /// p99 of arrival-to-presentation over 300 pointer moves dragging from x
    /// = 100 and back, 3 points a move, with a pause of 0–8 ms after each
    /// presented move, as moves come from a hand. `install` hooks the
    /// window's event observer and presentation callback; `move` sends the
    /// pointer to an x, `press` presses or releases the button.
    @MainActor
    func dragLatency(
        install: (@escaping @MainActor (InputEvent) -> Bool, @escaping @MainActor (Double, [Double]) -> Void) -> Void,
        move: (Int) -> Void, press: (Bool) -> Void
    ) throws -> Double {
        var arrivals: [Double] = []
        var latencies: [Double] = []
        install(
            { event in
                if case .pointer(let p) = event, p.phase == .moved { arrivals.append(SystemClock.shared.now) }
                return true
            },
            { presented, _ in
                for a in arrivals { latencies.append((presented - a) * 1000) }
                arrivals.removeAll()
            })
        var x = 100
        move(x)
        press(true)
        var random = SplitMix64(seed: 20)
        for i in 0..<300 {
            x += (i / 100) % 2 == 0 ? 3 : -3
            let before = latencies.count
            move(x)
            let deadline = Date().addingTimeInterval(1)
            while latencies.count == before, Date() < deadline {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
            }
            let pause = Date().addingTimeInterval(Double(random.next() % 8_000) / 1e6)
            while Date() < pause { _ = RunLoop.main.run(mode: .default, before: pause) }
        }
        press(false)
        guard latencies.count >= 300 else {
            throw ValidationError("only \(latencies.count) of 300 moves were presented")
        }
        return percentile(latencies, 0.99)
    }

    /// CPU time of the process over 5 s of an idle window, as a percentage of one core.
    @MainActor
    func idleCPU(_ name: String) throws -> Double {
        let window = try Window(title: "idle", size: Size(width: 800, height: 600), scale: 1, display: name)
        defer { window.close() }
        buildLayerScene(window.rootLayer)
        settle(window)
        let start = cpuSeconds()
        let end = Date().addingTimeInterval(5)
        while Date() < end { _ = RunLoop.main.run(mode: .default, before: end) }
        return (cpuSeconds() - start) / 5 * 100
    }

    @MainActor
    func buildLayerScene(_ root: Layer) {
        for i in 0..<30 {
            let l = Layer()
            l.frame = Rect(x: Double(i % 6) * 130 + 10, y: Double(i / 6) * 110 + 10, width: 120, height: 100)
            l.backgroundColor = Color(red: Double(i) / 30, green: 0.5, blue: 1 - Double(i) / 30)
            l.cornerRadius = 12
            root.addSublayer(l)
        }
    }
}
