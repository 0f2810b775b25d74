import Foundation
import StrataGraphics

/// Why a document could not be made or written.
public enum DocumentError: Error, Equatable, CustomStringConvertible {
    /// A page size that is not a positive number of points up to 14,400
    /// (200 inches, PDF's largest page).
    case invalidPageSize(width: Double, height: Double)
    /// The file could not be written.
    case writeFailed(path: String, reason: String)

    /// Throws `invalidPageSize` unless `size` is a positive, finite number
    /// of points up to 14,400 on each side.
    static func check(_ size: Size) throws(DocumentError) {
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0, size.width <= 14_400,
            size.height <= 14_400
        else { throw .invalidPageSize(width: size.width, height: size.height) }
    }

    public var description: String {
        switch self {
        case .invalidPageSize(let w, let h): "a page of \(w) × \(h) points cannot be made (sizes are 0 < size ≤ 14,400 points)"
        case .writeFailed(let path, let reason): "could not write '\(path)': \(reason)"
        }
    }
}

/// A PDF document drawn with the same calls as pixels: each page is a
/// `Canvas` whose fills, strokes and clips are written as vectors, sharp
/// at any zoom (as `UIGraphicsPDFRenderer` and Core Graphics' PDF context
/// draw).
///
/// ```swift
/// let document = PDFDocument(info: .init(title: "Report"))
/// let canvas = try document.beginPage(size: Size(width: 595, height: 842))
/// canvas.fillColor = Color(red: 0.1, green: 0.4, blue: 0.8)
/// canvas.fill(Rect(x: 72, y: 72, width: 200, height: 100))
/// document.endPage()
/// try document.write(to: "report.pdf")
/// ```
///
/// A page's user space is the canvas's usual one: points, origin at the
/// top left, y down. The file has one content stream per page, compressed
/// (FlateDecode), the document's information dictionary, and a
/// cross-reference table; `qpdf --check` accepts it.
///
/// What a page draws: fills and strokes of paths, rectangles and ellipses
/// (with caps, joins, miter limits and dashes), colours, linear and radial
/// gradients that pad (shadings, with a soft mask for stops that are not
/// opaque), image patterns that repeat or reflect (tiling patterns), clips
/// to paths and to image masks, alpha, the blend modes PDF has,
/// transparency layers (groups), images embedded once (JPEG files as they
/// are), and text as text, its faces embedded as subsets with a ToUnicode
/// map. What PDF cannot say is an image of its area: shadows, conic
/// gradients, gradients that repeat or reflect, sprites, and calls in a
/// Porter-Duff mode (the page beneath drawn again). See the module's
/// article.
public final class PDFDocument {
    /// The document's information dictionary.
    public struct Info: Sendable, Hashable {
        public var title: String?
        public var author: String?
        public var subject: String?
        public var keywords: String?
        /// The application that made the content.
        public var creator: String?
        public var creationDate: Date

        public init(
            title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil, creator: String? = nil,
            creationDate: Date = Date()
        ) {
            self.title = title
            self.author = author
            self.subject = subject
            self.keywords = keywords
            self.creator = creator
            self.creationDate = creationDate
        }
    }

    public var info: Info

    /// How a document's streams (content, images, fonts) are compressed.
    public enum Compression: Sendable, Hashable {
        /// Fast DEFLATE (ISA-L's igzip, level 3): within a few per cent
        /// of zlib's default size, several times faster. The default.
        case fast
        /// zlib's smallest DEFLATE (level 9), several times slower.
        case small
        /// Uncompressed streams, for reading the content with a text editor.
        case none
    }

    /// How streams are compressed when the document is written (default
    /// `.fast`).
    public var compression = Compression.fast

    /// The images the pages draw, each embedded once.
    private let images = PDFImages()
    /// The fonts the pages' text uses, each embedded once as a subset.
    private let fonts = PDFFonts()
    /// The pages ended so far.
    private var pages: [PDFPage] = []
    private var openPage: (page: PDFPage, canvas: Canvas)?

    public init(info: Info = Info()) {
        self.info = info
    }

    /// How many pages the document has (an open page counts).
    public var pageCount: Int { pages.count + (openPage == nil ? 0 : 1) }

    /// Ends the open page, if any, and begins one of `size` points (its
    /// media box); draw on the canvas returned, then `endPage()`.
    /// - Throws: `DocumentError.invalidPageSize` for a size that is not a
    ///   positive number of points up to 14,400.
    public func beginPage(size: Size) throws(DocumentError) -> Canvas {
        try DocumentError.check(size)
        endPage()
        let page = PDFPage(size: size, images: images, fonts: fonts, deflatesInBackground: compression == .fast)
        let canvas = Canvas(device: page)
        openPage = (page, canvas)
        return canvas
    }

    /// Ends the open page (nothing when none is open). Drawing on its
    /// canvas afterwards still goes to that page until the document is
    /// written.
    public func endPage() {
        guard let open = openPage else { return }
        pages.append(open.page)
        openPage = nil
    }

