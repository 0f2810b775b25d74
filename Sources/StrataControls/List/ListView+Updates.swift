import Foundation
import StrataGraphics
import StrataLayers

/// The changes of one batch: deletions, reloads and moves' sources by the
/// index paths before it, insertions and moves' destinations by those after
/// it (as `UITableView.performBatchUpdates` takes them).
struct ListUpdates {
    var deletions: [IndexPath] = []
    var insertions: [IndexPath] = []
    var reloads: [IndexPath] = []
    var moves: [(from: IndexPath, to: IndexPath)] = []
    var animated = false
}

// Reloads and batch updates: rows inserted, deleted, reloaded and moved,
// with the offset and the cells kept where they belong.
extension ListView {
    // MARK: Data

    /// Reads the rows again: sections, counts, heights and cells. Placed
    /// cells go back to their pools and the display range is filled again;
    /// the offset is kept (held to the new content).
    public func reloadData() {
        for (row, cell) in cellsByRow { recycle(cell, row: row) }
        cellsByRow = [:]
        prefetched = []
        removeHeaderViews()
        setLayout(readLayout())
        setContentOffset(clamped(contentOffset), animated: false)
        layoutRows()
    }

    /// The sections, rows and heights the data source and the delegate give now.
    func readLayout() -> ListLayout {
        guard let source = dataSource else { return ListLayout() }
        let sectionCount = Swift.min(ListLayout.maximumSections, Swift.max(1, source.numberOfSections(in: self)))
        var counts: [Int] = []
        counts.reserveCapacity(sectionCount)
        var rows = 0
        for section in 0..<sectionCount {
            // Sections past the most rows a list holds are not asked.
            let count = rows < ListLayout.maximumRows ? source.listView(self, numberOfRowsInSection: section) : 0
            counts.append(count)
            rows += Swift.max(0, Swift.min(count, ListLayout.maximumRows))
        }
        let rowDelegate = rowDelegate
        return ListLayout(
            rowCounts: counts,
            headerHeight: { rowDelegate?.listView(self, heightForHeaderInSection: $0) ?? self.sectionHeaderHeight },
            rowHeight: { rowDelegate?.listView(self, heightForRowAt: $0) ?? self.rowHeight })
    }

    /// Takes `new` as the layout. Header views stay when the sections are as
    /// they were, and are asked for again otherwise.
    func setLayout(_ new: ListLayout) {
        if !new.hasSameSections(as: layout) { removeHeaderViews() }
        layout = new
        contentSize = Size(width: bounds.width, height: new.contentHeight)
    }

    // MARK: Updates

    /// Rows were inserted at `indexPaths` (after the insertion, in the new
    /// data). Rows above the visible ones keep what the user sees still: the
    /// offset moves with the content.
    public func insertRows(at indexPaths: [IndexPath], with animation: ListRowAnimation = .automatic) {
        update(animation) { $0.insertions += indexPaths }
    }

    /// Rows at `indexPaths` (before the deletion) were deleted.
    public func deleteRows(at indexPaths: [IndexPath], with animation: ListRowAnimation = .automatic) {
        update(animation) { $0.deletions += indexPaths }
    }

    /// Rows at `indexPaths` (before the batch) changed: their heights are
    /// read again and their cells redrawn, keeping the old drawing until the
    /// new one is ready.
    public func reloadRows(at indexPaths: [IndexPath], with animation: ListRowAnimation = .automatic) {
        update(animation) { $0.reloads += indexPaths }
    }

