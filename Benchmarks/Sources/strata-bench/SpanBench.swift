import ArgumentParser
import Foundation
import StrataDemos
import StrataGraphics

/// The compositing loop alone, as DESIGN.md's Performance notes measure it:
/// one colour over a whole 1920 × 1080 frame.
struct SpanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "span",
        abstract: "Times one colour filled and blended over a whole 1920 × 1080 frame.")

    @Option(help: "Timed frames per case.")
    var `repeat` = 50

    func run() throws {
        let canvas = try Canvas(width: 1920, height: 1080)
        let cases: [(String, Color)] = [
            ("opaque-fill", Color(red8: 30, green8: 120, blue8: 220)),
            ("blend-half-alpha", Color(red8: 30, green8: 120, blue8: 220, alpha8: 128)),
        ]
        for (name, color) in cases {
            canvas.fillColor = color
            var times: [Double] = []
            for i in 0..<(`repeat` + 2) {
                let t0 = DispatchTime.now().uptimeNanoseconds
                canvas.fill(canvas.bounds)
                let t1 = DispatchTime.now().uptimeNanoseconds
                if i >= 2 { times.append(Double(t1 - t0) / 1e6) }
            }
            times.sort()
            print(String(format: "strata span-%@ %.3f", name, times[times.count / 2]))
        }
    }
}
