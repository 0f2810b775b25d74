/// How a drawing operation combines with the pixels already there (`CGBlendMode`).
///
/// Blending works on the stored 8-bit premultiplied values, as Core Graphics,
/// Skia and Cairo do for 8-bit targets. With source `S`, destination `D`, their
/// alphas `Sa` and `Da`, and shape coverage `c` (0...1, after anti-aliasing):
public enum BlendMode: Sendable, Hashable {
    /// Source over: `R = S·c + D·(1 − Sa·c)`.
    case normal
    /// Copy: inside the shape the source replaces the destination,
    /// `R = S·c + D·(1 − c)`; outside the shape nothing changes.
    case copy
}
