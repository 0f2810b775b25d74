public import CoreGraphics
public import Foundation

/// Where a table's rows come from (`UITableViewDataSource`).
@MainActor
public protocol UITableViewDataSource: AnyObject {
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell
    func numberOfSections(in tableView: UITableView) -> Int
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String?
}

extension UITableViewDataSource {
    public func numberOfSections(in tableView: UITableView) -> Int { 1 }
    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
}

/// What a table asks of and tells its delegate (`UITableViewDelegate`);
/// every method is optional. Set it as the table's `delegate`.
@MainActor
public protocol UITableViewDelegate: UIScrollViewDelegate {
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat
    func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat
    func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView?
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath)
}

extension UITableViewDelegate {
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { tableView.rowHeight }
    public func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat {
        tableView.defaultHeaderHeight(section)
    }
    public func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }
    public func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
}

/// Told of rows about to scroll into view (`UITableViewDataSourcePrefetching`).
@MainActor
public protocol UITableViewDataSourcePrefetching: AnyObject {
    func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath])
    func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath])
}

extension UITableViewDataSourcePrefetching {
    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {}
}

/// A scrolling list of rows in sections (`UITableView`), on Strata's
/// scroll view: only the rows on screen have cells, dequeued from reuse
/// pools by identifier and laid out as the content scrolls.
@MainActor
open class UITableView: UIScrollView {
    public enum Style: Int, Sendable { case plain, grouped, insetGrouped }
    public enum ScrollPosition: Int, Sendable { case none, top, middle, bottom }
    /// How changed rows appear (`UITableView.RowAnimation`): inserted rows
    /// fade in and deleted ones fade out (every kind but `.none` fades
    /// here), while the rows around them slide to their new places.
    public enum RowAnimation: Int, Sendable { case fade, right, left, top, bottom, none, middle, automatic }
    public enum SeparatorStyle: Int, Sendable { case none, singleLine }

    /// A height the table works out itself (`UITableView.automaticDimension`):
    /// for rows, the cell's `sizeThatFits`.
    public static let automaticDimension: CGFloat = -1

