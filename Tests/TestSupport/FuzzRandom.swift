/// A small deterministic generator for the fuzz tests (SplitMix64), so that a
/// failure can be replayed from its seed.
public struct FuzzRandom {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An integer in 0 ..< n.
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    public mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }
}
