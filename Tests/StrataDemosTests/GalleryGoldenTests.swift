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
    /// drawn blank). The command has them to itself.
    @Test func layersChartsAndControlsPictures() throws {
        // The `strata` command the build made beside the test bundle.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let strata = bundle.appendingPathComponent("strata").path
        try #require(FileManager.default.isExecutableFile(atPath: strata), "no strata command at \(strata): build the package first")
        let folder = try temporaryFolder("strata-gallery")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strata)
        process.arguments = ["gallery", "--out", folder]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "strata gallery failed (status \(process.terminationStatus))")
        let all = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let canvas = Set(GalleryPictures.all.map { "\($0.0).png" })
        #expect(canvas.isSubset(of: all), "the canvas pictures are written too")
        let pictures = all.filter { !canvas.contains($0) }
        #expect(pictures.count == 15, "\(pictures)")
        for name in pictures {
            try expectImage(
                try Image(contentsOfPNGFile: "\(folder)/\(name)"), matchesGolden: "\(Self.goldens)/\(name)",
                mean: galleryTolerance.mean, over8: galleryTolerance.over8)
        }
    }
}
