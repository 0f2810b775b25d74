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

/// `path` stroked in white with `style` under `transform`, on a canvas
/// `width` × `height` drawn `scale` times larger, its stroke rasterizer
/// set up by `setUp` first.
func strokedCanvas(
    _ path: Path, _ style: StrokeStyle, _ transform: Transform, width: Int, height: Int, scale: Int,
    setUp: (StrokeRasterizer) -> Void
) -> Canvas {
    let canvas = makeCanvas(width * scale, height * scale)
    setUp(canvas.strokeRasterizer)
    canvas.strokeColor = .white
    canvas.strokeStyle = style
    canvas.concatenate(Transform(scaleX: Double(scale), y: Double(scale)))
    canvas.concatenate(transform)
    canvas.stroke(path)
    return canvas
}

/// How far two drawings' alphas, `a` and `b`, are from the truth, the same
/// drawing made `scale` times larger (`large`) and averaged down: summed
/// over `a`'s pixels, the largest at one pixel, and the most by which
/// `a`'s error passes `b`'s at one pixel.
func truthErrors(_ a: Bitmap, _ b: Bitmap, large: Bitmap, scale: Int = 8)
    -> (a: Double, b: Double, largestA: Double, largestB: Double, worse: Double)
{
    var errorA = 0.0, errorB = 0.0, largestA = 0.0, largestB = 0.0, worse = 0.0
    for y in 0..<a.height {
        for x in 0..<a.width {
            var sum = 0
            for j in 0..<scale { for i in 0..<scale { sum += Int(large[x * scale + i, y * scale + j].a) } }
            let exact = Double(sum) / Double(scale * scale)
            let ea = abs(Double(a[x, y].a) - exact), eb = abs(Double(b[x, y].a) - exact)
            errorA += ea
            errorB += eb
            largestA = max(largestA, ea)
            largestB = max(largestB, eb)
            worse = max(worse, ea - eb)
        }
    }
    return (errorA, errorB, largestA, largestB, worse)
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
