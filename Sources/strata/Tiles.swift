import ArgumentParser
import Foundation
import StrataGraphics
import StrataLayers
import StrataTiles

#if canImport(Glibc)
import Glibc
#endif

/// `strata tiles INPUT OUTDIR`: the tile cutter.
struct Tiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cuts a JPEG or PNG of any size into a pyramid of tiles.",
        discussion: """
            Writes OUTDIR/pyramid.json and one directory per level: OUTDIR/0 holds the full image, \
            OUTDIR/1 half of it, and so on down to the first level that fits in one tile; tiles are \
            COLUMN_ROW.jpg (or .png) from the top left. The image is read a band of rows at a time, so \
            its size is not limited by memory (progressive JPEGs and interlaced PNGs excepted: those are \
            refused past --max-memory). On failure nothing is left in OUTDIR.
            """)

    @Argument(help: "The image to cut (JPEG or PNG).")
    var input: String

    @Argument(help: "The directory to write the pyramid into (created if missing; must be empty).")
    var outdir: String

    @Option(help: "Tile size in pixels (16 to 4096).")
    var tileSize = 256

    @Option(help: "Tile format: jpeg or png.")
    var format = "jpeg"

    @Option(help: "JPEG quality, 1 to 100.")
    var quality = 90

    @Option(help: "The most memory, in MB, an image that cannot stream may take to decode.")
    var maxMemory = 1024

    @Flag(help: "Replace a pyramid already in OUTDIR.")
    var replace = false

    @Flag(help: "No progress bar.")
    var quiet = false

    func run() throws {
        var cutter = TileCutter()
        cutter.tileSize = tileSize
        cutter.quality = quality
        guard let f = TilePyramid.Format(rawValue: format.lowercased() == "jpg" ? "jpeg" : format.lowercased()) else {
            throw ValidationError("--format must be jpeg or png, not \(format)")
        }
        cutter.format = f
        cutter.maximumMemory = UInt64(max(1, maxMemory)) << 20
        let bar = !quiet && isatty(2) != 0
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let pyramid = try cutter.cut(input, into: outdir, replacing: replace) { done, total in
                guard bar else { return }
                let width = 30, filled = total == 0 ? width : done * width / total
                let line =
                    "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                    + "] \(total == 0 ? 100 : done * 100 / total)% \(done)/\(total) tiles"
                FileHandle.standardError.write(Data(line.utf8))
            }
            if bar { FileHandle.standardError.write(Data("\n".utf8)) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print(
                "\(pyramid.tileCount) tiles in \(pyramid.levels.count) levels (\(pyramid.width) × \(pyramid.height)) in \(String(format: "%.2f", seconds)) s"
            )
        } catch {
            if bar { FileHandle.standardError.write(Data("\n".utf8)) }
            FileHandle.standardError.write(Data("strata tiles: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// `strata tile-viewer PYRAMID FRAMES`: pans and zooms a pyramid in a tiled
/// layer, headless, and writes frames and their statistics.
struct TileViewer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile-viewer",
        abstract: "Shows a tile pyramid in a tiled layer: a scripted pan and zoom, rendered to PNG frames.",
        discussion: """
            Renders --frames frames at 60 Hz (paced in real time, so that tiles arrive as they would on \
            screen): a zoom in from the whole image to full resolution, then a pan to the right. Every \
            --every-th frame is written as FRAMES/frame-NNN.png. Prints the main actor's time per frame \
            (median, p99, max), frames over budget and the tiles drawn.
            """)

    @Argument(help: "A directory written by `strata tiles`.")
    var pyramid: String

    @Argument(help: "Where to write the frames.")
    var frames: String

    @Option(help: "Frames to render.")
    var count = 180

    @Option(help: "Write every N-th frame.")
    var every = 15

    @Option(help: "Viewport width in pixels.")
    var width = 960

    @Option(help: "Viewport height in pixels.")
    var height = 540

    func run() throws {
        try MainActor.assumeIsolated { try runOnMain() }
    }

    @MainActor
    func runOnMain() throws {
        let pyramid: TilePyramid
        do { pyramid = try TilePyramid(directory: self.pyramid) } catch {
            throw ValidationError("\(error)")
        }
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        let clock = ManualClock()
        let host = try LayerHost(width: width, height: height, clock: clock, backgroundColor: Color(white: 0.1))
        let layer = TilePyramidLayer(pyramid: pyramid, directory: self.pyramid)
        layer.anchorPoint = .zero
        host.rootLayer.addSublayer(layer)
        let fit = min(Double(width) / Double(pyramid.width), Double(height) / Double(pyramid.height))
        let zoomFrames = count / 2
        var written = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<count {
            // Zoom from the whole image to 1:1 about the centre, then pan right.
            let scale: Double, cx: Double, cy = Double(pyramid.height) / 2
            if i < zoomFrames {
                let t = Double(i) / Double(max(1, zoomFrames - 1))
                scale = fit * pow(1 / fit, t)
                cx = Double(pyramid.width) / 2
            } else {
                let t = Double(i - zoomFrames) / Double(max(1, count - zoomFrames - 1))
                scale = 1
                cx = Double(pyramid.width) / 2 + t * max(0, Double(pyramid.width) / 2 - Double(width) / 2) / 4
            }
            Transaction.perform {
                Transaction.disableActions = true
                layer.transform = Transform3D(scaleX: scale, y: scale)
                layer.position = Point(x: Double(width) / 2 - cx * scale, y: Double(height) / 2 - cy * scale)
            }
            host.advance()
            if i % max(1, every) == 0 || i == count - 1 {
                try host.writePNG(to: String(format: "%@/frame-%03d.png", frames, i))
                written += 1
            }
            // 60 Hz in real time.
            let next = start + UInt64(i + 1) * 16_666_667
            let now = DispatchTime.now().uptimeNanoseconds
            if next > now { usleep(UInt32((next - now) / 1000)) }
        }
        let s = host.statistics
        print(
            String(
                format: "%d frames (%d written): main actor per frame median %.2f ms, p99 %.2f ms, max %.2f ms; %d over %.1f ms",
                s.framesRendered, written, s.p50 * 1000, s.p99 * 1000, s.max * 1000, s.framesOverBudget, s.budget * 1000))
        print(
            "tiles drawn \(layer.drawnTileCount), cached \(layer.cachedTileCount) (\(layer.cachedBytes >> 20) MB), still pending \(layer.pendingTileCount)"
        )
    }
}
