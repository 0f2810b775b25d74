extension Canvas {
    /// Intersects the clip with `rect`, given in user space (`clip(to:)`).
    ///
    /// A rectangle that lands on whole device pixels (no rotation or shear, integer
    /// edges after the transform) only narrows the clip box: the fast path, with
    /// nothing to mask. Any other rectangle clips exactly, with anti-aliased edges,
    /// as a path. A rectangle with a NaN coordinate clips everything away.
    public func clip(to rect: Rect) {
        guard !rect.isNull, !(rect.origin.x.isNaN || rect.origin.y.isNaN || rect.width.isNaN || rect.height.isNaN) else {
            clipEverything()
            return
        }
        if state.transform.isRectilinear {
            guard let (x0, y0, x1, y1) = deviceEdges(rect) else {
                clipEverything()
                return
            }
            func whole(_ v: Double) -> Bool { !v.isFinite || v == v.rounded() }
            if whole(x0) && whole(x1) && whole(y0) && whole(y1) {
                // The box only shrinks, and a mask always covers the box it came with.
                state.clip = state.clip.intersection(Canvas.pixelBox(x0, y0, x1, y1, within: state.clip))
                if state.clip.isEmpty { clipEverything() }
                return
            }
        }
        clip(to: Path(rect: rect))
    }

    /// Intersects the clip with the inside of `path` under `rule` (`clip(using:)`
    /// after `addPath`), with anti-aliased edges. Open subpaths are closed. A path
    /// that is empty or has a NaN or infinite point clips everything away, as an
    /// empty path does in Core Graphics.
    public func clip(to path: Path, rule: FillRule = .winding) {
        guard !state.clip.isEmpty, !path.isEmpty else {
            clipEverything()
            return
        }
        let t = state.transform
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for p in path.points {
            let x = t.a * p.x + t.c * p.y + t.tx, y = t.b * p.x + t.d * p.y + t.ty
            guard x.isFinite, y.isFinite else {
                clipEverything()
                return
            }
            x0 = min(x0, x); x1 = max(x1, x)
            y0 = min(y0, y); y1 = max(y1, y)
        }
        let area = Canvas.pixelBox(x0.rounded(.down), y0.rounded(.down), x1.rounded(.up), y1.rounded(.up), within: state.clip)
        guard !area.isEmpty else {
            clipEverything()
            return
        }
        let mask = ClipMask(box: area)
        var writer = MaskWriter(mask: mask, previous: state.clipMask)
        fillPath(path, rule, area, &writer)
        state.clip = area
        state.clipMask = mask
    }

    /// The coverage, 0...255, that the current clip lets through at device pixel
    /// (x, y): 255 inside, 0 outside, in between on anti-aliased edges.
    public func clipCoverage(x: Int, y: Int) -> UInt8 {
        let c = state.clip
        guard x >= c.x0, x < c.x1, y >= c.y0, y < c.y1 else { return 0 }
        return state.clipMask?.value(x: x, y: y) ?? 255
    }

    private func clipEverything() {
        state.clip = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)
        state.clipMask = nil
    }
}
