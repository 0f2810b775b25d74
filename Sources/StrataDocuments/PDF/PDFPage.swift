import StrataGraphics
import StrataText

/// One page's content stream, written as a vector canvas draws on it.
///
/// User space is the canvas's: points, origin at the top left, y down (the
/// stream starts by flipping PDF's y-up page). The stream keeps the
/// graphics state between drawing calls, as Cairo's PDF surface does: the
/// clips in force are set once in a `q … Q` group that lasts while they do,
/// and colours, transparency (an `ExtGState`), blend mode and line style
/// are written only when they change. Fills are placed on the page point
/// by point (a rectangle is one `re`); strokes under a transform are drawn
/// in user space under it (`cm`, in a group of their own), so a stretched
/// transform stretches the pen as it does on a bitmap.
///
/// A transparency layer is a form XObject with a transparency group,
/// painted with the clips, alpha and blend mode in force when it ends. A
/// clip to an image mask is a soft mask (`/SMask`, its alpha the mask's
/// coverage) set with the clip's rectangle; PDF keeps one soft mask at a
/// time, so with two image masks in force the inner one is drawn in a group
/// the outer one masks. Forms and masks use the page's resources.
final class PDFPage: GlyphDevice {
    let size: Size
    private var out = PDFContent(kept: true)
    /// The content stream's length in bytes.
    var contentCount: Int { out.count }

    /// Runs `body` with the content stream's bytes (no copy).
    func withContent<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { out.withBytes(body) }
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
    /// The content of the groups begun and not ended, outermost first,
    /// with what each had set.
    private var groups: [(content: PDFContent, written: Written)] = []
    /// The soft masks made for image masks, by the mask, with the
    /// graphics state that sets each.
    private var maskStates: [VectorMask: String] = [:]

    /// What the stream has set, so that only changes are written. A clip
    /// group's `Q` takes it back to what it was at the group's `q`; a
    /// group's form starts from PDF's initial state.
    private struct Written {
        /// The clips set in the open `q` group; nil when none is open.
        var clips: [VectorClip]?
        var fill: Color?
        var stroke: Color?
        var fillAlpha = 1.0
        var strokeAlpha = 1.0
        var blend = BlendMode.normal
        var lineWidth = 1.0
        var cap = 0
        var join = 0
        var miter = 10.0
        var dash: [Double] = []
        var dashPhase = 0.0
    }
    private var written = Written()

    /// The document's images, shared by its pages.
    let images: PDFImages
    /// The images this page draws, by their index in the document.
    private(set) var imagesUsed: Set<Int> = []
    /// The document's fonts, shared by its pages, and those this page uses.
    let fonts: PDFFonts
    private(set) var fontsUsed: Set<Int> = []

    /// Every call, for the Porter-Duff modes' pictures.
    let recording = PageRecording()

    /// Records `call`; a call in a Porter-Duff mode is drawn here as a
    /// picture of its area (the page there drawn again, then the call):
    /// true when it was, and the caller draws nothing more.
    private func recordedAsPixels(_ call: PageRecording.Call, mode: BlendMode) -> Bool {
        placed(recording.take(call, mode: mode, page: pageRect))
    }

    /// `recordedAsPixels` for a rectangle or an ellipse.
    @inline(__always)
    private func shapeRecordedAsPixels(_ rect: Rect, ellipse: Bool, _ paint: Paint, _ state: VectorState) -> Bool {
        placed(recording.takeShape(rect, ellipse: ellipse, paint, state, page: pageRect))
    }

    /// Places what the recording took, if it is a picture; whether it was one.
    @inline(__always)
    private func placed(_ taken: (area: Rect, picture: Image, onPage: Bool)??) -> Bool {
        guard let taken else { return false }
        if let (area, picture, onPage) = taken { place(picture, in: area, onPage: onPage) }
        return true
    }