    public let style: Style
    public weak var dataSource: (any UITableViewDataSource)? { didSet { needsReload = true; setNeedsLayout() } }
    public weak var prefetchDataSource: (any UITableViewDataSourcePrefetching)?
    open var rowHeight: CGFloat = 44 { didSet { needsReload = true; setNeedsLayout() } }
    open var estimatedRowHeight: CGFloat = 44
    open var sectionHeaderHeight: CGFloat = UITableView.automaticDimension
    open var sectionFooterHeight: CGFloat = 0
    open var separatorStyle = SeparatorStyle.singleLine
    open var separatorColor: UIColor? = .separator
    open var allowsSelection = true
    open var allowsMultipleSelection = false
    open var tableHeaderView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let v = tableHeaderView { addSubview(v) }
            needsReload = true
            setNeedsLayout()
        }
    }
    open var tableFooterView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let v = tableFooterView { addSubview(v) }
            needsReload = true
            setNeedsLayout()
        }
    }

    /// Row and header geometry, from the data source and delegate.
    private struct Section {
        var top: CGFloat
        var headerHeight: CGFloat
        /// Each row's top (content y), and the end after the last.
        var rowTops: [CGFloat]
        var bottom: CGFloat { rowTops.last ?? top + headerHeight }
    }

    private var sections: [Section] = []
    private var needsReload = true
    private var registered: [String: UITableViewCell.Type] = [:]
    private var pools: [String: [UITableViewCell]] = [:]
    private var visible: [IndexPath: UITableViewCell] = [:]
    private var headers: [Int: UIView] = [:]
    private var selected: Set<IndexPath> = []
    private var prefetched: Set<IndexPath> = []
    private var batchDepth = 0
    /// The row changes of the update being made, applied together at its end.
    private var updates = RowUpdates()
    private lazy var tapRecognizer: UITapGestureRecognizer = UITapGestureRecognizer { [weak self] recognizer in
        guard let self, recognizer.state == .ended else { return }
        self.tapped(at: recognizer.location(in: self))
    }

    public init(frame: CGRect, style: Style) {
        self.style = style
        super.init(frame: frame)
        tableSetUp()
    }

    public override convenience init(frame: CGRect) { self.init(frame: frame, style: .plain) }

    public required init?(coder: NSCoder) {
        style = .plain
        super.init(coder: coder)
        tableSetUp()
    }

    private func tableSetUp() {
        backgroundColor = style == .plain ? .white : .systemGroupedBackground
        alwaysBounceVertical = true
        addGestureRecognizer(tapRecognizer)
    }

    private var tableDelegate: (any UITableViewDelegate)? { delegate as? any UITableViewDelegate }

    func defaultHeaderHeight(_ section: Int) -> CGFloat {
        if sectionHeaderHeight >= 0 { return sectionHeaderHeight }
        return dataSource?.tableView(self, titleForHeaderInSection: section) != nil ? 28 : (style == .plain ? 0 : 18)
    }

    // MARK: Cells

    /// Registers a class whose cells `dequeueReusableCell(withIdentifier:for:)`
    /// makes for `identifier` (nil unregisters).
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass as? UITableViewCell.Type
    }

    /// A spare cell of `identifier`, or nil when there is none.
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        guard var pool = pools[identifier], let cell = pool.popLast() else { return nil }
        pools[identifier] = pool
        cell.prepareForReuse()
        return cell
    }

    /// A spare cell of `identifier`, or a new one of the registered class
    /// (an unregistered identifier makes a default cell: UIKit raises
    /// there).
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        if let cell = dequeueReusableCell(withIdentifier: identifier) { return cell }
        let type = registered[identifier] ?? UITableViewCell.self
        return type.init(registeredReuseIdentifier: identifier)
    }

    // MARK: Geometry

    open var numberOfSections: Int {
        reloadIfNeeded()
        return sections.count
    }

    open func numberOfRows(inSection section: Int) -> Int {
        reloadIfNeeded()
        return sections.indices.contains(section) ? sections[section].rowTops.count - 1 : 0
    }

    open func rectForRow(at indexPath: IndexPath) -> CGRect {
        reloadIfNeeded()
        guard sections.indices.contains(indexPath.section), indexPath.row >= 0,
            indexPath.row < sections[indexPath.section].rowTops.count - 1
        else { return .zero }
        let tops = sections[indexPath.section].rowTops
        return CGRect(x: 0, y: tops[indexPath.row], width: bounds.width, height: tops[indexPath.row + 1] - tops[indexPath.row])
    }

    open func rectForHeader(inSection section: Int) -> CGRect {
        reloadIfNeeded()
        guard sections.indices.contains(section) else { return .zero }
        return CGRect(x: 0, y: sections[section].top, width: bounds.width, height: sections[section].headerHeight)
    }

    /// The row at `point` (content coordinates), or nil.
    open func indexPathForRow(at point: CGPoint) -> IndexPath? {
        reloadIfNeeded()
        guard point.y.isFinite, let s = sections.lastIndex(where: { $0.top <= point.y }) else { return nil }
        let tops = sections[s].rowTops
        guard tops.count > 1, point.y >= tops[0], point.y < tops[tops.count - 1] else { return nil }
        return IndexPath(row: UITableView.row(in: tops, at: point.y), section: s)
    }

    /// The row of a section whose top (`tops`, with the end after the last)
    /// is the last at or above `y`: 0 above the first, the last row below it.
    private static func row(in tops: [CGFloat], at y: CGFloat) -> Int {
        var lo = 0, hi = tops.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if tops[mid] <= y { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The rows that `rect` (content coordinates) crosses, top to bottom.
    open func indexPathsForRows(in rect: CGRect) -> [IndexPath]? {
        reloadIfNeeded()
        let r = rect.standardized
        guard r.minY.isFinite, r.maxY.isFinite else { return nil }
        var paths: [IndexPath] = []
        for (s, section) in sections.enumerated() where section.bottom > r.minY && section.top < r.maxY {
            let tops = section.rowTops
            guard tops.count > 1 else { continue }
            var row = UITableView.row(in: tops, at: r.minY)
            while row < tops.count - 1, tops[row] < r.maxY {
                if tops[row + 1] > r.minY { paths.append(IndexPath(row: row, section: s)) }
                row += 1
            }
        }
        return paths
    }

    open func indexPath(for cell: UITableViewCell) -> IndexPath? { visible.first { $0.value === cell }?.key }
    open func cellForRow(at indexPath: IndexPath) -> UITableViewCell? { visible[indexPath] }
    open var visibleCells: [UITableViewCell] { visible.sorted { $0.key < $1.key }.map(\.value) }
    open var indexPathsForVisibleRows: [IndexPath]? { visible.keys.sorted() }

    // MARK: Data

    /// Asks the data source for everything again and shows it.
    open func reloadData() {
        needsReload = true
        for (path, cell) in visible { recycle(cell, at: path) }
        visible = [:]
        for (_, header) in headers { header.removeFromSuperview() }
        headers = [:]
        selected.removeAll()
        setNeedsLayout()
        layoutIfNeeded()
    }

    open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        updates.reloads += indexPaths
        changed(animation)
    }
    open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        updates.inserts += indexPaths
        changed(animation)
    }
    open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        updates.deletes += indexPaths
        changed(animation)
    }
    open func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        updates.moves.append((indexPath, newIndexPath))
        changed(.automatic)
    }
    open func insertSections(_ sections: IndexSet, with animation: RowAnimation) { sectionsChanged() }
    open func deleteSections(_ sections: IndexSet, with animation: RowAnimation) { sectionsChanged() }
    open func reloadSections(_ sections: IndexSet, with animation: RowAnimation) { sectionsChanged() }

    private func changed(_ animation: RowAnimation) {
        if animation != .none { updates.fades = true }
        if batchDepth == 0 { applyUpdates() }
    }

    private func sectionsChanged() {
        updates.sectionsChanged = true
        if batchDepth == 0 { applyUpdates() }
    }

    open func beginUpdates() { batchDepth += 1 }

    open func endUpdates() {
        batchDepth = Swift.max(0, batchDepth - 1)
        if batchDepth == 0 { applyUpdates() }
    }

    /// Runs `updates` (inserts, deletes, moves, reloads) as one change,
    /// animated, then `completion` once its animations have ended (true).
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        CATransaction.begin()
        if let completion { CATransaction.setCompletionBlock { completion(true) } }
        beginUpdates()
        updates?()
        endUpdates()
        CATransaction.commit()
    }

    /// Applies the changes collected since the update began. Rows on screen
    /// that stay keep their cells, which slide to their new places; deleted
    /// and reloaded rows fade out and inserted ones fade in (unless every
    /// change said `.none`); rows that come into view slide in from where
    /// they were. Section changes, a table not in a window, and changes
    /// that do not add up to the data source's new counts (UIKit raises an
    /// exception for those) reload the table instead.
    private func applyUpdates() {
        let u = updates
        updates = RowUpdates()
        guard !u.isEmpty else { return }
        guard !u.sectionsChanged, window != nil, !needsReload, let dataSource,
            let map = u.rowMapping(oldCounts: sections.map { $0.rowTops.count - 1 }, in: self, dataSource)
        else {
            reloadData()
            return
        }
        let oldSections = sections
        let gone = Set(u.deletes + u.reloads)
        var kept: [IndexPath: UITableViewCell] = [:]
        for (path, cell) in visible {
            if !gone.contains(path), let new = map.newPath(for: path) {
                kept[new] = cell
            } else if u.fades {
                // Faded out, then reused: kept out of the pool until then.
                UIView.animate(
                    withDuration: 0.3, animations: { cell.alpha = 0 },
                    completion: { [weak self] _ in
                        cell.alpha = 1
                        self?.recycle(cell, at: path)
                    })
            } else {
                recycle(cell, at: path)
            }
        }
        visible = kept
        selected = Set(selected.compactMap { gone.contains($0) ? nil : map.newPath(for: $0) })
        prefetched = []
        needsReload = true
        reloadIfNeeded()
        let before = Set(visible.keys)
        setNeedsLayout()
        UIView.animate(withDuration: 0.3) { self.layoutIfNeeded() }
        // The cells that came with the layout start where their rows were
        // (or, new rows, clear), and move or fade to where they are.
        let inserted = Set(u.inserts + u.reloads.map { map.newPath(for: $0) ?? $0 })
        var arriving: [(UITableViewCell, CGRect?)] = []
        for (path, cell) in visible where !before.contains(path) {
            if inserted.contains(path) {
                if u.fades { arriving.append((cell, nil)) }
            } else if let old = map.oldPath(for: path), let from = Self.rect(of: old, in: oldSections, width: bounds.width) {
                arriving.append((cell, from))
            }
        }
        guard !arriving.isEmpty else { return }
        UIView.performWithoutAnimation {
            for (cell, from) in arriving {
                if let from { cell.frame = from } else { cell.alpha = 0 }
            }
        }
        CATransaction.flush()
        UIView.animate(withDuration: 0.3) {
            for (cell, from) in arriving {
                if from != nil, let path = self.indexPath(for: cell) { cell.frame = self.rectForRow(at: path) } else { cell.alpha = 1 }
            }
        }
    }

    /// A row's rectangle in an earlier geometry.
    private static func rect(of path: IndexPath, in sections: [Section], width: CGFloat) -> CGRect? {
        guard sections.indices.contains(path.section) else { return nil }
        let tops = sections[path.section].rowTops
        guard path.row >= 0, path.row < tops.count - 1 else { return nil }
        return CGRect(x: 0, y: tops[path.row], width: width, height: tops[path.row + 1] - tops[path.row])
    }

    private func reloadIfNeeded() {
        guard needsReload else { return }
        needsReload = false
        var y = tableHeaderView?.frame.height ?? 0
        let count = Swift.max(0, dataSource?.numberOfSections(in: self) ?? 0)
        sections = []
        sections.reserveCapacity(count)
        for s in 0..<count {
            let header = held(tableDelegate?.tableView(self, heightForHeaderInSection: s) ?? defaultHeaderHeight(s))
            var section = Section(top: y, headerHeight: header, rowTops: [])
            y += header
            let rows = Swift.max(0, dataSource?.tableView(self, numberOfRowsInSection: s) ?? 0)
            section.rowTops.reserveCapacity(rows + 1)
            for r in 0..<rows {
                section.rowTops.append(y)
                let h = tableDelegate?.tableView(self, heightForRowAt: IndexPath(row: r, section: s)) ?? rowHeight
                y += h == UITableView.automaticDimension ? held(estimatedRowHeight) : held(h)
            }
            section.rowTops.append(y)
            y += held(sectionFooterHeight)
            sections.append(section)
        }
        if let footer = tableFooterView {
            footer.frame = CGRect(x: 0, y: y, width: bounds.width, height: footer.frame.height)
            y += footer.frame.height
        }
        tableHeaderView?.frame = CGRect(x: 0, y: 0, width: bounds.width, height: tableHeaderView?.frame.height ?? 0)
        contentSize = CGSize(width: bounds.width, height: y)
    }

    /// A height as a finite, non-negative number (others count as 0).
    private func held(_ h: CGFloat) -> CGFloat { h.isFinite && h > 0 ? Swift.min(h, 1e7) : 0 }

    // MARK: Layout

    open override func layoutSubviews() {
        super.layoutSubviews()
        reloadIfNeeded()
        if contentSize.width != bounds.width { contentSize.width = bounds.width }
        let top = contentOffset.y, bottom = top + bounds.height
        var wanted: [IndexPath] = []
        for (s, section) in sections.enumerated() where section.bottom > top && section.top < bottom {
            let tops = section.rowTops
            guard tops.count > 1 else { continue }
            var r = UITableView.row(in: tops, at: top)
            while r < tops.count - 1, tops[r] < bottom {
                if tops[r + 1] > top { wanted.append(IndexPath(row: r, section: s)) }
                r += 1
            }
        }
        let wantedSet = Set(wanted)
        for (path, cell) in visible where !wantedSet.contains(path) {
            recycle(cell, at: path)
            visible[path] = nil
        }
        for path in wanted {
            let frame = rectForRow(at: path)
            if let cell = visible[path] {
                if cell.frame != frame { cell.frame = frame }
                continue
            }
            guard let dataSource else { break }
            let cell = dataSource.tableView(self, cellForRowAt: path)
            cell.frame = frame
            if cell.superview !== self { insertSubview(cell, at: 0) } else { cell.isHidden = false }
            cell.setSelected(selected.contains(path), animated: false)
            cell.showSeparator(separatorStyle == .singleLine ? separatorColor ?? .separator : nil)
            visible[path] = cell
            tableDelegate?.tableView(self, willDisplay: cell, forRowAt: path)
        }
        layoutHeaders(top: top, bottom: bottom)
        prefetch(after: wanted.last, before: wanted.first)
    }

    private func recycle(_ cell: UITableViewCell, at path: IndexPath) {
        cell.isHidden = true
        if let id = cell.reuseIdentifier { pools[id, default: []].append(cell) } else { cell.removeFromSuperview() }
        tableDelegate?.tableView(self, didEndDisplaying: cell, forRowAt: path)
    }

    private func layoutHeaders(top: CGFloat, bottom: CGFloat) {
        for (s, section) in sections.enumerated() {
            let show = section.headerHeight > 0 && section.bottom > top && section.top < bottom
            guard show else {
                headers[s]?.removeFromSuperview()
                headers[s] = nil
                continue
            }
            let header: UIView
            if let h = headers[s] {
                header = h
            } else if let custom = tableDelegate?.tableView(self, viewForHeaderInSection: s) {
                header = custom
            } else {
                let standard = UITableViewHeaderFooterView(reuseIdentifier: nil)
                standard.textLabel?.text = dataSource?.tableView(self, titleForHeaderInSection: s)
                header = standard
            }
            if headers[s] == nil {
                headers[s] = header
                addSubview(header)
            }
            // Plain tables keep a section's header at the top while its rows scroll under it.
            var y = section.top
            if style == .plain { y = Swift.min(Swift.max(y, top), section.bottom - section.headerHeight) }
            header.frame = CGRect(x: 0, y: y, width: bounds.width, height: section.headerHeight)
        }
    }

    /// Tells the prefetching data source of the rows one screen beyond
    /// those shown, in both directions, once each.
    private func prefetch(after last: IndexPath?, before first: IndexPath?) {
        guard let prefetchDataSource, let last, let first else { return }
        let ahead = indexPathForRow(at: CGPoint(x: 0, y: rectForRow(at: last).maxY + bounds.height / 2))
        let behind = indexPathForRow(at: CGPoint(x: 0, y: rectForRow(at: first).minY - bounds.height / 2))
        var paths: [IndexPath] = []
        for candidate in [ahead, behind].compactMap({ $0 }) where visible[candidate] == nil && !prefetched.contains(candidate) {
            paths.append(candidate)
        }
        guard !paths.isEmpty else { return }
        prefetched.formUnion(paths)
        prefetchDataSource.tableView(self, prefetchRowsAt: paths)
    }

    // MARK: Scrolling and selection

    open func scrollToRow(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        let r = rectForRow(at: indexPath)
        guard r != .zero || indexPath == IndexPath(row: 0, section: 0) else { return }
        var y: CGFloat
        switch scrollPosition {
        case .top: y = r.minY
        case .middle: y = r.midY - bounds.height / 2
        case .bottom: y = r.maxY - bounds.height
        case .none:
            if r.minY < contentOffset.y {
                y = r.minY
            } else if r.maxY > contentOffset.y + bounds.height {
                y = r.maxY - bounds.height
            } else {
                return
            }
        }
        y = Swift.max(-contentInset.top, Swift.min(y, contentSize.height + contentInset.bottom - bounds.height))
        setContentOffset(CGPoint(x: contentOffset.x, y: Swift.max(-contentInset.top, y)), animated: animated)
        layoutIfNeeded()
    }

    open var indexPathForSelectedRow: IndexPath? { selected.sorted().first }
    open var indexPathsForSelectedRows: [IndexPath]? { selected.isEmpty ? nil : selected.sorted() }

    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        if !allowsMultipleSelection { for p in selected where p != indexPath { deselectRow(at: p, animated: animated) } }
        guard let indexPath else { return }
        selected.insert(indexPath)
        visible[indexPath]?.setSelected(true, animated: animated)
        if scrollPosition != .none { scrollToRow(at: indexPath, at: scrollPosition, animated: animated) }
    }

    open func deselectRow(at indexPath: IndexPath, animated: Bool) {
        selected.remove(indexPath)
        visible[indexPath]?.setSelected(false, animated: animated)
    }

    private func tapped(at point: CGPoint) {
        guard allowsSelection, let path = indexPathForRow(at: point) else { return }
        if allowsMultipleSelection, selected.contains(path) {
            deselectRow(at: path, animated: false)
            tableDelegate?.tableView(self, didDeselectRowAt: path)
            return
        }
        guard let target = tableDelegate.map({ $0.tableView(self, willSelectRowAt: path) }) ?? path else { return }
        let previous = allowsMultipleSelection ? [] : selected.filter { $0 != target }
        selectRow(at: target, animated: false, scrollPosition: .none)
        for p in previous { tableDelegate?.tableView(self, didDeselectRowAt: p) }
        tableDelegate?.tableView(self, didSelectRowAt: target)
    }
}

