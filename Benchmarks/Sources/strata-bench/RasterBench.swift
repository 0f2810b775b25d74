import ArgumentParser
import CoreGraphics
import Foundation
import StrataDemos
import StrataGraphics
import StrataTestSupport

struct RasterBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster",
        abstract: "Times the raster scenes of ../shared/bench/SCENES.md.",
        discussion: """
            Prints one line per scene: `strata SCENE MEDIAN_MS CHECKSUM`, the median over \
            --repeat runs after two warm-up runs of clearing the 1920 × 1080 surface and \
            drawing the scene.
            """)

    @Option(help: "Comma-separated scenes: line, polygons, circles, rects, area.")
    var scenes = RasterScene.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Timed runs per scene (after two warm-up runs).")
    var `repeat` = 10

    @Option(help: "Write DIR/ENGINE-SCENE.png for each scene drawn.")
    var png: String?

    @Option(
        help: """
            The API the scenes are drawn through: native (Canvas; lines begin `strata`), coregraphics \
            (CGContext, as iOS code draws; lines begin `strata-cg`), or both, in one process, their \
            rounds alternated.
            """)
    var frontEnd = "native"

    @Option(help: "With --front-end both, or several --threads: how many times they take turns.")
    var rounds = 10

    @Flag(
        help: """
            With --front-end both: draw the strata-cg side natively too, on a second canvas, to show what \
            the comparison gives two equal sides (1.00 when it is fair).
            """)
    var control = false

    @Option(
        help: """
            Threads a scene is drawn on (BandRenderer; 1, the default, is one Canvas): several counts, \
            comma-separated, are alternated in one process and printed as SCENE-threads-N, after checking \
            that every count draws the same pixels.
            """)
    var threads = "1"

    func validate() throws {
        guard ["native", "coregraphics", "both"].contains(frontEnd) else {
            throw ValidationError("--front-end must be native, coregraphics or both, not \(frontEnd)")
        }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
        for name in scenes.split(separator: ",") where RasterScene(rawValue: String(name)) == nil {
            throw ValidationError("unknown scene '\(name)'; scenes are \(RasterScene.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        if frontEnd == "both" { return try runBoth() }
        if threads != "1" { return try runThreads() }
        if let png { try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true) }
        let canvas = try Canvas(width: RasterScene.width, height: RasterScene.height)
        let cg = frontEnd == "coregraphics"
        let context = cg ? RasterScene.makeCGContext() : nil
        let engine = cg ? "strata-cg" : "strata"
        for name in scenes.split(separator: ",") {
            let scene = RasterScene(rawValue: String(name))!
            let data = scene.generate()
            let cgData = cg ? CGSceneData(data) : nil
            let ms = median(
                timedRuns(`repeat`) {
                    if let context, let cgData { scene.draw(cgData, on: context) } else { scene.draw(data, on: canvas) }
                })
            FileHandle.standardOutput.write(
                Data(String(format: "%@ %@ %.3f %.6f\n", engine, scene.rawValue, ms, data.checksum).utf8))
            if let png {
                // A CGContext's pixels are Strata's RGBA: read them where they lie.
                let image =
                    try context.flatMap { c in try Bitmap(wrapping: c.data!, width: c.width, height: c.height).makeImage() }
                    ?? canvas.makeImage()
                try image.writePNG(to: "\(png)/\(engine)-\(scene.rawValue).png", compressionLevel: 3)
            }
        }
    }

    /// The scenes on one canvas and through `BandRenderer`s on more threads,
    /// in one process: for each scene, `rounds` times a run of
    /// `repeat / rounds` draws with each thread count in turn; the medians
    /// over each count's draws. Every count's last picture must be the one
    /// canvas's, pixel for pixel.
    func runThreads() throws {
        let counts = threads.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 && $0 <= 64 }) else {
            throw ValidationError("--threads takes counts from 1 to 64, comma-separated, not \(threads)")
        }
        let perRound = max(1, `repeat` / rounds)
        for name in scenes.split(separator: ",") {
            let scene = RasterScene(rawValue: String(name))!
            let data = scene.generate()
            let one = try Canvas(width: RasterScene.width, height: RasterScene.height)
            let renderers = try counts.map { n in
                n == 1 ? nil : BandRenderer(bitmap: try Bitmap(width: RasterScene.width, height: RasterScene.height), threadCount: n)
            }
            func draw(_ i: Int) {
                if let renderer = renderers[i] { renderer.draw { scene.draw(data, on: $0) } } else { scene.draw(data, on: one) }
            }
            var times = [[Double]](repeating: [], count: counts.count)
            for _ in 0..<rounds {
                for i in counts.indices { times[i] += timedRuns(perRound, warmUps: 1) { draw(i) } }
            }
            scene.draw(data, on: one)
            for (i, renderer) in renderers.enumerated() {
                if let renderer, renderer.bitmap.makeImage() != one.makeImage() {
                    throw ValidationError("\(scene.rawValue): \(counts[i]) threads drew other pixels than one")
                }
            }
            for (i, n) in counts.enumerated() {
                FileHandle.standardOutput.write(
                    Data(String(format: "strata %@-threads-%d %.3f %.6f\n", scene.rawValue, n, median(times[i]), data.checksum).utf8))
            }
        }
    }

    /// Both front ends on one surface size in one process: for each scene,
    /// `rounds` times a run of `repeat / rounds` draws through one and then
    /// as many through the other, the one that goes first taking turns from
    /// round to round (in a fixed order the second side of the layers
    /// comparison measured slower even against itself); the medians over
    /// each side's draws.
    func runBoth() throws {
        let canvas = try Canvas(width: RasterScene.width, height: RasterScene.height)
        let twin = try Canvas(width: RasterScene.width, height: RasterScene.height)
        guard let context = RasterScene.makeCGContext() else { throw ValidationError("no CGContext") }
        let perRound = max(1, `repeat` / rounds)
        for name in scenes.split(separator: ",") {
            let scene = RasterScene(rawValue: String(name))!
            let data = scene.generate()
            let cgData = CGSceneData(data)
            let drawNative = { scene.draw(data, on: canvas) }
            let drawOther = control ? { scene.draw(data, on: twin) } : { scene.draw(cgData, on: context) }
            var native: [Double] = [], cg: [Double] = []
            for round in 0..<rounds {
                if round % 2 == 0 {
                    native += timedRuns(perRound, warmUps: 1, drawNative)
                    cg += timedRuns(perRound, warmUps: 1, drawOther)
                } else {
                    cg += timedRuns(perRound, warmUps: 1, drawOther)
                    native += timedRuns(perRound, warmUps: 1, drawNative)
                }
            }
            for (engine, times) in [("strata", native), ("strata-cg", cg)] {
                FileHandle.standardOutput.write(
                    Data(String(format: "%@ %@ %.3f %.6f\n", engine, scene.rawValue, median(times), data.checksum).utf8))
            }
        }
    }
}
