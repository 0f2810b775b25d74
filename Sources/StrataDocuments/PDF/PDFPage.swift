import StrataGraphics
import StrataText

/// One page's content stream, written as a vector canvas draws on it.
///
/// User space is the canvas's: points, origin at the top left, y down (the
/// stream starts by flipping PDF's y-up page). Each drawing call is one
/// `q … Q` group: its clips (each path placed on the page, then `W n`),
/// its transparency and blend mode (an `ExtGState`), its colour, its path,
/// and the painting operator. Fills are placed on the page point by point;
/// strokes are drawn in user space under the transform (`cm`), so a
/// stretched transform stretches the pen as it does on a bitmap.
///
/// A transparency layer is a form XObject with a transparency group,
/// painted with the clips, alpha and blend mode in force when it ends. A
/// clip to an image mask is a soft mask (`/SMask`, its alpha the mask's
/// coverage) set with the clip's rectangle; PDF keeps one soft mask at a
/// time, so with two image masks in force the inner one is drawn in a group
/// the outer one masks. Forms and masks use the page's resources.
final class PDFPage: GlyphDevice {
    let size: Size
    private(set) var content: [UInt8] = []
    /// The graphics-state dictionaries used, by their entries, with their
    /// resource names.
    private(set) var extGStates: [String: String] = [:]
    /// The shadings used, by their dictionaries, with their resource names.
    private(set) var shadings: [String: String] = [:]
    /// Objects the resources refer to (soft masks' forms), written with
    /// the page; the resources name object `k` of them as `@k@`, and
    /// `@resources@` names the page's resources.
    private(set) var objects: [(dictionary: String, stream: [UInt8])] = []
    /// The forms of transparency groups, by the index of their object.
    private(set) var forms: [Int] = []
    /// The content of the groups begun and not ended, outermost first.
    private var groups: [[UInt8]] = []
    /// The soft masks made for image masks, by the mask, with the
    /// graphics state that sets each.
    private var maskStates: [VectorMask: String] = [:]

    /// The document's images, shared by its pages.
    let images: PDFImages
    /// The images this page draws, by their index in the document.
    private(set) var imagesUsed: Set<Int> = []
    /// The document's fonts, shared by its pages, and those this page uses.
    let fonts: PDFFonts
    private(set) var fontsUsed: Set<Int> = []

    init(size: Size, images: PDFImages, fonts: PDFFonts) {
        self.size = size
        self.images = images
        self.fonts = fonts
        // Flip the page: y down from the top left, as the canvas draws.
        emit("1 0 0 -1 0 \(PDFSyntax.number(size.height)) cm\n")
    }

    private func emit(_ s: String) { content += Array(s.utf8) }

    func fill(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        masked(state) { fillMasked(path, rule: rule, paint: paint, state: $0) }
    }

    private func fillMasked(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        guard case .color(let color) = paint else { return fillShading(path, rule: rule, paint: paint, state: state) }
        let alpha = color.alpha * state.alpha
        guard alpha > 0 else { return }
        emit("q\n")
        clip(state.clips)
        graphicsState(fill: alpha, stroke: nil, blend: state.blendMode)
        emit("\(PDFSyntax.number(color.red)) \(PDFSyntax.number(color.green)) \(PDFSyntax.number(color.blue)) rg\n")
        emitPath(path, transform: state.transform)
        emit(rule == .evenOdd ? "f*\nQ\n" : "f\nQ\n")
    }

    func stroke(_ path: Path, style: StrokeStyle, paint: Paint, state: VectorState) {
        masked(state) { strokeMasked(path, style: style, paint: paint, state: $0) }
    }

