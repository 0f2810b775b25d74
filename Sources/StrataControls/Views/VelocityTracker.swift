import StrataGraphics

/// The velocity of a pointer from its recent positions, as Flutter's
/// `VelocityTracker` estimates it: a least-squares fit of position against
/// time over the samples of the last 100 ms (at most 20), a quadratic when
/// there are three or more, a line with two, and the fit's slope at the
/// newest sample. A pause of more than 40 ms between samples, or between the
/// newest sample and the moment asked about, means the pointer stopped: the
/// samples before it do not count, and the velocity is zero.
public struct VelocityTracker: Sendable {
    /// How far back samples count, and the pause that means "stopped".
    public static let horizon = 0.100
    public static let stopGap = 0.040
    static let capacity = 20

    private var samples: [(t: Double, p: Point)] = []

    public init() {}

    /// Adds where the pointer was at time `t` (seconds). Samples out of
    /// order or not finite are ignored.
    public mutating func add(_ p: Point, at t: Double) {
        guard t.isFinite, p.x.isFinite, p.y.isFinite else { return }
        if let last = samples.last, t < last.t { return }
        samples.append((t, p))
        if samples.count > Self.capacity { samples.removeFirst(samples.count - Self.capacity) }
    }

    /// Forgets every sample.
    public mutating func reset() { samples.removeAll() }

    /// The velocity in points per second at time `now` (the newest sample's
    /// time by default): zero with fewer than two samples, or when the
    /// pointer has rested longer than `stopGap`.
    public func velocity(at now: Double? = nil) -> Point {
        guard let newest = samples.last else { return Point(x: 0, y: 0) }
        if let now, now - newest.t > Self.stopGap { return Point(x: 0, y: 0) }
        // The samples of the horizon, newest first, up to a pause.
        var used: [(t: Double, p: Point)] = []
        var previous = newest.t
        for s in samples.reversed() {
            if newest.t - s.t > Self.horizon || previous - s.t > Self.stopGap { break }
            used.append(s)
            previous = s.t
        }
        guard used.count >= 2 else { return Point(x: 0, y: 0) }
        let ts = used.map { $0.t - newest.t }
        let degree = used.count >= 3 ? 2 : 1
        guard let vx = Self.slope(ts, used.map(\.p.x), degree: degree),
            let vy = Self.slope(ts, used.map(\.p.y), degree: degree)
        else { return Point(x: 0, y: 0) }
        return Point(x: vx, y: vy)
    }

    /// The slope at t = 0 of the least-squares polynomial of `degree` (1 or
    /// 2) through (t, v); nil when the times do not determine it.
    static func slope(_ t: [Double], _ v: [Double], degree: Int) -> Double? {
        let n = degree + 1
        // Normal equations: (AᵀA) c = Aᵀv with A's columns 1, t, t².
        var m = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        for (ti, vi) in zip(t, v) {
            var powers = [Double](repeating: 1, count: 2 * n - 1)
            for k in 1..<powers.count { powers[k] = powers[k - 1] * ti }
            for r in 0..<n {
                for c in 0..<n { m[r][c] += powers[r + c] }
                m[r][n] += powers[r] * vi
            }
        }
        // Gaussian elimination with partial pivoting.
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-18 else {
                return degree > 1 ? slope(t, v, degree: 1) : nil
            }
            m.swapAt(col, pivot)
            for r in 0..<n where r != col {
                let f = m[r][col] / m[col][col]
                for c in col...n { m[r][c] -= f * m[col][c] }
            }
        }
        let b = m[1][n] / m[1][1]
        return b.isFinite ? b : nil
    }
}
