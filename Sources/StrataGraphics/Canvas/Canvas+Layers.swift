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
        layers.append((target: target, depth: stack.count))
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
        stack.removeLast(max(0, stack.count - depth))
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
        boxBlur(r, lines: height, lineStep: width, length: width, step: 1)
    }

    /// One pass of a box blur of half-width `r` down each column.
    func boxBlurColumns(_ r: Int) {
        boxBlur(r, lines: width, lineStep: 1, length: height, step: width)
    }

    /// A running-sum box blur along `lines` lines of `length` values, the values
    /// of a line `step` apart and the lines `lineStep` apart.
    private func boxBlur(_ r: Int, lines: Int, lineStep: Int, length: Int, step: Int) {
        let n = 2 * r + 1
        var out = [UInt8](repeating: 0, count: length)
        for line in 0..<lines {
            let base = line * lineStep
            var sum = 0
            for i in -r...r where i >= 0 && i < length { sum += Int(values[base + i * step]) }
            for i in 0..<length {
                out[i] = UInt8((sum + n / 2) / n)
                let add = i + r + 1, drop = i - r
                if add < length { sum += Int(values[base + add * step]) }
                if drop >= 0 { sum -= Int(values[base + drop * step]) }
            }
            for i in 0..<length { values[base + i * step] = out[i] }
        }
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
        let sigma = blur.isFinite ? min(max(0, blur), 1000) / 2 : 0
        let radius = sigma > 0 ? max(0, Int(((4 * sigma * sigma + 1).squareRoot() - 1) / 2 + 0.5)) : 0
        let margin = 3 * radius
        let plane = AlphaPlane(x0: -margin, y0: -margin, width: width + 2 * margin, height: height + 2 * margin)
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let row = y * bytesPerRow
                for x in 0..<width { plane[x, y] = p[row + x * 4 + 3] }
            }
        }
        if radius > 0 {
            for _ in 0..<3 { plane.boxBlurRows(radius) }
            for _ in 0..<3 { plane.boxBlurColumns(radius) }
        }
        return CoverageMask(width: plane.width, height: plane.height, left: -margin, top: -margin, coverage: plane.values)
    }
}
