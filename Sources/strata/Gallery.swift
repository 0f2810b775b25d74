import ArgumentParser
import Foundation
import StrataGraphics
import StrataScenes

struct Gallery: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Renders the demo pictures and benchmark scenes to PNG files.")

    @Option(help: "The folder to write into (created if missing).")
    var out = "out"

    func run() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var written: [String] = []
        for (name, draw) in GalleryPictures.all {
            let canvas = try Canvas(width: 480, height: 320)
            draw(canvas)
            let path = "\(out)/\(name).png"
            try canvas.makeImage().writePNG(to: path)
            written.append(path)
        }
        let canvas = try Canvas(width: RasterScene.width, height: RasterScene.height)
        for scene in RasterScene.allCases {
            scene.draw(scene.generate(), on: canvas)
            let path = "\(out)/scene-\(scene.rawValue).png"
            try canvas.makeImage().writePNG(to: path, compressionLevel: 3)
            written.append(path)
        }
        written += try MainActor.assumeIsolated {
            try LayerGallery.render(into: out) + ChartGallery.render(into: out) + ControlsGallery.render(into: out)
        }
        for path in written { print(path) }
    }
}
