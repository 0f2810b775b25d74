// A feed of a thousand posts in a window (Wayland or X11): each row's text is laid out
// once, and its cell drawn on the queue pool, so scrolling and flinging stay
// at the display's rate.
// swift run --package-path Examples Feed
import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataText
import StrataWindow

/// A post's cell: draws the laid-out text it is given, off the main thread.
final class PostCell: ListCell {
    var text: TextLayout?

    override func makeDisplayTask(for row: Int, size: Size) -> AsyncDisplayTask {
        let text = self.text
        return AsyncDisplayTask { canvas, size, _ in
            canvas.fillColor = .white
            canvas.fill(Rect(x: 0, y: 0, width: size.width, height: size.height - 1))
            if let text { canvas.draw(text, at: Point(x: 16, y: 12)) }
        }
    }
}

/// The posts, each laid out when first asked for and kept: the list's data
/// source (rows and cells) and its delegate (heights), as a table view's.
@MainActor
final class Posts: ListViewDataSource, ListViewDelegate {
    let width: Double
    private var layouts: [Int: TextLayout] = [:]

    init(width: Double) { self.width = width }

    func layout(_ row: Int) -> TextLayout {
        if let known = layouts[row] { return known }
        var text = AttributedText("Post \(row + 1)\n", attributes: TextAttributes(font: Font(size: 15, weight: .bold)))
        let words = (0..<(8 + row * 7 % 40)).map { ["lorem", "ipsum", "dolor", "sit", "amet", "Strata"][($0 + row) % 6] }
        text.append(words.joined(separator: " "), attributes: TextAttributes(font: Font(size: 14)))
        let layout = TextLayout(text, width: width - 32)
        layouts[row] = layout
        return layout
    }

    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { 1_000 }
    func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double { layout(indexPath.row).size.height + 24 }
    func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
        let cell = listView.dequeueReusableCell(withIdentifier: "post", for: indexPath)
        (cell as? PostCell)?.text = layout(indexPath.row)
        return cell
    }
}

MainActor.assumeIsolated {
    do {
        let size = Size(width: 360, height: 640)
        let window = try Window(title: "Feed", size: size)
        let list = ListView(frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        list.contentsScale = window.scale
        list.backgroundColor = Color(white: 0.93)
        list.register({ PostCell(reuseIdentifier: "post") }, forCellReuseIdentifier: "post")
        let posts = Posts(width: size.width)
        list.dataSource = posts
        list.delegate = posts
        list.reloadData()
        window.rootView = list
        window.run()
        _ = posts  // The list holds its data source and delegate weakly.
    } catch {
        // No display, say: a message, not a crash.
        print("Feed: \(error)")
        exit(1)
    }
}
