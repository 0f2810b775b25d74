import StrataGraphics

extension ListView {
    /// What a key does in a focused list, as GTK's list views and the
    /// Mac's table views take them: Up and Down move a row, Page Up and
    /// Page Down a screenful, Home and End to the first and last row;
    /// the list scrolls to show the row. Return and Space select it
    /// (`listView(_:didSelectRowAt:)`). Returns whether the key was used.
    func handleKey(_ key: Key) -> Bool {
        let count = numberOfRows
        guard count > 0 else { return false }
        let current = min(focusedRow ?? visibleRows.first ?? 0, count - 1)
        let page = max(1, visibleRows.count - 1)
        let target: Int
        switch key {
        case .up: target = current - 1
        case .down: target = current + 1
        case .pageUp: target = current - page
        case .pageDown: target = current + page
        case .home: target = 0
        case .end: target = count - 1
        case .enter, .space:
            focusedRow = current
            return selectRow(current)
        default:
            return false
        }
        moveFocus(toRow: min(max(target, 0), count - 1))
        return true
    }

    /// Puts the keyboard on flat `row`, scrolled into view, and tells
    /// assistive tools.
    func moveFocus(toRow row: Int) {
        focusedRow = row
        scrollRectToVisible(rectForRow(row), animated: false)
        dispatcher?.updateFocusRing()
        postFocus(row)
    }

    /// Tells assistive tools the keys are on `row`'s cell.
    func postFocus(_ row: Int) {
        guard AccessibilityCenter.hasListeners, let cell = cellsByRow[row] else { return }
        AccessibilityCenter.post(.focusMoved, from: cell)
    }

    /// Selects flat `row` as a tap does (`listView(_:didSelectRowAt:)`);
    /// false when there is no such row.
    @discardableResult
    func selectRow(_ row: Int) -> Bool {
        guard let indexPath = indexPath(forRow: row) else { return false }
        rowDelegate?.listView(self, didSelectRowAt: indexPath)
        return true
    }
}
