/// The pace of an animation (`CAMediaTimingFunction`): a cubic Bézier from
/// (0, 0) to (1, 1) with two control points, mapping the fraction of time
/// elapsed to the fraction of the change made.
public struct TimingFunction: Hashable, Sendable {
    public let c1: (x: Double, y: Double)
    public let c2: (x: Double, y: Double)

    /// A custom curve. The control points' x values are clamped to 0…1 (so the
    /// curve is a function of time); y values may leave 0…1 to overshoot.
    /// Non-finite values make the curve linear.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        guard [x1, y1, x2, y2].allSatisfy(\.isFinite) else {
            c1 = (0, 0)
            c2 = (1, 1)
            return
        }
        c1 = (min(1, max(0, x1)), y1)
        c2 = (min(1, max(0, x2)), y2)
    }

    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// Core Animation's default curve for implicit animations.
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

    public static func == (a: TimingFunction, b: TimingFunction) -> Bool {
        a.c1 == b.c1 && a.c2 == b.c2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1.x); hasher.combine(c1.y); hasher.combine(c2.x); hasher.combine(c2.y)
    }

    /// The fraction of the change at time fraction `t` (clamped to 0…1).
    public func value(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 1 }
        if c1.x == c1.y && c2.x == c2.y { return t }  // a straight line
        return y(solveX(t))
    }

    // The curve's coordinates at parameter s, as polynomials a·s³ + b·s² + c·s.
    private func x(_ s: Double) -> Double {
        let c = 3 * c1.x, b = 3 * (c2.x - c1.x) - c, a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    private func y(_ s: Double) -> Double {
        let c = 3 * c1.y, b = 3 * (c2.y - c1.y) - c, a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    private func dx(_ s: Double) -> Double {
        let c = 3 * c1.x, b = 3 * (c2.x - c1.x) - c, a = 1 - c - b
        return (3 * a * s + 2 * b) * s + c
    }

    /// The parameter s where x(s) = `t`: Newton's method from a good guess, and
    /// bisection (x is monotonic on 0…1) when the slope is too flat for Newton.
    private func solveX(_ t: Double) -> Double {
        var s = t
        for _ in 0..<8 {
            let err = x(s) - t
            if abs(err) < 1e-12 { return s }
            let d = dx(s)
            if abs(d) < 1e-9 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = t
        for _ in 0..<64 {
            let v = x(s)
            if abs(v - t) < 1e-12 { break }
            if v < t { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