    private func strokeMasked(_ path: Path, style: StrokeStyle, paint: Paint, state: VectorState) {
        guard case .color(let color) = paint else { return }
        let alpha = color.alpha * state.alpha
        let t = state.transform
        // A transform that cannot be undone draws no stroke, as on a bitmap.
        guard alpha > 0, style.lineWidth.isFinite, style.lineWidth >= 0, t.inverted() != nil else { return }
        emit("q\n")
        clip(state.clips)
        graphicsState(fill: nil, stroke: alpha, blend: state.blendMode)
        emit("\(PDFSyntax.number(color.red)) \(PDFSyntax.number(color.green)) \(PDFSyntax.number(color.blue)) RG\n")
        if t != .identity {
            emit(PDFSyntax.matrix(t) + " cm\n")
        }
        let cap =
            switch style.lineCap {
            case .butt: 0
            case .round: 1
            case .square: 2
            }
        let join =
            switch style.lineJoin {
            case .miter: 0
            case .round: 1
            case .bevel: 2
            }
        let miter = style.miterLimit.isFinite ? max(1, style.miterLimit) : 1
        emit("\(PDFSyntax.number(style.lineWidth)) w \(cap) J \(join) j \(PDFSyntax.number(miter)) M\n")
        let dashes = style.dashLengths
        if !dashes.isEmpty, dashes.allSatisfy({ $0.isFinite && $0 >= 0 }), dashes.contains(where: { $0 > 0 }) {
            let phase = style.dashPhase.isFinite ? style.dashPhase : 0
            emit("[\(dashes.map(PDFSyntax.number).joined(separator: " "))] \(PDFSyntax.number(phase)) d\n")
        }
        emitPath(path, transform: .identity)
        emit("S\nQ\n")
    }

    /// Draws `image` over `rect`: the document's XObject of it, placed by
    /// the transform and the rectangle (its first row at the top).
    func draw(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState) {
        masked(state) { drawMasked(image, in: rect, interpolation: interpolation, state: $0) }
    }

    private func drawMasked(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState) {
        let t = state.transform
        guard state.alpha > 0, t.inverted() != nil else { return }
        let index = images.index(of: image, smooth: interpolation != .none)
        imagesUsed.insert(index)
        emit("q\n")
        clip(state.clips)
        graphicsState(fill: state.alpha, stroke: nil, blend: state.blendMode)
        if t != .identity { emit(PDFSyntax.matrix(t) + " cm\n") }
        // The unit square, first row at its top, onto the rectangle (y down).
        let place = [rect.width, 0, 0, -rect.height, rect.minX, rect.maxY].map(PDFSyntax.number).joined(separator: " ")
        emit("\(place) cm\n/Im\(index) Do\nQ\n")
    }

    /// Draws glyphs as text: the document's font of `face` (a subset), each
    /// glyph placed by its own text matrix (upright in the page's flipped
    /// space), its id the character code (`Identity-H`).
    func drawGlyphs(
        _ glyphs: [UInt32], positions: [Point], texts: [String], face: FontFace, size: Double, color: Color, state: VectorState
    ) {
        masked(state) { drawGlyphsMasked(glyphs, positions: positions, texts: texts, face: face, size: size, color: color, state: $0) }
    }

    private func drawGlyphsMasked(
        _ glyphs: [UInt32], positions: [Point], texts: [String], face: FontFace, size: Double, color: Color, state: VectorState
    ) {
        let alpha = color.alpha * state.alpha
        let t = state.transform
        guard alpha > 0, size.isFinite, size > 0, t.inverted() != nil, !glyphs.isEmpty else { return }
        let index = fonts.use(face, glyphs: glyphs, texts: texts)
        fontsUsed.insert(index)
        emit("q\n")
        clip(state.clips)
        graphicsState(fill: alpha, stroke: nil, blend: state.blendMode)
        if t != .identity { emit(PDFSyntax.matrix(t) + " cm\n") }
        var out = "\(PDFSyntax.number(color.red)) \(PDFSyntax.number(color.green)) \(PDFSyntax.number(color.blue)) rg\nBT\n/F\(index) 1 Tf\n"
        let s = PDFSyntax.number(size), minus = PDFSyntax.number(-size)
        for (g, p) in zip(glyphs, positions) where p.x.isFinite && p.y.isFinite && g <= 0xFFFF {
            out += "\(s) 0 0 \(minus) \(PDFSyntax.number(p.x)) \(PDFSyntax.number(p.y)) Tm <" + String(format: "%04X", g) + "> Tj\n"
        }
        emit(out + "ET\nQ\n")
    }

    /// Each clip's path placed on the page, intersected in turn, and the
    /// soft mask of the innermost image mask.
    private func clip(_ clips: [VectorClip]) {
        emit(clipText(clips))
    }

