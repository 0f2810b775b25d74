internal import StrataGraphics

/// What an element of a path does.
public enum CGPathElementType: Int32, Sendable {
    /// Starts a subpath at `points[0]`.
    case moveToPoint = 0
    /// A line to `points[0]`.
    case addLineToPoint
    /// A quadratic curve to `points[1]`, controlled by `points[0]`.
    case addQuadCurveToPoint
    /// A cubic curve to `points[2]`, controlled by `points[0]` and `points[1]`.
    case addCurveToPoint
    /// Closes the subpath.
    case closeSubpath
}

/// One element of a path, as `CGPath.applyWithBlock` hands it over: its
/// type and its points (one, two or three; none for `closeSubpath`), valid
/// during the call only.
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>

    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

/// The function `CGPath.apply(info:function:)` calls with each element.
public typealias CGPathApplierFunction = (UnsafeMutableRawPointer?, UnsafePointer<CGPathElement>) -> Void

extension CGPath {
    /// Calls `block` with each element in order.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { points.deallocate() }
        points.initialize(repeating: .zero, count: 3)
        path.forEach { element in
            let type: CGPathElementType
            switch element {
            case .move(let p):
                points[0] = CGPoint(p)
                type = .moveToPoint
            case .line(let p):
                points[0] = CGPoint(p)
                type = .addLineToPoint
            case .quadCurve(let p, let c):
                points[0] = CGPoint(c)
                points[1] = CGPoint(p)
                type = .addQuadCurveToPoint
            case .curve(let p, let c1, let c2):
                points[0] = CGPoint(c1)
                points[1] = CGPoint(c2)
                points[2] = CGPoint(p)
                type = .addCurveToPoint
            case .closeSubpath:
                type = .closeSubpath
            }
            var e = CGPathElement(type: type, points: points)
            withUnsafePointer(to: &e) { block($0) }
        }
    }

    /// Calls `function` with `info` and each element in order.
    public func apply(info: UnsafeMutableRawPointer?, function: CGPathApplierFunction) {
        applyWithBlock { function(info, $0) }
    }
}

extension CGPoint {
    /// Whether the two points are the same (`==`).
    public func equalTo(_ other: CGPoint) -> Bool { self == other }
}

extension CGSize {
    /// Whether the two sizes are the same (`==`).
    public func equalTo(_ other: CGSize) -> Bool { self == other }
}

extension CGRect {
    /// Whether the two rectangles are the same (`==`).
    public func equalTo(_ other: CGRect) -> Bool { self == other }
}
