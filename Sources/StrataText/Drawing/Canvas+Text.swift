import StrataGraphics

extension Canvas {
    /// Draws `layout` with its top left at `point` (user space), under the current
    /// transform, clip, alpha, blend mode and shadow (`CTFrameDraw`).
    ///
    /// Under a transform that only moves and scales evenly, glyphs come from the
    /// shared `GlyphCache` as coverage masks at the device size, positioned to a
    /// quarter pixel horizontally and a whole pixel vertically. Under rotation or
    /// shear, above 256 pixels, or for a glyph larger than
    /// `GlyphCache.maximumMaskSide` pixels (a face with a small `unitsPerEm`), they
    /// are filled as outlines instead, which is exact at any size and angle.
    public func draw(_ layout: TextLayout, at point: Point) {
        if device != nil { return drawOnDevice(layout, at: point) }
        let t = transform
        let uniform = t.b == 0 && t.c == 0 && t.a == t.d && t.a > 0
        let scale = t.a
        let deviceOrigin = point.applying(t)
        // Glyph masks, composed a line and colour at a time and kept with the
        // layout, when every run can be drawn from masks and the result is not huge.
        var composed: [[LayoutRenderCache.Piece]]? = nil
        var ox = 0, oy = 0
        if uniform, deviceOrigin.x.isFinite, deviceOrigin.y.isFinite, abs(deviceOrigin.x) < 1e9, abs(deviceOrigin.y) < 1e9,
            layout.size.width * layout.size.height * scale * scale < 4_000_000,
            layout.largestFontSize * scale <= 256
        {
            let steps = Double(GlyphCache.subpixelSteps)
            let fx = deviceOrigin.x.rounded(.down), fy = deviceOrigin.y.rounded(.down)
            var phaseX = Int(((deviceOrigin.x - fx) * steps).rounded()), phaseY = Int(((deviceOrigin.y - fy) * steps).rounded())
            ox = Int(fx); oy = Int(fy)
            if phaseX == Int(steps) { phaseX = 0; ox += 1 }
            if phaseY == Int(steps) { phaseY = 0; oy += 1 }
            let key = LayoutRenderCache.Key(scale: scale.bitPattern, phaseX: phaseX, phaseY: phaseY)
            composed = layout.renderCache.lines(for: key) {
                // A glyph too large for a mask: the layout is drawn run by run,
                // that glyph from its outline.
                var tooLarge = false
                let lines = layout.lines.map { line in
                    var glyphs: [(color: Color, mask: CoverageMask, x: Int, y: Int)] = []
                    var images: [LayoutRenderCache.Piece] = []
                    for run in line.runs {
                        let size = run.size * scale
                        var wanted: [(glyph: UInt32, subpixel: Int)] = []
                        var origins: [(Int, Int)] = []
                        for (i, glyph) in run.glyphs.enumerated() {
                            let gx = Double(phaseX) / steps + (line.origin.x + run.positions[i].x) * scale
                            let gy = Double(phaseY) / steps + (line.origin.y + run.positions[i].y) * scale
                            // Never an unchecked Double to Int: a glyph this far off
                            // is on no bitmap.
                            guard gx.isFinite, gy.isFinite, abs(gx) < 1e9, abs(gy) < 1e9 else { continue }
                            let floorX = gx.rounded(.down)
                            var sub = Int(((gx - floorX) * steps).rounded()), ix = Int(floorX)
                            if sub == Int(steps) { sub = 0; ix += 1 }
                            wanted.append((glyph, sub))
                            origins.append((ix, Int(gy.rounded())))
                        }
                        if run.face.hasColorBitmaps {
                            for (i, w) in wanted.enumerated() {
                                guard let g = ColorGlyphCache.shared.glyph(face: run.face, glyph: w.glyph, size: size, subpixel: w.subpixel)
                                else { continue }
                                images.append(
                                    LayoutRenderCache.Piece(
                                        color: .black, mask: CoverageMask(width: 0, height: 0, left: 0, top: 0, coverage: []),
                                        x: origins[i].0 + g.left, y: origins[i].1 + g.top, image: g.image))
                            }
                            continue
                        }
                        let masks = GlyphCache.shared.masks(face: run.face, size: size, glyphs: wanted)
                        for (i, mask) in masks.enumerated() {
                            guard let mask else {
                                tooLarge = true
                                continue
                            }
                            glyphs.append((run.attributes.foregroundColor, mask, origins[i].0, origins[i].1))
                        }
                    }
                    return LayoutRenderCache.compose(glyphs) + images
                }
                return tooLarge ? nil : lines
            }
        }
        if let composed, !layout.hasRunDecorations {
            // The common case, kept free of per-run work: the composed masks
            // only, those of one colour in one call.
            var batch: [PlacedMask] = []
            var batchColor: Color? = nil
            for pieces in composed {
                for piece in pieces {
                    if let image = piece.image {
                        if let c = batchColor { draw(batch, with: .color(c)) }
                        batch.removeAll(keepingCapacity: true)
                        batchColor = nil
                        draw(image, atDeviceX: ox + piece.x, y: oy + piece.y)
                        continue
                    }
                    if let c = batchColor, c != piece.color {
                        draw(batch, with: .color(c))
                        batch.removeAll(keepingCapacity: true)
                    }
                    batchColor = piece.color
                    batch.append(PlacedMask(piece.mask, x: ox + piece.x, y: oy + piece.y))
                }
            }
            if let c = batchColor { draw(batch, with: .color(c)) }
            return
        }
        for (n, line) in layout.lines.enumerated() {
            let base = Point(x: point.x + line.origin.x, y: point.y + line.origin.y)
            for run in line.runs {
                guard let background = run.attributes.backgroundColor else { continue }
                let r = Rect(
                    x: base.x + run.minX, y: base.y - line.ascent, width: run.maxX - run.minX,
                    height: line.ascent + line.descent)
                withSavedGState {
                    fillColor = background
                    fill(r)
                }
            }
            if let composed {
                for piece in composed[n] {
                    if let image = piece.image {
                        draw(image, atDeviceX: ox + piece.x, y: oy + piece.y)
                    } else {
                        draw(piece.mask, atDeviceX: ox + piece.x, y: oy + piece.y, with: .color(piece.color))
                    }
                }
            } else {
                for run in line.runs {
                    let deviceSize = run.size * scale
                    if uniform && deviceSize <= 256 {
                        drawMasks(run, at: base, deviceSize: deviceSize, color: run.attributes.foregroundColor)
                    } else {
                        drawOutlines(run, at: base, color: run.attributes.foregroundColor)
                    }
                }
            }
            for run in line.runs { decorate(run, line: line, at: base) }
        }
    }

