import Foundation

/// Round tick values for an axis over a range of data: Heckbert's "nice
/// numbers" (Graphics Gems, 1990), loose labelling. The step is 1, 2 or 5
/// times a power of ten, and the scale's bounds are the multiples of the
/// step just outside the data, so the first and last ticks are its ends.
public struct NiceScale: Sendable, Hashable {
    /// The scale's bounds: multiples of `step`, `lower < upper`.
    public let lower: Double
    public let upper: Double
    /// The distance between ticks.
    public let step: Double

    /// The scale covering `low ... high` with about `ticks` ticks (at least
    /// 2). The ends may come in either order. Equal ends get a range around
    /// them; NaN ends count as 0 and 1; infinite or huge ones are held
    /// within ±10³⁰⁷, so the span stays finite.
    public init(covering low: Double, _ high: Double, ticks: Int = 5) {
        let limit = 1e307
        var lo = low.isNaN ? 0 : Swift.min(limit, Swift.max(-limit, Swift.min(low, high.isNaN ? low : high)))
        var hi = high.isNaN ? 1 : Swift.min(limit, Swift.max(-limit, Swift.max(low.isNaN ? high : low, high)))
        if low.isNaN && high.isNaN { (lo, hi) = (0, 1) }
        if hi - lo <= Swift.max(abs(lo), abs(hi)) * 1e-12 {
            let pad = Swift.max(abs(lo) * 0.1, 1)
            lo -= pad
            hi += pad
        }
        let n = Swift.max(2, Swift.min(ticks, 100))
        let range = Self.niceNumber(hi - lo, rounding: false)
        let step = Self.niceNumber(range / Double(n - 1), rounding: true)
        self.step = step
        lower = (lo / step).rounded(.down) * step
        upper = (hi / step).rounded(.up) * step
    }

    /// A scale from `lower` to `upper` exactly (a fixed range), with ticks
    /// at the multiples of `step` between them.
    public init(exactly lower: Double, _ upper: Double, step: Double) {
        self.lower = Swift.min(lower, upper)
        self.upper = Swift.max(lower, upper)
        self.step = step > 0 && step.isFinite ? step : Swift.max(1e-300, self.upper - self.lower)
    }

    /// The nice number near `x`: 1, 2, 5 or 10 times a power of ten, the
    /// nearest when `rounding`, otherwise the smallest not below `x`.
    public static func niceNumber(_ x: Double, rounding: Bool) -> Double {
        guard x > 0, x.isFinite else { return 1 }
        let exponent = log10(x).rounded(.down)
        let power = pow(10, exponent)
        let fraction = x / power
        let nice: Double
        if rounding {
            nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        } else {
            nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        }
        return nice * power
    }

    /// The multiples of `step` from `lower` to `upper` (at most 1,001).
    public var ticks: [Double] {
        let first = (lower / step - 1e-9).rounded(.up)
        let last = (upper / step + 1e-9).rounded(.down)
        guard first.isFinite, last.isFinite, first <= last else { return [] }
        let count = Int(Swift.min(1000, last - first)) + 1
        return (0..<count).map { k in
            let v = (first + Double(k)) * step
            return abs(v) < step * 1e-9 ? 0 : v
        }
    }

    /// Digits after the decimal point that tell the ticks apart.
    public var fractionDigits: Int { Swift.max(0, Int(-log10(step).rounded(.down))) }

    /// A tick's label: as many decimals as the step needs, or three
    /// significant digits in exponent form for huge or tiny scales.
    public func label(for value: Double) -> String {
        let v = abs(value) < step * 1e-9 ? 0 : value
        if Swift.max(abs(lower), abs(upper)) >= 1e7 || step < 1e-4 {
            return String(format: "%.3g", v)
        }
        return String(format: "%.*f", fractionDigits, v)
    }
}
