import Testing

@testable import StrataTiles

/// A tile pyramid's levels, whatever sizes it is given.
@Suite struct TilePyramidTests {
    @Test func pyramidSizesAreKeptWithinRange() {
        for (w, h, t) in [(0, -5, 0), (Int.max, Int.max, -1), (1, 1, Int.max), (100, 50, 256)] {
            let p = TilePyramid(width: w, height: h, tileSize: t, format: .png)
            #expect(p.width >= 1 && p.height >= 1 && p.tileSize >= 1 && p.tileSize <= 65536 && !p.levels.isEmpty)
            #expect(p.levels.last!.columns == 1 && p.levels.last!.rows == 1)
        }
        #expect(TilePyramid(width: 100, height: 50, tileSize: 256, format: .png).levels.count == 1)
    }
}
