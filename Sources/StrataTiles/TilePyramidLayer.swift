public import Foundation
import StrataGraphics
import StrataLayers
import StrataQueues

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiled layer showing a `TilePyramid` from disk: one level of detail per
/// pyramid level, each tile drawn by decoding its file. The layer's bounds
/// are the full image in points (`contentsScale` 1), so its scale on screen
/// picks the level, and a tile of the layer is exactly one file.
///
/// A tile file that is missing or cannot be decoded draws as nothing (the
/// background shows through); the others are unaffected.
open class TilePyramidLayer: TiledLayer {
    public let pyramid: TilePyramid
    public let directory: String

    public init(pyramid: TilePyramid, directory: String, pool: QueuePool = .shared) {
        self.pyramid = pyramid
        self.directory = directory
        super.init(pool: pool)
        bounds = Rect(x: 0, y: 0, width: Double(pyramid.width), height: Double(pyramid.height))
        tileSize = Size(width: Double(pyramid.tileSize), height: Double(pyramid.tileSize))
        levelsOfDetail = pyramid.levels.count
        levelsOfDetailBias = 0
    }

    public required init?(coder: NSCoder) {
        let layer = LayerCopyCoder.model(of: coder)
        let other = layer as? TilePyramidLayer
        pyramid = other?.pyramid ?? TilePyramid(width: 1, height: 1, tileSize: 256, format: .jpeg)
        directory = other?.directory ?? ""
        super.init(coder: coder)
    }

    nonisolated open override func draw(in canvas: Canvas) {
        let k = canvas.transform.a
        guard k > 0, k.isFinite else { return }
        let level = Int(saturating: (-log2(k)).rounded())
        guard level >= 0, level < pyramid.levels.count else { return }
        let area = canvas.clipBoundingBox
        let points = Double(pyramid.tileSize) / k
        let column = Int(saturating: (area.midX / points).rounded(.down)), row = Int(saturating: (area.midY / points).rounded(.down))
        let l = pyramid.levels[level]
        guard column >= 0, row >= 0, column < l.columns, row < l.rows,
            let image = try? Image(contentsOfFile: "\(directory)/\(pyramid.tilePath(level: level, column: column, row: row))")
        else { return }
        canvas.draw(
            image,
            in: Rect(
                x: Double(column) * points, y: Double(row) * points,
                width: Double(image.width) / k, height: Double(image.height) / k))
    }
}
