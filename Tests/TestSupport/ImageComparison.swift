import Foundation
import StrataGraphics
import Testing

/// How two images differ on RGB, as ../shared/bench/compare.py measures it:
/// the mean absolute difference of the straight 8-bit channels, the share of
/// pixels whose largest channel difference is over 8, and that largest
/// difference.
public struct ImageDifference: Sendable, CustomStringConvertible {
    public var mean: Double
    public var over8Percent: Double
    public var max: Int

    public var description: String { "mean \(mean), over 8: \(over8Percent) %, max \(max)" }
}

/// The difference between `a` and `b`, or nil when their sizes differ.
public func difference(_ a: Image, _ b: Image) -> ImageDifference? {
    guard a.width == b.width, a.height == b.height else { return nil }
    var total = 0, over = 0, largest = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let m = channelDifferences(a[x, y], b[x, y])
            total += m.sum
            if m.max > 8 { over += 1 }
            largest = Swift.max(largest, m.max)
        }
    }
    let n = Double(Swift.max(1, a.width * a.height))
    return ImageDifference(mean: Double(total) / (3 * n), over8Percent: Double(over) / n * 100, max: largest)
}

/// The sum and the largest of the straight RGB differences of two pixels.
func channelDifferences(_ p: Pixel, _ q: Pixel) -> (sum: Int, max: Int) {
    let a = p.straightBytes, b = q.straightBytes
    let d = (abs(Int(a.0) - Int(b.0)), abs(Int(a.1) - Int(b.1)), abs(Int(a.2) - Int(b.2)))
    return (d.0 + d.1 + d.2, Swift.max(d.0, d.1, d.2))
}

extension Pixel {
    /// The straight 8-bit colour, as a PNG stores it.
    public var straightBytes: (UInt8, UInt8, UInt8) {
        guard a > 0, a < 255 else { return (r, g, b) }
        func un(_ c: UInt8) -> UInt8 { UInt8(Swift.min(255, (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a))) }
        return (un(r), un(g), un(b))
    }
}

/// Where failed comparisons write their images.
public let failureImageFolder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-test-failures").path

/// Checks `image` against the PNG at `reference` (another engine's output,
/// never rewritten): mean difference at most `mean`, and at most `over8`
/// percent of pixels differing by more than 8. On failure the actual image
/// and a difference image (4 × the largest channel difference, in grey) are
/// written to `failureImageFolder` and named in the failure.
public func expectImage(
    _ image: Image, matches reference: String, mean: Double, over8: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let expected = try Image(contentsOfPNGFile: reference)
    let name = URL(fileURLWithPath: reference).lastPathComponent
    guard let d = difference(image, expected) else {
        Issue.record(
            "size \(image.width) × \(image.height) differs from \(name)'s \(expected.width) × \(expected.height)",
            sourceLocation: sourceLocation)
        return
    }
    guard d.mean > mean || d.over8Percent > over8 else { return }
    try? FileManager.default.createDirectory(atPath: failureImageFolder, withIntermediateDirectories: true)
    let actual = "\(failureImageFolder)/actual-\(name)", diff = "\(failureImageFolder)/diff-\(name)"
    try? image.writePNG(to: actual)
    if let bitmap = try? Bitmap(width: image.width, height: image.height) {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let v = UInt8(Swift.min(255, channelDifferences(image[x, y], expected[x, y]).max * 4))
                bitmap[x, y] = Pixel(r: v, g: v, b: v, a: 255)
            }
        }
        try? bitmap.makeImage().writePNG(to: diff)
    }
    Issue.record(
        "\(name): \(d) (limits: mean \(mean), over 8 \(over8) %); wrote \(actual) and \(diff)",
        sourceLocation: sourceLocation)
}

/// Whether the tests write their golden images instead of checking them:
/// set `STRATA_WRITE_GOLDENS=1` after a deliberate change in what is drawn,
/// look at the new images, and commit them.
public var writesGoldens: Bool { ProcessInfo.processInfo.environment["STRATA_WRITE_GOLDENS"] == "1" }

/// Checks `image` against Strata's own golden PNG at `golden`, as
/// `expectImage(_:matches:mean:over8:)`; with `STRATA_WRITE_GOLDENS=1` writes
/// it there instead (and says so in the test's output).
public func expectImage(
    _ image: Image, matchesGolden golden: String, mean: Double, over8: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    if writesGoldens {
        try image.writePNG(to: golden)
        print("wrote golden \(golden)")
        return
    }
    try expectImage(image, matches: golden, mean: mean, over8: over8, sourceLocation: sourceLocation)
}

/// The gallery's tolerance against its goldens: a mean difference of at most
/// 0.5 of 255, and at most 0.5 % of pixels off by more than 8 (the same
/// drawing on another processor's kernels, or another build of a font).
public let galleryTolerance = (mean: 0.5, over8: 0.5)

/// A new empty folder in the temporary directory, for a gallery to write into.
public func temporaryFolder(_ prefix: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
