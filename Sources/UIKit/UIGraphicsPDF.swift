public import CoreGraphics
public import Foundation

// UIKit's PDF drawing: the renderer (`UIGraphicsPDFRenderer`) and the
// older functions (`UIGraphicsBeginPDFContextToData` and their kin). Each
// page's context is UIKit's: the origin at the page's top left, y down,
// the current context while the page is drawn, so the drawing code of
// views and images (`UIBezierPath`, `NSString.draw`, `UIImage.draw`)
// writes PDF pages as it draws pixels.

/// How a PDF renderer's documents are made (`UIGraphicsPDFRendererFormat`).
open class UIGraphicsPDFRendererFormat: UIGraphicsRendererFormat, @unchecked Sendable {
    /// The document's information, by `kCGPDFContextTitle` and its kin (as
    /// strings).
    open var documentInfo: [String: Any] = [:]

    open class func `default`() -> UIGraphicsPDFRendererFormat { UIGraphicsPDFRendererFormat() }
}

/// The context a PDF renderer's block draws in (`UIGraphicsPDFRendererContext`).
open class UIGraphicsPDFRendererContext: UIGraphicsRendererContext {
    private let pdfFormat: UIGraphicsPDFRendererFormat
    /// The bounds of the page being drawn (the renderer's until a page
    /// names its own).
    public private(set) var pdfContextBounds: CGRect
    private let defaultBounds: CGRect

    init(cgContext: CGContext, format: UIGraphicsPDFRendererFormat, bounds: CGRect) {
        pdfFormat = format
        pdfContextBounds = bounds
        defaultBounds = bounds
        super.init(cgContext: cgContext, format: format)
    }

    open override var format: UIGraphicsPDFRendererFormat { pdfFormat }

    /// Begins a page of the renderer's bounds (ending the one before).
    public func beginPage() {
        beginPage(withBounds: defaultBounds, pageInfo: [:])
    }

    /// Begins a page of `bounds` (ending the one before); `pageInfo` is
    /// Core Graphics' page dictionary.
    public func beginPage(withBounds bounds: CGRect, pageInfo: [String: Any]) {
        pdfContextBounds = bounds
        UIKitPDF.beginPage(cgContext, bounds: bounds, pageInfo: pageInfo)
    }
}

/// Makes PDF documents from drawing blocks (`UIGraphicsPDFRenderer`): the
/// block begins each page (`beginPage()`) and draws it with UIKit's calls.
open class UIGraphicsPDFRenderer: @unchecked Sendable {
    // @unchecked: its values never change after init.
    public let format: UIGraphicsPDFRendererFormat
    let bounds: CGRect

    /// A renderer of pages of `bounds` (points; its origin is the page's
    /// top left).
    public init(bounds: CGRect, format: UIGraphicsPDFRendererFormat) {
        self.format = format
        self.bounds = bounds
    }

    public convenience init(bounds: CGRect) { self.init(bounds: bounds, format: .default()) }

    /// The PDF document `actions` draws.
    public func pdfData(actions: (UIGraphicsPDFRendererContext) -> Void) -> Data {
        let data = NSMutableData()
        guard let consumer = CGDataConsumer(data: data) else { return Data() }
        render(consumer, actions)
        return Data(referencing: data)
    }

    /// Writes the PDF document `actions` draws to the file at `url`.
    /// - Throws: `CocoaError(.fileWriteNoPermission)`-style errors from the
    ///   file system, or `.fileWriteUnknown` when the URL is not a file's.
    public func writePDF(to url: URL, withActions actions: (UIGraphicsPDFRendererContext) -> Void) throws {
        let data = pdfData(actions: actions)
        guard url.isFileURL else { throw CocoaError(.fileWriteUnknown) }
        try data.write(to: url)
    }

    private func render(_ consumer: CGDataConsumer, _ actions: (UIGraphicsPDFRendererContext) -> Void) {
        var box = bounds
        guard let ctx = CGContext(consumer: consumer, mediaBox: &box, UIKitPDF.info(format.documentInfo)) else { return }
        let context = UIGraphicsPDFRendererContext(cgContext: ctx, format: format, bounds: bounds)
        UIGraphicsPushContext(ctx)
        actions(context)
        UIGraphicsPopContext()
        ctx.closePDF()
    }
}