    /// Draws `layout` in `rect`: at its top left, clipped to it.
    public func draw(_ layout: TextLayout, in rect: Rect) {
        withSavedGState {
            clip(to: rect)
            draw(layout, at: rect.origin)
        }
    }

    private func drawMasks(_ run: GlyphRun, at base: Point, deviceSize: Double, color: Color) {
        let t = transform
        let steps = Double(GlyphCache.subpixelSteps)
        var wanted: [(glyph: UInt32, subpixel: Int)] = []
        var origins: [(x: Int, y: Int)] = []
        var indices: [Int] = []
        wanted.reserveCapacity(run.glyphs.count)
        origins.reserveCapacity(run.glyphs.count)
        for (i, glyph) in run.glyphs.enumerated() {
            let p = Point(x: base.x + run.positions[i].x, y: base.y + run.positions[i].y).applying(t)
            guard p.x.isFinite, p.y.isFinite, abs(p.x) < 1e9, abs(p.y) < 1e9 else { continue }
            indices.append(i)
            let fx = p.x.rounded(.down)
            var sub = Int(((p.x - fx) * steps).rounded())
            var ix = Int(fx)
            if sub == Int(steps) { sub = 0; ix += 1 }
            wanted.append((glyph, sub))
            origins.append((ix, Int(p.y.rounded())))
        }
        if run.face.hasColorBitmaps {
            for (i, w) in wanted.enumerated() {
                guard let g = ColorGlyphCache.shared.glyph(face: run.face, glyph: w.glyph, size: deviceSize, subpixel: w.subpixel)
                else { continue }
                draw(g.image, atDeviceX: origins[i].x + g.left, y: origins[i].y + g.top)
            }
            return
        }
        let masks = GlyphCache.shared.masks(face: run.face, size: deviceSize, glyphs: wanted)
        var placed: [PlacedMask] = []
        placed.reserveCapacity(masks.count)
        var outlines: [Int] = []
        for (i, mask) in masks.enumerated() {
            if let mask {
                placed.append(PlacedMask(mask, x: origins[i].x, y: origins[i].y))
            } else {
                outlines.append(indices[i])
            }
        }
        draw(placed, with: .color(color))
        if !outlines.isEmpty { drawOutlines(run, at: base, color: color, only: outlines) }
    }

