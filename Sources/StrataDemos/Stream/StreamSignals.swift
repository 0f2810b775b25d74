import Foundation
import StrataGraphics

/// The signals `strata stream`, the gallery and the benchmarks stream: the
/// same samples for the same seed, on every machine.
public enum StreamSignal: String, Sendable, CaseIterable {
    /// A synthetic electrocardiogram at 72 beats a minute: P, Q, R, S and T
    /// waves as Gaussian bumps (millivolts), with a little noise.
    case ecg
    /// A sine of 0.5 Hz (plus a quarter hertz per series), with noise.
    case sine
    /// A random walk (steps uniform in ±½).
    case walk
}

/// Generates one series of a signal, sample by sample.
public struct StreamSignalGenerator: Sendable {
    public let signal: StreamSignal
    public let rate: Double
    public let series: Int
    private var rng: SplitMix64
    private var index = 0
    private var walk = 0.0

    /// A generator of `signal` sampled `rate` times a second (at least
    /// 0.001), for series number `series` (which shifts its phase, frequency
    /// and noise).
    public init(_ signal: StreamSignal, rate: Double, series: Int = 0, seed: UInt64 = 1) {
        self.signal = signal
        self.rate = rate.isFinite ? Swift.max(0.001, rate) : 60
        self.series = series
        rng = SplitMix64(seed: seed &+ UInt64(truncatingIfNeeded: series) &* 0x9E37_79B9)
    }

    public mutating func next() -> Double {
        let t = Double(index) / rate
        index += 1
        let noise = rng.uniform() - 0.5
        switch signal {
        case .ecg:
            let beat = 60.0 / 72
            let p = (t + Double(series) * 0.13).truncatingRemainder(dividingBy: beat) / beat
            func bump(_ at: Double, _ width: Double, _ height: Double) -> Double {
                let d = (p - at) / width
                return height * exp(-0.5 * d * d)
            }
            return bump(0.18, 0.025, 0.12) + bump(0.30, 0.008, -0.12) + bump(0.33, 0.010, 1.1) + bump(0.36, 0.010, -0.25)
                + bump(0.60, 0.045, 0.30) + noise * 0.02
        case .sine:
            let f = 0.5 + 0.25 * Double(series)
            return sin(2 * Double.pi * f * t + Double(series)) + noise * 0.1
        case .walk:
            walk += noise
            return walk
        }
    }
}