    /// The operators of `clip(_:)`.
    private func clipText(_ clips: [VectorClip]) -> String {
        var text = ""
        var mask: VectorMask?
        for c in clips {
            text += Self.pathText(c.path, c.transform) + (c.rule == .evenOdd ? "W* n\n" : "W n\n")
            if let m = c.mask { mask = m }
        }
        if let mask, let transform = clips.last(where: { $0.mask == mask })?.transform {
            text += "/\(maskState(mask, transform: transform)) gs\n"
        }
        return text
    }

    /// The graphics state whose soft mask is `mask` placed by `transform`:
    /// a form drawing the mask's image (white, its alpha the coverage),
    /// whose alpha is the mask (`/S /Alpha`; outside the image nothing
    /// shows).
    private func maskState(_ mask: VectorMask, transform t: Transform) -> String {
        if let name = maskStates[mask] { return name }
        let index = images.index(of: mask.image, smooth: mask.interpolation != .none)
        imagesUsed.insert(index)
        let r = mask.rect
        let place = [r.width, 0, 0, -r.height, r.minX, r.maxY].map(PDFSyntax.number).joined(separator: " ")
        let content = "q \(PDFSyntax.matrix(t)) cm \(place) cm /Im\(index) Do Q\n"
        objects.append((formDictionary(group: true), Array(content.utf8)))
        let entries = " /SMask << /Type /Mask /S /Alpha /G @\(objects.count - 1)@ >>"
        let name = extGStates[entries] ?? "GS\(extGStates.count)"
        extGStates[entries] = name
        maskStates[mask] = name
        return name
    }

    /// A form's dictionary: the page's box and resources, a transparency
    /// group when `group`.
    private func formDictionary(group: Bool) -> String {
        let box = "[0 0 \(PDFSyntax.number(size.width)) \(PDFSyntax.number(size.height))]"
        return "/Type /XObject /Subtype /Form /BBox \(box)\(group ? " /Group << /S /Transparency >>" : "") /Resources @resources@"
    }

    func beginGroup() {
        groups.append(content)
        content = []
    }

    /// Ends the groups left open (a transparency layer never ended), each
    /// drawn as it is, when the document is written.
    func endOpenGroups() {
        while !groups.isEmpty { endGroup(state: VectorState(transform: .identity, clips: [], alpha: 1, blendMode: .normal)) }
    }

    /// Makes the group's content a form with a transparency group, and
    /// paints it (`Do`) through the clips with the alpha and blend mode.
    func endGroup(state: VectorState) {
        guard let outer = groups.popLast() else { return }
        let inner = content
        content = outer
        guard state.alpha > 0 else { return }
        objects.append((formDictionary(group: true), inner))
        let form = objects.count - 1
        forms.append(form)
        masked(state) { state in
            emit("q\n")
            clip(state.clips)
            graphicsState(fill: state.alpha, stroke: state.alpha, blend: state.blendMode)
            emit("/Fm\(form) Do\nQ\n")
        }
    }

    /// Runs `draw` with `state`, or, when more than one image mask is in
    /// force (PDF has one soft mask at a time), with the clips from the
    /// innermost mask on, in a group that the outer clips mask in turn.
    private func masked(_ state: VectorState, _ draw: (VectorState) -> Void) {
        let masks = state.clips.indices.filter { state.clips[$0].mask != nil }
        guard masks.count > 1, let last = masks.last else { return draw(state) }
        var inside = state, outside = state
        inside.clips = Array(state.clips[last...])
        outside.clips = Array(state.clips[..<last])
        outside.alpha = 1
        outside.blendMode = .normal
        beginGroup()
        draw(inside)
        endGroup(state: outside)
    }

    /// Colours, and linear and radial gradients that pad; the canvas draws
    /// the rest (conic gradients, patterns, repeating spreads) as images.
    func canPaint(_ paint: Paint) -> Bool {
        switch paint {
        case .color: true
        case .linearGradient(_, _, _, let spread), .radialGradient(_, _, _, _, _, let spread): spread == .pad
        default: false
        }
    }

    /// Fills `path` with a gradient: the path becomes the clip, and the
    /// gradient's shading (an axial or radial `sh`, its colours a stitched
    /// function of the stops) paints it under the transform. Stops that
    /// are not opaque make a soft mask: the same shading in grey, of the
    /// stops' alphas. Gradients that repeat or reflect, conic gradients and
    /// image patterns are not drawn yet.
    private func fillShading(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        shade((path, rule), paint: paint, extend: (true, true), state: state)
    }

