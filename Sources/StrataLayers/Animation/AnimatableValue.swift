import StrataGraphics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value an animation can move between: what `fromValue`, `toValue`,
/// `byValue` and keyframe `values` hold.
///
/// Conforming types interpolate, add and subtract (for `byValue`, additive and
/// cumulative animations) and measure distances (for paced keyframes). Types
/// that cannot blend (paths of different shapes, arrays of different lengths)
/// switch from one value to the other halfway.
public protocol AnimatableValue: Sendable, Equatable {
    /// The value a fraction `t` of the way from `self` to `other` (`t` may leave
    /// 0…1 under overshooting timing functions and springs).
    func interpolated(to other: Self, fraction t: Double) -> Self
    /// `self + other`, componentwise.
    func adding(_ other: Self) -> Self
    /// `self − other`, componentwise.
    func subtracting(_ other: Self) -> Self
    /// How far apart the two values are, for paced keyframe animations.
    func distance(to other: Self) -> Double
}

extension AnimatableValue {
    /// Interpolation with a value of unknown type: the other value when the
    /// types differ (the change then happens at once).
    func interpolated(toAny other: any AnimatableValue, fraction t: Double) -> any AnimatableValue {
        guard let o = other as? Self else { return t < 1 ? self : other }
        return interpolated(to: o, fraction: t)
    }

    func adding(any other: any AnimatableValue) -> any AnimatableValue {
        guard let o = other as? Self else { return self }
        return adding(o)
    }

    func subtracting(any other: any AnimatableValue) -> any AnimatableValue {
        guard let o = other as? Self else { return self }
        return subtracting(o)
    }

    func distance(toAny other: any AnimatableValue) -> Double {
        guard let o = other as? Self else { return 0 }
        return distance(to: o)
    }

    func isEqual(toAny other: any AnimatableValue) -> Bool {
        guard let o = other as? Self else { return false }
        return self == o
    }
}

/// Linear interpolation of two numbers.
@inline(__always)
func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

extension Double: AnimatableValue {
    public func interpolated(to other: Double, fraction t: Double) -> Double { lerp(self, other, t) }
    public func adding(_ other: Double) -> Double { self + other }
    public func subtracting(_ other: Double) -> Double { self - other }
    public func distance(to other: Double) -> Double { abs(other - self) }
}

extension Point: AnimatableValue {
    public func interpolated(to other: Point, fraction t: Double) -> Point {
        Point(x: lerp(x, other.x, t), y: lerp(y, other.y, t))
    }
    public func adding(_ other: Point) -> Point { Point(x: x + other.x, y: y + other.y) }
    public func subtracting(_ other: Point) -> Point { Point(x: x - other.x, y: y - other.y) }
    public func distance(to other: Point) -> Double { hypot(other.x - x, other.y - y) }
}

extension Size: AnimatableValue {
    public func interpolated(to other: Size, fraction t: Double) -> Size {
        Size(width: lerp(width, other.width, t), height: lerp(height, other.height, t))
    }
    public func adding(_ other: Size) -> Size { Size(width: width + other.width, height: height + other.height) }
    public func subtracting(_ other: Size) -> Size { Size(width: width - other.width, height: height - other.height) }
    public func distance(to other: Size) -> Double { hypot(other.width - width, other.height - height) }
}

extension Rect: AnimatableValue {
    public func interpolated(to other: Rect, fraction t: Double) -> Rect {
        Rect(origin: origin.interpolated(to: other.origin, fraction: t), size: size.interpolated(to: other.size, fraction: t))
    }
    public func adding(_ other: Rect) -> Rect { Rect(origin: origin.adding(other.origin), size: size.adding(other.size)) }
    public func subtracting(_ other: Rect) -> Rect {
        Rect(origin: origin.subtracting(other.origin), size: size.subtracting(other.size))
    }
    public func distance(to other: Rect) -> Double {
        let a = [origin.x, origin.y, size.width, size.height], b = [other.origin.x, other.origin.y, other.size.width, other.size.height]
        return zip(a, b).reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) }.squareRoot()
    }
}

extension Color: AnimatableValue {
    /// Colours interpolate their unpremultiplied components, as Core Animation does.
    public func interpolated(to other: Color, fraction t: Double) -> Color {
        Color(
            red: lerp(red, other.red, t), green: lerp(green, other.green, t), blue: lerp(blue, other.blue, t),
            alpha: lerp(alpha, other.alpha, t))
    }
    public func adding(_ other: Color) -> Color {
        Color(red: red + other.red, green: green + other.green, blue: blue + other.blue, alpha: alpha + other.alpha)
    }
    public func subtracting(_ other: Color) -> Color {
        Color(red: red - other.red, green: green - other.green, blue: blue - other.blue, alpha: alpha - other.alpha)
    }
    public func distance(to other: Color) -> Double {
        let d = [other.red - red, other.green - green, other.blue - blue, other.alpha - alpha]
        return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }
}

