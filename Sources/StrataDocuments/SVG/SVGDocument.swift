import Foundation
import StrataGraphics
import StrataText

/// An SVG document drawn with the same calls as pixels: one drawing, whose
/// canvas writes its fills, strokes and clips as SVG elements (as Cairo's
/// SVG surface does).
///
/// ```swift
/// let document = try SVGDocument(size: Size(width: 200, height: 150), title: "An ellipse")
/// document.canvas.fillColor = Color(red: 0.1, green: 0.4, blue: 0.85)
/// document.canvas.fillEllipse(in: Rect(x: 20, y: 20, width: 160, height: 110))
/// try document.write(to: "ellipse.svg")
/// ```
///
/// The document's `width` and `height` are its size in points (`pt`) and
/// its `viewBox` is in points, so one unit of the canvas is one point, as
/// on a PDF page; browsers and `rsvg-convert` show it at that size.
///
/// What it draws: fills and strokes of paths in colours, fills with linear
/// and radial gradients (`<linearGradient>`, `<radialGradient>`, with their
/// spreads and stop opacities), clips to paths and to image masks
/// (`<mask>`), alpha and the separable blend modes (CSS's
/// `mix-blend-mode`), transparency layers (`<g>` with their opacity and
/// blend mode), images (inline PNGs, each once) and text as its glyphs'
/// outlines with the text kept beside them (an invisible `<text>`, for
/// search, selection and screen readers), image patterns that repeat or
/// reflect (`<pattern>`); shadows, conic gradients, padded image patterns
/// and sprites are images of their area.
public final class SVGDocument {
    /// The drawing's canvas.
    public let canvas: Canvas
    /// The document's size, in points.
    public let size: Size
    /// The document's title (its `<title>`), if any.
    public var title: String?
    private let drawing: SVGDrawing

    /// An empty drawing of `size` points.
    /// - Throws: `DocumentError.invalidPageSize` for a size that is not a
    ///   positive number of points up to 14,400.
    public init(size: Size, title: String? = nil) throws(DocumentError) {
        try DocumentError.check(size)
        self.size = size
        self.title = title
        drawing = SVGDrawing(size: size)
        canvas = Canvas(device: drawing)
    }

    /// The document's text, UTF-8.
    public func makeData() -> Data {
        let w = PDFSyntax.number(size.width), h = PDFSyntax.number(size.height)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"\(w)pt\" height=\"\(h)pt\" viewBox=\"0 0 \(w) \(h)\">\n"
        if let title { out += "<title>\(SVGDrawing.escaped(title))</title>\n" }
        drawing.endOpenGroups()
        if !drawing.definitions.isEmpty { out += "<defs>\n" + drawing.definitions + "</defs>\n" }
        out += drawing.body
        out += "</svg>\n"
        return Data(out.utf8)
    }

    /// Writes the document to `path`.
    /// - Throws: `DocumentError.writeFailed` when the file cannot be written.
    public func write(to path: String) throws(DocumentError) {
        do {
            try makeData().write(to: URL(fileURLWithPath: path))
        } catch {
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
    }
}

/// The elements of an SVG drawing, as its canvas draws.
///
/// Fills are paths placed on the page point by point; strokes keep the
/// user-space path under a `transform`, so the pen stretches as on a
/// bitmap. Clips become `<clipPath>`s in page coordinates, each made once,
/// and a drawing call with clips sits in nested `<g clip-path>`s, one a
/// clip (their intersection), so its own transform does not move them.
final class SVGDrawing: TextKeepingDevice {
    let size: Size
    private(set) var body = ""
    private(set) var definitions = ""
    /// The clip paths made so far.
    private var clipIDs: [VectorClip: String] = [:]
    /// The gradients made so far, by what they paint.
    private var gradientIDs: [GradientKey: String] = [:]
    /// The images made so far, by their pixels' storage.
    private var imageIDs: [ImageKey: (id: String, image: Image)] = [:]

    struct ImageKey: Hashable {
        var address: UInt
        var width, height, bytesPerRow: Int
        var pixelated: Bool
    }

    struct GradientKey: Hashable {
        var paint: Paint
        var transform: Transform
    }

    init(size: Size) {
        self.size = size
    }

