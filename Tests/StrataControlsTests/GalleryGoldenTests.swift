import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

/// The layers, charts and controls pictures of `strata gallery`, drawn by
/// the command in a process of its own, against their goldens (each module's
/// `Tests/<Module>Tests/Resources/gallery`), within `galleryTolerance`.
///
/// In a process of its own because these pictures wait for the queue pool
/// and the main queue: inside the test process, beside every other suite,
/// the pool and the main queue are shared and held by other tests (the feed
/// never settled and was drawn blank). The command has them to itself.
@Suite struct GalleryGoldenTests {
    /// The test sources' folder, `Tests/`.
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Where the golden of a gallery picture is, by its name's prefix.
    static func golden(_ name: String) -> String {
        let module = name.hasPrefix("layers-") ? "Layers" : name.hasPrefix("charts-") ? "Charts" : "Controls"
        return tests.appendingPathComponent("Strata\(module)Tests/Resources/gallery/\(name)").path
    }

    @Test func layersChartsAndControlsPicturesMatchTheirGoldens() throws {
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
        let pictures = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix("layers-") || $0.hasPrefix("charts-") || $0.hasPrefix("controls-") }.sorted()
        #expect(pictures.count == 15, "\(pictures)")
        for name in pictures {
            if writesGoldens {
                try Image(contentsOfPNGFile: "\(folder)/\(name)").writePNG(to: Self.golden(name))
                continue
            }
            guard FileManager.default.fileExists(atPath: Self.golden(name)) else {
                Issue.record("no golden \(Self.golden(name)): run with STRATA_WRITE_GOLDENS=1, look at it, commit it")
                continue
            }
            try expectImage(
                try Image(contentsOfPNGFile: "\(folder)/\(name)"), matches: Self.golden(name), mean: galleryTolerance.mean,
                over8: galleryTolerance.over8)
        }
    }
}
