// UIKit by its own names over Strata's views, input, layers and windows:
// `import UIKit` brings Foundation, Core Graphics, Core Animation
// (QuartzCore) and Core Text's attribute names with it, as on iOS.
@_exported public import CoreGraphics
@_exported public import CoreText
@_exported public import Foundation
@_exported public import QuartzCore
@_exported public import StrataFoundation
