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
    /// are skipped unless double-sided; layers partly behind the eye are not drawn.
    func drawProjected(_ p: Prepared, in canvas: Canvas, origin: (Int, Int)) {
        let s = p.state
        let b = s.bounds
        guard b.width > 0, b.height > 0 else { return }
        let h = p.homography
        var device: [Point] = []
        for c in b.corners {
            guard let q = h.mapPoint(c), q.x.isFinite, q.y.isFinite, abs(q.x) < 1e7, abs(q.y) < 1e7 else { return }
            device.append(Point(x: q.x - Double(origin.0), y: q.y - Double(origin.1)))
        }
        // Facing: the projected quad keeps its winding when seen from the front.
        var area = 0.0
        for i in 0..<4 { area += device[i].x * device[(i + 1) % 4].y - device[(i + 1) % 4].x * device[i].y }
        if area < 0 && !s.isDoubleSided { return }
        // Resolution: enough source pixels for the longest projected edge.
        var k = 1.0
        for i in 0..<4 {
            let d = hypot(device[(i + 1) % 4].x - device[i].x, device[(i + 1) % 4].y - device[i].y)
            let side = i % 2 == 0 ? b.width : b.height
            k = max(k, d / side)
        }
        k = min(k, 4096 / max(b.width, b.height))
        let sw = max(1, Int((b.width * k).rounded(.up))), sh = max(1, Int((b.height * k).rounded(.up)))
        guard let flat = try? Canvas(width: sw, height: sh) else { return }
        let local = Prepared(node: p.node, state: s,
                             transform: Transform3D(translationX: -b.minX, y: -b.minY).concatenating(Transform3D(scaleX: k, y: k)),
                             box: .null, tint: p.tint, key: p.key)
        drawOwn(local, in: flat, origin: (0, 0), alpha: 1, includeBorder: true)
        let source = flat.makeImage()
        // The quad's exact coverage, and the inverse map from device pixels
        // (relative to `origin`) to source pixels.
        var quad = Path()
        quad.addLines(between: device)
        quad.closeSubpath()
        let mask = CoverageMask(path: quad)
        guard mask.width > 0, mask.height > 0,
              let inverse = h.inverted() else { return }
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

/// A premultiplied pixel at (u, v) in pixel-centre coordinates, interpolated
/// from its four neighbours, clamped at the edges.
@inline(__always)
func bilinear(_ p: UnsafeBufferPointer<UInt8>, _ stride: Int, _ w: Int, _ h: Int, _ u: Double, _ v: Double) -> SIMD4<UInt8> {
    let uc = min(Double(w - 1), max(0, u)), vc = min(Double(h - 1), max(0, v))
    let x0 = Int(uc), y0 = Int(vc)
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