    func fill(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        if recordedAsPixels(.fill(path, rule, paint, recording.index(state)), mode: state.blendMode) { return }
        fillPath(path, rule: rule, paint: paint, state: state)
    }

    private func fillPath(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        let fill: String, alpha: Double
        switch paint {
        case .color(let color):
            fill = Self.hex(color)
            alpha = color.alpha * state.alpha
        case .pattern(let image, let transform, let spread):
            guard spread != .pad, let id = patternID(image, transform.concatenating(state.transform), reflect: spread == .reflect)
            else { return }
            fill = "url(#\(id))"
            alpha = state.alpha
        default:
            guard let id = gradientID(paint, transform: state.transform) else { return }
            fill = "url(#\(id))"
            alpha = state.alpha
        }
        guard alpha > 0 else { return }
        var attributes = "d=\"\(Self.pathData(path, state.transform))\" fill=\"\(fill)\""
        if alpha < 1 { attributes += " fill-opacity=\"\(PDFSyntax.number(alpha))\"" }
        if rule == .evenOdd { attributes += " fill-rule=\"evenodd\"" }
        element("<path \(attributes)\(blendStyle(state.blendMode))/>", clips: state.clips)
    }

    /// A rectangle upright on the page in a colour is a `<rect>`.
    func fill(_ rect: Rect, paint: Paint, state: VectorState) {
        if shapeRecordedAsPixels(rect, ellipse: false, paint, state) { return }
        let t = state.transform
        guard case .color(let color) = paint, t.b == 0, t.c == 0 else {
            return fillPath(Path(rect: rect), rule: .winding, paint: paint, state: state)
        }
        let alpha = color.alpha * state.alpha
        guard alpha > 0 else { return }
        let x0 = t.a * rect.minX + t.tx, x1 = t.a * rect.maxX + t.tx
        let y0 = t.d * rect.minY + t.ty, y1 = t.d * rect.maxY + t.ty
        let out = PDFContent()
        out.append("<rect x=\"")
        out.value(min(x0, x1))
        out.append("\" y=\"")
        out.value(min(y0, y1))
        out.append("\" width=\"")
        out.value(abs(x1 - x0))
        out.append("\" height=\"")
        out.value(abs(y1 - y0))
        out.append("\" fill=\"")
        colorAttributes(out, color, alpha, "fill")
        element(out.withBytes { String(decoding: $0, as: UTF8.self) } + blendStyle(state.blendMode) + "/>", clips: state.clips)
    }

    /// An ellipse upright on the page in a colour is an `<ellipse>`.
    func fill(ellipseIn rect: Rect, paint: Paint, state: VectorState) {
        if shapeRecordedAsPixels(rect, ellipse: true, paint, state) { return }
        let t = state.transform
        guard case .color(let color) = paint, t.b == 0, t.c == 0 else {
            return fillPath(Path(ellipseIn: rect), rule: .winding, paint: paint, state: state)
        }
        let alpha = color.alpha * state.alpha
        guard alpha > 0 else { return }
        let out = PDFContent()
        out.append("<ellipse cx=\"")
        out.value(t.a * rect.midX + t.tx)
        out.append("\" cy=\"")
        out.value(t.d * rect.midY + t.ty)
        out.append("\" rx=\"")
        out.value(abs(t.a) * rect.width / 2)
        out.append("\" ry=\"")
        out.value(abs(t.d) * rect.height / 2)
        out.append("\" fill=\"")
        colorAttributes(out, color, alpha, "fill")
        element(out.withBytes { String(decoding: $0, as: UTF8.self) } + blendStyle(state.blendMode) + "/>", clips: state.clips)
    }

    /// `#rrggbb"` and, under 1, ` KIND-opacity="…"`.
    private func colorAttributes(_ out: PDFContent, _ color: Color, _ alpha: Double, _ kind: StaticString) {
        out.append(Self.hex(color))
        out.append("\"")
        if alpha < 1 {
            out.append(" ")
            out.append(kind)
            out.append("-opacity=\"")
            out.value(alpha)
            out.append("\"")
        }
    }

