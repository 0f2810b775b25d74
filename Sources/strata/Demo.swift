import ArgumentParser
import Dispatch
import Foundation
import StrataControls
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataWayland
import StrataWindow
import StrataX11

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Shows a component in a window: graph, chart, ruler, feed or gallery.",
        discussion: """
            On a Wayland compositor (WAYLAND_DISPLAY) or an X display (DISPLAY, or --display; \
            STRATA_WINDOW_BACKEND=x11 or wayland chooses) the demo opens in a window until it is \
            closed (or --seconds pass): drag and fling the ruler and the feed, scrub the chart \
            with the pointer and zoom it with the wheel. Without one it says so in one line and \
            renders the demo headless instead, with scripted input, writing every --every-th \
            frame to --frames (default demo-frames).
            """)

    @Argument(help: "graph, chart, ruler, feed or gallery.")
    var name: String

    @Option(help: "The X display (:0) or Wayland socket (default: WAYLAND_DISPLAY, else DISPLAY).")
    var display: String?

    @Option(help: "Pixels per point (default: the desktop's Xft.dpi over 96; 1 headless).")
    var scale: Double?

    @Option(help: "Close after this many seconds (default: when the window is closed; 3 headless).")
    var seconds: Double?

    @Option(help: "Headless: the directory frames are written to.")
    var frames = "demo-frames"

    @Option(help: "Headless: write every Nth frame.")
    var every = 30

    @Flag(help: "Print frame statistics every second.")
    var fps = false

    @Flag(help: "Feed the demo's scripted input to the window too.")
    var scripted = false

    @Flag(help: "Present with XPutImage instead of shared memory.")
    var noShm = false

    @Option(help: "Write what the window shows to this PNG file when it closes.")
    var screenshot: String?

    func validate() throws {
        guard Demo.Name(rawValue: name) != nil else {
            throw ValidationError("unknown demo '\(name)': one of \(Demo.Name.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let scale, !(scale.isFinite && scale >= 0.5 && scale <= 4) { throw ValidationError("--scale must be between 0.5 and 4") }
        if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
            throw ValidationError("--seconds must be above 0 and at most 86,400")
        }
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
    }

    func run() throws {
        try MainActor.assumeIsolated { try show() }
    }

    @MainActor
    func show() throws {
        let demoName = Demo.Name(rawValue: name)!
        // Wayland or X11, as the environment (or --display) says; with
        // neither, or nothing answering, the demo renders headless.
        let window: StrataWindow.Window
        do {
            window = try StrataWindow.Window(
                title: "Strata — \(name)", size: Demo.defaultSize(demoName), scale: scale, display: display, usesSharedMemory: !noShm)
        } catch let error where Self.isNoDisplay(error) {
            print("strata demo: no display (\(error)); rendering \(name) headless to \(frames)/")
            try headless(demoName)
            return
        }
        let demo = try Demo(demoName, scale: window.scale)
        window.rootView = demo.rootView
        demo.start()
        var lastReport = SystemClock.shared.now
        var framesAtReport = window.host.statistics.framesRendered
        var frameCount = 0
        let start = SystemClock.shared.now
        let end = seconds.map { start + $0 }
        while window.isOpen {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: scripted ? 1.0 / 60 : 0.25))
            let now = SystemClock.shared.now
            // The script's frames are 60ths of a second since the start.
            while scripted, window.isOpen, let dispatcher = window.dispatcher, Double(frameCount) < (now - start) * 60 {
                demo.scriptedInput(frame: frameCount, at: start + Double(frameCount) / 60) { dispatcher.send($0) }
                frameCount += 1
            }
            if fps, now - lastReport >= 1 {
                let s = window.host.statistics
                let n = s.framesRendered - framesAtReport
                // This second's frames: the main actor's time for each (commit and render).
                let recent = Array(s.durations.suffix(n))
                let p50 = median(recent) * 1000
                let worst = (recent.max() ?? 0) * 1000
                print(String(format: "%d frames in %.2f s, frame p50 %.2f ms, max %.2f ms", n, now - lastReport, p50, worst))
                lastReport = now
                framesAtReport = s.framesRendered
            }
            if let end, now >= end {
                if let screenshot { try window.readPixels().writePNG(to: screenshot) }
                window.close()
            }
        }
    }

    /// Whether `error` says there is no window system to open on.
    static func isNoDisplay(_ error: any Error) -> Bool {
        switch error {
        case StrataX11.WindowError.noDisplay: true
        case WaylandError.noCompositor: true
        default: false
        }
    }

    /// The demo in a headless host under a manual clock, paced to the wall
    /// clock so that drawings on the pool land as they would on screen.
    @MainActor
    func headless(_ demoName: Demo.Name) throws {
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        let scale = self.scale ?? 1
        let demo = try Demo(demoName, scale: scale)
        let host = try LayerHost(
            width: Int((demo.size.width * scale).rounded()), height: Int((demo.size.height * scale).rounded()), scale: scale)
        let clock = host.clock as! ManualClock
        let dispatcher = InputDispatcher(rootView: demo.rootView, host: host)
        demo.start()
        let count = Int((seconds ?? 3) * 60)
        var written = 0
        for frame in 0..<count {
            let t0 = DispatchTime.now().uptimeNanoseconds
            demo.scriptedInput(frame: frame, at: clock.now) { dispatcher.send($0) }
            clock.advance(by: 1.0 / 60)
            host.renderFrame()
            if frame % every == every - 1 || frame == count - 1 {
                try host.writePNG(to: "\(frames)/\(name)-\(String(format: "%05d", frame)).png")
                written += 1
            }
            let spent = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            if spent < 1.0 / 60 { usleep(UInt32((1.0 / 60 - spent) * 1e6)) }
        }
        let s = host.statistics
        print(
            String(
                format: "%d frames, %d written; frame p50 %.2f ms, p99 %.2f ms, max %.2f ms", count, written, s.p50 * 1000,
                s.p99 * 1000, s.max * 1000))
    }
}
