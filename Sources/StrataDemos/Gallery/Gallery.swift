import Foundation
import StrataGraphics
import StrataLayers

/// Every picture of `strata gallery`, each drawable as pixels or into a
/// vector canvas (a PDF page, an SVG drawing) from the same calls.
@MainActor
public enum Gallery {
    /// The pictures, in the gallery's order: the canvas pictures, then the
    /// layers', the charts' and the controls'.
    public static let pictures: [GalleryPicture] =
        GalleryPictures.all.map { name, draw in
            GalleryPicture(name: name) { .drawing(Size(width: 480, height: 320), draw) }
        }
        + LayerGallery.builders.map { name, build in
            GalleryPicture(name: name) { .host(try LayerGallery.host(build)) }
        }
        + [
            GalleryPicture(name: "charts-stream") { .host(try ChartGallery.streamingGraphs()) },
            GalleryPicture(name: "charts-line") { .host(try ChartGallery.lineCharts()) },
            GalleryPicture(name: "charts-line-more") { .host(try ChartGallery.moreLineCharts()) },
            GalleryPicture(name: "controls-ruler") { .host(try ControlsGallery.rulers()) },
            GalleryPicture(name: "controls-feed-rest") { .host(try ControlsGallery.feedAtRest()) },
            GalleryPicture(name: "controls-feed-fling") { .host(try ControlsGallery.feedMidFling()) },
            GalleryPicture(name: "controls-feed-pressed") { .host(try ControlsGallery.feedPressed()) },
            GalleryPicture(name: "controls-feed-sections") { .host(try ControlsGallery.feedSections()) },
        ]
}

/// One picture of the gallery: its name, and how it is made.
@MainActor
public struct GalleryPicture {
    /// The file name, without its extension.
    public let name: String
    let make: @MainActor @Sendable () throws -> GalleryScene.Content

    init(name: String, make: @escaping @MainActor @Sendable () throws -> GalleryScene.Content) {
        self.name = name
        self.make = make
    }

    /// Makes the picture: draws it, or builds its layer tree and runs its
    /// animations to the moment shown.
    public func scene() throws -> GalleryScene {
        GalleryScene(content: try make())
    }
}

/// A gallery picture made, ready to be drawn as pixels or vectors.
@MainActor
public struct GalleryScene {
    enum Content {
        /// Drawing calls on a canvas of this many points.
        case drawing(Size, @Sendable (Canvas) -> Void)
        /// A layer tree as its host shows it.
        case host(LayerHost)
    }

    let content: Content

    /// The picture's size in points.
    public var size: Size {
        switch content {
        case .drawing(let size, _): size
        case .host(let host): host.rootLayer.bounds.size
        }
    }

    /// Pixels a point of `makeImage()` (the feed's pictures are at 2).
    public var scale: Double {
        switch content {
        case .drawing: 1
        case .host(let host): host.scale
        }
    }

    /// The picture as pixels, `size` times `scale`.
    public func makeImage() throws -> Image {
        switch content {
        case .drawing(let size, let draw):
            let canvas = try Canvas(width: Int(size.width), height: Int(size.height))
            draw(canvas)
            return canvas.makeImage()
        case .host(let host):
            return host.makeImage()
        }
    }

    /// Draws the picture into `canvas` (its user space in points): the
    /// same drawing calls, or the layer tree rendered
    /// (`LayerHost.render(in:rasterScale:)`).
    public func draw(in canvas: Canvas) {
        switch content {
        case .drawing(_, let draw): draw(canvas)
        case .host(let host): host.render(in: canvas)
        }
    }
}
