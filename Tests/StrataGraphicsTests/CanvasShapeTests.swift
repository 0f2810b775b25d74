import Foundation
import Testing

@testable import StrataGraphics

/// The canvas's polygon, rounded-rectangle and stroked-rectangle calls draw
/// what filling or stroking the same shape as a path draws, pixel for pixel,
/// while building it in the path the canvas keeps (`shapePath`).
@Suite struct CanvasShapeTests {
    /// A self-crossing star (its middle is covered twice: in under the
    /// winding rule, out under even-odd), off the pixel grid.
    static let star: [Point] = (0..<5).map { k in
        let angle = Double(k * 2) * 2 * Double.pi / 5 - Double.pi / 2
        return Point(x: 32.3 + 24.6 * cos(angle), y: 31.7 + 24.6 * sin(angle))
    }

    static let gradient = Paint.linearGradient(
        Gradient(colors: [.red, .blue]), start: Point(x: 0, y: 0), end: Point(x: 64, y: 64))

    /// The path `fill(polygon:)` stands for: a move, lines, a close.
    func polygonPath(_ points: [Point]) -> Path {
        var path = Path()
        path.addLines(between: points)
        if !points.isEmpty { path.closeSubpath() }
        return path
    }

    /// A 64 × 64 picture on a light ground, drawn by `body` after `setUp`.
    func picture(_ setUp: (Canvas) -> Void = { _ in }, _ body: (Canvas) -> Void) -> Image {
        let canvas = makeCanvas(64, 64)
        canvas.fillColor = Color(white: 0.9)
        canvas.fill(Rect(x: 0, y: 0, width: 64, height: 64))
        canvas.fillColor = Color(red: 0.2, green: 0.5, blue: 0.1, alpha: 0.85)
        canvas.strokeColor = Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.8)
        setUp(canvas)
        body(canvas)
        return canvas.makeImage()
    }

    /// The states a shape is drawn in: plain, transformed, clipped, with
    /// a wide round-joined pen, without anti-aliasing, under a shadow (the
    /// last two drawn by way of the path).
    static let setUps: [(String, @Sendable (Canvas) -> Void)] = [
        ("plain", { _ in }),
        ("rotated", { $0.concatenate(Transform(a: 0.8, b: 0.45, c: -0.45, d: 0.8, tx: 20, ty: -8)) }),
        ("clipped", { $0.clip(to: Rect(x: 12.5, y: 3, width: 30, height: 40)) }),
        ("round pen", { $0.strokeStyle = StrokeStyle(lineWidth: 5.5, lineCap: .round, lineJoin: .round) }),
        ("aliased", { $0.shouldAntialias = false }),
        ("shadow", { $0.setShadow(offset: Size(width: 3, height: 2), blur: 2) }),
    ]

    /// A colour rectangle (`fill(_:with: .color)`, which draws one on whole
    /// pixels straight through the colour's blitter) fills as the same
    /// rectangle in the fill colour (`fill(_:)`): on whole pixels and
    /// between them, flipped, scaled, past the canvas and the clip, empty
    /// and NaN; opaque, translucent and clear; in every state, at half
    /// alpha, multiplied, in a transparency layer and under a clip mask.
    @Test func colourRectanglesOnWholePixelsFillAsTheFillColoursDo() {
        let rects = [
            Rect(x: 10, y: 6, width: 30, height: 17), Rect(x: 40, y: 40, width: -22, height: -9),
            Rect(x: -5, y: 50, width: 80, height: 30), Rect(x: 3, y: 3, width: 0, height: 50),
            Rect(x: 7, y: 9, width: 8, height: 1), Rect(x: 10.5, y: 6, width: 30, height: 17),
            Rect(x: .nan, y: 3, width: 10, height: 10), Rect(x: 3, y: 3, width: .infinity, height: 10),
        ]
        let colours = [
            Color(red: 0.8, green: 0.3, blue: 0.1), Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.4), Color.clear,
        ]
        let states: [(String, (Canvas) -> Void)] =
            Self.setUps.map { ($0.0, $0.1) } + [
                (
                    "scaled",
                    {
                        $0.translateBy(x: 3, y: -2); $0.scaleBy(x: 2, y: 1)
                    }
                ),
                (
                    "flipped",
                    {
                        $0.translateBy(x: 64, y: 0); $0.scaleBy(x: -1, y: 1)
                    }
                ),
                ("halved", { $0.scaleBy(x: 0.5, y: 0.5) }),
                ("half alpha", { $0.alpha = 0.5 }),
                ("multiplied", { $0.blendMode = .multiply }),
                ("layer", { $0.beginTransparencyLayer() }),
                ("masked", { $0.clip(to: Path(ellipseIn: Rect(x: 5, y: 5, width: 50, height: 40))) }),
            ]
        for rect in rects {
            for colour in colours {
                for (name, setUp) in states {
                    let given = picture(setUp) { $0.fill(rect, with: .color(colour)) }
                    let filled = picture(setUp) {
                        $0.fillColor = colour
                        $0.fill(rect)
                    }
                    #expect(given == filled, "\(rect) \(colour) \(name)")
                }
            }
        }
    }

    /// A rectangle under a turn or a shear fills as its path does, in
    /// every state, with a colour and a gradient; one with a NaN or
    /// infinite side draws what its path draws.
    @Test func turnedRectanglesFillAsTheirPaths() {
        let rects = [
            Rect(x: 10.25, y: 6.5, width: 30, height: 17.75), Rect(x: 40, y: 40, width: -22.5, height: -9),
            Rect(x: 3, y: 3, width: 0.3, height: 50), Rect(x: .nan, y: 3, width: 10, height: 10),
            Rect(x: 3, y: 3, width: .infinity, height: 10),
        ]
        let turns = [
            Transform(a: 0.8, b: 0.45, c: -0.45, d: 0.8, tx: 20, ty: -8), Transform(a: 1, b: 0, c: 0.6, d: 1, tx: -5, ty: 0),
        ]
        for rect in rects {
            for turn in turns {
                for (name, setUp) in Self.setUps {
                    let set: (Canvas) -> Void = {
                        setUp($0); $0.concatenate(turn)
                    }
                    let what = "\(rect) \(name)"
                    #expect(picture(set) { $0.fill(rect) } == picture(set) { $0.fill(Path(rect: rect)) }, "\(what)")
                    #expect(
                        picture(set) { $0.fill(rect, with: Self.gradient) }
                            == picture(set) { $0.fill(Path(rect: rect), with: Self.gradient) }, "\(what)")
                }
            }
        }
        #expect(
            picture {
                $0.rotate(by: 0.3); $0.fill(rects[0])
            } != picture { _ in }, "the rectangle covers something")
    }

    @Test(arguments: [FillRule.winding, .evenOdd])
    func polygonsFillAsTheirPaths(rule: FillRule) {
        let path = polygonPath(Self.star)
        for (name, setUp) in Self.setUps {
            let expected = picture(setUp) { $0.fill(path, rule: rule) }
            #expect(expected != picture(setUp) { _ in }, "\(name): the star covers something")
            // An array, a slice of a longer one, and a collection with no
            // contiguous storage (copied first).
            let longer = [Point(x: 1, y: 1)] + Self.star + [Point(x: 2, y: 2)]
            #expect(picture(setUp) { $0.fill(polygon: Self.star, rule: rule) } == expected, "\(name)")
            #expect(picture(setUp) { $0.fill(polygon: longer[1...5], rule: rule) } == expected, "\(name)")
            #expect(picture(setUp) { $0.fill(polygon: Self.star.lazy.map { $0 }, rule: rule) } == expected, "\(name)")
            let painted = picture(setUp) { $0.fill(path, with: Self.gradient, rule: rule) }
            #expect(picture(setUp) { $0.fill(polygon: Self.star, with: Self.gradient, rule: rule) } == painted, "\(name)")
        }
        // The rule matters: the star's middle is in one way and out the other.
        let winding = picture { $0.fill(polygon: Self.star, rule: .winding) }
        let evenOdd = picture { $0.fill(polygon: Self.star, rule: .evenOdd) }
        #expect(winding != evenOdd)
    }

    @Test func polygonsStrokeAsTheirPaths() {
        let triangle = [Point(x: 8.5, y: 50.25), Point(x: 55.1, y: 47.9), Point(x: 30.7, y: 6.4)]
        for points in [Self.star, triangle] {
            let path = polygonPath(points)
            for (name, setUp) in Self.setUps {
                let expected = picture(setUp) { $0.stroke(path) }
                #expect(expected != picture(setUp) { _ in }, "\(name)")
                #expect(picture(setUp) { $0.stroke(polygon: points) } == expected, "\(name)")
                #expect(picture(setUp) { $0.stroke(polygon: points.lazy.map { $0 }) } == expected, "\(name)")
                let painted = picture(setUp) { $0.stroke(path, with: Self.gradient) }
                #expect(picture(setUp) { $0.stroke(polygon: points, with: Self.gradient) } == painted, "\(name)")
            }
        }
    }

    /// Fewer than three points fill nothing; a stroke of one point is that
    /// of the closed subpath of no length a path of it is (nothing: a closed
    /// subpath has no caps), and of two, the line there and back.
    @Test func fewPointsDrawWhatTheirPathsDraw() {
        let blank = picture { _ in }
        let a = Point(x: 20.4, y: 30.2), b = Point(x: 44.8, y: 25.5)
        for points in [[], [a], [a, b]] {
            #expect(picture { $0.fill(polygon: points) } == blank, "\(points.count) points")
            #expect(picture { $0.fill(polygon: points, with: Self.gradient) } == blank)
        }
        let roundPen: (Canvas) -> Void = { $0.strokeStyle = StrokeStyle(lineWidth: 6, lineCap: .round) }
        #expect(picture(roundPen) { $0.stroke(polygon: [Point]()) } == blank)
        #expect(picture(roundPen) { $0.stroke(polygon: [a]) } == picture(roundPen) { $0.stroke(polygonPath([a])) })
        let there = picture(roundPen) { $0.stroke(polygonPath([a, b])) }
        #expect(there != blank)
        #expect(picture(roundPen) { $0.stroke(polygon: [a, b]) } == there)
    }

    /// A NaN or infinite vertex, or one the transform takes out of range,
    /// draws nothing (as for a path), and leaves the next polygon whole.
    @Test func nonFinitePointsDrawNothing() {
        let blank = picture { _ in }
        for bad in [Double.nan, .infinity, -.infinity] {
            var points = Self.star
            points[2] = Point(x: bad, y: 20)
            #expect(picture { $0.fill(polygon: points) } == blank, "\(bad)")
            #expect(picture { $0.stroke(polygon: points) } == blank, "\(bad)")
            let after = picture {
                $0.fill(polygon: points)
                $0.fill(polygon: Self.star)
            }
            #expect(after == picture { $0.fill(polygon: Self.star) })
        }
        let huge = picture {
            $0.concatenate(Transform(a: 1e308, b: 0, c: 0, d: 1e308, tx: 0, ty: 0))
            $0.fill(polygon: Self.star)
        }
        #expect(huge == picture { $0.concatenate(Transform(a: 1e308, b: 0, c: 0, d: 1e308, tx: 0, ty: 0)) })
    }

    @Test func roundedRectanglesDrawAsTheirPaths() {
        let cases: [(Rect, Double, Double)] = [
            (Rect(x: 10.3, y: 8.6, width: 40.2, height: 30.1), 6, 6),
            (Rect(x: 5, y: 5, width: 50, height: 20), 14.5, 4.25),  // elliptic corners
            (Rect(x: 12, y: 14, width: 20, height: 30), 40, 40),  // corners past half the sides
            (Rect(x: 12.5, y: 14.5, width: 30, height: 30), 0, 0),  // square corners
            (Rect(x: 50, y: 40, width: -30.5, height: -22), 5, 7),  // negative sizes
        ]
        for (rect, w, h) in cases {
            let path = Path(roundedRect: rect, cornerWidth: w, cornerHeight: h)
            for (name, setUp) in Self.setUps {
                let what = "\(rect) \(w)×\(h), \(name)"
                let fill = picture(setUp) { $0.fill(path) }
                #expect(fill != picture(setUp) { _ in }, "\(what)")
                #expect(picture(setUp) { $0.fill(roundedRect: rect, cornerWidth: w, cornerHeight: h) } == fill, "\(what)")
                let paintedFill = picture(setUp) { $0.fill(path, with: Self.gradient) }
                #expect(
                    picture(setUp) { $0.fill(roundedRect: rect, cornerWidth: w, cornerHeight: h, with: Self.gradient) }
                        == paintedFill, "\(what)")
                let stroke = picture(setUp) { $0.stroke(path) }
                #expect(picture(setUp) { $0.stroke(roundedRect: rect, cornerWidth: w, cornerHeight: h) } == stroke, "\(what)")
                let paintedStroke = picture(setUp) { $0.stroke(path, with: Self.gradient) }
                #expect(
                    picture(setUp) { $0.stroke(roundedRect: rect, cornerWidth: w, cornerHeight: h, with: Self.gradient) }
                        == paintedStroke, "\(what)")
            }
        }
        // A null rectangle and NaN corners draw what their paths draw: nothing.
        let blank = picture { _ in }
        #expect(picture { $0.fill(roundedRect: .null, cornerWidth: 3, cornerHeight: 3) } == blank)
        #expect(picture { $0.stroke(roundedRect: .null, cornerWidth: 3, cornerHeight: 3) } == blank)
        let nanCorners = Path(roundedRect: Rect(x: 5, y: 5, width: 20, height: 20), cornerWidth: .nan, cornerHeight: 2)
        #expect(
            picture { $0.fill(roundedRect: Rect(x: 5, y: 5, width: 20, height: 20), cornerWidth: .nan, cornerHeight: 2) }
                == picture { $0.fill(nanCorners) })
    }

    /// Coordinates and sizes out of any reasonable range draw what their
    /// paths draw (nothing, or the part on the canvas), in bounded time.
    @Test func hostileValuesDrawAsTheirPaths() {
        let big = 1e30
        let polygons: [[Point]] = [
            [Point(x: -big, y: 10), Point(x: big, y: 20), Point(x: 30, y: big)],
            [Point(x: 5, y: 5), Point(x: 5, y: 5), Point(x: 5, y: 5)],  // no area
            [Point(x: 0, y: 0), Point(x: 0, y: 0), Point(x: 60, y: 60), Point(x: 60, y: 60)],  // there and back
            [Point(x: -0.0, y: 1e-300), Point(x: 40, y: -1e-300), Point(x: 20, y: 50)],
        ]
        for points in polygons {
            var path = Path()
            path.addLines(between: points)
            path.closeSubpath()
            #expect(picture { $0.fill(polygon: points) } == picture { $0.fill(path) }, "\(points)")
            #expect(picture { $0.stroke(polygon: points) } == picture { $0.stroke(path) }, "\(points)")
        }
        let rects: [(Rect, Double, Double)] = [
            (Rect(x: -big, y: -big, width: 2 * big, height: 2 * big), 10, 10),
            (Rect(x: 10, y: 10, width: 30, height: 20), big, big),  // corners at half the sides
            (Rect(x: 10, y: 10, width: 30, height: 20), -5, 4),  // a negative corner: square corners
            (Rect(x: 10, y: 10, width: 30, height: 20), .infinity, 3),
            (Rect(x: 10, y: 10, width: 0, height: 20), 3, 3),  // zero width
            (Rect(x: 10, y: 10, width: .infinity, height: 20), 3, 3),
            (Rect(x: .nan, y: 10, width: 5, height: 5), 1, 1),
        ]
        for (rect, w, h) in rects {
            let path = Path(roundedRect: rect, cornerWidth: w, cornerHeight: h)
            let what = "\(rect) \(w)×\(h)"
            #expect(picture { $0.fill(roundedRect: rect, cornerWidth: w, cornerHeight: h) } == picture { $0.fill(path) }, "\(what)")
            #expect(
                picture { $0.stroke(roundedRect: rect, cornerWidth: w, cornerHeight: h) } == picture { $0.stroke(path) }, "\(what)")
            #expect(
                picture { $0.stroke(rect, with: Self.gradient) } == picture { $0.stroke(Path(rect: rect), with: Self.gradient) },
                "\(what)")
        }
        // Many points: the kept path grows to them and is reused after.
        var rng = SplitMix(seed: 7)
        let many = (0..<200_000).map { _ in Point(x: rng.unit() * 64, y: rng.unit() * 64) }
        var manyPath = Path()
        manyPath.addLines(between: many)
        manyPath.closeSubpath()
        #expect(picture { $0.fill(polygon: many, rule: .evenOdd) } == picture { $0.fill(manyPath, rule: .evenOdd) })
    }

    /// A small generator, so the many-point polygon is the same every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
        }
    }

    @Test func rectanglesStrokeWithAPaintAsTheirPaths() {
        for rect in [Rect(x: 10.3, y: 9.6, width: 31.45, height: 17.8), Rect(x: 40, y: 12, width: -18.4, height: 25.1)] {
            for (name, setUp) in Self.setUps {
                let expected = picture(setUp) { $0.stroke(Path(rect: rect), with: Self.gradient) }
                #expect(expected != picture(setUp) { _ in }, "\(name)")
                #expect(picture(setUp) { $0.stroke(rect, with: Self.gradient) } == expected, "\(rect), \(name)")
                #expect(picture(setUp) { $0.stroke(rect) } == picture(setUp) { $0.stroke(Path(rect: rect)) })
            }
        }
        #expect(picture { $0.stroke(.null, with: Self.gradient) } == picture { _ in })
    }

    /// Shapes one after another each draw themselves: the kept path is
    /// rebuilt for each, never adding to the last.
    @Test func shapesInARowDrawEachItsOwn() {
        let square = [Point(x: 4, y: 4), Point(x: 20, y: 4), Point(x: 20, y: 20), Point(x: 4, y: 20)]
        let triangle = [Point(x: 40, y: 40), Point(x: 60, y: 44), Point(x: 48, y: 60)]
        let rect = Rect(x: 30.5, y: 6.5, width: 24, height: 20)
        let separate = picture {
            $0.fill(polygonPath(square))
            $0.stroke(Path(rect: rect))
            $0.fill(Path(roundedRect: rect, cornerWidth: 4, cornerHeight: 4))
            $0.fill(polygonPath(triangle), rule: .evenOdd)
            $0.stroke(polygonPath(triangle))
        }
        let kept = picture {
            $0.fill(polygon: square)
            $0.stroke(rect)
            $0.fill(roundedRect: rect, cornerWidth: 4, cornerHeight: 4)
            $0.fill(polygon: triangle, rule: .evenOdd)
            $0.stroke(polygon: triangle)
        }
        #expect(kept == separate)
    }

    /// A vector device that keeps what it is given: the kept path handed to
    /// it stays what it was when the next shape is built.
    final class Recorder: VectorDevice {
        var size: Size { Size(width: 64, height: 64) }
        var fills: [Path] = []
        var strokes: [Path] = []
        var paints: [Paint] = []
        func fill(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) { fills.append(path); paints.append(paint) }
        func fill(_ rect: Rect, paint: Paint, state: VectorState) { fills.append(Path(rect: rect)); paints.append(paint) }
        func fill(ellipseIn rect: Rect, paint: Paint, state: VectorState) {
            fills.append(Path(ellipseIn: rect))
            paints.append(paint)
        }
        func stroke(_ path: Path, style: StrokeStyle, paint: Paint, state: VectorState) {
            strokes.append(path)
            paints.append(paint)
        }
        func draw(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState) {}
        func drawGradient(_ paint: Paint, extendStart: Bool, extendEnd: Bool, state: VectorState) {}
        func canPaint(_ paint: Paint) -> Bool { true }
        func beginGroup() {}
        func endGroup(state: VectorState) {}
    }

    @Test func pathsHandedOnStayAsTheyWere() {
        let recorder = Recorder()
        let canvas = Canvas(device: recorder)
        let triangle = [Point(x: 40, y: 40), Point(x: 60, y: 44), Point(x: 48, y: 60)]
        let rect = Rect(x: 3, y: 4, width: 10, height: 12)
        canvas.fill(polygon: Self.star)
        canvas.fill(polygon: triangle, with: Self.gradient)
        canvas.fill(roundedRect: rect, cornerWidth: 2, cornerHeight: 3)
        canvas.stroke(polygon: triangle)
        canvas.stroke(rect, with: .color(.red))
        canvas.stroke(roundedRect: rect, cornerWidth: 2, cornerHeight: 3)
        #expect(
            recorder.fills == [
                polygonPath(Self.star), polygonPath(triangle), Path(roundedRect: rect, cornerWidth: 2, cornerHeight: 3),
            ])
        #expect(recorder.strokes == [polygonPath(triangle), Path(rect: rect), Path(roundedRect: rect, cornerWidth: 2, cornerHeight: 3)])
    }

    /// Every call taking a paint, given a colour, draws what setting the
    /// fill or stroke colour to it and making the call without a paint
    /// draws (the colour goes on through the state: `withFillColor`), in
    /// every state, shadow included; and leaves the state's colours as
    /// they were. A vector device is handed the colour as the paint.
    @Test func colourPaintsDrawAsTheStatesColour() {
        let c = Color(red: 0.7, green: 0.2, blue: 0.4, alpha: 0.6)
        let triangle = [Point(x: 40.5, y: 38.25), Point(x: 60, y: 44), Point(x: 47.75, y: 61)]
        let rect = Rect(x: 5.5, y: 6.25, width: 30, height: 21.5)
        let calls: [(String, (Canvas) -> Void, (Canvas) -> Void)] = [
            ("fill rect", { $0.fill(rect, with: .color(c)) }, { $0.fill(rect) }),
            ("fill path", { $0.fill(Path(ellipseIn: rect), with: .color(c), rule: .evenOdd) }, { $0.fill(Path(ellipseIn: rect), rule: .evenOdd) }),
            ("fill ellipse", { $0.fillEllipse(in: rect, with: .color(c)) }, { $0.fillEllipse(in: rect) }),
            ("fill polygon", { $0.fill(polygon: Self.star, with: .color(c), rule: .evenOdd) }, { $0.fill(polygon: Self.star, rule: .evenOdd) }),
            (
                "fill round", { $0.fill(roundedRect: rect, cornerWidth: 5, cornerHeight: 3, with: .color(c)) },
                { $0.fill(roundedRect: rect, cornerWidth: 5, cornerHeight: 3) }
            ),
            ("stroke path", { $0.stroke(Path(ellipseIn: rect), with: .color(c)) }, { $0.stroke(Path(ellipseIn: rect)) }),
            ("stroke rect", { $0.stroke(rect, with: .color(c)) }, { $0.stroke(rect) }),
            ("stroke polygon", { $0.stroke(polygon: triangle, with: .color(c)) }, { $0.stroke(polygon: triangle) }),
            (
                "stroke round", { $0.stroke(roundedRect: rect, cornerWidth: 5, cornerHeight: 3, with: .color(c)) },
                { $0.stroke(roundedRect: rect, cornerWidth: 5, cornerHeight: 3) }
            ),
        ]
        for (name, setUp) in Self.setUps {
            for (call, withPaint, withState) in calls {
                var fill = Color.black, stroke = Color.black
                let given = picture(setUp) { canvas in
                    withPaint(canvas)
                    (fill, stroke) = (canvas.fillColor, canvas.strokeColor)
                }
                let stated = picture(setUp) { canvas in
                    canvas.fillColor = c
                    canvas.strokeColor = c
                    withState(canvas)
                }
                #expect(given == stated, "\(call), \(name)")
                #expect(fill == Color(red: 0.2, green: 0.5, blue: 0.1, alpha: 0.85), "\(call), \(name)")
                #expect(stroke == Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.8), "\(call), \(name)")
            }
        }
        let recorder = Recorder()
        let canvas = Canvas(device: recorder)
        for (_, withPaint, _) in calls { withPaint(canvas) }
        #expect(recorder.paints == Array(repeating: .color(c), count: calls.count))
        #expect(canvas.fillColor == .black)
    }

    /// Bands drawn on several threads each build shapes in their own
    /// canvas's path: the same pixels as one thread.
    @Test func shapesOnThreadsMatchOneThread() throws {
        let picture: @Sendable (Canvas) -> Void = { canvas in
            for k in 0..<40 {
                let x = Double(k % 8) * 16 + 2.25, y = Double(k / 8) * 24 + 1.5
                let points = [Point(x: x, y: y), Point(x: x + 13, y: y + 3), Point(x: x + 5, y: y + 21)]
                canvas.fillColor = Color(red: Double(k) / 40, green: 0.4, blue: 0.6, alpha: 0.9)
                canvas.fill(polygon: points)
                canvas.stroke(polygon: points)
                canvas.fill(roundedRect: Rect(x: x + 6, y: y + 8, width: 9, height: 12), cornerWidth: 3, cornerHeight: 3)
            }
        }
        let one = try Bitmap(width: 128, height: 120)
        Canvas.draw(into: one, threadCount: 1, picture)
        let four = try Bitmap(width: 128, height: 120)
        Canvas.draw(into: four, threadCount: 4, picture)
        #expect(one.makeImage() == four.makeImage())
    }
}
