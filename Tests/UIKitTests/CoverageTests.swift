import Foundation
import StrataTestSupport
import Testing
import UIKit

// The coverage tables in the DocC catalogs of CoreGraphics, QuartzCore,
// CoreText and UIKit (Coverage.md) give one example per area. Every
// example is written out below, in the tables' order, so it compiles and
// runs; `tablesMatchThisFile` checks that each table example is here.

@MainActor
func coreGraphicsExamples() throws {
    let ctx = try #require(
        CGContext(
            data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
    let path = CGMutablePath()
    let image = try #require(ctx.makeImage())
    ctx.saveGState()
    ctx.restoreGState()
    ctx.translateBy(x: 0, y: 64)
    ctx.scaleBy(x: 1, y: -1)
    ctx.rotate(by: 0)
    ctx.move(to: .zero)
    ctx.addLine(to: CGPoint(x: 10, y: 10))
    ctx.strokePath()
    ctx.addRect(CGRect(x: 0, y: 0, width: 8, height: 8))
    ctx.drawPath(using: .fillStroke)
    ctx.addEllipse(in: CGRect(x: 0, y: 0, width: 32, height: 32))
    ctx.clip()
    ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    ctx.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
    ctx.setLineWidth(2)
    ctx.setLineCap(.round)
    ctx.setLineJoin(.bevel)
    ctx.setLineDash(phase: 0, lengths: [4, 2])
    ctx.setAlpha(0.5)
    ctx.setBlendMode(.multiply)
    ctx.setShadow(offset: CGSize(width: 2, height: -2), blur: 4, color: CGColor(gray: 0, alpha: 0.5))
    let gradient = try #require(
        CGGradient(
            colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)] as CFArray,
            locations: [0, 1]))
    ctx.drawLinearGradient(gradient, start: .zero, end: CGPoint(x: 64, y: 0), options: [])
    ctx.drawRadialGradient(gradient, startCenter: .zero, startRadius: 0, endCenter: .zero, endRadius: 32, options: .drawsAfterEndLocation)
    ctx.draw(image, in: CGRect(x: 0, y: 0, width: 16, height: 16))
    _ = ctx.makeImage()?.cropping(to: CGRect(x: 0, y: 0, width: 8, height: 8))
    ctx.textMatrix = .identity
    ctx.textPosition = CGPoint(x: 4, y: 4)
    path.move(to: .zero)
    path.addLine(to: CGPoint(x: 5, y: 5))
    path.addArc(center: .zero, radius: 4, startAngle: 0, endAngle: .pi, clockwise: false)
    path.closeSubpath()
    _ = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 10), cornerWidth: 3, cornerHeight: 3, transform: nil).contains(CGPoint(x: 10, y: 5))
    _ = CGAffineTransform(rotationAngle: .pi / 2).concatenating(CGAffineTransform(scaleX: 2, y: 2)).inverted()
    let pdfData = NSMutableData()
    let pdf = CGContext(consumer: CGDataConsumer(data: pdfData)!, mediaBox: nil, [kCGPDFContextTitle: "Report"] as CFDictionary)!
    pdf.beginPDFPage(nil)
    pdf.fill(CGRect(x: 72, y: 72, width: 100, height: 50))
    pdf.endPDFPage()
    pdf.closePDF()
    #expect(pdfData.length > 0)
}

@MainActor
func quartzCoreExamples() throws {
    let ctx = try #require(
        CGContext(
            data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
    let image = try #require(ctx.makeImage())
    let layer = CALayer(), shape = CAShapeLayer(), gradientLayer = CAGradientLayer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
    layer.anchorPoint = CGPoint(x: 0.5, y: 0.5)
    layer.position = CGPoint(x: 50, y: 25)
    layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
    layer.backgroundColor = CGColor(gray: 0.9, alpha: 1)
    layer.cornerRadius = 8
    layer.borderWidth = 1
    layer.shadowOpacity = 0.3
    layer.addSublayer(shape)
    shape.removeFromSuperlayer()
    shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil)
    shape.strokeColor = CGColor(gray: 0, alpha: 1)
    shape.lineJoin = .bevel
    shape.lineDashPattern = [4, 2]
    gradientLayer.colors = [CGColor(gray: 1, alpha: 0), CGColor(gray: 1, alpha: 0.8)]
    gradientLayer.mask = shape
    layer.contents = image
    layer.contentsGravity = .resizeAspect
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    layer.actions = ["position": NSNull()]
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0
    fade.toValue = 1
    layer.add(fade, forKey: "fade")
    let group = CAAnimationGroup()
    group.animations = [CAKeyframeAnimation(keyPath: "position"), CASpringAnimation(keyPath: "bounds")]
    fade.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
    fade.fillMode = .forwards
    fade.isRemovedOnCompletion = false
    _ = layer.presentation()?.position
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    CATransaction.commit()
    layer.render(in: ctx)
    let link = CADisplayLink { _ in }
    link.add(to: .main, forMode: .common)
    link.invalidate()
    let tiles = CATiledLayer()
    tiles.tileSize = CGSize(width: 512, height: 512)
    tiles.levelsOfDetail = 4
    tiles.delegate = nil
}

