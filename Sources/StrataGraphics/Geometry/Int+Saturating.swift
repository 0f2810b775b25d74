extension Int {
    /// `v` rounded toward zero, NaN as 0, and clamped to ±2⁵²: far beyond any
    /// pixel count, and far enough inside `Int` that sums and differences of a
    /// few such values cannot overflow. What drawing code converts a `Double`
    /// position or size with, where `Int(_:)` would trap on a value that is
    /// not finite or too large.
    @inlinable
    public init(saturating v: Double) {
        guard v == v else {
            self = 0
            return
        }
        self = Int(Swift.max(-0x1p52, Swift.min(0x1p52, v)))
    }
}

extension Double {
    /// The whole number nearest this value (ties to even), for a value
    /// within ±2⁵¹, without libm's call (`rounded(_:)` is one on baseline
    /// x86-64): 1.5·2⁵² + v has no bits below its units, so the addition
    /// rounds v. NaN stays NaN; larger values come back near, not exact, so
    /// callers bound them first or after.
    @inline(__always)
    var nearestWhole: Double { (self + 0x1.8p52) - 0x1.8p52 }
}