extension Path: AnimatableValue {
    /// Paths with the same elements (the same kinds in the same order)
    /// interpolate point by point; others switch halfway.
    public func interpolated(to other: Path, fraction t: Double) -> Path {
        guard let pairs = Path.matchedPoints(self, other) else { return t < 0.5 ? self : other }
        return Path.rebuilding(self, points: pairs.map { $0.0.interpolated(to: $0.1, fraction: t) })
    }
    public func adding(_ other: Path) -> Path {
        guard let pairs = Path.matchedPoints(self, other) else { return self }
        return Path.rebuilding(self, points: pairs.map { $0.0.adding($0.1) })
    }
    public func subtracting(_ other: Path) -> Path {
        guard let pairs = Path.matchedPoints(self, other) else { return self }
        return Path.rebuilding(self, points: pairs.map { $0.0.subtracting($0.1) })
    }
    public func distance(to other: Path) -> Double {
        guard let pairs = Path.matchedPoints(self, other) else { return 0 }
        return pairs.reduce(0) { max($0, $1.0.distance(to: $1.1)) }
    }

    /// The points of two paths with the same element kinds, paired; nil otherwise.
    static func matchedPoints(_ a: Path, _ b: Path) -> [(Point, Point)]? {
        let ea = a.elements, eb = b.elements
        guard ea.count == eb.count else { return nil }
        var pairs: [(Point, Point)] = []
        for (x, y) in zip(ea, eb) {
            switch (x, y) {
            case let (.move(p), .move(q)), let (.line(p), .line(q)): pairs.append((p, q))
            case let (.quadCurve(p, c), .quadCurve(q, d)): pairs += [(c, d), (p, q)]
            case let (.curve(p, c1, c2), .curve(q, d1, d2)): pairs += [(c1, d1), (c2, d2), (p, q)]
            case (.closeSubpath, .closeSubpath): break
            default: return nil
            }
        }
        return pairs
    }

    /// `template`'s elements with their points replaced, in order.
    static func rebuilding(_ template: Path, points: [Point]) -> Path {
        var i = 0
        func next() -> Point {
            defer { i += 1 }
            return points[i]
        }
        var path = Path()
        for e in template.elements {
            switch e {
            case .move: path.move(to: next())
            case .line: path.addLine(to: next())
            case .quadCurve:
                let c = next()
                path.addQuadCurve(to: next(), control: c)
            case .curve:
                let c1 = next(), c2 = next()
                path.addCurve(to: next(), control1: c1, control2: c2)
            case .closeSubpath: path.closeSubpath()
            }
        }
        return path
    }
}

extension Array: AnimatableValue where Element: AnimatableValue {
    /// Arrays of the same length interpolate element by element (gradient
    /// colours and locations, dash patterns); others switch halfway.
    public func interpolated(to other: [Element], fraction t: Double) -> [Element] {
        guard count == other.count else { return t < 0.5 ? self : other }
        return zip(self, other).map { $0.interpolated(to: $1, fraction: t) }
    }
    public func adding(_ other: [Element]) -> [Element] {
        guard count == other.count else { return self }
        return zip(self, other).map { $0.adding($1) }
    }
    public func subtracting(_ other: [Element]) -> [Element] {
        guard count == other.count else { return self }
        return zip(self, other).map { $0.subtracting($1) }
    }
    public func distance(to other: [Element]) -> Double {
        guard count == other.count else { return 0 }
        return zip(self, other).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}

extension Transform3D: AnimatableValue {
    /// Transforms interpolate by their parts, as Core Animation does: each is
    /// decomposed into perspective, translation, rotation (a quaternion, moved
    /// along the shorter arc), skew and scale, the parts are interpolated and
    /// the matrix rebuilt. A rotation from 0 to 2π written as two matrices is
    /// therefore no motion at all; animate `transform.rotation.z` for a turn.
    /// Matrices that cannot be decomposed (singular ones) switch halfway.
    public func interpolated(to other: Transform3D, fraction t: Double) -> Transform3D {
        if t == 0 { return self }
        if t == 1 { return other }
        guard let a = DecomposedTransform(self), let b = DecomposedTransform(other) else { return t < 0.5 ? self : other }
        return a.interpolated(to: b, fraction: t).recomposed()
    }
    /// Concatenation: `other` applied after `self`.
    public func adding(_ other: Transform3D) -> Transform3D { concatenating(other) }
    /// `self` with `other` undone after it.
    public func subtracting(_ other: Transform3D) -> Transform3D { concatenating(other.inverted() ?? .identity) }
    public func distance(to other: Transform3D) -> Double {
        guard let a = DecomposedTransform(self), let b = DecomposedTransform(other) else { return 0 }
        let dt = zip(a.translation, b.translation).reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) }.squareRoot()
        let ds = zip(a.scale, b.scale).reduce(0) { $0 + abs($1.1 - $1.0) }
        let dot = min(1, abs(zip(a.quaternion, b.quaternion).reduce(0) { $0 + $1.0 * $1.1 }))
        return dt + ds + 2 * acos(dot)
    }
}

