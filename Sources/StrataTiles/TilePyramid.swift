import Foundation

/// What went wrong reading or writing a tile pyramid (or cutting one), in
/// words for the person who ran it.
public enum TilePyramidError: Error, CustomStringConvertible, Equatable {
    case input(path: String, reason: String)
    case output(path: String, reason: String)
    case invalidOption(String)

    public var description: String {
        switch self {
        case let .input(path, reason): "\(path): \(reason)"
        case let .output(path, reason): "\(path): \(reason)"
        case let .invalidOption(reason): reason
        }
    }
}

/// A pyramid of tiles on disk, as `TileCutter` writes it and
/// `TilePyramidLayer` shows it.
///
/// Layout: `DIR/pyramid.json` (this value) and one directory per level,
/// `DIR/0` the full image, `DIR/1` half of it (each side rounded up), and so
/// on to the first level that fits in one tile. Tile files are named
/// `COLUMN_ROW.jpg` (or `.png`), counted from the top left; tiles on the right
/// and bottom edges are only as large as what is left of the level.
public struct TilePyramid: Codable, Sendable, Equatable {
    public enum Format: String, Codable, Sendable {
        case jpeg, png
        public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    }

    public struct Level: Codable, Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var columns: Int
        public var rows: Int
    }

    public var width: Int
    public var height: Int
    public var tileSize: Int
    public var format: Format
    public var levels: [Level]

    /// The levels for an image of `width` × `height` in tiles of `tileSize`.
    /// Sizes are kept within 1 ... 2³⁰ pixels a side and tiles within
    /// 1 ... 65536 pixels (below 1 counts as 1), so that the levels are finite
    /// and no count overflows.
    public init(width: Int, height: Int, tileSize: Int, format: Format) {
        let width = Swift.min(1 << 30, Swift.max(1, width)), height = Swift.min(1 << 30, Swift.max(1, height))
        let tileSize = Swift.min(65536, Swift.max(1, tileSize))
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.format = format
        var levels: [Level] = []
        var w = width, h = height
        while true {
            levels.append(Level(width: w, height: h, columns: (w + tileSize - 1) / tileSize, rows: (h + tileSize - 1) / tileSize))
            if w <= tileSize && h <= tileSize { break }
            w = (w + 1) / 2
            h = (h + 1) / 2
        }
        self.levels = levels
    }

    public var tileCount: Int { levels.reduce(0) { $0 + $1.columns * $1.rows } }

    /// The file of a tile, relative to the pyramid's directory.
    public func tilePath(level: Int, column: Int, row: Int) -> String {
        "\(level)/\(column)_\(row).\(format.fileExtension)"
    }

    /// Reads `DIR/pyramid.json`.
    public init(directory: String) throws(TilePyramidError) {
        let path = directory + "/pyramid.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(path: path, reason: "cannot read the pyramid description")
        }
        do {
            self = try JSONDecoder().decode(TilePyramid.self, from: data)
        } catch {
            throw .input(path: path, reason: "not a pyramid description: \(error)")
        }
        guard width > 0, height > 0, tileSize > 0, !levels.isEmpty else {
            throw .input(path: path, reason: "the pyramid description has an empty size or no levels")
        }
    }
}
