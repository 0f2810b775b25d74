import Foundation
import StrataControls
import StrataLayers
import StrataText

/// One post of the demo feed.
public struct FeedPost: Sendable, Hashable {
    public var id: Int
    public var author: String
    public var handle: String
    public var minutesAgo: Int
    public var text: String
    /// Seeds of the post's pictures (0 to 9 of them), drawn procedurally.
    public var pictures: [UInt64]
    public var reposts: Int
    public var comments: Int
    public var likes: Int
}

/// A deterministic feed of any length: the same index gives the same post,
/// on any machine, with no network and no files. Text mixes Chinese and
/// English of varied length with mentions, topics, links and emoticon codes.
public struct FeedGenerator: Sendable {
    public let seed: UInt64

    public init(seed: UInt64 = 2026) { self.seed = seed }

    static let names = [
        ("林晓", "lin_xiao"), ("Ada Chen", "adachen"), ("王小明", "xiaoming"), ("Sam Ortiz", "sortiz"), ("陈一凡", "yifan"),
        ("Priya N.", "priya_n"), ("张伟", "zhangwei"), ("Mika", "mika_k"), ("赵敏", "zhaomin"), ("Strata", "strata_dev"),
    ]
    static let phrases = [
        "列表滚动时保持每秒六十帧", "the main thread stays free", "文字排版的结果会被缓存", "cells draw on background queues",
        "快速滑动时跳过中间的行", "a sentinel cancels stale work", "图片在后台解码和缩放", "nothing blank at rest",
        "今天的咖啡特别好喝", "shipping the feed list today", "测量在先，决定在后", "profiles beat guesses",
        "新的采样点只重画一块图层", "the ruler recycles five blocks", "周末去爬山吧", "look at what you make",
    ]

    /// A 64-bit mix of the seed and `n` (SplitMix64's finaliser).
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public func post(at index: Int) -> FeedPost {
        var state = FeedGenerator.mix(seed ^ UInt64(truncatingIfNeeded: index) &* 0x2545_F491_4F6C_DD1D)
        func next(_ n: Int) -> Int {
            state = FeedGenerator.mix(state)
            return Int(state % UInt64(max(1, n)))
        }
        let (author, handle) = FeedGenerator.names[next(FeedGenerator.names.count)]
        var text = ""
        let sentences = 1 + next(5)
        for s in 0..<sentences {
            if s > 0 { text += next(2) == 0 ? "，" : ". " }
            text += FeedGenerator.phrases[next(FeedGenerator.phrases.count)]
            switch next(9) {
            case 0: text += " @\(FeedGenerator.names[next(FeedGenerator.names.count)].1)"
            case 1: text += " #流畅界面#"
            case 2: text += " https://example.org/strata/\(next(1000))"
            case 3: text += " [" + ["smile", "laugh", "heart", "thumbsup", "fire", "party"][next(6)] + "]"
            case 4: text += " #Swift on Linux#"
            default: break
            }
        }
        let pictureCount = [0, 0, 0, 1, 1, 2, 3, 4, 6, 9][next(10)]
        let pictures = (0..<pictureCount).map { _ in FeedGenerator.mix(state &+ UInt64(next(1 << 30))) }
        return FeedPost(
            id: index, author: author, handle: handle, minutesAgo: 1 + next(600), text: text, pictures: pictures,
            reposts: next(500), comments: next(2000), likes: next(20000))
    }
}

/// A post laid out for a width: everything a cell draws, measured on the
/// pool when the data arrives (never on the main actor).
public struct FeedLayout: Sendable {
    public let post: FeedPost
    public let width: Double
    public let height: Double
    public let avatar: Rect
    public let name: TextLayout
    public let nameOrigin: Point
    public let time: TextLayout
    public let timeOrigin: Point
    public let text: TextLayout
    public let textOrigin: Point
    /// Mentions, topics, links and emoticons, by character range of `text`'s string.
    public let entities: [TextEntity]
    public let pictures: [Rect]
    public let counts: [TextLayout]
    public let countOrigins: [Point]

    static let padding = 12.0
    static let fonts = ["WenQuanYi Micro Hei", "Noto Color Emoji"]
    static let linkColor = Color(red: 0.12, green: 0.42, blue: 0.85)

