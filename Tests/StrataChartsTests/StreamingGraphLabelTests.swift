import Foundation
import StrataLayers
import StrataTestSupport
import StrataText
import Testing

@testable import StrataCharts

/// The streaming graph's labels: time labels kept whole inside the plot at
/// its ends, and value labels moving with the grid lines when the value
/// range animates.
@MainActor
@Suite struct StreamingGraphLabelTests {
    func wave(_ i: Int) -> Double { sin(Double(i) * 0.07) + 0.3 * sin(Double(i) * 0.71) }

    /// A graph filling a `width` × `height` point host at `scale`, with a
    /// time axis (30 samples a second) and the value axis.
    func timeGraph(scale: Double, width: Int = 320, height: Int = 140) throws -> (LayerHost, StreamingGraphLayer) {
        let h = try LayerHost(width: Int(Double(width) * scale), height: Int(Double(height) * scale), scale: scale)
        let g = StreamingGraphLayer()
        g.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        g.contentsScale = scale
        g.drawsAsynchronously = false
        g.valueRange = .fixed(-1.5, 1.5)
        g.sampleRate = 30
        h.rootLayer.addSublayer(g)
        return (h, g)
    }

    /// The shown time labels' frames in the plot layer's coordinates, with
    /// their seconds ("25s" → 25).
    func timeLabels(_ g: StreamingGraphLayer, presented: Bool = false) -> [(seconds: Double, frame: Rect)] {
        let stripX = presented ? g.stripLayer.presentation().position.x : g.stripLayer.position.x
        return g.shownTimeLabels.map { label in
            let frame = presented ? label.layer.presentation().frame : label.layer.frame
            return (Double(label.text.dropLast()) ?? .nan, frame.offsetBy(dx: stripX, dy: 0))
        }
    }

    /// Columns of `image` with ink (a channel under 200) in `rows`.
    func inkColumns(_ image: Image, _ columns: Range<Int>, _ rows: Range<Int>) -> Int {
        columns.filter { x in rows.contains { y in image[x, y].r < 200 } }.count
    }

