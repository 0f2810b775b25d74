import Foundation
import StrataScenes
import StrataTestSupport
import Testing

/// The layers gallery's pictures (`strata gallery`) against their goldens in
/// Resources/gallery, within `galleryTolerance`.
@Suite @MainActor struct LayersGalleryGoldenTests {
    @Test func everyPictureMatchesItsGolden() throws {
        let folder = try temporaryFolder("strata-layers-gallery")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/gallery").path
        try expectGoldens(for: try LayerGallery.render(into: folder), in: goldens)
    }
}