    func stroke(_ path: Path, style: StrokeStyle, paint: Paint, state: VectorState) {
        if recordedAsPixels(.stroke(path, style, paint, recording.index(state)), mode: state.blendMode) { return }
        guard case .color(let color) = paint else { return }
        let alpha = color.alpha * state.alpha
        let t = state.transform
        guard alpha > 0, style.lineWidth.isFinite, style.lineWidth >= 0, t.inverted() != nil else { return }
        var attributes = "d=\"\(Self.pathData(path, .identity))\" fill=\"none\" stroke=\"\(Self.hex(color))\""
        if t != .identity {
            attributes += " transform=\"matrix(\(PDFSyntax.matrix(t)))\""
        }
        if style.lineWidth == 0 {
            // The thinnest line the viewer can draw, as on a bitmap.
            attributes += " stroke-width=\"1\" vector-effect=\"non-scaling-stroke\""
        } else if style.lineWidth != 1 {
            attributes += " stroke-width=\"\(PDFSyntax.number(style.lineWidth))\""
        }
        if alpha < 1 { attributes += " stroke-opacity=\"\(PDFSyntax.number(alpha))\"" }
        switch style.lineCap {
        case .butt: break
        case .round: attributes += " stroke-linecap=\"round\""
        case .square: attributes += " stroke-linecap=\"square\""
        }
        switch style.lineJoin {
        case .miter:
            let miter = style.miterLimit.isFinite ? max(1, style.miterLimit) : 1
            if miter != 4 { attributes += " stroke-miterlimit=\"\(PDFSyntax.number(miter))\"" }
        case .round: attributes += " stroke-linejoin=\"round\""
        case .bevel: attributes += " stroke-linejoin=\"bevel\""
        }
        let dashes = style.dashLengths
        if !dashes.isEmpty, dashes.allSatisfy({ $0.isFinite && $0 >= 0 }), dashes.contains(where: { $0 > 0 }) {
            attributes += " stroke-dasharray=\"\(dashes.map(PDFSyntax.number).joined(separator: " "))\""
            if style.dashPhase.isFinite, style.dashPhase != 0 {
                attributes += " stroke-dashoffset=\"\(PDFSyntax.number(style.dashPhase))\""
            }
        }
        element("<path \(attributes)\(blendStyle(state.blendMode))/>", clips: state.clips)
    }

    /// Colours, and linear and radial gradients of any spread; the canvas
    /// draws conic gradients and patterns as images.
    func canPaint(_ paint: Paint) -> Bool {
        switch paint {
        case .color, .linearGradient, .radialGradient: true
        case .pattern(let image, _, let spread): spread != .pad && image.width > 0 && image.height > 0
        default: false
        }
    }

    /// Keeps a run's text as an invisible `<text>` over its outlines (which
    /// the drawing has as paths): each character at its glyph's origin (a
    /// cluster's later characters at its first's), in the face's family and
    /// size, transparent, so browsers find and select it and screen readers
    /// read it.
    func keepText(_ texts: [String], positions: [Point], family: String, size: Double, state: VectorState) {
        let t = state.transform
        guard size.isFinite, size > 0, t.inverted() != nil else { return }
        var characters = "", xs: [String] = [], ys: [String] = []
        for (text, p) in zip(texts, positions) where !text.isEmpty && p.x.isFinite && p.y.isFinite {
            for scalar in text.unicodeScalars where scalar.value >= 0x20 && scalar != "\u{FFFE}" && scalar != "\u{FFFF}" {
                characters.unicodeScalars.append(scalar)
                xs.append(PDFSyntax.number(p.x))
                ys.append(PDFSyntax.number(p.y))
            }
        }
        guard !characters.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        var attributes = "x=\"\(xs.joined(separator: " "))\" y=\"\(ys.joined(separator: " "))\""
        if t != .identity { attributes += " transform=\"matrix(\(PDFSyntax.matrix(t)))\"" }
        attributes += " font-family=\"\(Self.escaped(family))\" font-size=\"\(PDFSyntax.number(size))\" fill-opacity=\"0\" xml:space=\"preserve\""
        element("<text \(attributes)>\(Self.escaped(characters))</text>", clips: state.clips)
    }

    /// The patterns made so far, by their image, placement and reflection.
    private var patternIDs: [PatternKey: String] = [:]

    struct PatternKey: Hashable {
        var image: String
        var transform: Transform
        var reflect: Bool
    }

