import Foundation
import StrataCharts
import StrataGraphics
import StrataLayers
import StrataText

/// The charts' pictures for `strata gallery` (`Gallery.pictures`).
@MainActor
public enum ChartGallery {
    /// Line charts: a week of heart rate in the
    /// Health look (monotone line, hollow nodes, a fading fill clipped under
    /// the line, the average dashed), and two series over a year of dates,
    /// one stepped, one Catmull-Rom with a gap.
    public static func lineCharts() throws -> LayerHost {
        let host = try LayerHost(width: 960, height: 360, scale: 1, backgroundColor: Color(white: 0.93))
        let utc = Calendar.gregorianUTC
        let health = card(Rect(x: 16, y: 16, width: 456, height: 328))
        let rates: [Double] = [62, 70, 66, 81, 76, 90, 84, 73, 79, 68, 72, 77, 85, 71]
        health.data = LineChartData([LineChartSeries(name: "Heart rate", y: rates)])
        health.apply(.health)
        health.title = "Heart Rate"
        health.showsAverageLine = true
        health.layoutMargins = EdgeInsets(top: 16, left: 12, bottom: 12, right: 16)
        host.rootLayer.addSublayer(health)
        let year = card(Rect(x: 488, y: 16, width: 456, height: 328))
        year.xIsDate = true
        year.calendar = utc
        let start = utc.date(from: DateComponents(year: 2024, month: 1, day: 1))!
        let days = (0..<366).map { start.addingTimeInterval(Double($0) * 86_400) }
        let temperature = days.indices.map { 10 - 12 * cos(Double($0) / 366 * 2 * .pi) + 3 * sin(Double($0) * 0.9) }
        let weekly = days.indices.map { i in i % 7 == 0 ? Double(20 + (i / 7) % 9) : Double.nan }
        var rain = LineChartSeries(
            name: "Rain", dates: days.enumerated().filter { $0.offset % 7 == 0 }.map(\.element), y: weekly.filter { !$0.isNaN })
        for i in [150, 157, 164] { rain.remove(at: IndexSet([rain.insertionIndex(days[i].timeIntervalSinceReferenceDate)])) }
        year.data = LineChartData([
            LineChartSeries(
                name: "Temperature", dates: days, y: temperature.enumerated().map { $0.offset >= 200 && $0.offset < 215 ? .nan : $0.element }),
            rain,
        ])
        year.styles = [
            LineChartSeriesStyle(
                color: Color(red: 0.1, green: 0.45, blue: 0.9), lineWidth: 1.5, mode: .catmullRom,
                fillColor: Color(red: 0.1, green: 0.45, blue: 0.9, alpha: 0.15)),
            LineChartSeriesStyle(color: Color(red: 0.1, green: 0.6, blue: 0.3), lineWidth: 2, mode: .stepEnd, nodeRadius: 3),
        ]
        year.layoutMargins = EdgeInsets(top: 16, left: 12, bottom: 12, right: 16)
        year.title = "Weather, 2024"
        year.legendPosition = .top
        year.limitLines = [
            LimitLine(at: 25, label: "Hot", labelPosition: .topLeft, color: Color(red: 0.85, green: 0.3, blue: 0.1)),
            LimitLine(
                .x, at: utc.date(from: DateComponents(year: 2024, month: 6, day: 21))!.timeIntervalSinceReferenceDate,
                label: "Solstice", labelPosition: .bottomRight, isBehindData: true),
        ]
        host.rootLayer.addSublayer(year)
        host.renderFrame()
        year.highlight(x: utc.date(from: DateComponents(year: 2024, month: 10, day: 9))!.timeIntervalSinceReferenceDate)
        host.renderFrame()
        return host
    }

    /// A chart on a white card with rounded corners.
    static func card(_ frame: Rect) -> LineChartLayer {
        let chart = LineChartLayer()
        chart.frame = frame
        chart.backgroundColor = .white
        chart.cornerRadius = 12
        return chart
    }