    /// Draws a picture of the page (or of the open group) over `area`.
    private func place(_ picture: Image, in area: Rect, onPage: Bool) {
        let plain = VectorState(transform: .identity, clips: [], alpha: 1, blendMode: .normal)
        if onPage {
            // The page's stream may be deflated already: the picture goes
            // over what is there, on the paper's white.
            drawMasked(PageRecording.onPaper(picture), in: area, interpolation: .default, state: plain)
        } else {
            // In a group, what it drew so far is kept outside the area
            // (an even-odd clip of the page less the area), so the
            // picture's transparent pixels show the group's backdrop.
            closeClips()
            let wrapped = PDFContent()
            wrapped.append("q\n")
            wrapped.path(Path(rect: pageRect), .identity)
            wrapped.path(Path(rect: area), .identity)
            wrapped.append("W* n\n")
            out.withBytes { wrapped.append(contentsOf: $0) }
            wrapped.append("Q\n")
            out = wrapped
            written = Written()
            drawMasked(picture, in: area, interpolation: .default, state: plain)
        }
        sendStretch()
    }

    /// Deflates the content stream in the background as it grows (with
    /// `.fast` compression), until the document is written.
    private var deflater: PDFDeflater?
    /// The content compressed by the deflater, and the length of content
    /// it is of.
    private var compressed: (length: Int, bytes: [UInt8])?

    /// The content stream compressed, when the background deflater made
    /// it (and nothing was drawn since); nil otherwise.
    func compressedContent() -> [UInt8]? {
        if let deflater {
            self.deflater = nil
            compressed = deflater.finish(out).map { (out.count, $0) }
        }
        guard let compressed, compressed.length == out.count else { return nil }
        return compressed.bytes
    }

    /// Hands the deflater the stream's new stretch, if long enough.
    private func sendStretch() {
        if groups.isEmpty, let deflater { deflater.sendIfLong(out) }
    }

    init(size: Size, images: PDFImages, fonts: PDFFonts, deflatesInBackground: Bool = false) {
        if deflatesInBackground { deflater = PDFDeflater() }
        self.size = size
        self.images = images
        self.fonts = fonts
        // Flip the page: y down from the top left, as the canvas draws.
        emit("1 0 0 -1 0 \(PDFSyntax.number(size.height)) cm\n")
    }

    private func emit(_ s: String) { out.append(s) }

    /// The page's rectangle, in its user space.
    private var pageRect: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The page's box, `[0 0 width height]`, as forms' `/BBox` have it.
    private var pageBox: String { "[0 0 \(PDFSyntax.number(size.width)) \(PDFSyntax.number(size.height))]" }

    /// The resource name of the graphics-state dictionary of `entries`,
    /// made when first used.
    private func extGStateName(_ entries: String) -> String {
        let name = extGStates[entries] ?? "GS\(extGStates.count)"
        extGStates[entries] = name
        return name
    }

    /// The placement of an image XObject (the unit square, its first row at
    /// the top) over `rect` in y-down user space.
    private static func imagePlacement(_ rect: Rect) -> Transform {
        Transform(a: rect.width, b: 0, c: 0, d: -rect.height, tx: rect.minX, ty: rect.maxY)
    }

    /// Sets `clips` as the clips in force: nothing when they are already;
    /// otherwise the open clip group ends and, for any clips, a new one
    /// begins.
    private func setClips(_ clips: [VectorClip]) {
        if let open = written.clips {
            if open == clips { return }
            closeClips()
        }
        guard !clips.isEmpty else { return }
        writtenOutsideClips = written
        out.append("q\n")
        writeClips(clips)
        written.clips = clips
    }

    /// What the stream had set when the open clip group began: its `Q`
    /// takes the stream back to it.
    private var writtenOutsideClips = Written()

    /// Ends the open clip group, if any.
    private func closeClips() {
        guard written.clips != nil else { return }
        out.append("Q\n")
        written = writtenOutsideClips
    }

    /// Each clip's path placed on the page, intersected in turn, and the
    /// soft mask of the innermost image mask.
    private func writeClips(_ clips: [VectorClip]) {
        var mask: (VectorMask, Transform)?
        for c in clips {
            out.path(c.path, c.transform)
            out.append(c.rule == .evenOdd ? "W* n\n" : "W n\n")
            if let m = c.mask { mask = (m, c.transform) }
        }
        if let (m, t) = mask { emit("/\(maskState(m, transform: t)) gs\n") }
    }

    /// Writes `color` (its red, green and blue: alpha is the graphics
    /// state's) as the fill colour, unless it is already.
    private func setFill(_ color: Color) {
        if let c = written.fill, c.red == color.red, c.green == color.green, c.blue == color.blue { return }
        out.color(color, stroke: false)
        written.fill = color
    }