    /// The id of a `<pattern>` tiling `image` (2 × 2 mirrored copies a tile
    /// when reflected) under `transform` (image pixels to the page), made
    /// when first needed; nil when the image cannot be encoded or the
    /// transform undone.
    private func patternID(_ image: Image, _ transform: Transform, reflect: Bool) -> String? {
        guard transform.inverted() != nil, let imageID = imageID(image, pixelated: false) else { return nil }
        let key = PatternKey(image: imageID, transform: transform, reflect: reflect)
        if let id = patternIDs[key] { return id }
        let id = "p\(patternIDs.count + 1)"
        patternIDs[key] = id
        let w = Double(image.width), h = Double(image.height), step = reflect ? 2.0 : 1.0
        var text =
            "<pattern id=\"\(id)\" patternUnits=\"userSpaceOnUse\" width=\"\(PDFSyntax.number(w * step))\" height=\"\(PDFSyntax.number(h * step))\" patternTransform=\"matrix(\(PDFSyntax.matrix(transform)))\">"
        text += "<use xlink:href=\"#\(imageID)\"/>"
        if reflect {
            for m in [
                "-1 0 0 1 \(PDFSyntax.number(2 * w)) 0", "1 0 0 -1 0 \(PDFSyntax.number(2 * h))",
                "-1 0 0 -1 \(PDFSyntax.number(2 * w)) \(PDFSyntax.number(2 * h))",
            ] {
                text += "<use xlink:href=\"#\(imageID)\" transform=\"matrix(\(m))\"/>"
            }
        }
        definitions += text + "</pattern>\n"
        return id
    }

    /// Fills the clip with the gradient: SVG gradients always pad, so an
    /// end that does not extend is cut by the shape filled, the band
    /// between the ends of a linear gradient, or the end circle of a radial
    /// one (without its start circle, when the start does not extend).
    /// Conic gradients are not drawn yet.
    func drawGradient(_ paint: Paint, extendStart: Bool, extendEnd: Bool, state: VectorState) {
        if recordedAsPixels(
            .gradient(paint, extendStart: extendStart, extendEnd: extendEnd, recording.index(state)), mode: state.blendMode)
        {
            return
        }
        guard let inverse = state.transform.inverted() else { return }
        // What the page holds, in user space, and a length past it.
        let page = Path(rect: Rect(x: 0, y: 0, width: size.width, height: size.height)).applying(inverse).boundingBox
        let reach = 2 * (page.width + page.height) + 1
        guard reach.isFinite else { return }
        var region = Path(rect: page.insetBy(dx: -1, dy: -1))
        var rule = FillRule.winding
        let padded: Paint
        switch paint {
        case .linearGradient(let g, let s, let e, _):
            padded = .linearGradient(g, start: s, end: e, spread: .pad)
            let dx = e.x - s.x, dy = e.y - s.y
            let length = (dx * dx + dy * dy).squareRoot()
            if !(extendStart && extendEnd), length > 0 {
                let ux = dx / length, uy = dy / length
                let from = extendStart ? -reach : 0, to = extendEnd ? length + reach : length
                func at(_ along: Double, _ across: Double) -> Point {
                    Point(x: s.x + ux * along - uy * across, y: s.y + uy * along + ux * across)
                }
                region = Path()
                region.move(to: at(from, -reach))
                region.addLine(to: at(to, -reach))
                region.addLine(to: at(to, reach))
                region.addLine(to: at(from, reach))
                region.closeSubpath()
            }
        case .radialGradient(let g, let c0, let r0, let c1, let r1, _):
            padded = .radialGradient(g, startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1, spread: .pad)
            if !extendEnd {
                let r = max(0, r1)
                region = Path(ellipseIn: Rect(x: c1.x - r, y: c1.y - r, width: 2 * r, height: 2 * r))
            }
            if !extendStart, r0 > 0 {
                region.addPath(Path(ellipseIn: Rect(x: c0.x - r0, y: c0.y - r0, width: 2 * r0, height: 2 * r0)))
                rule = .evenOdd
            }
        default:
            return
        }
        fillPath(region, rule: rule, paint: padded, state: state)
    }

    /// Draws `image` over `rect`: a `<use>` of the drawing's `<image>` of
    /// it (a PNG, inline), placed by the transform and the rectangle.
    func draw(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState) {
        if recordedAsPixels(.image(image, rect, interpolation, recording.index(state)), mode: state.blendMode) { return }
        placeImage(image, in: rect, interpolation: interpolation, state: state)
    }