    /// Fills the clip with the gradient, extended beyond its ends as asked
    /// (`sh` paints the whole clip).
    func drawGradient(_ paint: Paint, extendStart: Bool, extendEnd: Bool, state: VectorState) {
        masked(state) { drawGradientMasked(paint, extendStart: extendStart, extendEnd: extendEnd, state: $0) }
    }

    private func drawGradientMasked(_ paint: Paint, extendStart: Bool, extendEnd: Bool, state: VectorState) {
        shade(nil, paint: paint, extend: (extendStart, extendEnd), state: state)
    }

    /// Paints the gradient `paint` through the clips (and `shape`, when
    /// given), extended as `extend` says.
    private func shade(_ shape: (path: Path, rule: FillRule)?, paint: Paint, extend: (Bool, Bool), state: VectorState) {
        let t = state.transform
        guard state.alpha > 0, t.inverted() != nil else { return }
        let geometry: (type: Int, coords: [Double]), gradient: Gradient
        switch paint {
        case .linearGradient(let g, let start, let end, let spread) where spread == .pad:
            geometry = (2, [start.x, start.y, end.x, end.y])
            gradient = g
        case .radialGradient(let g, let c0, let r0, let c1, let r1, let spread) where spread == .pad:
            geometry = (3, [c0.x, c0.y, max(0, r0), c1.x, c1.y, max(0, r1)])
            gradient = g
        default:
            return
        }
        guard !gradient.stops.isEmpty, geometry.coords.allSatisfy(\.isFinite) else { return }
        if gradient.stops.contains(where: { $0.color.alpha < 1 }), state.clips.contains(where: { $0.mask != nil }) {
            // The stops' alphas are a soft mask, as is the image mask: the
            // gradient is drawn in a group the image mask masks.
            var inside = state
            inside.clips = []
            inside.alpha = 1
            inside.blendMode = .normal
            beginGroup()
            shade(shape, paint: paint, extend: extend, state: inside)
            return endGroup(state: state)
        }
        func shading(_ space: String, _ values: (Color) -> [Double]) -> String {
            let coords = geometry.coords.map(PDFSyntax.number).joined(separator: " ")
            return
                "<< /ShadingType \(geometry.type) /ColorSpace /\(space) /Coords [\(coords)] /Function \(Self.function(gradient.stops, values)) /Extend [\(extend.0) \(extend.1)] >>"
        }
        let colors = shadingName(shading("DeviceRGB") { [$0.red, $0.green, $0.blue] })
        let clips = clipText(state.clips)
        let clipAndPaint = { (name: String) -> String in
            var text = clips
            if let shape { text += Self.pathText(shape.path, t) + (shape.rule == .evenOdd ? "W* n\n" : "W n\n") }
            text += PDFSyntax.matrix(t) + " cm\n"
            return text + "/\(name) sh\n"
        }
        emit("q\n")
        var mask = ""
        if gradient.stops.contains(where: { $0.color.alpha < 1 }) {
            // The soft mask: a form painting the alphas in grey where the
            // fill goes (its coordinates are the page's, as here).
            let grey = shading("DeviceGray") { [$0.alpha] }
            let content = Array(clipAndPaint("Sh0").utf8)
            let box = "[0 0 \(PDFSyntax.number(size.width)) \(PDFSyntax.number(size.height))]"
            objects.append(
                (
                    "/Type /XObject /Subtype /Form /BBox \(box) /Group << /S /Transparency /CS /DeviceGray >> /Resources << /Shading << /Sh0 \(grey) >> >>",
                    content
                ))
            mask = " /SMask << /Type /Mask /S /Luminosity /G @\(objects.count - 1)@ >>"
        }
        graphicsState(fill: state.alpha, stroke: nil, blend: state.blendMode, extra: mask)
        emit(clipAndPaint(colors))
        emit("Q\n")
    }

    /// The name of `dictionary` among the page's shadings.
    private func shadingName(_ dictionary: String) -> String {
        let name = shadings[dictionary] ?? "Sh\(shadings.count)"
        shadings[dictionary] = name
        return name
    }

