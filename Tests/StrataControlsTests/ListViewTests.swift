import Foundation
import StrataGraphics
import StrataLayers
import StrataText
import Testing

@_spi(Benchmarks) @testable import StrataControls

/// A cell that paints its row's number as a colour, so a test can tell
/// which row's drawing a cell shows.
@MainActor
final class NumberCell: ListCell {
    static func color(_ row: Int) -> Pixel {
        Pixel(r: UInt8(row % 251), g: UInt8((row / 251) % 251), b: 128, a: 255)
    }

    override func makeDisplayTask(for row: Int, size: Size) -> AsyncDisplayTask {
        let c = NumberCell.color(row)
        return AsyncDisplayTask(display: { canvas, size, _ in
            canvas.fillColor = Color(red: Double(c.r) / 255, green: Double(c.g) / 255, blue: Double(c.b) / 255)
            canvas.fill(Rect(x: 0, y: 0, width: size.width, height: size.height))
        })
    }
}

@MainActor
final class NumberSource: ListViewDataSource, ListViewDelegate {
    var count: Int
    var heights: [Int: Double] = [:]
    var selected: [Int] = []
    init(count: Int) { self.count = count }
    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { count }
    func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double {
        heights[indexPath.row] ?? Double(40 + (indexPath.row % 5) * 10)
    }
    func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
        listView.dequeueReusableCell(withIdentifier: "n", for: indexPath)
    }
    func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath.row) }
}

/// Row `row` of the first section.
func ip(_ row: Int) -> IndexPath { IndexPath(row: row, section: 0) }

@MainActor
struct ListHarness {
    let host: LayerHost
    let list: ListView
    let source: NumberSource
    let dispatcher: InputDispatcher
    let clock: ManualClock

    init(rows: Int) throws {
        host = try LayerHost(width: 200, height: 400)
        clock = host.clock as! ManualClock
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 400))
        list = ListView(frame: root.bounds)
        root.addSubview(list)
        source = NumberSource(count: rows)
        list.register({ NumberCell(reuseIdentifier: "n") }, forCellReuseIdentifier: "n")
        list.dataSource = source
        list.delegate = source
        dispatcher = InputDispatcher(rootView: root, host: host)
        list.reloadData()
    }

    /// Frames until `done` holds (at most 5,000 frames: the pool is shared with
    /// every other test running meanwhile). It sleeps between frames
    /// without holding the main actor, which other tests' pool tasks may
    /// be waiting for.
    @discardableResult
    func run(until done: () -> Bool) async -> Bool {
        // Counted in frames, not on the wall clock: while other tests hold
        // the main actor, no frame runs and no time is used up.
        for _ in 0..<5000 {
            host.advance()
            if done() { return true }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        return false
    }

    func frames(_ n: Int) { for _ in 0..<n { host.advance() } }

    func fling(_ velocity: Double) {
        let t0 = clock.now
        let script = try! GestureScript.fling(from: Point(x: 100, y: velocity > 0 ? 350 : 50), velocity: Point(x: 0, y: -velocity))
        for (t, e) in script.events {
            guard case .pointer(let phase, let at) = e else { continue }
            clock.set(t0 + t)
            dispatcher.send(.pointer(PointerEvent(phase, at: at, timestamp: t0 + t)))
        }
    }

    /// Every placed cell with contents shows its own row's colour.
    func contentsMatchRows() -> Bool {
        list.cellsByRow.allSatisfy { row, cell in
            guard cell.hasContents else { return true }
            guard let image = cell.contentLayer.contents else { return false }
            return image[0, 0] == NumberCell.color(row) && cell.row == row
        }
    }
}

/// A `NumberCell` whose drawing takes 40 ms, so that a test can act while it is under way.
@MainActor
final class SlowNumberCell: ListCell {
    override func makeDisplayTask(for row: Int, size: Size) -> AsyncDisplayTask {
        let c = NumberCell.color(row)
        return AsyncDisplayTask(display: { canvas, size, _ in
            usleep(40_000)
            canvas.fillColor = Color(red: Double(c.r) / 255, green: Double(c.g) / 255, blue: Double(c.b) / 255)
            canvas.fill(Rect(x: 0, y: 0, width: size.width, height: size.height))
        })
    }
}

