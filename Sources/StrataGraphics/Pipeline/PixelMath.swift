// Pixel arithmetic, shared by every loop that blends pixels.
//
// Pixels are packed as UInt32 (R in the low byte on a little-endian machine).
// A channel product x·k/255 is computed two channels at a time: the R and B
// channels (mask 0x00FF00FF) and the G and A channels each fit in the 16-bit
// halves of a 32-bit lane, since 255·255 + 255 < 2¹⁶, and rounding division by
// 255 is (t + 128 + ((t + 128) >> 8)) >> 8, exact for every byte pair.
//
// Long spans use 8 pixels at a time as SIMD16<UInt16>: the multiply is then a
// 16-bit one (pmullw), which x86-64's baseline SSE2 has, where a 32-bit lane
// multiply (pmulld) would need SSE4.1 and is emulated with shuffles otherwise;
// the division by 255 is then one high multiply (pmulhuw, see `div255`).

/// `p`'s four channels each multiplied by `k/255`, rounded to nearest.
@inline(__always)
func scalePacked(_ p: UInt32, _ k: UInt32) -> UInt32 {
    var rb = (p & 0x00FF_00FF) &* k &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((p >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// The lane arithmetic of the SIMD loops (see the top of this file).
enum PixelMath {
    /// Each lane's 8-bit `k` in both 16-bit halves: the factor for a pixel's two
    /// channel pairs in `blend8`.
    @inline(__always)
    static func spread(_ k: SIMD8<UInt32>) -> SIMD16<UInt16> {
        unsafeBitCast(k | (k &<< 16), to: SIMD16<UInt16>.self)
    }

    /// `(y·257) >> 16` in each lane: with `y = t + 128` this is `t/255` rounded
    /// to nearest, exactly, for every `t ≤ 255·255` (it equals the
    /// `(y + (y >> 8)) >> 8` used elsewhere). Written as a loop of widening
    /// multiplies so that the compiler makes it one `pmulhuw` per register,
    /// where the shift-and-add form takes three instructions.
    @inline(__always)
    static func div255(_ y: SIMD16<UInt16>) -> SIMD16<UInt16> {
        var r = SIMD16<UInt16>()
        for j in 0..<16 { r[j] = y[j].multipliedFullWidth(by: 257).high }
        return r
    }

    /// `div255` for four pixels' lanes.
    @inline(__always)
    static func div255(_ y: SIMD8<UInt16>) -> SIMD8<UInt16> {
        var r = SIMD8<UInt16>()
        for j in 0..<8 { r[j] = y[j].multipliedFullWidth(by: 257).high }
        return r
    }

    /// `div255` for two pixels' (or one pixel's four channels') lanes.
    @inline(__always)
    static func div255(_ y: SIMD4<UInt16>) -> SIMD4<UInt16> {
        var r = SIMD4<UInt16>()
        for j in 0..<4 { r[j] = y[j].multipliedFullWidth(by: 257).high }
        return r
    }

    /// Eight pixels' channels times `k/255`, rounded: two channels per 16-bit lane pair.
    @inline(__always)
    static func blend8(_ v: SIMD8<UInt32>, _ k: SIMD16<UInt16>) -> SIMD8<UInt32> {
        let lowBytes = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let bias = SIMD16<UInt16>(repeating: 0x80)
        let rb = div255(unsafeBitCast(v & lowBytes, to: SIMD16<UInt16>.self) &* k &+ bias)
        let ag = div255(unsafeBitCast((v &>> 8) & lowBytes, to: SIMD16<UInt16>.self) &* k &+ bias)
        return unsafeBitCast(rb, to: SIMD8<UInt32>.self) | (unsafeBitCast(ag, to: SIMD8<UInt32>.self) &<< 8)
    }

    /// Four pixels' channels times `k/255`, rounded.
    @inline(__always)
    static func blend4(_ v: SIMD4<UInt32>, _ k: SIMD8<UInt16>) -> SIMD4<UInt32> {
        let lowBytes = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        let bias = SIMD8<UInt16>(repeating: 0x80)
        let rb = div255(unsafeBitCast(v & lowBytes, to: SIMD8<UInt16>.self) &* k &+ bias)
        let ag = div255(unsafeBitCast((v &>> 8) & lowBytes, to: SIMD8<UInt16>.self) &* k &+ bias)
        return unsafeBitCast(rb, to: SIMD4<UInt32>.self) | (unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8)
    }
}
