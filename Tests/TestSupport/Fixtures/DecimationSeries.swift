import StrataGraphics

/// The series of `../shared/bench/DECIMATE.md`: a random walk from
/// `SplitMix64` seeded with 7, `y[0] = u − ½`, `y[i] = y[i−1] + (u − ½)`, a
/// plain running sum in `Double`. Sample `i` lies at `x = i`.
public enum DecimationSeries {
    public static func randomWalk(count: Int) -> [Double] {
        var rng = SplitMix64(seed: 7)
        var y = [Double]()
        y.reserveCapacity(count)
        var sum = 0.0
        for i in 0..<count {
            let step = rng.uniform() - 0.5
            sum = i == 0 ? step : sum + step
            y.append(sum)
        }
        return y
    }
}
