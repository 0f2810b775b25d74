// The asynchronously drawn label of the fourth seed article (XXXLabel,
// ../shared/seeds/003), ported from Objective-C line by line: the text is
// set by Core Text into a bitmap context on a background queue of a
// quality-of-service queue pool, its CTFrame cached by text, and the image
// handed to an image view on the main queue. The article's MD5 of the text
// is the text itself as the cache key here (Foundation on Linux has no MD5).
import UIKit

/// The article's queue pool: serial queues per quality of service, as many
/// as there are processors, handed out in turn (YYKit's
/// YYDispatchQueuePool, which the article builds on).
final class XZHDispatchQueuePool: Sendable {
    static let background = XZHDispatchQueuePool(name: "xzh.background", qos: .background)
    static let userInitiated = XZHDispatchQueuePool(name: "xzh.userInitiated", qos: .userInitiated)

    private let queues: [DispatchQueue]
    private let counter = Counter()

    init(name: String, qos: DispatchQoS) {
        let count = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 32))
        queues = (0..<count).map { DispatchQueue(label: "\(name).\($0)", qos: qos) }
    }

    var queue: DispatchQueue { queues[counter.next() % queues.count] }

    /// A counter many threads may take numbers from.
    final class Counter: @unchecked Sendable {
        // @unchecked: `value` is only read and written under `lock`.
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value &+= 1
            return value & Int.max
        }
    }
}

func XZHDispatchQueueAsyncBlockWithQOSBackgroud(_ block: @escaping @Sendable () -> Void) {
    XZHDispatchQueuePool.background.queue.async(execute: block)
}

/// The CTFrame cache (the article's CTFrameForKey / CacheCTFrameWithKey).
nonisolated(unsafe) let ctFrameCache: NSCache<NSString, CTFrame> = {
    // nonisolated(unsafe): NSCache is thread-safe, as on Apple's systems.
    let cache = NSCache<NSString, CTFrame>()
    cache.countLimit = 500
    return cache
}()

func CTFrameForKey(_ key: String) -> CTFrame? { ctFrameCache.object(forKey: key as NSString) }
func CacheCTFrameWithKey(_ frame: CTFrame, _ key: String) { ctFrameCache.setObject(frame, forKey: key as NSString) }

func CTTextAlignmentFromUITextAlignment(_ alignment: NSTextAlignment) -> CTTextAlignment {
    switch alignment {
    case .left: .left
    case .center: .center
    case .right: .right
    case .justified: .justified
    case .natural: .natural
    }
}