    /// Fills the run's glyphs (or those at `only`) as outlines, in one path.
    /// `layout` on a vector canvas: backgrounds and decorations as fills,
    /// glyphs as text to a `GlyphDevice` (colour glyphs as images), or as
    /// outlines to any other device.
    private func drawOnDevice(_ layout: TextLayout, at point: Point) {
        let characters = Array(layout.text.string)
        for line in layout.lines {
            let base = Point(x: point.x + line.origin.x, y: point.y + line.origin.y)
            for run in line.runs {
                guard let background = run.attributes.backgroundColor else { continue }
                withSavedGState {
                    fillColor = background
                    fill(Rect(x: base.x + run.minX, y: base.y - line.ascent, width: run.maxX - run.minX, height: line.ascent + line.descent))
                }
            }
            for run in line.runs {
                let color = run.attributes.foregroundColor
                // Each cluster's characters go with its first glyph in the
                // text's order (the glyphs are in visual order).
                func texts() -> [String] {
                    var texts = [String](repeating: "", count: run.glyphs.count)
                    var seen = Set<Int>()
                    let order = run.isRightToLeft ? Array(run.glyphs.indices.reversed()) : Array(run.glyphs.indices)
                    for i in order where run.characters.indices.contains(i) {
                        let c = run.characters[i]
                        guard seen.insert(c).inserted, c >= 0, c < characters.count else { continue }
                        // The cluster runs to the next character a glyph of this run starts.
                        let next = run.characters.filter { $0 > c }.min() ?? min(characters.count, c + 1)
                        texts[i] = String(characters[c..<max(c + 1, min(next, characters.count))])
                    }
                    return texts
                }
                let positions = run.positions.map { Point(x: base.x + $0.x, y: base.y + $0.y) }
                guard let glyphDevice = device as? any GlyphDevice, !run.face.hasColorBitmaps else {
                    drawOutlines(run, at: base, color: color)
                    if let keeper = device as? any TextKeepingDevice {
                        keeper.keepText(texts(), positions: positions, family: run.face.familyName, size: run.size, state: vectorState)
                    }
                    continue
                }
                glyphDevice.drawGlyphs(
                    run.glyphs, positions: positions, texts: texts(), face: run.face, size: run.size, color: color, state: vectorState)
            }
            for run in line.runs { decorate(run, line: line, at: base) }
        }
    }

    private func drawOutlines(_ run: GlyphRun, at base: Point, color: Color, only: [Int]? = nil) {
        if run.face.hasColorBitmaps {
            // Colour glyphs have no outlines: their strikes are drawn scaled,
            // rotated or sheared as the transform says.
            for i in only ?? Array(run.glyphs.indices) {
                guard let strike = run.face.library.colorBitmap(run.face, run.glyphs[i]), strike.ppem > 0 else { continue }
                let s = run.size / strike.ppem, p = run.positions[i]
                draw(
                    strike.image,
                    in: Rect(
                        x: base.x + p.x + strike.left * s, y: base.y + p.y - strike.top * s,
                        width: Double(strike.image.width) * s, height: Double(strike.image.height) * s))
            }
            return
        }
        let scale = run.size / run.face.unitsPerEm
        var all = Path()
        for i in only ?? Array(run.glyphs.indices) {
            let glyph = run.glyphs[i]
            let p = run.positions[i]
            all.addPath(
                run.face.glyphData(glyph).path,
                transform: Transform(a: scale, b: 0, c: 0, d: scale, tx: base.x + p.x, ty: base.y + p.y))
        }
        fill(all, with: .color(color))
    }

    private func decorate(_ run: GlyphRun, line: TextLine, at base: Point) {
        let a = run.attributes
        let size = run.size
        func rule(_ decoration: TextDecoration, _ y: Double) {
            // At least one device pixel thick, measured along the y axis on screen.
            let t = transform
            let yScale = (t.c * t.c + t.d * t.d).squareRoot()
            let thickness = max(size / (decoration.style == .thick ? 9 : 15), yScale > 0 ? min(1 / yScale, size) : 0)
            let color = decoration.color ?? a.foregroundColor
            withSavedGState {
                fillColor = color
                fill(Rect(x: base.x + run.minX, y: y, width: run.maxX - run.minX, height: thickness))
                if decoration.style == .double {
                    fill(Rect(x: base.x + run.minX, y: y + 2 * thickness, width: run.maxX - run.minX, height: thickness))
                }
            }
        }
        if let u = a.underline { rule(u, base.y - a.baselineOffset + size * 0.1) }
        if let s = a.strikethrough {
            let xHeight = run.face.xHeight * size / run.face.unitsPerEm
            rule(s, base.y - a.baselineOffset - xHeight / 2)
        }
    }
}
