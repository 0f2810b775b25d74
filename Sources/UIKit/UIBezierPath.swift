public import CoreGraphics
public import Foundation

/// A path with its stroke settings (`UIBezierPath`), over a `CGMutablePath`.
/// Arcs' `clockwise` is as seen on screen, y down (the opposite of
/// `CGPath`'s y-up sense, as in UIKit).
@MainActor
open class UIBezierPath {
    private var path = CGMutablePath()

    public init() {}

    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        let r = Swift.max(0, Swift.min(cornerRadius, Swift.min(abs(rect.width), abs(rect.height)) / 2))
        path.addRoundedRect(in: rect, cornerWidth: r, cornerHeight: r)
    }

    /// A rectangle with the corners in `corners` rounded by `cornerRadii`.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        self.init()
        let r = rect.standardized
        let rx = Swift.max(0, Swift.min(cornerRadii.width, r.width / 2)), ry = Swift.max(0, Swift.min(cornerRadii.height, r.height / 2))
        let k: CGFloat = 0.5523
        func corner(_ c: UIRectCorner) -> Bool { corners.contains(c) || corners.contains(.allCorners) }
        path.move(to: CGPoint(x: r.minX + (corner(.topLeft) ? rx : 0), y: r.minY))
        if corner(.topRight) {
            path.addLine(to: CGPoint(x: r.maxX - rx, y: r.minY))
            path.addCurve(
                to: CGPoint(x: r.maxX, y: r.minY + ry), control1: CGPoint(x: r.maxX - rx + rx * k, y: r.minY),
                control2: CGPoint(x: r.maxX, y: r.minY + ry - ry * k))
        } else {
            path.addLine(to: CGPoint(x: r.maxX, y: r.minY))
        }
        if corner(.bottomRight) {
            path.addLine(to: CGPoint(x: r.maxX, y: r.maxY - ry))
            path.addCurve(
                to: CGPoint(x: r.maxX - rx, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - ry + ry * k),
                control2: CGPoint(x: r.maxX - rx + rx * k, y: r.maxY))
        } else {
            path.addLine(to: CGPoint(x: r.maxX, y: r.maxY))
        }
        if corner(.bottomLeft) {
            path.addLine(to: CGPoint(x: r.minX + rx, y: r.maxY))
            path.addCurve(
                to: CGPoint(x: r.minX, y: r.maxY - ry), control1: CGPoint(x: r.minX + rx - rx * k, y: r.maxY),
                control2: CGPoint(x: r.minX, y: r.maxY - ry + ry * k))
        } else {
            path.addLine(to: CGPoint(x: r.minX, y: r.maxY))
        }
        if corner(.topLeft) {
            path.addLine(to: CGPoint(x: r.minX, y: r.minY + ry))
            path.addCurve(
                to: CGPoint(x: r.minX + rx, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + ry - ry * k),
                control2: CGPoint(x: r.minX + rx - rx * k, y: r.minY))
        }
        path.closeSubpath()
    }

    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    public convenience init(cgPath: CGPath) {
        self.init()
        path = cgPath.mutableCopy() ?? CGMutablePath()
    }

    /// The path (a copy; setting it replaces this one's).
    open var cgPath: CGPath {
        get { path.copy() ?? CGMutablePath() }
        set { path = newValue.mutableCopy() ?? CGMutablePath() }
    }

    open var lineWidth: CGFloat = 1
    open var lineCapStyle: CGLineCap = .butt
    open var lineJoinStyle: CGLineJoin = .miter
    open var miterLimit: CGFloat = 10
    open var flatness: CGFloat = 0.6
    /// Whether fills use the even-odd rule.
    open var usesEvenOddFillRule = false
    private var dash: (lengths: [CGFloat], phase: CGFloat)?

    open func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
        guard let pattern, count > 0 else {
            dash = nil
            return
        }
        dash = (Array(UnsafeBufferPointer(start: pattern, count: count)), phase)
    }

    open func move(to point: CGPoint) { path.move(to: point) }
    open func addLine(to point: CGPoint) { path.addLine(to: point) }
    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) { path.addQuadCurve(to: endPoint, control: controlPoint) }
    open func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }
    open func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }
    open func close() { path.closeSubpath() }
    open func removeAllPoints() { path = CGMutablePath() }
    open func append(_ bezierPath: UIBezierPath) { path.addPath(bezierPath.path) }
    open func apply(_ transform: CGAffineTransform) {
        let t = transform
        path = withUnsafePointer(to: t) { path.copy(using: $0)?.mutableCopy() } ?? path
    }

    open var isEmpty: Bool { path.isEmpty }
    open var bounds: CGRect { path.boundingBoxOfPath }
    open var currentPoint: CGPoint { path.currentPoint }
    open func contains(_ point: CGPoint) -> Bool { path.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding) }

    /// The same path reversed is not computed here: a copy of this one.
    open func reversing() -> UIBezierPath {
        let p = UIBezierPath(cgPath: path)
        p.copyStyle(from: self)
        return p
    }

    private func copyStyle(from other: UIBezierPath) {
        (lineWidth, lineCapStyle, lineJoinStyle, miterLimit, usesEvenOddFillRule, dash) = (
            other.lineWidth, other.lineCapStyle, other.lineJoinStyle, other.miterLimit, other.usesEvenOddFillRule, other.dash
        )
    }

    private func applyStyle(_ ctx: CGContext) {
        ctx.setLineWidth(lineWidth)
        ctx.setLineCap(lineCapStyle)
        ctx.setLineJoin(lineJoinStyle)
        ctx.setMiterLimit(miterLimit)
        ctx.setLineDash(phase: dash?.phase ?? 0, lengths: dash?.lengths ?? [])
    }

    /// Fills the path in the current context with its fill colour.
    open func fill() {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.saveGState()
        ctx.addPath(path)
        ctx.fillPath(using: usesEvenOddFillRule ? .evenOdd : .winding)
        ctx.restoreGState()
    }

    open func fill(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.saveGState()
        ctx.setBlendMode(blendMode)
        ctx.setAlpha(alpha)
        fill()
        ctx.restoreGState()
    }

    /// Strokes the path in the current context with its stroke colour and
    /// this path's line settings.
    open func stroke() {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.saveGState()
        applyStyle(ctx)
        ctx.addPath(path)
        ctx.strokePath()
        ctx.restoreGState()
    }

    open func stroke(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.saveGState()
        ctx.setBlendMode(blendMode)
        ctx.setAlpha(alpha)
        stroke()
        ctx.restoreGState()
    }

    /// Intersects the current context's clip with the path.
    open func addClip() {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.addPath(path)
        ctx.clip(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }
}

/// Corners of a rectangle (`UIRectCorner`), y down: top is the min-y side.
public struct UIRectCorner: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let topLeft = UIRectCorner(rawValue: 1 << 0)
    public static let topRight = UIRectCorner(rawValue: 1 << 1)
    public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
    public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
    public static let allCorners = UIRectCorner(rawValue: ~0)
}

/// Distances in from each edge (`UIEdgeInsets`).
public struct UIEdgeInsets: Hashable, Sendable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat
    public init() { (top, left, bottom, right) = (0, 0, 0, 0) }
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }
    public static let zero = UIEdgeInsets()
}

extension CGRect {
    /// The rectangle with `insets` taken off its edges (y down).
    public func inset(by insets: UIEdgeInsets) -> CGRect {
        CGRect(
            x: origin.x + insets.left, y: origin.y + insets.top, width: size.width - insets.left - insets.right,
            height: size.height - insets.top - insets.bottom)
    }
}
