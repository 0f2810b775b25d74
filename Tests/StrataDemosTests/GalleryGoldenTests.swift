import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataDemos

/// Every picture of `strata gallery` against its golden in
/// `Resources/gallery`, within `galleryTolerance`. A failing comparison
/// writes the actual picture and a difference picture and says where;
/// `STRATA_WRITE_GOLDENS=1` writes the goldens instead.
@Suite struct GalleryGoldenTests {
    /// The goldens' folder.
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Resources/gallery").path

    /// The canvas pictures, drawn here.
    @Test(arguments: GalleryPictures.all.map(\.0))
    func canvasPicture(_ name: String) throws {
        let draw = try #require(GalleryPictures.all.first { $0.0 == name }?.1)
        let canvas = try Canvas(width: 480, height: 320)
        draw(canvas)
        try expectImage(
            canvas.makeImage(), matchesGolden: "\(Self.goldens)/\(name).png", mean: galleryTolerance.mean,
            over8: galleryTolerance.over8)
    }

    /// The layers, charts and controls pictures, drawn by the command in a
    /// process of its own: these pictures wait for the queue pool and the
    /// main queue, which inside the test process, beside every other suite,
    /// are shared and held by other tests (the feed never settled and was
    /// drawn blank). The command has them to itself. It writes every
    /// picture as PDF and SVG too, checked in `documentsDrawAsThePictures`.
    @Test func layersChartsAndControlsPictures() throws {
        // The `strata` command the build made beside the test bundle.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let strata = bundle.appendingPathComponent("strata").path
        try #require(FileManager.default.isExecutableFile(atPath: strata), "no strata command at \(strata): build the package first")
        let folder = try temporaryFolder("strata-gallery")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strata)
        process.arguments = ["gallery", "--out", folder, "--format", "png", "pdf", "svg"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "strata gallery failed (status \(process.terminationStatus))")
        let all = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        let canvas = Set(GalleryPictures.all.map { "\($0.0).png" })
        #expect(canvas.isSubset(of: all), "the canvas pictures are written too")
        let pictures = all.filter { !canvas.contains($0) }
        #expect(pictures.count == 15, "\(pictures)")
        for name in pictures {
            try expectImage(
                try Image(contentsOfPNGFile: "\(folder)/\(name)"), matchesGolden: "\(Self.goldens)/\(name)",
                mean: galleryTolerance.mean, over8: galleryTolerance.over8)
        }
        try documentsDrawAsThePictures(in: folder)
    }

    /// The largest mean difference (0–255 a channel) allowed between each
    /// picture's PNG and its PDF drawn by poppler (`pdftoppm`) and its SVG
    /// drawn by librsvg (`rsvg-convert`) at the PNG's size, set after
    /// looking at them (the figures measured are in the StrataDocuments
    /// article "Vector output"). The engines anti-alias edges and text
    /// differently, and resample images by their own filters (poppler
    /// shifts images drawn one to one by part of a pixel: the feed's cells,
    /// the tiles); what they draw must be the same.
    static let documentBars: [String: (poppler: Double, librsvg: Double)] = [
        "shapes": (0.6, 0.3), "fill-rules": (0.6, 0.3), "arcs": (0.4, 0.2), "transforms": (0.6, 0.3), "strokes": (1, 0.4),
        "gradients": (2, 0.3), "compositing": (1, 0.3), "text": (4.5, 2), "text-scripts": (3.5, 2), "images-and-masks": (4.5, 2),
        "layers-health-card": (2, 0.6), "layers-replicator-ring": (0.4, 0.2), "layers-shadows-and-masks": (1, 0.3),
        "layers-perspective-card": (2, 0.6), "layers-cubes": (1.5, 0.5), "layers-fire-and-snow": (2.5, 0.6),
        "layers-tiled-snowman": (5, 2.5), "charts-stream": (1, 0.3), "charts-line": (2, 0.6), "charts-line-more": (2, 0.6),
        "controls-ruler": (4, 0.5), "controls-feed-rest": (6, 0.3), "controls-feed-fling": (6, 0.3),
        "controls-feed-pressed": (6, 0.3), "controls-feed-sections": (6, 0.3),
    ]

    /// Every picture's PDF passes `qpdf --check` and its text holds the
    /// charts' labels; poppler and librsvg draw the PDF and the SVG within
    /// the picture's bar of its PNG.
    func documentsDrawAsThePictures(in folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.map {
            String($0.dropLast(4))
        }
        #expect(Set(names) == Set(Self.documentBars.keys), "every picture has a bar")
        for name in names.sorted() {
            let base = "\(folder)/\(name)"
            let png = try Image(contentsOfPNGFile: base + ".png")
            let check = try runTool("/usr/bin/qpdf", ["--check", base + ".pdf"])
            #expect(check.status == 0, "\(name).pdf: \(check.output)")
            // 72 dpi is one pixel a point; the feed's pictures are at scale 2.
            let dpi = name.hasPrefix("controls-feed") ? "144" : "72"
            _ = try runTool("/usr/bin/pdftoppm", ["-r", dpi, "-png", "-singlefile", base + ".pdf", base + "-poppler"])
            _ = try runTool(
                "/usr/bin/rsvg-convert", ["-w", "\(png.width)", "-h", "\(png.height)", "-o", base + "-librsvg.png", base + ".svg"])
            let bar = try #require(Self.documentBars[name])
            let d = try #require(difference(try Image(contentsOfPNGFile: base + "-poppler.png"), png), "\(name): poppler's size")
            let e = try #require(difference(try Image(contentsOfPNGFile: base + "-librsvg.png"), png), "\(name): librsvg's size")
            #expect(d.mean <= bar.poppler, "\(name).pdf by poppler: \(d)")
            #expect(e.mean <= bar.librsvg, "\(name).svg by librsvg: \(e)")
            print("gallery document \(name): poppler \(d); librsvg \(e)")
        }
        // The charts' labels are text a reader finds.
        for (name, labels) in [
            ("layers-health-card", ["Heart Rate", "72", "BPM", "avg", "6 AM", "8 PM", "100"]),
            ("charts-line", ["Heart Rate", "Weather, 2024", "Temperature", "Rain", "Solstice", "Jan 2024", "Nov"]),
            ("charts-line-more", ["10,000,000 points", "Resting heart rate, February", "Berlin", "Lisbon", "Oslo", "10M"]),
            ("controls-ruler", ["At rest", "Mid-fling", "Past the minimum", "72 kg"]),
        ] {
            let text = try runTool("/usr/bin/pdftotext", ["\(folder)/\(name).pdf", "-"]).output
            for label in labels { #expect(text.contains(label), "\(label) in \(name).pdf: \(text)") }
        }
    }
}
