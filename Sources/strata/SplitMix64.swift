/// The scene generator of `../shared/bench/SCENES.md`: SplitMix64 with wrapping
/// arithmetic, one `next()` per `uniform()` or `byte()`.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A Double in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// An integer in 0 ... 255.
    mutating func byte() -> UInt8 { UInt8(uniform() * 256) }
}
