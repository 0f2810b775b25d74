import StrataGraphics
import StrataText
import Synchronization

/// Every drawing call a page has received, kept so that part of the page
/// can be drawn again as pixels: what the Porter-Duff blend modes need.
///
/// PDF and SVG blend a drawing with what is below it by the separable and
/// non-separable modes only; the Porter-Duff modes (`clear`, `copy`,
/// `sourceIn`, `destinationOut`, `xor`, …) replace or erase what is already
/// on the page, which neither format can say. As Cairo's vector surfaces
/// do, a page draws such a call as an image of its area: the calls before
/// it that reach the area are drawn again on a bitmap, the call is drawn
/// with its mode, and the picture goes over the page. Keeping the calls
/// costs a reference to each call's values (paths and images are shared).
final class PageRecording {
    /// A call, its state an index into `states` (consecutive calls share
    /// theirs). Rectangles and ellipses in colours, a page's most frequent
    /// calls, are kept inline; the rest boxed, so the list stays compact.
    enum Call {
        case rect(Rect, Color, Int32)
        case ellipse(Rect, Color, Int32)
        indirect case paintedRect(Rect, Paint, Int32)
        indirect case paintedEllipse(Rect, Paint, Int32)
        indirect case fill(Path, FillRule, Paint, Int32)
        indirect case stroke(Path, StrokeStyle, Paint, Int32)
        indirect case image(Image, Rect, InterpolationQuality, Int32)
        indirect case gradient(Paint, extendStart: Bool, extendEnd: Bool, Int32)
        indirect case glyphs([UInt32], [Point], FontFace, Double, Color, Int32)
        case beginGroup
        case endGroup(Int32)
    }

    /// The states calls are drawn in, in order, each once in a row.
    private(set) var states: [VectorState] = []

    /// The index of `state` among `states` (added when it differs from the last).
    func index(_ state: VectorState) -> Int32 {
        if let last = states.last, last == state { return Int32(states.count - 1) }
        states.append(state)
        return Int32(states.count - 1)
    }

    private(set) var calls: [Call]

    /// Emptied call lists kept for the next pages, their storage grown
    /// (fresh storage for ten thousand calls costs more page faults and
    /// copies than recording them). At most four are kept.
    private static let kept = Mutex<[[Call]]>([])

    init() {
        calls = Self.kept.withLock { $0.popLast() } ?? []
    }

    deinit {
        var list = calls
        calls = []
        list.removeAll(keepingCapacity: true)
        states = []
        guard list.capacity >= 1024, list.capacity <= 1 << 22 else { return }
        Self.kept.withLock { lists in
            if lists.count < 4 { lists.append(list) }
        }
    }

    func record(_ call: Call) { calls.append(call) }

    /// `take` for a rectangle (or an ellipse) filled with `paint` in
    /// `state`. In a mode that needs no picture, the common case, the call
    /// goes straight into the list, not made and copied first.
    @inline(__always)
    func takeShape(_ rect: Rect, ellipse: Bool, _ paint: Paint, _ state: VectorState, page: Rect) -> (
        area: Rect, picture: Image, onPage: Bool
    )?? {
        let i = index(state)
        // Made where it is used: a call made first and then appended is
        // copied (its boxed cases), a tenth of a PDF rectangle's time.
        @inline(__always) func call() -> Call {
            if case .color(let c) = paint { return ellipse ? .ellipse(rect, c, i) : .rect(rect, c, i) }
            return ellipse ? .paintedEllipse(rect, paint, i) : .paintedRect(rect, paint, i)
        }
        guard Self.needsPixels(state.blendMode) else {
            calls.append(call())
            return nil
        }
        return take(call(), mode: state.blendMode, page: page)
    }

    /// Records `call`; for a call in a Porter-Duff mode, also the picture
    /// of its area on `page` (the calls that reach it drawn again, then
    /// the call), where it goes, and whether it is the page's (not a
    /// group's). Nil for a call in any other mode; `.some(nil)` for one in
    /// a Porter-Duff mode that changes nothing (its area empty).
    func take(_ call: Call, mode: BlendMode, page: Rect) -> (area: Rect, picture: Image, onPage: Bool)?? {
        defer { record(call) }
        guard Self.needsPixels(mode) else { return nil }
        guard let area = area(of: call, page: page), let (picture, onPage) = picture(of: area, scale: 2, then: call) else {
            return .some(nil)
        }
        return (area, picture, onPage)
    }

