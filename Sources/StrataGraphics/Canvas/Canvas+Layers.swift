#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A drop shadow: drawn under everything drawn while it is set (`setShadow`).
public struct Shadow: Sendable, Hashable {
    /// Device pixels right and down, unaffected by the transform (as in Core
    /// Graphics, where the shadow lives in base space). Rounded to whole pixels.
    public var offset: Size
    /// The blur, in device pixels: a Gaussian of standard deviation blur/2
    /// (capped at a third of the canvas's larger side, past which the shadow has
    /// spread to nothing), approximated by three box blurs. 0 draws a sharp shadow.
    public var blur: Double
    public var color: Color

    /// A shadow; the colour defaults to Core Graphics' black at one-third alpha.
    public init(offset: Size, blur: Double, color: Color = Color(white: 0, alpha: 1.0 / 3)) {
        self.offset = offset
        self.blur = blur
        self.color = color
    }
}

extension Canvas {
    // MARK: Shadows

    /// The shadow drawn under everything drawn while it is set, or nil.
    /// A shadow with a NaN or infinite offset or blur turns shadows off; offsets
    /// past the canvas's size and blurs over 1000 pixels are clamped (neither
    /// changes what can be seen).
    public var shadow: Shadow? {
        get { state.shadow }
        set {
            guard var s = newValue, s.offset.width.isFinite, s.offset.height.isFinite, s.blur.isFinite else {
                state.shadow = nil
                return
            }
            let reach = device.map { $0.size.width + $0.size.height + 1 } ?? Double(bitmap.width + bitmap.height + 1)
            s.offset.width = max(-reach, min(reach, s.offset.width))
            s.offset.height = max(-reach, min(reach, s.offset.height))
            s.blur = max(0, min(1000, s.blur))
            state.shadow = s
        }
    }

    /// `setShadow(offset:blur:color:)`: a shadow with the given colour, or none
    /// when `color` is nil. NaN or infinite offsets and blurs turn shadows off.
    public func setShadow(offset: Size, blur: Double, color: Color? = Color(white: 0, alpha: 1.0 / 3)) {
        shadow = color.map { Shadow(offset: offset, blur: blur, color: $0) }
    }

    // MARK: Transparency layers

    /// Starts a transparency layer (`beginTransparencyLayer(auxiliaryInfo:)`):
    /// what is drawn until `endTransparencyLayer()` goes to a transparent layer,
    /// which is then composited as one image with the alpha, blend mode, shadow
    /// and clip in force now. Inside the layer alpha is 1, the blend mode normal
    /// and there is no shadow. Saves the graphics state, as Core Graphics does.
    ///
    /// On a vector canvas the layer is the device's group (a PDF
    /// transparency group, an SVG `<g>` with its opacity and blend mode),
    /// and its contents stay vectors. A shadow set when a vector layer
    /// begins is drawn under each of its drawings in turn rather than under
    /// the layer as a whole (a shadow is an image there, and the group's
    /// pixels are never made): where its drawings overlap, a later one's
    /// shadow falls on an earlier one.
    public func beginTransparencyLayer() {
        saveGState()
        layers.append((target: target, depth: savedCount))
        if let device {
            device.beginGroup()
            // The clips in force apply when the group is composited.
            state.vectorClips = []
            state.alpha = 1
            state.blendMode = .normal
            return
        }
        target = try! Bitmap(width: bitmap.width, height: bitmap.height)  // the size of an existing bitmap
        // Under a row limit, the rows the layer's shadow is cast from are
        // drawn too (only the limit's are composited).
        if let shadow = state.shadow { state.clip = shadowSource(shadow, for: state.clip) }
        state.alpha = 1
        state.blendMode = .normal
        state.shadow = nil
    }

    /// Ends the innermost transparency layer and composites it. Does nothing
    /// without one. Graphics states saved inside the layer and not restored are
    /// dropped.
    public func endTransparencyLayer() {
        guard let (previous, depth) = layers.popLast() else { return }
        let layer = target
        target = previous
        // (The states saved inside the layer, and the one in force, dropped.)
        while savedCount > depth { popGState() }
        restoreGState()
        if let device {
            device.endGroup(state: vectorState)
        } else {
            composite(layer: layer)
        }
    }

