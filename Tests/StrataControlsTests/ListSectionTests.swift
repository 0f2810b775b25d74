import Foundation
import StrataGraphics
import StrataLayers
import Testing

@testable import StrataControls

/// A data source with sections: row counts per section, a header height
/// per section, rows 50 points tall.
@MainActor
final class SectionSource: ListViewDataSource, ListViewDelegate {
    var counts: [Int]
    var headerHeights: [Double]
    var headersMade: [Int] = []
    var selected: [IndexPath] = []
    init(counts: [Int], headerHeights: [Double]) {
        self.counts = counts
        self.headerHeights = headerHeights
    }
    func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double { 50 }
    func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
        listView.dequeueReusableCell(withIdentifier: "n", for: indexPath)
    }
    func numberOfSections(in listView: ListView) -> Int { counts.count }
    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { counts[section] }
    func listView(_ listView: ListView, heightForHeaderInSection section: Int) -> Double { headerHeights[section] }
    func listView(_ listView: ListView, viewForHeaderInSection section: Int) -> View? {
        headersMade.append(section)
        let v = View()
        v.backgroundColor = Color(red: 1, green: 0, blue: Double(section % 10) / 10)
        return v
    }
    func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
}

@MainActor
@Suite struct ListSectionTests {
    let host: LayerHost
    let list: ListView
    let source: SectionSource
    let dispatcher: InputDispatcher

