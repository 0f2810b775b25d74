import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// The folder of committed fixtures beside this file.
let resourcesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Resources").path

func resource(_ name: String) -> String { "\(resourcesPath)/\(name)" }

/// A canvas of the given size cleared to transparent black.
func makeCanvas(_ width: Int, _ height: Int) -> Canvas {
    try! Canvas(width: width, height: height)
}

/// Sum of the alpha channel over the whole bitmap, in units of one full pixel.
func coveredArea(_ bitmap: Bitmap) -> Double {
    var sum = 0
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width { sum += Int(bitmap[x, y].a) }
    }
    return Double(sum) / 255
}

/// Every pixel's alpha, row by row.
func alphas(_ bitmap: Bitmap) -> [[UInt8]] {
    (0..<bitmap.height).map { y in (0..<bitmap.width).map { x in bitmap[x, y].a } }
}

/// Checks `image` against the committed reference PNG `name` in Resources
/// (Skia's drawings: never rewritten), as `expectImage(_:matches:…)`.
func expectMatches(
    _ image: Image, reference name: String, mean: Double, over8: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try expectImage(image, matches: resource(name), mean: mean, over8: over8, sourceLocation: sourceLocation)
}