/// A view controller whose view is a table it serves (`UITableViewController`).
@MainActor
open class UITableViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    public let tableStyle: UITableView.Style
    open var clearsSelectionOnViewWillAppear = true

    public init(style: UITableView.Style) {
        tableStyle = style
        super.init(nibName: nil, bundle: nil)
    }

    public required init?(coder: NSCoder) {
        tableStyle = .plain
        super.init(coder: coder)
    }

    public override convenience init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        self.init(style: .plain)
    }

    open var tableView: UITableView! {
        get { view as? UITableView }
        set { view = newValue }
    }

    open override func loadView() {
        let table = UITableView(frame: UIViewController.loadingFrame ?? UIScreen.main.bounds, style: tableStyle)
        table.dataSource = self
        table.delegate = self
        view = table
    }

    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if clearsSelectionOnViewWillAppear { for p in tableView.indexPathsForSelectedRows ?? [] { tableView.deselectRow(at: p, animated: animated) } }
    }

    open func numberOfSections(in tableView: UITableView) -> Int { 1 }
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(style: .default, reuseIdentifier: nil)
    }
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    open func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { tableView.rowHeight }
    open func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat {
        tableView.defaultHeaderHeight(section)
    }
    open func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }
    open func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    open func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    open func scrollViewDidScroll(_ scrollView: UIScrollView) {}
    open func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
    open func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint, targetContentOffset: UnsafeMutablePointer<CGPoint>
    ) {}
    open func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}
    open func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) {}
    open func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {}
    open func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {}
}

