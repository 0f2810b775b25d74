// The feed of the fourth seed article (VVeboTableView's technique, as the
// article presents it): cells whose text draws asynchronously, and a
// table that, when a fling will carry it more than eight rows, draws only
// the rows where it will stop (and three beyond) until it does.
import UIKit

/// A post: the article's tweet model, reduced to its text.
struct Tweet: Sendable {
    let text: String
}

/// The posts of the demo: deterministic, of varied lengths, with mentions
/// and topics.
func makeTweets(_ count: Int) -> [Tweet] {
    let words = ["render", "layer", "frame", "swift", "linux", "tiles", "scroll", "queue", "glyph", "shape", "cache", "sixty"]
    var seed: UInt64 = 0x5EED
    func next() -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(seed >> 33)
    }
    return (0..<count).map { i in
        let length = 8 + next() % 40
        var parts = ["No. \(i + 1):"]
        for j in 0..<length {
            if j == 3 { parts.append("@user\(next() % 100)") }
            parts.append(words[next() % words.count])
        }
        if i % 3 == 0 { parts.append("#strata#") }
        return Tweet(text: parts.joined(separator: " "))
    }
}

final class FeedCell: UITableViewCell {
    let label = XXXLabel(frame: CGRect(x: 12, y: 8, width: 296, height: 40))

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        label.backgroundColor = .white
        contentView.addSubview(label)
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }

    func draw() { label.asyncDraw() }
    func clear() { label.clear() }
}

final class FeedViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    let tweetList = makeTweets(2000)
    var tableView: UITableView!
    var isScrolling = false
    var drawableIndexPaths: [IndexPath] = []
    /// How many rows have been drawn (for the demo's counter and the tests).
    var drawnRows = 0
    private var heights: [CGFloat?]

    override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        heights = Array(repeating: nil, count: tweetList.count)
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    required init?(coder: NSCoder) {
        heights = Array(repeating: nil, count: tweetList.count)
        super.init(coder: coder)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView = UITableView(frame: view.bounds, style: .plain)
        tableView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        tableView.register(FeedCell.self, forCellReuseIdentifier: "cell")
        tableView.dataSource = self
        tableView.delegate = self
        view.addSubview(tableView)
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { tweetList.count }

    /// The text's height at the label's width, from Core Text.
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        if let h = heights[indexPath.row] { return h }
        let text = NSAttributedString(
            string: tweetList[indexPath.row].text,
            attributes: [NSAttributedString.Key(kCTFontAttributeName as String): CTFontCreateWithName(".SFUI-Regular" as CFString, 15, nil)])
        let setter = CTFramesetterCreateWithAttributedString(text)
        let size = CTFramesetterSuggestFrameSizeWithConstraints(
            setter, CFRangeMake(0, 0), nil, CGSize(width: 296, height: CGFloat.greatestFiniteMagnitude), nil)
        let h = size.height + 4 * CGFloat(max(0, Int((size.height / 18).rounded()) - 1)) + 26
        heights[indexPath.row] = h
        return h
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath) as! FeedCell
        cell.label.frame.size.height = self.tableView(tableView, heightForRowAt: indexPath) - 16
        cell.label.text = tweetList[indexPath.row].text
        drawCell(cell, withIndexPath: indexPath)
        return cell
    }

    func drawCell(_ cell: FeedCell, withIndexPath indexPath: IndexPath) {
        cell.clear()
        if isScrolling && !drawableIndexPaths.isEmpty && !drawableIndexPaths.contains(indexPath) {
            return
        }
        drawnRows += 1
        cell.draw()
    }

    func drawVisibleCells() {
        drawableIndexPaths.removeAll()
        for case let cell as FeedCell in tableView.visibleCells where cell.label.labelImageView.image == nil {
            drawnRows += 1
            cell.draw()
        }
    }

    // MARK: - UIScrollViewDelegate

    /// Dragging begins: whatever was kept for drawing is forgotten.
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {
        isScrolling = true
        drawableIndexPaths.removeAll()
    }

    /// The finger lifts: if the fling will stop more than eight rows away,
    /// only the rows where it stops, and three beyond, are drawn.
    func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint, targetContentOffset: UnsafeMutablePointer<CGPoint>
    ) {
        guard let curIndexPath = tableView.indexPathsForVisibleRows?.first else { return }
        let stoppedPoint = CGPoint(x: 0, y: targetContentOffset.pointee.y)
        guard let stoppedIndexPath = tableView.indexPathForRow(at: stoppedPoint) else { return }
        let skipCount = 8
        let isOverSkipCount = abs(stoppedIndexPath.row - curIndexPath.row) > skipCount
        if isOverSkipCount {
            let stoppedVisibleIndexPaths =
                tableView.indexPathsForRows(
                    in: CGRect(x: 0, y: targetContentOffset.pointee.y, width: tableView.frame.size.width, height: tableView.frame.size.height))
                ?? []
            var mutableIndexPaths = stoppedVisibleIndexPaths
            if velocity.y > 0 {
                if let idx = mutableIndexPaths.last, idx.row + 3 < tweetList.count {
                    for k in 1...3 { mutableIndexPaths.append(IndexPath(row: idx.row + k, section: idx.section)) }
                }
            } else {
                if let idx = mutableIndexPaths.first, idx.row - 3 >= 0 {
                    for k in 1...3 { mutableIndexPaths.append(IndexPath(row: idx.row - k, section: idx.section)) }
                }
            }
            drawableIndexPaths.append(contentsOf: mutableIndexPaths)
        } else {
            isScrolling = false
            drawVisibleCells()
        }
    }

    /// Scrolling has stopped: the visible rows are drawn.
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
        isScrolling = false
        drawVisibleCells()
    }
}