    /// Composites `layer` (a bitmap the size of the canvas, already clipped) onto
    /// the target with the current alpha, blend mode and shadow.
    func composite(layer: Bitmap) {
        let box = state.clip
        guard !box.isEmpty else { return }
        if let shadow = state.shadow {
            drawShadow(shadow, of: layer, in: box)
        }
        let mask = state.clipMask
        state.clipMask = nil  // the layer's content was clipped as it was drawn
        defer { state.clipMask = mask }
        let a = UInt32(max(0, min(255, (state.alpha * 255).rounded())))
        let shader = ImageShader(
            pixels: UnsafePointer(layer.baseAddress.assumingMemoryBound(to: UInt32.self)),
            width: layer.width, height: layer.height, stride: layer.bytesPerRow / 4,
            inverse: .identity, filter: .nearest, spread: .pad, alpha: a)
        run(
            RectCoverage(x0: Double(box.x0), y0: Double(box.y0), x1: Double(box.x1), y1: Double(box.y1)),
            ShaderBlitter(shader: shader, pixels: targetPixels, mode: state.blendMode, scratch: shaderScratch))
    }

    /// Runs `draw` into a scratch layer to find the shadow's shape, draws the
    /// shadow, then runs `draw` again onto the target. Drawing twice (rather than
    /// compositing the layer) keeps every blend mode's rule that pixels outside
    /// the shape never change. Called by every drawing method while a shadow is set.
    func withShadow(_ draw: () -> Void) {
        let saved = state
        let layer = try! Bitmap(width: bitmap.width, height: bitmap.height)  // the size of an existing bitmap
        let previous = target
        target = layer
        if let shadow = state.shadow { state.clip = shadowSource(shadow, for: state.clip) }
        state.shadow = nil
        state.blendMode = .normal
        draw()
        target = previous
        state = saved
        if let shadow = state.shadow, !state.clip.isEmpty {
            drawShadow(shadow, of: layer, in: state.clip)
        }
        state.shadow = nil
        draw()
        state = saved
    }

    /// The half-width of each of the three box blurs that stand for
    /// `shadow`'s Gaussian.
    private func shadowBlurRadius(_ shadow: Shadow) -> Int {
        // A blur far wider than the canvas spreads the shadow to nothing anyway;
        // capping σ at a third of the canvas's larger side bounds the work (the
        // blurred plane is then at most about nine canvases).
        let sigma = min(shadow.blur / 2, Double(max(bitmap.width, bitmap.height)) / 3)
        // Three box blurs of width w approximate a Gaussian when 3·(w² − 1)/12 = σ².
        return sigma > 0 ? max(0, Int(((4 * sigma * sigma + 1).squareRoot() - 1) / 2 + 0.5)) : 0
    }

    /// The box a shadow drawn within `box` is cast from: `box` itself, or,
    /// under a row limit (`limitRows(to:)`), `box` with the rows the blur
    /// and the offset reach from beyond the limit, as far as the raster clip
    /// goes: so that the shadow's rows come out as when every row is drawn.
    func shadowSource(_ shadow: Shadow, for box: PixelBox) -> PixelBox {
        let r = state.rasterClip
        guard box.y0 > r.y0 || box.y1 < r.y1, !box.isEmpty else { return box }
        let reach = 3 * shadowBlurRadius(shadow) + Int(shadow.offset.height.rounded().magnitude) + 1
        return PixelBox(x0: box.x0, y0: max(r.y0, box.y0 - reach), x1: box.x1, y1: min(r.y1, box.y1 + reach))
    }

