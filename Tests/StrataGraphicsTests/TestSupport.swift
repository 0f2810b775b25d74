import Foundation
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

/// How two images differ on RGB, as ../shared/bench/compare.py measures it.
struct ImageDifference {
    var mean: Double
    var over8Percent: Double
    var max: Int
}

func difference(_ a: Image, _ b: Image) -> ImageDifference? {
    guard a.width == b.width, a.height == b.height else { return nil }
    var total = 0, over = 0, largest = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a[x, y].straightBytes, q = b[x, y].straightBytes
            let d = (abs(Int(p.0) - Int(q.0)), abs(Int(p.1) - Int(q.1)), abs(Int(p.2) - Int(q.2)))
            total += d.0 + d.1 + d.2
            let m = Swift.max(d.0, d.1, d.2)
            if m > 8 { over += 1 }
            largest = Swift.max(largest, m)
        }
    }
    let n = Double(a.width * a.height)
    return ImageDifference(mean: Double(total) / (3 * n), over8Percent: Double(over) / n * 100, max: largest)
}

extension Pixel {
    /// The straight 8-bit colour, as a PNG stores it.
    var straightBytes: (UInt8, UInt8, UInt8) {
        guard a > 0, a < 255 else { return (r, g, b) }
        func un(_ c: UInt8) -> UInt8 { UInt8(Swift.min(255, (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a))) }
        return (un(r), un(g), un(b))
    }
}

/// Checks `image` against the committed PNG `name`: mean difference at most
/// `mean` and at most `over8` percent of pixels differing by more than 8. On
/// failure the actual image and a difference image are written to the temporary
/// folder and named in the failure.
func expectMatches(_ image: Image, reference name: String, mean: Double, over8: Double,
                   sourceLocation: SourceLocation = #_sourceLocation) throws {
    let reference = try Image(contentsOfPNGFile: resource(name))
    guard let d = difference(image, reference) else {
        Issue.record("size \(image.width) × \(image.height) differs from \(name)", sourceLocation: sourceLocation)
        return
    }
    if d.mean > mean || d.over8Percent > over8 {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-test-failures").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let actual = "\(dir)/actual-\(name)", diff = "\(dir)/diff-\(name)"
        try? image.writePNG(to: actual)
        let canvas = makeCanvas(image.width, image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y].straightBytes, q = reference[x, y].straightBytes
                let m = Swift.max(abs(Int(p.0) - Int(q.0)), abs(Int(p.1) - Int(q.1)), abs(Int(p.2) - Int(q.2)))
                let v = UInt8(Swift.min(255, m * 4))
                canvas.bitmap[x, y] = Pixel(r: v, g: v, b: v, a: 255)
            }
        }
        try? canvas.makeImage().writePNG(to: diff)
        Issue.record(
            "\(name): mean \(d.mean) (limit \(mean)), over 8: \(d.over8Percent) % (limit \(over8)), max \(d.max); wrote \(actual) and \(diff)",
            sourceLocation: sourceLocation)
    }
}