    /// The row at `indexPath` (before) moved to `newIndexPath` (after): its
    /// cell goes with it, drawing and all.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        update(.automatic) { $0.moves.append((indexPath, newIndexPath)) }
    }

    /// Applies the insertions, deletions, moves and reloads that `updates`
    /// makes as one change (`UITableView.performBatchUpdates`), then calls
    /// `completion` with true. The data source must give the new data when
    /// `updates` returns.
    /// - Cells of rows that stay keep their drawings and go to their new
    ///   places, sliding there (0.25 s, the layers' implicit animation) when
    ///   a change asked for `.automatic` and their place on screen changes.
    /// - The first visible row that stays keeps its place on screen, so rows
    ///   inserted or deleted above what the user reads move nothing.
    /// - Deleted rows' cells go back to their pools; inserted rows get cells
    ///   (placeholders until drawn); reloaded rows keep their old drawing
    ///   until the new one lands. Nothing flashes.
    ///
    /// Index paths the list does not have are ignored. A batch inside a
    /// batch joins it.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        if pendingUpdates != nil {
            updates?()
            completion?(true)
            return
        }
        pendingUpdates = ListUpdates()
        updates?()
        let batch = pendingUpdates ?? ListUpdates()
        pendingUpdates = nil
        apply(batch)
        completion?(true)
    }

    /// Adds a change to the batch being gathered, or applies it at once.
    func update(_ animation: ListRowAnimation, _ change: (inout ListUpdates) -> Void) {
        var batch = pendingUpdates ?? ListUpdates()
        change(&batch)
        if animation == .automatic { batch.animated = true }
        if pendingUpdates != nil { pendingUpdates = batch } else { apply(batch) }
    }

    /// Applies a batch by index paths: the old ones through the current
    /// layout, the new ones through the layout the data source gives now.
    func apply(_ batch: ListUpdates) {
        let new = readLayout()
        let moves = batch.moves.compactMap { m in layout.row(for: m.from).flatMap { from in new.row(for: m.to).map { (from, $0) } } }
        applyFlat(
            deleting: batch.deletions.compactMap { layout.row(for: $0) }, inserting: batch.insertions.compactMap { new.row(for: $0) },
            reloadingOld: batch.reloads.compactMap { layout.row(for: $0) }, reloadingNew: [], moving: moves, newLayout: new,
            animated: batch.animated)
    }

    /// The batch update on flat rows: deletions, moves' sources and
    /// `reloadingOld` by the old rows; insertions, moves' destinations and
    /// `reloadingNew` by the new ones.
    func applyFlat(
        deleting: [Int], inserting: [Int], reloadingOld: [Int], reloadingNew: [Int], moving: [(from: Int, to: Int)],
        newLayout: ListLayout, animated: Bool
    ) {
        let oldCount = numberOfRows
        let newCount = newLayout.numberOfRows
        let moves = moving.filter { $0.from >= 0 && $0.from < oldCount && $0.to >= 0 && $0.to < newCount }
        let deleted = Set(deleting.filter { $0 >= 0 && $0 < oldCount })
        let movedFrom = Set(moves.map(\.from))
        // Old row → new row for the rows that stay.
        let taken = Set(inserting.filter { $0 >= 0 && $0 < newCount }).union(moves.map(\.to))
        var mapping: [Int: Int] = [:]
        var next = 0
        for old in 0..<oldCount where !deleted.contains(old) && !movedFrom.contains(old) {
            while taken.contains(next) { next += 1 }
            guard next < newCount else { break }
            mapping[old] = next
            next += 1
        }
        for m in moves where !deleted.contains(m.from) { mapping[m.from] = m.to }
        // The anchor: the first visible row that stays, and where it is on screen.
        let oldOffset = contentOffset.y
        let visible = visibleRows
        let anchor = visible.first { mapping[$0] != nil && !movedFrom.contains($0) }
        let anchorScreenY = anchor.map { layout.top($0) - oldOffset }
        // Move the cells, remembering where each was on screen.
        var moved: [Int: ListCell] = [:]
        var screenY: [ObjectIdentifier: Double] = [:]
        for (row, cell) in cellsByRow {
            if let new = mapping[row] {
                moved[new] = cell
                screenY[ObjectIdentifier(cell)] = cell.frame.minY - oldOffset
                cell.renumber(to: new)
            } else {
                recycle(cell, row: row)
            }
        }
        cellsByRow = moved
        prefetched = Set(prefetched.compactMap { mapping[$0] })
        setLayout(newLayout)
        if let anchor, let screenY = anchorScreenY, let new = mapping[anchor] {
            let delta = (layout.top(new) - screenY) - contentOffset.y
            if delta != 0 { shiftContent(by: Point(x: 0, y: delta)) }
        }
        // Slide the cells whose place on screen changed from where they were.
        for (row, cell) in cellsByRow {
            let target = rectForRow(row)
            guard let was = screenY[ObjectIdentifier(cell)] else { continue }
            let start = was + contentOffset.y
            if animated && abs(start - target.minY) > 0.25 {
                withoutActions { cell.frame = Rect(x: target.minX, y: start, width: target.width, height: cell.frame.height) }
                cell.frame = target
            } else if cell.frame != target {
                withoutActions { cell.frame = target }
            }
        }
        // A reloaded row's cell redraws, showing its old drawing meanwhile.
        for row in reloadingOld.compactMap({ mapping[$0] }) + reloadingNew where row >= 0 && row < newCount {
            if let cell = cellsByRow[row], cell.contentsRow == row { cell.markStale() }
        }
        layoutRows()
    }

    /// Scrolls so that the row is at `position` (nothing for a row the list
    /// does not have).
    public func scrollToRow(at indexPath: IndexPath, at position: ListScrollPosition, animated: Bool) {
        guard let row = layout.row(for: indexPath) else { return }
        scroll(toRow: row, at: position, animated: animated)
    }

    func scroll(toRow row: Int, at position: ListScrollPosition, animated: Bool) {
        guard row >= 0, row < numberOfRows else { return }
        let r = rectForRow(row)
        let h = bounds.height
        var y = contentOffset.y
        switch position {
        case .top:
            // Below the section's header when headers stay at the top.
            let header = sectionHeadersPinToVisibleBounds ? layout.section(forRow: row).map { layout.sections[$0].headerHeight } ?? 0 : 0
            y = r.minY - header
        case .middle: y = r.midY - h / 2
        case .bottom: y = r.maxY - h
        case .none:
            if r.minY < y { y = r.minY } else if r.maxY > y + h { y = r.maxY - h }
        }
        setContentOffset(Point(x: contentOffset.x, y: y), animated: animated)
    }
}