/// A transform taken apart (translation, scale, skew, perspective and a
/// rotation quaternion), by the classic "unmatrix" method: normalise, split off
/// the perspective, then Gram–Schmidt the upper 3 × 3.
struct DecomposedTransform {
    var translation: [Double]  // x, y, z
    var scale: [Double]  // x, y, z
    var skew: [Double]  // xy, xz, yz
    var perspective: [Double]  // x, y, z, w
    var quaternion: [Double]  // x, y, z, w

    init?(_ t: Transform3D) {
        guard t.m44 != 0, t.m44.isFinite else { return nil }
        var m = [
            [t.m11, t.m12, t.m13, t.m14], [t.m21, t.m22, t.m23, t.m24],
            [t.m31, t.m32, t.m33, t.m34], [t.m41, t.m42, t.m43, t.m44],
        ]
        for r in 0..<4 { for c in 0..<4 { m[r][c] /= t.m44 } }
        // The perspective part, solved from the rows' last column.
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 {
            var pm = m
            for r in 0..<3 { pm[r][3] = 0 }
            pm[3][3] = 1
            let pmt = Transform3D(
                m11: pm[0][0], m12: pm[0][1], m13: pm[0][2], m14: pm[0][3],
                m21: pm[1][0], m22: pm[1][1], m23: pm[1][2], m24: pm[1][3],
                m31: pm[2][0], m32: pm[2][1], m33: pm[2][2], m34: pm[2][3],
                m41: pm[3][0], m42: pm[3][1], m43: pm[3][2], m44: pm[3][3])
            guard let inv = pmt.inverted() else { return nil }
            // perspective = (m14, m24, m34, m44) · (inverse of pm) transposed.
            let rhs = [m[0][3], m[1][3], m[2][3], m[3][3]]
            let it = [
                [inv.m11, inv.m21, inv.m31, inv.m41], [inv.m12, inv.m22, inv.m32, inv.m42],
                [inv.m13, inv.m23, inv.m33, inv.m43], [inv.m14, inv.m24, inv.m34, inv.m44],
            ]
            perspective = (0..<4).map { c in (0..<4).reduce(0) { $0 + rhs[$1] * it[$1][c] } }
            for r in 0..<3 { m[r][3] = 0 }
            m[3][3] = 1
        } else {
            perspective = [0, 0, 0, 1]
        }
        translation = [m[3][0], m[3][1], m[3][2]]
        var rows = [[m[0][0], m[0][1], m[0][2]], [m[1][0], m[1][1], m[1][2]], [m[2][0], m[2][1], m[2][2]]]
        func length(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] {
            [a[0] * sa + b[0] * sb, a[1] * sa + b[1] * sb, a[2] * sa + b[2] * sb]
        }
        var sc = [0.0, 0, 0], sk = [0.0, 0, 0]
        sc[0] = length(rows[0])
        guard sc[0] > 0 else { return nil }
        rows[0] = rows[0].map { $0 / sc[0] }
        sk[0] = dot(rows[0], rows[1])
        rows[1] = combine(rows[1], rows[0], 1, -sk[0])
        sc[1] = length(rows[1])
        guard sc[1] > 0 else { return nil }
        rows[1] = rows[1].map { $0 / sc[1] }
        sk[0] /= sc[1]
        sk[1] = dot(rows[0], rows[2])
        rows[2] = combine(rows[2], rows[0], 1, -sk[1])
        sk[2] = dot(rows[1], rows[2])
        rows[2] = combine(rows[2], rows[1], 1, -sk[2])
        sc[2] = length(rows[2])
        guard sc[2] > 0 else { return nil }
        rows[2] = rows[2].map { $0 / sc[2] }
        sk[1] /= sc[2]
        sk[2] /= sc[2]
        // A left-handed basis: flip everything.
        let cross = [
            rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1],
            rows[1][2] * rows[2][0] - rows[1][0] * rows[2][2],
            rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0],
        ]
        if dot(rows[0], cross) < 0 {
            for i in 0..<3 {
                sc[i] = -sc[i]
                rows[i] = rows[i].map { -$0 }
            }
        }
        scale = sc
        skew = sk
        // The rotation matrix (rows) as a quaternion, from its largest
        // component (Shepperd's method), which keeps full precision.
        let r = rows
        let trace = r[0][0] + r[1][1] + r[2][2]
        var q: [Double]
        if trace > 0 {
            let k = 2 * (trace + 1).squareRoot()
            q = [(r[1][2] - r[2][1]) / k, (r[2][0] - r[0][2]) / k, (r[0][1] - r[1][0]) / k, k / 4]
        } else if r[0][0] >= r[1][1] && r[0][0] >= r[2][2] {
            let k = 2 * max(1e-300, 1 + r[0][0] - r[1][1] - r[2][2]).squareRoot()
            q = [k / 4, (r[0][1] + r[1][0]) / k, (r[0][2] + r[2][0]) / k, (r[1][2] - r[2][1]) / k]
        } else if r[1][1] >= r[2][2] {
            let k = 2 * max(1e-300, 1 + r[1][1] - r[0][0] - r[2][2]).squareRoot()
            q = [(r[0][1] + r[1][0]) / k, k / 4, (r[1][2] + r[2][1]) / k, (r[2][0] - r[0][2]) / k]
        } else {
            let k = 2 * max(1e-300, 1 + r[2][2] - r[0][0] - r[1][1]).squareRoot()
            q = [(r[0][2] + r[2][0]) / k, (r[1][2] + r[2][1]) / k, k / 4, (r[0][1] - r[1][0]) / k]
        }
        quaternion = q
        guard (translation + scale + skew + perspective + quaternion).allSatisfy(\.isFinite) else { return nil }
    }

    func interpolated(to o: DecomposedTransform, fraction t: Double) -> DecomposedTransform {
        var r = self
        r.translation = zip(translation, o.translation).map { lerp($0, $1, t) }
        r.scale = zip(scale, o.scale).map { lerp($0, $1, t) }
        r.skew = zip(skew, o.skew).map { lerp($0, $1, t) }
        r.perspective = zip(perspective, o.perspective).map { lerp($0, $1, t) }
        // Spherical interpolation along the shorter arc.
        var b = o.quaternion
        var d = zip(quaternion, b).reduce(0) { $0 + $1.0 * $1.1 }
        if d < 0 {
            b = b.map { -$0 }
            d = -d
        }
        d = min(1, d)
        if d > 0.9995 {
            let q = zip(quaternion, b).map { lerp($0, $1, t) }
            let n = q.reduce(0) { $0 + $1 * $1 }.squareRoot()
            r.quaternion = q.map { $0 / n }
        } else {
            let theta = acos(d), s = sin(theta)
            let wa = sin((1 - t) * theta) / s, wb = sin(t * theta) / s
            r.quaternion = zip(quaternion, b).map { $0 * wa + $1 * wb }
        }
        return r
    }

    func recomposed() -> Transform3D {
        var m = Transform3D.identity
        m.m14 = perspective[0]; m.m24 = perspective[1]; m.m34 = perspective[2]; m.m44 = perspective[3]
        m = Transform3D(translationX: translation[0], y: translation[1], z: translation[2]).concatenating(m)
        // Row-vector form: a point is first scaled, then skewed, then rotated,
        // then translated and projected; built from the right end here.
        let (x, y, z, w) = (quaternion[0], quaternion[1], quaternion[2], quaternion[3])
        // The rotation's rows (the transpose of its column-vector form).
        let rotation = Transform3D(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + z * w), m13: 2 * (x * z - y * w), m14: 0,
            m21: 2 * (x * y - z * w), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + x * w), m24: 0,
            m31: 2 * (x * z + y * w), m32: 2 * (y * z - x * w), m33: 1 - 2 * (x * x + y * y), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        m = rotation.concatenating(m)
        var skewM = Transform3D.identity
        if skew[2] != 0 { skewM.m32 = skew[2]; m = skewM.concatenating(m) }
        skewM = .identity
        if skew[1] != 0 { skewM.m31 = skew[1]; m = skewM.concatenating(m) }
        skewM = .identity
        if skew[0] != 0 { skewM.m21 = skew[0]; m = skewM.concatenating(m) }
        return Transform3D(scaleX: scale[0], y: scale[1], z: scale[2]).concatenating(m)
    }
}
