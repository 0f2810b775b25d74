import Foundation
import StrataDemos
import StrataGraphics
import StrataLayers
import StrataText
import Testing

@_spi(Benchmarks) @testable import StrataControls

/// The demo feed end to end: first screen, taps on entities with their
/// highlight, a width change, bounded memory.
@Suite(.serialized) @MainActor struct FeedTests {
    func driver(posts: Int = 300) throws -> FeedDriver { try FeedDriver(posts: posts, scale: 1) }

    /// Frames (sleeping between them, off the main actor) until `done`.
    func run(_ d: FeedDriver, until done: () -> Bool) async -> Bool {
        // Counted in frames (see ListHarness.run).
        for _ in 0..<5000 {
            d.frame()
            if done() { return true }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        return false
    }

    @Test func theFirstScreenDrawsAndNothingIsBlankAtRest() async throws {
        let d = try driver()
        #expect(await run(d) { d.list.blankVisibleRows == 0 && d.controller.store.layout(0) != nil })
        #expect(d.list.visibleRows.count >= 2)
        d.fling(8000)
        #expect(await run(d) { !d.list.isDecelerating && d.list.blankVisibleRows == 0 })
        #expect(d.list.visibleRows.lowerBound > 5)
    }

    @Test(arguments: [TextEntity.Kind.mention, .topic, .link])
    func pressingAnEntityHighlightsItAndATapReportsIt(kind: TextEntity.Kind) async throws {
        let d = try driver(posts: 400)
        #expect(await run(d) { d.list.blankVisibleRows == 0 && d.controller.store.pending == 0 })
        var found = d.visibleEntity([kind])
        var tries = 0
        while found == nil && tries < 40 {
            d.list.setContentOffset(Point(x: 0, y: d.list.contentOffset.y + 300), animated: false)
            _ = await run(d) { d.list.blankVisibleRows == 0 }
            found = d.visibleEntity([kind])
            tries += 1
        }
        let (row, entity, point) = try #require(found, "no visible \(kind)")
        let cell = try #require(d.list.cellsByRow[row] as? FeedCell)
        d.dispatcher.send(.pointer(PointerEvent(.down, at: point, timestamp: d.clock.now)))
        #expect(cell.highlighted == entity)
        // The highlighted drawing lands; the cell never goes blank meanwhile.
        let before = cell.contentLayer.contents
        #expect(cell.hasContents)
        #expect(await run(d) { cell.contentLayer.contents != before })
        d.dispatcher.send(.pointer(PointerEvent(.up, at: point, timestamp: d.clock.now + 0.05)))
        #expect(cell.highlighted == nil)
        let tap = try #require(d.controller.taps.last)
        #expect(tap.row == row && tap.entity == entity)
        #expect(d.controller.selectedRows.isEmpty)
        // A tap elsewhere in the row selects it.
        let avatar = Point(x: 30, y: d.list.rectForRow(row).minY + 30 - d.list.contentOffset.y)
        if avatar.y > 0 && avatar.y < d.list.bounds.height {
            d.dispatcher.send(.pointer(PointerEvent(.down, at: avatar, timestamp: d.clock.now + 0.5)))
            d.dispatcher.send(.pointer(PointerEvent(.up, at: avatar, timestamp: d.clock.now + 0.55)))
            #expect(d.controller.selectedRows == [row])
        }
    }

    @Test func thePointerIsAHandOverEntitiesAndAnArrowElsewhere() async throws {
        let d = try driver()
        #expect(await run(d) { d.list.blankVisibleRows == 0 && d.controller.store.pending == 0 })
        var found = d.visibleEntity([.link])
        var tries = 0
        while found == nil && tries < 40 {
            d.list.setContentOffset(Point(x: 0, y: d.list.contentOffset.y + 300), animated: false)
            _ = await run(d) { d.list.blankVisibleRows == 0 }
            found = d.visibleEntity([.link])
            tries += 1
        }
        let (_, _, point) = try #require(found)
        #expect(d.root.resolvedCursor(at: point) == .pointingHand)
        // The avatar's corner of the same screen is no link.
        #expect(d.root.resolvedCursor(at: Point(x: 2, y: 2)) == .arrow)
    }

    @Test func aPressThatBecomesAScrollTapsNothing() async throws {
        let d = try driver()
        #expect(await run(d) { d.list.blankVisibleRows == 0 && d.controller.store.pending == 0 })
        var found = d.visibleEntity()
        var tries = 0
        while found == nil && tries < 40 {
            d.list.setContentOffset(Point(x: 0, y: d.list.contentOffset.y + 300), animated: false)
            _ = await run(d) { d.list.blankVisibleRows == 0 }
            found = d.visibleEntity()
            tries += 1
        }
        let (row, _, point) = try #require(found)
        let cell = try #require(d.list.cellsByRow[row] as? FeedCell)
        d.play(GestureScript.drag(from: point, to: Point(x: point.x, y: point.y - 120), duration: 0.3))
        #expect(cell.highlighted == nil)
        #expect(d.controller.taps.isEmpty)
    }

    @Test func aWidthChangeKeepsTheDrawingsUntilTheNewLayoutsLand() async throws {
        let d = try driver()
        #expect(await run(d) { d.list.blankVisibleRows == 0 && d.controller.store.pending == 0 })
        d.list.frame = Rect(x: 0, y: 0, width: 300, height: 640)
        d.controller.setWidth(300)
        // Never blank meanwhile.
        #expect(d.list.blankVisibleRows == 0)
        #expect(
            await run(d) {
                d.controller.store.pending == 0 && d.list.visibleRows.allSatisfy { d.controller.store.layout($0)?.width == 300 }
                    && d.list.blankVisibleRows == 0
            })
        let cell = try #require(d.list.cellsByRow[d.list.visibleRows.lowerBound])
        #expect(await run(d) { cell.contentLayer.contents?.width == 300 })
    }

