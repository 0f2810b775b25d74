import StrataGraphics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Compositor {
    /// Draws a layer's own content (background, contents, special drawing,
    /// border) under a perspective transform: the content is drawn flat into a
    /// bitmap at the resolution its nearest part needs, and each covered device
    /// pixel then samples it through the inverse projective map, bilinearly,
    /// with the quad's edges anti-aliased by exact coverage. Layers turned away
    /// are skipped unless double-sided. Of a layer partly behind the eye, the
    /// part in front is drawn: the quad is cut where the projective weight w
    /// falls to a small positive value (w is linear across the layer's plane,
    /// so that is a straight line), and what is left is cut to the canvas.
    func drawProjected(_ p: FrameNode, in canvas: Canvas, origin: (Int, Int)) {
        let s = p.state
        let b = s.bounds
        guard b.width > 0, b.height > 0 else { return }
        let h = p.homography
        let corners = b.corners
        let ws = corners.map { h.map($0).w }
        guard let wMax = ws.max(), wMax > 0, wMax.isFinite else { return }
        // In front of the eye: w ≥ a small fraction of the largest w.
        let nearest = wMax * 1e-4
        let visible =
            ws.allSatisfy { $0 >= nearest }
            ? corners
            : Compositor.clip(corners, keeping: { q in h.map(q).w - nearest })
        guard visible.count >= 3 else { return }
        var device: [Point] = []
        for c in visible {
            guard let q = h.mapPoint(c), q.x.isFinite, q.y.isFinite else { return }
            device.append(Point(x: q.x - Double(origin.0), y: q.y - Double(origin.1)))
        }
        // Facing: the projected quad keeps its winding when seen from the front.
        var area = 0.0
        for i in device.indices { area += device[i].x * device[(i + 1) % device.count].y - device[(i + 1) % device.count].x * device[i].y }
        if area < 0 && !s.isDoubleSided { return }
        // Resolution: enough source pixels for the longest projected edge.
        var k = 1.0
        for i in visible.indices {
            let j = (i + 1) % visible.count
            let d = hypot(device[j].x - device[i].x, device[j].y - device[i].y)
            let side = hypot(visible[j].x - visible[i].x, visible[j].y - visible[i].y)
            if side > 1e-9 { k = max(k, d / side) }
        }
        // At most 4096 pixels a side and 4 million in all (16 MB): an edge near
        // the eye asks for far more than any screen shows.
        k = min(k, 4096 / max(b.width, b.height), (4e6 / (b.width * b.height)).squareRoot())
        // Only what can show on the canvas (a near-eye edge projects far out).
        let frame = canvas.bounds.insetBy(dx: -2, dy: -2)
        device = Compositor.clip(device, keeping: { q in q.x - frame.minX })
        device = Compositor.clip(device, keeping: { q in frame.maxX - q.x })
        device = Compositor.clip(device, keeping: { q in q.y - frame.minY })
        device = Compositor.clip(device, keeping: { q in frame.maxY - q.y })
        guard device.count >= 3 else { return }
        let sw = max(1, Int(saturating: (b.width * k).rounded(.up))), sh = max(1, Int(saturating: (b.height * k).rounded(.up)))
        guard let flat = try? Canvas(width: sw, height: sh) else { return }
        let local = FrameNode(
            node: p.node, state: s, special: p.special,
            transform: Transform3D(translationX: -b.minX, y: -b.minY).concatenating(Transform3D(scaleX: k, y: k)),
            box: .null, tint: p.tint, key: p.key)
        local.specialData = p.specialData
        drawOwn(local, in: flat, origin: (0, 0), alpha: 1, includeBorder: true)
        let source = flat.makeImage()
        // The quad's exact coverage, and the inverse map from device pixels
        // (relative to `origin`) to source pixels.
        var quad = Path()
        quad.addLines(between: device)
        quad.closeSubpath()
        let mask = CoverageMask(path: quad)
        guard mask.width > 0, mask.height > 0,
            let inverse = h.inverted()
        else { return }
        var out = [UInt8](repeating: 0, count: mask.width * mask.height * 4)
        source.pixels.withUnsafeBufferPointer { src in
            let stride = source.bytesPerRow
            for row in 0..<mask.height {
                let y = Double(mask.top + row) + 0.5 + Double(origin.1)
                for col in 0..<mask.width {
                    let cov = mask.coverage[row * mask.width + col]
                    guard cov != 0 else { continue }
                    let x = Double(mask.left + col) + 0.5 + Double(origin.0)
                    let m = inverse.map(Point(x: x, y: y))
                    guard m.w > 0 else { continue }
                    let u = (m.x / m.w - b.minX) * k - 0.5, v = (m.y / m.w - b.minY) * k - 0.5
                    let px = bilinear(src, stride, sw, sh, u, v)
                    let o = (row * mask.width + col) * 4
                    for c in 0..<4 { out[o + c] = UInt8((UInt32(px[c]) * UInt32(cov) + 127) / 255) }
                }
            }
        }
        guard let image = try? Image(width: mask.width, height: mask.height, premultipliedPixels: out) else { return }
        canvas.saveGState()
        canvas.interpolationQuality = .none
        canvas.draw(image, in: Rect(x: Double(mask.left), y: Double(mask.top), width: Double(mask.width), height: Double(mask.height)))
        canvas.restoreGState()
    }
}

extension Compositor {
    /// The part of polygon `points` where `distance` (a linear function) is at
    /// least 0 (one step of Sutherland–Hodgman clipping).
    static func clip(_ points: [Point], keeping distance: (Point) -> Double) -> [Point] {
        guard !points.isEmpty else { return [] }
        var out: [Point] = []
        var a = points[points.count - 1]
        var da = distance(a)
        for b in points {
            let db = distance(b)
            if db >= 0 {
                if da < 0 { out.append(crossing(a, da, b, db)) }
                out.append(b)
            } else if da >= 0 {
                out.append(crossing(a, da, b, db))
            }
            a = b
            da = db
        }
        return out
    }

    private static func crossing(_ a: Point, _ da: Double, _ b: Point, _ db: Double) -> Point {
        let t = da / (da - db)
        return Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}

/// A premultiplied pixel at (u, v) in pixel-centre coordinates, interpolated
/// from its four neighbours, clamped at the edges.
@inline(__always)
func bilinear(_ p: UnsafeBufferPointer<UInt8>, _ stride: Int, _ w: Int, _ h: Int, _ u: Double, _ v: Double) -> SIMD4<UInt8> {
    let uc = min(Double(w - 1), max(0, u)), vc = min(Double(h - 1), max(0, v))
    let x0 = Int(saturating: uc), y0 = Int(saturating: vc)
    let x1 = min(w - 1, x0 + 1), y1 = min(h - 1, y0 + 1)
    let fx = uc - Double(x0), fy = vc - Double(y0)
    var r = SIMD4<UInt8>()
    for c in 0..<4 {
        let a = Double(p[y0 * stride + x0 * 4 + c]), bb = Double(p[y0 * stride + x1 * 4 + c])
        let cc = Double(p[y1 * stride + x0 * 4 + c]), d = Double(p[y1 * stride + x1 * 4 + c])
        let top = a + (bb - a) * fx, bottom = cc + (d - cc) * fx
        r[c] = UInt8(min(255, max(0, (top + (bottom - top) * fy).rounded())))
    }
    return r
}