    public init(_ post: FeedPost, width: Double) {
        self.post = post
        self.width = width
        let p = FeedLayout.padding
        let inner = max(40, width - 2 * p)
        avatar = Rect(x: p, y: p, width: 40, height: 40)
        let nameFont = Font(family: "DejaVu Sans", size: 15, weight: .bold, cascadeList: FeedLayout.fonts)
        name = TextLayout(
            AttributedText(post.author, attributes: TextAttributes(font: nameFont, foregroundColor: Color(white: 0.1))),
            width: inner - 52, style: ParagraphStyle(maximumLines: 1, truncation: .tail))
        nameOrigin = Point(x: p + 52, y: p + 1)
        let small = Font(family: "DejaVu Sans", size: 12, cascadeList: FeedLayout.fonts)
        let ago = post.minutesAgo < 60 ? "\(post.minutesAgo) min" : "\(post.minutesAgo / 60) h"
        time = TextLayout(
            AttributedText("@\(post.handle) · \(ago)", attributes: TextAttributes(font: small, foregroundColor: Color(white: 0.55))),
            width: inner - 52, style: ParagraphStyle(maximumLines: 1, truncation: .tail))
        timeOrigin = Point(x: p + 52, y: p + 23)
        // The text, emoticon codes shown as their emoji, entities coloured and linked.
        let body = Font(family: "DejaVu Sans", size: 15, cascadeList: FeedLayout.fonts)
        let plain = TextAttributes(font: body, foregroundColor: Color(white: 0.13))
        let found = TextEntities.find(in: post.text)
        let chars = Array(post.text)
        var attributed = AttributedText()
        var entities: [TextEntity] = []
        var at = 0
        for e in found {
            if e.range.lowerBound > at { attributed.append(String(chars[at..<e.range.lowerBound]), attributes: plain) }
            let start = attributed.count
            let shown = e.kind == .emoticon ? e.payload : String(chars[e.range])
            // The entity as it sits in the shown text (emoticons change length).
            let placed = TextEntity(kind: e.kind, range: start..<(start + shown.count), payload: e.payload)
            var style = plain
            if e.kind != .emoticon {
                style.foregroundColor = FeedLayout.linkColor
                style.link = TextLink(placed)
            }
            attributed.append(shown, attributes: style)
            entities.append(placed)
            at = e.range.upperBound
        }
        if at < chars.count { attributed.append(String(chars[at...]), attributes: plain) }
        // Through the shared cache, keyed by the text (as VVebo caches its
        // frames by the text's hash): a repeated post is laid out once.
        text = LayoutCache.shared.layout(attributed, width: inner, style: ParagraphStyle(lineSpacing: 3))
        self.entities = entities
        textOrigin = Point(x: p, y: p + 52)
        var y = textOrigin.y + text.size.height + 10
        // Pictures: one large, or a grid of two or three columns.
        var frames: [Rect] = []
        let n = post.pictures.count
        if n == 1 {
            frames = [Rect(x: p, y: y, width: min(inner, 240), height: min(inner, 240) * 0.75)]
        } else if n > 1 {
            let columns = n == 2 || n == 4 ? 2 : 3
            let gap = 4.0
            let side = ((min(inner, 300) - gap * Double(columns - 1)) / Double(columns)).rounded(.down)
            for i in 0..<n {
                frames.append(Rect(x: p + Double(i % columns) * (side + gap), y: y + Double(i / columns) * (side + gap), width: side, height: side))
            }
        }
        pictures = frames
        if let last = frames.last { y = last.maxY + 10 }
        // Counts.
        let labels = ["↻ \(post.reposts)", "💬 \(post.comments)", "♥ \(post.likes)"]
        counts = labels.map {
            TextLayout(AttributedText($0, attributes: TextAttributes(font: small, foregroundColor: Color(white: 0.45))), width: inner / 3)
        }
        countOrigins = (0..<3).map { Point(x: p + Double($0) * inner / 3, y: y) }
        height = (y + 16 + p + 8).rounded(.up)
    }

    /// Where the placeholder shows grey blocks: the avatar, the name, a block
    /// per text line, the pictures.
    public var placeholderBlocks: [Rect] {
        var blocks = [avatar, Rect(x: nameOrigin.x, y: nameOrigin.y + 2, width: min(120, name.size.width), height: 12)]
        for line in text.lines {
            blocks.append(
                Rect(x: textOrigin.x, y: textOrigin.y + line.origin.y - line.ascent, width: max(8, line.width), height: line.ascent + line.descent))
        }
        return blocks + pictures
    }

