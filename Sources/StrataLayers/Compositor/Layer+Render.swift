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
        let root = standaloneRenderNode()
        guard let compositor = try? Compositor(width: w, height: h, scale: scale, backgroundColor: .clear) else { return nil }
        compositor.render(root, at: currentMediaTime)
        return compositor.frame.makeImage()
    }

    /// This layer's committed tree with the layer at the origin: its
    /// position, anchor and transform (and their animations) left out, shown
    /// even when hidden. Pending layout and display run first.
    func standaloneRenderNode() -> RenderNode {
        let node = commitNode()
        var s = node.state
        s.position = Point(x: 0, y: 0)
        s.anchorPoint = Point(x: 0, y: 0)
        s.transform = .identity
        s.isHidden = false
        return RenderNode(
            id: node.id, stateVersion: node.stateVersion, lookVersion: node.lookVersion, state: s,
            animations: node.animations.filter { !$0.affects(keyPath: "position") && !$0.affects(keyPath: "transform") },
            sublayers: node.sublayers, mask: node.mask)
    }

    /// Draws this layer and everything below it, as they look now, into
    /// `canvas` in its current user space (`CALayer.render(in:)`): the
    /// layer's bounds at the origin, its position and transform playing no
    /// part, its opacity, contents, sublayers and masks drawn. Pending
    /// layout and display run first.
    ///
    /// On a vector canvas (a PDF page, an SVG drawing) backgrounds, borders,
    /// shapes, gradients and text stay vectors and text; contents that
    /// `draw(in:)` made are drawn again by it, as vectors
    /// (`drawsVectorContents`), other contents are images; a group's
    /// opacity is a transparency layer and its mask an image mask of the
    /// mask layer's pixels. What only pixels can show (perspective,
    /// blurred shadows, particles) is an image of its area at `rasterScale`
    /// pixels a unit.
    public func render(in canvas: Canvas, rasterScale: Double = 2) {
        let scale = rasterScale.isFinite && rasterScale > 0 ? min(rasterScale, 16) : 2
        guard bounds.width.isFinite, bounds.height.isFinite, bounds.width > 0, bounds.height > 0 else { return }
        let root = standaloneRenderNode()
        // The compositor draws in its device pixels (units times `scale`),
        // placed by the canvas's transform scaled back down.
        let w = Int((bounds.width * scale).rounded(.up)), h = Int((bounds.height * scale).rounded(.up))
        guard w > 0, h > 0, w <= 1 << 20, h <= 1 << 20, let compositor = try? Compositor(width: 1, height: 1, scale: scale) else { return }
        canvas.saveGState()
        defer { canvas.restoreGState() }
        canvas.scaleBy(x: 1 / scale, y: 1 / scale)
        compositor.baseInverse = canvas.transform.inverted() ?? .identity
        compositor.baseCanvas = canvas
        if canvas.device != nil { compositor.vectorContents = vectorContentsDrawings() }
        var pass = FramePass(
            bounds: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), scale: scale, time: currentMediaTime, previousRecords: [:])
        guard let tree = pass.prepareRoot(root) else { return }
        compositor.draw(tree, in: canvas, origin: (0, 0), clip: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), alpha: 1)
    }
}

extension Layer {
    /// The drawings of the contents of the layers in this tree that draw
    /// them again on a vector canvas (`drawsVectorContents`), by layer id:
    /// called by the compositor while `render(in:)` runs, on the main actor.
    func vectorContentsDrawings() -> [Int: @Sendable (Canvas) -> Void] {
        var out: [Int: @Sendable (Canvas) -> Void] = [:]
        func visit(_ layer: Layer) {
            if layer.drawsVectorContents {
                out[layer.id] = { [weak layer] canvas in
                    // `render(in:)` composites on the main actor, right
                    // where it is called: the canvas never leaves it.
                    nonisolated(unsafe) let canvas = canvas
                    MainActor.assumeIsolated { layer?.draw(in: canvas) }
                }
            }
            for s in layer.sublayers { visit(s) }
            if let m = layer.mask { visit(m) }
        }
        visit(self)
        return out
    }
}
