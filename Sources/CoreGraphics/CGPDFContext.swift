public import Foundation
internal import StrataDocuments
package import StrataGraphics

// Core Graphics' PDF context: the same drawing calls as a bitmap context,
// written as vectors, text and images to a PDF document (Strata's
// `PDFDocument`), page by page, in the PDF's own y-up space.

/// Where a PDF context's document goes (`CGDataConsumer`): a file, or
/// bytes appended to a mutable data object.
public final class CGDataConsumer {
    enum Destination {
        case file(String)
        case data(NSMutableData)
    }

    let destination: Destination

    /// A consumer writing the file at `url` (nil for a URL that is not a
    /// file's).
    public init?(url: CFURL) {
        guard url.isFileURL, let path = url.path, !path.isEmpty else { return nil }
        destination = .file(path)
    }

    /// A consumer appending to `data`.
    public init?(data: CFMutableData) {
        destination = .data(data)
    }
}

/// The document information keys of `CGContext(consumer:mediaBox:_:)`'s
/// auxiliary dictionary (values are strings; keywords a string or an
/// array of them).
public var kCGPDFContextTitle: CFString { "kCGPDFContextTitle" }
public var kCGPDFContextAuthor: CFString { "kCGPDFContextAuthor" }
public var kCGPDFContextSubject: CFString { "kCGPDFContextSubject" }
public var kCGPDFContextKeywords: CFString { "kCGPDFContextKeywords" }
public var kCGPDFContextCreator: CFString { "kCGPDFContextCreator" }
/// A page's media box in `beginPDFPage(_:)`'s dictionary (or the
/// document's default in the auxiliary one): a `CGRect`'s bytes as data
/// (`NSData(bytes:length:)`, as Core Graphics takes it), or an `NSValue`
/// of a rectangle.
public var kCGPDFContextMediaBox: CFString { "kCGPDFContextMediaBox" }

/// A PDF context's document, its default media box and its destination.
final class CGPDFTarget {
    let document: PDFDocument
    let consumer: CGDataConsumer
    let mediaBox: CGRect
    private(set) var pageOpen = false
    private(set) var closed = false

    init(consumer: CGDataConsumer, mediaBox: CGRect, info: CFDictionary?) {
        self.consumer = consumer
        self.mediaBox = mediaBox
        var documentInfo = PDFDocument.Info(creator: nil)
        func text(_ key: CFString) -> String? {
            guard let value = CGPDFTarget.value(in: info, for: key) else { return nil }
            if let s = value as? String { return s }
            if let a = value as? [Any] { return a.compactMap { $0 as? String }.joined(separator: ", ") }
            return nil
        }
        documentInfo.title = text(kCGPDFContextTitle)
        documentInfo.author = text(kCGPDFContextAuthor)
        documentInfo.subject = text(kCGPDFContextSubject)
        documentInfo.keywords = text(kCGPDFContextKeywords)
        documentInfo.creator = text(kCGPDFContextCreator)
        document = PDFDocument(info: documentInfo)
    }

    /// A canvas that draws nothing: a PDF context's between pages.
    static func noPage() -> Canvas {
        // One pixel cannot fail to be made; nothing is drawn on it.
        let canvas = try! Canvas(width: 1, height: 1)
        canvas.clip(to: Rect(x: 0, y: 0, width: 0, height: 0))
        return canvas
    }

    /// The value of `key` in `info`, its keys strings or `NSString`s.
    static func value(in info: CFDictionary?, for key: CFString) -> Any? {
        guard let info else { return nil }
        let name = key as String
        for (k, v) in info {
            if let s = k as? String, s == name { return v }
            if let s = k as? NSString, (s as String) == name { return v }
        }
        return nil
    }

    /// The media box `info` names, else `fallback`.
    static func mediaBox(in info: CFDictionary?, or fallback: CGRect) -> CGRect {
        guard let value = value(in: info, for: kCGPDFContextMediaBox) else { return fallback }
        if let data = value as? Data, data.count == MemoryLayout<CGRect>.size {
            return data.withUnsafeBytes { $0.loadUnaligned(as: CGRect.self) }
        }
        if let data = value as? NSData, data.length == MemoryLayout<CGRect>.size {
            return Data(referencing: data).withUnsafeBytes { $0.loadUnaligned(as: CGRect.self) }
        }
        if let v = value as? NSValue { return v.rectValue }
        return fallback
    }

