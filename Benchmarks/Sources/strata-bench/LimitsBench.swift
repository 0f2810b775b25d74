import ArgumentParser
import Foundation
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataTestSupport
import StrataText

#if canImport(Glibc)
import Glibc
#endif

/// `strata-bench limits`: the hostile inputs an outside robustness check runs
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
            marks, laid out and drawn; a paragraph whose kern, baseline offset or font size is \
            huge, infinite or NaN, and one in DejaVu Sans with unitsPerEm patched from 1 to 16,384, \
            each laid out and drawn (text-*).
            """)

    @Option(help: "Runs of each case.")
    var `repeat` = 1

    @Option(help: "Comma-separated cases (default: all).")
    var cases: String?

    @Option(name: .customLong("case-only"), help: .hidden)
    var only: String?

    /// Every case, in order.
    static let all: [(name: String, body: @Sendable () throws -> Void)] = drawing + more + textCases

    static let drawing: [(name: String, body: @Sendable () throws -> Void)] = [
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
                let image = try Image(pngData: HostileFiles.blankPNG(width: 16384, height: 16384), maximumPixelCount: BitmapLimits.maximumPixels)
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
    ]

    /// Text whose attributes or font say something hostile, each laid out
    /// and drawn: kerns and baseline offsets huge, infinite or
    /// NaN, font sizes out of any range, and DejaVu Sans with its
    /// `unitsPerEm` patched to every power of two from 1 to 16,384 (and 1000).
    static let textCases: [(name: String, body: @Sendable () throws -> Void)] = {
        var cases: [(name: String, body: @Sendable () throws -> Void)] = []
        let values: [(String, Double)] = [("1e30", 1e30), ("-1e30", -1e30), ("inf", .infinity), ("nan", .nan), ("1e6", 1e6)]
        for (name, v) in values {
            cases.append(("text-kern-\(name)", { try MainActor.assumeIsolated { try hostileText { $0.kern = v } } }))
            cases.append(("text-baseline-\(name)", { try MainActor.assumeIsolated { try hostileText { $0.baselineOffset = v } } }))
        }
        for (name, v) in values + [("0", 0), ("-5", -5), ("1e-30", 1e-30), ("1e5", 1e5)] {
            cases.append(("text-size-\(name)", { try MainActor.assumeIsolated { try hostileText { $0.font.size = v } } }))
        }
        for upem in [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000, 1024, 2048, 4096, 8192, 16384] {
            cases.append(("text-units-per-em-\(upem)", { try MainActor.assumeIsolated { try hostileText(unitsPerEm: UInt16(upem)) } }))
        }
        // The largest size of the largest glyphs: 2 million pixels an em.
        cases.append(("text-units-per-em-16-size-max", { try MainActor.assumeIsolated { try hostileText(unitsPerEm: 16) { $0.font.size = 1e30 } } }))
        return cases
    }()

    /// A paragraph of 200 words with a background, an underline and a
    /// strikethrough, `change` made to its attributes, a plain line, and 40
    /// words at three times the size; laid out 600 points wide and drawn at
    /// scale 1, at 2, turned and in a layer tree.
    @MainActor
    static func hostileText(unitsPerEm: UInt16? = nil, _ change: (inout TextAttributes) -> Void = { _ in }) throws {
        var family = "DejaVu Sans"
        if let unitsPerEm {
            guard let face = Font(family: family, size: 16).primaryFace, face.familyName == family else {
                throw ValidationError("DejaVu Sans is not installed")
            }
            let name = "Em" + String(format: "%05d", Int(unitsPerEm)) + "Test"
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: face.path)))
            guard let patched = HostileFiles.font(bytes, unitsPerEm: unitsPerEm, renaming: family, to: name) else {
                throw ValidationError("cannot patch \(face.path)")
            }
            let path = NSTemporaryDirectory() + "strata-\(name)-\(getpid()).ttf"
            try Data(patched).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                try FontLibrary.shared.registerFonts(at: path)
                family = name
                // The paragraph is set in the patched face, not a stand-in.
                let used = Font(family: family, size: 16).primaryFace
                guard used?.familyName == name, used?.unitsPerEm == Double(unitsPerEm) else {
                    throw ValidationError("the patched face is not the one used (\(used?.familyName ?? "none"), \(used?.unitsPerEm ?? 0))")
                }
                FileHandle.standardError.write("set in \(name), unitsPerEm \(unitsPerEm)\n".data(using: .utf8)!)
            } catch {
                // FreeType refuses some values (a clear error is a pass): the
                // paragraph is then drawn in whatever font stands in.
                FileHandle.standardError.write("\(error)\n".data(using: .utf8)!)
            }
        }
        var attributes = TextAttributes(
            font: Font(family: family, size: 16), backgroundColor: Color(red: 1, green: 0.9, blue: 0.4), underline: TextDecoration(),
            strikethrough: TextDecoration(.double))
        change(&attributes)
        let words = (0..<200).map { ["Strata", "lays", "out", "glyphs", "WAVE", "fi", "ffl", "Tg"][$0 % 8] }
        var text = AttributedText(words.joined(separator: " ") + "\n", attributes: attributes)
        text.append("plain text after it\n", attributes: TextAttributes(font: Font(family: family, size: 16)))
        var large = attributes
        large.font.size *= 3
        text.append(words.prefix(40).joined(separator: " "), attributes: large)
        let layout = TextLayout(text, width: 600)
        _ = layout.size
        let canvas = try Canvas(width: 800, height: 600)
        canvas.draw(layout, at: Point(x: 10, y: 10))
        canvas.draw(layout, at: Point(x: 10, y: 10))
        canvas.scaleBy(x: 2, y: 2)
        canvas.draw(layout, at: Point(x: 5, y: 5))
        canvas.rotate(by: 0.3)
        canvas.draw(layout, at: Point(x: 5, y: 5))
        let host = try LayerHost(width: 400, height: 300, scale: 2, backgroundColor: .white)
        let label = TextLayer()
        label.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        label.attributedString = text
        host.rootLayer.addSublayer(label)
        host.renderFrame()
    }

    static let more: [(name: String, body: @Sendable () throws -> Void)] = [
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
        )
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
                runs.append(try TilesBench.measure(me, ["limits", "--case-only", c.name]))
            }
            func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
            print(String(format: "%@ %.3f %.1f", c.name, median(runs.map(\.wall)), median(runs.map(\.peak))))
        }
    }
}