    /// The entity at a point in the cell, if any.
    public func entity(at point: Point) -> TextEntity? {
        guard let link = text.link(at: Point(x: point.x - textOrigin.x, y: point.y - textOrigin.y)) else { return nil }
        return link.payload as? TextEntity
    }
}

/// The feed's pictures and avatars, prepared off the main actor the way an
/// app prepares downloaded images:
///
/// 1. **Sources.** What a server would send: a JPEG of a 480 × 360 photo
///    (avatars 160 × 160), drawn procedurally for its seed and encoded once;
///    kept in a bounded cache of bytes (`sources`, 8 MB, an app's URL cache).
/// 2. **Prepared images.** The source decoded, scaled to the size shown
///    (aspect fill), its corners rounded (avatars round) and a soft shadow
///    drawn around it, in one image per seed and size (`cache`, 24 MB), so
///    a cell's drawing only copies it.
///
/// Every step runs on the thread that asks (the cells' drawing pool).
public enum FeedImages {
    struct Key: Hashable, Sendable {
        var seed: UInt64
        var width: Int
        var height: Int
        var round: Bool
        var margin: Int
    }
    struct SourceKey: Hashable, Sendable {
        var seed: UInt64
        var round: Bool
    }
    /// Encoded sources by seed.
    static let sources = BoundedCache<SourceKey, [UInt8]>(maximumEntries: 1024, maximumBytes: sourceByteLimit)
    /// Prepared images by seed and size.
    static let cache = BoundedCache<Key, Image>(maximumEntries: 256, maximumBytes: imageByteLimit)

    /// The caches' use now: encoded sources and prepared images.
    public static var usage: (sourceBytes: Int, imageBytes: Int) { (sources.usage.bytes, cache.usage.bytes) }
    /// The caches' bounds in bytes.
    public static let sourceByteLimit = 8 << 20
    public static let imageByteLimit = 24 << 20

    /// The picture for `seed`, `width` × `height` pixels, with `margin`
    /// pixels around it for its shadow (the image is that much larger on
    /// every side; 0: no shadow). Nil for sizes of 0 or over 4096.
    public static func picture(seed: UInt64, width: Int, height: Int, margin: Int = 0) -> Image? {
        image(Key(seed: seed, width: width, height: height, round: false, margin: margin))
    }

    /// A round avatar for `seed`, `side` pixels across, with `margin` pixels for its shadow.
    public static func avatar(seed: UInt64, side: Int, margin: Int = 0) -> Image? {
        image(Key(seed: seed, width: side, height: side, round: true, margin: margin))
    }