    /// The document's bytes, with the open page ended.
    public func makeData() -> Data {
        let bytes = makeBytes()
        defer { PDFBuffers.give(bytes) }
        return Data(bytes)
    }

    /// The document's bytes (`makeData()`), as the file holds them.
    func makeBytes() -> [UInt8] {
        endPage()
        for page in pages { page.finishContent() }
        var file = PDFFile()
        file.compression = compression
        // Room for the compressed content, at a guess.
        file.reserveCapacity(pages.reduce(1 << 16) { $0 + $1.contentCount / 2 })
        let catalog = file.reserve(), tree = file.reserve(), infoObject = file.reserve()
        var kids: [Int] = []
        // Each image once, with a soft mask of its alpha when it has any.
        var imageObjects: [Int: Int] = [:]
        let usedImages = Set(pages.flatMap(\.imagesUsed)).sorted()
        for index in usedImages {
            let image = images.images[index]
            if let jpeg = image.sourceJPEG, let frame = image.sourceJPEGFrame {
                // The JPEG file as it is: PDF readers decode it themselves.
                let o = file.reserve()
                file.writeStream(
                    o,
                    dictionary:
                        "/Type /XObject /Subtype /Image /Width \(frame.width) /Height \(frame.height) /ColorSpace /\(frame.components == 1 ? "DeviceGray" : "DeviceRGB") /BitsPerComponent 8 /Interpolate \(images.smooth[index]) /Filter /DCTDecode",
                    encoded: jpeg)
                imageObjects[index] = o
                continue
            }
            let (rgb, alpha) = PDFImages.planes(image)
            var mask = ""
            if let alpha {
                let m = file.reserve()
                file.writeStream(
                    m,
                    dictionary:
                        "/Type /XObject /Subtype /Image /Width \(image.width) /Height \(image.height) /ColorSpace /DeviceGray /BitsPerComponent 8",
                    data: alpha)
                mask = " /SMask \(m) 0 R"
            }
            let o = file.reserve()
            file.writeStream(
                o,
                dictionary:
                    "/Type /XObject /Subtype /Image /Width \(image.width) /Height \(image.height) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Interpolate \(images.smooth[index])\(mask)",
                data: rgb)
            imageObjects[index] = o
        }
        let fontObjects = writeFonts(Set(pages.flatMap(\.fontsUsed)).sorted(), to: &file)
        for page in pages {
            let pageObject = file.reserve(), contents = file.reserve()
            kids.append(pageObject)
            let compressed = compression == .fast ? page.compressedContent() : nil
            page.withContent { file.writeStream(contents, data: $0, compressed: compressed) }
            // The page's own objects, and its resources naming them (one
            // object, which the forms of its groups and masks share).
            let numbers = page.objects.map { _ in file.reserve() }
            let resourcesObject = file.reserve()
            func resolved(_ text: String) -> String {
                var out = text.replacingOccurrences(of: "@resources@", with: "\(resourcesObject) 0 R")
                for (k, n) in numbers.enumerated().reversed() { out = out.replacingOccurrences(of: "@\(k)@", with: "\(n) 0 R") }
                return out
            }
            for (k, object) in page.objects.enumerated() {
                file.writeStream(numbers[k], dictionary: resolved(object.dictionary), data: object.stream)
            }
            var resources = ""
            if !page.extGStates.isEmpty {
                let states = page.extGStates.sorted { $0.value < $1.value }.map { "/\($0.value) <<\(resolved($0.key)) >>" }
                resources += " /ExtGState << \(states.joined(separator: " ")) >>"
            }
            if !page.imagesUsed.isEmpty || !page.forms.isEmpty {
                let names =
                    page.imagesUsed.sorted().compactMap { i in imageObjects[i].map { "/Im\(i) \($0) 0 R" } }
                    + page.forms.map { "/Fm\($0) \(numbers[$0]) 0 R" }
                resources += " /XObject << \(names.joined(separator: " ")) >>"
            }
            if !page.fontsUsed.isEmpty {
                let names = page.fontsUsed.sorted().compactMap { i in fontObjects[i].map { "/F\(i) \($0) 0 R" } }
                resources += " /Font << \(names.joined(separator: " ")) >>"
            }
            if !page.patternObjects.isEmpty {
                let patterns = page.patternObjects.map { "/\($0.name) \(numbers[$0.object]) 0 R" }
                resources += " /Pattern << \(patterns.joined(separator: " ")) >>"
            }
            if !page.shadings.isEmpty {
                let shadings = page.shadings.sorted { $0.value < $1.value }.map { "/\($0.value) \($0.key)" }
                resources += " /Shading << \(shadings.joined(separator: " ")) >>"
            }
            let box = "[0 0 \(PDFSyntax.number(page.size.width)) \(PDFSyntax.number(page.size.height))]"
            file.write(
                pageObject,
                "<< /Type /Page /Parent \(tree) 0 R /MediaBox \(box) /Resources \(resourcesObject) 0 R /Contents \(contents) 0 R >>")
            file.write(resourcesObject, "<<\(resources) >>")
        }
        file.write(tree, "<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(kids.count) >>")
        file.write(catalog, "<< /Type /Catalog /Pages \(tree) 0 R >>")
        var entries: [String] = []
        for (key, value) in [
            ("Title", info.title), ("Author", info.author), ("Subject", info.subject), ("Keywords", info.keywords),
            ("Creator", info.creator),
        ] {
            if let value { entries.append("/\(key) \(PDFSyntax.textString(value))") }
        }
        entries.append("/Producer (Strata)")
        let date = PDFSyntax.date(info.creationDate)
        entries.append("/CreationDate \(date) /ModDate \(date)")
        file.write(infoObject, "<< \(entries.joined(separator: " ")) >>")
        file.finish(root: catalog, info: infoObject, id: Self.identifier(file.bytes))
        return file.takeBytes()
    }