    /// Every call, for the Porter-Duff modes' pictures.
    let recording = PageRecording()

    /// Records `call`; a call in a Porter-Duff mode is drawn here as a
    /// picture of its area (the drawing there drawn again, then the call):
    /// true when it was.
    private func recordedAsPixels(_ call: PageRecording.Call, mode: BlendMode) -> Bool {
        placed(recording.take(call, mode: mode, page: Rect(x: 0, y: 0, width: size.width, height: size.height)))
    }

    /// `recordedAsPixels` for a rectangle or an ellipse.
    @inline(__always)
    private func shapeRecordedAsPixels(_ rect: Rect, ellipse: Bool, _ paint: Paint, _ state: VectorState) -> Bool {
        placed(recording.takeShape(rect, ellipse: ellipse, paint, state, page: Rect(x: 0, y: 0, width: size.width, height: size.height)))
    }

    /// Places what the recording took, if it is a picture; whether it was one.
    @inline(__always)
    private func placed(_ taken: (area: Rect, picture: Image, onPage: Bool)??) -> Bool {
        guard let taken else { return false }
        if let (area, picture, _) = taken { place(picture, in: area) }
        return true
    }

    /// Draws a picture of the drawing (or of the open group) over `area`.
    private func place(_ picture: Image, in area: Rect) {
        let page = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let plain = VectorState(transform: .identity, clips: [], alpha: 1, blendMode: .normal)
        // What was drawn so far (in the group, or the drawing) is kept
        // outside the area (an even-odd clip of the page less the area),
        // so the picture's transparent pixels show what is beneath.
        var outside = Path(rect: page)
        outside.addPath(Path(rect: area))
        let clip = VectorClip(path: outside, transform: .identity, rule: .evenOdd)
        body = "<g clip-path=\"url(#\(clipID(clip)))\">\n" + body + "</g>\n"
        placeImage(picture, in: area, interpolation: .default, state: plain)
    }

    /// The `<use>` of `image` over `rect`.
    private func placeImage(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState) {
        let t = state.transform
        guard state.alpha > 0, t.inverted() != nil, let id = imageID(image, pixelated: interpolation == .none) else { return }
        let place = Transform(
            a: rect.width / Double(image.width), b: 0, c: 0, d: rect.height / Double(image.height), tx: rect.minX, ty: rect.minY
        ).concatenating(t)
        let matrix = PDFSyntax.matrix(place)
        var attributes = "xlink:href=\"#\(id)\" transform=\"matrix(\(matrix))\""
        if state.alpha < 1 { attributes += " opacity=\"\(PDFSyntax.number(state.alpha))\"" }
        element("<use \(attributes)\(blendStyle(state.blendMode))/>", clips: state.clips)
    }

    /// The id of the `<image>` of `image` (one pixel a unit), made when
    /// first needed; nil when it cannot be encoded.
    private func imageID(_ image: Image, pixelated: Bool) -> String? {
        let address = image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let key = ImageKey(address: address, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow, pixelated: pixelated)
        if let id = imageIDs[key]?.id { return id }
        // A JPEG file as it is; anything else as a PNG.
        let encoded: (type: String, bytes: [UInt8])
        if let jpeg = image.sourceJPEG, image.sourceJPEGFrame != nil {
            encoded = ("image/jpeg", jpeg)
        } else {
            guard let png = try? image.pngData() else { return nil }
            encoded = ("image/png", png)
        }
        let id = "i\(imageIDs.count + 1)"
        // Kept with its id, so the pixels' address is not reused meanwhile.
        imageIDs[key] = (id, image)
        // Browsers take CSS's `pixelated`; librsvg smooths every image.
        let rendering = pixelated ? " image-rendering=\"optimizeSpeed\" style=\"image-rendering:pixelated\"" : ""
        definitions +=
            "<image id=\"\(id)\" width=\"\(image.width)\" height=\"\(image.height)\" preserveAspectRatio=\"none\"\(rendering) xlink:href=\"data:\(encoded.type);base64,\(Data(encoded.bytes).base64EncodedString())\"/>\n"
        return id
    }

