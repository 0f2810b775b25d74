import Foundation
import StrataGraphics
import StrataLayers

/// Where a row lands when the list scrolls to it (`UITableView.ScrollPosition`).
public enum ListScrollPosition: Sendable, Hashable {
    /// The least movement that shows the row.
    case none
    case top, middle, bottom
}

/// Whether a change to a list's rows moves its cells to their new places
/// over a quarter of a second (`UITableView.RowAnimation`; the cells slide,
/// and nothing fades).
public enum ListRowAnimation: Sendable, Hashable {
    /// The cells slide to their new places.
    case automatic
    /// The cells move at once.
    case none
}

/// What a list shows: its sections, their rows, and a cell for each
/// (`UITableViewDataSource`).
@MainActor
public protocol ListViewDataSource: AnyObject {
    /// Sections (default 1; below 1 counts as 1, at most 1,000,000).
    func numberOfSections(in listView: ListView) -> Int
    /// Rows in `section` (below 0 counts as 0; a list holds at most
    /// 1,000,000 rows in all, and sections past them get none).
    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int
    /// A cell for the row, from `dequeueReusableCell(withIdentifier:for:)`,
    /// set up to show the row.
    func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell
}

extension ListViewDataSource {
    public func numberOfSections(in listView: ListView) -> Int { 1 }
}

/// What a list asks about its rows' sizes and headers, and tells about
/// selection and display (`UITableViewDelegate`). It is the list's
/// `delegate`, so it also hears the scrolling (`ScrollViewDelegate`).
///
/// Heights are read on the main actor and should come from layouts computed
/// beforehand (`RowLayoutStore`), never from measuring text here.
@MainActor
public protocol ListViewDelegate: ScrollViewDelegate {
    /// The row's height in points (default: the list's `rowHeight`; not
    /// finite or below 0 counts as 0).
    func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double
    /// The header's height above the section's rows (default: the list's
    /// `sectionHeaderHeight`, 0: no header).
    func listView(_ listView: ListView, heightForHeaderInSection section: Int) -> Double
    /// The header's view, asked for when the header comes into the display
    /// range and kept while it stays there (default nil: the space stays empty).
    func listView(_ listView: ListView, viewForHeaderInSection section: Int) -> View?
    /// A tap on a row (not on a link in it, which the cell handles).
    func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath)
    /// A cell is about to be placed for a row in the display range.
    func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath)
    /// A cell left the display range and went back to the reuse pool (its
    /// row's index path before any update that removed the row).
    func listView(_ listView: ListView, didEndDisplaying cell: ListCell, forRowAt indexPath: IndexPath)
}

extension ListViewDelegate {
    public func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double { listView.rowHeight }
    public func listView(_ listView: ListView, heightForHeaderInSection section: Int) -> Double { listView.sectionHeaderHeight }
    public func listView(_ listView: ListView, viewForHeaderInSection section: Int) -> View? { nil }
    public func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {}
    public func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {}
    public func listView(_ listView: ListView, didEndDisplaying cell: ListCell, forRowAt indexPath: IndexPath) {}
}

/// Data prepared ahead of the rows coming into view
/// (`UITableViewDataSourcePrefetching`): decode pictures, compute layouts,
/// in the background.
@MainActor
public protocol ListViewDataSourcePrefetching: AnyObject {
    /// Rows entered the preload range.
    func listView(_ listView: ListView, prefetchRowsAt indexPaths: [IndexPath])
    /// Rows left the preload range before they were shown (default: nothing).
    func listView(_ listView: ListView, cancelPrefetchingForRowsAt indexPaths: [IndexPath])
}