    /// A PDF function from 0 … 1 to the stops' `values`: one exponential
    /// (linear) piece between each two stops, stitched, the first and last
    /// colours held out to 0 and 1.
    static func function(_ stops: [Gradient.Stop], _ values: (Color) -> [Double]) -> String {
        func array(_ v: [Double]) -> String { "[" + v.map(PDFSyntax.number).joined(separator: " ") + "]" }
        func piece(_ a: Color, _ b: Color) -> String {
            "<< /FunctionType 2 /Domain [0 1] /C0 \(array(values(a))) /C1 \(array(values(b))) /N 1 >>"
        }
        guard let first = stops.first, let last = stops.last else { return piece(.clear, .clear) }
        var points = stops
        if first.location > 0 { points.insert(Gradient.Stop(color: first.color, location: 0), at: 0) }
        if last.location < 1 { points.append(Gradient.Stop(color: last.color, location: 1)) }
        guard points.count > 2 else { return piece(points[0].color, points[points.count - 1].color) }
        let pieces = (0..<points.count - 1).map { piece(points[$0].color, points[$0 + 1].color) }
        let bounds = points.dropFirst().dropLast().map(\.location)
        let encode = Array(repeating: "0 1", count: pieces.count).joined(separator: " ")
        return "<< /FunctionType 3 /Domain [0 1] /Functions [\(pieces.joined(separator: " "))] /Bounds \(array(bounds)) /Encode [\(encode)] >>"
    }

    /// An `ExtGState` for these alphas and blend mode (and `extra`
    /// entries), named in the page's resources, set with `gs` (nothing for
    /// opaque normal drawing).
    private func graphicsState(fill: Double?, stroke: Double?, blend: BlendMode, extra: String = "") {
        var entries = ""
        if let fill, fill < 1 { entries += " /ca \(PDFSyntax.number(fill))" }
        if let stroke, stroke < 1 { entries += " /CA \(PDFSyntax.number(stroke))" }
        if let name = PDFPage.blendName(blend), name != "Normal" { entries += " /BM /\(name)" }
        entries += extra
        guard !entries.isEmpty else { return }
        let name = extGStates[entries] ?? "GS\(extGStates.count)"
        extGStates[entries] = name
        emit("/\(name) gs\n")
    }

    /// PDF's name for `mode`; nil for the Porter-Duff modes PDF has no
    /// blend mode for (drawn as normal). Added light (`plusLighter`) is
    /// drawn as screen, its nearest: the same over black, and a little
    /// darker where both are bright.
    static func blendName(_ mode: BlendMode) -> String? {
        switch mode {
        case .normal: "Normal"
        case .multiply: "Multiply"
        case .screen: "Screen"
        case .overlay: "Overlay"
        case .darken: "Darken"
        case .lighten: "Lighten"
        case .colorDodge: "ColorDodge"
        case .colorBurn: "ColorBurn"
        case .hardLight: "HardLight"
        case .softLight: "SoftLight"
        case .difference: "Difference"
        case .exclusion: "Exclusion"
        case .plusLighter: "Screen"
        default: nil
        }
    }

    private func emitPath(_ path: Path, transform t: Transform) {
        emit(Self.pathText(path, t))
    }

    /// `path`'s segments under `transform`: `m`, `l`, `c` (a quadratic
    /// curve raised to a cubic) and `h`.
    static func pathText(_ path: Path, _ t: Transform) -> String {
        var current = Point(x: 0, y: 0)
        var start = current
        func p(_ q: Point) -> String {
            let x = t.a * q.x + t.c * q.y + t.tx, y = t.b * q.x + t.d * q.y + t.ty
            return PDFSyntax.number(x) + " " + PDFSyntax.number(y)
        }
        var out = ""
        path.forEach { element in
            switch element {
            case .move(let to):
                out += p(to) + " m\n"
                current = to
                start = to
            case .line(let to):
                out += p(to) + " l\n"
                current = to
            case .quadCurve(let to, let control):
                let c1 = Point(x: current.x + 2 / 3 * (control.x - current.x), y: current.y + 2 / 3 * (control.y - current.y))
                let c2 = Point(x: to.x + 2 / 3 * (control.x - to.x), y: to.y + 2 / 3 * (control.y - to.y))
                out += p(c1) + " " + p(c2) + " " + p(to) + " c\n"
                current = to
            case .curve(let to, let control1, let control2):
                out += p(control1) + " " + p(control2) + " " + p(to) + " c\n"
                current = to
            case .closeSubpath:
                out += "h\n"
                current = start
            }
        }
        return out
    }
}