/// What UIKit's PDF calls share.
enum UIKitPDF {
    /// Core Graphics' document dictionary from UIKit's.
    static func info(_ info: [AnyHashable: Any]?) -> CFDictionary? {
        guard let info, !info.isEmpty else { return nil }
        let out = NSMutableDictionary()
        for (key, value) in info {
            if let k = key as? String { out[k] = value } else if let k = key as? NSString { out[k as String] = value }
        }
        return out
    }

    /// Begins a page of `bounds` on `ctx` in UIKit's space: the bounds'
    /// origin at the top left, y down, shadows going down.
    static func beginPage(_ ctx: CGContext, bounds: CGRect, pageInfo: [AnyHashable: Any]?) {
        let box = CGRect(origin: .zero, size: bounds.standardized.size)
        let data = withUnsafeBytes(of: box) { NSData(bytes: $0.baseAddress, length: $0.count) }
        let info = NSMutableDictionary()
        if let pageInfo { for (k, v) in pageInfo { if let k = k as? String { info[k] = v } } }
        info[kCGPDFContextMediaBox as String] = data
        ctx.beginPDFPage(info)
        ctx.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: box.height))
        ctx.translateBy(x: -bounds.standardized.minX, y: -bounds.standardized.minY)
        ctx.shadowsGoDown = true
    }

    /// The PDF contexts begun with `UIGraphicsBeginPDFContextToData` or
    /// `…ToFile` on this thread, and their bounds.
    static let key = "org.strata.UIGraphicsPDFContexts"
    final class Open {
        var contexts: [(context: CGContext, bounds: CGRect)] = []
    }
    static var open: Open {
        let dictionary = Thread.current.threadDictionary
        if let o = dictionary[key] as? Open { return o }
        let o = Open()
        dictionary[key] = o
        return o
    }

    static func begin(_ consumer: CGDataConsumer, _ bounds: CGRect, _ documentInfo: [AnyHashable: Any]?) -> Bool {
        var box = bounds.isEmpty ? CGRect(x: 0, y: 0, width: 612, height: 792) : bounds
        guard let ctx = CGContext(consumer: consumer, mediaBox: &box, info(documentInfo)) else { return false }
        open.contexts.append((ctx, box))
        UIGraphicsPushContext(ctx)
        return true
    }
}

/// Begins a PDF document appended to `data` when it ends, its pages
/// `bounds` (US Letter when empty); it is the current context until
/// `UIGraphicsEndPDFContext()`. Draw after `UIGraphicsBeginPDFPage()`.
public func UIGraphicsBeginPDFContextToData(_ data: NSMutableData, _ bounds: CGRect, _ documentInfo: [AnyHashable: Any]?) {
    guard let consumer = CGDataConsumer(data: data) else { return }
    _ = UIKitPDF.begin(consumer, bounds, documentInfo)
}

/// Begins a PDF document written to the file at `path` when it ends;
/// false when the path cannot be a file's.
@discardableResult
public func UIGraphicsBeginPDFContextToFile(_ path: String, _ bounds: CGRect, _ documentInfo: [AnyHashable: Any]?) -> Bool {
    guard !path.isEmpty, let consumer = CGDataConsumer(url: URL(fileURLWithPath: path) as NSURL) else { return false }
    return UIKitPDF.begin(consumer, bounds, documentInfo)
}

/// Begins a page of the document's bounds.
public func UIGraphicsBeginPDFPage() {
    guard let (ctx, bounds) = UIKitPDF.open.contexts.last else { return }
    UIKitPDF.beginPage(ctx, bounds: bounds, pageInfo: nil)
}

/// Begins a page of `bounds`, with Core Graphics' page dictionary.
public func UIGraphicsBeginPDFPageWithInfo(_ bounds: CGRect, _ pageInfo: [AnyHashable: Any]?) {
    guard let (ctx, _) = UIKitPDF.open.contexts.last else { return }
    UIKitPDF.beginPage(ctx, bounds: bounds, pageInfo: pageInfo)
}

/// The bounds of the current PDF document's pages (`.zero` when none).
public func UIGraphicsGetPDFContextBounds() -> CGRect {
    UIKitPDF.open.contexts.last?.bounds ?? .zero
}

/// Ends the PDF document begun last: writes it, and makes the context
/// current before it current again.
public func UIGraphicsEndPDFContext() {
    guard let (ctx, _) = UIKitPDF.open.contexts.popLast() else { return }
    if UIGraphicsGetCurrentContext() === ctx { UIGraphicsPopContext() }
    ctx.closePDF()
}