extension ListViewDataSourcePrefetching {
    public func listView(_ listView: ListView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {}
}

/// A scrolling column of rows of different heights with reused cells whose
/// contents draw off the main actor (`UITableView` with YYKit's and
/// Texture's techniques).
///
/// - **Reuse.** Cells come from a pool per reuse identifier
///   (`register(_:forCellReuseIdentifier:)`,
///   `dequeueReusableCell(withIdentifier:for:)`); a pool keeps at most
///   `maximumSpareCells` spare cells per identifier.
/// - **Ranges.** Cells exist for the visible rows and the display range
///   around them, and draw there; the `prefetchDataSource` prepares the
///   wider preload range (`rangePolicy`).
/// - **Fling skipping.** A fling that will pass many rows draws only the
///   rows where it will stop while it flies (`rangePolicy`); when the list
///   stops, or a touch catches it, every cell in the display range draws.
/// - **Updates.** `performBatchUpdates(_:completion:)` applies row
///   insertions, deletions, moves and reloads as one change, keeping the
///   row the user reads where it is on screen.
/// - **Placeholders.** A cell without its row's contents shows its
///   placeholder (`ListCell.placeholderBlocks`), never another row's
///   drawing; a reloaded row keeps its old drawing until the new one is
///   ready.
///
/// Rows are named by `IndexPath` (section and row), as in `UITableView`;
/// `ListCell.row` and the `…Rows` ranges count rows through the whole list
/// instead ("flat" rows), which is how cells and benchmarks follow them.
open class ListView: ScrollView {
    /// A list, unless set.
    open override var accessibilityRole: AccessibilityRole {
        get { accessibility.role ?? .list }
        set { accessibility.role = newValue }
    }

    /// Which rows show, unless set: "Rows 21 to 40 of 300".
    open override var accessibilityValue: String? {
        get { accessibility.value ?? (numberOfRows > 0 ? accessibilityScrollStatus : nil) }
        set { accessibility.value = newValue }
    }

    /// "Rows 21 to 40 of 300": the visible rows, counted from 1.
    open override var accessibilityScrollStatus: String {
        let rows = visibleRows
        guard !rows.isEmpty else { return "No rows shown of \(numberOfRows)" }
        return "Rows \(rows.lowerBound + 1) to \(rows.upperBound) of \(numberOfRows)"
    }

    /// The section headers shown, then the visible rows' cells in order:
    /// the rows a screen reader reads are the rows on screen (cells kept
    /// for the rows around them are left out).
    open override var accessibilityChildren: [AccessibilityChild] {
        guard !accessibilityElementsHidden else { return [] }
        var children: [AccessibilityChild] = (accessibilityElements ?? []).map { .element($0) }
        for sub in subviews where !sub.isHidden && !(sub is ListCell) { children.append(.view(sub)) }
        for row in visibleRows { if let cell = cellsByRow[row], !cell.isHidden { children.append(.view(cell)) } }
        return children
    }

    // MARK: Keys

    /// The flat row the keyboard is on while the list has focus (nil:
    /// none yet; the first visible row when focus arrives). The focus
    /// ring goes round it; Return and Space select it.
    public internal(set) var focusedRow: Int?

    /// A list takes keyboard focus when it has rows.
    open override var canBecomeFirstResponder: Bool { isUserInteractionEnabled && numberOfRows > 0 }

    open override func didBecomeFirstResponder() {
        if focusedRow.map({ $0 >= numberOfRows }) ?? true { focusedRow = visibleRows.first ?? 0 }
        if let row = focusedRow { postFocus(row) }
    }

    /// The focused row's frame while it shows (inset so that the ring
    /// stays inside a list as wide as its window), else the list's bounds.
    open override var focusRingRect: Rect {
        guard let row = focusedRow, row < numberOfRows else { return bounds }
        let r = rectForRow(row).insetBy(dx: 3, dy: 3)
        return r.intersection(bounds).isEmpty ? bounds : r
    }

    open override func keyEvent(_ event: KeyEvent) -> Bool {
        guard event.phase == .down else { return false }
        return handleKey(event.key)
    }

    public weak var dataSource: (any ListViewDataSource)?
    /// Prepares rows before they come into view.
    public weak var prefetchDataSource: (any ListViewDataSourcePrefetching)?
    /// The height of rows when the delegate gives none (`UITableView`'s 44).
    public var rowHeight = 44.0
    /// The height of section headers when the delegate gives none (0: no headers).
    public var sectionHeaderHeight = 0.0
    /// The display, preload and fling-skip ranges.
    public var rangePolicy = ListRangePolicy() { didSet { layoutRows() } }
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

