import Foundation
import StrataScenes
import StrataTestSupport
import Testing

/// The controls gallery's pictures (`strata gallery`) against their goldens in
/// Resources/gallery, within `galleryTolerance`.
@Suite @MainActor struct ControlsGalleryGoldenTests {
    @Test func everyPictureMatchesItsGolden() throws {
        let folder = try temporaryFolder("strata-controls-gallery")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/gallery").path
        try expectGoldens(for: try ControlsGallery.render(into: folder), in: goldens)
    }
}