    /// Columns with ink of `text` drawn alone in `font` at `scale`.
    func inkColumns(of text: String, font: Font, color: Color, scale: Double) throws -> Int {
        let layout = TextLayout(AttributedText(text, attributes: TextAttributes(font: font, foregroundColor: color)), width: .infinity)
        let w = Int((layout.size.width * scale).rounded(.up)) + 4, h = Int((layout.size.height * scale).rounded(.up)) + 2
        let canvas = try Canvas(width: w, height: h)
        canvas.fillColor = .white
        canvas.fill(Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        canvas.scaleBy(x: scale, y: scale)
        canvas.draw(layout, at: Point(x: 1, y: 0))
        return inkColumns(canvas.makeImage(), 0..<w, 0..<h)
    }

    /// Scrolled through many positions, the time labels shown are wholly
    /// inside the plot, never overlap, sit centred under their ticks away
    /// from the ends, and a tick at the very edge keeps its label, whole,
    /// moved in to end at the edge (its pixels all there: the tiles drew
    /// such a label across the edge, cut in half).
    @Test func timeLabelsStayWholeInsideThePlot() throws {
        for scale in [1.0, 2.0] {
            let (h, g) = try timeGraph(scale: scale)
            g.append(contentsOf: (0..<1400).map(wave))
            h.advance()
            let plotWidth = g.plotLayer.bounds.width
            #expect(plotWidth > 200)
            var movedLeft = 0, movedRight = 0
            for end in 600...1400 {
                g.scroll(toEnd: end)
                h.advance()
                let labels = timeLabels(g)
                #expect(!labels.isEmpty, "end \(end)")
                for (i, l) in labels.enumerated() {
                    #expect(l.frame.minX >= 0 && l.frame.maxX <= plotWidth, "scale \(scale), end \(end): \(l)")
                    if i > 0 { #expect(labels[i - 1].frame.maxX <= l.frame.minX, "scale \(scale), end \(end): overlap") }
                    // Sample i's centre is at plotWidth − (end − i) + 0.5 (a point a sample).
                    let tickX = plotWidth - (Double(end) - l.seconds * 30) + 0.5
                    #expect(tickX > -1 && tickX < plotWidth + 1, "scale \(scale), end \(end): a label of a tick outside the plot")
                    if l.frame.minX == 0 && l.frame.midX > tickX + 1 { movedLeft += 1 }
                    // Moved in at the right, a label ends within a pixel of the edge (its left on a whole pixel).
                    let atRight = l.frame.maxX > plotWidth - 1 / scale
                    if atRight && l.frame.midX < tickX - 1 { movedRight += 1 }
                    if l.frame.minX > 0 && !atRight {
                        #expect(abs(l.frame.midX - tickX) <= 1, "scale \(scale), end \(end): not centred under its tick")
                    }
                }
                // Every tick well inside the plot is labelled (5 s apart here).
                let shown = Set(labels.map(\.seconds))
                for t in stride(from: 0, through: end, by: 150) {
                    let x = plotWidth - Double(end - t) + 0.5
                    guard x >= 1 && x <= plotWidth - 1 else { continue }
                    #expect(shown.contains(Double(t) / 30), "scale \(scale), end \(end): \(t / 30)s missing")
                }
            }
            #expect(movedLeft > 10 && movedRight > 10, "scale \(scale): \(movedLeft) \(movedRight)")

            // A tick at the very right edge (the newest sample) and at the
            // very left edge: labelled, whole, ending at the edge.
            let plotLeft = g.plotLayer.frame.minX, plotTop = g.plotLayer.frame.minY
            for (end, seconds, atLeft) in [(901, 30.0, false), (750 + Int(plotWidth), 25.0, true)] {
                g.scroll(toEnd: end)
                h.advance()
                let label = try #require(timeLabels(g).first { $0.seconds == seconds }, "scale \(scale), end \(end)")
                let atEdge = atLeft ? label.frame.minX == 0 : label.frame.maxX > plotWidth - 1 / scale
                #expect(atEdge, "scale \(scale), end \(end): \(label.frame)")
                let image = h.makeImage()
                let rows = (Int(((plotTop + label.frame.minY) * scale).rounded())..<Int(((plotTop + label.frame.maxY) * scale).rounded()))
                    .clamped(to: 0..<image.height)
                let plotColumns = Int((plotLeft * scale).rounded())..<Int(((plotLeft + plotWidth) * scale).rounded())
                let left = Int(((plotLeft + label.frame.minX) * scale).rounded())
                let right = Int(((plotLeft + label.frame.maxX) * scale).rounded())
                let columns = (left - 3..<right + 3).clamped(to: plotColumns)
                let whole = try inkColumns(of: "\(Int(seconds))s", font: g.labelFont, color: g.labelColor, scale: scale)
                #expect(whole > 4)
                #expect(inkColumns(image, columns, rows) == whole, "scale \(scale), end \(end): the label's ink is not all there")
                if let dir = ProcessInfo.processInfo.environment["STREAM_PNG_DIR"] {
                    try h.writePNG(to: "\(dir)/stream-edge-\(atLeft ? "left" : "right")-\(Int(scale))x.png")
                }
            }
        }
    }

    /// A label moved in at an end is dropped when it would come within the
    /// gap of its neighbour, never the neighbour; labels not moved stay.
    @Test func aLabelMovedInGivesWayToItsNeighbour() {
        func label(_ tick: Int, centred: Double, x: Double, width: Double = 20) -> StreamingGraphLayer.TimeLabelPlacement {
            .init(tick: tick, text: "\(tick)", size: Size(width: width, height: 12), centred: centred, x: x)
        }
        let gap = StreamingGraphLayer.timeLabelGap
        let keep = StreamingGraphLayer.keptTimeLabels
        // Moved in at the left: dropped when it comes near the next, kept otherwise.
        #expect(keep([label(1, centred: -8, x: 0), label(2, centred: 20 + gap - 1, x: 20 + gap - 1)]).map(\.tick) == [2])
        #expect(keep([label(1, centred: -8, x: 0), label(2, centred: 20 + gap, x: 20 + gap)]).map(\.tick) == [1, 2])
        // Moved in at the right (the plot 100 wide): the same.
        #expect(keep([label(1, centred: 61 - gap, x: 61 - gap), label(2, centred: 90, x: 80)]).map(\.tick) == [1])
        #expect(keep([label(1, centred: 60 - gap, x: 60 - gap), label(2, centred: 90, x: 80)]).map(\.tick) == [1, 2])
        // Two moved in at the left: the outer one gives way.
        #expect(keep([label(1, centred: -15, x: 0), label(2, centred: -2, x: 0), label(3, centred: 60, x: 60)]).map(\.tick) == [2, 3])
        // Labels where the tiles drew them stay, even close together.
        #expect(keep([label(1, centred: 10, x: 10), label(2, centred: 25, x: 25)]).map(\.tick) == [1, 2])
    }

    /// While the strip slides between samples, a label moved in to an end
    /// slides the other way with it: inside the plot at every frame.
    @Test func timeLabelsStayInsideWhileTheStripSlides() throws {
        let (h, g) = try timeGraph(scale: 1)
        g.pointsPerSample = 3
        g.scrollAnimationDuration = 1.0 / 30
        g.append(contentsOf: (0..<200).map(wave))
        h.advance()
        let plotWidth = g.plotLayer.bounds.width
        var atEdge = 0
        for frame in 0..<600 {
            if frame % 2 == 0 { g.append(wave(200 + frame / 2)) }
            h.advance()
            for l in timeLabels(g, presented: true) {
                #expect(l.frame.minX >= -1e-9 && l.frame.maxX <= plotWidth + 1e-9, "frame \(frame): \(l)")
                if l.frame.minX < 0.5 || l.frame.maxX > plotWidth - 0.5 { atEdge += 1 }
            }
        }
        #expect(atEdge > 20)
        // No layer per frame: the labels are a small pool.
        #expect(g.stripLayer.sublayers.count(where: { $0 is TextLayer }) <= 8)
    }

    /// A graph with the value axis and a fixed range, drawing its tiles on
    /// the queue pool, with a half-second range animation.
    func valueGraph(scale: Double) throws -> (LayerHost, StreamingGraphLayer) {
        let h = try LayerHost(width: Int(320 * scale), height: Int(400 * scale), scale: scale)
        let g = StreamingGraphLayer()
        g.frame = Rect(x: 0, y: 0, width: 320, height: 400)
        g.contentsScale = scale
        g.drawsAsynchronously = true
        g.rangeAnimationDuration = 0.5
        g.valueRange = .fixed(-5, 25)
        h.rootLayer.addSublayer(g)
        g.append(contentsOf: (0..<600).map { 10 + 8 * wave($0) })
        h.advance()
        g.waitUntilDrawn()
        h.advance()
        return (h, g)
    }

    /// The value labels' tops by value, on screen now.
    func valueLabels(_ g: StreamingGraphLayer) -> [Double: (top: Double, height: Double, opacity: Double)] {
        var out: [Double: (Double, Double, Double)] = [:]
        for l in g.axisLayer.labels + g.axisLayer.leaving {
            let p = l.layer.presentation()
            out[l.value] = (p.position.y, p.bounds.height, p.isHidden ? 0 : p.opacity)
        }
        return out
    }

    /// Where the plot shows value `v` on `range` (its height `height`).
    func y(_ v: Double, _ range: ClosedRange<Double>, _ height: Double) -> Double {
        (range.upperBound - v) / (range.upperBound - range.lowerBound) * height
    }

    /// On an animated change of range, the value labels keep the old scale
    /// until the new pictures are in, then move with the strip's grid lines
    /// (halfway: between their places, where the strip's transform puts
    /// their lines, within half a pixel), labels new to the scale fading in
    /// and old ones fading out, and end where a graph showing the new range
    /// from the start has them.
    @Test func valueLabelsMoveWithTheGridOnARescale() throws {
        for scale in [1.0, 2.0] {
            let (h, g) = try valueGraph(scale: scale)
            let height = g.plotLayer.bounds.height
            let before = valueLabels(g)
            let old = try #require(g.displayedRange)
            #expect(old == -5...25 && before.count >= 4)

            g.valueRange = .fixed(-20, 60)
            h.advance()
            let new = try #require(g.displayedRange)
            #expect(new == -20...60)
            // The new pictures are still being drawn: the old labels stay.
            g.waitUntilDrawnWithoutApplying()
            h.advance()
            let waiting = valueLabels(g)
            #expect(waiting.keys.sorted() == before.keys.sorted(), "scale \(scale)")
            for (v, l) in before { #expect(waiting[v]?.top == l.top && waiting[v]?.opacity == 1, "scale \(scale), \(v)") }

            // They are in: the strip and the labels animate from now.
            g.waitUntilDrawn()
            let start = h.clock.now
            #expect(g.stripLayer.animation(forKey: "range") != nil)
            let current = Set(g.axisLayer.labels.map(\.value))
            let common = before.keys.filter { current.contains($0) }
            let onlyOld = g.axisLayer.leaving.map(\.value), onlyNew = g.axisLayer.labels.map(\.value).filter { before[$0] == nil }
            #expect(!onlyOld.isEmpty && !onlyNew.isEmpty, "scale \(scale)")
            // A fifth of the way (where the eased timing is not the linear one) and halfway.
            for (step, at) in [(0.1, 0.1), (0.15, 0.25)] {
                h.advance(by: step)
                #expect(abs(h.clock.now - (start + at)) < 1e-12)
                let labels = valueLabels(g)
                let strip = g.stripLayer.presentation().transform
                #expect(!strip.isIdentity)
                var checked = 0
                for v in common {
                    let l = try #require(labels[v])
                    let y0 = y(v, old, height), y1 = y(v, new, height)
                    // Labels away from the plot's top and bottom are centred on their line.
                    guard Swift.min(y0, y1) > l.height / 2 + 1, Swift.max(y0, y1) < height - l.height / 2 - 1 else { continue }
                    let line = try #require(strip.project(Point(x: 0, y: y1))).y
                    let centre = l.top + l.height / 2
                    #expect(abs(centre - line) <= 0.5 / scale + 1e-9, "scale \(scale), t \(at), \(v): label at \(centre), line \(line)")
                    let onItsWay = centre < Swift.max(y0, y1) - 1 && centre > Swift.min(y0, y1) + 1
                    #expect(onItsWay, "scale \(scale), t \(at), \(v): not on its way")
                    #expect(l.opacity == 1)
                    checked += 1
                }
                #expect(checked >= 2, "scale \(scale)")
                for v in onlyOld + onlyNew {
                    let opacity = labels[v]?.opacity ?? -1
                    #expect(opacity > 0.01 && opacity < 0.99, "scale \(scale), t \(at), \(v): opacity \(opacity)")
                }
            }
            if let dir = ProcessInfo.processInfo.environment["STREAM_PNG_DIR"] {
                try h.writePNG(to: "\(dir)/stream-rescale-halfway-\(Int(scale))x.png")
            }

            // The end: where a graph on the new range has them, the old ones gone.
            h.advance(by: 0.3)
            let after = valueLabels(g)
            let (h2, fresh) = try valueGraph(scale: scale)
            fresh.rangeAnimationDuration = 0
            fresh.valueRange = .fixed(-20, 60)
            h2.advance()
            fresh.waitUntilDrawn()
            h2.advance()
            let reference = valueLabels(fresh)
            #expect(fresh.axisLayer.labels.map(\.value) == g.axisLayer.labels.map(\.value))
            for (v, l) in reference { #expect(after[v]?.top == l.top && after[v]?.opacity == 1, "scale \(scale), \(v)") }
            for v in onlyOld { #expect(after[v]?.opacity ?? 0 == 0, "scale \(scale), \(v)") }
            #expect(g.stripLayer.presentation().transform.isIdentity)
            #expect(difference(h.makeImage(), h2.makeImage())?.max == 0, "scale \(scale)")
        }
    }

    /// Without an animation (none asked for, or the first layout), the
    /// value labels change at once.
    @Test func valueLabelsChangeAtOnceWithoutAnAnimation() throws {
        let (h, g) = try valueGraph(scale: 1)
        g.rangeAnimationDuration = 0
        g.valueRange = .fixed(-20, 60)
        h.advance()
        #expect(g.axisLayer.labels.map(\.value).contains(60) && g.axisLayer.leaving.isEmpty)
        let labels = valueLabels(g)
        let height = g.plotLayer.bounds.height
        for (v, l) in labels where v != -20 && v != 60 {
            #expect(abs(l.top + l.height / 2 - y(v, -20...60, height)) <= 0.5 && l.opacity == 1, "\(v)")
        }
        #expect(g.axisLayer.labels.allSatisfy { $0.layer.animationKeys.isEmpty })
    }
}
