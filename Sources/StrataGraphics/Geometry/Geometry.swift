// Geometry in Double, the way CGFloat is Double on 64-bit Apple platforms.
// Strata's device space has its origin at the top left with y growing down, as
// in UIKit and in a bitmap's memory.

/// A point in a two-dimensional coordinate system (`CGPoint`).
@frozen
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// True when both coordinates are finite (neither NaN nor infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The point moved by `transform`.
    @inlinable public func applying(_ t: Transform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }

    /// The distance to `other`.
    @inlinable public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height (`CGSize`). Negative values are allowed, as in Core
/// Graphics; `Rect.standardized` turns them around.
@frozen
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width) × \(height)" }
}

/// A rectangle given by an origin and a size (`CGRect`).
///
/// As in Core Graphics, a rectangle with a negative width or height is valid and
/// its `minX`/`maxX`/`minY`/`maxY` read the standardized rectangle. `Rect.null`
/// is the empty set: the union identity and the result of disjoint intersections.
@frozen
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    @inlinable public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The null rectangle: no points at all (origin at infinity, as `CGRect.null`).
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)
    /// The rectangle that holds every point.
    public static let infinite = Rect(
        x: -Double.greatestFiniteMagnitude / 2, y: -Double.greatestFiniteMagnitude / 2,
        width: Double.greatestFiniteMagnitude, height: Double.greatestFiniteMagnitude)

    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }
    @inlinable public var minX: Double { Swift.min(origin.x, origin.x + size.width) }
    @inlinable public var maxX: Double { Swift.max(origin.x, origin.x + size.width) }
    @inlinable public var minY: Double { Swift.min(origin.y, origin.y + size.height) }
    @inlinable public var maxY: Double { Swift.max(origin.y, origin.y + size.height) }
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    @inlinable public var midY: Double { origin.y + size.height / 2 }

    /// True for `Rect.null`.
    @inlinable public var isNull: Bool { origin.x.isInfinite && origin.x > 0 || origin.y.isInfinite && origin.y > 0 }
    /// True when the rectangle is null or has no area.
    @inlinable public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 || size.width.isNaN || size.height.isNaN }

    /// The same rectangle with a non-negative width and height.
    @inlinable public var standardized: Rect {
        if isNull { return self }
        return Rect(x: minX, y: minY, width: Swift.abs(size.width), height: Swift.abs(size.height))
    }

    /// The smallest rectangle with integer coordinates that contains this one.
    public var integral: Rect {
        if isNull { return self }
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    /// The rectangle moved inward by `dx` on the left and right and `dy` on the top
    /// and bottom (outward for negative values); null if nothing is left.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        if isNull { return self }
        let r = standardized
        let w = r.width - 2 * dx, h = r.height - 2 * dy
        if w < 0 || h < 0 { return .null }
        return Rect(x: r.minX + dx, y: r.minY + dy, width: w, height: h)
    }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        if isNull { return self }
        return Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// The common part of two rectangles, or `Rect.null` when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull { return .null }
        let x0 = Swift.max(minX, other.minX), x1 = Swift.min(maxX, other.maxX)
        let y0 = Swift.max(minY, other.minY), y1 = Swift.min(maxY, other.maxY)
        if x0 > x1 || y0 > y1 { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both.
    public func union(_ other: Rect) -> Rect {
        if isNull { return other }
        if other.isNull { return self }
        let x0 = Swift.min(minX, other.minX), x1 = Swift.max(maxX, other.maxX)
        let y0 = Swift.min(minY, other.minY), y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func intersects(_ other: Rect) -> Bool {
        let i = intersection(other)
        return !i.isNull && i.width > 0 && i.height > 0
    }

    /// Whether `point` lies inside; the top and left edges are inside, the bottom and
    /// right edges outside, as with `CGRect.contains(_:)`.
    public func contains(_ point: Point) -> Bool {
        if isNull { return false }
        return point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    public func contains(_ rect: Rect) -> Bool {
        if rect.isNull { return true }
        if isNull { return false }
        return rect.minX >= minX && rect.maxX <= maxX && rect.minY >= minY && rect.maxY <= maxY
    }

    /// The bounding box of the four corners moved by `transform` (`CGRect.applying`).
    /// `Rect.null` when a corner becomes NaN; `Rect.infinite` when the box no longer
    /// fits in finite numbers.
    public func applying(_ t: Transform) -> Rect {
        if isNull { return self }
        let corners = [
            Point(x: minX, y: minY).applying(t), Point(x: maxX, y: minY).applying(t),
            Point(x: minX, y: maxY).applying(t), Point(x: maxX, y: maxY).applying(t),
        ]
        var x0 = corners[0].x, x1 = x0, y0 = corners[0].y, y1 = y0
        for p in corners {
            if p.x.isNaN || p.y.isNaN { return .null }
            x0 = Swift.min(x0, p.x); x1 = Swift.max(x1, p.x)
            y0 = Swift.min(y0, p.y); y1 = Swift.max(y1, p.y)
        }
        if x0.isNaN || x1.isNaN || y0.isNaN || y1.isNaN { return .null }
        // Corners pushed to ±∞ cannot be an origin and a size: the rectangle is
        // then as large as a Rect can be.
        if !(x1 - x0).isFinite || !(y1 - y0).isFinite { return .infinite }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { isNull ? "Rect.null" : "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}

/// A rectangle of whole device pixels, `x0 ..< x1` by `y0 ..< y1`.
struct PixelBox: Equatable {
    var x0, y0, x1, y1: Int
    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    func intersection(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
    /// The box cut to `rows`.
    func cut(to rows: Range<Int>) -> PixelBox {
        PixelBox(x0: x0, y0: max(y0, rows.lowerBound), x1: x1, y1: min(y1, rows.upperBound))
    }
}

/// Distances in from each edge of a rectangle, in points (`UIEdgeInsets`):
/// a scroll view's content inset, a chart's margins. Each is held within
/// ±10⁷ points; NaN and infinities are 0.
public struct EdgeInsets: Sendable, Hashable {
    public var top, left, bottom, right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = Self.held(top)
        self.left = Self.held(left)
        self.bottom = Self.held(bottom)
        self.right = Self.held(right)
    }

    /// The same distance in from every edge.
    public init(all distance: Double) {
        self.init(top: distance, left: distance, bottom: distance, right: distance)
    }

    public static let zero = EdgeInsets()

    /// The sum of the left and right insets.
    public var horizontal: Double { left + right }
    /// The sum of the top and bottom insets.
    public var vertical: Double { top + bottom }

    static func held(_ v: Double) -> Double { v.isFinite ? Swift.min(1e7, Swift.max(-1e7, v)) : 0 }
}

extension Rect {
    /// The rectangle with `insets` taken off its edges (`CGRect.inset(by:)`
    /// with `UIEdgeInsets`); negative insets grow it. A rectangle inset past
    /// its size has no width (or height) left, at the middle of the two edges.
    public func inset(by insets: EdgeInsets) -> Rect {
        let r = standardized
        var x0 = r.minX + insets.left, x1 = r.maxX - insets.right
        var y0 = r.minY + insets.top, y1 = r.maxY - insets.bottom
        if x1 < x0 { (x0, x1) = ((x0 + x1) / 2, (x0 + x1) / 2) }
        if y1 < y0 { (y0, y1) = ((y0 + y1) / 2, (y0 + y1) / 2) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
