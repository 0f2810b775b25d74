import Foundation
import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

@testable import SeedFeed
@testable import SeedHealthChart
@testable import SeedLiveGraph
@testable import SeedSpecialLayers
@testable import SeedWeightRuler

// The seed articles' ports (../shared/seeds), each rendered headless in a
// `UIWindow` as its app shows it, against a reference picture that was
// looked at beside the article's figure.

let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources").path

@MainActor
func show(_ controller: UIViewController, size: CGSize) -> UIWindow {
    let window = UIWindow(frame: CGRect(origin: .zero, size: size))
    window.rootViewController = controller
    window.makeKeyAndVisible()
    return window
}

@MainActor
func snapshot(_ window: UIWindow) throws -> Image {
    let png = try #require(window.snapshotImage()?.pngData())
    return try Image(pngData: [UInt8](png))
}

@MainActor
func render(_ controller: UIViewController, size: CGSize) throws -> Image {
    try snapshot(show(controller, size: size))
}

@MainActor
@Suite("Seed ports")
struct SeedPortTests {
    @Test("004: the Health-style line chart")
    func healthChart() throws {
        let image = try render(ChartViewController(), size: CGSize(width: 375, height: 320))
        try expectImage(image, matchesGolden: "\(resources)/seed-004.png", mean: 0.5, over8: 0.5)
    }

    @Test("002: the weight ruler scrolls without end and snaps to a mark")
    func weightRuler() throws {
        let controller = RulerViewController()
        let window = show(controller, size: CGSize(width: 375, height: 180))
        try expectImage(try snapshot(window), matchesGolden: "\(resources)/seed-002.png", mean: 0.5, over8: 0.5)
        #expect(controller.weightLabel.text == "72.5 kg")
        // Drag 203 points to the left, slowly (no fling), and let go: a
        // mark is 10 points and 0.1 kg, so the weight rises by about 2 kg
        // (less what the rubber band at the content's edge keeps before each
        // recentring) and snaps to a mark.
        var t = 10.0
        /// Presses at `start`, moves from `first` to `end` in steps of 5
        /// points every 50 ms, holds still for half a second (no fling) and
        /// lets go.
        func drag(from start: Double, first: Double, to end: Double) {
            window.sendTouch(.began, at: CGPoint(x: start, y: 120), timestamp: t)
            for x in stride(from: first, through: end, by: -5) {
                t += 0.05
                window.sendTouch(.moved, at: CGPoint(x: x, y: 120), timestamp: t)
            }
            t += 0.5
            window.sendTouch(.moved, at: CGPoint(x: end, y: 120), timestamp: t)
            window.sendTouch(.ended, at: CGPoint(x: end, y: 120), timestamp: t + 0.01)
        }
        drag(from: 300, first: 297, to: 97)
        for _ in 0..<120 { window.advance(by: 1.0 / 60) }
        let text = try #require(controller.weightLabel.text)
        let value = try #require(Double(text.dropLast(3)))
        #expect(abs(value - 74.5) < 0.15, "\(text)")
        #expect(abs(value * 10 - (value * 10).rounded()) < 1e-6)
        // Far past the content's width: the ruler recentres and goes on.
        for _ in 0..<3 {
            t += 1
            drag(from: 360, first: 355, to: 15)
            for _ in 0..<60 { window.advance(by: 1.0 / 60) }
        }
        let farText = try #require(controller.weightLabel.text)
        let far = try #require(Double(farText.dropLast(3)))
        // Three drags of 345 points: about 10 kg more, past where the content ends.
        #expect(far > value + 9 && far < value + 11, "\(farText)")
        #expect(controller.ruler.contentOffset.x >= 0 && controller.ruler.contentOffset.x <= controller.ruler.contentSize.width)
    }