    /// Where the rows and headers are.
    var layout = ListLayout()
    /// The header views placed now, by section.
    public internal(set) var headerViewsBySection: [Int: View] = [:]
    /// Whether a section's header stays at the top of the view while its
    /// rows scroll under it, until the next header pushes it away (a plain
    /// `UITableView`'s headers; `UICollectionViewFlowLayout`'s
    /// `sectionHeadersPinToVisibleBounds`). Default true.
    public var sectionHeadersPinToVisibleBounds = true { didSet { layoutRows() } }
    var factories: [String: @MainActor () -> ListCell] = [:]
    var pools: [String: [ListCell]] = [:]
    /// The cells placed now, by flat row.
    public internal(set) var cellsByRow: [Int: ListCell] = [:]
    var prefetched: Set<Int> = []
    /// While placing rows: recycled cells stay in their pools past the bound.
    var holdsSpares = false
    /// The fling's flat rows to draw while it skips, or nil when not skipping.
    public internal(set) var skippingRange: Range<Int>?
    /// The offset at the last layout, for the direction of motion.
    var lastOffsetY = 0.0
    var lastFrameTime: Double?
    /// Speed in points per second, measured frame to frame.
    public internal(set) var velocityY = 0.0
    var direction = 1.0
    /// The updates gathered inside `performBatchUpdates(_:completion:)`.
    var pendingUpdates: ListUpdates?
    /// Identifiers dequeued without a registered cell, said once each.
    var unregisteredIdentifiers: Set<String> = []

    /// Rows drawn and rows passed since `resetDrawingCounts()` (what the
    /// feed benchmark reports for a fast fling).
    @_spi(Benchmarks) public internal(set) var rowsDrawn = 0
    @_spi(Benchmarks) public internal(set) var rowsSkipped = 0
    /// Cells made by factories (not taken from a pool).
    @_spi(Benchmarks) public internal(set) var cellsCreated = 0

    /// Selects a row on a tap (`listView(_:didSelectRowAt:)`), unless the
    /// cell declines it there (`ListCell.shouldSelect(at:)`: a link in it)
    /// or the touch only caught a moving list.
    public let selectionRecognizer = TapGestureRecognizer()
    var touchCaughtMotion = false

    /// The delegate as a list's: the scroll view's `delegate`, when it is a
    /// `ListViewDelegate`.
    var rowDelegate: (any ListViewDelegate)? { delegate as? any ListViewDelegate }

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
        guard !touchCaughtMotion, let row = layout.row(atY: point.y), let cell = cellsByRow[row],
            let indexPath = layout.indexPath(forRow: row)
        else { return }
        let inCell = Point(x: point.x - cell.frame.minX, y: point.y - cell.frame.minY)
        guard cell.shouldSelect(at: inCell) else { return }
        rowDelegate?.listView(self, didSelectRowAt: indexPath)
    }

    // MARK: Cells

    /// How to make a cell for `identifier` when its pool is empty.
    public func register(_ make: @escaping @MainActor () -> ListCell, forCellReuseIdentifier identifier: String) {
        factories[identifier] = make
    }