    /// The page area `call` can change (its shape's bounds on the page,
    /// within its clips and `page`), or nil when it changes nothing.
    func area(of call: Call, page: Rect) -> Rect? {
        let state: VectorState, reach: Rect
        switch call {
        case .fill(let path, _, _, let i):
            let s = states[Int(i)]
            (state, reach) = (s, path.applying(s.transform).boundingBox)
        case .rect(let r, _, let i), .ellipse(let r, _, let i), .paintedRect(let r, _, let i), .paintedEllipse(let r, _, let i),
            .image(_, let r, _, let i):
            let s = states[Int(i)]
            (state, reach) = (s, r.applying(s.transform))
        case .stroke(let path, let style, _, let i):
            let s = states[Int(i)]
            guard let area = Canvas.strokeArea(path, style: style, transform: s.transform) else { return nil }
            (state, reach) = (s, area)
        case .gradient(_, _, _, let i):
            (state, reach) = (states[Int(i)], page)
        case .glyphs(_, let positions, _, let size, _, let i):
            let s = states[Int(i)]
            var box = Rect.null
            for p in positions { box = box.union(Rect(x: p.x - size, y: p.y - 2 * size, width: 3 * size, height: 3 * size)) }
            (state, reach) = (s, box.applying(s.transform))
        case .beginGroup, .endGroup:
            return nil
        }
        return Self.area(reach, within: state, page: page)
    }

    /// `reach` within `state`'s clips and `page`, out to whole points;
    /// nil when nothing is left.
    private static func area(_ reach: Rect, within state: VectorState, page: Rect) -> Rect? {
        var a = reach.intersection(page)
        for clip in state.clips { a = a.intersection(clip.path.applying(clip.transform).boundingBox) }
        guard !a.isNull, a.width > 0, a.height > 0, a.minX.isFinite, a.maxX.isFinite, a.minY.isFinite, a.maxY.isFinite else { return nil }
        // Out to whole points, so the picture's pixels meet the page's.
        let x0 = a.minX.rounded(.down), y0 = a.minY.rounded(.down)
        return Rect(x: x0, y: y0, width: a.maxX.rounded(.up) - x0, height: a.maxY.rounded(.up) - y0)
    }

    /// For a group just ended (its `endGroup` recorded) in a Porter-Duff
    /// mode: the picture of what it changes, the page or enclosing group
    /// beneath drawn again, then the group composited in its mode, as the
    /// canvas composites a transparency layer (over all of its clip), and
    /// where it goes, and whether it is the page's. Nil when the group
    /// changes nothing (its clip empty).
    func groupPicture(page: Rect) -> (area: Rect, picture: Image, onPage: Bool)? {
        guard case .endGroup(let i) = calls.last, let area = Self.area(page, within: states[Int(i)], page: page),
            let (picture, onPage) = picture(of: area, scale: 2, then: nil)
        else { return nil }
        return (area, picture, onPage)
    }

