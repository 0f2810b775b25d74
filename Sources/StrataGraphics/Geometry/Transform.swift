#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 2-D affine transform (`CGAffineTransform`).
///
/// Named `Transform` rather than `AffineTransform` because Foundation already has
/// an `AffineTransform`, and a file importing both would have to spell the module
/// out on every use.
///
/// A point maps as `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`. `concatenating(t)`
/// applies `self` first and then `t`, exactly as in Core Graphics.
@frozen
public struct Transform: Hashable, Sendable, CustomStringConvertible {
    public var a, b, c, d, tx, ty: Double

    @inlinable
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public init(translationX x: Double, y: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians; positive angles turn +x toward +y (clockwise
    /// on a y-down screen).
    public init(rotationAngle angle: Double) {
        let s = sin(angle), co = cos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    @inlinable public var isIdentity: Bool { self == .identity }

    /// True when the transform keeps axis-aligned rectangles axis-aligned without
    /// swapping the axes (no rotation or shear).
    @inlinable public var isRectilinear: Bool { b == 0 && c == 0 }

    public var determinant: Double { a * d - b * c }

    /// `self` followed by `t`.
    public func concatenating(_ t: Transform) -> Transform {
        Transform(
            a: a * t.a + b * t.c, b: a * t.b + b * t.d,
            c: c * t.a + d * t.c, d: c * t.b + d * t.d,
            tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// A translation applied before `self`.
    public func translatedBy(x: Double, y: Double) -> Transform {
        Transform(translationX: x, y: y).concatenating(self)
    }

    /// A scale applied before `self`.
    public func scaledBy(x: Double, y: Double) -> Transform {
        Transform(scaleX: x, y: y).concatenating(self)
    }

    /// A rotation applied before `self`.
    public func rotated(by angle: Double) -> Transform {
        Transform(rotationAngle: angle).concatenating(self)
    }

    /// The inverse transform, or `nil` when the transform is singular (its
    /// determinant is zero or not finite). Core Graphics returns the transform
    /// unchanged in that case; an optional makes the failure visible.
    public func inverted() -> Transform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Transform(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    public var description: String { "[\(a) \(b) \(c) \(d) \(tx) \(ty)]" }
}