    /// Writes `color`'s red, green and blue as the stroke colour, unless it is already.
    private func setStroke(_ color: Color) {
        if let c = written.stroke, c.red == color.red, c.green == color.green, c.blue == color.blue { return }
        out.color(color, stroke: true)
        written.stroke = color
    }

    /// Sets the fill and stroke alphas and the blend mode (nil alphas stay
    /// as they are), through an `ExtGState` of the three.
    private func setTransparency(fill: Double?, stroke: Double?, blend: BlendMode) {
        // What every call of a run of fills asks for: nothing changes.
        if blend == written.blend, stroke == nil, fill == written.fillAlpha { return }
        let ca = fill.map { max(0, min(1, $0)) } ?? written.fillAlpha
        let CA = stroke.map { max(0, min(1, $0)) } ?? written.strokeAlpha
        // Modes PDF lacks are drawn as normal.
        let mode = PDFPage.blendName(blend) == nil ? BlendMode.normal : blend
        guard ca != written.fillAlpha || CA != written.strokeAlpha || mode != written.blend else { return }
        let entries = " /ca \(PDFSyntax.number(ca)) /CA \(PDFSyntax.number(CA)) /BM /\(PDFPage.blendName(mode) ?? "Normal")"
        emit("/\(extGStateName(entries)) gs\n")
        written.fillAlpha = ca
        written.strokeAlpha = CA
        written.blend = mode
    }

    func fill(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        if recordedAsPixels(.fill(path, rule, paint, recording.index(state)), mode: state.blendMode) { return }
        masked(state) { fillMasked(path, rule: rule, paint: paint, state: $0) }
    }

    private func fillMasked(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        if case .pattern(let image, let transform, let spread) = paint, spread != .pad {
            return fillPattern(path, rule: rule, image: image, transform: transform, reflect: spread == .reflect, state: state)
        }
        guard case .color(let color) = paint else { return fillShading(path, rule: rule, paint: paint, state: state) }
        let alpha = color.alpha * state.alpha
        guard alpha > 0 else { return }
        setClips(state.clips)
        setTransparency(fill: alpha, stroke: nil, blend: state.blendMode)
        setFill(color)
        if let (c, rx, ry) = PDFContent.ellipse(path) {
            // An ellipse is the page's unit circle, placed: the same
            // curves, in a sixth of the bytes.
            return placeUnitCircle(center: c, rx: rx, ry: ry, state.transform)
        }
        out.path(path, state.transform)
        out.append(rule == .evenOdd ? "f*\n" : "f\n")
    }

    /// The form that fills the unit circle (as `Path(ellipseIn:)` draws
    /// it) in the colour and transparency in force, made when first used.
    private var unitCircleForm: Int?

    private func unitCircle() -> Int {
        if let unitCircleForm { return unitCircleForm }
        let content = PDFContent()
        content.path(Path(ellipseIn: Rect(x: -1, y: -1, width: 2, height: 2)), .identity)
        content.append("f\n")
        objects.append(("/Type /XObject /Subtype /Form /BBox [-1 -1 1 1] /Resources << >>", content.bytes))
        forms.append(objects.count - 1)
        unitCircleForm = objects.count - 1
        return objects.count - 1
    }

    /// A rectangle in a colour is one `re` (upright under the transform)
    /// or a path; in a gradient, the gradient's fill.
    func fill(_ rect: Rect, paint: Paint, state: VectorState) {
        if shapeRecordedAsPixels(rect, ellipse: false, paint, state) { return }
        let t = state.transform
        guard case .color(let color) = paint, t.b == 0, t.c == 0, state.clips.isEmpty || !state.clips.contains(where: { $0.mask != nil })
        else {
            return fill(Path(rect: rect), rule: .winding, paint: paint, state: state)
        }
        let alpha = color.alpha * state.alpha
        guard alpha > 0 else { return }
        setClips(state.clips)
        setTransparency(fill: alpha, stroke: nil, blend: state.blendMode)
        setFill(color)
        let x0 = t.a * rect.minX + t.tx, y0 = t.d * rect.minY + t.ty
        out.number(x0)
        out.number(y0)
        out.number(t.a * rect.maxX + t.tx - x0)
        out.number(t.d * rect.maxY + t.ty - y0)
        out.append("re\nf\n")
        sendStretch()
    }

