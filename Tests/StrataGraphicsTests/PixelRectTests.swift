import StrataGraphics
import Testing

@Suite struct PixelRectTests {
    @Test func rectanglesGrowToWholePixelsWithinTheFrame() {
        #expect(PixelRect(Rect(x: 1.5, y: 2.25, width: 3, height: 1), within: 100, 50) == PixelRect(x: 1, y: 2, width: 4, height: 2))
        #expect(PixelRect(Rect(x: -10, y: -10, width: 1e30, height: 1e30), within: 100, 50) == PixelRect(x: 0, y: 0, width: 100, height: 50))
        #expect(PixelRect(Rect(x: .nan, y: 0, width: 5, height: 5), within: 100, 50) == nil)
        #expect(PixelRect(Rect(x: 0, y: 0, width: .infinity, height: 5), within: 100, 50) == nil)
        #expect(PixelRect(Rect(x: 200, y: 0, width: 5, height: 5), within: 100, 50) == nil)
        #expect(PixelRect(Rect(x: 3, y: 3, width: 0, height: 5), within: 100, 50) == nil)
        #expect(PixelRect(x: 90, y: 40, width: 20, height: 20).clipped(toWidth: 100, height: 50) == PixelRect(x: 90, y: 40, width: 10, height: 10))
        #expect(PixelRect(x: -5, y: 0, width: 5, height: 5).clipped(toWidth: 100, height: 50) == nil)
    }

    @Test func redAndBlueSwapInTheWideLoopAndTheTail() {
        // Eleven pixels: eight at a time, then three one by one.
        let source: [UInt32] = (0..<11).map { UInt32($0) << 24 | 0x00_33_22_11 &+ UInt32($0) }
        var target = [UInt32](repeating: 0, count: 11)
        source.withUnsafeBytes { s in
            target.withUnsafeMutableBytes { t in PixelRect.swapRedAndBlue(s.baseAddress!, t.baseAddress!, count: 11) }
        }
        for (i, v) in source.enumerated() {
            let r = v & 0xFF, g = (v >> 8) & 0xFF, b = (v >> 16) & 0xFF, a = v >> 24
            #expect(target[i] == (a << 24 | r << 16 | g << 8 | b), "pixel \(i)")
        }
    }
}
