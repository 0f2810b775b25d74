import Foundation
import StrataGraphics
import StrataLayers

/// A row's view in a `ListView`: its contents are one image drawn off the
/// main actor by an `AsyncLayer` (`contentLayer`), with a placeholder shown
/// until that image is for the cell's current row.
///
/// Subclasses override `makeDisplayTask(for:size:)` to draw the row (from
/// data prepared beforehand: never measure text here), and
/// `placeholderBlocks` to show where the contents will be.
@MainActor
open class ListCell: View, AsyncLayerDelegate {
    /// A list item, unless set.
    open override var accessibilityRole: AccessibilityRole {
        get { accessibility.role ?? .listItem }
        set { accessibility.role = newValue }
    }

    /// Selected while the list's keys are on the cell's row, unless set.
    open override var accessibilityTraits: AccessibilityTraits {
        get {
            if let traits = accessibility.traits { return traits }
            guard let row, let list = listView, list.focusedRow == row, list.isFirstResponder else { return [] }
            return .selected
        }
        set { accessibility.traits = newValue }
    }

    /// Selects the cell's row, as a tap on it does.
    open override func activate() -> Bool {
        guard let row, let list = listView, list.cellsByRow[row] === self else { return false }
        return list.selectRow(row)
    }

    /// The row's place in the list ("posinset" and "setsize", counted
    /// from 1), which screen readers read as "3 of 40".
    open override var accessibilityAttributes: [String: String] {
        guard let row, let list = listView else { return [:] }
        return ["posinset": String(row + 1), "setsize": String(list.numberOfRows)]
    }

    /// The identifier of the pool the cell returns to.
    public internal(set) var reuseIdentifier: String
    /// The row the cell shows (nil while spare).
    public internal(set) var row: Int?
    /// The row whose drawing the contents hold.
    public private(set) var contentsRow: Int?
    /// Whether the contents hold a drawing of the current row (perhaps an
    /// older one, while a reload or a resize redraws it).
    public var hasContents: Bool { row != nil && contentsRow == row }
    public let contentLayer = AsyncLayer()
    /// The placeholder: the background and grey blocks.
    public let placeholderLayer = Layer()
    /// The colour of the placeholder's blocks.
    public var placeholderColor = Color(white: 0.9)
    weak var listView: ListView?
    /// The contents are an older drawing of the current row (a reload):
    /// shown until the new one arrives.
    var contentsAreStale = false
    var skipCounted = false
    private var requestedRow: Int?
    /// Counts requests: a drawing's result counts only if no request came
    /// after the one it answers (an older drawing cancelled by a newer one
    /// must not clear the newer one's request).
    private var requestGeneration = 0
    /// Drawings in a row that ended unfinished (cancelled, or no canvas).
    private var failedDrawings = 0

    public init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
        super.init()
        contentLayer.delegate = self
        contentLayer.anchorPoint = .zero
        placeholderLayer.anchorPoint = .zero
        layer.addSublayer(placeholderLayer)
        layer.addSublayer(contentLayer)
    }

    open override func sizeDidChange() {
        super.sizeDidChange()
        withoutActions {
            contentLayer.frame = bounds
            placeholderLayer.frame = bounds
        }
        markStale()
        if contentsRow == nil { buildPlaceholder() }
    }

    /// Where the placeholder draws grey blocks (cell coordinates): where
    /// the avatar, the text and the pictures will be. Default: none.
    open func placeholderBlocks() -> [Rect] { [] }

    /// The drawing of `row` at `size` points (drawn on the pool). Default: nothing.
    open func makeDisplayTask(for row: Int, size: Size) -> AsyncDisplayTask {
        AsyncDisplayTask(display: { _, _, _ in })
    }

    /// Called before the cell goes back to its pool.
    open func prepareForReuse() {}

    /// Whether a tap at `point` (cell coordinates) selects the row; a cell
    /// answers false over what handles its own taps (a link). Default: true.
    open func shouldSelect(at point: Point) -> Bool { true }

    /// Whether the cell has what it needs to draw its row (its layout, say);
    /// until it does, the list leaves it as a placeholder. Default: true.
    open var canDrawContents: Bool { true }

    public func newAsyncDisplayTask(for layer: AsyncLayer) -> AsyncDisplayTask {
        let row = requestedRow ?? -1
        let generation = requestGeneration
        var task = makeDisplayTask(for: row, size: bounds.size)
        let done = task.didDisplay
        task.didDisplay = { [weak self] layer, finished in
            if let self, self.requestGeneration == generation, self.requestedRow == row {
                self.requestedRow = nil
                if finished {
                    self.failedDrawings = 0
                    self.contentsRow = row
                    self.contentsAreStale = false
                    self.placeholderLayer.isHidden = true
                } else if self.failedDrawings < 3 {
                    // Nothing else may come to ask again (a list at rest):
                    // let the policy decide now (a few times, not forever).
                    self.failedDrawings += 1
                    self.listView?.layoutRows()
                }
            }
            done?(layer, finished)
        }
        return task
    }

    /// Whether a redraw is asked for or under way.
    public var needsRedrawPending: Bool { needsContents || requestedRow != nil }

    var needsContents: Bool { row != nil && requestedRow != row && (contentsRow != row || contentsAreStale) }

    func drawContents() {
        guard let row else { return }
        requestedRow = row
        requestGeneration &+= 1
        contentLayer.setNeedsDisplay()
    }

    /// Redraws the contents (the row's data changed, or a highlight): the
    /// old drawing stays until the new one arrives, and the list draws it
    /// when its drawing policy allows.
    public func setNeedsRedraw() {
        markStale()
        if contentsRow == nil { requestedRow = nil }
        listView?.layoutRows()
    }

    /// The contents are an older drawing of the row: redraw, keeping them
    /// shown until the new drawing arrives.
    func markStale() {
        guard contentsRow != nil else { return }
        contentsAreStale = true
        requestedRow = nil
    }

    /// Forgets the contents (another row's) and shows the placeholder.
    func showPlaceholder() {
        contentLayer.cancelAsynchronousDisplay()
        withoutActions {
            contentLayer.contents = nil
        }
        contentsRow = nil
        requestedRow = nil
        contentsAreStale = false
        skipCounted = false
        buildPlaceholder()
    }

    private func buildPlaceholder() {
        withoutActions {
            placeholderLayer.isHidden = false
            let blocks = placeholderBlocks()
            while placeholderLayer.sublayers.count > blocks.count { placeholderLayer.sublayers.last?.removeFromSuperlayer() }
            while placeholderLayer.sublayers.count < blocks.count {
                let b = Layer()
                b.anchorPoint = .zero
                b.cornerRadius = 3
                placeholderLayer.addSublayer(b)
            }
            for (b, r) in zip(placeholderLayer.sublayers, blocks) {
                b.frame = r
                b.backgroundColor = placeholderColor
            }
        }
    }

    /// The row moved (rows were inserted or deleted before it): its
    /// drawing is still its own.
    func renumber(to new: Int) {
        if contentsRow == row { contentsRow = new }
        if requestedRow == row { requestedRow = nil }
        row = new
    }

    func prepareForReuseInternal() {
        prepareForReuse()
        row = nil
    }
}