    /// `image` over white paper (a page's picture hides what is under it).
    static func onPaper(_ image: Image) -> Image {
        guard let canvas = try? Canvas(width: image.width, height: image.height) else { return image }
        canvas.fillColor = .white
        canvas.fill(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        canvas.draw(image, atDeviceX: 0, y: 0)
        return canvas.makeImage()
    }

    /// Whether the page draws `mode` as pixels (a Porter-Duff mode, other
    /// than source over and added light).
    static func needsPixels(_ mode: BlendMode) -> Bool {
        switch mode {
        case .clear, .copy, .sourceIn, .sourceOut, .sourceAtop, .destinationOver, .destinationIn, .destinationOut, .destinationAtop,
            .xor:
            true
        default: false
        }
    }

    /// The calls of the innermost group still open (all the page's when
    /// none is), drawn on a bitmap of `area` (page points) at `scale`
    /// pixels a point, then `last` (if any): the picture, and whether it
    /// is the page's (not a group's). Nil for an empty area or one too large.
    func picture(of area: Rect, scale: Double, then last: Call?) -> (image: Image, onPage: Bool)? {
        guard area.width > 0, area.height > 0, area.width.isFinite, area.height.isFinite else { return nil }
        let s = min(scale, (16_000_000 / max(1, area.width * area.height)).squareRoot())
        let w = Int((area.width * s).rounded(.up)), h = Int((area.height * s).rounded(.up))
        guard w > 0, h > 0, let canvas = try? Canvas(width: w, height: h) else { return nil }
        canvas.scaleBy(x: s, y: s)
        canvas.translateBy(x: -area.minX, y: -area.minY)
        // The innermost open group's calls: after its `beginGroup`.
        var depth = 0, start = 0
        for (i, call) in calls.enumerated().reversed() {
            if case .endGroup = call { depth += 1 }
            if case .beginGroup = call {
                if depth == 0 {
                    start = i + 1
                    break
                }
                depth -= 1
            }
        }
        replay(calls[start...], on: canvas)
        if let last { replay([last][...], on: canvas) }
        return (canvas.makeImage(), start == 0)
    }

    /// Draws `calls` on `canvas` (its user space the page's), groups as
    /// transparency layers with the state their end had.
    private func replay(_ calls: ArraySlice<Call>, on canvas: Canvas) {
        var i = calls.startIndex
        while i < calls.endIndex {
            let call = calls[i]
            if case .beginGroup = call {
                // To the matching end (or the slice's end: a group left open).
                var depth = 0, j = i + 1
                var end: VectorState?
                while j < calls.endIndex {
                    if case .beginGroup = calls[j] { depth += 1 }
                    if case .endGroup(let s) = calls[j] {
                        if depth == 0 {
                            end = states[Int(s)]
                            break
                        }
                        depth -= 1
                    }
                    j += 1
                }
                let state = end ?? VectorState(transform: .identity, clips: [], alpha: 1, blendMode: .normal)
                canvas.saveGState()
                apply(state, canvas)
                canvas.beginTransparencyLayer()
                replay(calls[(i + 1)..<j], on: canvas)
                canvas.endTransparencyLayer()
                canvas.restoreGState()
                i = min(j + 1, calls.endIndex)
                continue
            }
            draw(call, on: canvas)
            i += 1
        }
    }

    /// Sets `state`'s clips, alpha and blend mode on `canvas` (in the
    /// page's space).
    private func apply(_ state: VectorState, _ canvas: Canvas) {
        for clip in state.clips {
            if let mask = clip.mask, let inverse = clip.transform.inverted() {
                canvas.concatenate(clip.transform)
                canvas.clip(to: mask.rect, mask: mask.image, channel: .alpha)
                canvas.concatenate(inverse)
            } else {
                canvas.clip(to: clip.path.applying(clip.transform), rule: clip.rule)
            }
        }
        canvas.alpha = state.alpha
        canvas.blendMode = state.blendMode
    }

    private func draw(_ call: Call, on canvas: Canvas) {
        let index: Int32
        switch call {
        case .rect(_, _, let i), .ellipse(_, _, let i), .paintedRect(_, _, let i), .paintedEllipse(_, _, let i), .fill(_, _, _, let i),
            .stroke(_, _, _, let i), .image(_, _, _, let i), .gradient(_, _, _, let i), .glyphs(_, _, _, _, _, let i):
            index = i
        case .beginGroup, .endGroup: return
        }
        let state = states[Int(index)]
        canvas.saveGState()
        defer { canvas.restoreGState() }
        apply(state, canvas)
        canvas.concatenate(state.transform)
        switch call {
        case .fill(let path, let rule, let paint, _):
            canvas.fill(path, with: paint, rule: rule)
        case .rect(let rect, let color, _):
            canvas.fill(rect, with: .color(color))
        case .ellipse(let rect, let color, _):
            canvas.fillEllipse(in: rect, with: .color(color))
        case .paintedRect(let rect, let paint, _):
            canvas.fill(rect, with: paint)
        case .paintedEllipse(let rect, let paint, _):
            canvas.fillEllipse(in: rect, with: paint)
        case .stroke(let path, let style, let paint, _):
            canvas.strokeStyle = style
            canvas.stroke(path, with: paint)
        case .image(let image, let rect, let quality, _):
            canvas.interpolationQuality = quality
            canvas.draw(image, in: rect)
        case .gradient(let paint, let extendStart, let extendEnd, _):
            var options: GradientDrawingOptions = []
            if extendStart { options.insert(.drawsBeforeStartLocation) }
            if extendEnd { options.insert(.drawsAfterEndLocation) }
            switch paint {
            case .linearGradient(let g, let a, let b, _): canvas.drawLinearGradient(g, start: a, end: b, options: options)
            case .radialGradient(let g, let c0, let r0, let c1, let r1, _):
                canvas.drawRadialGradient(g, startCenter: c0, startRadius: r0, endCenter: c1, endRadius: r1, options: options)
            case .conicGradient(let g, let center, let angle): canvas.drawConicGradient(g, center: center, angle: angle)
            default: break
            }
        case .glyphs(let glyphs, let positions, let face, let size, let color, _):
            let scale = face.unitsPerEm > 0 ? size / face.unitsPerEm : 0
            var outlines = Path()
            for (g, p) in zip(glyphs, positions) {
                outlines.addPath(face.glyphData(g).path, transform: Transform(a: scale, b: 0, c: 0, d: scale, tx: p.x, ty: p.y))
            }
            canvas.fill(outlines, with: .color(color))
        case .beginGroup, .endGroup: break
        }
    }
}
