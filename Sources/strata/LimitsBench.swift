import ArgumentParser
import Foundation
import StrataGraphics
import StrataScenes
import StrataText

#if canImport(Glibc)
import Glibc
#endif

/// `strata bench limits`: the hostile inputs an outside robustness check runs
/// (huge paths, hostile dash patterns, …), each in a process of its own, with
/// its wall time and peak memory. Every case must finish in seconds and stay
/// far under a gibibyte.
struct LimitsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limits",
        abstract: "Runs hostile inputs in processes of their own: wall time and peak memory.",
        discussion: """
            Prints one line a case, `CASE WALL_S PEAK_MB`, each the median of --repeat runs. \
            The cases: ten million segments stroked with round joins, dashed, and filled; a dash \
            pattern of a billion dashes, mostly off screen; a 1-bit PNG of 16384 × 16384 pixels \
            (211 KB) decoded with the default pixel limit (refused) and at the largest size allowed \
            (1 GiB of pixels, decoded into the image's own storage); a letter with 32 000 combining \
            marks, laid out and drawn.
            """)

    @Option(help: "Runs of each case.")
    var `repeat` = 1

    @Option(help: "Comma-separated cases (default: all).")
    var cases: String?

    @Option(name: .customLong("case-only"), help: .hidden)
    var only: String?

    static let all: [(name: String, body: @Sendable () throws -> Void)] = [
        ("stroke-10m-round-joins", { strokeWalk(dashes: []) }),
        ("stroke-10m-dashed", { strokeWalk(dashes: [4, 3]) }),
        ("fill-10m", { fillWalk() }),
        (
            "png-16384-default-limit",
            {
                guard (try? Image(pngData: HostileFiles.blankPNG(width: 16384, height: 16384))) == nil else {
                    throw ValidationError("decoded past the default limit")
                }
            }
        ),
        (
            "png-16384-at-max-pixels",
            {
                let image = try Image(pngData: HostileFiles.blankPNG(width: 16384, height: 16384), maximumPixelCount: BitmapLimits.maxPixels)
                guard image.width == 16384 else { throw ValidationError("wrong size") }
            }
        ),
        (
            "text-32k-combining-marks",
            {
                let text = "a" + String(repeating: "\u{0301}", count: 32_000) + " b"
                let canvas = try Canvas(width: 200, height: 60)
                canvas.draw(
                    TextLayout(AttributedText(text, attributes: TextAttributes(font: Font(size: 16))), width: 200),
                    at: Point(x: 2, y: 2))
            }
        ),
        (
            "dash-1e9-offscreen",
            {
                let canvas = try Canvas(width: 1920, height: 1080)
                var path = Path()
                path.move(to: Point(x: -1e9, y: 540))
                path.addLine(to: Point(x: 1e9, y: 540))
                canvas.setLineDash(phase: 0, lengths: [1, 1])
                canvas.stroke(path)
            }
        ),
    ]

    /// Ten million points of a random walk across a 1920 × 1080 canvas.
    static func walk() -> Path {
        var path = Path()
        let n = 10_000_000
        path.reserveCapacity(additionalElements: n)
        var rng = SplitMix64(seed: 13)
        var y = 540.0
        for i in 0..<n {
            y = min(1040, max(40, y + (rng.uniform() - 0.5) * 12))
            let p = Point(x: 20 + Double(i) * 1880 / Double(n - 1), y: y)
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        return path
    }

    static func strokeWalk(dashes: [Double]) {
        let path = walk()
        let canvas = try! Canvas(width: 1920, height: 1080)
        canvas.strokeStyle = StrokeStyle(lineWidth: 1.5, lineCap: .round, lineJoin: .round, dashLengths: dashes)
        canvas.stroke(path)
    }

    static func fillWalk() {
        var path = walk()
        path.addLine(to: Point(x: 1900, y: 1080))
        path.addLine(to: Point(x: 20, y: 1080))
        path.closeSubpath()
        let canvas = try! Canvas(width: 1920, height: 1080)
        canvas.fill(path)
    }

    func run() throws {
        if let only {
            guard let c = LimitsBench.all.first(where: { $0.name == only }) else { throw ValidationError("no case \(only)") }
            try c.body()
            return
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let chosen = cases.map { Set($0.split(separator: ",").map(String.init)) }
        for c in LimitsBench.all where chosen?.contains(c.name) ?? true {
            var runs: [(wall: Double, peak: Double)] = []
            for _ in 0..<max(1, `repeat`) {
                runs.append(try TilesBench.measure(me, ["bench", "limits", "--case-only", c.name]))
            }
            func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
            print(String(format: "%@ %.3f %.1f", c.name, median(runs.map(\.wall)), median(runs.map(\.peak))))
        }
    }
}
