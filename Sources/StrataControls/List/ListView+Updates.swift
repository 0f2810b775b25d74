import Foundation
import StrataGraphics
import StrataLayers

// Reloads and batch updates: rows inserted, deleted, reloaded and moved,
// with the offset and the cells kept where they belong.
extension ListView {
    // MARK: Data

    /// Reads the rows again: count, heights and cells. Placed cells go back
    /// to their pools and the display range is filled again; the offset is
    /// kept (held to the new content).
    public func reloadData() {
        for (row, cell) in cellsByRow { recycle(cell, row: row) }
        cellsByRow = [:]
        prefetched = []
        removeHeaderViews()
        readHeights()
        setContentOffset(clamped(contentOffset), animated: false)
        layoutRows()
    }

    /// Reads the rows' heights and the sections again. Header views stay
    /// when the sections are as they were, and are asked for again otherwise.
    func readHeights() {
        let n = Swift.max(0, dataSource?.numberOfRows(in: self) ?? 0)
        func clean(_ h: Double) -> Double { h.isFinite && h > 0 ? Swift.min(h, 1e7) : 0 }
        let sectionCount = Swift.min(1_000_000, Swift.max(1, dataSource?.numberOfSections(in: self) ?? 1))
        var spans: [SectionSpan] = []
        spans.reserveCapacity(sectionCount)
        var gaps: [Int: Double] = [:]
        var tops = [Double](repeating: 0, count: n + 1)
        var y = 0.0, row = 0
        for section in 0..<sectionCount {
            let asked = sectionCount == 1 ? n : Swift.max(0, dataSource?.listView(self, numberOfRowsInSection: section) ?? 0)
            // Held to the rows that remain; the last section takes the rest.
            let count = section == sectionCount - 1 ? n - row : Swift.min(asked, n - row)
            let header = clean(dataSource?.listView(self, heightForHeaderInSection: section) ?? 0)
            spans.append(SectionSpan(firstRow: row, count: count, headerTop: y, headerHeight: header))
            if header > 0 && row > 0 { gaps[row, default: 0] += header }
            y += header
            for r in row..<(row + count) {
                tops[r] = y
                y += clean(dataSource?.listView(self, heightForRow: r) ?? 0)
            }
            row += count
        }
        tops[n] = y
        offsets = tops
        headerGaps = gaps
        // Header views stay unless the sections' rows or headers changed
        // (heights of rows above only move them).
        let same =
            spans.count == sections.count
            && zip(spans, sections).allSatisfy { $0.firstRow == $1.firstRow && $0.count == $1.count && $0.headerHeight == $1.headerHeight }
        if !same { removeHeaderViews() }
        sections = spans
        contentSize = Size(width: bounds.width, height: y)
    }

    /// Rows were inserted at `rows` (indices after the insertion, in the new
    /// data). Rows above the visible ones keep what the user sees still: the
    /// offset moves with the content.
    public func insertRows(at rows: [Int], animated: Bool = true) {
        performBatchUpdates(inserting: rows, deleting: [], reloading: [], animated: animated)
    }

    /// Rows at `rows` (indices before the deletion) were deleted.
    public func deleteRows(at rows: [Int], animated: Bool = true) {
        performBatchUpdates(inserting: [], deleting: rows, reloading: [], animated: animated)
    }

    /// Rows at `rows` changed: their heights are read again and their cells
    /// redrawn, keeping the old drawing until the new one is ready.
    public func reloadRows(at rows: [Int], animated: Bool = true) {
        performBatchUpdates(inserting: [], deleting: [], reloading: rows, animated: animated)
    }

    /// The row at `from` (before) moved to `to` (after): its cell goes with
    /// it, drawing and all.
    public func moveRow(at from: Int, to: Int, animated: Bool = true) {
        performBatchUpdates(inserting: [], deleting: [], reloading: [], moving: [(from, to)], animated: animated)
    }

    /// Applies deletions and moves' sources (old indices), then insertions
    /// and moves' destinations (new indices), then reloads (new indices), as
    /// one update (`performBatchUpdates` of UITableView):
    /// - cells of rows that stay keep their drawings and go to their new
    ///   places, sliding there (0.25 s, the layers' implicit animation) when
    ///   `animated` and their place on screen changes;
    /// - the first visible row that stays keeps its place on screen, so rows
    ///   inserted or deleted above what the user reads move nothing;
    /// - deleted rows' cells go back to their pools; inserted rows get cells
    ///   (placeholders until drawn); reloaded rows keep their old drawing
    ///   until the new one lands. Nothing flashes.
    ///
    /// Indices out of range are ignored.
    public func performBatchUpdates(
        inserting: [Int], deleting: [Int], reloading: [Int], moving: [(from: Int, to: Int)] = [], animated: Bool = true
    ) {
        let oldCount = numberOfRows
        let newCount = Swift.max(0, dataSource?.numberOfRows(in: self) ?? 0)
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
        let anchorScreenY = anchor.map { offsets[$0] - oldOffset }
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
        readHeights()
        if let anchor, let screenY = anchorScreenY, let new = mapping[anchor] {
            let delta = (offsets[new] - screenY) - contentOffset.y
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
        for row in reloading where row >= 0 && row < newCount {
            if let cell = cellsByRow[row], cell.contentsRow == row { cell.markStale() }
        }
        layoutRows()
    }

    /// Scrolls so that `row` is at `position`.
    public func scrollToRow(_ row: Int, at position: ListScrollPosition, animated: Bool) {
        guard row >= 0, row < numberOfRows else { return }
        let r = rectForRow(row)
        let h = bounds.height
        var y = contentOffset.y
        switch position {
        case .top:
            // Below the section's header when headers stay at the top.
            let header = sectionHeadersPinToVisibleBounds ? section(forRow: row).map { sections[$0].headerHeight } ?? 0 : 0
            y = r.minY - header
        case .middle: y = r.midY - h / 2
        case .bottom: y = r.maxY - h
        case .none:
            if r.minY < y { y = r.minY } else if r.maxY > y + h { y = r.maxY - h }
        }
        setContentOffset(Point(x: contentOffset.x, y: y), animated: animated)
    }
}