    /// Writes the fonts `used` (their indices) and returns each one's Type 0
    /// font object. A face whose file cannot be subset is embedded whole;
    /// one whose file cannot be read is named only (a reader substitutes).
    private func writeFonts(_ used: [Int], to file: inout PDFFile) -> [Int: Int] {
        var objects: [Int: Int] = [:]
        for index in used {
            let entry = fonts.entries[index]
            let face = entry.face
            let name = PDFFonts.tag(index) + "+" + PDFFonts.pdfName(face.familyName + "-" + face.styleName)
            let program = PDFFonts.subset(face, glyphs: entry.unicode.keys) ?? (try? Array(Data(contentsOf: URL(fileURLWithPath: face.path))))
            let isCFF = program.map { $0.starts(with: Array("OTTO".utf8)) } ?? false
            var fontFile = ""
            if let program {
                let f = file.reserve()
                file.writeStream(f, dictionary: isCFF ? "/Subtype /OpenType" : "/Length1 \(program.count)", data: program)
                fontFile = isCFF ? " /FontFile3 \(f) 0 R" : " /FontFile2 \(f) 0 R"
            }
            let em = face.unitsPerEm > 0 ? 1000 / face.unitsPerEm : 1
            func n(_ v: Double) -> String { PDFSyntax.number(v) }
            let ascent = face.ascender * em, descent = -face.descender * em
            let descriptor = file.reserve()
            file.write(
                descriptor,
                "<< /Type /FontDescriptor /FontName /\(name) /Flags 4 /FontBBox [0 \(n(descent)) 1000 \(n(ascent))] /ItalicAngle 0 /Ascent \(n(ascent)) /Descent \(n(descent)) /CapHeight \(n(face.capHeight * em)) /StemV 80\(fontFile) >>"
            )
            let widths = entry.unicode.keys.sorted().map { "\($0) [\(n(face.glyphData($0).advance * em))]" }.joined(separator: " ")
            let cid = file.reserve()
            file.write(
                cid,
                "<< /Type /Font /Subtype /\(isCFF ? "CIDFontType0" : "CIDFontType2") /BaseFont /\(name) /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(descriptor) 0 R /DW 1000 /W [\(widths)]\(isCFF ? "" : " /CIDToGIDMap /Identity") >>"
            )
            let toUnicode = file.reserve()
            file.writeStream(toUnicode, data: PDFFonts.toUnicode(entry.unicode))
            let font = file.reserve()
            file.write(
                font,
                "<< /Type /Font /Subtype /Type0 /BaseFont /\(name) /Encoding /Identity-H /DescendantFonts [\(cid) 0 R] /ToUnicode \(toUnicode) 0 R >>"
            )
            objects[index] = font
        }
        return objects
    }

    /// Writes the document to `path`, with the open page ended.
    /// - Throws: `DocumentError.writeFailed` when the file cannot be written.
    public func write(to path: String) throws(DocumentError) {
        let bytes = makeBytes()
        // Straight from the bytes (no copy into a `Data`).
        guard let file = fopen(path, "wb") else {
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        let failed = written != bytes.count || ferror(file) != 0
        // The write's reason, before anything else can set `errno`.
        let reason = failed ? String(cString: strerror(errno)) : ""
        PDFBuffers.give(bytes)
        if fclose(file) != 0 || failed {
            throw .writeFailed(path: path, reason: failed ? reason : String(cString: strerror(errno)))
        }
    }

    /// Sixteen bytes that identify the file by its content (the trailer's
    /// `/ID`): two 64-bit multiplicative hashes of it, eight bytes a step.
    static func identifier(_ bytes: [UInt8]) -> [UInt8] {
        // Two FNV-style lanes over eight bytes at a time, then the rest.
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                let w = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                a = (a ^ w) &* 0x100_0000_01b3
                b = (b ^ (w >> 7 | w << 57)) &* 0x9E37_79B9_7F4A_7C15
            }
            for i in (words * 8)..<raw.count {
                a = (a ^ UInt64(raw[i])) &* 0x100_0000_01b3
                b = (b ^ UInt64(raw[i] ^ 0x5a)) &* 0x100_0000_01b3
            }
        }
        return withUnsafeBytes(of: a.bigEndian) { Array($0) } + withUnsafeBytes(of: b.bigEndian) { Array($0) }
    }
}