    /// Draws the shadow cast by `layer`'s alpha: blurred, offset, in the shadow's
    /// colour, within `box` (from the alpha within `shadowSource`).
    private func drawShadow(_ shadow: Shadow, of layer: Bitmap, in box: PixelBox) {
        let dx = Int(shadow.offset.width.rounded()), dy = Int(shadow.offset.height.rounded())
        let radius = shadowBlurRadius(shadow)
        let margin = 3 * radius
        // The alpha the shadow comes from: the layer's, over the source box
        // and a margin.
        let source = shadowSource(shadow, for: box)
        let plane = AlphaPlane(
            x0: source.x0 - margin, y0: source.y0 - margin,
            width: source.width + 2 * margin, height: source.height + 2 * margin)
        for y in source.y0..<source.y1 {
            let row = (layer.baseAddress + y * layer.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in source.x0..<source.x1 { plane[x, y] = row[x * 4 + 3] }
        }
        if radius > 0 {
            for _ in 0..<3 { plane.boxBlurRows(radius) }
            for _ in 0..<3 { plane.boxBlurColumns(radius) }
        }
        withBlitter(nil, color: shadow.color, ShadowCoverage(plane: plane, dx: dx, dy: dy, box: box))
    }
}

/// A plane of 8-bit alpha over a device rectangle, zero outside what was set.
final class AlphaPlane {
    let x0, y0, width, height: Int
    var values: [UInt8]

    init(x0: Int, y0: Int, width: Int, height: Int) {
        self.x0 = x0; self.y0 = y0; self.width = width; self.height = height
        values = [UInt8](repeating: 0, count: max(0, width * height))
    }

    subscript(x: Int, y: Int) -> UInt8 {
        get {
            let u = x - x0, v = y - y0
            guard u >= 0, u < width, v >= 0, v < height else { return 0 }
            return values[v * width + u]
        }
        set { values[(y - y0) * width + (x - x0)] = newValue }
    }

    /// One pass of a box blur of half-width `r` along each row.
    func boxBlurRows(_ r: Int) {
        guard width > 0, height > 0 else { return }
        let divide = BoxDivider(2 * r + 1)
        let width = width, height = height
        values.withUnsafeMutableBufferPointer { v in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width) { out in
                let o = out.baseAddress!
                for line in 0..<height {
                    let row = v.baseAddress! + line * width
                    var sum: Int32 = 0
                    for i in 0...min(r, width - 1) { sum &+= Int32(row[i]) }
                    for i in 0..<width {
                        o[i] = divide(sum)
                        if i + r + 1 < width { sum &+= Int32(row[i + r + 1]) }
                        if i - r >= 0 { sum &-= Int32(row[i - r]) }
                    }
                    row.update(from: o, count: width)
                }
            }
        }
    }

    /// One pass of a box blur of half-width `r` down each column: the
    /// columns' running sums side by side, a row at a time (one column at a
    /// time went down the plane a row's length apart, a cache line a value).
    func boxBlurColumns(_ r: Int) {
        guard width > 0, height > 0 else { return }
        let divide = BoxDivider(2 * r + 1)
        let width = width, height = height
        let before = values
        values.withUnsafeMutableBufferPointer { v in
            before.withUnsafeBufferPointer { b in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: width) { sums in
                    let s = sums.baseAddress!, old = b.baseAddress!, out = v.baseAddress!
                    s.initialize(repeating: 0, count: width)
                    @inline(__always) func add(_ row: Int, _ sign: Int32) {
                        let values = old + row * width
                        for c in 0..<width { s[c] &+= sign &* Int32(values[c]) }
                    }
                    for i in 0...min(r, height - 1) { add(i, 1) }
                    for i in 0..<height {
                        let row = out + i * width
                        for c in 0..<width { row[c] = divide(s[c]) }
                        if i + r + 1 < height { add(i + r + 1, 1) }
                        if i - r >= 0 { add(i - r, -1) }
                    }
                }
            }
        }
    }
}

/// ⌊(sum + ⌊n/2⌋) / n⌋ for the sums of n values of 0 ... 255 (n odd): a box
/// blur's rounded mean. Below 4096 values, by a multiplication: the
/// quotient's fraction is 0 or at least 1/n and at most 1 − 1/n, and the
/// product and the reciprocal's rounding move it by under 2⁻¹⁴, so 2⁻¹³
/// more keeps it on the right side of every whole number. Wider boxes (a
/// canvas's shadow blurred across thousands of pixels) divide.
struct BoxDivider {
    let n: Int32, half: Float, inverse: Float, multiplies: Bool

    init(_ n: Int) {
        self.n = Int32(clamping: n)
        half = Float(n / 2)
        inverse = 1 / Float(n)
        multiplies = n < 4096
    }

