#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A resolution-independent outline made of lines and Bézier curves (`CGPath`,
/// `CGMutablePath` in one value type).
///
/// `Path` is a value with copy-on-write storage: copies are cheap, and a copy
/// never sees later changes to the original. Build it with `move(to:)`,
/// `addLine(to:)`, `addQuadCurve(to:control:)`, `addCurve(to:control1:control2:)`,
/// the arc methods and the shape helpers, then fill it on a `Canvas`.
///
/// ### Basic usage
/// ```swift
/// var path = Path()
/// path.move(to: Point(x: 10, y: 10))
/// path.addLine(to: Point(x: 90, y: 10))
/// path.addArc(tangent1End: Point(x: 90, y: 90), tangent2End: Point(x: 10, y: 90), radius: 20)
/// path.closeSubpath()
/// canvas.fill(path)
/// ```
///
/// Drawing a line or curve with no current point starts a subpath at its first
/// point instead (Core Graphics logs an error there and draws nothing). Non-finite
/// coordinates may be stored; a canvas refuses to fill a path that has any.
public struct Path: Hashable, Sendable {
    /// One drawing instruction of a path.
    public enum Element: Hashable, Sendable {
        case move(to: Point)
        case line(to: Point)
        case quadCurve(to: Point, control: Point)
        case curve(to: Point, control1: Point, control2: Point)
        case closeSubpath
    }

    @usableFromInline enum Verb: UInt8, Sendable {
        case move, line, quad, cubic, close
    }

    @usableFromInline var verbs: [Verb] = []
    @usableFromInline var points: [Point] = []
    /// The start of the open subpath, where `closeSubpath` returns to.
    @usableFromInline var subpathStart: Point? = nil
    /// True right after `closeSubpath`: the next segment needs an implicit move.
    @usableFromInline var needsMove = false

    public init() {}

    /// A path made of the given elements, in order.
    public init(elements: some Sequence<Element>) {
        for e in elements {
            switch e {
            case .move(let p): move(to: p)
            case .line(let p): addLine(to: p)
            case .quadCurve(let p, let c): addQuadCurve(to: p, control: c)
            case .curve(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
            case .closeSubpath: closeSubpath()
            }
        }
    }

    /// A closed rectangle.
    public init(rect: Rect) {
        addRect(rect)
    }

    /// An ellipse inscribed in `rect`.
    public init(ellipseIn rect: Rect) {
        addEllipse(in: rect)
    }

    /// A rectangle with rounded corners.
    public init(roundedRect rect: Rect, cornerWidth: Double, cornerHeight: Double) {
        addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight)
    }

    /// True when the path has no elements.
    public var isEmpty: Bool { verbs.isEmpty }

    /// The number of elements.
    public var elementCount: Int { verbs.count }

    /// The point where the next segment starts, or `nil` for an empty path. After
    /// `closeSubpath` it is the start of the subpath just closed.
    public var currentPoint: Point? {
        if needsMove { return subpathStart }
        return points.last
    }

