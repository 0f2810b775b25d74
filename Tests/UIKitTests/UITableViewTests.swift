import Foundation
import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

@MainActor
final class ScrollLog: UIScrollViewDelegate {
    var events: [String] = []
    var velocity: CGPoint?
    var retarget: CGPoint?

    func scrollViewDidScroll(_ scrollView: UIScrollView) { if events.last != "scroll" { events.append("scroll") } }
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { events.append("beginDragging") }
    func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint, targetContentOffset: UnsafeMutablePointer<CGPoint>
    ) {
        events.append("willEndDragging")
        self.velocity = velocity
        if let retarget { targetContentOffset.pointee = retarget }
    }
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) { events.append("endDragging \(decelerate)") }
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) { events.append("endDecelerating") }
}

@MainActor
final class Rows: NSObject, UITableViewDataSource, UITableViewDelegate, UITableViewDataSourcePrefetching {
    var counts = [30, 5]
    var made = 0
    var selections: [IndexPath] = []
    var prefetchedRows: [IndexPath] = []

    func numberOfSections(in tableView: UITableView) -> Int { counts.count }
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { counts[section] }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel?.text = "Row \(indexPath.section).\(indexPath.row)"
        return cell
    }
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { "Section \(section)" }
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { indexPath.row == 0 ? 60 : 40 }
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { selections.append(indexPath) }
    func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) { prefetchedRows += indexPaths }
}

/// A cell class made by the table from its registration.
@MainActor
final class CountingCell: UITableViewCell {
    static var made = 0
    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        CountingCell.made += 1
        super.init(style: style, reuseIdentifier: reuseIdentifier)
    }
    required init?(coder: NSCoder) { fatalError("not from archives") }
}

@MainActor
@Suite("Scroll views and tables")
struct UITableViewTests {
    @Test("A drag scrolls the content, tells the delegate in UIKit's order, and a fling lands where the delegate says")
    func scrolling() {
        let scroll = UIScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        scroll.contentSize = CGSize(width: 100, height: 1000)
        let log = ScrollLog()
        scroll.delegate = log
        let w = window(CGSize(width: 100, height: 100), holding: scroll)
        #expect(scroll.panGestureRecognizer.view === scroll)
        scroll.contentOffset = CGPoint(x: 0, y: 50)
        #expect(scroll.bounds.origin == CGPoint(x: 0, y: 50))
        #expect(log.events == ["scroll"])
        log.events = []
        log.retarget = CGPoint(x: 0, y: 300)
        var t = 1.0
        w.sendTouch(.began, at: CGPoint(x: 50, y: 90), timestamp: t)
        for y in stride(from: 85.0, through: 30, by: -5) {
            t += 0.01
            w.sendTouch(.moved, at: CGPoint(x: 50, y: y), timestamp: t)
        }
        w.sendTouch(.ended, at: CGPoint(x: 50, y: 30), timestamp: t + 0.01)
        #expect(log.events.prefix(2) == ["beginDragging", "scroll"])
        #expect(log.events.contains("willEndDragging") && log.events.contains("endDragging true"))
        // Points per millisecond, upward drag: positive y.
        #expect((log.velocity?.y ?? 0) > 0.2 && (log.velocity?.y ?? 0) < 5)
        for _ in 0..<400 where !log.events.contains("endDecelerating") { w.advance(by: 1.0 / 60) }
        #expect(log.events.last == "endDecelerating")
        #expect(abs(scroll.contentOffset.y - 300) < 0.5)
        #expect(!scroll.isDragging && !scroll.isDecelerating)
    }