@Suite(.serialized) @MainActor struct ListViewTests {
    @Test func aDrawingCancelledByAnotherIsAskedForAgainAtRest() async throws {
        let h = try ListHarness(rows: 100)
        h.list.maximumSpareCells = 0
        h.list.register({ SlowNumberCell(reuseIdentifier: "n") }, forCellReuseIdentifier: "n")
        h.list.reloadData()
        h.list.maximumSpareCells = 5
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        // New rows: their drawings start at the next frame …
        h.list.scrollToRow(at: ip(60), at: .top, animated: false)
        h.host.advance()
        // … and a second display of one layer cancels its first drawing
        // while it is under way. Nothing scrolls after this.
        let cell = try #require(h.list.cellForRow(at: ip(60)))
        cell.contentLayer.setNeedsDisplay()
        h.host.advance()
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        #expect(h.contentsMatchRows())
    }

    @Test func rowsAreFoundByPositionAndCellsFillTheDisplayRange() async throws {
        let h = try ListHarness(rows: 1000)
        #expect(h.list.numberOfRows == 1000)
        #expect(h.list.rectForRow(0) == Rect(x: 0, y: 0, width: 200, height: 40))
        #expect(h.list.rectForRow(1).minY == 40 && h.list.rectForRow(1).height == 50)
        #expect(h.list.indexPathForRow(at: Point(x: 10, y: 45)) == ip(1))
        #expect(h.list.indexPathForRow(at: Point(x: 10, y: -1)) == nil)
        #expect(h.list.visibleRows == 0..<8)  // 40+50+60+70+80 = 300, then 40, 50 → 390: row 7 starts inside
        // Display range: visible plus a screen ahead (down) and half behind.
        #expect(h.list.placedRows.first == 0 && h.list.placedRows.last! >= 12)
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        #expect(h.contentsMatchRows())
    }

