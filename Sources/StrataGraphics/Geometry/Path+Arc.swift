#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Path {
    /// Adds a circular arc, as `CGPath.addArc(center:radius:startAngle:endAngle:clockwise:)`.
    ///
    /// Angles are in radians from the +x axis toward +y. `clockwise: false` sweeps
    /// with increasing angle, `clockwise: true` with decreasing angle — Core
    /// Graphics' convention, named for a y-up space; on Strata's y-down canvas an
    /// increasing angle turns clockwise on screen, as it does in a flipped
    /// `CGContext` on iOS. A sweep of 2π or more in the chosen direction draws the
    /// full circle once. When the path has a current point, a line joins it to the
    /// arc's start; otherwise the arc starts a new subpath. A negative radius is
    /// treated as its absolute value.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        let twoPi = 2 * Double.pi
        var sweep = endAngle - startAngle
        // An end angle a whole number of turns past the start (but not equal to
        // it) means a full circle in the chosen direction.
        if clockwise {
            if sweep <= -twoPi {
                sweep = -twoPi
            } else if sweep > 0 {
                sweep = fmod(sweep, twoPi) - twoPi
            }
        } else {
            if sweep >= twoPi {
                sweep = twoPi
            } else if sweep < 0 {
                sweep = fmod(sweep, twoPi) + twoPi
            }
        }
        addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: sweep)
    }

    /// Adds a circular arc from `startAngle` sweeping by `delta` radians (positive
    /// toward +y), as `CGPath.addRelativeArc`. Sweeps beyond ±2π go round more than
    /// once, as asked, up to 1024 turns; larger sweeps are cut to 1024 turns.
    public mutating func addRelativeArc(center: Point, radius: Double, startAngle: Double, delta: Double) {
        let r = Swift.abs(radius)
        let start = Point(x: center.x + r * cos(startAngle), y: center.y + r * sin(startAngle))
        if let current = currentPoint {
            if current != start || needsMove { addLine(to: start) }
        } else {
            move(to: start)
        }
        guard delta.isFinite, r.isFinite, delta != 0 else { return }
        let maxSweep = 1024 * 2 * Double.pi
        let delta = Swift.max(-maxSweep, Swift.min(maxSweep, delta))
        // At most a quarter turn per cubic keeps the approximation within
        // 0.03 % of the radius.
        let pieces = Swift.max(1, Int((Swift.abs(delta) / (Double.pi / 2)).rounded(.up)))
        let step = delta / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        var a0 = startAngle
        var c0 = cos(a0), s0 = sin(a0)
        for i in 1...pieces {
            let a1 = i == pieces ? startAngle + delta : startAngle + step * Double(i)
            let c1 = cos(a1), s1 = sin(a1)
            addCurve(
                to: Point(x: center.x + r * c1, y: center.y + r * s1),
                control1: Point(x: center.x + r * (c0 - k * s0), y: center.y + r * (s0 + k * c0)),
                control2: Point(x: center.x + r * (c1 + k * s1), y: center.y + r * (s1 - k * c1)))
            a0 = a1; c0 = c1; s0 = s1
        }
    }

    /// Adds an arc of radius `radius` tangent to the line from the current point to
    /// `tangent1End` and to the line from `tangent1End` to `tangent2End`, preceded
    /// by a straight line to the first tangent point
    /// (`CGPath.addArc(tangent1End:tangent2End:radius:)`).
    ///
    /// When the three points are collinear, coincide, or the radius is zero, the
    /// result is a straight line to `tangent1End`. With no current point the path
    /// first moves to `tangent1End`.
    public mutating func addArc(tangent1End t1: Point, tangent2End t2: Point, radius: Double) {
        guard let p0 = currentPoint else {
            move(to: t1)
            return
        }
        let r = Swift.abs(radius)
        let ux = p0.x - t1.x, uy = p0.y - t1.y
        let vx = t2.x - t1.x, vy = t2.y - t1.y
        let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
        guard r > 0, r.isFinite, lu > 0, lv > 0 else { addLine(to: t1); return }
        let cosTheta = (ux * vx + uy * vy) / (lu * lv)
        let cross = ux * vy - uy * vx
        // Collinear (either direction): no corner to round.
        guard Swift.abs(cross) > 1e-12 * lu * lv, Swift.abs(cosTheta) < 1 else { addLine(to: t1); return }
        let theta = acos(Swift.max(-1, Swift.min(1, cosTheta)))  // angle at the corner
        let d = r / tan(theta / 2)  // from the corner to each tangent point
        let a = Point(x: t1.x + ux / lu * d, y: t1.y + uy / lu * d)
        let b = Point(x: t1.x + vx / lv * d, y: t1.y + vy / lv * d)
        // The centre lies on the bisector, r / sin(θ/2) from the corner.
        let bx = ux / lu + vx / lv, by = uy / lu + vy / lv
        let lb = (bx * bx + by * by).squareRoot()
        let h = r / sin(theta / 2)
        let c = Point(x: t1.x + bx / lb * h, y: t1.y + by / lb * h)
        let start = atan2(a.y - c.y, a.x - c.x)
        var sweep = atan2(b.y - c.y, b.x - c.x) - start
        if sweep > Double.pi { sweep -= 2 * Double.pi } else if sweep < -Double.pi { sweep += 2 * Double.pi }
        addRelativeArc(center: c, radius: r, startAngle: start, delta: sweep)
    }
}