    /// An ellipse in a colour is the page's unit circle, placed; in a
    /// gradient, the gradient's fill of its path.
    func fill(ellipseIn rect: Rect, paint: Paint, state: VectorState) {
        if shapeRecordedAsPixels(rect, ellipse: true, paint, state) { return }
        guard case .color(let color) = paint, !state.clips.contains(where: { $0.mask != nil }) else {
            return fill(Path(ellipseIn: rect), rule: .winding, paint: paint, state: state)
        }
        let alpha = color.alpha * state.alpha
        guard alpha > 0 else { return }
        setClips(state.clips)
        setTransparency(fill: alpha, stroke: nil, blend: state.blendMode)
        setFill(color)
        placeUnitCircle(center: Point(x: rect.midX, y: rect.midY), rx: rect.width / 2, ry: rect.height / 2, state.transform)
        sendStretch()
    }

    /// `q`, the unit circle onto the ellipse under `t`, `Do`, `Q`.
    private func placeUnitCircle(center c: Point, rx: Double, ry: Double, _ t: Transform) {
        out.append("q\n")
        out.matrix(Transform(a: rx, b: 0, c: 0, d: ry, tx: c.x, ty: c.y).concatenating(t))
        out.append("/Fm")
        out.integer(unitCircle())
        out.append(" Do\nQ\n")
    }

    func stroke(_ path: Path, style: StrokeStyle, paint: Paint, state: VectorState) {
        if recordedAsPixels(.stroke(path, style, paint, recording.index(state)), mode: state.blendMode) { return }
        masked(state) { strokeMasked(path, style: style, paint: paint, state: $0) }
    }

    private func strokeMasked(_ path: Path, style: StrokeStyle, paint: Paint, state: VectorState) {
        guard case .color(let color) = paint else { return }
        let alpha = color.alpha * state.alpha
        let t = state.transform
        // A transform that cannot be undone draws no stroke, as on a bitmap.
        guard alpha > 0, style.lineWidth.isFinite, style.lineWidth >= 0, t.inverted() != nil else { return }
        setClips(state.clips)
        setTransparency(fill: nil, stroke: alpha, blend: state.blendMode)
        setStroke(color)
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
        var dashes = style.dashLengths
        var phase = style.dashPhase.isFinite ? style.dashPhase : 0
        if dashes.isEmpty || !dashes.allSatisfy({ $0.isFinite && $0 >= 0 }) || !dashes.contains(where: { $0 > 0 }) {
            dashes = []
            phase = 0
        }
        // Under a transform the pen is set in user space, in a group of
        // its own (the stream's line style stays as written).
        let transformed = t != .identity
        if transformed {
            out.append("q\n")
            out.matrix(t)
        }
        if transformed || style.lineWidth != written.lineWidth {
            out.number(style.lineWidth)
            out.append("w\n")
        }
        if transformed || cap != written.cap { emit("\(cap) J\n") }
        if transformed || join != written.join { emit("\(join) j\n") }
        if transformed || miter != written.miter {
            out.number(miter)
            out.append("M\n")
        }
        if transformed || dashes != written.dash || phase != written.dashPhase {
            emit("[\(dashes.map(PDFSyntax.number).joined(separator: " "))] \(PDFSyntax.number(phase)) d\n")
        }
        out.path(path, .identity)
        if transformed {
            out.append("S\nQ\n")
        } else {
            out.append("S\n")
            written.lineWidth = style.lineWidth
            written.cap = cap
            written.join = join
            written.miter = miter
            written.dash = dashes
            written.dashPhase = phase
        }
    }

    /// Draws `image` over `rect`: the document's XObject of it, placed by
    /// the transform and the rectangle (its first row at the top).
    func draw(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState) {
        if recordedAsPixels(.image(image, rect, interpolation, recording.index(state)), mode: state.blendMode) { return }
        masked(state) { drawMasked(image, in: rect, interpolation: interpolation, state: $0) }
    }