    /// A colour from hue, saturation and brightness (0…1 each).
    static func hsb(_ h: Double, _ s: Double, _ v: Double, alpha: Double = 1) -> Color {
        let i = Int(h * 6) % 6, f = h * 6 - Double(Int(h * 6))
        let p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s)
        let (r, g, b): (Double, Double, Double) = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
        return Color(red: r, green: g, blue: b, alpha: alpha)
    }

    /// The encoded source for `key`: a photo as the server sends it.
    static func source(_ key: SourceKey) -> [UInt8]? {
        if let hit = sources.value(for: key) { return hit }
        let (width, height) = key.round ? (160, 160) : (480, 360)
        guard let canvas = try? Canvas(width: width, height: height) else { return nil }
        let w = Double(width), h = Double(height)
        var s = key.seed
        func rnd() -> Double {
            s = FeedGenerator.mix(s)
            return Double(s % 10_000) / 10_000
        }
        let hue = rnd()
        let top = hsb(hue, 0.45, 0.95), bottom = hsb((hue + 0.15).truncatingRemainder(dividingBy: 1), 0.6, 0.7)
        canvas.drawLinearGradient(Gradient(colors: [top, bottom]), start: Point(x: 0, y: 0), end: Point(x: 0, y: h))
        if key.round {
            canvas.fillColor = Color(white: 1, alpha: 0.85)
            canvas.fillEllipse(in: Rect(x: w * 0.3, y: h * 0.18, width: w * 0.4, height: w * 0.4))
            canvas.fillEllipse(in: Rect(x: w * 0.12, y: h * 0.62, width: w * 0.76, height: h * 0.6))
        } else {
            canvas.fillColor = Color(red: 1, green: 0.95, blue: 0.7, alpha: 0.9)
            canvas.fillEllipse(in: Rect(x: w * (0.1 + 0.6 * rnd()), y: h * 0.12, width: w * 0.16, height: w * 0.16))
            for layer in 0..<2 {
                var hills = Path()
                hills.move(to: Point(x: 0, y: h))
                var x = 0.0
                while x <= w {
                    hills.addLine(to: Point(x: x, y: h * (0.45 + 0.15 * Double(layer) + 0.2 * rnd())))
                    x += w / 5
                }
                hills.addLine(to: Point(x: w, y: h))
                hills.closeSubpath()
                canvas.fillColor = hsb((hue + 0.4).truncatingRemainder(dividingBy: 1), 0.5, 0.45 + 0.2 * Double(layer), alpha: 0.9)
                canvas.fill(hills)
            }
        }
        guard let bytes = try? canvas.makeImage().jpegData(quality: 0.85) else { return nil }
        sources.insert(bytes, for: key, bytes: bytes.count)
        return bytes
    }

    static func image(_ key: Key) -> Image? {
        guard key.width > 0, key.height > 0, key.width <= 4096, key.height <= 4096, key.margin >= 0, key.margin <= 256 else {
            return nil
        }
        if let hit = cache.value(for: key) { return hit }
        guard let bytes = source(SourceKey(seed: key.seed, round: key.round)), let photo = try? Image(jpegData: bytes),
            let canvas = try? Canvas(width: key.width + 2 * key.margin, height: key.height + 2 * key.margin)
        else { return nil }
        let m = Double(key.margin), w = Double(key.width), h = Double(key.height)
        let frame = Rect(x: m, y: m, width: w, height: h)
        let shape = key.round ? Path(ellipseIn: frame) : Path(roundedRect: frame, cornerWidth: w * 0.04, cornerHeight: w * 0.04)
        if key.margin > 0 {
            // A soft shadow, a little below: the shape filled under it.
            canvas.saveGState()
            canvas.setShadow(offset: Size(width: 0, height: m / 3), blur: m * 2 / 3, color: Color(white: 0, alpha: 0.3))
            canvas.fillColor = .white
            canvas.fill(shape)
            canvas.restoreGState()
        }
        canvas.saveGState()
        canvas.clip(to: shape)
        // Scaled to fill the frame, centred, cropping the longer side.
        let pw = Double(photo.width), ph = Double(photo.height)
        let k = max(w / pw, h / ph)
        canvas.draw(photo, in: Rect(x: m + (w - pw * k) / 2, y: m + (h - ph * k) / 2, width: pw * k, height: ph * k))
        canvas.restoreGState()
        let image = canvas.makeImage()
        cache.insert(image, for: key, bytes: image.pixels.count)
        return image
    }
}

/// The demo's cell: draws a `FeedLayout` into one image on the pool, with a
/// pressed entity highlighted.
@MainActor
public final class FeedCell: ListCell {
    public static let identifier = "post"
    weak var feed: FeedController?
    /// The entity under a pressed pointer, highlighted until release.
    public private(set) var highlighted: TextEntity?

    public init() {
        super.init(reuseIdentifier: FeedCell.identifier)
        backgroundColor = .white
    }

    var layoutForRow: FeedLayout? { row.flatMap { feed?.store.layout($0) } }

    public override func placeholderBlocks() -> [Rect] { layoutForRow?.placeholderBlocks ?? [] }

    public override var canDrawContents: Bool { layoutForRow != nil }

    public override func shouldSelect(at point: Point) -> Bool { layoutForRow?.entity(at: point) == nil }

    /// A pointing hand over a link, mention or topic (what a tap opens).
    public override func cursor(at point: Point) -> Cursor? { layoutForRow?.entity(at: point) != nil ? .pointingHand : nil }

    public override func prepareForReuse() {
        highlighted = nil
    }

    /// The post as a screen reader reads it: "Lin Wei, 5 minutes ago:
    /// text. 3 pictures. 12 reposts, 4 comments, 56 likes." Worked out
    /// only when an assistive tool asks, from the layout already made.
    public override var accessibilityLabel: String? {
        get {
            if let set = super.accessibilityLabel { return set }
            guard let post = layoutForRow?.post else { return nil }
            let age = post.minutesAgo < 60 ? "\(post.minutesAgo) minutes ago" : "\(post.minutesAgo / 60) hours ago"
            var text = "\(post.author), \(age): \(post.text)"
            if !post.pictures.isEmpty { text += post.pictures.count == 1 ? ". 1 picture" : ". \(post.pictures.count) pictures" }
            return text + ". \(post.reposts) reposts, \(post.comments) comments, \(post.likes) likes."
        }
        set { super.accessibilityLabel = newValue }
    }

