import StrataGraphics

/// A vector device that takes text as text (a PDF page): glyphs of one
/// face with the characters they show, so a document embeds the face's
/// glyphs and a reader can select, copy and search the text. A text
/// layout drawn on a canvas over any other device is drawn as glyph
/// outlines (filled paths); colour glyphs are always drawn as images.
public protocol GlyphDevice: VectorDevice {
    /// Draws `glyphs` of `face` at `size` in `color`, each at its baseline
    /// origin in `positions` (user space); `texts` holds what each glyph
    /// shows, its cluster's characters on the first glyph of the cluster
    /// and nothing on the others.
    func drawGlyphs(
        _ glyphs: [UInt32], positions: [Point], texts: [String], face: FontFace, size: Double, color: Color, state: VectorState)
}

/// A vector device that draws text as glyph outlines but keeps the text
/// beside them (an SVG drawing), so a reader can search, select and read
/// it aloud: the canvas fills the outlines as paths, then hands the device
/// each run's characters where its glyphs are.
public protocol TextKeepingDevice: VectorDevice {
    /// Keeps `texts` (each glyph's cluster's characters on its first glyph,
    /// nothing on the others, as `GlyphDevice` has them) at their glyphs'
    /// baseline origins `positions` (user space), in `family` at `size`.
    func keepText(_ texts: [String], positions: [Point], family: String, size: Double, state: VectorState)
}