func coreTextExamples() throws {
    let ctx = try #require(
        CGContext(
            data: nil, width: 64, height: 64, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
    let text = NSAttributedString(string: "Some text to set")
    let font = CTFontCreateWithName("Helvetica-Bold" as CFString, 18, nil)
    _ = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
    _ = NSAttributedString(string: "Hi", attributes: [.font: font, .foregroundColor: CGColor(gray: 0, alpha: 1), .kern: 1.5])
    let style = NSMutableParagraphStyle()
    style.alignment = .center
    style.lineSpacing = 4
    let line = CTLineCreateWithAttributedString(text as CFAttributedString)
    var ascent: CGFloat = 0
    _ = CTLineGetTypographicBounds(line, &ascent, nil, nil)
    ctx.textPosition = CGPoint(x: 2, y: 10)
    CTLineDraw(line, ctx)
    var centred = CTTextAlignment.center
    _ = withUnsafePointer(to: &centred) { CTParagraphStyleCreate([CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: $0)], 1) }
    let runs = CTLineGetGlyphRuns(line) as! [CTRun]
    _ = runs.map { CTRunGetAttributes($0) }
    _ = CTLineGetPenOffsetForFlush(line, 0.5, 100) + Double(CTLineGetOffsetForStringIndex(line, 2, nil))
    let setter = CTFramesetterCreateWithAttributedString(text as CFAttributedString)
    _ = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRangeMake(0, 0), nil, CGSize(width: 100, height: CGFloat.greatestFiniteMagnitude), nil)
    let frame = CTFramesetterCreateFrame(setter, CFRangeMake(0, 0), CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 40), transform: nil), nil)
    let lines = CTFrameGetLines(frame) as! [CTLine]
    var origins = [CGPoint](repeating: .zero, count: lines.count)
    CTFrameGetLineOrigins(frame, CFRangeMake(0, 0), &origins)
    CTFrameDraw(frame, ctx)
    #expect(ascent > 0 && !lines.isEmpty)
}