/// The row changes of one table update, in UIKit's terms: deletes and
/// reloads name rows as they were, inserts and moves' destinations rows as
/// they will be.
private struct RowUpdates {
    var deletes: [IndexPath] = []
    var reloads: [IndexPath] = []
    var inserts: [IndexPath] = []
    var moves: [(from: IndexPath, to: IndexPath)] = []
    var sectionsChanged = false
    var fades = false

    var isEmpty: Bool { deletes.isEmpty && reloads.isEmpty && inserts.isEmpty && moves.isEmpty && !sectionsChanged }

    /// Where rows go, as a mapping between old and new paths; nil when the
    /// changes do not add up to the data source's new row counts. Its size
    /// is that of the changes, not of the table.
    @MainActor
    func rowMapping(oldCounts: [Int], in table: UITableView, _ dataSource: any UITableViewDataSource) -> RowMapping? {
        guard dataSource.numberOfSections(in: table) == oldCounts.count else { return nil }
        var mapping = RowMapping()
        for (s, oldCount) in oldCounts.enumerated() {
            let newCount = dataSource.tableView(table, numberOfRowsInSection: s)
            guard newCount >= 0, newCount < 10_000_000 else { return nil }
            // New rows taken by an insert or a move's destination; the rows
            // that stay fill the others, in order.
            var taken = Set<Int>()
            for p in inserts where p.section == s {
                guard p.row >= 0, p.row < newCount, taken.insert(p.row).inserted else { return nil }
            }
            for m in moves where m.to.section == s {
                guard m.to.row >= 0, m.to.row < newCount, taken.insert(m.to.row).inserted else { return nil }
                mapping.destinations[m.from] = m.to
                mapping.sources[m.to] = m.from
            }
            let removed = Set(
                (deletes.filter { $0.section == s } + moves.map(\.from).filter { $0.section == s })
                    .map(\.row).filter { $0 >= 0 && $0 < oldCount })
            guard oldCount - removed.count + taken.count == newCount else { return nil }
            mapping.removed.append(removed.sorted())
            mapping.taken.append(taken.sorted())
        }
        return mapping
    }
}

