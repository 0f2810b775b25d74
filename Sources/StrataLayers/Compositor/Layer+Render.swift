import StrataGraphics

extension Layer {
    /// This layer and everything below it as they look now, composited into
    /// a new image of the bounds' size times `scale` (what `CALayer`'s
    /// `render(in:)` draws): in the layer's own space, so its position and
    /// transform play no part; its opacity, contents, sublayers, masks and
    /// shadows do. Pending layout and display run first, as a commit runs
    /// them. Nil when the bounds are empty, not finite or over 16384 pixels a
    /// side.
    public func renderImage(scale: Double = 1) -> Image? {
        let scale = scale.isFinite && scale > 0 ? scale : 1
        guard let (w, h) = Layer.backingSize(bounds, scale: scale) else { return nil }
        let node = commitNode()
        var s = node.state
        s.position = Point(x: 0, y: 0)
        s.anchorPoint = Point(x: 0, y: 0)
        s.transform = .identity
        s.isHidden = false
        let root = RenderNode(
            id: node.id, stateVersion: node.stateVersion, lookVersion: node.lookVersion, state: s,
            animations: node.animations.filter { !$0.affects(keyPath: "position") && !$0.affects(keyPath: "transform") },
            sublayers: node.sublayers, mask: node.mask)
        guard let compositor = try? Compositor(width: w, height: h, scale: scale, backgroundColor: .clear) else { return nil }
        compositor.render(root, at: currentMediaTime)
        return compositor.frame.makeImage()
    }
}