    @Test func cellsDrawOnTheListsPool() async throws {
        #expect(ListView.defaultDrawingPool.queuesPerPriority == max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
        let h = try ListHarness(rows: 500)
        let pool = QueuePool(queuesPerPriority: 1)
        h.list.drawingPool = pool
        // Hold the pool's queues: the rows scrolled to cannot draw.
        let gate = DispatchSemaphore(value: 0)
        for p in [DrawingPriority.userInitiated, .utility] { pool.async(p) { gate.wait() } }
        h.list.scrollToRow(at: ip(300), at: .top, animated: false)
        for _ in 0..<20 {
            h.host.advance()
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        #expect(h.list.blankVisibleRows == h.list.visibleRows.count)
        gate.signal()
        gate.signal()
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        #expect(h.contentsMatchRows())
    }

    @Test func aReusedCellNeverShowsAnotherRowsDrawing() async throws {
        let h = try ListHarness(rows: 2000)
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        // Jump about, checking every frame: contents always match rows.
        for target in [300, 301, 50, 1500, 1499, 0, 999] {
            h.list.scrollToRow(at: ip(target), at: .top, animated: false)
            for _ in 0..<3 {
                h.host.advance()
                #expect(h.contentsMatchRows())
            }
            #expect(await h.run { h.list.blankVisibleRows == 0 && h.contentsMatchRows() })
        }
        #expect(h.list.cellsCreated < 40)
        #expect(h.list.spareCellCount <= h.list.maximumSpareCells)
    }

    @Test func aFastFlingSkipsTheRowsItPassesAndNothingIsBlankAtRest() async throws {
        let h = try ListHarness(rows: 5000)
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        h.list.resetDrawingCounts()
        let start = h.list.visibleRows.lowerBound
        h.fling(8000)
        let skip = try #require(h.list.skippingRange)
        // The range is around where the fling will rest (closed form).
        var frames = 0
        while h.list.isDecelerating && frames < 2000 {
            h.host.advance()
            frames += 1
        }
        let rest = h.list.visibleRows
        #expect(skip.lowerBound == rest.lowerBound && skip.upperBound == min(5000, rest.upperBound + h.list.rangePolicy.flingSkipExtraRows))
        let passed = rest.lowerBound - start
        #expect(passed > 50)
        #expect(h.list.rowsSkipped > 20)
        #expect(h.list.rowsDrawn < passed / 2)
        // At rest every visible cell draws.
        #expect(h.list.skippingRange == nil)
        #expect(await h.run { h.list.blankVisibleRows == 0 && h.contentsMatchRows() })
        // A slow fling (few rows) does not skip.
        h.fling(300)
        #expect(h.list.skippingRange == nil)
    }

    @Test func aTouchThatCatchesAFlingDrawsEverything() async throws {
        let h = try ListHarness(rows: 5000)
        h.frames(2)
        h.fling(8000)
        #expect(h.list.skippingRange != nil)
        h.frames(5)
        h.dispatcher.send(.pointer(PointerEvent(.down, at: Point(x: 100, y: 200), timestamp: h.clock.now)))
        #expect(h.list.skippingRange == nil)
        h.dispatcher.send(.pointer(PointerEvent(.up, at: Point(x: 100, y: 200), timestamp: h.clock.now + 0.05)))
        #expect(await h.run { h.list.blankVisibleRows == 0 })
    }

    @Test func insertingAboveKeepsTheVisibleRowsStill() async throws {
        let h = try ListHarness(rows: 100)
        h.list.scrollToRow(at: ip(20), at: .top, animated: false)
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        let before = h.list.rectForRow(20).minY - h.list.contentOffset.y
        h.source.count += 5
        h.list.insertRows(at: (0..<5).map(ip))
        // Row 20 is now row 25, at the same place on screen, with its drawing.
        #expect(h.list.rectForRow(25).minY - h.list.contentOffset.y == before)
        #expect(h.list.cellForRow(at: ip(25))?.hasContents == true)
        h.source.count -= 2
        h.list.deleteRows(at: [ip(0), ip(1)])
        #expect(h.list.rectForRow(23).minY - h.list.contentOffset.y == before)
    }

    @Test func rowsBelowAnInsertionSlideAndAMovedRowTakesItsDrawing() async throws {
        let h = try ListHarness(rows: 100)
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        // Insert below the first visible row: the rows after it slide down.
        let below = try #require(h.list.cellForRow(at: ip(3)))
        h.source.count += 1
        h.list.insertRows(at: [ip(2)])
        #expect(h.list.cellForRow(at: ip(4)) === below)
        #expect(below.layer.animation(forKey: "position") != nil)
        #expect(h.list.cellForRow(at: ip(0))?.layer.animation(forKey: "position") == nil)
        // Without animation, nothing slides.
        h.frames(30)
        let other = try #require(h.list.cellForRow(at: ip(5)))
        h.source.count += 1
        h.list.insertRows(at: [ip(1)], with: .none)
        #expect(h.list.cellForRow(at: ip(6)) === other && other.layer.animation(forKey: "position") == nil)
        #expect(other.frame == h.list.rectForRow(6))
        h.frames(30)
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        // A move: the cell and its drawing go with the row.
        let mover = try #require(h.list.cellForRow(at: ip(1)))
        let drawing = mover.contentLayer.contents
        h.list.moveRow(at: ip(1), to: ip(4))
        #expect(h.list.cellForRow(at: ip(4)) === mover && mover.hasContents && mover.contentLayer.contents == drawing)
        #expect(h.list.cellForRow(at: ip(1)) !== mover)
        // Out-of-range moves and deletions are ignored.
        var completed = false
        h.list.performBatchUpdates(
            {
                h.list.insertRows(at: [ip(-1), ip(999), IndexPath(row: 0, section: 7), IndexPath()])
                h.list.deleteRows(at: [ip(500), IndexPath(indexes: [0, 1, 2])])
                h.list.reloadRows(at: [ip(-3)])
                h.list.moveRow(at: ip(999), to: ip(0))
            }, completion: { completed = $0 })
        #expect(h.list.numberOfRows == 102 && completed)
    }

    @Test func aReloadedRowKeepsItsDrawingUntilTheNewOneArrives() async throws {
        let h = try ListHarness(rows: 50)
        #expect(await h.run { h.list.blankVisibleRows == 0 })
        let cell = try #require(h.list.cellForRow(at: ip(2)))
        let old = cell.contentLayer.contents
        h.source.heights[2] = 90
        h.list.reloadRows(at: [ip(2)])
        // Never blank: the old drawing shows until the new one lands.
        #expect(cell.hasContents && cell.contentLayer.contents != nil)
        #expect(h.list.rectForRow(2).height == 90)
        #expect(await h.run { cell.contentLayer.contents?.height == 90 })
        #expect(old?.height == 60)
        #expect(h.list.cellForRow(at: ip(2)) === cell)
    }

    @Test func aTapSelectsTheRowUnlessItCatchesAFling() async throws {
        let h = try ListHarness(rows: 200)
        h.frames(2)
        func tap(_ p: Point) {
            h.dispatcher.send(.pointer(PointerEvent(.down, at: p, timestamp: h.clock.now)))
            h.clock.advance(by: 0.05)
            h.dispatcher.send(.pointer(PointerEvent(.up, at: p, timestamp: h.clock.now)))
            h.frames(1)
        }
        tap(Point(x: 100, y: 45))
        #expect(h.source.selected == [1])
        // A touch that stops a fling selects nothing.
        h.fling(3000)
        h.frames(5)
        #expect(h.list.isDecelerating)
        tap(Point(x: 100, y: 45))
        #expect(h.source.selected == [1])
        #expect(!h.list.isDecelerating)
    }

    @Test func emptyAndHostileDataAreSafe() async throws {
        let h = try ListHarness(rows: 0)
        #expect(h.list.visibleRows.isEmpty && h.list.placedRows.isEmpty)
        h.source.count = 10
        h.source.heights = [0: .nan, 1: -5, 2: .infinity, 3: 0]
        h.list.reloadData()
        #expect(h.list.rectForRow(0).height == 0 && h.list.rectForRow(1).height == 0)
        #expect(h.list.contentSize.height.isFinite)
        h.list.scrollToRow(at: ip(-1), at: .top, animated: false)
        h.list.scrollToRow(at: ip(99), at: .middle, animated: false)
        h.frames(3)
        // An identifier never registered gets a plain cell, not a crash.
        let plain = h.list.dequeueReusableCell(withIdentifier: "unknown", for: ip(0))
        #expect(type(of: plain) == ListCell.self && plain.reuseIdentifier == "unknown")
        // Index paths the list does not have find nothing.
        #expect(h.list.cellForRow(at: IndexPath()) == nil && h.list.rectForRow(at: IndexPath(row: 0, section: 3)).height == 0)
        #expect(h.list.numberOfRows(inSection: 5) == 0 && h.list.numberOfRows(inSection: -1) == 0)
        // Settings out of range are held to theirs.
        h.list.rangePolicy.flingSkipThreshold = -5
        h.list.rangePolicy.flingSkipExtraRows = -3
        h.list.rangePolicy.drawingVelocity = .nan
        let p = h.list.rangePolicy
        #expect(p.flingSkipThreshold == 0 && p.flingSkipExtraRows == 0 && p.drawingVelocity == 0)
        h.list.rangePolicy.flingSkipExtraRows = .max
        #expect(h.list.rangePolicy.flingSkipExtraRows == 1000)
        h.fling(8000)
        h.frames(3)
        let store = RowLayoutStore<Int>(count: 10, width: 100, estimatedHeight: .nan, make: { row, _ in row }, height: { _ in .infinity })
        store.batchSize = 0
        #expect(store.batchSize == 1 && store.height(3) == 0)
        store.load()
    }
}

/// Records what a prefetching data source and a list's delegate hear.
@MainActor
final class ListRecorder: ListViewDataSourcePrefetching, ListViewDelegate {
    var prefetched: [IndexPath] = []
    var cancelled: [IndexPath] = []
    var scrolls = 0
    var shown: [IndexPath] = []
    func listView(_ listView: ListView, prefetchRowsAt indexPaths: [IndexPath]) { prefetched += indexPaths }
    func listView(_ listView: ListView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) { cancelled += indexPaths }
    func scrollViewDidScroll(_ scrollView: ScrollView) { scrolls += 1 }
    func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) { shown.append(indexPath) }
}

