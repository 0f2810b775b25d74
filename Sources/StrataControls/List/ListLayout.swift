import Foundation
import StrataGraphics

/// Where a list's rows and section headers lie, in content coordinates: a
/// value computed once from the row counts and heights, then only read.
///
/// Rows are numbered through the whole list ("flat" rows, the index a
/// `ListCell.row` holds); an `IndexPath` names the same row by section. A
/// header sits above its section's first row; the space it takes is not the
/// row above's.
struct ListLayout: Sendable, Equatable {
    /// A section: its first flat row, its row count, its header's top and height.
    struct Section: Sendable, Equatable {
        var firstRow: Int
        var count: Int
        var headerTop: Double
        var headerHeight: Double
    }

    /// The most rows a list holds: sections past this many rows in all get
    /// none (a data source's count is a number it was given, not memory).
    static let maximumRows = 1_000_000
    /// The most sections a list holds.
    static let maximumSections = 1_000_000
    /// The tallest a row or header may be, in points.
    static let maximumHeight = 1e7

    /// Row tops, with the content's height last (count + 1 values).
    private(set) var tops: [Double] = [0]
    /// Space for headers just above a row (by row; the content's end for
    /// headers of empty sections at the end).
    private(set) var headerGaps: [Int: Double] = [:]
    private(set) var sections: [Section] = [Section(firstRow: 0, count: 0, headerTop: 0, headerHeight: 0)]

    init() {}

    /// Lays out `rowCounts` sections (counts below 0 count as 0, and rows
    /// past `maximumRows` in all are dropped) with the heights the closures
    /// give (not finite or below 0 count as 0, held to `maximumHeight`).
    init(rowCounts: [Int], headerHeight: (Int) -> Double, rowHeight: (IndexPath) -> Double) {
        func clean(_ h: Double) -> Double { h.isFinite && h > 0 ? Swift.min(h, Self.maximumHeight) : 0 }
        let counts = rowCounts.prefix(Self.maximumSections)
        var remaining = Self.maximumRows
        var spans: [Section] = []
        spans.reserveCapacity(Swift.max(1, counts.count))
        var gaps: [Int: Double] = [:]
        var tops: [Double] = []
        var y = 0.0, row = 0
        for (section, asked) in counts.enumerated() {
            let count = Swift.min(Swift.max(0, asked), remaining)
            remaining -= count
            let header = clean(headerHeight(section))
            spans.append(Section(firstRow: row, count: count, headerTop: y, headerHeight: header))
            if header > 0 && row > 0 { gaps[row, default: 0] += header }
            y += header
            tops.reserveCapacity(row + count + 1)
            for r in 0..<count {
                tops.append(y)
                y += clean(rowHeight(IndexPath(row: r, section: section)))
            }
            row += count
        }
        tops.append(y)
        self.tops = tops
        headerGaps = gaps
        if !spans.isEmpty { sections = spans }
    }

    /// The rows, through all sections.
    var numberOfRows: Int { tops.count - 1 }

    /// The content's height.
    var contentHeight: Double { tops[numberOfRows] }

    /// Where `row` starts.
    func top(_ row: Int) -> Double { tops[row] }

    /// Where the row ends (the next row's top, less any headers between them).
    func bottom(_ row: Int) -> Double {
        headerGaps.isEmpty ? tops[row + 1] : tops[row + 1] - (headerGaps[row + 1] ?? 0)
    }

    /// The row's frame for a list `width` points wide (zero out of range).
    func rect(_ row: Int, width: Double) -> Rect {
        guard row >= 0, row < numberOfRows else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: 0, y: tops[row], width: width, height: bottom(row) - tops[row])
    }

    /// The row whose span (with the headers below it) holds y: a binary
    /// search of the tops.
    func rowIndex(atY y: Double) -> Int {
        var lo = 0, hi = numberOfRows - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if tops[mid] <= y { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The row at y; nil over a header's space or outside the rows.
    func row(atY y: Double) -> Int? {
        guard numberOfRows > 0, y >= 0, y < contentHeight else { return nil }
        let row = rowIndex(atY: y)
        return y < bottom(row) && y >= tops[row] ? row : nil
    }

    /// The rows that cross [y0, y1).
    func rows(in y0: Double, _ y1: Double) -> Range<Int> {
        let n = numberOfRows
        guard n > 0, y1 > y0, y1 > 0, y0 < tops[n] else { return 0..<0 }
        var first = rowIndex(atY: Swift.max(0, y0))
        // A range starting in the headers after a row does not hold that row.
        if bottom(first) <= y0 { first += 1 }
        let last = rowIndex(atY: Swift.min(tops[n], y1) - 1e-9)
        // A range ending in the headers above the first row holds no row.
        guard first < n, last >= first, tops[last] < y1 else { return first..<first }
        return first..<(last + 1)
    }

    // MARK: Sections

    /// The flat rows of `section` (empty out of range).
    func rows(inSection section: Int) -> Range<Int> {
        guard section >= 0, section < sections.count else { return 0..<0 }
        let s = sections[section]
        return s.firstRow..<(s.firstRow + s.count)
    }

    /// The section holding flat `row` (nil out of range).
    func section(forRow row: Int) -> Int? {
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

    /// The index path of flat `row` (nil out of range).
    func indexPath(forRow row: Int) -> IndexPath? {
        section(forRow: row).map { IndexPath(row: row - sections[$0].firstRow, section: $0) }
    }

    /// The flat row of `indexPath` (nil when the list has no such row).
    func row(for indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2 else { return nil }
        let (section, row) = (indexPath.section, indexPath.row)
        guard section >= 0, section < sections.count, row >= 0, row < sections[section].count else { return nil }
        return sections[section].firstRow + row
    }

    /// The header's frame among the rows (zero height when it has none).
    func headerRect(_ section: Int, width: Double) -> Rect {
        guard section >= 0, section < sections.count else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let s = sections[section]
        return Rect(x: 0, y: s.headerTop, width: width, height: s.headerHeight)
    }

    /// Where the section ends: its last row's bottom, or its header's for an empty one.
    func sectionBottom(_ i: Int) -> Double {
        let s = sections[i]
        return s.count > 0 ? bottom(s.firstRow + s.count - 1) : s.headerTop + s.headerHeight
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

    /// Whether any section has a header.
    var hasHeaders: Bool { sections.count > 1 || sections[0].headerHeight > 0 }

    /// Whether `other` has the same sections: their rows and their headers'
    /// heights (heights of rows above only move them).
    func hasSameSections(as other: ListLayout) -> Bool {
        sections.count == other.sections.count
            && zip(sections, other.sections).allSatisfy {
                $0.firstRow == $1.firstRow && $0.count == $1.count && $0.headerHeight == $1.headerHeight
            }
    }
}
