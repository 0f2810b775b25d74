import Foundation
import StrataGraphics
import StrataLayers
import StrataTestSupport
import StrataText
import Testing

@testable import StrataCharts

/// The line chart's layers: the fill clipped under the line, nodes, gaps, M4.
@MainActor
@Suite struct LineChartLayerTests {
    let blue = Color(red: 0, green: 0, blue: 1)
    let green = Color(red: 0, green: 0.8, blue: 0)

    func chart(_ data: LineChartData, _ styles: [LineChartSeriesStyle], width: Int = 400, height: Int = 240) throws -> (LayerHost, LineChartLayer) {
        let host = try LayerHost(width: width, height: height)
        let c = LineChartLayer()
        c.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        c.data = data
        c.styles = styles
        c.gridColor = nil
        host.rootLayer.addSublayer(c)
        host.renderFrame()
        return (host, c)
    }

    @Test func theFillIsClippedToTheAreaUnderTheLine() throws {
        // A diagonal from the bottom left to the top right of the data.
        let data = LineChartData([LineChartSeries(x: [0, 10], y: [0, 10])])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black, lineWidth: 1, fillColor: green)])
        c.yRange = 0...10
        host.renderFrame()
        let image = host.makeImage(), plot = c.plotRect
        var checked = 0
        for fx in stride(from: 0.1, through: 0.9, by: 0.1) {
            for fy in stride(from: 0.05, through: 0.95, by: 0.1) {
                let x = plot.minX + fx * plot.width, y = plot.minY + fy * plot.height
                // The line's y at this x, in the plot: the diagonal.
                let lineY = plot.minY + (1 - fx) * plot.height
                guard abs(y - lineY) > 4 else { continue }
                let p = image[Int(x), Int(y)]
                if y > lineY {
                    #expect(p.g > 150 && p.r < 60, "under the line at (\(x), \(y)): \(p)")
                } else {
                    #expect(p.r > 240 && p.g > 240 && p.b > 240, "over the line at (\(x), \(y)): \(p)")
                }
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    @Test func nodesShowWhenSparseAndHideWhenDense() throws {
        func bluePixels(_ n: Int) throws -> Int {
            let data = LineChartData([LineChartSeries(y: (0..<n).map { sin(Double($0) * 0.3) })])
            let (host, _) = try chart(
                data, [LineChartSeriesStyle(color: .black, lineWidth: 1, nodeRadius: 5, nodeHoleRadius: 3, nodeHoleColor: blue)])
            let image = host.makeImage()
            var count = 0
            for y in 0..<image.height { for x in 0..<image.width where image[x, y].b > 200 && image[x, y].r < 60 { count += 1 } }
            return count
        }
        #expect(try bluePixels(12) > 12 * 10)
        #expect(try bluePixels(5000) == 0)
    }

    @Test func theLineStopsAtAHollowNodesRim() throws {
        // A flat line through three hollow nodes: white holes, a red ring.
        let red = Color(red: 1, green: 0, blue: 0)
        let data = LineChartData([LineChartSeries(x: [0, 1, 2], y: [5, 5, 5])])
        let (host, c) = try chart(
            data, [LineChartSeriesStyle(color: red, lineWidth: 2, nodeRadius: 8, nodeHoleRadius: 5, nodeHoleColor: .white)])
        c.yRange = 0...10
        c.maximumNodesPerPoint = 1
        host.renderFrame()
        let image = host.makeImage(), plot = c.plotRect
        let y = Int(plot.midY)
        let centre = Int(plot.midX)
        // Inside the hole: white, the line does not cross it.
        for dx in -3...3 { #expect(image[centre + dx, y] == Pixel(r: 255, g: 255, b: 255, a: 255), "\(dx)") }
        // The ring, and the line between nodes, in the line's colour.
        #expect(image[centre + 7, y].r > 240 && image[centre + 7, y].g < 30)
        #expect(image[centre - Int(plot.width / 4), y].r > 240 && image[centre - Int(plot.width / 4), y].g < 30)
    }

    @Test func aGapBreaksTheLine() throws {
        var y = (0..<100).map { _ in 5.0 }
        for i in 40..<60 { y[i] = .nan }
        let (host, c) = try chart(LineChartData([LineChartSeries(y: y)]), [LineChartSeriesStyle(color: .black, lineWidth: 2)])
        c.yRange = 0...10
        host.renderFrame()
        let image = host.makeImage(), plot = c.plotRect
        let row = Int(plot.midY)
        func inked(_ fx: Double) -> Bool {
            let x = Int(plot.minX + fx * plot.width)
            return (row - 2...row + 2).contains { image[x, $0].r < 100 }
        }
        #expect(inked(0.2) && inked(0.8))
        #expect(!inked(0.5))
    }

    @Test func denseSeriesDrawTheSamePictureFromM4() throws {
        var rng = FuzzRandom(seed: 62)
        var walk = 0.0
        // 40,000 points on 350 columns: M4 keeps 4 a column. (Far more, and the
        // every-point drawing itself goes to the cell rasterizer, which sums
        // the overlaps of so dense an outline and draws it heavier.)
        let ys = (0..<40_000).map { _ in
            walk += rng.uniform() - 0.5
            return walk
        }
        let data = LineChartData([LineChartSeries(y: ys)])
        let style = LineChartSeriesStyle(color: .black, lineWidth: 1)
        let (h1, _) = try chart(data, [style])
        let (h2, full) = try chart(data, [style])
        full.decimatesDenseSeries = false
        h2.renderFrame()
        let d = try #require(difference(h1.makeImage(), h2.makeImage()))
        // Anti-aliasing differs where thousands of segments cross a column that
        // four points cross once; never inked in one and blank in the other.
        #expect(d.mean < 3 && d.over8Percent < 8, "\(d)")
        let a = h1.makeImage(), b = h2.makeImage()
        var opposite = 0
        for y in 0..<a.height {
            for x in 0..<a.width where (a[x, y].r < 64 && b[x, y].r > 230) || (b[x, y].r < 64 && a[x, y].r > 230) { opposite += 1 }
        }
        #expect(opposite == 0)
    }

    @Test func limitLinesAreDrawnAtTheirValuesInFrontOrBehind() throws {
        let data = LineChartData([LineChartSeries(x: [0, 10], y: [0, 10])])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black, lineWidth: 6)])
        c.yRange = 0...10
        c.limitLines = [
            LimitLine(at: 5, color: Color(red: 1, green: 0, blue: 0), lineWidth: 1, dashPattern: []),
            LimitLine(.x, at: 2, color: blue, lineWidth: 1, dashPattern: [], isBehindData: true),
            LimitLine(at: 50, label: "off the plot", color: green),
        ]
        host.renderFrame()
        let image = host.makeImage(), plot = c.plotRect
        let y = Int((plot.minY + 0.5 * plot.height).rounded())
        // The y = 5 line runs across the plot, over the data where they cross (the middle).
        #expect(image[Int(plot.minX + 0.25 * plot.width), y].r > 200 && image[Int(plot.minX + 0.25 * plot.width), y].g < 60)
        #expect(image[Int(plot.midX), y].r > 200 && image[Int(plot.midX), y].g < 60)
        // The x = 2 line is behind the data: where the line crosses it, black.
        let x = Int((plot.minX + 0.2 * plot.width).rounded())
        #expect(image[x, Int(plot.minY + 0.1 * plot.height)].b > 200)
        let crossing = Int(plot.minY + 0.8 * plot.height)
        #expect((crossing - 1...crossing + 1).contains { image[x, $0].b < 60 && image[x, $0].r < 60 })
        // A value outside the plot draws nothing.
        var greens = 0
        for yy in 0..<image.height { for xx in 0..<image.width where image[xx, yy].g > 150 && image[xx, yy].r < 60 { greens += 1 } }
        #expect(greens == 0)
        // The average line is a limit line at the mean of the first series' visible points.
        #expect(c.averageOfFirstSeries(in: 0...10) == 5)
    }

    @Test func highlightingPicksTheNearestPointAndDrawsALineThroughIt() throws {
        let data = LineChartData([
            LineChartSeries(name: "a", x: [0, 10, 20, 30], y: [1, 2, 3, 4]), LineChartSeries(name: "b", x: [14], y: [9]),
        ])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black, lineWidth: 1)])
        c.highlightColor = blue
        #expect(c.highlight(x: 13)! == (1, 0))
        #expect(c.highlight(x: 18)! == (0, 2))
        host.renderFrame()
        let image = host.makeImage(), plot = c.plotRect
        // The line is at x = 20 of 0…30, down the plot.
        let x = Int(plot.minX + 20.0 / 30 * plot.width)
        #expect((x - 1...x + 1).contains { image[$0, Int(plot.maxY - 3)].b > 200 && image[$0, Int(plot.maxY - 3)].r < 60 })
        // From a point in the layer: x = 10 of the data.
        #expect(c.highlight(at: Point(x: plot.minX + plot.width / 3, y: 5))! == (0, 1))
        // The x under a point: the shown range across the plot, both ends and
        // beyond them.
        #expect(abs(c.xValue(at: Point(x: plot.minX, y: 0))! - 0) < 1e-9)
        #expect(abs(c.xValue(at: Point(x: plot.maxX, y: 0))! - 30) < 1e-9)
        #expect(abs(c.xValue(at: Point(x: plot.minX + plot.width / 6, y: 0))! - 5) < 1e-9)
        #expect(abs(c.xValue(at: Point(x: plot.minX - plot.width, y: 0))! + 30) < 1e-9)
        #expect(LineChartLayer().xValue(at: Point(x: 5, y: 5)) == nil)
        // Points that are not numbers map to nothing, and highlight nothing;
        // a huge one maps far beyond the range, where every point is as far as
        // a Double can tell, and highlights one of them.
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(c.xValue(at: Point(x: bad, y: 0)) == nil)
            #expect(c.highlight(at: Point(x: bad, y: 0)) == nil)
        }
        #expect(c.xValue(at: Point(x: 1e30, y: 0))! > 1e25)
        #expect(c.highlight(at: Point(x: 1e30, y: .nan)) != nil)
        c.data = LineChartData([])
        #expect(c.highlight(x: 1) == nil)
        host.renderFrame()
    }

    @Test func zoomPanAndMoveStayWithinTheData() throws {
        let data = LineChartData([LineChartSeries(x: (0...100).map(Double.init), y: (0...100).map { Double($0 % 7) })])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black)])
        #expect(c.shownXRange == 0...100)
        c.zoom(by: 4, aroundX: 50)
        #expect(c.shownXRange == 37.5...62.5)
        // Around a point off-centre, that point keeps its place on screen.
        c.zoom(by: 2, aroundX: 40)
        #expect(abs(c.shownXRange.lowerBound - 38.75) < 1e-9 && abs(c.shownXRange.upperBound - 51.25) < 1e-9)
        c.pan(byX: 1000)
        #expect(abs(c.shownXRange.upperBound - 100) < 1e-9 && abs(c.shownXRange.lowerBound - 87.5) < 1e-9)
        c.moveView(toX: -5)
        #expect(abs(c.shownXRange.lowerBound) < 1e-9 && abs(c.shownXRange.upperBound - 12.5) < 1e-9)
        // No narrower than the minimum fraction.
        c.minimumVisibleFraction = 0.05
        c.zoom(by: 1000)
        #expect(abs((c.shownXRange.upperBound - c.shownXRange.lowerBound) - 5) < 1e-9)
        // Zooming out past the data shows all of it; hostile factors do nothing.
        c.zoom(by: 0.001)
        #expect(c.visibleXRange == nil)
        c.zoom(by: .nan)
        c.zoom(by: -2)
        c.pan(byX: .infinity)
        #expect(c.visibleXRange == nil)
        // The y range follows the visible data: points 0…6 repeat, so a narrow window of one value is still a range.
        c.visibleXRange = 14...14.5
        host.renderFrame()
        #expect(c.plotRect.height > 0)
    }

    @Test func titleLegendAndThemesTakeTheirPlaces() throws {
        let data = LineChartData([LineChartSeries(name: "first", y: [1, 2, 3]), LineChartSeries(y: [3, 2, 1])])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: blue, lineWidth: 3), LineChartSeriesStyle(color: green)])
        let bare = c.plotRect
        c.title = "Title"
        c.legendPosition = .top
        c.legendForm = .square
        host.renderFrame()
        // Title and legend rows push the plot down and shorten it.
        #expect(c.plotRect.minY > bare.minY + 20 && c.plotRect.maxY == bare.maxY)
        // The legend's square for the named series, in its colour, between the title and the plot.
        let image = host.makeImage()
        var squares = 0
        for y in Int(bare.minY)..<Int(c.plotRect.minY) {
            for x in 0..<120 where image[x, y].b > 200 && image[x, y].r < 60 && image[x, y].g < 60 { squares += 1 }
        }
        #expect(squares > 20)
        c.legendPosition = .bottom
        host.renderFrame()
        #expect(c.plotRect.maxY < bare.maxY - 10)
        c.apply(.dark)
        #expect(c.backgroundColor == LineChartTheme.dark.background && c.styles == LineChartTheme.dark.styles)
        c.apply(.health)
        #expect(c.styles == [.health])
        host.renderFrame()
    }

    /// The rows of a column where the picture is dark.
    func inkedRows(_ image: Image, x: Int) -> [Int] {
        (0..<image.height).filter { image[x, $0].r < 100 && image[x, $0].g < 100 }
    }

    @Test func aDataChangeMovesTheLineAtKnownTimes() throws {
        let (host, c) = try chart(LineChartData([LineChartSeries(y: [2, 2, 2, 2])]), [LineChartSeriesStyle(color: .black, lineWidth: 2)])
        c.yRange = 0...10
        c.dataChangeDuration = 1
        host.renderFrame()
        let plot = c.plotRect, x = Int(plot.midX)
        func rowOf(_ v: Double) -> Double { plot.minY + (10 - v) / 10 * plot.height }
        c.data = LineChartData([LineChartSeries(y: [8, 8, 8, 8])])
        host.renderFrame()
        // Halfway through an ease-in-ease-out, halfway across: at 5.
        host.advance(by: 0.5)
        let mid = inkedRows(host.makeImage(), x: x)
        #expect(!mid.isEmpty && mid.allSatisfy { abs(Double($0) - rowOf(5)) < 3 }, "\(mid)")
        host.advance(by: 0.6)
        let end = inkedRows(host.makeImage(), x: x)
        #expect(!end.isEmpty && end.allSatisfy { abs(Double($0) - rowOf(8)) < 3 }, "\(end)")
        // Fewer points: the removed one shrinks into the new end while the
        // line moves, so halfway the line is halfway.
        c.data = LineChartData([LineChartSeries(y: [4, 4, 4])])
        host.renderFrame()
        host.advance(by: 0.5)
        let shrinking = inkedRows(host.makeImage(), x: x)
        #expect(!shrinking.isEmpty && shrinking.allSatisfy { abs(Double($0) - rowOf(6)) < 3 }, "\(shrinking)")
        host.advance(by: 0.6)
        #expect(inkedRows(host.makeImage(), x: x).allSatisfy { abs(Double($0) - rowOf(4)) < 3 })
    }

    @Test func anAppendedPointGrowsOutOfTheOldEnd() throws {
        let (host, c) = try chart(
            LineChartData([LineChartSeries(x: [0, 1], y: [5, 5])]), [LineChartSeriesStyle(color: .black, lineWidth: 2)])
        c.yRange = 0...10
        c.visibleXRange = 0...2
        c.dataChangeDuration = 1
        host.renderFrame()
        let plot = c.plotRect
        func column(_ x: Double) -> Int { Int(plot.minX + x / 2 * plot.width) }
        func rowOf(_ v: Double) -> Double { plot.minY + (10 - v) / 10 * plot.height }
        var grown = c.data
        grown.series[0].append(x: 2, y: 9)
        c.data = grown
        host.renderFrame()
        host.advance(by: 0.5)
        // Halfway: the new point is at (1.5, 7), so the line reaches 6 at x 1.25 and not x 1.8.
        let image = host.makeImage()
        let at125 = inkedRows(image, x: column(1.25))
        #expect(!at125.isEmpty && at125.allSatisfy { abs(Double($0) - rowOf(6)) < 3 }, "\(at125)")
        #expect(inkedRows(image, x: column(1.8)).isEmpty)
        host.advance(by: 0.6)
        let end = inkedRows(host.makeImage(), x: column(1.8))
        #expect(!end.isEmpty && end.allSatisfy { abs(Double($0) - rowOf(8.2)) < 3 }, "\(end)")
    }

    @Test func theLineDrawsInAndTheValuesGrow() throws {
        let (host, c) = try chart(LineChartData([LineChartSeries(y: [5, 5, 5, 5])]), [LineChartSeriesStyle(color: .black, lineWidth: 2)])
        c.yRange = 0...10
        host.renderFrame()
        let plot = c.plotRect
        c.animateEntrance(.drawIn, duration: 1)
        host.advance(by: 0.001)
        host.advance(by: 0.3)
        // Part way: the left of the line is drawn, the right not yet.
        let image = host.makeImage()
        #expect(!inkedRows(image, x: Int(plot.minX + 0.05 * plot.width)).isEmpty)
        #expect(inkedRows(image, x: Int(plot.minX + 0.95 * plot.width)).isEmpty)
        host.advance(by: 1)
        #expect(!inkedRows(host.makeImage(), x: Int(plot.minX + 0.95 * plot.width)).isEmpty)
        // Growing: from the baseline (0, the bottom) up to 5.
        c.animateEntrance(.grow, duration: 1)
        host.advance(by: 0.001)
        let start = inkedRows(host.makeImage(), x: Int(plot.midX))
        #expect(start.allSatisfy { Double($0) > plot.minY + 0.9 * plot.height }, "\(start)")
        host.advance(by: 1.1)
        let grown = inkedRows(host.makeImage(), x: Int(plot.midX))
        #expect(!grown.isEmpty && grown.allSatisfy { abs(Double($0) - plot.midY) < 3 }, "\(grown)")
    }

    @Test func valueLabelsNeverOverlap() throws {
        let (host, c) = try chart(LineChartData([LineChartSeries(y: [1, 5, 2, 8, 3, 7, 4, 6])]), [LineChartSeriesStyle(color: .black)])
        c.showsValues = true
        host.renderFrame()
        // Sparse: every point has its label, inside the plot.
        #expect(c.valueLabelFrames.count == 8)
        #expect(c.valueLabelFrames.allSatisfy { c.plotRect.insetBy(dx: -1e-9, dy: -1e-9).contains($0) })
        // Crowded: labels are dropped until none meet, at every width.
        for width in stride(from: 100.0, through: 800, by: 70) {
            c.frame = Rect(x: 0, y: 0, width: width, height: 240)
            c.data = LineChartData([
                LineChartSeries(y: (0..<90).map { sin(Double($0) * 0.4) * 10 }),
                LineChartSeries(y: (0..<90).map { cos(Double($0) * 0.3) * 10 }),
            ])
            host.renderFrame()
            let boxes = c.valueLabelFrames
            #expect(!boxes.isEmpty)
            for (i, a) in boxes.enumerated() {
                for b in boxes[(i + 1)...] { #expect(!a.intersects(b), "\(width): \(a) \(b)") }
            }
        }
        // Too many points: none.
        c.data = LineChartData([LineChartSeries(y: (0..<500).map(Double.init))])
        host.renderFrame()
        #expect(c.valueLabelFrames.isEmpty)
    }

    @Test func hostileSettingsAreHeldOrIgnored() throws {
        let data = LineChartData([LineChartSeries(y: [1, 3, 2, 5, 4])])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black, lineWidth: .nan, nodeRadius: 1e30, nodeHoleRadius: -4)])
        #expect(c.styles[0].lineWidth == 2 && c.styles[0].nodeRadius == 64 && c.styles[0].nodeHoleRadius == 0)
        for d in [Double.nan, -3, .infinity, 1e30] {
            c.dataChangeDuration = d
            #expect(c.dataChangeDuration >= 0 && c.dataChangeDuration <= 60)
            c.animateEntrance(.grow, duration: d)
        }
        for v in [Double.nan, .infinity, -.infinity, 1e30, -1e30, 0] {
            c.layoutMargins = EdgeInsets(top: v, left: v, bottom: v, right: v)
            c.maximumNodesPerPoint = v
            c.minimumVisibleFraction = v
            c.limitLines = [LimitLine(at: v, label: "x", lineWidth: v, dashPattern: [v, 1]), LimitLine(.x, at: v)]
            c.yRange = v.isFinite ? Swift.min(0, v)...Swift.max(0, v) : nil
            c.maximumValueLabels = v.isFinite ? Int(Swift.max(-1e9, Swift.min(1e9, v))) : -1
            c.showsValues = true
            c.zoom(by: v, aroundX: v)
            c.pan(byX: v)
            c.moveView(toX: v)
            c.highlight(x: v)
            host.renderFrame()
            #expect(c.plotRect.width >= 0 && c.plotRect.height >= 0 && c.plotRect.width.isFinite)
        }
        #expect(LimitLine(at: 1, lineWidth: .nan, dashPattern: [.infinity]).dashPattern.isEmpty)
    }

    @Test func emptyAndHostileDataAreSafe() throws {
        let (host, c) = try chart(LineChartData([]), [])
        c.data = LineChartData([LineChartSeries(x: [1, 1, 1], y: [.nan, .infinity, 3])])
        c.frame = Rect(x: 0, y: 0, width: 0, height: 0)
        host.renderFrame()
        c.frame = Rect(x: 0, y: 0, width: 50, height: 30)
        c.visibleXRange = 5...5
        c.yRange = 3...3
        host.renderFrame()
        #expect(c.plotRect.width >= 0)
    }
}

