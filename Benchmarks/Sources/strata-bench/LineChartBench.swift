import ArgumentParser
import Dispatch
import Foundation
import StrataCharts
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataTestSupport

/// The line chart's cases of `strata-bench charts`, on the
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
        var times: [Double] = [], layouts: [Double] = []
        let detail = ProcessInfo.processInfo.environment["STRATA_BENCH_DETAIL"] != nil
        for f in 0..<150 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            chart.pan(byX: Double(count) / 240)
            if detail {
                chart.layoutIfNeeded()
                layouts.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            host.advance()
            let t1 = DispatchTime.now().uptimeNanoseconds
            if f >= 30 { times.append(Double(t1 - t0) / 1e6) }
        }
        if detail {
            FileHandle.standardError.write(
                "  chart-pan-1M layout p50 \(String(format: "%.2f", percentile(layouts, 0.5))) p99 \(String(format: "%.2f", percentile(layouts, 0.99))), frame p50 \(String(format: "%.2f", percentile(times, 0.5)))\n"
                    .data(using: .utf8)!)
        }
        report("chart-pan-1M", percentile(times, 0.99), String(format: "%.9f", y[count - 1]))
    }
}

extension LineChartBench {
    /// chart-csv-10M and chart-csv-10M-memory: `strata chart FILE` run as a
    /// process of its own on CHARTS.md's 10,000,000-row file (written first
    /// when `path` does not exist), the median wall time of `runs` and the
    /// largest peak resident size.
    static func csv(path: String, runs: Int, report: (String, Double, String) -> Void) throws {
        if !FileManager.default.fileExists(atPath: path) { try writeCSV(path, count: 10_000_000) }
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let out = NSTemporaryDirectory() + "strata-chart-csv-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: out) }
        var times: [Double] = [], peak = 0
        for _ in 0..<max(1, runs) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            var pid: pid_t = 0
            let args = [me, "charts", "--chart-file", path, "--out", out]
            var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
            defer { for a in argv { free(a) } }
            guard posix_spawn(&pid, me, nil, nil, &argv, environ) == 0 else {
                throw ValidationError("cannot start \(me)")
            }
            var status: Int32 = 0
            var usage = rusage()
            _ = wait4(pid, &status, 0, &usage)
            let t1 = DispatchTime.now().uptimeNanoseconds
            guard status == 0 else { throw ValidationError("strata chart \(path) failed (status \(status))") }
            times.append(Double(t1 - t0) / 1e6)
            peak = max(peak, usage.ru_maxrss)
        }
        report("chart-csv-10M", median(times), "")
        report("chart-csv-10M-memory", Double(peak) / 1024, "")
    }

    /// CHARTS.md's CSV: a header `time,bpm`, then for sample i the time i
    /// seconds after 2026-01-01T00:00:00 and 70 + y[i] with six decimals.
    static func writeCSV(_ path: String, count: Int) throws {
        FileHandle.standardError.write("writing \(path) (\(count) rows)\n".data(using: .utf8)!)
        let y = DecimationSeries.randomWalk(count: count)
        guard let file = fopen(path, "w") else { throw ValidationError("cannot write \(path)") }
        defer { fclose(file) }
        fputs("time,bpm\n", file)
        var days = [Int](repeating: 0, count: 3)
        var buffer = [CChar](repeating: 0, count: 64)
        let start = 20_454  // 2026-01-01 in days since 1970-01-01
        for i in 0..<count {
            let day = start + i / 86_400, s = i % 86_400
            // Civil date from days (the inverse of days-from-civil).
            let z = day + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            days[2] = doy - (153 * mp + 2) / 5 + 1
            days[1] = mp < 10 ? mp + 3 : mp - 9
            days[0] = yoe + era * 400 + (days[1] <= 2 ? 1 : 0)
            _ = withVaList([days[0], days[1], days[2], s / 3600, s / 60 % 60, s % 60, 70 + y[i]]) { args in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress!, 64, "%04ld-%02ld-%02ldT%02ld:%02ld:%02ld,%.6f\n", args) }
            }
            fputs(buffer, file)
        }
    }
}