    /// The id of a `<linearGradient>` or `<radialGradient>` for `paint`
    /// (user space under `transform`), made when first needed; nil for
    /// what is not drawn yet (conic gradients, image patterns).
    private func gradientID(_ paint: Paint, transform t: Transform) -> String? {
        let key = GradientKey(paint: paint, transform: t)
        if let id = gradientIDs[key] { return id }
        func n(_ v: Double) -> String { PDFSyntax.number(v) }
        let head: String, gradient: Gradient, spread: GradientSpread
        switch paint {
        case .linearGradient(let g, let s, let e, let sp):
            guard [s.x, s.y, e.x, e.y].allSatisfy(\.isFinite) else { return nil }
            head = "linearGradient x1=\"\(n(s.x))\" y1=\"\(n(s.y))\" x2=\"\(n(e.x))\" y2=\"\(n(e.y))\""
            (gradient, spread) = (g, sp)
        case .radialGradient(let g, let c0, let r0, let c1, let r1, let sp):
            guard [c0.x, c0.y, r0, c1.x, c1.y, r1].allSatisfy(\.isFinite) else { return nil }
            // The start circle is the focus (SVG 2's fr), the end circle the gradient's.
            head =
                "radialGradient cx=\"\(n(c1.x))\" cy=\"\(n(c1.y))\" r=\"\(n(max(0, r1)))\" fx=\"\(n(c0.x))\" fy=\"\(n(c0.y))\" fr=\"\(n(max(0, r0)))\""
            (gradient, spread) = (g, sp)
        default:
            return nil
        }
        guard !gradient.stops.isEmpty else { return nil }
        let id = "g\(gradientIDs.count + 1)"
        gradientIDs[key] = id
        var text = "<\(head) id=\"\(id)\" gradientUnits=\"userSpaceOnUse\""
        if t != .identity { text += " gradientTransform=\"matrix(\(PDFSyntax.matrix(t)))\"" }
        switch spread {
        case .pad: break
        case .repeat: text += " spreadMethod=\"repeat\""
        case .reflect: text += " spreadMethod=\"reflect\""
        }
        text += ">"
        for stop in gradient.stops {
            text += "<stop offset=\"\(n(stop.location))\" stop-color=\"\(Self.hex(stop.color))\""
            if stop.color.alpha < 1 { text += " stop-opacity=\"\(n(stop.color.alpha))\"" }
            text += "/>"
        }
        let element = head.prefix { $0 != " " }
        definitions += text + "</\(element)>\n"
        return id
    }

    /// Adds `text`, inside one group a clip for each of `clips` (nested
    /// groups intersect them, as every renderer reads them), and one more
    /// for an image mask's `<mask>`.
    private func element(_ text: String, clips: [VectorClip]) {
        var open = "", close = ""
        for c in clips {
            open += "<g clip-path=\"url(#\(clipID(c)))\">"
            close += "</g>"
            if let mask = c.mask, let id = maskID(mask, transform: c.transform) {
                open += "<g mask=\"url(#\(id))\">"
                close += "</g>"
            }
        }
        body += open + text + close + "\n"
    }

    /// The masks made so far.
    private var maskIDs: [VectorClip: String] = [:]

    /// The id of a `<mask>` showing the mask's image (white, its alpha the
    /// coverage: SVG's luminance mask of it is the coverage), placed by
    /// `transform`; nil when the image cannot be encoded.
    private func maskID(_ mask: VectorMask, transform t: Transform) -> String? {
        let key = VectorClip(path: Path(), transform: t, rule: .winding, mask: mask)
        if let id = maskIDs[key] { return id }
        guard let image = imageID(mask.image, pixelated: mask.interpolation == .none) else { return nil }
        let id = "m\(maskIDs.count + 1)"
        maskIDs[key] = id
        let r = mask.rect
        let place = Transform(
            a: r.width / Double(mask.image.width), b: 0, c: 0, d: r.height / Double(mask.image.height), tx: r.minX, ty: r.minY
        ).concatenating(t)
        let w = PDFSyntax.number(size.width), h = PDFSyntax.number(size.height)
        definitions +=
            "<mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\"><use xlink:href=\"#\(image)\" transform=\"matrix(\(PDFSyntax.matrix(place)))\"/></mask>\n"
        return id
    }

    /// The bodies of the groups begun and not ended, outermost first.
    private var groups: [String] = []

    func beginGroup() {
        recording.record(.beginGroup)
        groups.append(body)
        body = ""
    }