@Suite(.serialized) @MainActor struct ListViewShapeTests {
    @Test func indexPathsNameSectionAndRow() {
        var path = IndexPath(row: 3, section: 1)
        #expect(path.section == 1 && path.row == 3 && path.count == 2 && path == [1, 3])
        path.row = 7
        #expect(path == IndexPath(row: 7, section: 1))
    }

    @Test func aBatchAppliesItsChangesTogetherAndNestedBatchesJoinIt() throws {
        let h = try ListHarness(rows: 20)
        var inside = -1
        h.list.performBatchUpdates {
            h.source.count = 22
            h.list.insertRows(at: [ip(0)])
            // Not applied yet: the list still has its old rows.
            inside = h.list.numberOfRows
            h.list.performBatchUpdates { h.list.insertRows(at: [ip(1)]) }
            #expect(h.list.numberOfRows == 20)
        }
        #expect(inside == 20 && h.list.numberOfRows == 22)
        // A move and a deletion by old index paths, an insertion by new ones.
        let cell0 = try #require(h.list.cellForRow(at: ip(0)))
        h.list.performBatchUpdates({
            h.source.count = 22
            h.list.deleteRows(at: [ip(2)])
            h.list.insertRows(at: [ip(5)])
            h.list.moveRow(at: ip(0), to: ip(3))
        })
        #expect(h.list.cellForRow(at: ip(3)) === cell0)
        #expect(h.list.indexPath(for: cell0) == ip(3))
        // A batch with nothing in it reads the heights again, keeping the view still.
        h.source.heights[0] = 200
        h.list.performBatchUpdates(nil)
        #expect(h.list.rectForRow(at: ip(0)).height == 200)
    }