    @Test func layoutsCellsAndPicturesStayBounded() async throws {
        let d = try driver(posts: 2000)
        #expect(await run(d) { d.controller.store.pending == 0 })
        for _ in 0..<6 {
            d.fling(8000)
            _ = await run(d) { !d.list.isDecelerating && d.list.blankVisibleRows == 0 }
        }
        #expect(d.list.visibleRows.lowerBound > 50)
        #expect(d.controller.store.keptCount <= d.controller.store.window.count)
        #expect(d.controller.store.window.count <= 2 * FeedController.windowRows + 40)
        #expect(d.list.spareCellCount <= d.list.maximumSpareCells)
        #expect(d.list.cellsCreated < 40)
        // Kept layouts hold no composed masks once their cells have drawn.
        let held = d.list.visibleRows.compactMap { d.controller.store.layout($0)?.text.composedLinesByteCount }
        #expect(held.allSatisfy { $0 == 0 })
    }
}

/// The feed's images: a JPEG source decoded, scaled to the size shown,
/// rounded and shadowed, cached by seed and size within bounds.
@Suite struct FeedImageTests {
    @Test func aPictureIsScaledRoundedAndShadowedInItsMargin() throws {
        let image = try #require(FeedImages.picture(seed: 41, width: 90, height: 60, margin: 6))
        #expect(image.width == 102 && image.height == 72)
        // The photo fills its frame: opaque inside.
        #expect(image[51, 36].a == 255)
        #expect(image[10, 10].a == 255)
        // The rounded corner leaves the frame's corner pixel partly clear.
        #expect(image[6, 6].a < 200)
        // Below the frame (the shadow falls 2 px down, blurred 4): dark and translucent.
        let shadow = image[51, 67]
        #expect(shadow.a > 10 && shadow.a < 200)
        #expect(shadow.r <= shadow.a / 2)
        // Far outside the shadow's reach: clear.
        #expect(image[0, 0].a == 0)
        // No margin, no shadow: the image is the frame.
        let plain = try #require(FeedImages.picture(seed: 41, width: 90, height: 60))
        #expect(plain.width == 90 && plain.height == 60)
    }

    @Test func sizesOfOneSourceShowTheSamePhoto() throws {
        // Scaled from the same decoded source, the centres agree at both sizes.
        let small = try #require(FeedImages.picture(seed: 7, width: 120, height: 90))
        let large = try #require(FeedImages.picture(seed: 7, width: 480, height: 360))
        for (x, y) in [(0.5, 0.2), (0.5, 0.5), (0.3, 0.8)] {
            let a = small[Int(120 * x), Int(90 * y)], b = large[Int(480 * x), Int(360 * y)]
            #expect(abs(Int(a.r) - Int(b.r)) < 24 && abs(Int(a.g) - Int(b.g)) < 24 && abs(Int(a.b) - Int(b.b)) < 24)
        }
        // Another seed is another photo.
        let other = try #require(FeedImages.picture(seed: 8, width: 120, height: 90))
        #expect(other != small)
    }

    @Test func anAvatarIsRound() throws {
        let a = try #require(FeedImages.avatar(seed: 3, side: 80, margin: 4))
        #expect(a.width == 88)
        #expect(a[44, 44].a == 255)
        // The frame's corner is outside the circle (and beyond the shadow's reach there).
        #expect(a[6, 6].a < 40)
    }

    @Test func imagesAreCachedBySizeWithinBounds() throws {
        _ = FeedImages.picture(seed: 99, width: 64, height: 48, margin: 3)
        let before = FeedImages.usage
        _ = FeedImages.picture(seed: 99, width: 64, height: 48, margin: 3)
        #expect(FeedImages.usage == before)
        for seed in 0..<200 as Range<UInt64> { _ = FeedImages.picture(seed: 1000 + seed, width: 300, height: 300, margin: 6) }
        let after = FeedImages.usage
        #expect(after.imageBytes <= FeedImages.imageByteLimit)
        #expect(after.sourceBytes <= FeedImages.sourceByteLimit)
    }

    @Test func badSizesGiveNoImage() {
        #expect(FeedImages.picture(seed: 1, width: 0, height: 10) == nil)
        #expect(FeedImages.picture(seed: 1, width: 10, height: -3) == nil)
        #expect(FeedImages.picture(seed: 1, width: 5000, height: 10) == nil)
        #expect(FeedImages.picture(seed: 1, width: 10, height: 10, margin: -1) == nil)
        #expect(FeedImages.avatar(seed: 1, side: 0) == nil)
    }
}
