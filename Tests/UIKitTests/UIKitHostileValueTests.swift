import Foundation
import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

/// Rows of a table whose answers are hostile.
@MainActor
final class HostileRows: UITableViewDataSource, UITableViewDelegate {
    var count = -5
    var height: CGFloat = .nan
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { count }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(style: .default, reuseIdentifier: nil)
    }
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { height }
}

@MainActor
@Suite("UIKit with hostile values")
struct UIKitHostileValueTests {
    static let hostile: [CGFloat] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0, -5]

    @Test("Views take NaN, infinite, huge and negative geometry without crashing, and still render")
    func viewGeometry() throws {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let w = window(holding: view)
        for v in Self.hostile {
            view.frame = CGRect(x: v, y: v, width: v, height: v)
            view.center = CGPoint(x: v, y: v)
            view.bounds = CGRect(x: 0, y: 0, width: v, height: v)
            view.alpha = v
            view.transform = CGAffineTransform(a: v, b: 0, c: 0, d: v, tx: v, ty: v)
            #expect(view.frame.minX.isFinite && view.frame.width.isFinite)
            #expect(w.snapshotImage() != nil)
            _ = view.hitTest(CGPoint(x: v, y: v), with: nil)
            _ = view.convert(CGPoint(x: v, y: v), to: nil)
        }
        view.transform = .identity
        view.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(view.frame == CGRect(x: 0, y: 0, width: 10, height: 10))
    }

    @Test("Animations with hostile durations and delays end")
    func animations() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let w = window(holding: view)
        _ = w.snapshotImage()
        for v in Self.hostile {
            UIView.animate(withDuration: Double(v), delay: Double(v), options: [], animations: { view.alpha = 0.5 })
            UIView.animate(
                withDuration: Double(v), delay: 0, usingSpringWithDamping: v, initialSpringVelocity: v, options: [],
                animations: { view.alpha = 1 })
            w.advance(by: 1.0 / 60)
        }
        #expect(view.alpha == 1)
    }

    @Test("Scroll views and tables hold hostile sizes, offsets, counts and heights")
    func scrollingAndTables() throws {
        let scroll = UIScrollView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let w = window(holding: scroll)
        for v in Self.hostile {
            scroll.contentSize = CGSize(width: v, height: v)
            scroll.contentOffset = CGPoint(x: v, y: v)
            scroll.setContentOffset(CGPoint(x: v, y: v), animated: true)
            scroll.contentInset = UIEdgeInsets(top: v, left: v, bottom: v, right: v)
            w.advance(by: 1.0 / 60)
            #expect(scroll.contentOffset.x.isFinite && scroll.contentOffset.y.isFinite)
        }
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 50, height: 50), style: .plain)
        let rows = HostileRows()
        table.dataSource = rows
        table.delegate = rows
        w.addSubview(table)
        table.reloadData()
        #expect(table.numberOfRows(inSection: 0) == 0)
        rows.count = 100
        for v in Self.hostile {
            rows.height = v
            table.rowHeight = v
            table.estimatedRowHeight = v
            table.reloadData()
            #expect(table.contentSize.height.isFinite && table.contentSize.height >= 0)
            table.scrollToRow(at: IndexPath(row: 1_000, section: 3), at: .middle, animated: false)
            _ = table.indexPathForRow(at: CGPoint(x: v, y: v))
            _ = table.indexPathsForRows(in: CGRect(x: v, y: v, width: v, height: v))
            _ = w.snapshotImage()
        }
    }

    @Test("Fonts, labels, paths and string drawing take hostile sizes")
    func textAndPaths() {
        for v in Self.hostile {
            let font = UIFont.systemFont(ofSize: v)
            #expect(font.pointSize.isFinite && font.pointSize > 0)
            let label = UILabel(frame: CGRect(x: 0, y: 0, width: v, height: v))
            label.font = font
            label.numberOfLines = Int(exactly: v.isFinite && abs(v) < 1e9 ? v : 0) ?? 0
            label.text = "Hostile"
            label.sizeToFit()
            #expect(label.frame.width.isFinite)
            _ = "Hostile".size(withAttributes: [.font: font, .kern: v])
            _ = "Hostile".boundingRect(
                with: CGSize(width: v, height: v), options: .usesLineFragmentOrigin, attributes: [.font: font], context: nil)
            let path = UIBezierPath(arcCenter: CGPoint(x: v, y: v), radius: v, startAngle: v, endAngle: -v, clockwise: true)
            path.append(UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: v, height: v), cornerRadius: v))
            path.lineWidth = v
            _ = UIGraphicsImageRenderer(size: CGSize(width: 20, height: 20)).image { _ in
                path.fill()
                path.stroke()
                "x".draw(in: CGRect(x: v, y: v, width: v, height: v), withAttributes: [.font: font])
            }
            _ = UIColor(red: v, green: v, blue: v, alpha: v).withAlphaComponent(v)
        }
    }

    @Test("A long text lays out in bounded time")
    func longText() {
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 300, height: 0))
        label.numberOfLines = 0
        label.text = String(repeating: "word ", count: 40_000)
        let start = Date()
        let size = label.sizeThatFits(CGSize(width: 300, height: 0))
        #expect(size.height > 1_000 && size.height.isFinite)
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test("Images from truncated and oversized files are nil, not crashes")
    func files() throws {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 8, height: 8)).image { _ in UIRectFill(CGRect(x: 0, y: 0, width: 8, height: 8)) }
        let png = try #require(image.pngData())
        // Cut before the pixels are all there: nil.
        for cut in [0, 8, 20, png.count / 2, png.count - 20] {
            #expect(UIImage(data: png.prefix(cut)) == nil, "cut at \(cut) of \(png.count)")
        }
        // Cut in the closing IEND chunk, which the pixels do not need: the
        // picture, as Strata's PNG reader documents.
        #expect(UIImage(data: png.prefix(png.count - 1))?.size == CGSize(width: 8, height: 8))
        // A PNG header claiming 100,000 × 100,000 pixels.
        var huge = [UInt8](png.prefix(33))
        huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(UIImage(data: Data(huge)) == nil)
        #expect(UIImage(data: Data()) == nil)
    }
}
