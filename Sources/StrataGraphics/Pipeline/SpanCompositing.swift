internal import CPixels

// Loops over runs of premultiplied pixels with a source pixel each (images,
// layers composited back, shaders), eight pixels at a time as SIMD lanes with
// the same rounding as the scalar `scalePacked` (see PixelMath.swift for the
// lane layout and the division by 255).
//
// The compositor draws groups (opacity, masks, perspective) and layers back
// 1:1; through the general per-pixel paths those blends took over half of a
// 500-layer frame (`strata-bench layers`, composite-full).

enum SpanCompositing {
    /// `out[i] = s[i]·k/255` (every channel, rounded); `out` may be `s`.
    @inline(__always)
    static func scale(_ out: UnsafeMutablePointer<UInt32>, from s: UnsafePointer<UInt32>, count: Int, by k: UInt32) {
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(out)
        let k16 = SIMD16<UInt16>(repeating: UInt16(k))
        var i = 0
        while i + 8 <= count {
            let v = src.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
            dst.storeBytes(of: PixelMath.blend8(v, k16), toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            out[i] = scalePacked(s[i], k)
            i += 1
        }
    }

    /// Source over: `d[i] = s[i] + d[i]·(255 − αs)/255`. Runs of opaque
    /// sources are stored and runs of transparent ones skipped (the AVX2
    /// kernel blends every block, which gives the same bytes: `over8`).
    @inline(__always)
    static func sourceOver(_ d: UnsafeMutablePointer<UInt32>, _ s: UnsafePointer<UInt32>, count: Int) {
        if SolidBlitter.usesAVX2 {
            // The same operations on eight lanes of 256 bits (the loop
            // below, built for the baseline processor, takes two halves).
            strata_source_over_avx2(d, s, count, 255)
            return
        }
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
        let full = SIMD8<UInt32>(repeating: 255)
        var i = 0
        while i + 8 <= count {
            let sv = src.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
            let alpha = sv &>> 24
            // Lane masks reduced with `all`/`any` (one movemask), not `==` on
            // the vectors, which compiles to a compare per lane.
            if all(alpha .== full) {
                dst.storeBytes(of: sv, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            } else if any(sv .!= SIMD8<UInt32>()) {
                let dv = dst.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
                let out = sv &+ PixelMath.blend8(dv, PixelMath.spread(full &- alpha))
                dst.storeBytes(of: out, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            }
            i += 8
        }
        while i < count {
            let p = s[i], keep = 255 - p >> 24
            d[i] = keep == 0 ? p : p &+ scalePacked(d[i], keep)
            i += 1
        }
    }

    /// Destination in: `d[i] = d[i]·αs/255`, what a mask does to what is under it.
    @inline(__always)
    static func destinationIn(_ d: UnsafeMutablePointer<UInt32>, _ s: UnsafePointer<UInt32>, count: Int) {
        let src = UnsafeRawPointer(s), dst = UnsafeMutableRawPointer(d)
        let full = SIMD8<UInt32>(repeating: 255)
        var i = 0
        while i + 8 <= count {
            let alpha = src.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self) &>> 24
            if all(alpha .== SIMD8<UInt32>()) {
                dst.storeBytes(of: SIMD8<UInt32>(), toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            } else if any(alpha .!= full) {
                let dv = dst.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: PixelMath.blend8(dv, PixelMath.spread(alpha)), toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            }
            i += 8
        }
        while i < count {
            d[i] = scalePacked(d[i], s[i] >> 24)
            i += 1
        }
    }

    /// Destination in at partial coverage `c` (an anti-aliased edge):
    /// `d·(αs·c + 255·(255 − c))/255²`, rounded once.
    @inline(__always)
    static func destinationIn(_ d: UInt32, _ s: UInt32, coverage c: UInt32) -> UInt32 {
        let k = (s >> 24) * c + 255 * (255 - c)
        @inline(__always) func ch(_ shift: UInt32) -> UInt32 { ((((d >> shift) & 255) * k + 32512) / 65025) << shift }
        return ch(0) | ch(8) | ch(16) | ch(24)
    }
}