    public override func makeDisplayTask(for row: Int, size: Size) -> AsyncDisplayTask {
        let layout = feed?.store.layout(row)
        let highlight = highlighted
        let scale = layer.contentsScale
        return AsyncDisplayTask(display: { canvas, size, isCancelled in
            guard let layout else { return }
            FeedCell.draw(layout, highlight: highlight, in: canvas, size: size, scale: scale, isCancelled: isCancelled)
        })
    }

    /// Draws a post (any thread).
    public nonisolated static func draw(
        _ l: FeedLayout, highlight: TextEntity?, in canvas: Canvas, size: Size, scale: Double, isCancelled: () -> Bool = { false }
    ) {
        canvas.fillColor = .white
        canvas.fill(Rect(x: 0, y: 0, width: size.width, height: size.height))
        // Prepared images carry a shadow in a margin of 3 points (whole pixels).
        let margin = (3 * scale).rounded(), m = margin / scale
        func pixels(_ v: Double) -> Int { Int((v * scale).rounded()) }
        let avatarSeed = UInt64(l.post.handle.utf8.reduce(7) { $0 &* 31 &+ Int($1) })
        if let a = FeedImages.avatar(seed: avatarSeed, side: pixels(l.avatar.width), margin: Int(margin)) {
            canvas.draw(a, in: l.avatar.insetBy(dx: -m, dy: -m))
        }
        canvas.draw(l.name, at: l.nameOrigin)
        canvas.draw(l.time, at: l.timeOrigin)
        l.name.removeComposedLines()
        l.time.removeComposedLines()
        if isCancelled() { return }
        if let h = highlight {
            canvas.fillColor = Color(red: 0.8, green: 0.88, blue: 1)
            for r in l.text.rects(forCharacters: h.range) {
                canvas.fill(
                    Path(roundedRect: r.offsetBy(dx: l.textOrigin.x, dy: l.textOrigin.y).insetBy(dx: -2, dy: 0), cornerWidth: 3, cornerHeight: 3))
            }
        }
        canvas.draw(l.text, at: l.textOrigin)
        // The cell keeps the image; the layout need not keep its composed masks too.
        l.text.removeComposedLines()
        for (seed, frame) in zip(l.post.pictures, l.pictures) {
            if isCancelled() { return }
            if let image = FeedImages.picture(seed: seed, width: pixels(frame.width), height: pixels(frame.height), margin: Int(margin)) {
                canvas.draw(image, in: frame.insetBy(dx: -m, dy: -m))
            }
        }
        for (count, origin) in zip(l.counts, l.countOrigins) {
            canvas.draw(count, at: origin)
            count.removeComposedLines()
        }
        canvas.fillColor = Color(white: 0.93)
        canvas.fill(Rect(x: 0, y: size.height - 8, width: size.width, height: 8))
    }

    public override func pointerEvent(_ event: PointerEvent) -> Bool {
        guard let l = layoutForRow else { return false }
        let p = convert(event.location, from: nil)
        switch event.phase {
        case .down:
            guard let e = l.entity(at: p) else { return false }
            setHighlight(e)
            return true
        case .moved:
            return highlighted != nil
        case .up:
            guard let h = highlighted else { return false }
            setHighlight(nil)
            if l.entity(at: p) == h, let row { feed?.tapped(h, row: row) }
            return true
        case .cancelled:
            setHighlight(nil)
            return true
        }
    }

    private func setHighlight(_ e: TextEntity?) {
        guard e != highlighted else { return }
        highlighted = e
        // Redrawn on the pool like the rest; the old drawing shows meanwhile.
        setNeedsRedraw()
    }
}

/// The demo feed's data source and delegate: posts from a `FeedGenerator`,
/// layouts in a `RowLayoutStore`, taps on entities reported.
@MainActor
public final class FeedController: ListViewDataSource, ListViewDelegate, ListViewDataSourcePrefetching {
    public let generator: FeedGenerator
    public let store: RowLayoutStore<FeedLayout>
    public weak var listView: ListView?
    /// Entities tapped, in order (what a real app would open).
    public private(set) var taps: [(row: Int, entity: TextEntity)] = []
    public var onTap: ((Int, TextEntity) -> Void)?
    public private(set) var selectedRows: [Int] = []

    public init(posts: Int, width: Double, generator: FeedGenerator = FeedGenerator()) {
        self.generator = generator
        store = RowLayoutStore(
            count: posts, width: width, estimatedHeight: 180,
            make: { row, width in FeedLayout(generator.post(at: row), width: width) }, height: { $0.height })
    }

