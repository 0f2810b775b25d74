import StrataTestSupport
import Testing

@testable import StrataGraphics

extension FuzzRandom {
    /// A coordinate, ordinary most of the time, sometimes huge, tiny or not finite.
    mutating func coordinate() -> Double {
        pick([
            Double(int(64)) - 16, Double(int(6400)) / 100 - 16, 0.5, -1e30, 1e30, 1e308, -1e308, .nan, .infinity,
            Double(int(64)) - 16, Double(int(64)) - 16, 1e-9,
        ])
    }
}

@Suite struct DrawingFuzzTests {
    /// Random paths, transforms, clips, paints, strokes and modes: every call
    /// returns, and the pixels stay valid premultiplied values.
    @Test(.tags(.slow)) func randomDrawingIsSafe() throws {
        var rng = FuzzRandom(seed: 7)
        let image = try Image(
            width: 3, height: 2,
            premultipliedPixels: [
                255, 0, 0, 255, 0, 128, 0, 128, 0, 0, 0, 0,
                9, 9, 9, 9, 200, 100, 0, 255, 0, 0, 255, 255,
            ])
        for round in 0..<1000 {
            let canvas = try Canvas(width: 48, height: 40)
            for _ in 0..<rng.int(6) {
                var path = Path()
                for _ in 0..<rng.int(8) {
                    let p = Point(x: rng.coordinate(), y: rng.coordinate())
                    switch rng.int(6) {
                    case 0: path.move(to: p)
                    case 1: path.addQuadCurve(to: p, control: Point(x: rng.coordinate(), y: rng.coordinate()))
                    case 2:
                        path.addCurve(
                            to: p, control1: Point(x: rng.coordinate(), y: rng.coordinate()),
                            control2: Point(x: rng.coordinate(), y: rng.coordinate()))
                    case 3: path.addArc(tangent1End: p, tangent2End: Point(x: rng.coordinate(), y: rng.coordinate()), radius: rng.coordinate())
                    case 4: path.closeSubpath()
                    default: path.addLine(to: p)
                    }
                }
                canvas.saveGState()
                switch rng.int(4) {
                case 0:
                    canvas.concatenate(
                        Transform(
                            a: rng.coordinate() / 16, b: rng.coordinate() / 32, c: rng.coordinate() / 32,
                            d: rng.coordinate() / 16, tx: rng.coordinate(), ty: rng.coordinate()))
                case 1: canvas.clip(to: path, rule: rng.pick([.winding, .evenOdd]))
                case 2: canvas.clip(to: Rect(x: rng.coordinate(), y: rng.coordinate(), width: rng.coordinate(), height: rng.coordinate()))
                default: break
                }
                canvas.blendMode = rng.pick(BlendMode.allCases)
                canvas.alpha = rng.pick([1, 0.5, 0, .nan])
                if rng.int(5) == 0 { canvas.setShadow(offset: Size(width: rng.coordinate(), height: 3), blur: rng.pick([0, 2, 1e300])) }
                let paint: Paint = rng.pick([
                    .color(Color(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.7)),
                    .linearGradient(
                        Gradient(colors: [.red, .blue]), start: Point(x: rng.coordinate(), y: 0), end: Point(x: rng.coordinate(), y: 9),
                        spread: rng.pick([.pad, .repeat, .reflect])),
                    .radialGradient(
                        Gradient(colors: [.green, .clear]), startCenter: .zero, startRadius: rng.coordinate(),
                        endCenter: Point(x: 20, y: 20), endRadius: rng.coordinate(), spread: rng.pick([.pad, .reflect])),
                    .conicGradient(Gradient(colors: [.red, .green, .red]), center: Point(x: rng.coordinate(), y: 20), angle: rng.coordinate()),
                    .pattern(image, transform: Transform(scaleX: rng.coordinate(), y: 3)),
                ])
                switch rng.int(6) {
                case 0: canvas.fill(path, with: paint, rule: rng.pick([.winding, .evenOdd]))
                case 1:
                    canvas.strokeStyle = StrokeStyle(
                        lineWidth: rng.coordinate() / 8, lineCap: rng.pick([.butt, .round, .square]),
                        lineJoin: rng.pick([.miter, .round, .bevel]), miterLimit: rng.coordinate(),
                        dashPhase: rng.coordinate(), dashLengths: rng.pick([[], [3, 2], [0, 4], [rng.coordinate(), 1]]))
                    canvas.stroke(path, with: paint)
                case 2: canvas.fill(Rect(x: rng.coordinate(), y: rng.coordinate(), width: rng.coordinate(), height: rng.coordinate()), with: paint)
                case 3:
                    canvas.fillEllipse(
                        in: Rect(x: rng.coordinate(), y: rng.coordinate(), width: rng.coordinate(), height: rng.coordinate()), with: paint)
                case 4: canvas.draw(image, in: Rect(x: rng.coordinate(), y: rng.coordinate(), width: rng.coordinate(), height: rng.coordinate()))
                default:
                    canvas.beginTransparencyLayer()
                    canvas.fill(path, with: paint)
                    canvas.endTransparencyLayer()
                }
                canvas.restoreGState()
            }
            for y in 0..<40 {
                for x in 0..<48 {
                    let p = canvas.bitmap[x, y]
                    if p.r > p.a || p.g > p.a || p.b > p.a {
                        Issue.record("round \(round): pixel (\(x), \(y)) \(p) is not premultiplied")
                        return
                    }
                }
            }
        }
    }
}

@Suite struct DecoderFuzzTests {
    /// Damaged copies of the fixtures — bytes flipped, cut, repeated — either
    /// decode or throw; nothing crashes or hangs.
    @Test(arguments: [
        "rgba8.png", "rgb8-interlaced.png", "palette-trns.png", "gray16.png", "blocks.jpg", "blocks-progressive.jpg", "blocks-cmyk.jpg",
    ])
    func mutatedFilesNeverCrash(file: String) throws {
        let original = try FileIO.read(resource(file))
        var rng = FuzzRandom(seed: UInt64(original.count))
        var decoded = 0, refused = 0
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<(1 + rng.int(4)) {
                switch rng.int(4) {
                case 0: bytes[rng.int(bytes.count)] ^= UInt8(1 << rng.int(8))
                case 1: bytes[rng.int(bytes.count)] = UInt8(rng.int(256))
                case 2: bytes.removeLast(rng.int(min(bytes.count - 1, 64)))
                default:
                    let at = rng.int(bytes.count)
                    bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + rng.int(16))], at: at)
                }
            }
            do {
                let image = try Image(data: bytes)
                #expect(image.width > 0 && image.height > 0 && image.pixels.count == image.bytesPerRow * image.height)
                decoded += 1
            } catch {
                #expect(!error.description.isEmpty)
                refused += 1
            }
        }
        #expect(decoded + refused == 300)
    }
}