    @inline(__always)
    func callAsFunction(_ sum: Int32) -> UInt8 {
        if multiplies {
            return UInt8(truncatingIfNeeded: Int32((Float(sum) + half) * inverse + 0x1p-13))
        }
        return UInt8(truncatingIfNeeded: (sum &+ n / 2) / n)
    }
}

/// Paints the shadow colour through the blurred, offset alpha plane.
struct ShadowCoverage: CoverageSource {
    let plane: AlphaPlane
    let dx, dy: Int
    let box: PixelBox

    func draw<B: SpanBlitter>(_ blitter: inout B) {
        var row = [UInt8](repeating: 0, count: box.width)
        for y in box.y0..<box.y1 {
            var any = false
            for x in box.x0..<box.x1 {
                let v = plane[x - dx, y - dy]
                row[x - box.x0] = v
                any = any || v != 0
            }
            if any {
                row.withUnsafeBufferPointer { blitter.blitMask(x: box.x0, y: y, count: box.width, mask: $0.baseAddress!) }
            }
        }
    }
}

extension Image {
    /// This image's alpha blurred as a `Shadow` of this blur blurs it (a
    /// Gaussian of σ = blur/2, as three box blurs), as a coverage mask with room
    /// for the spread: its `left` and `top` are the (negative) margins, so the
    /// mask drawn at a point lines up with the image drawn there. The blur is
    /// capped at 1000, and the margin at 3 × the box radius.
    public func blurredAlphaMask(blur: Double) -> CoverageMask {
        blurredAlphaMask(blur: blur, rows: Int.min..<Int.max)
    }

    /// `blurredAlphaMask(blur:)` with only the rows in `rows` worked out
    /// (rows of the image: the mask's first is `top`, above row 0); the
    /// others are left transparent. For a drawing that shows part of the
    /// mask, a band of a frame: the rows it shows come out as in the whole
    /// mask, for the work of those rows and the blur's reach (three box
    /// radii either side).
    public func blurredAlphaMask(blur: Double, rows: Range<Int>) -> CoverageMask {
        let sigma = blur.isFinite ? min(max(0, blur), 1000) / 2 : 0
        let radius = sigma > 0 ? max(0, Int(((4 * sigma * sigma + 1).squareRoot() - 1) / 2 + 0.5)) : 0
        let margin = 3 * radius
        let planeWidth = width + 2 * margin, planeHeight = height + 2 * margin
        // The mask's rows wanted (from its top), and the plane's rows that
        // reach them.
        let lo = min(max(rows.lowerBound, -margin), height + margin) + margin
        let hi = min(max(rows.upperBound, -margin), height + margin) + margin
        let first = max(0, lo - margin), end = min(planeHeight, hi + margin)
        guard lo < hi else {
            return CoverageMask(
                width: planeWidth, height: planeHeight, left: -margin, top: -margin,
                coverage: [UInt8](repeating: 0, count: planeWidth * planeHeight))
        }
        let plane = AlphaPlane(x0: -margin, y0: first - margin, width: planeWidth, height: end - first)
        pixels.withUnsafeBufferPointer { p in
            for y in max(0, first - margin)..<min(height, end - margin) {
                let row = y * bytesPerRow
                for x in 0..<width { plane[x, y] = p[row + x * 4 + 3] }
            }
        }
        if radius > 0 {
            for _ in 0..<3 { plane.boxBlurRows(radius) }
            for _ in 0..<3 { plane.boxBlurColumns(radius) }
        }
        guard lo > 0 || hi < planeHeight else {
            return CoverageMask(width: planeWidth, height: planeHeight, left: -margin, top: -margin, coverage: plane.values)
        }
        // The rows asked for, in place; the plane's rows beyond them (within
        // the blur's reach of a cut edge, where they are not the mask's) are
        // left out.
        var coverage = [UInt8](repeating: 0, count: planeWidth * planeHeight)
        coverage.withUnsafeMutableBufferPointer { c in
            plane.values.withUnsafeBufferPointer { v in
                (c.baseAddress! + lo * planeWidth).update(
                    from: v.baseAddress! + (lo - first) * planeWidth, count: (hi - lo) * planeWidth)
            }
        }
        return CoverageMask(width: planeWidth, height: planeHeight, left: -margin, top: -margin, coverage: coverage)
    }
}
