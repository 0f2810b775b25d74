/// A small, fast, seeded random number generator (SplitMix64, with wrapping
/// arithmetic): the same seed gives the same sequence on every machine, so a
/// drawing made from it can be reproduced exactly.
///
/// The benchmark scenes of `../shared/bench/SCENES.md` are generated with it
/// (one `next()` per `uniform()` or `byte()`), the emitter layer draws its
/// particles' randomness from it, and the fuzz tests replay failures from its
/// seed. It is not a cryptographic generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; `next()` advances it by a fixed odd step.
    public var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`. `next()`
    /// returns `mix` of the advanced state, so `mix(seed &+ step)` is the first
    /// value a generator seeded with `seed` returns.
    @inline(__always)
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A `Double` in [0, 1), from the top 53 bits of one `next()`.
    @inline(__always)
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// An integer in 0 ... 255, from one `uniform()`.
    @inline(__always)
    public mutating func byte() -> UInt8 { UInt8(uniform() * 256) }
}
