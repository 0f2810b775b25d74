import Foundation

/// The motions of a scroll view, in closed form, so a frame at any time is
/// exact (and headless runs reproduce to the bit). One axis at a time;
/// velocities in points per second, times in seconds.
public enum ScrollPhysics {
    /// How fast a fling slows: the fraction of its velocity left after each
    /// millisecond (`UIScrollView.DecelerationRate`).
    public struct DecelerationRate: Sendable, Hashable, RawRepresentable {
        public let rawValue: Double
        /// Held to 0.5 … 0.9999 (NaN is `.normal`).
        public init(rawValue: Double) {
            self.rawValue = rawValue.isNaN ? 0.998 : Swift.min(0.9999, Swift.max(0.5, rawValue))
        }
        public static let normal = DecelerationRate(rawValue: 0.998)
        public static let fast = DecelerationRate(rawValue: 0.99)

        /// 1000·ln d, the exponent per second (negative).
        var k: Double { 1000 * log(rawValue) }
    }

    /// Where a fling from `x0` at `v0` is after `t` seconds:
    /// x0 + v0·(d^(1000t) − 1)/(1000·ln d).
    public static func position(from x0: Double, velocity v0: Double, rate: DecelerationRate, at t: Double) -> Double {
        x0 + v0 * (exp(rate.k * Swift.max(0, t)) - 1) / rate.k
    }

    /// The velocity of that fling after `t` seconds: v0·d^(1000t).
    public static func velocity(_ v0: Double, rate: DecelerationRate, at t: Double) -> Double {
        v0 * exp(rate.k * Swift.max(0, t))
    }

    /// Where the fling comes to rest: x0 − v0/(1000·ln d).
    public static func restingPoint(from x0: Double, velocity v0: Double, rate: DecelerationRate) -> Double {
        x0 - v0 / rate.k
    }

    /// How long the fling takes until it is within `threshold` points of
    /// its resting point: ln(−1000·ln d·ε/|v0|)/(1000·ln d); 0 when it
    /// already is.
    public static func duration(velocity v0: Double, rate: DecelerationRate, threshold: Double = 0.5) -> Double {
        let left = abs(v0 / rate.k)
        guard left > threshold, threshold > 0 else { return 0 }
        return log(-rate.k * threshold / abs(v0)) / rate.k
    }

    /// The velocity a fling from `x0` needs to come to rest exactly at
    /// `target`: −(target − x0)·1000·ln d. How a snapped or paged fling
    /// lands on its target with no second animation.
    public static func velocity(toRestAt target: Double, from x0: Double, rate: DecelerationRate) -> Double {
        -(target - x0) * rate.k
    }

    /// When a fling from `x0` at `v0` first reaches `edge`; nil if it
    /// never does.
    public static func time(toReach edge: Double, from x0: Double, velocity v0: Double, rate: DecelerationRate) -> Double? {
        guard v0 != 0 else { return nil }
        // edge = x0 + v0(e^{kt} − 1)/k  ⇒  e^{kt} = 1 + k(edge − x0)/v0.
        let q = 1 + rate.k * (edge - x0) / v0
        guard q > 0, q <= 1 else { return nil }
        return log(q) / rate.k
    }

    /// The rubber band: how far content dragged `x` points past an edge
    /// shows, in a view `dimension` points long: c·x·d/(d + c·x) with
    /// c = 0.55, the same sign as x; it approaches d but never reaches it.
    public static func rubberBand(_ x: Double, dimension d: Double, constant c: Double = 0.55) -> Double {
        guard d > 0, x.isFinite else { return 0 }
        let a = abs(x)
        return (c * a * d / (d + c * a)) * (x < 0 ? -1 : 1)
    }

    /// The inverse of `rubberBand`: how far past the edge the content is
    /// when `b` points of it show.
    public static func inverseRubberBand(_ b: Double, dimension d: Double, constant c: Double = 0.55) -> Double {
        guard d > 0, b.isFinite else { return 0 }
        let a = Swift.min(abs(b), d * 0.999_999)
        return (a * d / (c * (d - a))) * (b < 0 ? -1 : 1)
    }

    /// A critically damped spring (mass 1, stiffness 100, ratio 1) carrying
    /// an offset `x0` from its rest with velocity `v0` to 0:
    /// x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ωt), ω = 10.
    public struct Spring: Sendable, Hashable {
        public var x0: Double
        public var v0: Double
        public static let omega = 10.0

        public init(offset: Double, velocity: Double) {
            x0 = offset
            // At most 5,000 points a second carried into the spring (Flutter's cap).
            v0 = Swift.min(5000, Swift.max(-5000, velocity))
        }

        public func offset(at t: Double) -> Double {
            let w = Self.omega, t = Swift.max(0, t)
            return (x0 + (v0 + w * x0) * t) * exp(-w * t)
        }

        public func velocity(at t: Double) -> Double {
            let w = Self.omega, t = Swift.max(0, t)
            return (v0 - w * (v0 + w * x0) * t) * exp(-w * t)
        }

        /// Whether the spring is at rest at `t`: within `threshold` points
        /// and moving less than 10 points a second.
        public func isSettled(at t: Double, threshold: Double = 0.5) -> Bool {
            abs(offset(at: t)) < threshold && abs(velocity(at: t)) < 10
        }
    }
}
