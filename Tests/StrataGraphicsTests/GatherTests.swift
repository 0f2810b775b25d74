import CPixels
import Foundation
import Testing

@testable import StrataGraphics

/// Where the kernels gather their table entries and image pixels
/// (`strata_gathers`: Intel's processors with AVX-512 FP16), the pictures
/// are those of the kernels loading them one by one, byte for byte: every
/// gradient and pattern, in shapes and rectangles of every width across
/// the sixteen-pixel steps, at full and partial coverage, opaque,
/// translucent and transparent. (Where the processor has AVX-512, both
/// ways are drawn whichever it uses; else there is only one way.)
@Suite(.serialized) struct GatherTests {
    /// A scene of `paint`'s fills and strokes, the shapes' widths 1 to 40
    /// and two wider, aligned, between pixels, rotated and faded.
    func scene(_ paint: Paint, quality: InterpolationQuality) throws -> Image {
        let canvas = makeCanvas(160, 220)
        canvas.fillColor = Color(red: 0.3, green: 0.6, blue: 0.2, alpha: 0.7)
        canvas.fill(Rect(x: 0, y: 0, width: 160, height: 110))
        canvas.interpolationQuality = quality
        canvas.strokeStyle = StrokeStyle(lineWidth: 2.5)
        for w in 1...40 {
            let x = Double((w - 1) % 4) * 40, y = Double((w - 1) / 4) * 11
            canvas.fill(Rect(x: x + 0.5 * Double(w % 2), y: y, width: Double(w), height: 5 + 0.25 * Double(w % 3)), with: paint)
            canvas.fill(Rect(x: x, y: y + 6, width: Double(w), height: 4), with: paint)
        }
        canvas.fill(Rect(x: 2, y: 112, width: 157, height: 30), with: paint)
        canvas.fill(polygon: [Point(x: 3, y: 145), Point(x: 150, y: 150), Point(x: 40, y: 215)], with: paint)
        canvas.stroke(polygon: [Point(x: 80, y: 150), Point(x: 155, y: 210), Point(x: 60, y: 200)], with: paint)
        canvas.saveGState()
        canvas.alpha = 0.6
        canvas.concatenate(Transform(a: 0.9, b: 0.35, c: -0.35, d: 0.9, tx: 70, ty: 100))
        canvas.fill(roundedRect: Rect(x: 0, y: 0, width: 60, height: 45), cornerWidth: 9, cornerHeight: 9, with: paint)
        canvas.restoreGState()
        return canvas.makeImage()
    }

    static let gradient = Gradient(stops: [
        .init(color: Color(red: 0.9, green: 0.1, blue: 0.3, alpha: 0.8), location: 0),
        .init(color: Color(red: 0.1, green: 0.2, blue: 0.9), location: 0.4),  // opaque
        .init(color: Color(red: 0.2, green: 0.9, blue: 0.1), location: 0.6),
        .init(color: Color(red: 0, green: 0, blue: 0, alpha: 0), location: 1),  // transparent
    ])

