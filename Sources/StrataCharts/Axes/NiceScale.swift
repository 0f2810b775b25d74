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
    /// 2). The ends may come in either order. Equal ends (or ends less
    /// than 10⁻³⁰⁰ apart) get a range around them; NaN ends count as 0 and 1; infinite or huge ones are held
    /// within ±10³⁰⁷, so the span stays finite.
    public init(covering low: Double, _ high: Double, ticks: Int = 5) {
        let limit = 1e307
        var lo = low.isNaN ? 0 : Swift.min(limit, Swift.max(-limit, Swift.min(low, high.isNaN ? low : high)))
        var hi = high.isNaN ? 1 : Swift.min(limit, Swift.max(-limit, Swift.max(low.isNaN ? high : low, high)))
        if low.isNaN && high.isNaN { (lo, hi) = (0, 1) }
        // Ends this close count as equal: a span of subnormal numbers (below
        // 10⁻³⁰⁰) has no nice step a Double can hold.
        if hi - lo <= Swift.max(abs(lo), abs(hi)) * 1e-12 || hi - lo < 1e-300 {
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
        // 10^exponent underflows to 0 below 10⁻³²³: the number is its own.
        guard power > 0 else { return x }
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

    /// A tick's label, readable at any magnitude (`NiceScale.format`):
    /// as many decimals as the step needs, thousands grouped (`12,500`),
    /// large values with a suffix (`2.5M`), tiny ones with an SI prefix
    /// (`40µ`), and powers of ten (`3×10¹⁸`) past the suffixes.
    public func label(for value: Double) -> String {
        let v = abs(value) < step * 1e-9 ? 0 : value
        return Self.format(v, step: step, magnitude: Swift.max(abs(lower), abs(upper)))
    }

    /// The suffixes of large values: thousands, millions, billions and
    /// trillions, as Foundation's compact notation writes them in English.
    static let largeUnits: [(Double, String)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")]
    /// The SI prefixes of tiny values.
    static let smallUnits: [(Double, String)] = [(1e-6, "µ"), (1e-9, "n"), (1e-12, "p")]

    /// `value` written for an axis whose ticks are `step` apart and reach
    /// `magnitude` (the larger end's absolute value), all labels alike:
    /// - Under 10,000: decimals as the step needs (at most 12), thousands
    ///   grouped with commas (`2,500`, `0.25`).
    /// - From 10,000 to 10¹⁵: in thousands (K), millions (M), billions (B)
    ///   or trillions (T) by the magnitude, with the step's decimals
    ///   (`250K`, `2.5M`), unless that needs more than two decimals (a
    ///   narrow range far from zero): then grouped digits (`1,000,002`).
    /// - Under 10⁻³ (and not zero): µ, n or p (`40µ`, `2.5n`).
    /// - Beyond: a power of ten (`3×10¹⁸`, `2.5×10⁻¹⁵`).
    public static func format(_ value: Double, step: Double, magnitude: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : value < 0 ? "−∞" : "∞" }
        if value == 0 { return "0" }
        let step = step.isFinite && step > 0 ? step : Swift.max(abs(value), 1e-300)
        let magnitude = magnitude.isFinite ? Swift.max(magnitude, abs(value)) : abs(value)
        /// The fewest decimals that write multiples of `step / unit` exactly
        /// (0.5 needs one, 2.5 one, 0.25 two; at most 12).
        func decimals(_ unit: Double) -> Int {
            let x = step / unit
            var d = Swift.max(0, Int(-(log10(x) + 1e-9).rounded(.down)))
            while d < 12 {
                let scaled = x * pow(10, Double(d))
                if abs(scaled - scaled.rounded()) <= 1e-6 * Swift.max(1, scaled) { break }
                d += 1
            }
            return d
        }
        if magnitude < 1e4, magnitude >= 1e-3 {
            return grouped(value, decimals: Swift.min(12, decimals(1)))
        }
        if magnitude >= 1e4, magnitude < 1e15 {
            let (unit, suffix) = largeUnits.first { magnitude >= $0.0 } ?? (1e3, "K")
            let d = decimals(unit)
            if d <= 2 { return String(format: "%.*f", d, value / unit) + suffix }
            return grouped(value, decimals: Swift.min(12, decimals(1)))
        }
        if magnitude < 1e-3, magnitude >= 1e-12 {
            let (unit, prefix) = smallUnits.first { magnitude >= $0.0 } ?? (1e-12, "p")
            return String(format: "%.*f", Swift.min(6, decimals(unit)), value / unit) + prefix
        }
        // A power of ten: the value's own exponent, the step's digits.
        let exponent = Int(log10(abs(value)).rounded(.down))
        let digits = Swift.min(6, Swift.max(0, exponent - Int(log10(step).rounded(.down))))
        var mantissa = value / pow(10, Double(exponent))
        var e = exponent
        if abs((mantissa * pow(10, Double(digits))).rounded()) >= 10 * pow(10, Double(digits)) {
            mantissa /= 10
            e += 1
        }
        return String(format: "%.*f", digits, mantissa) + "×10" + superscript(e)
    }

    /// `value` with `decimals` decimals and its whole part's digits grouped
    /// by threes with commas.
    static func grouped(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.*f", decimals, abs(value))
        let parts = text.split(separator: ".", maxSplits: 1)
        let whole = Array(parts[0])
        var out = ""
        for (i, c) in whole.enumerated() {
            if i > 0, (whole.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        if parts.count > 1 { out += "." + parts[1] }
        // "-0" is 0.
        let negative = value < 0 && out.contains { $0 != "0" && $0 != "," && $0 != "." }
        return (negative ? "-" : "") + out
    }

    /// An integer in superscript digits (`⁻¹⁵`).
    static func superscript(_ n: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        return (n < 0 ? "⁻" : "") + String(abs(n)).map { digits[Int(String($0))!] }
    }
}
