import Foundation
import StrataGraphics

/// The raster scenes of `../shared/bench/SCENES.md`, generated exactly as written
/// there (same draws in the same order, same checksum), and drawn with Strata's
/// public `Canvas` API the way an application would draw them.
public enum RasterScene: String, CaseIterable, Sendable {
    case line, polygons, circles, rects, area

    /// The scenes' canvas size, 1920 × 1080.
    public static let width = 1920, height = 1080

    /// The scene's geometry, generated up front (not timed, as in SCENES.md).
    public func generate() -> SceneData {
        var data = SceneData()
        let w = Double(RasterScene.width), h = Double(RasterScene.height)
        switch self {
        case .line:
            var rng = SplitMix64(seed: 1)
            data.points = walk(&rng, 100_000, 20, w - 20, 540, 12, 40, h - 40)
        case .polygons:
            var rng = SplitMix64(seed: 2)
            for _ in 0..<1000 {
                let cx = rng.uniform() * w, cy = rng.uniform() * h
                let r = 16 + rng.uniform() * 80
                var pts: [Point] = []
                for j in 0..<8 {
                    let a = (Double(j) + rng.uniform() * 0.8) * 2 * Double.pi / 8
                    let rj = r * (0.5 + 0.5 * rng.uniform())
                    pts.append(Point(x: cx + rj * cos(a), y: cy + rj * sin(a)))
                }
                let color = Color(red8: rng.byte(), green8: rng.byte(), blue8: rng.byte(), alpha8: 128)
                data.polygons.append((pts, color))
            }
        case .circles:
            var rng = SplitMix64(seed: 3)
            for _ in 0..<10_000 {
                let cx = rng.uniform() * w, cy = rng.uniform() * h
                let r = 2 + rng.uniform() * 4
                let color = Color(red8: rng.byte(), green8: rng.byte(), blue8: rng.byte(), alpha8: 255)
                data.circles.append((Point(x: cx, y: cy), r, color))
            }
        case .rects:
            var rng = SplitMix64(seed: 4)
            for _ in 0..<10_000 {
                let x = rng.uniform() * w, y = rng.uniform() * h
                let rw = 4 + rng.uniform() * 60, rh = 4 + rng.uniform() * 60
                let color = Color(red8: rng.byte(), green8: rng.byte(), blue8: rng.byte(), alpha8: 128)
                data.rects.append((Rect(x: x, y: y, width: rw, height: rh), color))
            }
        case .area:
            var rng = SplitMix64(seed: 5)
            data.points = walk(&rng, 2_000, 0, w, 540, 30, 100, h - 100)
        }
        data.buildPaths()
        return data
    }

    private func walk(
        _ rng: inout SplitMix64, _ n: Int, _ x0: Double, _ x1: Double, _ y0: Double,
        _ step: Double, _ lo: Double, _ hi: Double
    ) -> [Point] {
        var pts: [Point] = []
        pts.reserveCapacity(n)
        var y = y0
        for i in 0..<n {
            let x = x0 + Double(i) * (x1 - x0) / Double(n - 1)
            y += (rng.uniform() - 0.5) * step
            y = min(max(y, lo), hi)
            pts.append(Point(x: x, y: y))
        }
        return pts
    }

    /// Clears `canvas` to opaque white and draws the scene.
    public func draw(_ data: SceneData, on canvas: Canvas) {
        canvas.blendMode = .normal
        canvas.fillColor = .white
        canvas.fill(canvas.bounds)
        switch self {
        case .polygons:
            // (By index: a loop over the pairs copied each path and the
            // polygon's points, retaining and releasing their storage.)
            for i in data.polygonPaths.indices {
                canvas.fillColor = data.polygonColors[i]
                canvas.fill(data.polygonPaths[i])
            }
        case .circles:
            for (c, r, color) in data.circles {
                canvas.fillColor = color
                canvas.fillEllipse(in: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
            }
        case .rects:
            for (rect, color) in data.rects {
                canvas.fillColor = color
                canvas.fill(rect)
            }
        case .line:
            let path = data.linePath
            canvas.strokeColor = Color(red8: 30, green8: 120, blue8: 220)
            canvas.strokeStyle = StrokeStyle(lineWidth: 1.5, lineCap: .butt, lineJoin: .round)
            canvas.stroke(path)
        case .area:
            let red = Color(red8: 255, green8: 59, blue8: 48)
            let line = data.linePath, area = data.areaPath
            let fade = Gradient(colors: [red.withAlphaComponent(204.0 / 255), red.withAlphaComponent(0)])
            canvas.fill(area, with: .linearGradient(fade, start: .zero, end: Point(x: 0, y: Double(RasterScene.height))))
            canvas.strokeColor = red
            canvas.strokeStyle = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round)
            canvas.stroke(line)
        }
    }
}

/// A scene's geometry and colours, as SCENES.md generates them.
public struct SceneData: Sendable {
    public var points: [Point] = []
    public var polygons: [([Point], Color)] = []
    public var circles: [(Point, Double, Color)] = []
    public var rects: [(Rect, Color)] = []
    /// The paths the scene draws, built with the geometry (the peers' harness
    /// builds its paths before timing too): the polygons, the polyline of
    /// `line` and `area`, and the closed area under it.
    public private(set) var polygonPaths: [Path] = []
    public private(set) var polygonColors: [Color] = []
    public private(set) var linePath = Path()
    public private(set) var areaPath = Path()

    mutating func buildPaths() {
        polygonPaths = polygons.map { pts, _ in
            var path = Path()
            path.addLines(between: pts)
            path.closeSubpath()
            return path
        }
        polygonColors = polygons.map { $0.1 }
        guard !points.isEmpty else { return }
        linePath = Path()
        linePath.addLines(between: points)
        areaPath = linePath
        areaPath.addLine(to: Point(x: Double(RasterScene.width), y: Double(RasterScene.height)))
        areaPath.addLine(to: Point(x: 0, y: Double(RasterScene.height)))
        areaPath.closeSubpath()
    }

    /// SCENES.md's checksum, summed in generation order.
    public var checksum: Double {
        var s = 0.0
        for p in points { s += p.x + p.y }
        for (pts, _) in polygons { for p in pts { s += p.x + p.y } }
        for (c, r, _) in circles { s += c.x + c.y + r }
        for (rect, _) in rects { s += rect.origin.x + rect.origin.y + rect.width + rect.height }
        return s
    }
}
