import Foundation
import StrataGraphics
import StrataLayers

/// Where a row lands when the list scrolls to it (`UITableView.ScrollPosition`).
public enum ListScrollPosition: Sendable, Hashable {
    /// The least movement that shows the row.
    case none
    case top, middle, bottom
}

/// What a list shows: how many rows, how tall each is, and a cell for each
/// (`UITableViewDataSource`). Heights are read on the main actor and should
/// come from layouts computed beforehand (`RowLayoutStore`), never from
/// measuring text here.
///
/// Rows are numbered through the whole list. Sections are optional: a data
/// source that has them groups consecutive rows (`numberOfSections(in:)`,
/// `listView(_:numberOfRowsInSection:)`) and may give each a header
/// (`listView(_:heightForHeaderInSection:)` and
/// `listView(_:viewForHeaderInSection:)`). Section counts are read in
/// order and held to the rows there are: a section asking for more rows
/// than remain gets what remains, and rows left over after the last section
/// join it.
@MainActor
public protocol ListViewDataSource: AnyObject {
    func numberOfRows(in listView: ListView) -> Int
    /// The row's height in points; not finite or below 0 counts as 0.
    func listView(_ listView: ListView, heightForRow row: Int) -> Double
    /// A cell for the row, from `dequeueReusableCell(withIdentifier:for:)`,
    /// set up to show the row (`ListCell.row` is set by the list).
    func listView(_ listView: ListView, cellForRow row: Int) -> ListCell
    /// Sections (default 1; below 1 counts as 1, at most 1,000,000).
    func numberOfSections(in listView: ListView) -> Int
    /// Rows in `section` (default: all rows in the first section; below 0 counts as 0).
    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int
    /// The header's height in points above the section's rows (default 0:
    /// no header; not finite or below 0 counts as 0).
    func listView(_ listView: ListView, heightForHeaderInSection section: Int) -> Double
    /// The header's view, asked for when the header comes into the display
    /// range and kept while it stays there (default nil: the space stays empty).
    func listView(_ listView: ListView, viewForHeaderInSection section: Int) -> View?
}

extension ListViewDataSource {
    public func numberOfSections(in listView: ListView) -> Int { 1 }
    public func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int {
        section == 0 ? numberOfRows(in: listView) : 0
    }
    public func listView(_ listView: ListView, heightForHeaderInSection section: Int) -> Double { 0 }
    public func listView(_ listView: ListView, viewForHeaderInSection section: Int) -> View? { nil }
}

/// What a list tells about its rows (`UITableViewDelegate`'s row part; the
/// scroll view's own delegate still gets the scrolling).
@MainActor
public protocol ListViewDelegate: AnyObject {
    /// A tap on a row (not on a link in it, which the cell handles).
    func listView(_ listView: ListView, didSelectRow row: Int)
    /// A cell is about to be placed for a row in the display range.
    func listView(_ listView: ListView, willDisplay cell: ListCell, forRow row: Int)
    /// A cell left the display range and went back to the reuse pool.
    func listView(_ listView: ListView, didEndDisplaying cell: ListCell, forRow row: Int)
    /// Rows entered the preload range: prepare their data (decode
    /// pictures, compute layouts) in the background.
    func listView(_ listView: ListView, prefetchRows rows: [Int])
    /// Rows left the preload range before they were shown.
    func listView(_ listView: ListView, cancelPrefetchingForRows rows: [Int])
}

extension ListViewDelegate {
    public func listView(_ listView: ListView, didSelectRow row: Int) {}
    public func listView(_ listView: ListView, willDisplay cell: ListCell, forRow row: Int) {}
    public func listView(_ listView: ListView, didEndDisplaying cell: ListCell, forRow row: Int) {}
    public func listView(_ listView: ListView, prefetchRows rows: [Int]) {}
    public func listView(_ listView: ListView, cancelPrefetchingForRows rows: [Int]) {}
}

/// How far ahead of and behind the visible rows a list keeps cells drawn
/// and data prepared, in screens (viewport heights), ahead meaning in the
/// direction of motion (Texture's `ASRangeTuningParameters`).
public struct ListRangeTuning: Sendable, Hashable {
    /// Cells exist and draw their contents this far ahead …
    public var displayAhead: Double
    /// … and this far behind.
    public var displayBehind: Double
    /// The delegate is asked to prefetch this far ahead …
    public var preloadAhead: Double
    /// … and this far behind.
    public var preloadBehind: Double