    // MARK: Building

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) {
        if verbs.last == .move {
            points[points.count - 1] = point  // a move after a move replaces it
        } else {
            verbs.append(.move)
            points.append(point)
        }
        subpathStart = point
        needsMove = false
    }

    @usableFromInline mutating func ensureSubpath(_ fallback: Point) {
        if needsMove, let start = subpathStart {
            verbs.append(.move)
            points.append(start)
            needsMove = false
        } else if subpathStart == nil {
            move(to: fallback)
        }
    }

    /// Adds a straight line from the current point to `point`.
    public mutating func addLine(to point: Point) {
        ensureSubpath(point)
        verbs.append(.line)
        points.append(point)
    }

    /// Adds straight lines through `points`; the first point starts a new subpath.
    public mutating func addLines(between points: [Point]) {
        guard let first = points.first else { return }
        move(to: first)
        reserveCapacity(additionalElements: points.count - 1)
        for p in points.dropFirst() {
            verbs.append(.line)
            self.points.append(p)
        }
    }

    /// Storage for a shape of `verbs` elements and `points` points, when it
    /// is the path's first: one allocation each instead of growing through
    /// several (a rounded rectangle's path, built for every call, spent a
    /// tenth of a small fill's time there). Not otherwise: reserving exact
    /// capacities shape after shape would copy the arrays at every shape.
    @inline(__always) mutating func reserveForFirstShape(verbs v: Int, points n: Int) {
        guard verbs.isEmpty else { return }
        verbs.reserveCapacity(v)
        points.reserveCapacity(n)
    }

    /// Removes every element: the path is empty, with no current point.
    /// With `keepingCapacity`, its storage is kept for the elements that
    /// follow (a path rebuilt for every shape drawn allocates once).
    public mutating func removeAll(keepingCapacity: Bool = false) {
        verbs.removeAll(keepingCapacity: keepingCapacity)
        points.removeAll(keepingCapacity: keepingCapacity)
        subpathStart = nil
        needsMove = false
    }

    /// Makes the path the closed polygon through `vertices` (a move to the
    /// first, a line to each of the others, a close), in the storage it has.
    /// Empty for no vertices.
    mutating func setPolygon(_ vertices: UnsafeBufferPointer<Point>) {
        removeAll(keepingCapacity: true)
        guard let first = vertices.first else { return }
        verbs.reserveCapacity(vertices.count + 1)
        points.reserveCapacity(vertices.count)
        move(to: first)
        for p in vertices.dropFirst() {
            verbs.append(.line)
            points.append(p)
        }
        closeSubpath()
    }

    /// Reserves storage for `n` more elements of at most three points each.
    public mutating func reserveCapacity(additionalElements n: Int) {
        verbs.reserveCapacity(verbs.count + n)
        points.reserveCapacity(points.count + n)
    }

    /// Adds a quadratic Bézier curve from the current point to `point`.
    public mutating func addQuadCurve(to point: Point, control: Point) {
        ensureSubpath(control)
        verbs.append(.quad)
        points.append(control)
        points.append(point)
    }

    /// Adds a cubic Bézier curve from the current point to `point`.
    public mutating func addCurve(to point: Point, control1: Point, control2: Point) {
        ensureSubpath(control1)
        verbs.append(.cubic)
        points.append(control1)
        points.append(control2)
        points.append(point)
    }

    /// Closes the current subpath with a straight line back to its start. The
    /// current point becomes that start. Does nothing when there is no open
    /// subpath.
    public mutating func closeSubpath() {
        guard subpathStart != nil, !needsMove, let last = verbs.last, last != .close else { return }
        verbs.append(.close)
        needsMove = true
    }

    /// Adds a closed rectangle as a new subpath: top left, top right, bottom right,
    /// bottom left (clockwise on a y-down screen). Null rectangles add nothing.
    public mutating func addRect(_ rect: Rect) {
        guard !rect.isNull else { return }
        reserveForFirstShape(verbs: 5, points: 4)
        move(to: Point(x: rect.origin.x, y: rect.origin.y))
        addLine(to: Point(x: rect.origin.x + rect.width, y: rect.origin.y))
        addLine(to: Point(x: rect.origin.x + rect.width, y: rect.origin.y + rect.height))
        addLine(to: Point(x: rect.origin.x, y: rect.origin.y + rect.height))
        closeSubpath()
    }

    /// Adds an ellipse inscribed in `rect` as a closed subpath of four cubic curves,
    /// starting at the rightmost point and turning toward +y.
    public mutating func addEllipse(in rect: Rect) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let rx = r.width / 2, ry = r.height / 2
        let cx = r.midX, cy = r.midY
        let kx = rx * Path.kappa, ky = ry * Path.kappa
        reserveForFirstShape(verbs: 6, points: 13)
        move(to: Point(x: cx + rx, y: cy))
        addCurve(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + ky), control2: Point(x: cx + kx, y: cy + ry))
        addCurve(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - kx, y: cy + ry), control2: Point(x: cx - rx, y: cy + ky))
        addCurve(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - ky), control2: Point(x: cx - kx, y: cy - ry))
        addCurve(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + kx, y: cy - ry), control2: Point(x: cx + rx, y: cy - ky))
        closeSubpath()
    }

    /// Adds a rectangle with elliptical corners of radii `cornerWidth` and
    /// `cornerHeight`. Radii larger than half the side are reduced to half the
    /// side; negative radii count as zero.
    public mutating func addRoundedRect(in rect: Rect, cornerWidth: Double, cornerHeight: Double) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let rx = Swift.min(Swift.max(cornerWidth, 0), r.width / 2)
        let ry = Swift.min(Swift.max(cornerHeight, 0), r.height / 2)
        guard rx > 0, ry > 0 else { addRect(r); return }
        let kx = rx * Path.kappa, ky = ry * Path.kappa
        let x0 = r.minX, x1 = r.maxX, y0 = r.minY, y1 = r.maxY
        reserveForFirstShape(verbs: 10, points: 17)
        move(to: Point(x: x0 + rx, y: y0))
        addLine(to: Point(x: x1 - rx, y: y0))
        addCurve(to: Point(x: x1, y: y0 + ry), control1: Point(x: x1 - rx + kx, y: y0), control2: Point(x: x1, y: y0 + ry - ky))
        addLine(to: Point(x: x1, y: y1 - ry))
        addCurve(to: Point(x: x1 - rx, y: y1), control1: Point(x: x1, y: y1 - ry + ky), control2: Point(x: x1 - rx + kx, y: y1))
        addLine(to: Point(x: x0 + rx, y: y1))
        addCurve(to: Point(x: x0, y: y1 - ry), control1: Point(x: x0 + rx - kx, y: y1), control2: Point(x: x0, y: y1 - ry + ky))
        addLine(to: Point(x: x0, y: y0 + ry))
        addCurve(to: Point(x: x0 + rx, y: y0), control1: Point(x: x0, y: y0 + ry - ky), control2: Point(x: x0 + rx - kx, y: y0))
        closeSubpath()
    }

    /// Adds the path `other`, optionally transformed, after this path's elements.
    public mutating func addPath(_ other: Path, transform: Transform = .identity) {
        for e in other.elements {
            switch e {
            case .move(let p): move(to: p.applying(transform))
            case .line(let p): addLine(to: p.applying(transform))
            case .quadCurve(let p, let c): addQuadCurve(to: p.applying(transform), control: c.applying(transform))
            case .curve(let p, let c1, let c2):
                addCurve(to: p.applying(transform), control1: c1.applying(transform), control2: c2.applying(transform))
            case .closeSubpath: closeSubpath()
            }
        }
    }

    // MARK: Reading

    /// Calls `body` with each element in order.
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        var i = 0
        for v in verbs {
            switch v {
            case .move: try body(.move(to: points[i])); i += 1
            case .line: try body(.line(to: points[i])); i += 1
            case .quad: try body(.quadCurve(to: points[i + 1], control: points[i])); i += 2
            case .cubic: try body(.curve(to: points[i + 2], control1: points[i], control2: points[i + 1])); i += 3
            case .close: try body(.closeSubpath)
            }
        }
    }

    /// The elements in order.
    public var elements: [Element] {
        var out: [Element] = []
        out.reserveCapacity(verbs.count)
        forEach { out.append($0) }
        return out
    }

    /// The smallest rectangle holding every point of the path, control points
    /// included (`CGPath.boundingBox`). `Rect.null` for an empty path.
    public var boundingBox: Rect {
        guard var x0 = points.first?.x, var y0 = points.first?.y else { return .null }
        var x1 = x0, y1 = y0
        for p in points {
            x0 = Swift.min(x0, p.x); x1 = Swift.max(x1, p.x)
            y0 = Swift.min(y0, p.y); y1 = Swift.max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding the path as drawn, without control points
    /// that lie off the curves (`CGPath.boundingBoxOfPath`). `Rect.null` for an
    /// empty path.
    public var boundingBoxOfPath: Rect {
        guard let first = points.first else { return .null }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
        func include(_ p: Point) {
            x0 = Swift.min(x0, p.x); x1 = Swift.max(x1, p.x)
            y0 = Swift.min(y0, p.y); y1 = Swift.max(y1, p.y)
        }
        var last = first
        forEach { e in
            switch e {
            case .move(let p), .line(let p):
                include(p); last = p
            case .quadCurve(let p, let c):
                include(p)
                for t in Bezier.quadExtrema(last, c, p) { include(Bezier.quadPoint(last, c, p, t)) }
                last = p
            case .curve(let p, let c1, let c2):
                include(p)
                for t in Bezier.cubicExtrema(last, c1, c2, p) { include(Bezier.cubicPoint(last, c1, c2, p, t)) }
                last = p
            case .closeSubpath:
                break
            }
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Transforming

    /// Moves every point of the path by `transform`.
    public mutating func apply(_ transform: Transform) {
        for i in points.indices { points[i] = points[i].applying(transform) }
        if let s = subpathStart { subpathStart = s.applying(transform) }
    }

    /// The path with every point moved by `transform`.
    public func applying(_ transform: Transform) -> Path {
        var copy = self
        copy.apply(transform)
        return copy
    }

    /// The path with every curve replaced by straight lines that stay within
    /// `tolerance` of it (see `flatten(transform:tolerance:into:)`).
    public func flattened(tolerance: Double = 0.25) -> Path {
        var sink = PathFlatteningSink()
        flatten(transform: .identity, tolerance: tolerance, into: &sink)
        return sink.path
    }

    static let kappa = 0.5522847498307936  // 4/3·(√2 − 1): a quarter circle as a cubic
}

private struct PathFlatteningSink: FlatteningSink {
    var path = Path()
    mutating func move(to p: Point) { path.move(to: p) }
    mutating func line(to p: Point) { path.addLine(to: p) }
    mutating func close() { path.closeSubpath() }
}

/// How overlapping subpaths combine (`CGPathFillRule`).
public enum FillRule: Sendable, Hashable {
    /// Non-zero winding: a point is inside when the path winds around it at all.
    case winding
    /// Even-odd: a point is inside when a ray from it crosses the path an odd
    /// number of times.
    case evenOdd
}
