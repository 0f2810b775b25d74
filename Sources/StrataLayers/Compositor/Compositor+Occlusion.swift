import StrataGraphics

/// Skipping what an opaque layer hides.
///
/// Before it redraws a damaged rectangle, the compositor looks for the last
/// layer, in painting order, whose own background covers the whole
/// rectangle opaquely: an opaque, untinted background colour with square
/// corners, at full opacity all the way down from the root, through a map
/// that keeps rectangles on whole device pixels, inside its ancestors'
/// rectangular clips, and drawn straight into the frame (no group, mask or
/// 3D context on the way). Everything painted before that background cannot
/// show in the rectangle. The frame's background and those layers are
/// skipped; the layers on the way down to it still apply their clips but do
/// not paint. The cover and everything after it draw as usual, so the
/// pixels are those of a full redraw (the tests compare the two).
///
/// A list's cells are the case this is for: several cell images landing in
/// one frame damage most of the screen. Without the cull, each pixel was
/// painted four times: the frame's background, the list's, the cell's and
/// its image.
extension Compositor {
    /// The cover of device rectangle `rect` under `root`, with the nodes on
    /// the way down to it; nil when no layer covers it.
    func occluder(of rect: Rect, in root: FrameNode) -> (node: FrameNode, path: Set<ObjectIdentifier>)? {
        var best: (node: FrameNode, path: [ObjectIdentifier])?
        var path: [ObjectIdentifier] = []
        func visit(_ p: FrameNode) {
            // Only nodes inside every clip on the way are visited (below), so
            // a node whose bounds hold the rectangle shows all of it.
            guard p.extent.intersects(rect) else { return }
            let s = p.state
            // Nodes drawn other than straight into the frame, and anything
            // under less than full opacity, hold no cover.
            guard p.special?.value.preservesDepth != true, p.mask == nil, p.homography.isAffine, s.opacity >= 1,
                p.tint == nil, p.contextAlpha >= 1
            else { return }
            let groupShadow = s.shadowOpacity > 0 && s.shadowPath == nil && !isSimpleShadow(p)
            if groupShadow { return }
            let bounds = Compositor.exactDeviceRect(of: s.bounds, p.homography)
            if let bg = s.backgroundColor, bg.alpha >= 1, s.cornerRadius <= 0, !bounds.isNull,
                bounds.contains(rect)
            {
                best = (p, path)
            }
            guard !p.children.isEmpty else { return }
            if s.masksToBounds {
                // Only a rectangle on whole pixels that holds the whole
                // rectangle is followed.
                guard s.cornerRadius <= 0, !bounds.isNull, bounds.contains(rect) else { return }
            }
            path.append(ObjectIdentifier(p))
            for c in p.children { visit(c) }
            path.removeLast()
        }
        visit(root)
        return best.map { ($0.node, Set($0.path)) }
    }

    /// `r` through an axis-aligned map `h`, when it lands on whole device
    /// pixels (within a millionth); otherwise null.
    static func exactDeviceRect(of r: Rect, _ h: Homography) -> Rect {
        guard h.isAffine, h.m12 == 0, h.m21 == 0, h.m11 > 0, h.m22 > 0, !r.isNull, r.width > 0, r.height > 0 else { return .null }
        let whole = FramePass.wholePixel
        guard let a = whole(r.minX * h.m11 + h.m41), let b = whole(r.maxX * h.m11 + h.m41),
            let c = whole(r.minY * h.m22 + h.m42), let d = whole(r.maxY * h.m22 + h.m42), b > a, d > c
        else { return .null }
        return Rect(x: a, y: c, width: b - a, height: d - c)
    }
}