    init() throws {
        host = try LayerHost(width: 200, height: 400)
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 400))
        list = ListView(frame: root.bounds)
        root.addSubview(list)
        // Sections: 3 rows, an empty one, 5 rows, 10 rows; headers 30, 20, 0 (none), 30.
        source = SectionSource(counts: [3, 0, 5, 10], headerHeights: [30, 20, 0, 30])
        list.register({ NumberCell(reuseIdentifier: "n") }, forCellReuseIdentifier: "n")
        list.dataSource = source
        list.delegate = source
        dispatcher = InputDispatcher(rootView: root, host: host)
        list.reloadData()
    }

    @Test func rowsAndHeadersAreLaidOutInOrder() {
        #expect(list.numberOfSections == 4)
        #expect(list.numberOfRows == 18)
        #expect(list.rows(inSection: 0) == 0..<3)
        #expect(list.rows(inSection: 1) == 3..<3)
        #expect(list.rows(inSection: 2) == 3..<8)
        #expect(list.rows(inSection: 3) == 8..<18)
        #expect(list.rows(inSection: 4) == 0..<0)
        // Header 0 at 0, rows 0–2 at 30, 80, 130; header 1 (empty section) at 180;
        // section 2 has no header: rows 3–7 from 200; header 3 at 450; row 8 at 480.
        #expect(list.rectForHeader(inSection: 0) == Rect(x: 0, y: 0, width: 200, height: 30))
        #expect(list.rectForRow(0).minY == 30)
        #expect(list.rectForRow(2) == Rect(x: 0, y: 130, width: 200, height: 50))
        #expect(list.rectForHeader(inSection: 1) == Rect(x: 0, y: 180, width: 200, height: 20))
        #expect(list.rectForRow(3).minY == 200)
        #expect(list.rectForRow(7) == Rect(x: 0, y: 400, width: 200, height: 50))
        #expect(list.rectForHeader(inSection: 3).minY == 450)
        #expect(list.rectForRow(8).minY == 480)
        #expect(list.contentSize.height == 480 + 10 * 50)
        #expect(list.indexPath(forRow: 0) == IndexPath(row: 0, section: 0))
        #expect(list.indexPath(forRow: 3) == IndexPath(row: 0, section: 2))
        #expect(list.indexPath(forRow: 7) == IndexPath(row: 4, section: 2))
        #expect(list.indexPath(forRow: 8) == IndexPath(row: 0, section: 3))
        #expect(list.indexPath(forRow: 18) == nil && list.indexPath(forRow: -1) == nil)
        // And back: an index path names its flat row's frame.
        #expect(list.rectForRow(at: IndexPath(row: 4, section: 2)) == list.rectForRow(7))
        #expect(list.rectForRow(at: IndexPath(row: 0, section: 1)).height == 0)
        #expect(list.numberOfRows(inSection: 2) == 5 && list.numberOfRows(inSection: 1) == 0)
    }

    @Test func headersAreNotRows() {
        // Over a header there is no row; a range starting there begins at the next row.
        #expect(list.indexPathForRow(at: Point(x: 10, y: 10)) == nil)
        #expect(list.indexPathForRow(at: Point(x: 10, y: 190)) == nil)
        #expect(list.indexPathForRow(at: Point(x: 10, y: 179)) == IndexPath(row: 2, section: 0))
        #expect(list.indexPathForRow(at: Point(x: 10, y: 200)) == IndexPath(row: 0, section: 2))
        #expect(list.layout.rows(in: 185, 300) == 3..<5)
        #expect(list.layout.rows(in: 455, 470) == 8..<8)
        #expect(list.layout.rows(in: 0, 29) == 0..<0)
    }

    @Test func headerViewsComeForTheDisplayRangeAndAreAskedForOnce() {
        // At the top the display range (1 screen ahead) reaches y = 800: headers 0, 1 and 3.
        #expect(Set(list.headerViewsBySection.keys) == [0, 1, 3])
        #expect(list.headerView(forSection: 2) == nil)
        let made = source.headersMade.count
        list.setContentOffset(Point(x: 0, y: 10), animated: false)
        #expect(source.headersMade.count == made)
        // Far down, the first sections' headers go.
        list.setContentOffset(Point(x: 0, y: 580), animated: false)
        #expect(list.headerView(forSection: 0) == nil)
        #expect(list.headerView(forSection: 3) != nil)
    }

    @Test func headersPinToTheTopUntilPushedAway() {
        list.setContentOffset(Point(x: 0, y: 60), animated: false)
        #expect(list.headerView(forSection: 0)?.frame.minY == 60)
        // Section 0 ends at 180: its 30-point header is pushed up from y = 150.
        list.setContentOffset(Point(x: 0, y: 165), animated: false)
        #expect(list.headerView(forSection: 0)?.frame.minY == 150)
        #expect(list.headerView(forSection: 1)?.frame.minY == 180)
        // In section 3, its header stays at the top, over row 8.
        list.setContentOffset(Point(x: 0, y: 500), animated: false)
        #expect(list.headerView(forSection: 3)?.frame.minY == 500)
        #expect(list.headerView(forSection: 3)?.frame.height == 30)
        // Unpinned, it stays among the rows.
        list.sectionHeadersPinToVisibleBounds = false
        #expect(list.headerView(forSection: 3)?.frame.minY == 450 || list.headerView(forSection: 3) == nil)
        list.setContentOffset(Point(x: 0, y: 400), animated: false)
        #expect(list.headerView(forSection: 3)?.frame.minY == 450)
    }

    @Test func headersDrawAboveTheRows() throws {
        list.setContentOffset(Point(x: 0, y: 580), animated: false)
        host.advance()
        let image = host.makeImage()
        // The header of section 3 (red with blue 0.3) covers the top 30 points.
        let p = image[100, 10]
        #expect(p.r == 255 && p.g == 0)
        let below = image[100, 40]
        #expect(below.r != 255 || below.g != 0)
    }

    @Test func aTapOnAPinnedHeaderSelectsNoRow() {
        list.setContentOffset(Point(x: 0, y: 580), animated: false)
        host.advance()
        func tap(_ y: Double) {
            dispatcher.send(.pointer(PointerEvent(.down, at: Point(x: 50, y: y), timestamp: 1)))
            dispatcher.send(.pointer(PointerEvent(.up, at: Point(x: 50, y: y), timestamp: 1.05)))
        }
        tap(15)
        #expect(source.selected.isEmpty)
        tap(100)
        // y = 680 in content (580 is the end): row 8 spans 480–530, so row 12 spans 680–730.
        #expect(source.selected == [IndexPath(row: 4, section: 3)])
    }

    @Test func scrollingToARowLeavesItBelowItsPinnedHeader() {
        list.scrollToRow(at: IndexPath(row: 2, section: 3), at: .top, animated: false)
        #expect(list.contentOffset.y == list.rectForRow(10).minY - 30)
        list.sectionHeadersPinToVisibleBounds = false
        list.scrollToRow(at: IndexPath(row: 2, section: 3), at: .top, animated: false)
        #expect(list.contentOffset.y == list.rectForRow(10).minY)
    }

    @Test func badCountsAndHeaderHeightsCountAsNone() {
        // A negative count is an empty section.
        source.counts = [4, -3, 2, 0]
        list.reloadData()
        #expect(list.rows(inSection: 0) == 0..<4)
        #expect(list.rows(inSection: 1) == 4..<4)
        #expect(list.rows(inSection: 2) == 4..<6)
        #expect(list.numberOfRows == 6)
        // Bad header heights count as none.
        source.headerHeights = [.nan, -5, .infinity, 30]
        list.reloadData()
        #expect(list.rectForHeader(inSection: 0).height == 0)
        #expect(list.rectForHeader(inSection: 1).height == 0)
        #expect(list.rectForHeader(inSection: 2).height == 0)
        #expect(list.rectForRow(0).minY == 0)
        #expect(list.headerView(forSection: 0) == nil)
    }

    @Test func hugeCountsAndHeightsAreHeld() {
        // A header of 1e30 points is held to 1e7, like a row; counts of Int.max to the rows there are.
        source.headerHeights = [1e30, 0, 0, 0]
        // Counts past a million rows in all are held there; later sections get none.
        source.counts = [Int.max, Int.max, -4, 0]
        list.reloadData()
        #expect(list.rectForHeader(inSection: 0).height == 1e7)
        #expect(list.numberOfRows == ListLayout.maximumRows && list.rows(inSection: 0) == 0..<ListLayout.maximumRows)
        #expect(list.rows(inSection: 1).isEmpty && list.rows(inSection: 2).isEmpty)
        list.scrollToRow(at: IndexPath(row: 999_999, section: 0), at: .bottom, animated: false)
        #expect(list.visibleRows.last == 999_999)
        // Int.max sections: held to 1,000,000, in bounded time.
        let many = ManySections()
        list.dataSource = many
        list.delegate = nil
        list.reloadData()
        #expect(list.numberOfSections == 1_000_000)
        #expect(list.rows(inSection: 0) == 0..<10)
        #expect(list.indexPath(forRow: 5) == IndexPath(row: 5, section: 0))
        list.dataSource = source
        list.delegate = source
    }

    @Test func insertingRowsAboveKeepsTheViewStillAcrossSections() {
        list.setContentOffset(Point(x: 0, y: 580), animated: false)
        let first = list.visibleRows.lowerBound
        let screenY = list.rectForRow(first).minY - list.contentOffset.y
        source.counts[0] += 2
        list.insertRows(at: [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)], with: .none)
        #expect(list.rectForRow(first + 2).minY - list.contentOffset.y == screenY)
        #expect(list.rows(inSection: 3) == 10..<20)
        #expect(list.headerView(forSection: 3)?.frame.minY == list.contentOffset.y)
    }

    @Test func aListWithoutSectionsHasOneAndNoHeaders() throws {
        let plain = try ListHarness(rows: 10)
        #expect(plain.list.numberOfSections == 1)
        #expect(plain.list.rows(inSection: 0) == 0..<10)
        #expect(plain.list.headerViewsBySection.isEmpty)
        #expect(plain.list.rectForHeader(inSection: 0).height == 0)
    }
}

/// A data source that claims Int.max sections.
@MainActor
final class ManySections: ListViewDataSource {
    func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
        listView.dequeueReusableCell(withIdentifier: "n", for: indexPath)
    }
    func numberOfSections(in listView: ListView) -> Int { .max }
    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { section == 0 ? 10 : 0 }
}
