// A live streaming graph of the numbers arriving on standard input, one
// sample a line, in a window (Wayland or X11):
// while true; do echo $((RANDOM % 100)); sleep 0.01; done | swift run --package-path Examples LiveGraph
import Dispatch
import Foundation
import StrataCharts
import StrataGraphics
import StrataWindow

/// Reads standard input as it arrives (on the main queue, never blocking it)
/// and appends each line's number to the graph; a line that is not a number
/// is a gap.
@MainActor
final class StandardInputFeed {
    let graph: StreamingGraphLayer
    private var lines = LineSplitter()
    private var lineNumber = 0
    private var source: DispatchSourceRead?

    init(graph: StreamingGraphLayer) { self.graph = graph }

    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readAvailable() } }
        source.resume()
        self.source = source
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        guard count > 0 else {
            // The end of the input: the graph stays as it is.
            source?.cancel()
            return
        }
        for line in lines.feed(buffer[..<count]) {
            lineNumber += 1
            graph.append(row: SampleLineParser.parse(line.text, lineNumber: lineNumber, series: 1).row)
        }
    }
}

MainActor.assumeIsolated {
    do {
        let window = try Window(title: "Live graph", size: Size(width: 800, height: 300))
        let graph = StreamingGraphLayer(series: [GraphSeriesStyle(color: Color(red: 0.1, green: 0.45, blue: 0.9), lineWidth: 2)])
        graph.frame = Rect(x: 0, y: 0, width: 800, height: 300)
        graph.contentsScale = window.scale
        graph.pointsPerSample = 2
        window.rootLayer.addSublayer(graph)
        let feed = StandardInputFeed(graph: graph)
        feed.start()
        window.run()
    } catch {
        // No display, say: a message, not a crash.
        print("LiveGraph: \(error)")
        exit(1)
    }
}