    private func drawMasked(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState) {
        let t = state.transform
        guard state.alpha > 0, t.inverted() != nil else { return }
        let index = images.index(of: image, smooth: interpolation != .none)
        imagesUsed.insert(index)
        setClips(state.clips)
        setTransparency(fill: state.alpha, stroke: nil, blend: state.blendMode)
        out.append("q\n")
        if t != .identity { out.matrix(t) }
        // The unit square, first row at its top, onto the rectangle (y down).
        out.matrix(Self.imagePlacement(rect))
        emit("/Im\(index) Do\nQ\n")
    }

    /// Draws glyphs as text: the document's font of `face` (a subset), each
    /// glyph placed by its own text matrix (upright in the page's flipped
    /// space), its id the character code (`Identity-H`).
    func drawGlyphs(
        _ glyphs: [UInt32], positions: [Point], texts: [String], face: FontFace, size: Double, color: Color, state: VectorState
    ) {
        if recordedAsPixels(.glyphs(glyphs, positions, face, size, color, recording.index(state)), mode: state.blendMode) { return }
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
        setClips(state.clips)
        setTransparency(fill: alpha, stroke: nil, blend: state.blendMode)
        setFill(color)
        out.append("q\n")
        if t != .identity { out.matrix(t) }
        var text = "BT\n/F\(index) 1 Tf\n"
        let s = PDFSyntax.number(size), minus = PDFSyntax.number(-size)
        for (g, p) in zip(glyphs, positions) where p.x.isFinite && p.y.isFinite && g <= 0xFFFF {
            text += "\(s) 0 0 \(minus) \(PDFSyntax.number(p.x)) \(PDFSyntax.number(p.y)) Tm <" + String(format: "%04X", g) + "> Tj\n"
        }
        emit(text + "ET\nQ\n")
    }

    /// The graphics state whose soft mask is `mask` placed by `transform`:
    /// a form drawing the mask's image (white, its alpha the coverage),
    /// whose alpha is the mask (`/S /Alpha`; outside the image nothing
    /// shows).
    private func maskState(_ mask: VectorMask, transform t: Transform) -> String {
        if let name = maskStates[mask] { return name }
        let index = images.index(of: mask.image, smooth: mask.interpolation != .none)
        imagesUsed.insert(index)
        let content = "q \(PDFSyntax.matrix(t)) cm \(PDFSyntax.matrix(Self.imagePlacement(mask.rect))) cm /Im\(index) Do Q\n"
        objects.append((formDictionary(group: true), Array(content.utf8)))
        let name = extGStateName(" /SMask << /Type /Mask /S /Alpha /G @\(objects.count - 1)@ >>")
        maskStates[mask] = name
        return name
    }

    /// A form's dictionary: the page's box and resources, a transparency
    /// group when `group`.
    private func formDictionary(group: Bool) -> String {
        "/Type /XObject /Subtype /Form /BBox \(pageBox)\(group ? " /Group << /S /Transparency >>" : "") /Resources @resources@"
    }

    func beginGroup() {
        recording.record(.beginGroup)
        openGroup()
    }

    /// Begins a group of the page's own (not a transparency layer: the
    /// recording does not see it).
    private func openGroup() {
        closeClips()
        groups.append((out, written))
        out = PDFContent()
        written = Written()
    }

    /// Ends the groups left open (a transparency layer never ended), each
    /// drawn as it is, and the open clip group: the content is whole.
    func finishContent() {
        while !groups.isEmpty { endGroup(state: VectorState(transform: .identity, clips: [], alpha: 1, blendMode: .normal)) }
        closeClips()
    }

    /// Makes the group's content a form with a transparency group, and
    /// paints it (`Do`) through the clips with the alpha and blend mode.
    func endGroup(state: VectorState) {
        guard !groups.isEmpty else { return }
        recording.record(.endGroup(recording.index(state)))
        guard PageRecording.needsPixels(state.blendMode) else { return closeGroup(state: state) }
        // A group in a Porter-Duff mode is a picture of what it changes:
        // its vectors are dropped.
        if let outer = groups.popLast() { (out, written) = outer }
        if let (area, picture, onPage) = recording.groupPicture(page: pageRect) { place(picture, in: area, onPage: onPage) }
    }