    @Test("A table makes cells only for the rows on screen, reuses them, and lays out sections and headers")
    func tableRows() throws {
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 200, height: 300), style: .plain)
        table.register(CountingCell.self, forCellReuseIdentifier: "row")
        let rows = Rows()
        table.dataSource = rows
        table.delegate = rows
        table.prefetchDataSource = rows
        let w = window(CGSize(width: 200, height: 300), holding: table)
        _ = w.snapshotImage()
        #expect(table.numberOfSections == 2)
        #expect(table.numberOfRows(inSection: 0) == 30 && table.numberOfRows(inSection: 1) == 5)
        // Header 28, row 0 is 60 high, the rest 40.
        #expect(table.rectForRow(at: IndexPath(row: 0, section: 0)) == CGRect(x: 0, y: 28, width: 200, height: 60))
        #expect(table.rectForRow(at: IndexPath(row: 2, section: 0)) == CGRect(x: 0, y: 128, width: 200, height: 40))
        let firstSection: CGFloat = 28 + 60 + 29 * 40
        let secondSection: CGFloat = 28 + 60 + 4 * 40
        #expect(table.rectForHeader(inSection: 1).minY == firstSection)
        #expect(table.contentSize.height == firstSection + secondSection)
        let shown = try #require(table.indexPathsForVisibleRows)
        #expect(shown.first == IndexPath(row: 0, section: 0))
        #expect(shown.count == 7)  // 28 + 60 + 5 × 40 = 288; the 7th row starts at 288 < 300
        let made = CountingCell.made
        #expect(made == 7)
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 0))?.textLabel?.text == "Row 0.1")
        #expect(table.indexPathForRow(at: CGPoint(x: 5, y: 130)) == IndexPath(row: 2, section: 0))
        #expect(table.indexPathForRow(at: CGPoint(x: 5, y: 10)) == nil)
        #expect(table.indexPathForRow(at: CGPoint(x: 5, y: CGFloat.nan)) == nil)
        #expect(!rows.prefetchedRows.isEmpty)
        // Scrolled a long way: the cells of the rows that left are reused.
        table.contentOffset = CGPoint(x: 0, y: 600)
        _ = w.snapshotImage()
        let visible = try #require(table.indexPathsForVisibleRows)
        #expect(visible.first == IndexPath(row: 13, section: 0))
        #expect(CountingCell.made - made <= 2)
        #expect(table.visibleCells.allSatisfy { !$0.isHidden && $0.superview === table })
        #expect(table.cellForRow(at: visible[0])?.textLabel?.text == "Row 0.13")
        // The plain style pins the section header to the top.
        let pinned = table.subviews.compactMap { $0 as? UITableViewHeaderFooterView }.first { $0.textLabel?.text == "Section 0" }
        #expect(pinned?.frame.minY == 600)
    }

    @Test("Tapping a row selects it; reloading takes new counts")
    func selectionAndReload() throws {
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 200, height: 300), style: .grouped)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        let rows = Rows()
        table.dataSource = rows
        table.delegate = rows
        let w = window(CGSize(width: 200, height: 300), holding: table)
        _ = w.snapshotImage()
        w.sendTouch(.began, at: CGPoint(x: 50, y: 140), timestamp: 5)
        w.sendTouch(.ended, at: CGPoint(x: 50, y: 140), timestamp: 5.05)
        #expect(rows.selections == [IndexPath(row: 2, section: 0)])
        #expect(table.indexPathForSelectedRow == IndexPath(row: 2, section: 0))
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0))?.isSelected == true)
        table.deselectRow(at: IndexPath(row: 2, section: 0), animated: false)
        #expect(table.indexPathForSelectedRow == nil)
        rows.counts = [2]
        table.performBatchUpdates({ table.deleteRows(at: [IndexPath(row: 2, section: 0)], with: .automatic) })
        #expect(table.numberOfSections == 1 && table.numberOfRows(inSection: 0) == 2)
        #expect(table.visibleCells.count == 2)
        #expect(table.rectForRow(at: IndexPath(row: 5, section: 0)) == .zero)
        table.scrollToRow(at: IndexPath(row: 1, section: 0), at: .top, animated: false)
        #expect(table.contentOffset.y >= 0)
    }

    @Test("Row changes animate: rows that stay keep their cells and slide, deleted rows fade out, inserted ones fade in")
    func animatedUpdates() throws {
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 200, height: 300), style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        let rows = Rows()
        rows.counts = [30]
        table.dataSource = rows
        let w = window(CGSize(width: 200, height: 300), holding: table)
        _ = w.snapshotImage()
        func row(_ r: Int) -> IndexPath { IndexPath(row: r, section: 0) }
        func shownY(_ cell: UITableViewCell) -> CGFloat? { cell.layer.presentation()?.position.y }
        let cell2 = try #require(table.cellForRow(at: row(2)))
        let cell3 = try #require(table.cellForRow(at: row(3)))
        let old3 = cell3.frame

        // Delete row 2: row 3's cell becomes row 2's and slides up.
        rows.counts = [29]
        var done = false
        table.performBatchUpdates({ table.deleteRows(at: [row(2)], with: .fade) }, completion: { done = $0 })
        #expect(table.cellForRow(at: row(2)) === cell3)
        #expect(cell3.frame == table.rectForRow(at: row(2)))
        _ = w.snapshotImage()
        #expect(shownY(cell3) == old3.midY)
        #expect(cell2.superview === table && !cell2.isHidden && cell2.alpha == 0)
        #expect(!done)
        w.advance(by: 0.2)
        let midway = try #require(shownY(cell3))
        #expect(midway < old3.midY && midway > cell3.frame.midY)
        w.advance(by: 0.2)
        w.advance(by: 0.1)
        #expect(done)
        #expect(shownY(cell3) == cell3.frame.midY)
        // The deleted row's cell went back to the pool, opaque again.
        #expect(cell2.isHidden && cell2.alpha == 1)
        #expect(table.visibleCells.allSatisfy { !$0.isHidden })
        #expect(table.cellForRow(at: row(2))?.textLabel?.text == "Row 0.3")

        // Insert a row at the top: the old first row's cell slides down, the
        // new one fades in.
        let first = try #require(table.cellForRow(at: row(0)))
        rows.counts = [30]
        table.insertRows(at: [row(0)], with: .automatic)
        #expect(table.cellForRow(at: row(1)) === first)
        let inserted = try #require(table.cellForRow(at: row(0)))
        #expect(inserted !== first)
        _ = w.snapshotImage()
        #expect(inserted.layer.presentation()?.opacity == 0)
        w.advance(by: 0.5)
        #expect(inserted.layer.presentation()?.opacity == 1)

        // A move keeps the cell; the rows between close up.
        let moving = try #require(table.cellForRow(at: row(1)))
        let after = try #require(table.cellForRow(at: row(2)))
        table.moveRow(at: row(1), to: row(4))
        #expect(table.cellForRow(at: row(4)) === moving)
        #expect(table.cellForRow(at: row(1)) === after)
        w.advance(by: 0.5)

        // Changes that do not add up to the new counts reload the table
        // (UIKit raises an exception): nothing is lost or left behind.
        rows.counts = [35]
        table.deleteRows(at: [row(0)], with: .fade)
        #expect(table.numberOfRows(inSection: 0) == 35)
        _ = w.snapshotImage()
        #expect(table.visibleCells.allSatisfy { !$0.isHidden && $0.superview === table })
        let paths = try #require(table.indexPathsForVisibleRows)
        #expect(paths.first == row(0) && Set(paths).count == paths.count)
        // A row inserted past the end, before the start, or a move to a
        // place that is not there: reloaded too.
        table.performBatchUpdates({
            table.insertRows(at: [row(99)], with: .fade)
        })
        table.insertRows(at: [row(-1)], with: .fade)
        table.moveRow(at: row(0), to: row(Int.max))
        table.deleteRows(at: [row(Int.min)], with: .fade)
        #expect(table.numberOfRows(inSection: 0) == 35)
        #expect(table.visibleCells.allSatisfy { !$0.isHidden && $0.superview === table })
    }

    @Test("A table view controller serves its own table; cell styles lay out their labels")
    func controllerAndCells() throws {
        final class Controller: UITableViewController {
            override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 3 }
            override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                let cell = UITableViewCell(style: .value1, reuseIdentifier: nil)
                cell.textLabel?.text = "Item"
                cell.detailTextLabel?.text = "\(indexPath.row)"
                return cell
            }
        }
        let controller = Controller(style: .plain)
        let w = UIWindow(frame: CGRect(x: 0, y: 0, width: 240, height: 200))
        w.rootViewController = controller
        w.makeKeyAndVisible()
        _ = w.snapshotImage()
        #expect(controller.tableView.visibleCells.count == 3)
        let cell = try #require(controller.tableView.cellForRow(at: IndexPath(row: 1, section: 0)))
        #expect(cell.detailTextLabel?.text == "1")
        #expect((cell.detailTextLabel?.frame.maxX ?? 0) <= 240 - 16 + 0.5)
        #expect((cell.textLabel?.frame.minX ?? 0) == 16)
        #expect(UITableViewCell(style: .default, reuseIdentifier: nil).detailTextLabel == nil)
    }
}