    /// Ends the groups left open (a transparency layer never ended), each
    /// drawn as it is, when the document is written.
    func endOpenGroups() {
        while !groups.isEmpty { endGroup(state: VectorState(transform: .identity, clips: [], alpha: 1, blendMode: .normal)) }
    }

    /// The group's elements in a `<g>` with the alpha (`opacity`) and blend
    /// mode, inside the clips.
    func endGroup(state: VectorState) {
        guard let outer = groups.popLast() else { return }
        recording.record(.endGroup(recording.index(state)))
        let inner = body
        body = outer
        if PageRecording.needsPixels(state.blendMode) {
            // A group in a Porter-Duff mode is a picture of what it
            // changes: its elements are dropped.
            if let (area, picture, _) = recording.groupPicture(page: Rect(x: 0, y: 0, width: size.width, height: size.height)) {
                place(picture, in: area)
            }
            return
        }
        guard state.alpha > 0, !inner.isEmpty else { return }
        var attributes = ""
        if state.alpha < 1 { attributes += " opacity=\"\(PDFSyntax.number(state.alpha))\"" }
        // A group is isolated, as a transparency layer is.
        attributes += blendStyle(state.blendMode).isEmpty ? "" : blendStyle(state.blendMode)
        element("<g\(attributes)>\n" + inner + "</g>", clips: state.clips)
    }

    /// The id of the clip path of `clip`, made when first needed.
    private func clipID(_ clip: VectorClip) -> String {
        if let id = clipIDs[clip] { return id }
        let id = "c\(clipIDs.count + 1)"
        clipIDs[clip] = id
        var attributes = "d=\"\(Self.pathData(clip.path, clip.transform))\""
        if clip.rule == .evenOdd { attributes += " clip-rule=\"evenodd\"" }
        definitions += "<clipPath id=\"\(id)\" clipPathUnits=\"userSpaceOnUse\"><path \(attributes)/></clipPath>\n"
        return id
    }

    /// CSS's `mix-blend-mode` for `mode`; nothing for normal, and for the
    /// Porter-Duff modes CSS blending lacks (those calls are pictures:
    /// `PageRecording`). Added light
    /// (`plusLighter`) is drawn as screen, as in PDF.
    private func blendStyle(_ mode: BlendMode) -> String {
        let name: String? =
            switch mode {
            case .multiply: "multiply"
            case .screen: "screen"
            case .overlay: "overlay"
            case .darken: "darken"
            case .lighten: "lighten"
            case .colorDodge: "color-dodge"
            case .colorBurn: "color-burn"
            case .hardLight: "hard-light"
            case .softLight: "soft-light"
            case .difference: "difference"
            case .exclusion: "exclusion"
            case .plusLighter: "screen"
            default: nil
            }
        return name.map { " style=\"mix-blend-mode:\($0)\"" } ?? ""
    }

    /// `color` as `#rrggbb` (its alpha goes to the opacity attributes).
    static func hex(_ color: Color) -> String {
        func byte(_ v: Double) -> String {
            let b = Int((max(0, min(1, v)) * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[b >> 4], digits[b & 15]])
        }
        return "#" + byte(color.red) + byte(color.green) + byte(color.blue)
    }

    /// Path data for `path` under `transform`: `M`, `L`, `Q`, `C`, `Z`,
    /// numbers to a thousandth (written straight into bytes, as a PDF
    /// page's are).
    static func pathData(_ path: Path, _ t: Transform) -> String {
        let out = PDFContent()
        path.forEach { element in
            switch element {
            case .move(let to):
                out.append("M")
                out.point(to, t)
            case .line(let to):
                out.append("L")
                out.point(to, t)
            case .quadCurve(let to, let control):
                out.append("Q")
                out.point(control, t)
                out.point(to, t)
            case .curve(let to, let c1, let c2):
                out.append("C")
                out.point(c1, t)
                out.point(c2, t)
                out.point(to, t)
            case .closeSubpath: out.append("Z")
            }
        }
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `s` with XML's special characters escaped, and characters XML 1.0
    /// cannot hold (controls other than tab and line breaks) left out.
    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            default:
                if c.value >= 0x20 && c.value != 0xFFFE && c.value != 0xFFFF { out.unicodeScalars.append(c) }
            }
        }
        return out
    }
}