    /// More line charts: ten million points (drawn from each pixel
    /// column's M4), a dark chart with a band of normal values, a line
    /// coloured by value, coloured nodes and turned date labels, and a light
    /// chart of three series zoomed into a quarter of a year with a legend
    /// below and a highlighted point.
    public static func moreLineCharts() throws -> LayerHost {
        let host = try LayerHost(width: 960, height: 700, scale: 1, backgroundColor: Color(white: 0.93))
        let utc = Calendar.gregorianUTC

        let big = card(Rect(x: 16, y: 16, width: 456, height: 320))
        // DECIMATE.md's random walk: SplitMix64 seeded with 7, steps u − ½.
        var rng = SplitMix64(seed: 7)
        var sum = 0.0
        let walk = (0..<10_000_000).map { _ in
            sum += rng.uniform() - 0.5
            return sum
        }
        big.data = LineChartData([LineChartSeries(name: "walk", x: (0..<walk.count).map(Double.init), y: walk)])
        var look = LineChartSeriesStyle(color: Color(red: 0.1, green: 0.45, blue: 0.9), lineWidth: 1)
        look.fillColor = Color(red: 0.1, green: 0.45, blue: 0.9, alpha: 0)
        look.fillTopColor = Color(red: 0.1, green: 0.45, blue: 0.9, alpha: 0.3)
        big.styles = [look]
        big.title = "10,000,000 points"
        big.layoutMargins = EdgeInsets(top: 14, left: 12, bottom: 10, right: 16)
        big.showsAverageLine = true
        host.rootLayer.addSublayer(big)

        let dark = LineChartLayer()
        dark.frame = Rect(x: 488, y: 16, width: 456, height: 320)
        dark.cornerRadius = 12
        dark.apply(.dark)
        let start = utc.date(from: DateComponents(year: 2026, month: 2, day: 1))!
        let days = (0..<28).map { start.addingTimeInterval(Double($0) * 86_400) }
        let resting = days.indices.map { 62 + 9 * sin(Double($0) / 3.1) + Double(($0 * 7) % 5) }
        dark.data = LineChartData([
            LineChartSeries(name: "Resting", dates: days, y: resting),
            LineChartSeries(name: "Normal high", dates: days, y: days.map { _ in 70 }),
            LineChartSeries(name: "Normal low", dates: days, y: days.map { _ in 58 }),
        ])
        var rest = LineChartSeriesStyle(color: .white, lineWidth: 3, mode: .monotone, nodeRadius: 3.5)
        rest.lineGradient = [
            LineChartColorStop(72, Color(red: 1, green: 0.35, blue: 0.3)), LineChartColorStop(64, Color(red: 1, green: 0.85, blue: 0.3)),
            LineChartColorStop(56, Color(red: 0.3, green: 0.85, blue: 0.5)),
        ]
        rest.nodeColors = [Color(white: 0.95), Color(white: 0.6)]
        var band = LineChartSeriesStyle(color: Color(white: 1, alpha: 0), lineWidth: 0, mode: .linear)
        band.fillColor = Color(red: 0.3, green: 0.85, blue: 0.5, alpha: 0.12)
        band.fillToSeries = 2
        dark.styles = [rest, band, LineChartSeriesStyle(color: Color(white: 1, alpha: 0), lineWidth: 0)]
        dark.xIsDate = true
        dark.calendar = utc
        dark.xLabelRotation = -40
        dark.yRange = 50...80
        dark.title = "Resting heart rate, February"
        dark.layoutMargins = EdgeInsets(top: 14, left: 12, bottom: 10, right: 16)
        dark.maximumNodesPerPoint = 1
        host.rootLayer.addSublayer(dark)

        let light = card(Rect(x: 16, y: 352, width: 928, height: 332))
        light.apply(.light)
        let year = utc.date(from: DateComponents(year: 2025, month: 1, day: 1))!
        let hours = (0..<(365 * 4)).map { year.addingTimeInterval(Double($0) * 21_600) }
        func wave(_ phase: Double, _ amp: Double, _ base: Double) -> [Double] {
            hours.indices.map { base + amp * sin(Double($0) / 240 + phase) + 2 * sin(Double($0) * 0.9 + phase) }
        }
        light.data = LineChartData([
            LineChartSeries(name: "Berlin", dates: hours, y: wave(0, 10, 10)),
            LineChartSeries(name: "Lisbon", dates: hours, y: wave(0.4, 6, 17)),
            LineChartSeries(name: "Oslo", dates: hours, y: wave(-0.3, 12, 5)),
        ])
        light.xIsDate = true
        light.calendar = utc
        light.legendPosition = .bottom
        light.legendForm = .circle
        light.title = "Temperature, °C (April to June)"
        light.layoutMargins = EdgeInsets(top: 14, left: 12, bottom: 10, right: 20)
        light.yGridLineDashPattern = [2, 3]
        light.visibleXRange =
            utc.date(from: DateComponents(year: 2025, month: 4, day: 1))!
            .timeIntervalSinceReferenceDate...utc.date(from: DateComponents(year: 2025, month: 7, day: 1))!.timeIntervalSinceReferenceDate
        light.limitLines = [LimitLine(at: 20, label: "20 °C", labelPosition: .topRight, color: Color(red: 0.85, green: 0.3, blue: 0.1))]
        host.rootLayer.addSublayer(light)
        host.renderFrame()
        light.highlight(x: utc.date(from: DateComponents(year: 2025, month: 5, day: 20, hour: 12))!.timeIntervalSinceReferenceDate)
        light.markerText = { s, i in
            let d = Date(timeIntervalSinceReferenceDate: light.data.series[s].x[i])
            let day = utc.dateComponents([.month, .day], from: d)
            return "\(light.data.series[s].name), \(day.day!)/\(day.month!): \(String(format: "%.1f", light.data.series[s].y[i])) °C"
        }
        host.renderFrame()
        return host
    }

