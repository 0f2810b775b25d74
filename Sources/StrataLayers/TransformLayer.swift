import StrataGraphics

/// A layer that does not flatten its sublayers (`CATransformLayer`).
///
/// An ordinary layer projects its sublayers into its own plane, so a rotated
/// "cube" of six face layers collapses into a flat picture of them in array
/// order. A transform layer keeps its sublayers in the 3D space of its
/// superlayer: each is placed by its own transform composed with the transform
/// layer's (and those of any transform layers between), all of them are sorted
/// back to front by the depth of their centres, and each is then drawn on its
/// own under the superlayer's `sublayerTransform` (usually the perspective:
/// `m34 = -1 / distance`). Single-sided layers (`isDoubleSided = false`) that
/// face away from the eye are culled.
///
/// A transform layer has no contents of its own: its background, contents,
/// border, corner radius, shadow, `masksToBounds` and `mask` are ignored, as in
/// Core Animation. Its `opacity` multiplies each sublayer's, one by one (there
/// is no group).
open class TransformLayer: Layer {
    public override init() {
        super.init()
        state.preservesDepth = true
    }

    public required init(layer: Layer) {
        super.init(layer: layer)
        state.preservesDepth = true
    }
}
