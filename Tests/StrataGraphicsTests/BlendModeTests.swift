import StrataTestSupport
import Testing

@testable import StrataGraphics

/// Each mode on one known pair: source straight (0.8, 0.4, 0.2) at alpha 0.6,
/// stored premultiplied as (122, 61, 31, 153); destination (41, 102, 184, 204).
/// The expected pixels were computed independently, in Python, from the W3C
/// Compositing and Blending formulas on the premultiplied values.
private let expected: [(BlendMode, Pixel)] = [
    (.clear, Pixel(r: 0, g: 0, b: 0, a: 0)),
    (.copy, Pixel(r: 122, g: 61, b: 31, a: 153)),
    (.normal, Pixel(r: 138, g: 102, b: 105, a: 235)),
    (.sourceIn, Pixel(r: 98, g: 49, b: 25, a: 122)),
    (.sourceOut, Pixel(r: 24, g: 12, b: 6, a: 31)),
    (.sourceAtop, Pixel(r: 114, g: 90, b: 98, a: 204)),
    (.destinationOver, Pixel(r: 65, g: 114, b: 190, a: 235)),
    (.destinationIn, Pixel(r: 25, g: 61, b: 110, a: 122)),
    (.destinationOut, Pixel(r: 16, g: 41, b: 74, a: 82)),
    (.destinationAtop, Pixel(r: 49, g: 73, b: 117, a: 153)),
    (.xor, Pixel(r: 41, g: 53, b: 80, a: 112)),
    (.plusLighter, Pixel(r: 163, g: 163, b: 215, a: 255)),
    (.multiply, Pixel(r: 60, g: 77, b: 102, a: 235)),
    (.screen, Pixel(r: 143, g: 139, b: 193, a: 235)),
    (.overlay, Pixel(r: 80, g: 102, b: 183, a: 235)),
    (.darken, Pixel(r: 65, g: 102, b: 105, a: 235)),
    (.lighten, Pixel(r: 138, g: 114, b: 190, a: 235)),
    (.colorDodge, Pixel(r: 162, g: 155, b: 202, a: 235)),
    (.colorBurn, Pixel(r: 41, g: 53, b: 143, a: 235)),
    (.hardLight, Pixel(r: 124, g: 102, b: 125, a: 235)),
    (.softLight, Pixel(r: 83, g: 108, b: 184, a: 235)),
    (.difference, Pixel(r: 114, g: 65, b: 165, a: 235)),
    (.exclusion, Pixel(r: 124, g: 114, b: 170, a: 235)),
]

private let source = Color(red8: 204, green8: 102, blue8: 51, alpha8: 153)
private let destination = Pixel(r: 41, g: 102, b: 184, a: 204)

@Suite struct BlendModeTests {
    @Test func everyModeIsCovered() {
        #expect(Set(expected.map(\.0)) == Set(BlendMode.allCases))
        #expect(source.premultipliedPixel == Pixel(r: 122, g: 61, b: 31, a: 153))
    }

    @Test(arguments: expected.map(\.0))
    func modeOnAKnownPair(mode: BlendMode) {
        let want = expected.first { $0.0 == mode }!.1
        // Through a solid fill, a gradient fill (same colour at both ends) and a
        // stroke: every blitter applies the mode the same way.
        for kind in 0..<3 {
            let canvas = makeCanvas(8, 8)
            canvas.bitmap.fill(with: destination)
            canvas.blendMode = mode
            switch kind {
            case 0:
                canvas.fillColor = source
                canvas.fill(Rect(x: 0, y: 0, width: 8, height: 8))
            case 1:
                canvas.fill(
                    Rect(x: 0, y: 0, width: 8, height: 8),
                    with: .linearGradient(Gradient(colors: [source, source]), start: .zero, end: Point(x: 8, y: 1)))
            default:
                canvas.strokeColor = source
                canvas.lineWidth = 4
                var p = Path()
                p.move(to: Point(x: 0, y: 4))
                p.addLine(to: Point(x: 8, y: 4))
                canvas.stroke(p)
            }
            #expect(near(canvas.bitmap[4, 4], want, 1), "\(mode) kind \(kind): \(canvas.bitmap[4, 4]) expected \(want)")
        }
    }

    @Test(arguments: [BlendMode.sourceIn, .clear, .copy, .multiply, .destinationOut])
    func partialCoverageMixesWithTheDestination(mode: BlendMode) {
        let full = expected.first { $0.0 == mode }!.1
        let canvas = makeCanvas(4, 1)
        canvas.bitmap.fill(with: destination)
        canvas.blendMode = mode
        canvas.fillColor = source
        canvas.fill(Rect(x: 1, y: 0, width: 1.5, height: 1))
        // Outside the shape: untouched, whatever the mode.
        #expect(canvas.bitmap[0, 0] == destination && canvas.bitmap[3, 0] == destination)
        #expect(near(canvas.bitmap[1, 0], full, 1))
        // Half covered: half the result, half the old pixel.
        let half = canvas.bitmap[2, 0]
        func mid(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) + Int(b) + 1) / 2) }
        #expect(
            near(
                half,
                Pixel(
                    r: mid(full.r, destination.r), g: mid(full.g, destination.g),
                    b: mid(full.b, destination.b), a: mid(full.a, destination.a)), 1), "\(mode): \(half)")
    }

    @Test func resultsStayValidPremultiplied() {
        for mode in BlendMode.allCases {
            for s in [Pixel(r: 255, g: 0, b: 128, a: 255), Pixel(r: 10, g: 20, b: 30, a: 40), .transparent] {
                for d in [Pixel(r: 0, g: 255, b: 7, a: 255), Pixel(r: 3, g: 2, b: 1, a: 5), .transparent] {
                    let r = Pixel(packed: mode.blend(s.packed, d.packed, coverage: 200))
                    #expect(r.r <= r.a && r.g <= r.a && r.b <= r.a, "\(mode) \(s) \(d) → \(r)")
                }
            }
        }
    }
}
