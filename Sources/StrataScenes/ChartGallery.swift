import Foundation
import StrataCharts
import StrataGraphics
import StrataLayers
import StrataText

/// The charts' pictures for `strata gallery`.
@MainActor
public enum ChartGallery {
    /// Renders every picture into `out`; returns the files written.
    public static func render(into out: String) throws -> [String] {
        let path = "\(out)/charts-stream.png"
        try streamingGraphs().writePNG(to: path)
        return [path]
    }

    /// Two streaming graphs after ten seconds of a 250 Hz stream, frame by
    /// frame: three scrolling series (an ECG, a noisy sine with gaps where
    /// its sensor drops out, a random walk) with value and time axes, and an
    /// ECG monitor's sweep trace under them.
    public static func streamingGraphs() throws -> Image {
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
        return host.makeImage()
    }
}
