import StrataLayers

/// The layouts of a list's rows, computed on the queue pool and versioned by
/// the list's width (YYKit's precomputed `WBStatusLayout`s): the main actor
/// only reads heights and hands layouts to cells.
///
/// `load(first:)` computes the rows in batches, the first screen's first, and
/// tells `onBatch` on the main actor as each batch lands (through
/// `AsyncDisplayInbox`, so a headless frame loop sees them too). Until a
/// row's layout exists, its height is `estimatedHeight`. Changing the width
/// starts a new version: every row is computed again in the background, and
/// each keeps its old layout until its new one arrives.
@MainActor
public final class RowLayoutStore<Layout: Sendable> {
    public typealias Make = @Sendable (_ row: Int, _ width: Double) -> Layout

    public let count: Int
    public private(set) var width: Double
    public let estimatedHeight: Double
    /// Called on the main actor with the rows whose layouts just landed.
    public var onBatch: (@MainActor (_ rows: Range<Int>) -> Void)?
    /// Rows a pool task computes at once.
    public var batchSize = 64

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
        let make = self.make, heightOf = self.heightOf
        for (n, rows) in order.enumerated() {
            // The first screen at the higher priority.
            let priority: DrawingPriority = n == 0 && !lead.isEmpty ? .userInitiated : .utility
            QueuePool.shared.async(priority) { [weak self] in
                let made = rows.map { make($0, w) }
                let sizes = made.map { h -> Double in
                    let v = heightOf(h)
                    return v.isFinite && v > 0 ? v : 0
                }
                AsyncDisplayInbox.deliver { [weak self] in
                    guard let self, self.version == v else { return }
                    for (i, row) in rows.enumerated() {
                        self.layouts[row] = made[i]
                        self.heights[row] = sizes[i]
                    }
                    self.pending -= rows.count
                    self.onBatch?(rows)
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