    /// Whether cells made from now on draw at once, on the main actor,
    /// instead of on the pool: a picture then depends on the frames alone,
    /// never on how fast the pool was (the gallery's mid-fling picture and
    /// its reference test).
    public var drawsCellsSynchronously = false

    /// Attaches to a list and starts laying out, the first screen first.
    public func attach(to list: ListView) {
        listView = list
        if list.accessibilityLabel == nil { list.accessibilityLabel = "Feed" }
        list.dataSource = self
        list.delegate = self
        list.prefetchDataSource = self
        list.register(
            { [weak self] in
                let cell = FeedCell()
                cell.feed = self
                cell.contentLayer.displaysAsynchronously = !(self?.drawsCellsSynchronously ?? false)
                return cell
            }, forCellReuseIdentifier: FeedCell.identifier)
        store.onBatch = { [weak list] _, heightsChanged in
            // Heights changed: keep the visible rows still; else cells that
            // waited for their layouts draw.
            if heightsChanged {
                list?.performBatchUpdates(nil)
            } else {
                list?.layoutRows()
            }
        }
        store.setWindow(0..<FeedController.windowRows)
        list.reloadData()
        store.load(first: 0..<12)
    }

    /// Layouts are kept for the rows this far around the visible ones.
    public static let windowRows = 48

    /// Keeps layouts around the visible rows, and computes those of `rows`.
    func prepare(_ rows: [Int]) {
        guard let list = listView else { return }
        let v = list.visibleRows
        let skip = list.skippingRange ?? v
        let lower = Swift.min(v.lowerBound, skip.lowerBound) - FeedController.windowRows / 2
        let upper = Swift.max(v.upperBound, skip.upperBound) + FeedController.windowRows / 2
        store.setWindow(lower..<upper)
        store.ensure(rows + Array(v))
    }

    public func listView(_ listView: ListView, prefetchRowsAt indexPaths: [IndexPath]) { prepare(indexPaths.map(post)) }

    /// Lays the posts out again for a new list width, in the background, the
    /// visible rows first; cells keep their drawings until their new layouts
    /// have landed and they have redrawn.
    public func setWidth(_ width: Double) {
        guard let list = listView else { return }
        store.setWidth(width, first: list.visibleRows)
    }
    public func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {
        if store.layout(post(indexPath)) == nil { prepare([post(indexPath)]) }
    }

    /// Posts a day: with more than 0, the feed has a section a day, each
    /// under a header ("Today", "Yesterday", "3 days ago") that stays at the
    /// top while its posts pass. Default 0: one section, no headers. Set it
    /// before the list loads, or reload the list after.
    public var postsPerDay = 0

    public func numberOfSections(in listView: ListView) -> Int {
        postsPerDay > 0 ? (store.count + postsPerDay - 1) / postsPerDay : 1
    }
    public func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int {
        postsPerDay > 0 ? Swift.max(0, Swift.min(postsPerDay, store.count - section * postsPerDay)) : store.count
    }

    /// The post a row shows: its index through all the days.
    public func post(_ indexPath: IndexPath) -> Int { postsPerDay > 0 ? indexPath.section * postsPerDay + indexPath.row : indexPath.row }
    public func listView(_ listView: ListView, heightForHeaderInSection section: Int) -> Double { postsPerDay > 0 ? 30 : 0 }
    public func listView(_ listView: ListView, viewForHeaderInSection section: Int) -> View? {
        guard postsPerDay > 0 else { return nil }
        let header = View()
        header.backgroundColor = Color(white: 0.97, alpha: 0.94)
        let title = TextLayer()
        title.string = section == 0 ? "Today" : section == 1 ? "Yesterday" : "\(section) days ago"
        title.fontSize = 13
        title.foregroundColor = Color(white: 0.35)
        title.anchorPoint = .zero
        title.frame = Rect(x: 12, y: 8, width: 300, height: 18)
        header.layer.addSublayer(title)
        return header
    }

    public func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double { store.height(post(indexPath)) }
    public func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
        let cell = listView.dequeueReusableCell(withIdentifier: FeedCell.identifier, for: indexPath)
        (cell as? FeedCell)?.feed = self
        return cell
    }
    public func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { selectedRows.append(post(indexPath)) }

    func tapped(_ entity: TextEntity, row: Int) {
        taps.append((row, entity))
        onTap?(row, entity)
    }
}