    /// A spare cell for `identifier`, or a new one from its factory. An
    /// identifier never registered gets a plain `ListCell` (and a message
    /// on standard error, once), where UIKit would stop the program.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> ListCell {
        let cell: ListCell
        if let spare = pools[identifier]?.popLast() {
            cell = spare
        } else {
            if let make = factories[identifier] {
                cell = make()
            } else {
                if unregisteredIdentifiers.insert(identifier).inserted {
                    FileHandle.standardError.write(
                        Data("ListView: no cell registered for '\(identifier)': a plain ListCell is shown\n".utf8))
                }
                cell = ListCell(reuseIdentifier: identifier)
            }
            cell.reuseIdentifier = identifier
            cellsCreated += 1
        }
        cell.listView = self
        return cell
    }

    /// The cell showing the row, if it is placed (visible or in the display range).
    public func cellForRow(at indexPath: IndexPath) -> ListCell? { layout.row(for: indexPath).flatMap { cellsByRow[$0] } }

    /// The row a placed cell shows.
    public func indexPath(for cell: ListCell) -> IndexPath? {
        guard let row = cell.row, cellsByRow[row] === cell else { return nil }
        return layout.indexPath(forRow: row)
    }

    /// The cells of the visible rows, top to bottom.
    public var visibleCells: [ListCell] { visibleRows.compactMap { cellsByRow[$0] } }

    /// The visible rows, top to bottom (nil when none, as UIKit's).
    public var indexPathsForVisibleRows: [IndexPath]? {
        let rows = visibleRows
        return rows.isEmpty ? nil : rows.compactMap { layout.indexPath(forRow: $0) }
    }

    /// The flat rows of the cells placed (visible ones and those in the display range).
    public var placedRows: [Int] { cellsByRow.keys.sorted() }

    /// The flat rows the view shows now, wholly or in part.
    public var visibleRows: Range<Int> { layout.rows(in: contentOffset.y, contentOffset.y + bounds.height) }

    /// The rows through all sections.
    public var numberOfRows: Int { layout.numberOfRows }

    /// The rows of `section` (0 out of range).
    public func numberOfRows(inSection section: Int) -> Int { layout.rows(inSection: section).count }

    /// The row's frame in content coordinates (zero for a row the list does not have).
    public func rectForRow(at indexPath: IndexPath) -> Rect {
        layout.row(for: indexPath).map { layout.rect($0, width: bounds.width) } ?? Rect(x: 0, y: 0, width: 0, height: 0)
    }

    /// The frame of flat `row` in content coordinates.
    public func rectForRow(_ row: Int) -> Rect { layout.rect(row, width: bounds.width) }

    /// The row at a point in content coordinates; nil over a header's space
    /// or past the rows.
    public func indexPathForRow(at point: Point) -> IndexPath? { layout.row(atY: point.y).flatMap { layout.indexPath(forRow: $0) } }

    /// The index path of flat `row` (nil out of range).
    public func indexPath(forRow row: Int) -> IndexPath? { layout.indexPath(forRow: row) }

    // MARK: Sections

    /// The sections (1 unless the data source groups its rows).
    public var numberOfSections: Int { layout.sections.count }

    /// The flat rows of `section` (empty out of range).
    public func rows(inSection section: Int) -> Range<Int> { layout.rows(inSection: section) }

    /// The header's frame where it sits among the rows, in content
    /// coordinates (before pinning; zero height when it has none).
    public func rectForHeader(inSection section: Int) -> Rect { layout.headerRect(section, width: bounds.width) }

    /// The header view placed for `section`, if any.
    public func headerView(forSection section: Int) -> View? { headerViewsBySection[section] }

    /// The header's frame as placed now: pinned to the top of the view while
    /// its section's rows pass under it, pushed up by the section's end.
    func placedHeaderRect(_ i: Int) -> Rect {
        var r = rectForHeader(inSection: i)
        if sectionHeadersPinToVisibleBounds {
            let top = contentOffset.y + contentInset.top
            r.origin.y = Swift.max(r.minY, Swift.min(top, layout.sectionBottom(i) - r.height))
        }
        return r
    }

    /// Places the header views of the sections that cross [y0, y1), and
    /// lets the others go.
    func layoutHeaders(in y0: Double, _ y1: Double) {
        let wanted = layout.sections(in: y0, y1).filter { layout.sections[$0].headerHeight > 0 }
        for (section, view) in headerViewsBySection where !wanted.contains(section) {
            view.removeFromSuperview()
            headerViewsBySection[section] = nil
        }
        for section in wanted {
            let view: View
            if let placed = headerViewsBySection[section] {
                view = placed
            } else {
                guard let made = rowDelegate?.listView(self, viewForHeaderInSection: section) else { continue }
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

    func removeHeaderViews() {
        for view in headerViewsBySection.values { view.removeFromSuperview() }
        headerViewsBySection = [:]
    }

    // MARK: Layout

    open override func sizeDidChange() {
        super.sizeDidChange()
        contentSize = Size(width: bounds.width, height: layout.contentHeight)
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
        if skippingRange != nil && abs(velocityY) < rangePolicy.drawingVelocity && isDecelerating { layoutRows() }
    }

    open override func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        let target = super.targetContentOffset(forProposed: proposed, velocity: velocity)
        let restY = Swift.min(maximumContentOffset.y, Swift.max(minimumContentOffset.y, target.y))
        skippingRange = rangePolicy.skippingRows(in: layout, from: contentOffset.y, to: restY, height: bounds.height)
        if let rows = skippingRange {
            // Prepare the rows where it will stop (their data, their layouts).
            prefetchDataSource?.listView(self, prefetchRowsAt: rows.compactMap { layout.indexPath(forRow: $0) })
        }
        return target
    }

    open override func scrollingDidEnd() {
        super.scrollingDidEnd()
        velocityY = 0
        skippingRange = nil
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
        let down = direction >= 0
        let span = rangePolicy.displaySpan(offset: y, height: h, movingDown: down)
        let display = layout.rows(in: span.0, span.1)
        let preloadSpan = rangePolicy.preloadSpan(offset: y, height: h, movingDown: down)
        let preload = layout.rows(in: preloadSpan.0, preloadSpan.1)
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
        if layout.hasHeaders {
            layoutHeaders(in: span.0, span.1)
        } else if !headerViewsBySection.isEmpty {
            removeHeaderViews()
        }
        prefetch(preload, beside: display)
        // Place cells, the visible rows first, then outwards.
        let visibleNow = visibleRows
        let order =
            Array(visibleNow)
            + display.filter { !visibleNow.contains($0) }.sorted {
                Swift.min(abs($0 - visibleNow.lowerBound), abs($0 - visibleNow.upperBound))
                    < Swift.min(abs($1 - visibleNow.lowerBound), abs($1 - visibleNow.upperBound))
            }
        for row in order {
            guard let cell = cellsByRow[row] ?? placeCell(row) else { continue }
            let frame = rectForRow(row)
            if cell.frame != frame { withoutActions { cell.frame = frame } }
            // Draw, unless a fast fling passes this row.
            if rangePolicy.allowsDrawing(row, skipping: skippingRange, visible: visibleNow, speed: velocityY) {
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

    /// Asks the prefetching data source for the rows that entered `preload`
    /// (less those placed in `display`) and cancels those that left it.
    func prefetch(_ preload: Range<Int>, beside display: Range<Int>) {
        let newPrefetch = preload.filter { !prefetched.contains($0) && !display.contains($0) }
        let cancelled = prefetched.filter { !preload.contains($0) }
        if !cancelled.isEmpty {
            prefetched.subtract(cancelled)
            prefetchDataSource?.listView(self, cancelPrefetchingForRowsAt: cancelled.sorted().compactMap { layout.indexPath(forRow: $0) })
        }
        if !newPrefetch.isEmpty {
            prefetched.formUnion(newPrefetch)
            prefetchDataSource?.listView(self, prefetchRowsAt: newPrefetch.compactMap { layout.indexPath(forRow: $0) })
        }
    }

    /// A cell from the data source for flat `row`, placed in the list.
    func placeCell(_ row: Int) -> ListCell? {
        guard let indexPath = layout.indexPath(forRow: row), let cell = dataSource?.listView(self, cellForRowAt: indexPath) else {
            return nil
        }
        cell.listView = self
        if cell.row != row {
            cell.row = row
            cell.showPlaceholder()
        }
        cellsByRow[row] = cell
        if cell.contentLayer.contentsScale != contentsScale { cell.contentLayer.contentsScale = contentsScale }
        if cell.superview !== self { insertSubview(cell, at: 0) }
        cell.isHidden = false
        rowDelegate?.listView(self, willDisplay: cell, forRowAt: indexPath)
        return cell
    }

    func recycle(_ cell: ListCell, row: Int) {
        cell.isHidden = true
        if let indexPath = layout.indexPath(forRow: row) { rowDelegate?.listView(self, didEndDisplaying: cell, forRowAt: indexPath) }
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
