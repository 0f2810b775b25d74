/// How a drawing operation combines with the pixels already there (`CGBlendMode`).
///
/// Blending works on the stored 8-bit premultiplied values, as Core Graphics,
/// Skia and Cairo do for 8-bit targets, with the formulas of the W3C Compositing
/// and Blending spec. With premultiplied source `s`, destination `d`, alphas `αs`
/// and `αd`:
///
/// - The Porter-Duff modes compute `s·Fa + d·Fb` for the factors given with each.
/// - The separable modes compute `s·(1 − αd) + d·(1 − αs) + αs·αd·B(Cd, Cs)` on the
///   straight colours `Cs = s/αs`, `Cd = d/αd`, with alpha `αs + αd − αs·αd`.
///
/// Anti-aliased edges mix the result with the untouched destination by coverage
/// `c`: `R·c + d·(1 − c)`, so pixels outside a shape never change, whatever the
/// mode (a `.sourceIn` fill clears nothing outside its shape).
public enum BlendMode: Sendable, Hashable, CaseIterable {
    /// Source over: Fa = 1, Fb = 1 − αs.
    case normal
    /// Fa = 0, Fb = 0: transparent black.
    case clear
    /// Fa = 1, Fb = 0: the source replaces the destination.
    case copy
    /// Fa = αd, Fb = 0.
    case sourceIn
    /// Fa = 1 − αd, Fb = 0.
    case sourceOut
    /// Fa = αd, Fb = 1 − αs.
    case sourceAtop
    /// Fa = 1 − αd, Fb = 1.
    case destinationOver
    /// Fa = 0, Fb = αs.
    case destinationIn
    /// Fa = 0, Fb = 1 − αs.
    case destinationOut
    /// Fa = 1 − αd, Fb = αs.
    case destinationAtop
    /// Fa = 1 − αd, Fb = 1 − αs.
    case xor
    /// Fa = 1, Fb = 1, clamped: additive.
    case plusLighter
    /// B = Cs·Cd.
    case multiply
    /// B = Cs + Cd − Cs·Cd.
    case screen
    /// Hard light with source and destination swapped.
    case overlay
    /// B = min(Cs, Cd).
    case darken
    /// B = max(Cs, Cd).
    case lighten
    /// B = min(1, Cd / (1 − Cs)); 0 where Cd = 0, 1 where Cs = 1.
    case colorDodge
    /// B = 1 − min(1, (1 − Cd) / Cs); 1 where Cd = 1, 0 where Cs = 0.
    case colorBurn
    /// Multiply by 2·Cs below Cs = ½, screen by 2·Cs − 1 above.
    case hardLight
    /// The W3C soft light.
    case softLight
    /// B = |Cs − Cd|.
    case difference
    /// B = Cs + Cd − 2·Cs·Cd.
    case exclusion

    /// True for the modes with their own fast integer loops.
    var isSourceOverOrCopy: Bool { self == .normal || self == .copy }

    /// The premultiplied result of this mode for source `s` over destination `d`,
    /// both packed premultiplied RGBA, mixed with `d` by coverage `c` (0...255).
    func blend(_ s: UInt32, _ d: UInt32, coverage c: UInt32) -> UInt32 {
        @inline(__always) func channel(_ v: UInt32, _ shift: UInt32) -> Float { Float((v >> shift) & 255) / 255 }
        let sa = channel(s, 24), da = channel(d, 24)
        var out: (Float, Float, Float, Float) = (0, 0, 0, 0)
        let ra: Float
        if let (fa, fb) = porterDuff(sa, da) {
            ra = min(1, sa * fa + da * fb)
            func pd(_ shift: UInt32) -> Float { min(1, channel(s, shift) * fa + channel(d, shift) * fb) }
            out = (pd(0), pd(8), pd(16), ra)
        } else {
            ra = sa + da - sa * da
            func sep(_ shift: UInt32) -> Float {
                let cs = channel(s, shift), cd = channel(d, shift)
                let ucs = sa > 0 ? min(1, cs / sa) : 0, ucd = da > 0 ? min(1, cd / da) : 0
                return cs * (1 - da) + cd * (1 - sa) + sa * da * separable(ucs, ucd)
            }
            out = (sep(0), sep(8), sep(16), ra)
        }
        // Mix with the destination by coverage, then round to bytes; colour never
        // exceeds alpha.
        let k = Float(c) / 255
        @inline(__always) func byte(_ r: Float, _ shift: UInt32) -> UInt32 {
            let v = r * k + channel(d, shift) * (1 - k)
            return UInt32(max(0, min(255, (v * 255).rounded())))
        }
        let a = byte(out.3, 24)
        return min(byte(out.0, 0), a) | min(byte(out.1, 8), a) << 8 | min(byte(out.2, 16), a) << 16 | a << 24
    }

    /// The Porter-Duff factors (Fa, Fb), or nil for a separable mode.
    private func porterDuff(_ sa: Float, _ da: Float) -> (Float, Float)? {
        switch self {
        case .normal: (1, 1 - sa)
        case .clear: (0, 0)
        case .copy: (1, 0)
        case .sourceIn: (da, 0)
        case .sourceOut: (1 - da, 0)
        case .sourceAtop: (da, 1 - sa)
        case .destinationOver: (1 - da, 1)
        case .destinationIn: (0, sa)
        case .destinationOut: (0, 1 - sa)
        case .destinationAtop: (1 - da, sa)
        case .xor: (1 - da, 1 - sa)
        case .plusLighter: (1, 1)
        default: nil
        }
    }

    /// B(Cs, Cd) on straight colours, for the separable modes.
    private func separable(_ cs: Float, _ cd: Float) -> Float {
        switch self {
        case .multiply: return cs * cd
        case .screen: return cs + cd - cs * cd
        case .overlay: return BlendMode.hardLight(cd, cs)
        case .darken: return min(cs, cd)
        case .lighten: return max(cs, cd)
        case .colorDodge:
            if cd == 0 { return 0 }
            if cs >= 1 { return 1 }
            return min(1, cd / (1 - cs))
        case .colorBurn:
            if cd >= 1 { return 1 }
            if cs <= 0 { return 0 }
            return 1 - min(1, (1 - cd) / cs)
        case .hardLight: return BlendMode.hardLight(cs, cd)
        case .softLight:
            if cs <= 0.5 { return cd - (1 - 2 * cs) * cd * (1 - cd) }
            let dd = cd <= 0.25 ? ((16 * cd - 12) * cd + 4) * cd : cd.squareRoot()
            return cd + (2 * cs - 1) * (dd - cd)
        case .difference: return abs(cs - cd)
        case .exclusion: return cs + cd - 2 * cs * cd
        default: return cs
        }
    }

    /// Multiply by 2·Cs, or screen by 2·Cs − 1.
    private static func hardLight(_ cs: Float, _ cd: Float) -> Float {
        if cs <= 0.5 { return cd * 2 * cs }
        let s2 = 2 * cs - 1
        return cd + s2 - cd * s2
    }
}