/// Axis sides, fixed viewport offsets, x grid and axis line, rotated labels.
@MainActor
@Suite struct LineChartAxisOptionTests {
    func chart(width: Double = 600, height: Double = 300, _ configure: (LineChartLayer) -> Void) throws -> (LayerHost, LineChartLayer) {
        let host = try LayerHost(width: Int(width), height: Int(height))
        let c = LineChartLayer()
        c.frame = Rect(x: 0, y: 0, width: width, height: height)
        c.data = LineChartData([LineChartSeries(x: (0..<50).map(Double.init), y: (0..<50).map { sin(Double($0) / 5) * 40 + 60 })])
        c.styles = [LineChartSeriesStyle(color: .black, lineWidth: 1)]
        configure(c)
        host.rootLayer.addSublayer(c)
        host.renderFrame()
        return (host, c)
    }

    func shownLabels(_ c: LineChartLayer) -> [TextLayer] { c.labelLayers.filter { !$0.isHidden } }

    @Test func valueLabelsSitOnTheChosenSide() throws {
        for side in [YAxisPosition.left, .right] {
            let (_, c) = try chart { $0.yAxisPosition = side }
            let plot = c.plotRect
            let values = shownLabels(c).filter { $0.frame.maxY <= plot.maxY + 8 && $0.frame.minY < plot.maxY - 2 }
            #expect(values.count >= 3)
            for l in values {
                if side == .left { #expect(l.frame.maxX <= plot.minX + 1e-9) } else { #expect(l.frame.minX >= plot.maxX) }
            }
            if side == .right { #expect(plot.minX <= 8 + 1e-9) }
        }
    }

    @Test func xLabelsSitOnTheChosenSide() throws {
        let (_, top) = try chart { $0.xAxisPosition = .top }
        let xs = shownLabels(top).filter { $0.frame.maxY <= top.plotRect.minY + 1e-9 }
        #expect(xs.count >= 3)
        let (_, bottom) = try chart { _ in }
        #expect(shownLabels(bottom).filter { $0.frame.minY >= bottom.plotRect.maxY }.count >= 3)
    }

    @Test func viewPortOffsetsFixThePlot() throws {
        let (host, c) = try chart(width: 1200, height: 600) { $0.setViewPortOffsets(left: 48, top: 84, right: 96, bottom: 60) }
        #expect(c.plotRect == Rect(x: 48, y: 84, width: 1056, height: 456))
        c.setViewPortOffsets(left: .nan, top: -5, right: 1e9, bottom: 0)
        host.renderFrame()
        #expect(c.plotRect.minX == 0 && c.plotRect.minY == 0 && c.plotRect.width == 0)
        c.resetViewPortOffsets()
        host.renderFrame()
        #expect(c.plotRect.width > 1000 && c.plotRect.minX > 8)
        #expect(c.viewPortInsets == nil)
        // The same as a property, held to 0…100,000 on every edge.
        c.viewPortInsets = EdgeInsets(top: 84, left: 48, bottom: 60, right: 96)
        host.renderFrame()
        #expect(c.plotRect == Rect(x: 48, y: 84, width: 1056, height: 456))
        c.viewPortInsets = EdgeInsets(top: -5, left: .nan, bottom: 2e5, right: 10)
        #expect(c.viewPortInsets == EdgeInsets(top: 0, left: 0, bottom: 100_000, right: 10))
        c.layoutMargins = EdgeInsets(top: -1, left: 3, bottom: 1e6, right: .infinity)
        #expect(c.layoutMargins == EdgeInsets(top: 0, left: 3, bottom: 100_000, right: 0))
    }

    @Test func xGridLinesAndTheAxisLineAreDrawn() throws {
        let grid = Color(red: 0, green: 0.6, blue: 0)
        let (host, c) = try chart {
            $0.gridColor = grid
            $0.showsXGridLines = true
            $0.xGridLineDashPattern = [3, 3]
            $0.xAxisLineColor = Color(red: 0, green: 0, blue: 1)
            $0.xTickLength = 5
            $0.styles = [LineChartSeriesStyle(color: .black, lineWidth: 0)]
        }
        let image = host.makeImage(), plot = c.plotRect
        // A column of the x grid: dashes 3 on, 3 off, down the plot.
        let xLabel = try #require(shownLabels(c).first { $0.frame.minY >= plot.maxY && $0.frame.midX > plot.minX + 30 })
        let gx = Int(xLabel.frame.midX.rounded(.down))
        let rows = Array(Int(plot.minY) + 1..<Int(plot.maxY) - 1)
        let column: [Bool] = rows.map { (y: Int) -> Bool in
            let p = image[gx, y]
            return p.g > 100 && p.r < 100
        }
        // 3 on, 3 off: a change every 3 pixels or so.
        let changes = zip(column, column.dropFirst()).filter { $0 != $1 }.count
        #expect(changes > column.count / 4, "\(changes) changes over \(column.count) pixels")
        #expect(column.filter { $0 }.count > column.count / 3)
        // The axis line under the plot and a tick below it.
        let below = Int(plot.maxY)
        #expect(image[Int(plot.midX), below].b > 200)
        #expect(image[gx, below + 3].b > 150)
    }

    @Test func rotatedXLabelsNeverOverlap() throws {
        for width in [100.0, 250, 600, 1500, 4000] {
            for rotation in [-45.0, -90, 30] {
                let labels = AxisLabels.values(0, 1e7, length: width, font: Font(size: 11), rotation: rotation)
                #expect(AxisLabels.fits(labels, length: width, gap: 6))
                let turn = rotation * .pi / 180
                for l in labels {
                    let size = textSize(l.text, font: Font(size: 11))
                    let along: Double = size.width * abs(cos(turn)) + size.height * abs(sin(turn))
                    #expect(abs(l.length - along) < 1e-9)
                }
            }
        }
        let (_, c) = try chart { $0.xLabelRotation = -45 }
        let rotated = shownLabels(c).filter { $0.transform != .identity }
        #expect(rotated.count >= 2)
        // Their turned boxes lie below the plot and apart along it.
        let boxes = rotated.map { $0.frame }
        for b in boxes { #expect(b.minY >= c.plotRect.maxY) }
        c.xLabelRotation = .nan
        #expect(c.xLabelRotation == 0)
        c.xLabelRotation = 400
        #expect(c.xLabelRotation == 90)
    }

    @Test func theAverageLineTakesItsLabelAndCapsule() throws {
        let (_, c) = try chart {
            $0.showsAverageLine = true
            $0.averageLineLabel = "avg"
            $0.averageLabelPosition = .start
            $0.averageLabelBackgroundColor = .white
        }
        let label = try #require(c.sublayers.flatMap { $0.sublayers }.compactMap { $0 as? TextLayer }.first { $0.string == "avg" })
        #expect(label.backgroundColor == .white && label.cornerRadius > 0)
        #expect(abs(label.frame.minX - (c.plotRect.minX + 8)) < 1e-9)
    }
}

/// Bands, coloured nodes, lines coloured by value, formatters, markers,
/// y zoom and the animated viewport.
@MainActor
@Suite struct LineChartStyleAndViewportTests {
    let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
    let green = Color(red: 0, green: 0.8, blue: 0)

    func chart(_ data: LineChartData, _ styles: [LineChartSeriesStyle], configure: (LineChartLayer) -> Void = { _ in }) throws -> (
        LayerHost, LineChartLayer
    ) {
        let host = try LayerHost(width: 400, height: 240)
        let c = LineChartLayer()
        c.frame = Rect(x: 0, y: 0, width: 400, height: 240)
        c.gridColor = nil
        c.dataChangeDuration = 0
        c.data = data
        c.styles = styles
        configure(c)
        host.rootLayer.addSublayer(c)
        host.renderFrame()
        return (host, c)
    }

    @Test func aBandFillsBetweenTwoSeriesOnly() throws {
        let x: [Double] = [0, 10]
        let data = LineChartData([LineChartSeries(x: x, y: [8, 8]), LineChartSeries(x: x, y: [4, 4])])
        var upper = LineChartSeriesStyle(color: .black, lineWidth: 1, fillColor: green)
        upper.fillToSeries = 1
        let (host, c) = try chart(data, [upper, LineChartSeriesStyle(color: .black, lineWidth: 1)]) { $0.yRange = 0...10 }
        let image = host.makeImage(), plot = c.plotRect
        func at(_ fx: Double, _ value: Double) -> Pixel {
            image[Int(plot.minX + fx * plot.width), Int(plot.minY + (1 - value / 10) * plot.height)]
        }
        #expect(at(0.5, 6).g > 150 && at(0.5, 6).r < 60)  // inside the band
        #expect(at(0.5, 9) == Pixel(r: 255, g: 255, b: 255, a: 255))  // above it
        #expect(at(0.5, 2) == Pixel(r: 255, g: 255, b: 255, a: 255))  // below it, down to the baseline: empty
        // The band's path walks the partner backwards to close.
        let segments = LineChartMode.monotone.segments(through: [Point(x: 0, y: 0), Point(x: 1, y: 3), Point(x: 2, y: 1)])
        let back = LineChartMode.reversed(segments, from: Point(x: 0, y: 0))
        #expect(back.map(\.end) == [Point(x: 1, y: 3), Point(x: 0, y: 0)])
        if case .curve(_, let c1, let c2) = segments[1], case .curve(_, let r1, let r2) = back[0] {
            #expect(r1 == c2 && r2 == c1)
        } else {
            Issue.record("monotone segments should be curves")
        }
    }

    @Test func nodesTakeTheirColoursByIndex() throws {
        var look = LineChartSeriesStyle(color: .black, lineWidth: 0, nodeRadius: 6)
        look.nodeColors = [red, blue]
        let data = LineChartData([LineChartSeries(x: [0, 1, 2, 3], y: [5, 5, 5, 5])])
        let (host, c) = try chart(data, [look]) {
            $0.yRange = 0...10
            $0.maximumNodesPerPoint = 1
        }
        let image = host.makeImage(), plot = c.plotRect
        for i in 0..<4 {
            let p = image[Int(plot.minX + Double(i) / 3 * plot.width) + (i == 3 ? -3 : i == 0 ? 3 : 0), Int(plot.midY)]
            if i % 2 == 0 { #expect(p.r > 200 && p.b < 60, "\(i): \(p)") } else { #expect(p.b > 200 && p.r < 60, "\(i): \(p)") }
        }
    }

    @Test func theLineIsColouredByValue() throws {
        var look = LineChartSeriesStyle(color: .black, lineWidth: 6)
        look.lineGradient = [LineChartColorStop(100, red), LineChartColorStop(0, blue)]
        // A line high on the left, low on the right.
        let data = LineChartData([LineChartSeries(x: [0, 1, 2, 3], y: [95, 95, 5, 5])])
        let (host, c) = try chart(data, [look]) { $0.yRange = 0...100 }
        let image = host.makeImage(), plot = c.plotRect
        let high = image[Int(plot.minX + 0.15 * plot.width), Int(plot.minY + 0.05 * plot.height)]
        let low = image[Int(plot.minX + 0.85 * plot.width), Int(plot.minY + 0.95 * plot.height)]
        #expect(high.r > 200 && high.b < 60, "\(high)")
        #expect(low.b > 200 && low.r < 60, "\(low)")
    }

    @Test func formattersAndMarkersWriteTheText() throws {
        let data = LineChartData([LineChartSeries(name: "hr", x: [0, 50, 100], y: [60, 90, 70])])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black)]) {
            $0.xLabelFormatter = { "x\(Int($0))" }
            $0.yLabelFormatter = { "\(Int($0)) bpm" }
            $0.markerText = { s, i in "series \(s) point \(i)" }
        }
        let texts = c.labelLayers.filter { !$0.isHidden }.compactMap(\.string)
        #expect(texts.contains { $0.hasPrefix("x") } && texts.contains { $0.hasSuffix(" bpm") })
        c.highlight(x: 48)
        host.renderFrame()
        let strings = c.sublayers.flatMap { [$0] + $0.sublayers }.compactMap { ($0 as? TextLayer)?.string }
        #expect(strings.contains("series 0 point 1"))
    }

    @Test func yZoomAndPanStayWithinTheData() throws {
        let data = LineChartData([LineChartSeries(y: (0..<100).map { Double($0) })])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black)])
        let before = c.shownYRange
        c.zoomY(by: 4, aroundY: 50)
        host.renderFrame()
        let zoomed = try #require(c.yRange)
        #expect(abs((zoomed.upperBound - zoomed.lowerBound) - (before.upperBound - before.lowerBound) / 4) < 1e-9)
        // 50 stays where it was on screen.
        let t0 = (50 - before.lowerBound) / (before.upperBound - before.lowerBound)
        #expect(abs((50 - zoomed.lowerBound) / (zoomed.upperBound - zoomed.lowerBound) - t0) < 1e-9)
        c.panY(by: 1000)
        #expect(c.yRange!.upperBound == 99)
        c.panY(by: -1e9)
        #expect(c.yRange!.lowerBound == 0)
        c.zoomY(by: 1e-3)
        #expect(c.yRange == nil)
        c.zoomY(by: .nan)
        c.panY(by: .infinity)
        #expect(c.yRange == nil)
        c.minimumVisibleYFraction = 0.5
        c.zoomY(by: 100)
        #expect(abs(c.yRange!.upperBound - c.yRange!.lowerBound - 49.5) < 1e-9)
    }

    @Test func theViewportMovesFrameByFrame() throws {
        let data = LineChartData([LineChartSeries(y: (0..<1001).map { sin(Double($0) / 30) })])
        let (host, c) = try chart(data, [LineChartSeriesStyle(color: .black)]) { $0.visibleXRange = 0...100 }
        let clock = try #require(host.clock as? ManualClock)
        c.setVisibleXRange(500...700, duration: 1, timingFunction: .linear)
        #expect(c.isMovingViewport)
        clock.advance(by: 0.25)
        host.renderFrame()
        #expect(abs(c.visibleXRange!.lowerBound - 125) < 1e-9 && abs(c.visibleXRange!.upperBound - 250) < 1e-9)
        clock.advance(by: 0.5)
        host.renderFrame()
        #expect(abs(c.visibleXRange!.lowerBound - 375) < 1e-9)
        clock.advance(by: 0.5)
        host.renderFrame()
        #expect(c.visibleXRange == 500...700 && !c.isMovingViewport)
        // Eased: halfway in time is halfway in space for ease-in-ease-out, not before.
        c.moveView(toX: 0, duration: 1)
        clock.advance(by: 0.1)
        host.renderFrame()
        let early = 500 - c.visibleXRange!.lowerBound
        #expect(early > 0 && early < 50)
        // Setting the range from outside stops the move.
        c.visibleXRange = 10...20
        clock.advance(by: 0.1)
        host.renderFrame()
        #expect(c.visibleXRange == 10...20 && !c.isMovingViewport)
        // Without a host the range is set at once.
        let lone = LineChartLayer()
        lone.data = data
        lone.setVisibleXRange(1...2, duration: 1)
        #expect(lone.visibleXRange == 1...2)
    }
}

