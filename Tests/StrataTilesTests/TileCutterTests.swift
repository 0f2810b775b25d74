import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers
@testable import StrataTiles

@Suite struct TileCutterTests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "strata-cutter-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    /// A 700 × 300 test picture with a gradient and discs (and, in PNG, some
    /// transparency).
    func picture(alpha: Bool = false) throws -> Image {
        let c = try Canvas(width: 700, height: 300)
        c.drawLinearGradient(Gradient(colors: [.red, .blue]), start: .zero, end: Point(x: 700, y: 300), options: [])
        c.fillColor = Color(red: 0.1, green: 0.8, blue: 0.3, alpha: alpha ? 0.5 : 1)
        c.fillEllipse(in: Rect(x: 100, y: 50, width: 300, height: 200))
        if alpha { c.clear(Rect(x: 600, y: 0, width: 100, height: 100)) }
        return c.makeImage()
    }

    @Test func aPNGBecomesAPyramidWhoseFullLevelIsTheImage() throws {
        let image = try picture(alpha: true)
        try image.writePNG(to: "\(dir)/in.png")
        var cutter = TileCutter()
        cutter.tileSize = 128
        cutter.format = .png
        var calls = 0
        let p = try cutter.cut("\(dir)/in.png", into: "\(dir)/out") { _, _ in calls += 1 }
        #expect(calls > 0)
        #expect(
            p.levels.map { [$0.width, $0.height, $0.columns, $0.rows] } == [[700, 300, 6, 3], [350, 150, 3, 2], [175, 75, 2, 1], [88, 38, 1, 1]])
        #expect(p.tileCount == 18 + 6 + 2 + 1)
        #expect(try TilePyramid(directory: "\(dir)/out") == p)
        // Level 0 put back together is the image, pixel for pixel.
        for row in 0..<3 {
            for column in 0..<6 {
                let tile = try Image(contentsOfFile: "\(dir)/out/0/\(column)_\(row).png")
                #expect(tile.width == min(128, 700 - column * 128) && tile.height == min(128, 300 - row * 128))
                for (x, y) in [(0, 0), (tile.width - 1, tile.height - 1), (tile.width / 2, tile.height / 3)] {
                    #expect(tile[x, y] == image[column * 128 + x, row * 128 + y])
                }
            }
        }
        // Level 1 is 2 × 2 averages.
        let half = try Image(contentsOfFile: "\(dir)/out/1/1_0.png")
        let (x, y) = (10, 20)
        let (sx, sy) = (2 * (128 + x), 2 * y)
        let avg = [image[sx, sy], image[sx + 1, sy], image[sx, sy + 1], image[sx + 1, sy + 1]]
        let r = avg.map { Int($0.r) }.reduce(0, +) / 4
        #expect(abs(Int(half[x, y].r) - r) <= 2)
        // Nothing else is left behind.
        let entries = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted()
        #expect(entries == ["0", "1", "2", "3", "pyramid.json"])
    }

    @Test func aJPEGBecomesJPEGTiles() throws {
        let image = try picture()
        try image.writeJPEG(to: "\(dir)/in.jpg", quality: 0.95)
        let source = try Image(contentsOfFile: "\(dir)/in.jpg")
        let p = try TileCutter().cut("\(dir)/in.jpg", into: "\(dir)/out")
        #expect(p.levels.count == 3 && p.tileCount == 3 * 2 + 2 + 1)
        let tile = try Image(contentsOfFile: "\(dir)/out/0/1_0.jpg")
        #expect(tile.width == 256 && tile.height == 256)
        for (x, y) in [(5, 5), (100, 100), (200, 250)] {
            let a = tile[x, y], b = source[256 + x, y]
            #expect(abs(Int(a.r) - Int(b.r)) <= 8 && abs(Int(a.g) - Int(b.g)) <= 8 && abs(Int(a.b) - Int(b.b)) <= 8)
        }
    }

    @Test func aCMYKJPEGIsReadAsTheDecoderReadsIt() throws {
        // The graphics tests' Adobe CMYK file: the band reader converts it as
        // the whole-image decoder does.
        let input = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../StrataGraphicsTests/Resources/blocks-cmyk.jpg").standardized.path
        let whole = try Image(contentsOfFile: input)
        var cutter = TileCutter()
        cutter.format = .png
        cutter.tileSize = 16
        try cutter.cut(input, into: "\(dir)/out")
        let tile = try Image(contentsOfFile: "\(dir)/out/0/0_0.png")
        for (x, y) in [(0, 0), (5, 9), (15, 15)] where x < tile.width && y < tile.height {
            #expect(tile[x, y] == whole[x, y])
        }
    }

    @Test func aProgressiveJPEGOverTheMemoryLimitIsRefused() throws {
        let input = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../StrataGraphicsTests/Resources/blocks-progressive.jpg").standardized.path
        var cutter = TileCutter()
        cutter.maximumMemory = 256
        do {
            try cutter.cut(input, into: "\(dir)/out")
            Issue.record("a progressive JPEG needing more than 256 bytes was cut")
        } catch {
            #expect(error.description.contains("progressive JPEG"), "\(error)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(dir)/out")) ?? []).isEmpty)
        // Within the limit it is cut like any other.
        cutter.maximumMemory = 1 << 30
        let p = try cutter.cut(input, into: "\(dir)/out")
        #expect(p.tileCount >= 1)
    }

    @Test func badInputIsRefusedAndLeavesNothing() throws {
        let out = "\(dir)/out"
        func refused(_ input: String, _ words: String) {
            do {
                try TileCutter().cut(input, into: out)
                Issue.record("\(input) was cut")
            } catch {
                #expect(error.description.contains(words), "\(error)")
            }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            #expect(left.isEmpty, "left \(left)")
        }
        refused("\(dir)/missing.jpg", "cannot open")
        _ = FileManager.default.createFile(atPath: "\(dir)/empty", contents: Data())
        refused("\(dir)/empty", "empty")
        _ = FileManager.default.createFile(atPath: "\(dir)/text.jpg", contents: Data("hello, not an image".utf8))
        refused("\(dir)/text.jpg", "neither a JPEG nor a PNG")
        // Truncated: the header is whole, the data stops a third of the way.
        let jpeg = try picture().jpegData(quality: 0.9)
        _ = FileManager.default.createFile(atPath: "\(dir)/cut.jpg", contents: Data(jpeg.prefix(jpeg.count / 3)))
        refused("\(dir)/cut.jpg", "JPEG")
        let png = try picture().pngData()
        _ = FileManager.default.createFile(atPath: "\(dir)/cut.png", contents: Data(png.prefix(png.count / 2)))
        refused("\(dir)/cut.png", "PNG")
    }

    @Test func hostileFilesAreRefusedAsTheDecodersRefuseThem() throws {
        let out = "\(dir)/out"
        func refused(_ bytes: [UInt8], _ name: String, _ words: String) {
            let input = "\(dir)/\(name)"
            _ = FileManager.default.createFile(atPath: input, contents: Data(bytes))
            do {
                try TileCutter().cut(input, into: out)
                Issue.record("\(name) was cut")
            } catch {
                #expect(error.description.contains(words), "\(name): \(error)")
            }
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).isEmpty)
        }
        // A PNG of a few hundred bytes declaring a row of 2³⁰ − 1 pixels: the
        // cutter allowed widths to 2³⁰ and aborted allocating its band.
        refused(
            HostileFiles.pngSignature + HostileFiles.ihdr(width: (1 << 30) - 1, height: 1)
                + HostileFiles.chunk("IDAT", HostileFiles.zlibZeros(100)) + HostileFiles.chunk("IEND", []),
            "wide.png", "width")
        refused(
            HostileFiles.pngSignature + HostileFiles.ihdr(width: 65537, height: 2)
                + HostileFiles.chunk("IDAT", HostileFiles.zlibZeros(100)) + HostileFiles.chunk("IEND", []),
            "wider.png", "width")
        // A PNG declaring far more image than its data could hold.
        refused(
            HostileFiles.pngSignature + HostileFiles.ihdr(width: 20000, height: 20000)
                + HostileFiles.chunk("IDAT", HostileFiles.zlibZeros(100)) + HostileFiles.chunk("IEND", []),
            "lying.png", "too short")
        // A chunk longer than the file.
        refused(
            HostileFiles.pngSignature + HostileFiles.ihdr(width: 10, height: 10)
                + HostileFiles.chunk("tEXt", Array("a\0b".utf8), declaredLength: 0x7FFF_0000),
            "text.png", "declares")
        // A JPEG whose declared size was enlarged beyond its data: it was cut
        // into 10 923 grey tiles in 19 s, where the decoder refuses it.
        let jpeg = try picture().jpegData(quality: 0.9)
        refused(HostileFiles.jpeg(jpeg, declaringWidth: 30000, height: 30000), "enlarged.jpg", "too short")
        refused(HostileFiles.jpeg(jpeg, declaringWidth: 700, height: 9000), "taller.jpg", "JPEG")
        // A progressive JPEG of thousands of scans.
        var progressive = TileCutter()
        progressive.maximumMemory = 1 << 30
        let input = "\(dir)/scans.jpg"
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StrataGraphicsTests/Resources/blocks-progressive.jpg")
        let hostile = HostileFiles.jpeg([UInt8](try Data(contentsOf: fixture)), repeatingLastScan: 2000)
        _ = FileManager.default.createFile(atPath: input, contents: Data(hostile))
        #expect(throws: TilePyramidError.self) { try progressive.cut(input, into: out) }
    }

    @Test func bandsBeyondTheMemoryAllowedAreRefused() throws {
        try picture().writeJPEG(to: "\(dir)/in.jpg")
        var cutter = TileCutter()
        cutter.tileSize = 4096
        cutter.maximumMemory = 16 << 20  // 700 × 4 × 4096 × 3 bytes is 34 MB
        #expect(throws: TilePyramidError.self) { try cutter.cut("\(dir)/in.jpg", into: "\(dir)/out") }
        cutter.maximumMemory = 64 << 20
        #expect((try? cutter.cut("\(dir)/in.jpg", into: "\(dir)/out")) != nil)
    }

    @Test func badOptionsAndOutputsAreRefused() throws {
        try picture().writeJPEG(to: "\(dir)/in.jpg")
        for size in [0, -256, 8, 5000] {
            var cutter = TileCutter()
            cutter.tileSize = size
            #expect(throws: TilePyramidError.invalidOption("the tile size must be 16 to 4096 pixels, not \(size)")) {
                try cutter.cut("\(dir)/in.jpg", into: "\(dir)/out")
            }
        }
        var cutter = TileCutter()
        cutter.quality = 0
        #expect(throws: TilePyramidError.self) { try cutter.cut("\(dir)/in.jpg", into: "\(dir)/out") }
        // An output under a file cannot be made.
        _ = FileManager.default.createFile(atPath: "\(dir)/file", contents: Data("x".utf8))
        #expect(throws: TilePyramidError.self) { try TileCutter().cut("\(dir)/in.jpg", into: "\(dir)/file/out") }
        #expect(throws: TilePyramidError.self) { try TileCutter().cut("\(dir)/in.jpg", into: "\(dir)/file") }
        // A directory with other files in it is not written into; a pyramid
        // is replaced only when asked.
        try FileManager.default.createDirectory(atPath: "\(dir)/busy", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: "\(dir)/busy/notes.txt", contents: Data("keep".utf8))
        #expect(throws: TilePyramidError.self) { try TileCutter().cut("\(dir)/in.jpg", into: "\(dir)/busy", replacing: true) }
        #expect(FileManager.default.fileExists(atPath: "\(dir)/busy/notes.txt"))
        try TileCutter().cut("\(dir)/in.jpg", into: "\(dir)/again")
        #expect(throws: TilePyramidError.self) { try TileCutter().cut("\(dir)/in.jpg", into: "\(dir)/again") }
        var smaller = TileCutter()
        smaller.tileSize = 128
        let p = try smaller.cut("\(dir)/in.jpg", into: "\(dir)/again", replacing: true)
        #expect(p.tileSize == 128)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/again/3") == (p.levels.count <= 3))
    }

    @Test @MainActor func aPyramidLayerShowsTheTiles() async throws {
        let image = try picture()
        try image.writePNG(to: "\(dir)/in.png")
        var cutter = TileCutter()
        cutter.format = .png
        cutter.tileSize = 64
        let p = try cutter.cut("\(dir)/in.png", into: "\(dir)/out")
        let host = try LayerHost(width: 350, height: 150)
        let layer = TilePyramidLayer(pyramid: p, directory: "\(dir)/out")
        layer.fadeDuration = 0
        layer.anchorPoint = .zero
        layer.position = .zero
        // At half size: level 1 of the pyramid.
        layer.transform = Transform3D(scaleX: 0.5, y: 0.5)
        host.rootLayer.addSublayer(layer)
        host.renderFrame()
        let deadline = Date().addingTimeInterval(120)
        var tries = 0
        while (layer.pendingTileCount > 0 || layer.drawnTileCount == 0) && (tries < 600 || Date() < deadline) {
            tries += 1
            try? await Task.sleep(nanoseconds: 5_000_000)
            host.renderFrame()
        }
        host.renderFrame()
        let frame = host.makeImage()
        let level1 = try Image(contentsOfFile: "\(dir)/out/1/2_1.png")
        #expect(frame[128 + 10, 64 + 10] == level1[10, 10])
        #expect(layer.drawnTileCount == p.levels[1].columns * p.levels[1].rows)
    }
}
