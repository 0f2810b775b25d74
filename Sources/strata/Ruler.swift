import ArgumentParser
import Dispatch
import Foundation
import StrataControls
import StrataGraphics
import StrataLayers

struct RulerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ruler",
        abstract: "Flings the weight ruler headless and shows it settle on a tick.",
        discussion: """
            Builds a RulerView (--min to --max in --step, a long tick every --long ticks) at \
            --value, then plays a fling at --fling points per second (negative: toward larger \
            values) as a scripted drag of 80 ms, released, and runs frames at 60 a second on a \
            manual clock until the ruler rests. Prints every value callback (with its frame), \
            the final value, and frame statistics; --frames DIR writes every --every-th frame as \
            PNG, --out the last. A step that is not above 0, a minimum above the maximum, or a \
            value or velocity that is not finite is an error.
            """)

    @Option(parsing: .unconditional, help: "The starting value.")
    var value = 72.5
    @Option(help: "The value between ticks.")
    var step = 0.1
    @Option(parsing: .unconditional, help: "The smallest value.")
    var min = 0.0
    @Option(parsing: .unconditional, help: "The largest value.")
    var max = 300.0
    @Option(help: "Ticks from one long tick to the next.")
    var long = 10
    @Option(parsing: .unconditional, help: "The fling's velocity in points per second (negative: toward larger values).")
    var fling = -2400.0
    @Option(help: "The unit after the labels.")
    var unit = "kg"
    @Flag(help: "Join the ends (the maximum followed by the minimum).")
    var wrap = false
    @Flag(help: "Values grow to the left.")
    var rightToLeft = false
    @Option(help: "Width in points.")
    var width = 480
    @Option(help: "Height in points.")
    var height = 96
    @Option(help: "A directory to write frames to.")
    var frames: String?
    @Option(help: "Write every Nth frame.")
    var every = 1
    @Option(help: "Where to write the last frame.")
    var out = "ruler.png"

    func validate() throws {
        guard fling.isFinite else { throw ValidationError("--fling must be a finite velocity, not \(fling)") }
        guard fling.magnitude <= 100_000 else { throw ValidationError("--fling must be within ±100,000 points per second") }
        guard value.isFinite else { throw ValidationError("--value must be finite, not \(value)") }
        guard (64...4096).contains(width), (32...1024).contains(height) else {
            throw ValidationError("--width must be 64…4,096 and --height 32…1,024")
        }
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
        do {
            _ = try RulerScale(step: step, minimum: min, maximum: max, ticksPerLongTick: long)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        try MainActor.assumeIsolated { try play() }
    }

    @MainActor
    func play() throws {
        if let frames { try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true) }
        let host = try LayerHost(width: width, height: height, scale: 1, backgroundColor: Color(white: 0.93))
        let root = View(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        let ruler = RulerView(
            frame: Rect(x: 8, y: 8, width: Double(width) - 16, height: Double(height) - 16),
            scale: try RulerScale(step: step, minimum: min, maximum: max, ticksPerLongTick: long))
        ruler.backgroundColor = .white
        ruler.layer.cornerRadius = 10
        ruler.unit = unit
        ruler.wrapsAround = wrap
        ruler.isRightToLeft = rightToLeft
        ruler.showsHorizontalScrollIndicator = true
        root.addSubview(ruler)
        try ruler.setValue(value, animated: false)
        let dispatcher = InputDispatcher(rootView: root, host: host)
        var frame = 0
        var log: [String] = []
        // Callbacks come during a frame's render: name that frame.
        let first = host.statistics.framesRendered
        ruler.onValueChanged = { change in
            let n = host.statistics.framesRendered - first
            log.append("frame \(n): \(change.isFinal ? "final " : "")\(formatted(change.value))")
        }
        host.renderFrame()
        print("start: \(formatted(ruler.value))")
        // The scripted drag: 80 ms at the fling's speed, then release; frames
        // until the ruler rests.
        let y = 8 + Double(height - 16) / 2, x0 = Double(width) / 2
        let script = try GestureScript.fling(from: Point(x: x0, y: y), velocity: Point(x: fling, y: 0))
        let started = DispatchTime.now().uptimeNanoseconds
        try script.play(
            on: dispatcher, host: host, maximumDuration: 60,
            settle: { !ruler.isDecelerating && !ruler.isDragging },
            onFrame: { n in
                frame = n
                if let frames, n % every == 0 { try host.writePNG(to: String(format: "%@/ruler-%04d.png", frames, n)) }
            })
        // One more frame for the final callback.
        frame += 1
        host.advance()
        try host.writePNG(to: out)
        for line in log { print(line) }
        let total = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print("rest: \(formatted(ruler.value)) after \(frame) frames (\(String(format: "%.2f", Double(frame) / 60)) s of motion)")
        print(
            String(
                format: "frames: p50 %.2f ms, p99 %.2f ms, max %.2f ms; %d over 16.67 ms; rendered in %.2f s",
                host.statistics.p50 * 1000, host.statistics.p99 * 1000, host.statistics.max * 1000,
                host.statistics.framesOverBudget, total))
    }

    func formatted(_ v: Double) -> String {
        let digits = RulerScale.fractionDigits(of: step)
        return String(format: "%.\(digits)f", v) + (unit.isEmpty ? "" : " \(unit)")
    }
}