    /// Values below 0 or not finite count as 0.
    public init(displayAhead: Double = 1, displayBehind: Double = 0.5, preloadAhead: Double = 2.5, preloadBehind: Double = 1.5) {
        func clean(_ v: Double) -> Double { v.isFinite ? Swift.max(0, Swift.min(v, 100)) : 0 }
        self.displayAhead = clean(displayAhead)
        self.displayBehind = clean(displayBehind)
        self.preloadAhead = clean(preloadAhead)
        self.preloadBehind = clean(preloadBehind)
    }
}

/// A scrolling column of rows of different heights with reused cells whose
/// contents draw off the main actor (`UITableView` with YYKit's and
/// Texture's techniques).
///
/// - **Reuse.** Cells come from a pool per reuse identifier
///   (`register(_:forCellReuseIdentifier:)`, `dequeueReusableCell`); a
///   pool keeps at most `maximumSpareCells` spare cells per identifier.
/// - **Ranges.** Cells exist for the visible rows and the display range
///   around them (`rangeTuning`), and draw there; the delegate prefetches the
///   wider preload range.
/// - **Fling skipping.** When a drag ends with a fling whose rest point
///   (known in closed form) is more than `flingSkipThreshold` rows away,
///   only the rows visible at the rest point and `flingSkipExtraRows`
///   beyond them in the direction of motion are drawn while it flies; rows
///   passed on the way show their placeholders, unless the fling slows to
///   under `drawingVelocity` near them. When the list stops, or a touch
///   catches it, every cell in the display range draws.
/// - **Placeholders.** A cell without its row's contents shows its
///   placeholder (`ListCell.placeholderBlocks`), never another row's
///   drawing; a reloaded row keeps its old drawing until the new one is
///   ready.
open class ListView: ScrollView {
    public weak var dataSource: (any ListViewDataSource)?
    public weak var listDelegate: (any ListViewDelegate)?
    public var rangeTuning = ListRangeTuning() { didSet { layoutRows() } }
    /// Rows a fling must cross before it skips drawing the rows it passes (VVebo's 8; below 0 counts as 0).
    public var flingSkipThreshold = 8 { didSet { flingSkipThreshold = Swift.max(0, flingSkipThreshold) } }
    /// Rows drawn beyond the rest point's visible rows, in the direction of motion (VVebo's 3; held to 0…1000).
    public var flingSkipExtraRows = 3 { didSet { flingSkipExtraRows = Swift.min(1000, Swift.max(0, flingSkipExtraRows)) } }
    /// Below this speed (points per second), a skipping fling draws the rows it shows (NaN or below 0 counts as 0).
    public var drawingVelocity = 600.0 {
        didSet { if !(drawingVelocity >= 0) { drawingVelocity = 0 } }
    }
    /// Pixels per point of the cells' drawings (the screen's scale).
    public var contentsScale = 1.0 {
        didSet {
            if !(contentsScale > 0 && contentsScale.isFinite) { contentsScale = 1 }
            pixelAlignment = contentsScale
            for cell in cellsByRow.values { cell.contentLayer.contentsScale = contentsScale }
        }
    }
    /// The pool the cells draw on. By default, one shared by all lists
    /// with a queue per priority for each core but one (at least one): the
    /// cells' drawing then leaves a core to the main actor and the renderer,
    /// whose frame would otherwise wait behind drawings at the scheduler's
    /// ticks (what the feed benchmark measured on two cores).
    public var drawingPool = ListView.defaultDrawingPool
    /// The default `drawingPool`.
    public static let defaultDrawingPool = QueuePool(
        queuesPerPriority: Swift.max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
    /// Spare cells kept per reuse identifier (RecyclerView's 5).
    public var maximumSpareCells = 5 {
        didSet {
            maximumSpareCells = Swift.max(0, maximumSpareCells)
            trimPools()
        }
    }

    /// Row tops, with the content's height last (count + 1 values).
    var offsets: [Double] = [0]
    /// Space for headers just above a row (by row; the content's end for
    /// headers of empty sections at the end), which is not the row above's.
    var headerGaps: [Int: Double] = [:]
    /// The sections: first row, row count, header top and height.
    var sections: [SectionSpan] = [SectionSpan(firstRow: 0, count: 0, headerTop: 0, headerHeight: 0)]
    struct SectionSpan {
        var firstRow: Int
        var count: Int
        var headerTop: Double
        var headerHeight: Double
    }
    /// The header views placed now, by section.
    public internal(set) var headerViewsBySection: [Int: View] = [:]
    /// Whether a section's header stays at the top of the view while its
    /// rows scroll under it, until the next header pushes it away (a plain
    /// `UITableView`'s headers; `UICollectionViewFlowLayout`'s
    /// `sectionHeadersPinToVisibleBounds`). Default true.
    public var sectionHeadersPinToVisibleBounds = true { didSet { layoutRows() } }
    var factories: [String: @MainActor () -> ListCell] = [:]
    var pools: [String: [ListCell]] = [:]
    /// The cells placed now, by row.
    public internal(set) var cellsByRow: [Int: ListCell] = [:]
    var prefetched: Set<Int> = []
    /// While placing rows: recycled cells stay in their pools past the bound.
    var holdsSpares = false
    /// The fling's rows to draw while it skips, or nil when not skipping.
    public internal(set) var skippingRange: Range<Int>?
    /// The offset at the last layout, for the direction of motion.
    var lastOffsetY = 0.0
    var lastFrameTime: Double?
    /// Speed in points per second, measured frame to frame.
    public internal(set) var velocityY = 0.0
    var direction = 1.0

    /// Rows drawn and rows passed since `resetDrawingCounts()` (what the
    /// feed benchmark reports for a fast fling).
    @_spi(Benchmarks) public internal(set) var rowsDrawn = 0
    @_spi(Benchmarks) public internal(set) var rowsSkipped = 0
    /// Cells made by factories (not taken from a pool).
    @_spi(Benchmarks) public internal(set) var cellsCreated = 0

    /// Selects a row on a tap (`listView(_:didSelectRow:)`), unless the cell
    /// declines it there (`ListCell.shouldSelect(at:)`: a link in it) or the
    /// touch only caught a moving list.
    public let selectionRecognizer = TapGestureRecognizer()
    var touchCaughtMotion = false

    public override init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), layer: Layer = Layer()) {
        super.init(frame: frame, layer: layer)
        alwaysBounceVertical = true
        showsHorizontalScrollIndicator = false
        // The cell still gets its release (a link in it reports its own tap).
        selectionRecognizer.cancelsPointerEventsInView = false
        selectionRecognizer.addAction { [weak self] g in self?.select(at: g.location(in: self)) }
        addGestureRecognizer(selectionRecognizer)
    }

    func select(at point: Point) {
        defer { touchCaughtMotion = false }
        // A tap on a header (pinned over a row, perhaps) selects nothing.
        if headerViewsBySection.values.contains(where: { $0.frame.contains(point) }) { return }
        guard !touchCaughtMotion, let row = row(at: point), let cell = cellsByRow[row] else { return }
        let inCell = Point(x: point.x - cell.frame.minX, y: point.y - cell.frame.minY)
        guard cell.shouldSelect(at: inCell) else { return }
        listDelegate?.listView(self, didSelectRow: row)
    }

    // MARK: Cells

    /// How to make a cell for `identifier` when its pool is empty.
    public func register(_ make: @escaping @MainActor () -> ListCell, forCellReuseIdentifier identifier: String) {
        factories[identifier] = make
    }

    /// A spare cell for `identifier` set to `row`, or a new one from its
    /// factory; nil when no factory is registered and the pool is empty.
    public func dequeueReusableCell(withIdentifier identifier: String, for row: Int) -> ListCell? {
        let cell: ListCell
        if let spare = pools[identifier]?.popLast() {
            cell = spare
        } else if let make = factories[identifier] {
            cell = make()
            cell.reuseIdentifier = identifier
            cellsCreated += 1
        } else {
            return nil
        }
        cell.listView = self
        return cell
    }

    /// The cell showing `row`, if it is placed.
    public func cell(forRow row: Int) -> ListCell? { cellsByRow[row] }

    /// The cells placed, by row (visible ones and those in the display range).
    public var placedRows: [Int] { cellsByRow.keys.sorted() }

    /// The rows the view shows now, wholly or in part.
    public var visibleRows: Range<Int> { rows(in: contentOffset.y, contentOffset.y + bounds.height) }

    /// The number of rows.
    public var numberOfRows: Int { offsets.count - 1 }

    /// The row's frame in content coordinates.
    public func rectForRow(_ row: Int) -> Rect {
        guard row >= 0, row < numberOfRows else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: 0, y: offsets[row], width: bounds.width, height: rowBottom(row) - offsets[row])
    }

    /// Where the row ends (the next row's top, less any headers between them).
    func rowBottom(_ row: Int) -> Double {
        headerGaps.isEmpty ? offsets[row + 1] : offsets[row + 1] - (headerGaps[row + 1] ?? 0)
    }

    /// The row at a point in the list's coordinates (content coordinates);
    /// nil over a header's space.
    public func row(at point: Point) -> Int? {
        guard point.y >= 0, point.y < offsets[numberOfRows], numberOfRows > 0 else { return nil }
        let row = rowIndex(atY: point.y)
        return point.y < rowBottom(row) && point.y >= offsets[row] ? row : nil
    }

    /// The rows that cross [y0, y1).
    func rows(in y0: Double, _ y1: Double) -> Range<Int> {
        let n = numberOfRows
        guard n > 0, y1 > y0, y1 > 0, y0 < offsets[n] else { return 0..<0 }
        var first = rowIndex(atY: Swift.max(0, y0))
        // A range starting in the headers after a row does not hold that row.
        if rowBottom(first) <= y0 { first += 1 }
        let last = rowIndex(atY: Swift.min(offsets[n], y1) - 1e-9)
        // A range ending in the headers above the first row holds no row.
        guard first < n, last >= first, offsets[last] < y1 else { return first..<first }
        return first..<(last + 1)
    }

    // MARK: Sections

    /// The sections (1 unless the data source groups its rows).
    public var numberOfSections: Int { sections.count }

    /// The rows of `section` (empty out of range).
    public func rows(inSection section: Int) -> Range<Int> {
        guard section >= 0, section < sections.count else { return 0..<0 }
        let s = sections[section]
        return s.firstRow..<(s.firstRow + s.count)
    }

    /// The section holding `row` (nil out of range).
    public func section(forRow row: Int) -> Int? {
        guard row >= 0, row < numberOfRows else { return nil }
        // The last section starting at or before the row that has rows.
        var lo = 0, hi = sections.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sections[mid].firstRow <= row { lo = mid } else { hi = mid - 1 }
        }
        while lo > 0 && sections[lo].count == 0 { lo -= 1 }
        return lo
    }

    /// The header's frame where it sits among the rows, in content
    /// coordinates (before pinning; zero height when it has none).
    public func rectForHeader(inSection section: Int) -> Rect {
        guard section >= 0, section < sections.count else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let s = sections[section]
        return Rect(x: 0, y: s.headerTop, width: bounds.width, height: s.headerHeight)
    }

    /// Where the section ends: its last row's bottom, or its header's for an empty one.
    func sectionBottom(_ i: Int) -> Double {
        let s = sections[i]
        return s.count > 0 ? rowBottom(s.firstRow + s.count - 1) : s.headerTop + s.headerHeight
    }

    /// The header's frame as placed now: pinned to the top of the view while
    /// its section's rows pass under it, pushed up by the section's end.
    func placedHeaderRect(_ i: Int) -> Rect {
        var r = rectForHeader(inSection: i)
        if sectionHeadersPinToVisibleBounds {
            let top = contentOffset.y + contentInset.top
            r.origin.y = Swift.max(r.minY, Swift.min(top, sectionBottom(i) - r.height))
        }
        return r
    }

    /// The sections whose span (header and rows) crosses [y0, y1).
    func sections(in y0: Double, _ y1: Double) -> Range<Int> {
        guard y1 > y0 else { return 0..<0 }
        var lo = 0, hi = sections.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sections[mid].headerTop <= y0 { lo = mid } else { hi = mid - 1 }
        }
        var end = lo
        while end < sections.count && sections[end].headerTop < y1 { end += 1 }
        return lo..<Swift.max(lo, end)
    }

    /// Places the header views of the sections that cross the display
    /// range, and lets the others go.
    func layoutHeaders(in y0: Double, _ y1: Double) {
        let wanted = sections(in: y0, y1).filter { sections[$0].headerHeight > 0 }
        for (section, view) in headerViewsBySection where !wanted.contains(section) {
            view.removeFromSuperview()
            headerViewsBySection[section] = nil
        }
        for section in wanted {
            let view: View
            if let placed = headerViewsBySection[section] {
                view = placed
            } else {
                guard let made = dataSource?.listView(self, viewForHeaderInSection: section) else { continue }
                view = made
                headerViewsBySection[section] = view
                // Above the cells (added at the back), below the indicators.
                view.layer.zPosition = 10
                if view.superview !== self { addSubview(view) }
            }
            let frame = placedHeaderRect(section)
            if view.frame != frame { withoutActions { view.frame = frame } }
        }
    }

    /// The header view placed for `section`, if any.
    public func headerView(forSection section: Int) -> View? { headerViewsBySection[section] }

    func removeHeaderViews() {
        for view in headerViewsBySection.values { view.removeFromSuperview() }
        headerViewsBySection = [:]
    }

    /// The row whose span holds y (binary search of the tops).
    func rowIndex(atY y: Double) -> Int {
        var lo = 0, hi = numberOfRows - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if offsets[mid] <= y { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    // MARK: Layout

    open override func sizeDidChange() {
        super.sizeDidChange()
        contentSize = Size(width: bounds.width, height: offsets[numberOfRows])
        for (row, cell) in cellsByRow { cell.frame = rectForRow(row) }
        layoutRows()
    }

    open override func contentOffsetDidChange() {
        super.contentOffsetDidChange()
        let y = contentOffset.y
        if y != lastOffsetY { direction = y > lastOffsetY ? 1 : -1 }
        lastOffsetY = y
        layoutRows()
    }

    open override func frame(at time: Double) {
        let before = contentOffset.y
        super.frame(at: time)
        if let last = lastFrameTime, time > last {
            velocityY = (contentOffset.y - before) / (time - last)
        }
        lastFrameTime = time
        if skippingRange != nil && abs(velocityY) < drawingVelocity && isDecelerating { layoutRows() }
    }

    open override func targetContentOffset(forProposed proposed: Point, velocity: Size) -> Point {
        let target = super.targetContentOffset(forProposed: proposed, velocity: velocity)
        let lo = minimumContentOffset.y, hi = maximumContentOffset.y
        let restY = Swift.min(hi, Swift.max(lo, target.y))
        let now = visibleRows
        let there = rows(in: restY, restY + bounds.height)
        let distance = Swift.max(abs(there.lowerBound - now.lowerBound), abs(there.upperBound - now.upperBound))
        if distance > flingSkipThreshold, !there.isEmpty {
            // The rows visible at rest, plus a few beyond in the direction of motion.
            let down = restY > contentOffset.y
            let lower = down ? there.lowerBound : Swift.max(0, there.lowerBound - flingSkipExtraRows)
            let upper = down ? Swift.min(numberOfRows, there.upperBound + flingSkipExtraRows) : there.upperBound
            skippingRange = lower..<upper
            // Prepare the rows where it will stop (their data, their layouts).
            listDelegate?.listView(self, prefetchRows: Array(lower..<upper))
        } else {
            skippingRange = nil
        }
        return target
    }

    open override func scrollingDidEnd() {
        super.scrollingDidEnd()
        velocityY = 0
        if skippingRange != nil {
            skippingRange = nil
        }
        layoutRows()
    }

    override func pointerWentDown() {
        touchCaughtMotion = isDecelerating
        super.pointerWentDown()
        // A touch that catches a fling draws everything in range (VVebo).
        if skippingRange != nil {
            skippingRange = nil
            layoutRows()
        }
    }

    /// Places cells for the display range, recycles the rest, asks for
    /// prefetching, and decides which cells draw.
    public func layoutRows() {
        let h = bounds.height, y = contentOffset.y
        guard h > 0 else { return }
        let ahead = direction >= 0
        let t = rangeTuning
        let display = rows(
            in: y - h * (ahead ? t.displayBehind : t.displayAhead), y + h + h * (ahead ? t.displayAhead : t.displayBehind))
        let preload = rows(
            in: y - h * (ahead ? t.preloadBehind : t.preloadAhead), y + h + h * (ahead ? t.preloadAhead : t.preloadBehind))
        // Recycle what left the display range (pools trimmed to their bound
        // after the new rows have taken what they need).
        holdsSpares = true
        defer {
            holdsSpares = false
            trimPools()
        }
        for (row, cell) in cellsByRow where !display.contains(row) {
            cellsByRow[row] = nil
            recycle(cell, row: row)
        }
        if sections.count > 1 || sections[0].headerHeight > 0 {
            layoutHeaders(
                in: y - h * (ahead ? t.displayBehind : t.displayAhead), y + h + h * (ahead ? t.displayAhead : t.displayBehind))
        } else if !headerViewsBySection.isEmpty {
            removeHeaderViews()
        }
        // Prefetch.
        let newPrefetch = preload.filter { !prefetched.contains($0) && !display.contains($0) }
        let cancelled = prefetched.filter { !preload.contains($0) }
        if !cancelled.isEmpty {
            prefetched.subtract(cancelled)
            listDelegate?.listView(self, cancelPrefetchingForRows: cancelled.sorted())
        }
        if !newPrefetch.isEmpty {
            prefetched.formUnion(newPrefetch)
            listDelegate?.listView(self, prefetchRows: Array(newPrefetch))
        }
        // Place cells, the visible rows first, then outwards.
        let slow = abs(velocityY) < drawingVelocity
        let visibleNow = visibleRows
        let order =
            Array(visibleNow)
            + display.filter { !visibleNow.contains($0) }.sorted {
                Swift.min(abs($0 - visibleNow.lowerBound), abs($0 - visibleNow.upperBound))
                    < Swift.min(abs($1 - visibleNow.lowerBound), abs($1 - visibleNow.upperBound))
            }
        for row in order {
            let cell: ListCell
            if let placed = cellsByRow[row] {
                cell = placed
            } else {
                guard let made = dataSource?.listView(self, cellForRow: row) else { continue }
                cell = made
                cell.listView = self
                if cell.row != row {
                    cell.row = row
                    cell.showPlaceholder()
                }
                cellsByRow[row] = cell
                if cell.contentLayer.contentsScale != contentsScale { cell.contentLayer.contentsScale = contentsScale }
                if cell.superview !== self { insertSubview(cell, at: 0) }
                cell.isHidden = false
                listDelegate?.listView(self, willDisplay: cell, forRow: row)
            }
            let frame = rectForRow(row)
            if cell.frame != frame { withoutActions { cell.frame = frame } }
            // Draw, unless a fast fling passes this row.
            let allowed = skippingRange.map { $0.contains(row) || (slow && visibleNow.contains(row)) } ?? true
            if allowed {
                if cell.needsContents && cell.canDrawContents {
                    // The visible rows first: they are the next frame's.
                    cell.contentLayer.drawingPool = drawingPool
                    cell.contentLayer.drawingPriority = visibleNow.contains(row) ? .userInitiated : .utility
                    cell.drawContents()
                    rowsDrawn += 1
                }
            } else if cell.needsContents && !cell.skipCounted {
                cell.skipCounted = true
                rowsSkipped += 1
            }
        }
    }

    func recycle(_ cell: ListCell, row: Int) {
        cell.isHidden = true
        listDelegate?.listView(self, didEndDisplaying: cell, forRow: row)
        cell.prepareForReuseInternal()
        var pool = pools[cell.reuseIdentifier, default: []]
        if pool.count < maximumSpareCells || holdsSpares {
            pool.append(cell)
        } else {
            cell.removeFromSuperview()
        }
        pools[cell.reuseIdentifier] = pool
    }

    func trimPools() {
        for (id, pool) in pools where pool.count > maximumSpareCells {
            for cell in pool[maximumSpareCells...] { cell.removeFromSuperview() }
            pools[id] = Array(pool.prefix(maximumSpareCells))
        }
    }

    /// Spare cells kept now, all identifiers together.
    @_spi(Benchmarks) public var spareCellCount: Int { pools.values.reduce(0) { $0 + $1.count } }

    /// Sets the drawing counters to zero.
    @_spi(Benchmarks) public func resetDrawingCounts() {
        rowsDrawn = 0
        rowsSkipped = 0
    }

    /// Visible rows whose cells do not show their row's contents (a blank
    /// count: the benchmark's measure).
    @_spi(Benchmarks) public var blankVisibleRows: Int {
        visibleRows.reduce(0) { n, row in n + ((cellsByRow[row]?.hasContents ?? false) ? 0 : 1) }
    }

}
