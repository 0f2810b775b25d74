import StrataLayers

/// The layouts of a list's rows, computed on the queue pool and versioned by
/// the list's width (YYKit's precomputed `WBStatusLayout`s): the main actor
/// only reads heights and hands layouts to cells.
///
/// `load(first:)` computes every row in batches, the first screen's first,
/// and tells `onBatch` on the main actor as each batch lands (through
/// `AsyncDisplayInbox`, so a headless frame loop sees them too). Until a
/// row's layout exists, its height is `estimatedHeight`. Heights are kept
/// for every row; layouts only for the rows in `window` (around what the
/// list shows: memory stays bounded however long the list), and
/// `ensure(_:)` computes again the layouts of rows the list is about to
/// show. Changing the width starts a new version: every row is computed
/// again in the background, and each keeps its old layout until its new one
/// arrives.
@MainActor
public final class RowLayoutStore<Layout: Sendable> {
    public typealias Make = @Sendable (_ row: Int, _ width: Double) -> Layout

    public let count: Int
    public private(set) var width: Double
    public let estimatedHeight: Double
    /// Called on the main actor with the rows whose layouts just landed,
    /// and whether any height changed.
    public var onBatch: (@MainActor (_ rows: [Int], _ heightsChanged: Bool) -> Void)?
    /// The rows whose layouts are kept (all of them until set).
    public private(set) var window: Range<Int>
    /// Rows being computed by `ensure(_:)`.
    private var inFlight: Set<Int> = []
    /// Layouts kept now.
    public private(set) var keptCount = 0
    /// Rows a pool task computes at once (held to 1…100,000).
    public var batchSize = 64 { didSet { batchSize = Swift.min(100_000, Swift.max(1, batchSize)) } }

    private let make: Make
    private let heightOf: @Sendable (Layout) -> Double
    private var layouts: [Layout?]
    private var heights: [Double]
    /// Bumped by a width change: batches of an older version are dropped.
    private var version = 0
    /// Rows of the current version still to land.
    public private(set) var pending = 0

    /// A store for `count` rows at `width`; `height` reads a layout's height.
    /// A count below 0 counts as 0; a height that is not finite and
    /// positive counts as 0.
    public init(
        count: Int, width: Double, estimatedHeight: Double, make: @escaping Make, height: @escaping @Sendable (Layout) -> Double
    ) {
        self.count = Swift.max(0, count)
        self.width = width
        self.estimatedHeight = estimatedHeight.isFinite ? Swift.max(0, estimatedHeight) : 0
        self.make = make
        self.heightOf = height
        layouts = Array(repeating: nil, count: Swift.max(0, count))
        heights = Array(repeating: self.estimatedHeight, count: Swift.max(0, count))
        window = 0..<Swift.max(0, count)
    }

    /// Keeps layouts only for `rows` (clamped to the rows there are); the
    /// others are dropped, their heights kept.
    public func setWindow(_ rows: Range<Int>) {
        let new = rows.clamped(to: 0..<count)
        guard new != window else { return }
        for row in window where !new.contains(row) && layouts[row] != nil {
            layouts[row] = nil
            keptCount -= 1
        }
        window = new
    }

    /// Computes, on the pool, the layouts of `rows` that are in the window
    /// and missing (or of an older width).
    public func ensure(_ rows: some Sequence<Int>) {
        let missing = rows.filter { window.contains($0) && !inFlight.contains($0) && (layouts[$0] == nil || stale.contains($0)) }
        guard !missing.isEmpty else { return }
        inFlight.formUnion(missing)
        let v = version, w = width, make = self.make, heightOf = self.heightOf
        QueuePool.shared.async(.userInitiated) { [weak self] in
            let made = missing.map { make($0, w) }
            let sizes = made.map { RowLayoutStore.clean(heightOf($0)) }
            AsyncDisplayInbox.deliver { [weak self] in
                guard let self else { return }
                self.inFlight.subtract(missing)
                guard self.version == v else { return }
                self.land(missing, made, sizes)
            }
        }
    }

    nonisolated static func clean(_ h: Double) -> Double { h.isFinite && h > 0 ? h : 0 }

    /// Rows whose layouts are for an older width.
    private var stale: Set<Int> = []

    private func land(_ rows: [Int], _ made: [Layout], _ sizes: [Double]) {
        var changed = false
        for (i, row) in rows.enumerated() {
            if window.contains(row) {
                if layouts[row] == nil { keptCount += 1 }
                layouts[row] = made[i]
            }
            stale.remove(row)
            if heights[row] != sizes[i] {
                heights[row] = sizes[i]
                changed = true
            }
        }
        onBatch?(rows, changed)
    }

    /// The row's layout, if computed (perhaps for an older width).
    public func layout(_ row: Int) -> Layout? { row >= 0 && row < count ? layouts[row] : nil }

    /// The row's height: its layout's, or the estimate.
    public func height(_ row: Int) -> Double { row >= 0 && row < count ? heights[row] : 0 }

    /// Computes every row on the pool, `first` rows before the rest.
    public func load(first: Range<Int> = 0..<0) {
        version += 1
        let v = version
        let w = width
        let lead = first.clamped(to: 0..<count)
        var order: [Range<Int>] = []
        var start = lead.lowerBound
        while start < lead.upperBound {
            order.append(start..<Swift.min(lead.upperBound, start + batchSize))
            start += batchSize
        }
        start = 0
        while start < count {
            let end = Swift.min(count, start + batchSize)
            // Skip what the first batches cover.
            if lead.isEmpty || end <= lead.lowerBound || start >= lead.upperBound {
                order.append(start..<end)
            } else {
                if start < lead.lowerBound { order.append(start..<lead.lowerBound) }
                if end > lead.upperBound { order.append(lead.upperBound..<end) }
            }
            start = end
        }
        pending = count
        // What is held now is for an older width: shown until replaced.
        stale = Set((0..<count).filter { layouts[$0] != nil })
        let make = self.make, heightOf = self.heightOf
        for (n, rows) in order.enumerated() {
            // The first screen at the higher priority.
            let priority: DrawingPriority = n == 0 && !lead.isEmpty ? .userInitiated : .utility
            QueuePool.shared.async(priority) { [weak self] in
                let made = rows.map { make($0, w) }
                let sizes = made.map { RowLayoutStore.clean(heightOf($0)) }
                AsyncDisplayInbox.deliver { [weak self] in
                    guard let self, self.version == v else { return }
                    self.pending -= rows.count
                    self.land(Array(rows), made, sizes)
                }
            }
        }
    }

    /// Lays every row out again at `width`, in the background, `first` rows
    /// first; rows keep their old layouts until their new ones land.
    public func setWidth(_ width: Double, first: Range<Int> = 0..<0) {
        guard width != self.width, width.isFinite else { return }
        self.width = width
        load(first: first)
    }
}