@MainActor
@Suite struct DisplayLinkTests {
    @Test func linksAreCalledEachFrameUntilInvalidated() throws {
        let host = try LayerHost(width: 10, height: 10)
        let clock = try #require(host.clock as? ManualClock)
        var times: [Double] = []
        let link = DisplayLink { times.append($0.timestamp) }
        link.add(to: host)
        #expect(link.isValid)
        host.advance(by: 0.5)
        host.advance(by: 0.5)
        link.isPaused = true
        host.advance(by: 0.5)
        link.isPaused = false
        host.advance(by: 0.5)
        link.invalidate()
        host.advance(by: 0.5)
        #expect(times == [0.5, 1.0, 2.0])
        #expect(!link.isValid)
        _ = clock
        // A link may end itself from its own callback.
        var calls = 0
        let once = DisplayLink { l in
            calls += 1
            l.invalidate()
        }
        once.add(to: host)
        host.advance()
        host.advance()
        #expect(calls == 1)
    }
}

/// The value-to-plot mapping every part of the chart's layout uses.
@MainActor
@Suite struct PlotMappingTests {
    @Test func valuesLandAcrossAndUpThePlot() {
        let map = PlotMapping(plot: Rect(x: 40, y: 20, width: 200, height: 100), xRange: 10...30, yRange: -5...15)
        // x: (v − 10) / 20 · 200, from the plot's left; y: (15 − v) / 20 · 100, from its top.
        #expect(map.x(10) == 0 && map.x(15) == 50 && map.x(30) == 200 && map.x(35) == 250)
        #expect(map.y(15) == 0 && map.y(10) == 25 && map.y(-5) == 100 && map.y(-10) == 125)
        // A range of no width maps every value to the middle.
        let flat = PlotMapping(plot: Rect(x: 0, y: 0, width: 200, height: 100), xRange: 7...7, yRange: 3...3)
        #expect(flat.x(7) == 100 && flat.x(-1e9) == 100 && flat.y(3) == 50 && flat.y(.infinity) == 50)
    }

    @Test func theChartsPlotIsTheMappingsPlot() throws {
        let chart = LineChartLayer()
        chart.frame = Rect(x: 0, y: 0, width: 400, height: 200)
        chart.data = LineChartData([LineChartSeries(x: [0, 1, 2], y: [1, 3, 2])])
        chart.layoutChart()
        #expect(chart.plotRect.width > 0 && chart.plotRect.maxX <= 400 && chart.plotRect.maxY <= 200)
        let scale = chart.yScale(xRange: 0...2)
        #expect(scale.lower <= 1 && scale.upper >= 3)
    }
}
