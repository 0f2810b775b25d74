import Dispatch
import Foundation
import StrataCharts
import StrataGraphics
import StrataLayers
import StrataScenes

/// The line chart's cases of `strata bench charts` (issue 16's bars), on the
/// data and chart of `../shared/bench/CHARTS.md`.
@MainActor
enum LineChartBench {
    static let sizes: [(String, Int)] = [
        ("chart-1k", 1_000), ("chart-100k", 100_000), ("chart-1M", 1_000_000), ("chart-10M", 10_000_000),
    ]

    /// chart-1k … chart-10M: the chart built from x and y arrays already in
    /// memory, rendered, and encoded as PNG (`PNGEncoding.fast`), the median
    /// of `repeat` runs after warm-ups. `png` keeps the last picture.
    static func build(
        _ name: String, count: Int, repeat runs: Int, png: String?, report: (String, Double, String) -> Void
    ) throws {
        let y = DecimationSeries.randomWalk(count: count)
        let x = (0..<count).map(Double.init)
        var bytes: [UInt8] = []
        var failure: (any Error)?
        let ms = medianMilliseconds(repeat: runs) {
            do {
                let data = LineChartData([LineChartSeries(name: "bpm", x: x, y: y)])
                bytes = try ChartPicture.heartRate(data).pngData(.fast)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if ProcessInfo.processInfo.environment["STRATA_BENCH_DETAIL"] != nil {
            func t(_ body: () throws -> Void) rethrows -> Double {
                let t0 = DispatchTime.now().uptimeNanoseconds
                try body()
                return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            }
            var parts: [String: [Double]] = [:]
            for _ in 0..<max(3, runs) {
                var host: LayerHost?
                var image: Image?
                var data: LineChartData?
                parts["host", default: []].append(try t { host = try LayerHost(width: 1200, height: 600) })
                parts["data", default: []].append(t { data = LineChartData([LineChartSeries(name: "bpm", x: x, y: y)]) })
                let chart = LineChartLayer()
                parts["configure", default: []].append(
                    t {
                        chart.frame = Rect(x: 0, y: 0, width: 1200, height: 600)
                        ChartPicture.configureHeartRate(chart, data: data!)
                        host!.rootLayer.addSublayer(chart)
                    })
                parts["layout", default: []].append(t { chart.layoutIfNeeded() })
                parts["render", default: []].append(t { host!.renderFrame() })
                parts["image", default: []].append(t { image = host!.makeImage() })
                parts["png", default: []].append(try t { bytes = try image!.pngData(.fast) })
            }
            for (k, v) in parts.sorted(by: { $0.key < $1.key }) {
                FileHandle.standardError.write("  \(name) \(k) \(String(format: "%.3f", median(v))) ms\n".data(using: .utf8)!)
            }
            FileHandle.standardError.write("  \(name) png bytes \(bytes.count)\n".data(using: .utf8)!)
        }
        if let png { try Data(bytes).write(to: URL(fileURLWithPath: "\(png)/strata-\(name).png")) }
        report(name, ms, String(format: "%.9f", y[count - 1]))
    }

    /// chart-pan-1M: the p99 of 120 frames panning a 1,000,000-point chart
    /// showing a fifth of it, 1/240 of the data further each frame: a new
    /// visible range, its M4 and a redraw.
    static func pan(report: (String, Double, String) -> Void) throws {
        let count = 1_000_000
        let y = DecimationSeries.randomWalk(count: count)
        let x = (0..<count).map(Double.init)
        let host = try LayerHost(width: 1200, height: 600, scale: 1, backgroundColor: .white)
        let chart = LineChartLayer()
        chart.frame = Rect(x: 0, y: 0, width: 1200, height: 600)
        ChartPicture.configureHeartRate(chart, data: LineChartData([LineChartSeries(x: x, y: y)]))
        // The y range follows the visible data as the view pans.
        chart.yRange = nil
        chart.dataChangeDuration = 0
        host.rootLayer.addSublayer(chart)
        let span = Double(count) / 5
        chart.visibleXRange = 0...span
        host.renderFrame()
        var times: [Double] = []
        for f in 0..<150 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            chart.pan(byX: Double(count) / 240)
            host.advance()
            let t1 = DispatchTime.now().uptimeNanoseconds
            if f >= 30 { times.append(Double(t1 - t0) / 1e6) }
        }
        report("chart-pan-1M", percentile(times, 0.99), String(format: "%.9f", y[count - 1]))
    }
}
