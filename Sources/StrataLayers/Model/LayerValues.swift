import StrataGraphics

// Layer values are cleaned where they come in: every geometry and appearance
// setter keeps its value finite and within a documented range (NaN means the
// property's default; values beyond the range are clamped to it). The compositor
// draws presentation values too, which animations make between any two values,
// so it also never converts a `Double` to an `Int` without `Int(saturating:)`,
// and clamps the values that size what it allocates (shadow blur and spread).

/// The ranges layer values are kept in.
public enum LayerLimits {
    /// The largest coordinate, length or offset, in points (±10⁹): positions,
    /// bounds, anchor points, z positions, shadow offsets, border widths,
    /// corner radii, unit rectangles. Far beyond any screen, far within
    /// `Double`'s exact range.
    public static let coordinate = 1e9
    /// The largest transform entry; a transform with a larger entry, or one that
    /// is not finite, is replaced by the identity.
    public static let transformEntry = 1e9
    /// The largest shadow blur radius, in points (what `Image.blurredAlphaMask`
    /// blurs by at most).
    public static let shadowRadius = 1e3
    /// The largest `contentsScale` (pixels per point).
    public static let contentsScale = 1e3
}

extension Double {
    /// Within ±`limit`; NaN becomes `nan`.
    @inline(__always)
    func clamped(_ limit: Double, nan: Double = 0) -> Double {
        self == self ? Swift.max(-limit, Swift.min(limit, self)) : nan
    }

    /// Within 0...`limit`; NaN becomes `nan`.
    @inline(__always)
    func clampedLength(_ limit: Double, nan: Double = 0) -> Double {
        self == self ? Swift.max(0, Swift.min(limit, self)) : nan
    }
}

extension Point {
    /// Each coordinate within ±10⁹; a NaN one takes `nan`'s.
    func cleaned(nan: Point = .zero) -> Point {
        Point(x: x.clamped(LayerLimits.coordinate, nan: nan.x), y: y.clamped(LayerLimits.coordinate, nan: nan.y))
    }
}

extension Size {
    func cleaned(nan: Size = .zero) -> Size {
        Size(
            width: width.clamped(LayerLimits.coordinate, nan: nan.width),
            height: height.clamped(LayerLimits.coordinate, nan: nan.height))
    }
}

extension Rect {
    func cleaned(nan: Rect = .zero) -> Rect {
        Rect(origin: origin.cleaned(nan: nan.origin), size: size.cleaned(nan: nan.size))
    }
}

extension Transform3D {
    /// Itself when every entry is finite and within ±10⁹, else the identity.
    var cleaned: Transform3D {
        let limit = LayerLimits.transformEntry
        for e in [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
        where !(abs(e) <= limit) {
            return .identity
        }
        return self
    }
}
