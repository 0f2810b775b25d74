import ArgumentParser
import Foundation
import StrataDemos
import StrataDocuments
import StrataGraphics

struct Gallery: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Renders the gallery: pictures of what each module draws, as PNG, PDF or SVG files.",
        discussion: """
            Each picture is drawn once per format from the same drawing calls and layer \
            trees: PNG at the picture's scale, PDF and SVG as vectors, text and images, \
            one document per picture, its size in points.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case png, pdf, svg
    }

    @Option(help: "The folder to write into (created if missing).")
    var out = "out"

    @Option(
        name: .long, parsing: .upToNextOption,
        help: "The formats to write: png, pdf, svg (several may follow; default png).")
    var format: [Format] = [.png]

    @Option(help: "Only the pictures whose names contain this.")
    var only: String?

    func run() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let formats = Set(format)
        try MainActor.assumeIsolated {
            for picture in StrataDemos.Gallery.pictures where only.map({ picture.name.contains($0) }) ?? true {
                let scene = try picture.scene()
                let base = "\(out)/\(picture.name)"
                if formats.contains(.png) {
                    try scene.makeImage().writePNG(to: base + ".png")
                    print(base + ".png")
                }
                if formats.contains(.pdf) {
                    let document = PDFDocument(info: .init(title: picture.name, creator: "strata gallery"))
                    scene.draw(in: try document.beginPage(size: scene.size))
                    try document.write(to: base + ".pdf")
                    print(base + ".pdf")
                }
                if formats.contains(.svg) {
                    let drawing = try SVGDocument(size: scene.size, title: picture.name)
                    scene.draw(in: drawing.canvas)
                    try drawing.write(to: base + ".svg")
                    print(base + ".svg")
                }
            }
        }
    }
}