    @Test func theDelegateIsOneAndThePrefetcherGetsIndexPaths() throws {
        let h = try ListHarness(rows: 300)
        let recorder = ListRecorder()
        h.list.delegate = recorder
        h.list.prefetchDataSource = recorder
        h.list.reloadData()
        #expect(recorder.shown.first == ip(0))
        #expect(!recorder.prefetched.isEmpty && recorder.prefetched.allSatisfy { $0.section == 0 && $0.row > 8 })
        h.list.setContentOffset(Point(x: 0, y: 4000), animated: false)
        #expect(recorder.scrolls > 0)
        #expect(!recorder.cancelled.isEmpty)
        // The scroll view's delegate is the list's: without row heights of
        // its own, rows are `rowHeight` tall.
        #expect(h.list.rectForRow(at: ip(0)).height == h.list.rowHeight)
        #expect(h.list.indexPathsForVisibleRows?.first == h.list.indexPath(forRow: h.list.visibleRows.lowerBound))
        #expect(h.list.visibleCells.count == h.list.visibleRows.count)
        _ = recorder
    }

    @Test func theRangePolicyIsAValue() {
        var policy = ListRangePolicy()
        policy.tuning = ListRangeTuning(displayAhead: 2, displayBehind: .nan, preloadAhead: 1e9, preloadBehind: -1)
        #expect(policy.tuning.displayBehind == 0 && policy.tuning.preloadAhead == 100 && policy.tuning.preloadBehind == 0)
        let span = policy.displaySpan(offset: 1000, height: 100, movingDown: true)
        #expect(span.0 == 1000 && span.1 == 1300)
        let up = policy.displaySpan(offset: 1000, height: 100, movingDown: false)
        #expect(up.0 == 800 && up.1 == 1100)
        // Rows of 10 points: a fling from 0 to 2,000 passes 200 rows and skips.
        let layout = ListLayout(rowCounts: [1000], headerHeight: { _ in 0 }, rowHeight: { _ in 10 })
        let skip = policy.skippingRows(in: layout, from: 0, to: 2000, height: 100)
        #expect(skip == 200..<213)
        #expect(policy.skippingRows(in: layout, from: 0, to: 50, height: 100) == nil)
        #expect(policy.skippingRows(in: layout, from: 2000, to: 0, height: 100) == 0..<10)
        #expect(policy.allowsDrawing(5, skipping: nil, visible: 0..<0, speed: 1e6))
        #expect(!policy.allowsDrawing(50, skipping: skip, visible: 45..<55, speed: 5000))
        #expect(policy.allowsDrawing(50, skipping: skip, visible: 45..<55, speed: 100))
        #expect(policy.allowsDrawing(205, skipping: skip, visible: 0..<0, speed: 5000))
    }
}

@Suite struct TextEntityTests {
    @Test func mentionsTopicsLinksAndEmoticonsAreFound() {
        let text = "长按 @strata_dev 的名字, mail a@b.com, 点击 #流畅界面# 话题, see https://example.org/guide. [smile] [nope] #open"
        let found = TextEntities.find(in: text)
        #expect(found.map(\.kind) == [.mention, .topic, .link, .emoticon])
        #expect(found.map(\.payload) == ["strata_dev", "流畅界面", "https://example.org/guide", "😊"])
        let chars = Array(text)
        #expect(String(chars[found[2].range]) == "https://example.org/guide")
        #expect(TextEntities.find(in: "").isEmpty)
        #expect(TextEntities.find(in: "@ # #  # http:// [").isEmpty)
    }
}
