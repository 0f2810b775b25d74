import StrataGraphics

/// The fuzz tests' random source: `SplitMix64`, so that a failure can be
/// replayed from its seed.
public typealias FuzzRandom = SplitMix64

extension SplitMix64 {
    /// An integer in 0 ..< n.
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// One of `xs`, chosen uniformly.
    public mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }
}
