import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// The benchmark scenes must be SCENES.md's geometry exactly, and what Strata draws
/// of them must stay within the fidelity bar against Skia's reference images.
@Suite struct BenchmarkSceneTests {
    @Test(arguments: [
        (RasterScene.line, 158275155.595140),
        (.polygons, 12132402.045469),
        (.circles, 14994402.162324),
        (.rects, 15761937.474119),
        (.area, 2963841.361162),
    ])
    func checksumsMatchScenesMD(scene: RasterScene, expected: Double) {
        let checksum = scene.generate().checksum
        #expect(abs(checksum - expected) <= 1e-6, "\(scene): \(checksum)")  // SCENES.md prints six decimals
    }

    /// The bar of the issues: mean difference at most 1.0, and no more pixels over 8
    /// than Cairo has (line 0.14 %, polygons 0.15 %, circles 6.3 %, rects 0.01 %,
    /// area 0.06 %).
    /// Runs where `../shared/bench` stands beside the checkout, as in CI.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedReferences),
            "Skia's reference images are read from ../shared/bench/reference beside the checkout, as CI has it"),
        arguments: [(RasterScene.line, 0.14), (.polygons, 0.15), (.circles, 6.3), (.rects, 0.01), (.area, 0.06)])
    func scenesMatchSkiaReferences(scene: RasterScene, over8: Double) throws {
        let canvas = makeCanvas(RasterScene.width, RasterScene.height)
        scene.draw(scene.generate(), on: canvas)
        let reference = try Image(contentsOfPNGFile: "\(sharedReferences)/skia-\(scene.rawValue).png")
        let d = try #require(difference(canvas.makeImage(), reference))
        #expect(d.mean <= 1.0 && d.over8Percent <= over8, "\(scene): mean \(d.mean), over 8: \(d.over8Percent) %")
    }
}

/// `../shared/bench/reference` beside the checkout.
let sharedReferences = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/bench/reference").standardized.path