    /// Ends a group begun by `openGroup()` (or `beginGroup()`).
    private func closeGroup(state: VectorState) {
        guard let outer = groups.popLast() else { return }
        closeClips()
        let inner = out.bytes
        (out, written) = outer
        guard state.alpha > 0 else { return }
        objects.append((formDictionary(group: true), inner))
        let form = objects.count - 1
        forms.append(form)
        masked(state) { state in
            setClips(state.clips)
            setTransparency(fill: state.alpha, stroke: state.alpha, blend: state.blendMode)
            emit("/Fm\(form) Do\n")
        }
    }

    /// Runs `draw` with `state`, or, when more than one image mask is in
    /// force (PDF has one soft mask at a time), with the clips from the
    /// innermost mask on, in a group that the outer clips mask in turn.
    private func masked(_ state: VectorState, _ draw: (VectorState) -> Void) {
        defer { sendStretch() }
        guard state.clips.count > 1 else { return draw(state) }
        let masks = state.clips.indices.filter { state.clips[$0].mask != nil }
        guard masks.count > 1, let last = masks.last else { return draw(state) }
        var inside = state, outside = state
        inside.clips = Array(state.clips[last...])
        outside.clips = Array(state.clips[..<last])
        outside.alpha = 1
        outside.blendMode = .normal
        openGroup()
        draw(inside)
        closeGroup(state: outside)
    }

    /// Colours, linear and radial gradients that pad, and image patterns
    /// that repeat or reflect; the canvas draws the rest (conic gradients,
    /// gradients that repeat or reflect, padded patterns) as images.
    func canPaint(_ paint: Paint) -> Bool {
        switch paint {
        case .color: true
        case .linearGradient(_, _, _, let spread), .radialGradient(_, _, _, _, _, let spread): spread == .pad
        case .pattern(let image, _, let spread): spread != .pad && image.width > 0 && image.height > 0
        default: false
        }
    }

    /// The tiling patterns made, by what they tile, with their resource
    /// names; and the names with the index of their object.
    private var patterns: [PatternKey: String] = [:]
    private(set) var patternObjects: [(name: String, object: Int)] = []

    struct PatternKey: Hashable {
        var image: Int
        var matrix: Transform
        var reflect: Bool
    }