@MainActor
func uiKitExamples() {
    let view = UIView(), label = UILabel(), window = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
    view.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
    view.center = CGPoint(x: 100, y: 50)
    view.transform = CGAffineTransform(scaleX: 1, y: 1)
    view.alpha = 0.9
    view.isHidden = false
    view.clipsToBounds = true
    view.backgroundColor = UIColor(red: 0.9, green: 0.9, blue: 1, alpha: 1).withAlphaComponent(0.5)
    view.addSubview(label)
    view.bringSubviewToFront(label)
    label.removeFromSuperview()
    view.setNeedsLayout()
    view.layoutIfNeeded()
    label.sizeToFit()
    view.setNeedsDisplay()
    _ = UIGraphicsGetCurrentContext()
    _ = view.convert(CGPoint(x: 1, y: 1), to: nil)
    _ = view.hitTest(CGPoint(x: 5, y: 5), with: nil)
    UIView.animate(withDuration: 0.25, animations: { view.alpha = 1 }, completion: { _ in })
    UIView.animate(
        withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.7, initialSpringVelocity: 0, options: [.curveEaseOut],
        animations: { view.center.x += 1 })
    view.addGestureRecognizer(UITapGestureRecognizer { _ in })
    view.addGestureRecognizer(UIPanGestureRecognizer { _ in })
    let control = UIControl()
    control.addAction(UIAction { _ in }, for: .touchUpInside)
    control.sendActions(for: .touchUpInside)
    label.text = "Total"
    label.font = UIFont.systemFont(ofSize: 15, weight: .semibold)
    label.textAlignment = .center
    label.numberOfLines = 0
    let imageView = UIImageView(image: UIImage(named: "missing"))
    imageView.contentMode = .scaleAspectFit
    let rendered = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10)).image { context in
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
    }
    UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), false, 0)
    _ = UIGraphicsGetImageFromCurrentImageContext()
    UIGraphicsEndImageContext()
    _ = rendered.pngData()
    _ = rendered.jpegData(compressionQuality: 0.8)
    let bezier = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 20), cornerRadius: 4)
    bezier.lineWidth = 2
    _ = "Hello".size(withAttributes: [.font: UIFont.systemFont(ofSize: 12)])
    _ = ("Hello" as NSString).boundingRect(with: CGSize(width: 50, height: 1000), options: .usesLineFragmentOrigin, attributes: nil, context: nil)
    "Hello".draw(at: .zero, withAttributes: [.foregroundColor: UIColor.red])
    let pdfDocument = UIGraphicsPDFRenderer(bounds: CGRect(x: 0, y: 0, width: 612, height: 792)).pdfData { context in
        context.beginPage()
        "Hello".draw(at: CGPoint(x: 72, y: 72), withAttributes: nil)
    }
    #expect(pdfDocument.starts(with: Array("%PDF".utf8)))
    let scroll = UIScrollView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    scroll.contentSize = CGSize(width: 100, height: 400)
    scroll.setContentOffset(CGPoint(x: 0, y: 20), animated: false)
    let table = UITableView(frame: CGRect(x: 0, y: 0, width: 100, height: 100), style: .plain)
    table.register(UITableViewCell.self, forCellReuseIdentifier: "cell")
    table.reloadData()
    let field = UITextField(frame: CGRect(x: 0, y: 0, width: 200, height: 32))
    field.placeholder = "Name"
    field.borderStyle = .roundedRect
    field.isSecureTextEntry = false
    field.addAction(UIAction { _ in }, for: .editingChanged)
    let notes = UITextView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
    notes.text = "Line one\nLine two"
    notes.font = UIFont.systemFont(ofSize: 14)
    notes.isEditable = true
    #expect(field.placeholder == "Name" && notes.text == "Line one\nLine two")
    _ = table.dequeueReusableCell(withIdentifier: "cell", for: IndexPath(row: 0, section: 0)).textLabel
    let controller = UIViewController()
    controller.loadViewIfNeeded()
    window.rootViewController = controller
    window.makeKeyAndVisible()
    _ = UIScreen.main.bounds.width * UIScreen.main.scale
    #expect(window.snapshotImage() != nil)
}

@MainActor
@Suite("The DocC coverage tables")
struct CoverageTests {
    nonisolated static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    nonisolated static let tables = [
        "Sources/CoreGraphics/CoreGraphics.docc/Coverage.md", "Sources/QuartzCore/QuartzCore.docc/Coverage.md",
        "Sources/CoreText/CoreText.docc/Coverage.md", "Sources/UIKit/UIKit.docc/Coverage.md",
    ]

    @Test("Every example runs")
    func examplesRun() throws {
        try coreGraphicsExamples()
        try quartzCoreExamples()
        try coreTextExamples()
        uiKitExamples()
    }

    /// The examples of a coverage table: the code in the second column.
    static func examples(_ table: String) -> [String] {
        table.split(separator: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[2].hasPrefix("`"), cells[2].hasSuffix("`") else { return nil }
            return String(cells[2].dropFirst().dropLast())
        }
    }

    @Test("Every table example is in this file, statement by statement, in order", arguments: tables)
    func tablesMatchThisFile(_ table: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(table), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8).filter { !$0.isWhitespace }
        let examples = Self.examples(text)
        #expect(examples.count >= 10)
        var from = source.startIndex
        for example in examples {
            for statement in example.components(separatedBy: "; ") {
                let squeezed = statement.filter { !$0.isWhitespace }
                guard let found = source.range(of: squeezed, range: from..<source.endIndex) else {
                    Issue.record("\(table): `\(statement)` is not in CoverageTests.swift (after the previous example)")
                    continue
                }
                from = found.upperBound
            }
        }
    }
}
