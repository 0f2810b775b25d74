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