    /// Two streaming graphs after ten seconds of a 250 Hz stream, frame by
    /// frame: three scrolling series (an ECG, a noisy sine with gaps where
    /// its sensor drops out, a random walk) with value and time axes, and an
    /// ECG monitor's sweep trace under them.
    public static func streamingGraphs() throws -> LayerHost {
        let host = try LayerHost(width: 960, height: 520, scale: 1, backgroundColor: Color(white: 0.93))
        let rate = 250.0
        let scroll = StreamingGraphLayer(
            series: [
                GraphSeriesStyle(color: Color(red: 0.86, green: 0.15, blue: 0.2), lineWidth: 1.5),
                GraphSeriesStyle(
                    color: Color(red: 0.1, green: 0.45, blue: 0.9), lineWidth: 1.5,
                    fillColor: Color(red: 0.1, green: 0.45, blue: 0.9, alpha: 0.12), fillBaseline: 0),
                GraphSeriesStyle(color: Color(red: 0.1, green: 0.6, blue: 0.3), lineWidth: 1.5),
            ], capacity: 10_000)
        scroll.frame = Rect(x: 16, y: 16, width: 928, height: 300)
        scroll.sampleRate = rate
        scroll.pointsPerSample = 0.8
        scroll.backgroundColor = .white
        host.rootLayer.addSublayer(scroll)
        let sweep = StreamingGraphLayer(
            series: [GraphSeriesStyle(color: Color(red: 0.2, green: 0.85, blue: 0.35), lineWidth: 2)], capacity: 10_000)
        sweep.frame = Rect(x: 16, y: 332, width: 928, height: 172)
        sweep.motion = .sweep
        sweep.backgroundColor = Color(white: 0.08)
        sweep.plotBackgroundColor = Color(white: 0.08)
        sweep.gridColor = Color(white: 0.2)
        sweep.labelColor = Color(white: 0.7)
        sweep.valueRange = .fixed(-0.4, 1.2)
        sweep.pointsPerSample = 0.5
        host.rootLayer.addSublayer(sweep)
        var ecg = StreamSignalGenerator(.ecg, rate: rate, series: 0)
        var sine = StreamSignalGenerator(.sine, rate: rate, series: 1)
        var walk = StreamSignalGenerator(.walk, rate: rate, series: 2)
        var monitor = StreamSignalGenerator(.ecg, rate: rate, series: 3)
        var owed = 0.0, n = 0
        for _ in 0..<(10 * 60) {
            owed += rate / 60
            while owed >= 1 {
                owed -= 1
                let dropout = (n / Int(rate)) % 4 == 3 && n % Int(rate) < Int(rate / 2)
                scroll.append(ecg.next(), dropout ? .nan : sine.next() * 0.8, walk.next() * 0.05)
                sweep.append(monitor.next())
                n += 1
            }
            host.advance()
        }
        scroll.waitUntilDrawn()
        sweep.waitUntilDrawn()
        host.advance()
        return host
    }
}
