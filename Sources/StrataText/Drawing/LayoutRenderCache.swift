import StrataGraphics
import StrataQueues

/// The glyphs of a layout's lines composed into one coverage mask per line and
/// colour, for one device scale and sub-pixel phase: drawing a layout a second
/// time is then a few wide mask blends instead of a thousand small ones (the
/// text benchmark's draw, 1034 glyphs, went from 0.45 to 0.21 ms).
/// Shared by every copy of the layout (a layout cache hit gets it too), keeps
/// the last two phases, and is thread-safe.
final class LayoutRenderCache: Sendable {
    struct Key: Hashable {
        var scale: UInt64
        var phaseX: Int
        var phaseY: Int
    }

    /// One line's glyphs of one colour, placed relative to the layout's whole-pixel
    /// device origin.
    struct Piece: Sendable {
        var color: Color
        var mask: CoverageMask
        var x: Int
        var y: Int
        /// A colour glyph's pixels, drawn with their top left at (`x`, `y`)
        /// instead of the mask.
        var image: Image? = nil
    }

    private let state = Locked<[(Key, [[Piece]]?)]>([])

    /// The composed lines for `key`, made by `build` on first use; nil (also
    /// kept) when `build` says the layout cannot be drawn from masks.
    func lines(for key: Key, build: () -> [[Piece]]?) -> [[Piece]]? {
        if let hit = state.withLock({ $0.first { $0.0 == key } }) { return hit.1 }
        let made = build()
        state.withLock { entries in
            entries.removeAll { $0.0 == key }
            entries.insert((key, made), at: 0)
            if entries.count > 2 { entries.removeLast() }
        }
        return made
    }

    /// Drops the composed lines.
    func removeAll() { state.withLock { $0.removeAll() } }

    /// Bytes the composed lines hold.
    var byteCount: Int {
        state.withLock { entries in
            entries.reduce(0) { n, e in n + (e.1 ?? []).reduce(0) { $0 + $1.reduce(0) { $0 + $1.mask.coverage.count } } }
        }
    }

    /// The most pixels a composed mask may cover: glyphs spread wider (a
    /// run raised far above the rest by its baseline offset) stay pieces of
    /// their own rather than one mask of mostly empty rows.
    static let maximumComposedPixels = 4_000_000

    /// Composes the glyph masks of one line into one mask per colour: coverage
    /// added (saturating) where glyphs overlap. Glyphs of a colour whose
    /// masks would together span more than `maximumComposedPixels` stay one
    /// piece each.
    static func compose(_ glyphs: [(color: Color, mask: CoverageMask, x: Int, y: Int)]) -> [Piece] {
        var byColor: [Color: [(mask: CoverageMask, x: Int, y: Int)]] = [:]
        var order: [Color] = []
        for g in glyphs where g.mask.width > 0 {
            if byColor[g.color] == nil { order.append(g.color) }
            byColor[g.color, default: []].append((g.mask, g.x, g.y))
        }
        return order.flatMap { color -> [Piece] in
            let parts = byColor[color]!
            var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
            for p in parts {
                x0 = min(x0, p.x + p.mask.left); y0 = min(y0, p.y + p.mask.top)
                x1 = max(x1, p.x + p.mask.left + p.mask.width); y1 = max(y1, p.y + p.mask.top + p.mask.height)
            }
            let w = x1 - x0, h = y1 - y0
            let (area, overflow) = w.multipliedReportingOverflow(by: h)
            if overflow || area > maximumComposedPixels {
                return parts.map { Piece(color: color, mask: $0.mask, x: $0.x, y: $0.y) }
            }
            var bytes = [UInt8](repeating: 0, count: w * h)
            bytes.withUnsafeMutableBufferPointer { out in
                for p in parts {
                    let m = p.mask
                    m.coverage.withUnsafeBufferPointer { src in
                        for row in 0..<m.height {
                            let d = (p.y + m.top - y0 + row) * w + (p.x + m.left - x0)
                            let s = row * m.width
                            for col in 0..<m.width {
                                let v = Int(out[d + col]) + Int(src[s + col])
                                out[d + col] = UInt8(min(255, v))
                            }
                        }
                    }
                }
            }
            return [Piece(color: color, mask: CoverageMask(width: w, height: h, left: x0, top: y0, coverage: bytes), x: 0, y: 0)]
        }
    }
}
