import ArgumentParser
import Foundation
import StrataDemos
import StrataDocuments
import StrataGraphics
import StrataTestSupport

struct DocumentsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "documents",
        abstract: "Times writing the raster scenes of ../shared/bench/SCENES.md as PDF and SVG files.",
        discussion: """
            For each scene, in one process, takes turns --rounds times between drawing it as \
            pixels (`strata SCENE MS CHECKSUM`, as `raster` does), writing it as a one-page \
            PDF file (`strata-pdf SCENE MS BYTES`) and as an SVG file (`strata-svg SCENE MS \
            BYTES`), and prints the medians. A document's time is all of it: making the \
            document, drawing the scene on its canvas, and writing the file (compressed \
            streams, cross-reference table). Peers/cairo_documents.py times Cairo's PDF and \
            SVG surfaces on the same scenes.
            """)

    @Option(help: "Comma-separated scenes: line, polygons, circles, rects, area.")
    var scenes = RasterScene.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Timed runs of each kind per scene, in all (after one warm-up run per round).")
    var `repeat` = 10

    @Option(help: "How many times the three kinds take turns.")
    var rounds = 5

    @Option(help: "How the PDF's streams are compressed: fast, small or none.")
    var compression = "fast"

    @Option(help: "Comma-separated kinds to time: pixels, pdf, svg.")
    var kinds = "pixels,pdf,svg"

    @Option(help: "The folder the files are written to (default: a temporary one, removed afterwards).")
    var out: String?

    func validate() throws {
        guard rounds >= 1, `repeat` >= 1 else { throw ValidationError("--rounds and --repeat must be at least 1") }
        guard ["fast", "small", "none"].contains(compression) else { throw ValidationError("--compression is fast, small or none") }
        for kind in kinds.split(separator: ",") where !["pixels", "pdf", "svg"].contains(kind) {
            throw ValidationError("unknown kind '\(kind)'; kinds are pixels, pdf, svg")
        }
        for name in scenes.split(separator: ",") where RasterScene(rawValue: String(name)) == nil {
            throw ValidationError("unknown scene '\(name)'; scenes are \(RasterScene.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let folder = out ?? NSTemporaryDirectory() + "strata-documents-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if out == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let canvas = try Canvas(width: RasterScene.width, height: RasterScene.height)
        let size = Size(width: Double(RasterScene.width), height: Double(RasterScene.height))
        let perRound = max(1, `repeat` / rounds)
        for name in scenes.split(separator: ",") {
            let scene = RasterScene(rawValue: String(name))!
            let data = scene.generate()
            let pdfPath = "\(folder)/strata-\(scene.rawValue).pdf", svgPath = "\(folder)/strata-\(scene.rawValue).svg"
            var pixels: [Double] = [], pdf: [Double] = [], svg: [Double] = []
            var failure: Error?
            let kinds = Set(self.kinds.split(separator: ",").map(String.init))
            for _ in 0..<rounds {
                if kinds.contains("pixels") { pixels += timedRuns(perRound, warmUps: 1) { scene.draw(data, on: canvas) } }
                if kinds.contains("pdf") {
                    pdf += timedRuns(perRound, warmUps: 1) {
                        do {
                            let document = PDFDocument(info: .init(title: scene.rawValue))
                            document.compression = compression == "small" ? .small : compression == "none" ? .none : .fast
                            scene.draw(data, on: try document.beginPage(size: size))
                            try document.write(to: pdfPath)
                        } catch { failure = error }
                    }
                }
                if kinds.contains("svg") {
                    svg += timedRuns(perRound, warmUps: 1) {
                        do {
                            let document = try SVGDocument(size: size, title: scene.rawValue)
                            scene.draw(data, on: document.canvas)
                            try document.write(to: svgPath)
                        } catch { failure = error }
                    }
                }
            }
            if let failure { throw failure }
            func bytes(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
            var lines = ""
            if !pixels.isEmpty { lines += String(format: "strata %@ %.3f %.6f\n", scene.rawValue, median(pixels), data.checksum) }
            if !pdf.isEmpty { lines += String(format: "strata-pdf %@ %.3f %d\n", scene.rawValue, median(pdf), bytes(pdfPath)) }
            if !svg.isEmpty { lines += String(format: "strata-svg %@ %.3f %d\n", scene.rawValue, median(svg), bytes(svgPath)) }
            FileHandle.standardOutput.write(Data(lines.utf8))
        }
    }
}
