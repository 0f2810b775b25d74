import Foundation
import StrataGraphics

// The flat-row API of earlier versions, kept so that code written against
// it still builds; each says what replaced it. To be removed.
extension ListView {
    @available(*, deprecated, message: "set `delegate` to a ListViewDelegate: it is the list's one delegate")
    public var listDelegate: (any ListViewDelegate)? {
        get { rowDelegate }
        set { delegate = newValue }
    }

    @available(*, deprecated, renamed: "rangePolicy.tuning")
    public var rangeTuning: ListRangeTuning {
        get { rangePolicy.tuning }
        set { rangePolicy.tuning = newValue }
    }

    @available(*, deprecated, renamed: "rangePolicy.flingSkipThreshold")
    public var flingSkipThreshold: Int {
        get { rangePolicy.flingSkipThreshold }
        set { rangePolicy.flingSkipThreshold = newValue }
    }

    @available(*, deprecated, renamed: "rangePolicy.flingSkipExtraRows")
    public var flingSkipExtraRows: Int {
        get { rangePolicy.flingSkipExtraRows }
        set { rangePolicy.flingSkipExtraRows = newValue }
    }

    @available(*, deprecated, renamed: "rangePolicy.drawingVelocity")
    public var drawingVelocity: Double {
        get { rangePolicy.drawingVelocity }
        set { rangePolicy.drawingVelocity = newValue }
    }

    @available(*, deprecated, message: "use dequeueReusableCell(withIdentifier:for:) with the row's IndexPath")
    public func dequeueReusableCell(withIdentifier identifier: String, for row: Int) -> ListCell? {
        guard pools[identifier]?.isEmpty == false || factories[identifier] != nil else { return nil }
        return dequeueReusableCell(withIdentifier: identifier, for: IndexPath(row: row, section: 0))
    }

    @available(*, deprecated, message: "use cellForRow(at:) with the row's IndexPath")
    public func cell(forRow row: Int) -> ListCell? { cellsByRow[row] }

    @available(*, deprecated, message: "use indexPathForRow(at:)")
    public func row(at point: Point) -> Int? { layout.row(atY: point.y) }

    @available(*, deprecated, message: "use indexPath(forRow:)?.section")
    public func section(forRow row: Int) -> Int? { layout.section(forRow: row) }

    @available(*, deprecated, message: "use scrollToRow(at:at:animated:) with the row's IndexPath")
    public func scrollToRow(_ row: Int, at position: ListScrollPosition, animated: Bool) {
        scroll(toRow: row, at: position, animated: animated)
    }

    @available(*, deprecated, message: "use insertRows(at:with:) with IndexPaths")
    public func insertRows(at rows: [Int], animated: Bool = true) {
        performBatchUpdates(inserting: rows, deleting: [], reloading: [], animated: animated)
    }

    @available(*, deprecated, message: "use deleteRows(at:with:) with IndexPaths")
    public func deleteRows(at rows: [Int], animated: Bool = true) {
        performBatchUpdates(inserting: [], deleting: rows, reloading: [], animated: animated)
    }

    @available(*, deprecated, message: "use reloadRows(at:with:) with IndexPaths")
    public func reloadRows(at rows: [Int], animated: Bool = true) {
        performBatchUpdates(inserting: [], deleting: [], reloading: rows, animated: animated)
    }

    @available(*, deprecated, message: "use moveRow(at:to:) with IndexPaths")
    public func moveRow(at from: Int, to: Int, animated: Bool = true) {
        performBatchUpdates(inserting: [], deleting: [], reloading: [], moving: [(from, to)], animated: animated)
    }

    /// Flat rows: deletions and moves' sources before, insertions, moves'
    /// destinations and reloads after.
    @available(*, deprecated, message: "use performBatchUpdates(_:completion:) with insertRows, deleteRows, reloadRows and moveRow inside")
    public func performBatchUpdates(
        inserting: [Int], deleting: [Int], reloading: [Int], moving: [(from: Int, to: Int)] = [], animated: Bool = true
    ) {
        applyFlat(
            deleting: deleting, inserting: inserting, reloadingOld: [], reloadingNew: reloading, moving: moving, newLayout: readLayout(),
            animated: animated)
    }
}
