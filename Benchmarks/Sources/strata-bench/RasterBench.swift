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
            The API the scenes are drawn through: native (Canvas; lines begin `strata`) or coregraphics             (CGContext, as iOS code draws; lines begin `strata-cg`).
            """)
    var frontEnd = "native"

    func validate() throws {
        guard ["native", "coregraphics"].contains(frontEnd) else {
            throw ValidationError("--front-end must be native or coregraphics, not \(frontEnd)")
        }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
        for name in scenes.split(separator: ",") where RasterScene(rawValue: String(name)) == nil {
            throw ValidationError("unknown scene '\(name)'; scenes are \(RasterScene.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        if let png { try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true) }
        let canvas = try Canvas(width: RasterScene.width, height: RasterScene.height)
        let cg = frontEnd == "coregraphics"
        let context = cg ? RasterScene.makeCGContext() : nil
        let engine = cg ? "strata-cg" : "strata"
        for name in scenes.split(separator: ",") {
            let scene = RasterScene(rawValue: String(name))!
            let data = scene.generate()
            let cgData = cg ? CGSceneData(data) : nil
            var times: [Double] = []
            for i in 0..<(`repeat` + 2) {
                let t0 = DispatchTime.now().uptimeNanoseconds
                if let context, let cgData { scene.draw(cgData, on: context) } else { scene.draw(data, on: canvas) }
                let t1 = DispatchTime.now().uptimeNanoseconds
                if i >= 2 { times.append(Double(t1 - t0) / 1e6) }
            }
            times.sort()
            let n = times.count
            let median = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2
            FileHandle.standardOutput.write(
                Data(String(format: "%@ %@ %.3f %.6f\n", engine, scene.rawValue, median, data.checksum).utf8))
            if let png {
                // A CGContext's pixels are Strata's RGBA: read them where they lie.
                let image =
                    try context.flatMap { c in try Bitmap(wrapping: c.data!, width: c.width, height: c.height).makeImage() }
                    ?? canvas.makeImage()
                try image.writePNG(to: "\(png)/\(engine)-\(scene.rawValue).png", compressionLevel: 3)
            }
        }
    }
}
