extension Canvas {
    /// Fills the clip with a linear gradient from `start` to `end` (user space), as
    /// `CGContext.drawLinearGradient(_:start:end:options:)`: beyond the ends the
    /// end colours continue only where `options` says so. To fill a shape with a
    /// gradient, clip to it first, or call `fill(_:with:)` with a `Paint`.
    public func drawLinearGradient(_ gradient: Gradient, start: Point, end: Point, options: GradientDrawingOptions = []) {
        drawGradient(.linearGradient(gradient, start: start, end: end), options: options)
    }

    /// Fills the clip with a gradient between two circles, as
    /// `CGContext.drawRadialGradient`: t = 0 on the start circle, 1 on the end
    /// circle. Negative radii count as zero.
    public func drawRadialGradient(
        _ gradient: Gradient, startCenter: Point, startRadius: Double,
        endCenter: Point, endRadius: Double, options: GradientDrawingOptions = []
    ) {
        drawGradient(
            .radialGradient(
                gradient, startCenter: startCenter, startRadius: startRadius,
                endCenter: endCenter, endRadius: endRadius), options: options)
    }

    /// Fills the clip with an angular gradient round `center`, starting at `angle`
    /// (`CAGradientLayer`'s conic type).
    public func drawConicGradient(_ gradient: Gradient, center: Point, angle: Double) {
        drawGradient(.conicGradient(gradient, center: center, angle: angle), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
    }

    func drawGradient(_ paint: Paint, options: GradientDrawingOptions) {
        if let device {
            guard !state.clip.isEmpty else { return }
            if needsRaster(paint, device: device) {
                let v = state.vectorBox
                return drawRasterized(
                    over: Rect(x: Double(v.x0), y: Double(v.y0), width: Double(v.width), height: Double(v.height)), .gradient(paint, options))
            }
            return device.drawGradient(
                paint, extendStart: options.contains(.drawsBeforeStartLocation), extendEnd: options.contains(.drawsAfterEndLocation),
                state: vectorState)
        }
        if state.shadow != nil { return withShadow { drawGradient(paint, options: options) } }
        let c = state.clip
        guard !c.isEmpty else { return }
        let ends = (options.contains(.drawsBeforeStartLocation), options.contains(.drawsAfterEndLocation))
        withShaderBlitter(paint, alpha: state.alpha, ends: ends) { blitter in
            run(RectCoverage(x0: Double(c.x0), y0: Double(c.y0), x1: Double(c.x1), y1: Double(c.y1)), inPlace: &blitter)
        }
    }
}