    /// The name of a tiling pattern of `image` (reflected about its edges
    /// for `.reflect`) under `transform` (image pixels to user space),
    /// drawn from `state`: a cell of the image (2 × 2 mirrored copies when
    /// reflected), stepped by its size, its matrix from pattern space to the
    /// space of the stream it is used in (the page's y-up default space, or
    /// a group's form space, which is the flipped page's).
    private func patternName(_ image: Image, _ transform: Transform, reflect: Bool, state: VectorState) -> String {
        let index = images.index(of: image, smooth: true)
        imagesUsed.insert(index)
        var matrix = transform.concatenating(state.transform)
        if groups.isEmpty {
            matrix = matrix.concatenating(Transform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: size.height))
        }
        let key = PatternKey(image: index, matrix: matrix, reflect: reflect)
        if let name = patterns[key] { return name }
        let w = Double(image.width), h = Double(image.height)
        let cell = PDFContent()
        // Each copy: the unit square onto the image's pixels, first row at
        // y = 0 (pattern space is the image's), mirrored for the others.
        let copies: [Transform] =
            reflect
            ? [
                Transform(a: w, b: 0, c: 0, d: -h, tx: 0, ty: h), Transform(a: -w, b: 0, c: 0, d: -h, tx: 2 * w, ty: h),
                Transform(a: w, b: 0, c: 0, d: h, tx: 0, ty: h), Transform(a: -w, b: 0, c: 0, d: h, tx: 2 * w, ty: h),
            ] : [Transform(a: w, b: 0, c: 0, d: -h, tx: 0, ty: h)]
        for copy in copies {
            cell.append("q\n")
            cell.matrix(copy)
            cell.append("/Im\(index) Do\nQ\n")
        }
        let step = reflect ? 2 : 1
        let box = "[0 0 \(PDFSyntax.number(w * Double(step))) \(PDFSyntax.number(h * Double(step)))]"
        objects.append(
            (
                "/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox \(box) /XStep \(PDFSyntax.number(w * Double(step))) /YStep \(PDFSyntax.number(h * Double(step))) /Matrix [\(PDFSyntax.matrix(matrix))] /Resources @resources@",
                cell.bytes
            ))
        let name = "Pa\(patternObjects.count)"
        patternObjects.append((name, objects.count - 1))
        patterns[key] = name
        return name
    }

    /// Fills `path` with an image pattern that repeats or reflects.
    private func fillPattern(_ path: Path, rule: FillRule, image: Image, transform: Transform, reflect: Bool, state: VectorState) {
        guard state.alpha > 0, image.width > 0, image.height > 0, state.transform.inverted() != nil, transform.inverted() != nil
        else { return }
        let name = patternName(image, transform, reflect: reflect, state: state)
        setClips(state.clips)
        setTransparency(fill: state.alpha, stroke: nil, blend: state.blendMode)
        emit("/Pattern cs /\(name) scn\n")
        // The fill colour is the pattern now: the next colour is written.
        written.fill = nil
        out.path(path, state.transform)
        out.append(rule == .evenOdd ? "f*\n" : "f\n")
    }

    /// Fills `path` with a gradient: the path becomes the clip, and the
    /// gradient's shading (an axial or radial `sh`, its colours a stitched
    /// function of the stops) paints it under the transform. Stops that
    /// are not opaque make a soft mask: the same shading in grey, of the
    /// stops' alphas. (Gradients that repeat or reflect, and conic ones,
    /// the canvas draws as images.)
    private func fillShading(_ path: Path, rule: FillRule, paint: Paint, state: VectorState) {
        shade((path, rule), paint: paint, extend: (true, true), state: state)
    }

    /// Fills the clip with the gradient, extended beyond its ends as asked
    /// (`sh` paints the whole clip).
    func drawGradient(_ paint: Paint, extendStart: Bool, extendEnd: Bool, state: VectorState) {
        if recordedAsPixels(
            .gradient(paint, extendStart: extendStart, extendEnd: extendEnd, recording.index(state)), mode: state.blendMode)
        {
            return
        }
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
            openGroup()
            shade(shape, paint: paint, extend: extend, state: inside)
            return closeGroup(state: state)
        }
        func shading(_ space: String, _ values: (Color) -> [Double]) -> String {
            let coords = geometry.coords.map(PDFSyntax.number).joined(separator: " ")
            return
                "<< /ShadingType \(geometry.type) /ColorSpace /\(space) /Coords [\(coords)] /Function \(Self.function(gradient.stops, values)) /Extend [\(extend.0) \(extend.1)] >>"
        }
        let colors = shadingName(shading("DeviceRGB") { [$0.red, $0.green, $0.blue] })
        /// The shape's clip and the shading under the transform.
        func painting(_ name: String) -> [UInt8] {
            let text = PDFContent()
            if let shape {
                text.path(shape.path, t)
                text.append(shape.rule == .evenOdd ? "W* n\n" : "W n\n")
            }
            text.matrix(t)
            text.append("/\(name) sh\n")
            return text.bytes
        }
        setClips(state.clips)
        if gradient.stops.contains(where: { $0.color.alpha < 1 }) {
            // The soft mask: a form painting the alphas in grey where the
            // fill goes (its coordinates are the page's, as here). It is
            // set inside a group of the drawing's own, which ends it.
            let grey = shading("DeviceGray") { [$0.alpha] }
            objects.append(
                (
                    "/Type /XObject /Subtype /Form /BBox \(pageBox) /Group << /S /Transparency /CS /DeviceGray >> /Resources << /Shading << /Sh0 \(grey) >> >>",
                    painting("Sh0")
                ))
            let name = extGStateName(" /SMask << /Type /Mask /S /Luminosity /G @\(objects.count - 1)@ >>")
            setTransparency(fill: state.alpha, stroke: nil, blend: state.blendMode)
            out.append("q\n")
            emit("/\(name) gs\n")
        } else {
            setTransparency(fill: state.alpha, stroke: nil, blend: state.blendMode)
            out.append("q\n")
        }
        out.append(contentsOf: painting(colors))
        out.append("Q\n")
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

    /// PDF's name for `mode`; nil for the Porter-Duff modes PDF has no
    /// blend mode for (those calls are pictures: `PageRecording`; a
    /// transparency layer ending in one is composited as normal). Added light (`plusLighter`) is
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
}