    /// A 12 × 10 image: opaque, translucent and clear pixels.
    static func image() throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<10 {
            for x in 0..<12 {
                let a: UInt8 = (x + y) % 5 == 0 ? 0 : (x + y) % 3 == 0 ? 120 : 255
                bytes += [UInt8(x * 21) & a, UInt8(y * 25) & a, 90 & a, a]
            }
        }
        return try Image(width: 12, height: 10, premultipliedPixels: bytes)
    }

    @Test func gatheredLookupsDrawWhatLoadsDraw() throws {
        guard SolidBlitter.kernelLevel == 2 else { return }
        let image = try Self.image()
        let paints: [(Paint, InterpolationQuality)] = [
            (.linearGradient(Self.gradient, start: Point(x: 5, y: 3), end: Point(x: 150, y: 200)), .default),
            (.linearGradient(Self.gradient, start: Point(x: 0, y: 0), end: Point(x: 20, y: 3)), .default),
            (
                .radialGradient(
                    Self.gradient, startCenter: Point(x: 60, y: 80), startRadius: 0,
                    endCenter: Point(x: 80, y: 100), endRadius: 120), .default
            ),
            (
                .radialGradient(
                    Self.gradient, startCenter: Point(x: 10, y: 10), startRadius: 30,
                    endCenter: Point(x: 150, y: 180), endRadius: 5), .default
            ),
            (.conicGradient(Self.gradient, center: Point(x: 70, y: 90), angle: 0.7), .default),
            (.pattern(image, transform: Transform(translationX: 3, y: 1)), .none),
            (.pattern(image, transform: Transform(a: 1.3, b: 0.4, c: -0.4, d: 1.3, tx: 2, ty: 5)), .none),
            (.pattern(image, transform: Transform(a: 1.3, b: 0.4, c: -0.4, d: 1.3, tx: 2, ty: 5)), .low),
        ]
        let was = strata_set_gathers(0)
        defer { strata_set_gathers(was) }
        for (k, (paint, quality)) in paints.enumerated() {
            strata_set_gathers(0)
            let loaded = try scene(paint, quality: quality)
            strata_set_gathers(1)
            #expect(strata_gathers() == 1)
            let gathered = try scene(paint, quality: quality)
            #expect(gathered == loaded, "paint \(k)")
        }
    }

    /// The span kernels, every length from 1 to 40 (the last sixteen
    /// lanes' masks), at every start place in the table.
    @Test func gatheredSpansAreLoadedSpans() {
        guard SolidBlitter.kernelLevel == 2 else { return }
        let was = strata_set_gathers(0)
        defer { strata_set_gathers(was) }
        // Entry i is i + 1, so every index shows; the 257th is 0.
        let table = (0..<256).map { UInt32($0 + 1) } + [0]
        for count in 1...40 {
            for start in stride(from: -20, through: 280, by: 37) {
                let u0 = Int32(start) << 16, du = Int32(count % 7 - 3) << 15
                var a = [UInt32](repeating: 9, count: count), b = [UInt32](repeating: 7, count: count)
                strata_set_gathers(0)
                strata_linear_pad_span_avx2(table, u0, du, &a, count)
                strata_set_gathers(1)
                strata_linear_pad_span_avx2(table, u0, du, &b, count)
                #expect(a == b, "\(count) from \(start)")
                let g: [Float] = [Float(start) - 100, Float(count) - 20, 0.8, 0.6, 0.25]
                strata_set_gathers(0)
                GradientShader.conicSpan(table, g, count, &a, level: 2)
                strata_set_gathers(1)
                GradientShader.conicSpan(table, g, count, &b, level: 2)
                #expect(a == b, "conic \(count) from \(start)")
            }
        }
    }

    /// A padded linear gradient stepping 5 to 12 entries a pixel, either
    /// way: too wide for a window of the table, so picked from the whole of
    /// it (`table16`) where there is no gather, blended at full and partial
    /// coverage and through coverage bytes, every length from 1 to 70
    /// (runs of 32 and 48 pixels on take the picks).
    @Test func steepLinearSpansPickWhatGathersLoad() {
        guard SolidBlitter.kernelLevel == 2 else { return }
        let was = strata_set_gathers(0)
        defer { strata_set_gathers(was) }
        // Entry i: grey i/2 at alpha i (at least 1): translucent, and
        // opaque at the end, never clear, so every span draws.
        let table = (0..<256).map { UInt32($0 / 2) * 0x0001_0101 | UInt32(max($0, 1)) << 24 } + [0]
        for count in 1...70 {
            for start in stride(from: -20, through: 280, by: 37) {
                let u0 = Int32(start) << 16
                let steep = Int32((count % 8 + 5) * (count % 2 == 0 ? 1 : -1)) << 16
                let mask = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 53 + start) }
                for (coverage, bytes) in [(UInt32(255), nil), (200, nil), (0, mask)] as [(UInt32, [UInt8]?)] {
                    let under = (0..<count).map { UInt32(truncatingIfNeeded: $0 &* 0x9E37_79B9) }
                    var c = under, d = under
                    strata_set_gathers(0)
                    strata_linear_pad_over_avx2(&c, table, u0, steep, count, coverage, bytes)
                    strata_set_gathers(1)
                    strata_linear_pad_over_avx2(&d, table, u0, steep, count, coverage, bytes)
                    #expect(c == d, "\(count) from \(start) at \(coverage)")
                    #expect(c != under || coverage == 0, "\(count) from \(start): drawn")
                }
            }
        }
    }

    /// Gathers are only ever on where the kernels have AVX-512.
    @Test func gathersNeedAVX512() {
        let was = strata_set_gathers(1)
        defer { strata_set_gathers(was) }
        #expect((strata_gathers() == 1) == (SolidBlitter.kernelLevel == 2))
        #expect(strata_pixels_gather_fast() == 0 || SolidBlitter.kernelLevel == 2)
    }
}