    @Test("000: the tiled real-time graph draws its tiles on its queue and slides them left")
    func liveGraph() async throws {
        let controller = GraphViewController()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 160))
        window.rootViewController = controller
        // The app's random samples stop; the test feeds a known signal.
        controller.link?.invalidate()
        window.makeKeyAndVisible()
        let graph = controller.graph
        for i in 0..<400 {
            graph.addSample(Float(60 + 45 * sin(Double(i) / 9)))
        }
        // The tiles' images arrive from the redraw queue on the main queue.
        let tiles = { graph.layer.sublayers?.filter { $0.frame.maxX > 0 && $0.frame.minX < 320 } ?? [] }
        for _ in 0..<300 where tiles().contains(where: { $0.contents == nil }) || tiles().count < 10 {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(tiles().count >= 10 && tiles().allSatisfy { $0.contents != nil })
        // 1 + 320 / 32 layers, no more: the oldest is reused for the newest.
        #expect(graph.layer.sublayers?.count == 11)
        for _ in 0..<12 { window.advance(by: 1.0 / 60) }
        try expectImage(try snapshot(window), matchesGolden: "\(resources)/seed-000.png", mean: 0.5, over8: 0.5)
    }

    /// Waits until every visible cell of the feed shows its text (drawn on
    /// the pool's queues, delivered on the main queue).
    func waitForDrawing(_ controller: FeedViewController) async throws {
        func done() -> Bool {
            controller.tableView.visibleCells.allSatisfy { ($0 as? FeedCell)?.label.labelImageView.image != nil }
        }
        for _ in 0..<500 where !done() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(done())
    }

    @Test("003: the feed draws its text off the main thread and skips the rows a long fling passes")
    func feed() async throws {
        let controller = FeedViewController()
        let window = show(controller, size: CGSize(width: 320, height: 480))
        _ = window.snapshotImage()
        try await waitForDrawing(controller)
        try expectImage(try snapshot(window), matchesGolden: "\(resources)/seed-003.png", mean: 0.5, over8: 0.5)
        let table = controller.tableView!
        let firstRow = try #require(table.indexPathsForVisibleRows?.first?.row)
        #expect(firstRow == 0)
        // A fast upward fling: 440 points in 40 ms.
        let drawnBefore = controller.drawnRows
        var t = 20.0
        window.sendTouch(.began, at: CGPoint(x: 160, y: 470), timestamp: t)
        for y in stride(from: 360.0, through: 30, by: -110) {
            t += 0.01
            window.sendTouch(.moved, at: CGPoint(x: 160, y: y), timestamp: t)
        }
        window.sendTouch(.ended, at: CGPoint(x: 160, y: 30), timestamp: t + 0.005)
        #expect(!controller.drawableIndexPaths.isEmpty)
        var passed = Set<Int>()
        for _ in 0..<600 where table.isDecelerating {
            window.advance(by: 1.0 / 60)
            for p in table.indexPathsForVisibleRows ?? [] { passed.insert(p.row) }
        }
        #expect(!table.isDecelerating)
        let stopRow = try #require(table.indexPathsForVisibleRows?.first?.row)
        #expect(stopRow > 20)
        // Far fewer rows were drawn than the fling showed.
        let drawnDuringFling = controller.drawnRows - drawnBefore
        #expect(passed.count > 25 && drawnDuringFling < passed.count / 2, "\(drawnDuringFling) of \(passed.count)")
        // Where it stopped, every row is drawn.
        _ = window.snapshotImage()
        try await waitForDrawing(controller)
    }

    /// Renders frames of `window` until `done` holds of its picture (about
    /// 5 s at most): a tiled layer's tiles are drawn on other threads and
    /// fade in over a quarter of a second.
    func untilPicture(_ window: UIWindow, _ done: (Image) -> Bool) async throws -> Image {
        var image = try snapshot(window)
        for _ in 0..<500 where !done(image) {
            try await Task.sleep(for: .milliseconds(10))
            window.advance(by: 0.05)
            image = try snapshot(window)
        }
        #expect(done(image))
        // Every fade ends.
        window.advance(by: 1)
        return try snapshot(window)
    }

    /// Whether the pixel at (`x`, `y`) is near `color` (each channel within 12).
    func pixel(_ image: Image, _ x: Int, _ y: Int, near color: Pixel) -> Bool {
        let p = image[x, y]
        return abs(Int(p.r) - Int(color.r)) <= 12 && abs(Int(p.g) - Int(color.g)) <= 12 && abs(Int(p.b) - Int(color.b)) <= 12
    }

    @Test("001: the special layers' listings, and the scroll layer dragged by its pan recognizer")
    func specialLayers() async throws {
        let controller = GalleryViewController()
        let window = show(controller, size: CGSize(width: 960, height: 480))
        // The tiled layer's listing is the eighth: its container at (740, 260).
        // The snowman's eyes, centred at (964, 450) and (1084, 450) of the
        // picture, one in each of the two tiles shown from (900, 290), are
        // at (804, 420) and (924, 420) in the window, and dark.
        let dark = Pixel(r: 26, g: 26, b: 26, a: 255)
        let image = try await untilPicture(window) { pixel($0, 804, 420, near: dark) && pixel($0, 924, 420, near: dark) }
        try expectImage(image, matchesGolden: "\(resources)/seed-001.png", mean: 0.5, over8: 0.5)
        // The scroll layer's listing is the seventh: at (480, 240), its
        // container 20 points in. Drag its grid 120 points left and 60 up.
        let scroll = try #require(controller.listings[6] as? ScrollLayerViewController).scrollView
        var t = 30.0
        window.sendTouch(.began, at: CGPoint(x: 620, y: 400), timestamp: t)
        for step in 1...12 {
            t += 0.02
            window.sendTouch(.moved, at: CGPoint(x: 620 - 10 * Double(step), y: 400 - 5 * Double(step)), timestamp: t)
        }
        window.sendTouch(.ended, at: CGPoint(x: 500, y: 340), timestamp: t + 0.02)
        // The pan begins after its first few points of movement.
        #expect(scroll.bounds.origin.x > 100 && scroll.bounds.origin.x <= 120)
        #expect(scroll.bounds.origin.y > 50 && scroll.bounds.origin.y <= 60)
    }

    @Test("001: the tile cutter cuts 64 tiles, and the tiled layer draws those it scrolls to")
    func tiledLayer() async throws {
        let directory = Snowman.tileDirectory
        let tiles = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("Snowman_") }
        #expect(tiles.count == 64)
        let picture = try #require(UIImage(contentsOfFile: directory + "/Snowman.jpg")?.cgImage)
        #expect(picture.width == 2048 && picture.height == 2048)
        // The tile two across and one down is that part of the picture.
        let tile = try #require(UIImage(contentsOfFile: directory + "/Snowman_02_01.jpg")?.cgImage)
        #expect(tile.width == 256 && tile.height == 256)
        let tilePNG = try #require(UIImage(cgImage: tile).pngData())
        let tilePixels = try Image(pngData: [UInt8](tilePNG))
        let cropped = try #require(picture.cropping(to: CGRect(x: 512, y: 256, width: 256, height: 256)))
        let partPNG = try #require(UIImage(cgImage: cropped).pngData())
        let part = try Image(pngData: [UInt8](partPNG))
        for (x, y) in [(10, 10), (128, 128), (250, 3)] {
            #expect(pixel(tilePixels, x, y, near: part[x, y]))
        }
        // With no arguments the cutter prints its usage and does nothing.
        #expect(tileCutter(["TileCutter"]) == 0)
        #expect(tileCutter(["TileCutter", directory + "/missing.jpg"]) == 1)

        // Scrolled to the top left, the tiled layer draws the moon's tile.
        let controller = TiledLayerViewController()
        let window = show(controller, size: CGSize(width: 240, height: 240))
        controller.scrollView.contentOffset = CGPoint(x: 200, y: 200)
        // The moon's middle, (310, 290) of the picture, is at (130, 110) of
        // the window; its colour is a pale yellow.
        _ = try await untilPicture(window) { pixel($0, 130, 110, near: Pixel(r: 255, g: 247, b: 204, a: 255)) }
    }
}