    /// Begins a page of `box`: its canvas, and the base transform that
    /// makes the box's y-up space; nil for a box PDF cannot have (its size
    /// not positive, not finite, or over 14,400 points), or after `close()`.
    func beginPage(_ box: CGRect) -> (Canvas, Transform)? {
        guard !closed else { return nil }
        let b = box.standardized
        guard let canvas = try? document.beginPage(size: Size(width: Double(b.width), height: Double(b.height))) else { return nil }
        pageOpen = true
        return (canvas, Transform(a: 1, b: 0, c: 0, d: -1, tx: -Double(b.minX), ty: Double(b.minY + b.height)))
    }

    func endPage() {
        document.endPage()
        pageOpen = false
    }

    /// Writes the document (once): the pages so far, the open one ended.
    func close() {
        guard !closed else { return }
        closed = true
        endPage()
        switch consumer.destination {
        case .file(let path):
            // Core Graphics reports nothing either: the file is missing.
            try? document.write(to: path)
        case .data(let data):
            data.append(document.makeData())
        }
    }
}

extension CGContext {
    /// A PDF context writing to `consumer` (`CGPDFContextCreate`): pages of
    /// `mediaBox` (US Letter, 612 × 792 points, when nil) unless a page
    /// names its own, the document information of `auxiliaryInfo`
    /// (`kCGPDFContextTitle` and its kin). Draw between
    /// `beginPDFPage(_:)` and `endPDFPage()`; `closePDF()` (or the
    /// context's end) writes the document.
    public convenience init?(consumer: CGDataConsumer, mediaBox: UnsafePointer<CGRect>?, _ auxiliaryInfo: CFDictionary?) {
        let box = mediaBox?.pointee ?? CGPDFTarget.mediaBox(in: auxiliaryInfo, or: CGRect(x: 0, y: 0, width: 612, height: 792))
        self.init(pdf: CGPDFTarget(consumer: consumer, mediaBox: box, info: auxiliaryInfo))
    }

    /// A PDF context writing the file at `url` (`CGPDFContextCreateWithURL`);
    /// nil for a URL that is not a file's.
    public convenience init?(_ url: CFURL, mediaBox: UnsafePointer<CGRect>?, _ auxiliaryInfo: CFDictionary?) {
        guard let consumer = CGDataConsumer(url: url) else { return nil }
        self.init(consumer: consumer, mediaBox: mediaBox, auxiliaryInfo)
    }

    /// Begins a page (`CGPDFContextBeginPage`): the context's media box,
    /// or `kCGPDFContextMediaBox` of `pageInfo`. The graphics state starts
    /// anew, user space the box's (the origin at its bottom left, y up, a
    /// unit a point). Ends the open page first; nothing on a context that
    /// is not a PDF context, or once closed.
    public func beginPDFPage(_ pageInfo: CFDictionary?) {
        guard let pdf else { return }
        let box = CGPDFTarget.mediaBox(in: pageInfo, or: pdf.mediaBox)
        if pdf.pageOpen { endPDFPage() }
        guard let (page, base) = pdf.beginPage(box) else { return }
        setPage(page, base: base)
    }

    /// Ends the page (`CGPDFContextEndPage`); drawing until the next one
    /// draws nothing.
    public func endPDFPage() {
        guard let pdf, pdf.pageOpen else { return }
        pdf.endPage()
        setPage(CGPDFTarget.noPage(), base: .identity)
    }

    /// Ends the document and writes it to the consumer
    /// (`CGPDFContextClose`); drawing afterwards draws nothing.
    public func closePDF() {
        guard let pdf else { return }
        if pdf.pageOpen { endPDFPage() }
        pdf.close()
    }

    /// Begins a page of `mediaBox` (the context's when nil)
    /// (`CGContextBeginPage`).
    public func beginPage(mediaBox: UnsafePointer<CGRect>?) {
        guard pdf != nil else { return }
        if let box = mediaBox?.pointee {
            let data = withUnsafeBytes(of: box) { NSData(bytes: $0.baseAddress, length: $0.count) }
            beginPDFPage([kCGPDFContextMediaBox as String: data] as NSDictionary)
        } else {
            beginPDFPage(nil)
        }
    }

    /// Ends the page (`CGContextEndPage`).
    public func endPage() { endPDFPage() }
}
