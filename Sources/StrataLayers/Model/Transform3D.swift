import StrataGraphics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 4 × 4 transform of 3D space (`CATransform3D`).
///
/// Points are row vectors multiplied on the left, as in Core Animation:
/// `(x, y, z, 1) · M`, so the translation is in `m41`, `m42`, `m43` and
/// `m34 = −1/d` gives a perspective seen from distance `d`.
/// `a.concatenating(b)` applies `a` first, then `b`; `translatedBy`, `scaledBy`
/// and `rotated` apply the new step *before* the existing transform, like
/// `CATransform3DTranslate` and friends.
public struct Transform3D: Hashable, Sendable, CustomStringConvertible {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    /// `CATransform3DMakeTranslation`.
    public init(translationX x: Double, y: Double, z: Double = 0) {
        self = .identity
        m41 = x; m42 = y; m43 = z
    }

    /// `CATransform3DMakeScale`.
    public init(scaleX x: Double, y: Double, z: Double = 1) {
        self = .identity
        m11 = x; m22 = y; m33 = z
    }

    /// `CATransform3DMakeRotation`: `angle` radians about the axis (`x`, `y`,
    /// `z`), which need not be unit length. About z it is the 2D rotation of
    /// `Transform(rotationAngle:)`. A zero axis gives the identity.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite, angle.isFinite else {
            self = .identity
            return
        }
        let (ux, uy, uz) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        self.init(
            m11: c + t * ux * ux, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
            m21: t * ux * uy - s * uz, m22: c + t * uy * uy, m23: t * uy * uz + s * ux, m24: 0,
            m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: c + t * uz * uz, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// `CATransform3DMakeAffineTransform`: the 2D transform acting in the z = 0 plane.
    public init(_ t: Transform) {
        self = .identity
        m11 = t.a; m12 = t.b; m21 = t.c; m22 = t.d; m41 = t.tx; m42 = t.ty
    }

    /// A perspective seen from `distance` along z (`m34 = −1/distance`).
    public static func perspective(distance: Double) -> Transform3D {
        var t = Transform3D.identity
        if distance != 0 && distance.isFinite { t.m34 = -1 / distance }
        return t
    }

    public var isIdentity: Bool { self == .identity }

    /// Whether this only acts in the plane (`CATransform3DIsAffine`): no z
    /// terms and no perspective.
    public var isAffine: Bool {
        m13 == 0 && m23 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m43 == 0
            && m14 == 0 && m24 == 0 && m44 == 1
    }

    /// The plane part (`CATransform3DGetAffineTransform`), exact when `isAffine`.
    public var affineTransform: Transform {
        Transform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// `self` then `t` (`CATransform3DConcat(self, t)`).
    public func concatenating(_ t: Transform3D) -> Transform3D {
        let a = self
        return Transform3D(
            m11: a.m11 * t.m11 + a.m12 * t.m21 + a.m13 * t.m31 + a.m14 * t.m41,
            m12: a.m11 * t.m12 + a.m12 * t.m22 + a.m13 * t.m32 + a.m14 * t.m42,
            m13: a.m11 * t.m13 + a.m12 * t.m23 + a.m13 * t.m33 + a.m14 * t.m43,
            m14: a.m11 * t.m14 + a.m12 * t.m24 + a.m13 * t.m34 + a.m14 * t.m44,
            m21: a.m21 * t.m11 + a.m22 * t.m21 + a.m23 * t.m31 + a.m24 * t.m41,
            m22: a.m21 * t.m12 + a.m22 * t.m22 + a.m23 * t.m32 + a.m24 * t.m42,
            m23: a.m21 * t.m13 + a.m22 * t.m23 + a.m23 * t.m33 + a.m24 * t.m43,
            m24: a.m21 * t.m14 + a.m22 * t.m24 + a.m23 * t.m34 + a.m24 * t.m44,
            m31: a.m31 * t.m11 + a.m32 * t.m21 + a.m33 * t.m31 + a.m34 * t.m41,
            m32: a.m31 * t.m12 + a.m32 * t.m22 + a.m33 * t.m32 + a.m34 * t.m42,
            m33: a.m31 * t.m13 + a.m32 * t.m23 + a.m33 * t.m33 + a.m34 * t.m43,
            m34: a.m31 * t.m14 + a.m32 * t.m24 + a.m33 * t.m34 + a.m34 * t.m44,
            m41: a.m41 * t.m11 + a.m42 * t.m21 + a.m43 * t.m31 + a.m44 * t.m41,
            m42: a.m41 * t.m12 + a.m42 * t.m22 + a.m43 * t.m32 + a.m44 * t.m42,
            m43: a.m41 * t.m13 + a.m42 * t.m23 + a.m43 * t.m33 + a.m44 * t.m43,
            m44: a.m41 * t.m14 + a.m42 * t.m24 + a.m43 * t.m34 + a.m44 * t.m44)
    }

    /// `CATransform3DTranslate`: a translation, then this transform.
    public func translatedBy(x: Double, y: Double, z: Double = 0) -> Transform3D {
        Transform3D(translationX: x, y: y, z: z).concatenating(self)
    }

    /// `CATransform3DScale`: a scale, then this transform.
    public func scaledBy(x: Double, y: Double, z: Double = 1) -> Transform3D {
        Transform3D(scaleX: x, y: y, z: z).concatenating(self)
    }

    /// `CATransform3DRotate`: a rotation, then this transform.
    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// The inverse (`CATransform3DInvert`), or nil when the matrix is singular
    /// or not finite.
    public func inverted() -> Transform3D? {
        let m = [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
        var inv = [Double](repeating: 0, count: 16)
        inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10]
        inv[4] =
            -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10]
        inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9]
        inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9]
        inv[1] =
            -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10]
        inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10]
        inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9]
        inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9]
        inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6]
        inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6]
        inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5]
        inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5]
        inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6]
        inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6]
        inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5]
        inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5]
        let det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12]
        guard det != 0, det.isFinite else { return nil }
        let r = inv.map { $0 / det }
        guard r.allSatisfy(\.isFinite) else { return nil }
        return Transform3D(
            m11: r[0], m12: r[1], m13: r[2], m14: r[3], m21: r[4], m22: r[5], m23: r[6], m24: r[7],
            m31: r[8], m32: r[9], m33: r[10], m34: r[11], m41: r[12], m42: r[13], m43: r[14], m44: r[15])
    }

    /// `(x, y, z, 1) · M`, before the division by w: (x', y', z', w').
    public func apply(x: Double, y: Double, z: Double = 0) -> (x: Double, y: Double, z: Double, w: Double) {
        (
            x * m11 + y * m21 + z * m31 + m41, x * m12 + y * m22 + z * m32 + m42,
            x * m13 + y * m23 + z * m33 + m43, x * m14 + y * m24 + z * m34 + m44
        )
    }

    /// A point of the z = 0 plane mapped and projected (divided by w). Points
    /// behind the eye (w ≤ 0) have no image: nil.
    public func project(_ p: Point) -> Point? {
        let r = apply(x: p.x, y: p.y)
        guard r.w > 0 else { return nil }
        return Point(x: r.x / r.w, y: r.y / r.w)
    }

    /// This transform with its z output dropped: what Core Animation does when a
    /// layer flattens its sublayers into its own plane.
    var flattened: Transform3D {
        var t = self
        t.m13 = 0; t.m23 = 0; t.m33 = 1; t.m43 = 0
        return t
    }

    /// The map of the z = 0 plane to the projection plane, as a homography.
    var planeHomography: Homography {
        Homography(m11: m11, m12: m12, m14: m14, m21: m21, m22: m22, m24: m24, m41: m41, m42: m42, m44: m44)
    }

    public var description: String {
        "[\(m11) \(m12) \(m13) \(m14); \(m21) \(m22) \(m23) \(m24); \(m31) \(m32) \(m33) \(m34); \(m41) \(m42) \(m43) \(m44)]"
    }
}

/// A projective map of the plane: (x, y, 1) · H, then division by w. The entries
/// keep `Transform3D`'s names for the rows and columns they come from.
struct Homography: Hashable, Sendable {
    var m11, m12, m14: Double
    var m21, m22, m24: Double
    var m41, m42, m44: Double

    /// The determinant: negative when the map turns the plane over (a layer
    /// seen from behind).
    var determinant: Double {
        m11 * (m22 * m44 - m24 * m42) - m12 * (m21 * m44 - m24 * m41) + m14 * (m21 * m42 - m22 * m41)
    }

    /// Whether this is affine (no perspective row) and so can go through `Transform`.
    var isAffine: Bool { m14 == 0 && m24 == 0 && m44 == 1 }

    var affine: Transform { Transform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42) }

    func map(_ p: Point) -> (x: Double, y: Double, w: Double) {
        (p.x * m11 + p.y * m21 + m41, p.x * m12 + p.y * m22 + m42, p.x * m14 + p.y * m24 + m44)
    }
}
