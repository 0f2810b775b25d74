package import StrataGraphics

/// An immutable path, with Core Graphics' reference semantics: a
/// `CGMutablePath` is a `CGPath` that can still be added to, and `copy()`
/// makes an immutable one.
public class CGPath: Equatable, @unchecked Sendable {
    // Safe to send: a CGPath's `path` never changes after it is made; only
    // the subclass `CGMutablePath` changes it, and Core Graphics' rule (a
    // mutable path belongs to one thread) is the caller's, as on Apple's
    // platforms.
    package var path: StrataGraphics.Path

    package init(_ path: StrataGraphics.Path) { self.path = path }

    /// A rectangle, its corners moved by `transform`.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(StrataGraphics.Path(rect: rect.strata).applying(transform?.pointee.strata ?? .identity))
    }

    /// The ellipse inside `rect`.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(StrataGraphics.Path(ellipseIn: rect.strata).applying(transform?.pointee.strata ?? .identity))
    }

    /// A rectangle with elliptical corners.
    public convenience init(
        roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: UnsafePointer<CGAffineTransform>?
    ) {
        self.init(
            StrataGraphics.Path(roundedRect: rect.strata, cornerWidth: Double(cornerWidth), cornerHeight: Double(cornerHeight))
                .applying(transform?.pointee.strata ?? .identity))
    }

    public var isEmpty: Bool { path.isEmpty }

    /// The end of the last element (`.zero` for an empty path).
    public var currentPoint: CGPoint { path.currentPoint.map(CGPoint.init) ?? .zero }

    /// The box of every point, control points included (`.null` when empty).
    public var boundingBox: CGRect { path.isEmpty ? .null : CGRect(path.boundingBox) }

    /// The box of the drawn curve alone (`.null` when empty).
    public var boundingBoxOfPath: CGRect { path.isEmpty ? .null : CGRect(path.boundingBoxOfPath) }

    /// Whether `point` is inside under `rule`, after `transform`.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        path.applying(transform.strata).contains(point.strata, rule: rule.strata)
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(path) }

    /// A copy moved by `transform`.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        CGPath(path.applying(transform?.pointee.strata ?? .identity))
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(path) }

    public static func == (l: CGPath, r: CGPath) -> Bool { l.path == r.path }
}

/// A path being built.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    // Safe to send under Core Graphics' rule: one thread changes a mutable
    // path at a time (see `CGPath`).

    public convenience init() { self.init(StrataGraphics.Path()) }

    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        path.move(to: point.applying(transform).strata)
    }

    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        path.addLine(to: point.applying(transform).strata)
    }

    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        path.addLines(between: points.map { $0.applying(transform).strata })
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        path.addQuadCurve(to: end.applying(transform).strata, control: control.applying(transform).strata)
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        path.addCurve(
            to: end.applying(transform).strata, control1: control1.applying(transform).strata,
            control2: control2.applying(transform).strata)
    }

    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        path.addPath(StrataGraphics.Path(rect: rect.strata), transform: transform.strata)
    }

    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        path.addPath(StrataGraphics.Path(ellipseIn: rect.strata), transform: transform.strata)
    }

    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        path.addPath(
            StrataGraphics.Path(roundedRect: rect.strata, cornerWidth: Double(cornerWidth), cornerHeight: Double(cornerHeight)),
            transform: transform.strata)
    }

    /// An arc of the circle about `center`, from `startAngle` to `endAngle`
    /// (radians), `clockwise` as Core Graphics means it in its y-up space.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
        transform: CGAffineTransform = .identity
    ) {
        var arc = StrataGraphics.Path()
        if let p = path.currentPoint { arc.move(to: p) }
        arc.addArc(
            center: center.strata, radius: Double(radius), startAngle: Double(startAngle), endAngle: Double(endAngle),
            clockwise: clockwise)
        append(arc, transform: transform, joining: path.currentPoint != nil)
    }

    /// An arc of `radius` tangent to the lines from the current point to
    /// `tangent1End` and from there to `tangent2End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity) {
        path.addArc(
            tangent1End: tangent1End.applying(transform).strata, tangent2End: tangent2End.applying(transform).strata,
            radius: Double(radius))
    }

    /// An arc from `startAngle` turning by `delta` radians.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat, transform: CGAffineTransform = .identity) {
        var arc = StrataGraphics.Path()
        if let p = path.currentPoint { arc.move(to: p) }
        arc.addRelativeArc(center: center.strata, radius: Double(radius), startAngle: Double(startAngle), delta: Double(delta))
        append(arc, transform: transform, joining: path.currentPoint != nil)
    }

    public func addPath(_ other: CGPath, transform: CGAffineTransform = .identity) {
        path.addPath(other.path, transform: transform.strata)
    }

    public func closeSubpath() { path.closeSubpath() }

    /// Appends `piece` (whose first point repeats the current point when
    /// `joining`), moved by `transform`, so that it continues the subpath.
    private func append(_ piece: StrataGraphics.Path, transform: CGAffineTransform, joining: Bool) {
        let moved = piece.applying(transform.strata)
        var first = true
        moved.forEach { element in
            defer { first = false }
            switch element {
            case .move(let p): if !(first && joining) { path.move(to: p) }
            case .line(let p): path.addLine(to: p)
            case .quadCurve(let p, let c): path.addQuadCurve(to: p, control: c)
            case .curve(let p, let c1, let c2): path.addCurve(to: p, control1: c1, control2: c2)
            case .closeSubpath: path.closeSubpath()
            }
        }
    }
}
