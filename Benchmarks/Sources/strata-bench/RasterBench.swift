import ArgumentParser
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

    @Option(help: "Write DIR/strata-SCENE.png for each scene drawn.")
    var png: String?

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
        for name in scenes.split(separator: ",") where RasterScene(rawValue: String(name)) == nil {
            throw ValidationError("unknown scene '\(name)'; scenes are \(RasterScene.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        if let png { try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true) }
        let canvas = try Canvas(width: RasterScene.width, height: RasterScene.height)
        for name in scenes.split(separator: ",") {
            let scene = RasterScene(rawValue: String(name))!
            let data = scene.generate()
            var times: [Double] = []
            for i in 0..<(`repeat` + 2) {
                let t0 = DispatchTime.now().uptimeNanoseconds
                scene.draw(data, on: canvas)
                let t1 = DispatchTime.now().uptimeNanoseconds
                if i >= 2 { times.append(Double(t1 - t0) / 1e6) }
            }
            times.sort()
            let n = times.count
            let median = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2
            FileHandle.standardOutput.write(Data(String(format: "strata %@ %.3f %.6f\n", scene.rawValue, median, data.checksum).utf8))
            if let png {
                try canvas.makeImage().writePNG(to: "\(png)/strata-\(scene.rawValue).png", compressionLevel: 3)
            }
        }
    }
}