final class XXXLabel: UIView {
    var text = ""
    var font = UIFont.systemFont(ofSize: 15)
    var textColor = UIColor.black
    var lineSpace: CGFloat = 4
    var textAlignment = NSTextAlignment.left
    let labelImageView = UIImageView()
    /// Where the runs in another colour than the text's (mentions, topics) are.
    var clickRangeFramesDict: [String: CGRect] = [:]
    /// Bumped by `clear()`: an image drawn for older text is dropped.
    private var sentinel = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        labelImageView.frame = bounds
        addSubview(labelImageView)
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }

    func clear() {
        sentinel += 1
        labelImageView.image = nil
    }

    func asyncDraw() {
        // All of the picture is made on a background thread.
        let size = CGSize(width: frame.size.width, height: frame.size.height + 10)
        let backgroundColor = self.backgroundColor ?? .clear
        let opaque = backgroundColor != .clear
        let text = self.text, font = self.font, textColor = self.textColor, lineSpace = self.lineSpace
        let alignment = CTTextAlignmentFromUITextAlignment(textAlignment)
        let expected = sentinel
        XZHDispatchQueueAsyncBlockWithQOSBackgroud { [weak self] in
            UIGraphicsBeginImageContextWithOptions(size, opaque, 0)
            guard let context = UIGraphicsGetCurrentContext() else { return }
            if opaque {
                backgroundColor.set()
                context.fill(CGRect(x: 0, y: 0, width: size.width, height: size.height))
            }
            context.textMatrix = .identity
            context.translateBy(x: 0, y: size.height)
            context.scaleBy(x: 1.0, y: -1.0)
            let rect = CGRect(x: 0, y: 5, width: size.width, height: size.height - 5)
            var runRects: [String: CGRect] = [:]
            if let ctFrame = CTFrameForKey(text) {
                XXXLabel.draw(ctFrame, inRect: rect, context: context, font: font, textColor: textColor, height: size.height, runRects: &runRects)
            } else {
                var minimumLineHeight = font.pointSize, maximumLineHeight = minimumLineHeight, linespace = lineSpace
                let ctFont = CTFontCreateWithName(font.fontName as CFString, font.pointSize, nil)
                var lineBreakMode = CTLineBreakMode.byWordWrapping
                var alignment = alignment
                let style = withUnsafePointer(to: &alignment) { a in
                    withUnsafePointer(to: &minimumLineHeight) { minH in
                        withUnsafePointer(to: &maximumLineHeight) { maxH in
                            withUnsafePointer(to: &linespace) { space in
                                withUnsafePointer(to: &lineBreakMode) { mode in
                                    let settings = [
                                        CTParagraphStyleSetting(spec: .alignment, valueSize: MemoryLayout<CTTextAlignment>.size, value: a),
                                        CTParagraphStyleSetting(spec: .minimumLineHeight, valueSize: MemoryLayout<CGFloat>.size, value: minH),
                                        CTParagraphStyleSetting(spec: .maximumLineHeight, valueSize: MemoryLayout<CGFloat>.size, value: maxH),
                                        CTParagraphStyleSetting(spec: .maximumLineSpacing, valueSize: MemoryLayout<CGFloat>.size, value: space),
                                        CTParagraphStyleSetting(spec: .minimumLineSpacing, valueSize: MemoryLayout<CGFloat>.size, value: space),
                                        CTParagraphStyleSetting(spec: .lineBreakMode, valueSize: MemoryLayout<CTLineBreakMode>.size, value: mode),
                                    ]
                                    return CTParagraphStyleCreate(settings, settings.count)
                                }
                            }
                        }
                    }
                }
                let attributes: [NSAttributedString.Key: Any] = [
                    NSAttributedString.Key(kCTFontAttributeName as String): ctFont,
                    NSAttributedString.Key(kCTForegroundColorAttributeName as String): textColor.cgColor,
                    NSAttributedString.Key(kCTParagraphStyleAttributeName as String): style,
                ]
                let attributedStr = NSMutableAttributedString(string: text, attributes: attributes)
                let attributedString = XXXLabel.highlightText(attributedStr)
                let framesetter = CTFramesetterCreateWithAttributedString(attributedString)
                let path = CGMutablePath()
                path.addRect(rect)
                let ctFrame = CTFramesetterCreateFrame(framesetter, CFRangeMake(0, (text as NSString).length), path, nil)
                CacheCTFrameWithKey(ctFrame, text)
                XXXLabel.draw(ctFrame, inRect: rect, context: context, font: font, textColor: textColor, height: size.height, runRects: &runRects)
            }
            let screenShotImage = UIGraphicsGetImageFromCurrentImageContext()
            UIGraphicsEndImageContext()
            let rects = runRects
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self, self.sentinel == expected, let image = screenShotImage else { return }
                    if self.labelImageView.frame.size != image.size {
                        self.labelImageView.frame.size = image.size
                    }
                    self.labelImageView.image = nil
                    self.labelImageView.image = image
                    self.clickRangeFramesDict = rects
                }
            }
        }
    }

    /// Colours the mentions (@…) and topics (#…#) blue, as the article's
    /// `highlightText:` does.
    nonisolated static func highlightText(_ string: NSMutableAttributedString) -> NSAttributedString {
        let text = string.string as NSString
        let blue = UIColor(red: 0.2, green: 0.4, blue: 0.75, alpha: 1).cgColor
        for pattern in ["@[\\w\\-]+", "#[^#]+#"] {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            for match in regex.matches(in: string.string, range: NSRange(location: 0, length: text.length)) {
                string.addAttribute(NSAttributedString.Key(kCTForegroundColorAttributeName as String), value: blue, range: match.range)
            }
        }
        return string
    }

    nonisolated static func draw(
        _ frame: CTFrame, inRect rect: CGRect, context ctx: CGContext, font: UIFont, textColor: UIColor, height: CGFloat,
        runRects: inout [String: CGRect]
    ) {
        let lines = CTFrameGetLines(frame) as! [CTLine]
        let numberOfLines = lines.count
        var lineOrigins = [CGPoint](repeating: .zero, count: numberOfLines)
        CTFrameGetLineOrigins(frame, CFRangeMake(0, numberOfLines), &lineOrigins)
        for lineIndex in 0..<numberOfLines {
            var lineOrigin = lineOrigins[lineIndex]
            lineOrigin = CGPoint(x: lineOrigin.x.rounded(.up), y: lineOrigin.y.rounded(.up))
            ctx.textPosition = CGPoint(x: lineOrigin.x, y: lineOrigin.y)
            let line = lines[lineIndex]
            var descent: CGFloat = 0.0
            var ascent: CGFloat = 0.0
            var lineLeading: CGFloat = 0
            _ = CTLineGetTypographicBounds(line, &ascent, &descent, &lineLeading)
            let flushFactor = CGFloat(NSTextAlignment.left.rawValue)
            let penOffset = CGFloat(CTLineGetPenOffsetForFlush(line, flushFactor, Double(rect.size.width)))
            let y = lineOrigin.y - descent - font.descender
            ctx.textPosition = CGPoint(x: penOffset, y: y)
            CTLineDraw(line, ctx)
            let runs = CTLineGetGlyphRuns(line) as! [CTRun]
            for run in runs {
                var runAscent: CGFloat = 0
                var runDescent: CGFloat = 0
                let attributes = CTRunGetAttributes(run) as! [String: Any]
                let color = attributes["CTForegroundColor"].flatMap { $0 as? CGColor }
                if !CGColorEqualToColor(color, textColor.cgColor) {
                    let range = CTRunGetStringRange(run)
                    let width = CGFloat(CTRunGetTypographicBounds(run, CFRangeMake(0, 0), &runAscent, &runDescent, nil))
                    let offset = CTLineGetOffsetForStringIndex(line, range.location, nil)
                    let runRect = CGRect(x: lineOrigin.x + offset, y: height - y - runAscent + runDescent / 2, width: width, height: runAscent)
                    runRects[NSStringFromRange(NSRange(location: range.location, length: range.length))] = runRect
                }
            }
        }
    }
}
