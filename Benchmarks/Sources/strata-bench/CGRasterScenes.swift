import CoreGraphics
import StrataGraphics
import StrataTestSupport

/// The raster scenes drawn through `CGContext`, as iOS code would draw them:
/// a context with UIKit's flip (y down, as the scenes' coordinates are),
/// colours and paths made before timing (the peers' harness builds its
/// paths first too), each shape drawn with Core Graphics calls.
struct CGSceneData {
    var polygons: [(CGPath, CGColor)] = []
    var circles: [(CGRect, CGColor)] = []
    var rects: [(CGRect, CGColor)] = []
    var line = CGMutablePath()
    var area = CGMutablePath()

    init(_ data: SceneData) {
        func color(_ c: Color) -> CGColor { CGColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha) }
        for (points, c) in data.polygons {
            let path = CGMutablePath()
            path.addLines(between: points.map { CGPoint(x: $0.x, y: $0.y) })
            path.closeSubpath()
            polygons.append((path, color(c)))
        }
        circles = data.circles.map { center, r, c in (CGRect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r), color(c)) }
        rects = data.rects.map { r, c in (CGRect(x: r.minX, y: r.minY, width: r.width, height: r.height), color(c)) }
        guard !data.points.isEmpty else { return }
        line.addLines(between: data.points.map { CGPoint(x: $0.x, y: $0.y) })
        area.addPath(line)
        area.addLine(to: CGPoint(x: RasterScene.width, y: RasterScene.height))
        area.addLine(to: CGPoint(x: 0, y: RasterScene.height))
        area.closeSubpath()
    }
}

extension RasterScene {
    /// A context for the scenes: 1920 × 1080, y down as UIKit's.
    static func makeCGContext() -> CGContext? {
        guard
            let c = CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        c.translateBy(x: 0, y: CGFloat(height))
        c.scaleBy(x: 1, y: -1)
        return c
    }

    /// Clears `context` to opaque white and draws the scene with Core
    /// Graphics calls.
    func draw(_ data: CGSceneData, on context: CGContext) {
        context.setBlendMode(.normal)
        context.setFillColor(gray: 1, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: RasterScene.width, height: RasterScene.height))
        switch self {
        case .polygons:
            // By index, as the native scene does: a loop over the pairs
            // retained and released each colour and path.
            for i in data.polygons.indices {
                context.setFillColor(data.polygons[i].1)
                context.addPath(data.polygons[i].0)
                context.fillPath()
            }
        case .circles:
            for i in data.circles.indices {
                context.setFillColor(data.circles[i].1)
                context.fillEllipse(in: data.circles[i].0)
            }
        case .rects:
            for i in data.rects.indices {
                context.setFillColor(data.rects[i].1)
                context.fill(data.rects[i].0)
            }
        case .line:
            context.setStrokeColor(red: 30 / 255, green: 120 / 255, blue: 220 / 255, alpha: 1)
            context.setLineWidth(1.5)
            context.setLineCap(.butt)
            context.setLineJoin(.round)
            context.addPath(data.line)
            context.strokePath()
        case .area:
            let red = (r: CGFloat(1), g: CGFloat(59) / 255, b: CGFloat(48) / 255)
            context.saveGState()
            context.addPath(data.area)
            context.clip()
            let fade = CGGradient(
                colorsSpace: CGColorSpaceCreateDeviceRGB(),
                colors: [CGColor(red: red.r, green: red.g, blue: red.b, alpha: 204 / 255), CGColor(red: red.r, green: red.g, blue: red.b, alpha: 0)],
                locations: [0, 1])!
            context.drawLinearGradient(fade, start: .zero, end: CGPoint(x: 0, y: RasterScene.height), options: [])
            context.restoreGState()
            context.setStrokeColor(red: red.r, green: red.g, blue: red.b, alpha: 1)
            context.setLineWidth(3)
            context.setLineCap(.round)
            context.setLineJoin(.round)
            context.addPath(data.line)
            context.strokePath()
        }
    }
}