/// Old and new paths of one table update: per section, the old rows that
/// go (deleted or moved away) and the new rows that are taken (inserted or
/// moved to), sorted; the rows that stay keep their order between them.
private struct RowMapping {
    var removed: [[Int]] = []
    var taken: [[Int]] = []
    var destinations: [IndexPath: IndexPath] = [:]
    var sources: [IndexPath: IndexPath] = [:]

    /// Where an old row is now: nil when it was deleted.
    func newPath(for old: IndexPath) -> IndexPath? {
        if let to = destinations[old] { return to }
        return Self.carry(old, leaving: removed, joining: taken)
    }

    /// Where a new row was: nil for one inserted.
    func oldPath(for new: IndexPath) -> IndexPath? {
        if let from = sources[new] { return from }
        return Self.carry(new, leaving: taken, joining: removed)
    }

    /// `path`'s row carried from one side of the update to the other: nil
    /// when it is among the rows `leaving` this side; else the how-manieth
    /// row that stays, then past the rows `joining` the other side before it.
    private static func carry(_ path: IndexPath, leaving: [[Int]], joining: [[Int]]) -> IndexPath? {
        guard leaving.indices.contains(path.section) else { return nil }
        let gone = leaving[path.section]
        guard !gone.contains(path.row) else { return nil }
        var row = path.row - gone.count(where: { $0 < path.row })
        for t in joining[path.section] where t <= row { row += 1 }
        return IndexPath(row: row, section: path.section)
    }
}
