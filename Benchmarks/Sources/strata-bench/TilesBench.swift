import ArgumentParser
import Foundation
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataTiles

#if canImport(Glibc)
import Glibc
#endif

/// `strata-bench tiles`: the tile cutter against `vips dzsave` on the same
/// 8192 × 4608 JPEG, in wall time and peak memory, each run as a process of
/// its own, alternating.
struct TilesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Times `strata tiles` and `vips dzsave` on an 8192 × 4608 JPEG (wall time and peak memory).",
        discussion: """
            Makes the test image once (a drawn scene, JPEG quality 90) in --work, then runs \
            `vips dzsave IN OUT --tile-size 256 --overlap 0 --suffix .jpg[Q=90]` and `strata tiles IN OUT` \
            (its library call, in a child of this command) alternately, --repeat times each, and prints the medians: `NAME WALL_S PEAK_MB TILES`. \
            vips comes from Debian's libvips-tools (scripts/install-bench-deps.sh installs it).
            """)

    @Option(help: "Runs of each tool.")
    var `repeat` = 3

    @Option(help: "Where the test image and the outputs go.")
    var work = "/tmp/strata-tiles-bench"

    @Option(help: "Test image width.")
    var width = 8192

    @Option(help: "Test image height.")
    var height = 4608

    @Option(help: .hidden)
    var makeImage: String?

    /// A child run: cuts this image (into `--into`) as `strata tiles IN OUT`
    /// does, with its defaults.
    @Option(help: .hidden)
    var cut: String?

    @Option(help: .hidden)
    var into: String?

    func run() throws {
        if let cut, let into {
            _ = try TileCutter().cut(cut, into: into, replacing: true)
            return
        }
        if let makeImage {
            try TilesBench.makeScene(width: width, height: height).writeJPEG(to: makeImage, quality: 0.9)
            return
        }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let input = "\(work)/scene-\(width)x\(height).jpg"
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        if !FileManager.default.fileExists(atPath: input) {
            // In a process of its own: a child's peak memory counts its
            // parent's at the time it was spawned, so this one stays small.
            _ = try TilesBench.measure(me, ["tiles", "--make-image", input, "--width", "\(width)", "--height", "\(height)"])
        }
        let vips = ["/usr/bin/vips", "/usr/local/bin/vips"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var results: [String: [(wall: Double, peak: Double, tiles: Int)]] = [:]
        for _ in 0..<max(1, `repeat`) {
            if let vips {
                let out = "\(work)/vips-out"
                try? FileManager.default.removeItem(atPath: out + "_files")
                try? FileManager.default.removeItem(atPath: out + ".dzi")
                let r = try TilesBench.measure(vips, ["dzsave", input, out, "--tile-size", "256", "--overlap", "0", "--suffix", ".jpg[Q=90]"])
                results["vips-dzsave", default: []].append((r.wall, r.peak, TilesBench.countFiles(out + "_files")))
            }
            let out = "\(work)/strata-out"
            try? FileManager.default.removeItem(atPath: out)
            let r = try TilesBench.measure(me, ["tiles", "--cut", input, "--into", out])
            results["strata-tiles", default: []].append((r.wall, r.peak, TilesBench.countFiles(out)))
        }
        if vips == nil { print("# vips not found: run scripts/install-bench-deps.sh for the comparison") }
        var me_usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &me_usage)
        // Linux counts a spawned child's peak from its parent's at the spawn:
        // this process's peak is a floor under both figures.
        print(String(format: "# peak memory floor (this process): %.1f MB", Double(me_usage.ru_maxrss) / 1024))
        for name in ["vips-dzsave", "strata-tiles"] {
            guard let runs = results[name] else { continue }
            func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
            print(String(format: "%@ %.3f %.1f %d", name, median(runs.map(\.wall)), median(runs.map(\.peak)), runs[0].tiles))
        }
    }

    /// Runs a program, waiting for it; its wall time (s) and peak resident
    /// memory (MB, from the kernel's accounting of the child).
    static func measure(_ path: String, _ arguments: [String]) throws -> (wall: Double, peak: Double) {
        var pid: pid_t = 0
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let start = DispatchTime.now().uptimeNanoseconds
        let status = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard status == 0 else { throw ValidationError("cannot run \(path): \(String(cString: strerror(status)))") }
        var code: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &code, 0, &usage) == pid else { throw ValidationError("lost \(path)") }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard code == 0 else { throw ValidationError("\(path) \(arguments.joined(separator: " ")) failed (status \(code))") }
        return (wall, Double(usage.ru_maxrss) / 1024)
    }

    static func countFiles(_ dir: String) -> Int {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return 0 }
        var n = 0
        while let f = e.nextObject() as? String {
            if f.hasSuffix(".jpg") || f.hasSuffix(".png") { n += 1 }
        }
        return n
    }

    /// A photograph-like scene: a sky gradient, hills, and a few thousand
    /// soft discs of colour, so that JPEG has edges and gradients to code.
    static func makeScene(width: Int, height: Int) throws -> Image {
        let canvas = try Canvas(width: width, height: height)
        let w = Double(width), h = Double(height)
        canvas.drawLinearGradient(
            Gradient(colors: [Color(red: 0.35, green: 0.6, blue: 0.95), Color(red: 0.95, green: 0.85, blue: 0.7)]),
            start: Point(x: 0, y: 0), end: Point(x: 0, y: h * 0.6), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        var rng = SplitMix64(seed: 42)
        for layer in 0..<4 {
            var hill = Path()
            hill.move(to: Point(x: 0, y: h))
            let base = h * (0.45 + 0.12 * Double(layer))
            var x = 0.0
            while x <= w {
                hill.addLine(to: Point(x: x, y: base + sin(x / (300 + 120 * Double(layer))) * 80 + Double(rng.next() % 40)))
                x += 32
            }
            hill.addLine(to: Point(x: w, y: h))
            hill.closeSubpath()
            canvas.fillColor = Color(red: 0.15 + 0.1 * Double(layer), green: 0.35 + 0.08 * Double(layer), blue: 0.2, alpha: 1)
            canvas.fill(hill)
        }
        for _ in 0..<3000 {
            let x = Double(rng.next() % UInt64(width)), y = Double(rng.next() % UInt64(height))
            let r = 4 + Double(rng.next() % 60)
            canvas.fillColor = Color(
                red: Double(rng.next() % 256) / 255, green: Double(rng.next() % 256) / 255,
                blue: Double(rng.next() % 256) / 255, alpha: 0.6)
            canvas.fillEllipse(in: Rect(x: x - r, y: y - r, width: 2 * r, height: 2 * r))
        }
        return canvas.makeImage()
    }
}
