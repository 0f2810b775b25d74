import ArgumentParser
import Foundation
import StrataGraphics

/// A drawing call's own cost: the canvas's state calls and small shapes
/// drawn over and over at one place, so that their pixels stay in the
/// cache and what is left is the call (its state, set-up and paint). The
/// grid's small cells add a cache miss a row to this.
struct CallsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calls",
        abstract: "Times a canvas call's own cost: state calls and small shapes, in the cache.",
        discussion: """
            Prints `strata CASE NS_PER_CALL`, the median over --rounds rounds of --count calls \
            (after one untimed round).
            """)

    @Option(help: "Calls a round.")
    var count = 200_000

    @Option(help: "Timed rounds a case.")
    var rounds = 7

    @Option(help: "Cases to run: comma-separated names without `calls-` (all when absent).")
    var cases: String?

    func run() throws {
        guard count >= 1, rounds >= 1 else { throw ValidationError("--count and --rounds must be at least 1") }
        let canvas = try Canvas(width: 64, height: 64)
        let red = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        let gradient = Gradient(stops: [.init(color: red, location: 0), .init(color: .blue, location: 1)])
        let triangle = [Point(x: 10.2, y: 10.3), Point(x: 18.1, y: 12.7), Point(x: 13.3, y: 18.4)]
        // An 8-pixel pattern of two colours, as the grid's small patterns.
        let tile = try Image(
            width: 8, height: 8,
            premultipliedPixels: (0..<64).flatMap { k -> [UInt8] in (k / 8 + k % 8) % 2 == 0 ? [255, 0, 0, 255] : [0, 0, 128, 128] })
        let pattern = Paint.pattern(tile, transform: Transform(translationX: 10.5, y: 10.5), spread: .repeat)
        let all: [(String, (Int) -> Void)] = [
            (
                "save-restore",
                { _ in
                    canvas.saveGState()
                    canvas.restoreGState()
                }
            ),
            (
                "save-turn-restore",
                { i in
                    canvas.saveGState()
                    canvas.translateBy(x: 32, y: 32)
                    canvas.rotate(by: 0.01 * Double(i & 1023))
                    canvas.translateBy(x: -32, y: -32)
                    canvas.restoreGState()
                }
            ),
            ("fill-rect-8", { _ in canvas.fill(Rect(x: 10, y: 10, width: 8, height: 8), with: .color(red)) }),
            ("fill-rect-8-fraction", { _ in canvas.fill(Rect(x: 10.5, y: 10.5, width: 8, height: 8), with: .color(red)) }),
            (
                "fill-round-8",
                { _ in
                    canvas.fill(
                        roundedRect: Rect(x: 10.5, y: 10.5, width: 8, height: 8), cornerWidth: 2, cornerHeight: 2, with: .color(red))
                }
            ),
            ("fill-triangle-8", { _ in canvas.fill(polygon: triangle, with: .color(red), rule: .winding) }),
            ("stroke-rect-8", { _ in canvas.stroke(Rect(x: 10.5, y: 10.5, width: 8, height: 8), with: .color(red)) }),
            (
                "fill-rect-8-linear",
                { _ in
                    canvas.fill(
                        Rect(x: 10, y: 10, width: 8, height: 8),
                        with: .linearGradient(gradient, start: Point(x: 10, y: 10), end: Point(x: 18, y: 18)))
                }
            ),
            (
                "fill-rect-8-fraction-radial",
                { _ in
                    canvas.fill(
                        Rect(x: 10.5, y: 10.5, width: 8, height: 8),
                        with: .radialGradient(
                            gradient, startCenter: Point(x: 12.5, y: 12.5), startRadius: 0, endCenter: Point(x: 14.5, y: 14.5),
                            endRadius: 4))
                }
            ),
            ("fill-rect-8-fraction-pattern", { _ in canvas.fill(Rect(x: 10.5, y: 10.5, width: 8, height: 8), with: pattern) }),
            ("stroke-rect-8-pattern", { _ in canvas.stroke(Rect(x: 10.5, y: 10.5, width: 8, height: 8), with: pattern) }),
        ]
        let wanted = cases.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        if let wanted, let unknown = wanted.first(where: { name in !all.contains { $0.0 == name } }) {
            throw ValidationError("no case named \(unknown)")
        }
        if let wanted, wanted.isEmpty { throw ValidationError("--cases names no case") }
        let n = count
        for (name, call) in all where wanted?.contains(name) ?? true {
            var times: [Double] = []
            for round in 0...rounds {
                let t0 = DispatchTime.now().uptimeNanoseconds
                for i in 0..<n { call(i) }
                let t1 = DispatchTime.now().uptimeNanoseconds
                if round > 0 { times.append(Double(t1 - t0) / Double(n)) }
            }
            times.sort()
            print(String(format: "strata calls-%@ %.1f", name, times[times.count / 2]))
        }
    }
}
