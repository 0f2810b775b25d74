/// What fills or strokes a shape: a colour, a gradient or an image pattern.
public enum Paint: Sendable, Hashable {
    case color(Color)
    /// A linear (axial) gradient from `start` (t = 0) to `end` (t = 1), in user space.
    case linearGradient(Gradient, start: Point, end: Point, spread: GradientSpread = .pad)
    /// A two-circle gradient as `CGContext.drawRadialGradient`: t = 0 on the start
    /// circle, t = 1 on the end circle, the circles in between interpolated.
    case radialGradient(
        Gradient, startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double,
        spread: GradientSpread = .pad)
    /// An angular gradient around `center` (`CAGradientLayerType.conic`): t runs
    /// from 0 at `angle` (radians from +x toward +y) once round to 1.
    case conicGradient(Gradient, center: Point, angle: Double)
    /// An image pattern; `transform` maps image pixels to user space (identity:
    /// one image pixel per user unit, the image's corner at the origin). Beyond
    /// the image, `spread` says what is drawn: `.repeat` tiles it in both
    /// directions (the default, as `CGPattern` does), `.reflect` tiles it
    /// mirrored so neighbouring tiles meet edge to edge, and `.pad` extends its
    /// edge pixels outward. Sampled as the canvas's `interpolationQuality` says.
    case pattern(Image, transform: Transform = .identity, spread: GradientSpread = .repeat)
}
