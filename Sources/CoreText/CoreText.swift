// Core Text by its own names over Strata's text engine (HarfBuzz shaping,
// ICU line breaking, FreeType glyphs): `CTFont`, `CTLine`,
// `CTFramesetter` and `CTFrame`, with the attribute keys and paragraph
// styles Core Text and UIKit read.
@_exported public import CoreGraphics
@_exported public import Foundation
