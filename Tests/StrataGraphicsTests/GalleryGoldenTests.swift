import Foundation
import StrataGraphics
import StrataScenes
import StrataTestSupport
import Testing

/// The gallery's canvas pictures (`strata gallery`) against their goldens in
/// Resources/gallery, within `galleryTolerance`.
@Suite struct GalleryGoldenTests {
    @Test(arguments: GalleryPictures.all.map(\.0))
    func galleryPicture(_ name: String) throws {
        let draw = try #require(GalleryPictures.all.first { $0.0 == name }?.1)
        let canvas = try Canvas(width: 480, height: 320)
        draw(canvas)
        try expectImage(
            canvas.makeImage(), matchesGolden: resource("gallery/\(name).png"), mean: galleryTolerance.mean,
            over8: galleryTolerance.over8)
    }
}
