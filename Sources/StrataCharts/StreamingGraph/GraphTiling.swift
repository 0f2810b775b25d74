/// How a streaming graph cuts its samples into tiles: tile `t` owns samples
/// `t · samplesPerTile ..< (t + 1) · samplesPerTile` and also draws
/// `paddingSamples` beyond each edge, so the segments crossing its edges
/// are drawn on both sides.
public struct GraphTiling: Sendable, Hashable {
    /// Samples each tile owns (at least 1).
    public let samplesPerTile: Int
    /// Samples drawn beyond each edge (at least 1: a segment needs its other end).
    public let paddingSamples: Int

    public init(samplesPerTile: Int, paddingSamples: Int = 2) {
        self.samplesPerTile = max(1, samplesPerTile)
        self.paddingSamples = max(1, paddingSamples)
    }

    /// `a / b` rounded toward −∞ (Swift's `/` rounds toward zero), for any
    /// sign of `a` and a positive `b`.
    public static func floorDivision(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// The tile that owns sample `index` (negative indices included: sample
    /// −1 is in tile −1).
    public func tile(forSample index: Int) -> Int {
        Self.floorDivision(index, samplesPerTile)
    }

    /// The samples tile `tile` owns.
    public func samples(ofTile tile: Int) -> Range<Int> {
        let start = tile * samplesPerTile
        return start..<(start + samplesPerTile)
    }

    /// The samples tile `tile` draws: its own and the padding on each side.
    public func drawnSamples(ofTile tile: Int) -> Range<Int> {
        let own = samples(ofTile: tile)
        return (own.lowerBound - paddingSamples)..<(own.upperBound + paddingSamples)
    }

    /// The tiles whose pictures change when sample `index` arrives: its own,
    /// and the previous one as well while the sample is in that tile's
    /// padding. Each tile once, oldest first.
    public func tilesToRedraw(afterAppendingSampleAt index: Int) -> [Int] {
        tilesToRedraw(afterAppending: index..<(index + 1)).map(Array.init) ?? []
    }

    /// The tiles whose pictures change when `samples` arrive (nil when
    /// there are none): each sample's own tile and, while it is in the
    /// padding of the tile before, that one. Together they are one run.
    public func tilesToRedraw(afterAppending samples: Range<Int>) -> ClosedRange<Int>? {
        guard !samples.isEmpty else { return nil }
        return tile(forSample: samples.lowerBound - paddingSamples)...tile(forSample: samples.upperBound - 1)
    }
}
