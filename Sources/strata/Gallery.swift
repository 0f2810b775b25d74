import ArgumentParser
import Foundation
import StrataDemos
import StrataGraphics

struct Gallery: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Renders the gallery: pictures of what each module draws, as PNG files.")

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
        written += try MainActor.assumeIsolated {
            try LayerGallery.render(into: out) + ChartGallery.render(into: out) + ControlsGallery.render(into: out)
        }
        for path in written { print(path) }
    }
}
