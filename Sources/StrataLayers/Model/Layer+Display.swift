import StrataGraphics

extension Layer {
    // MARK: Display

    func defaultDisplay() {
        if let delegate {
            delegate.display(self)
        } else {
            drawContents()
        }
    }

    /// The pixel size of a backing image for `bounds` at `scale` pixels per
    /// point; nil when it is empty, not finite, or over 16384 pixels a side.
    nonisolated static func backingSize(_ bounds: Rect, scale: Double) -> (width: Int, height: Int)? {
        let w = (bounds.width * scale).rounded(.up), h = (bounds.height * scale).rounded(.up)
        guard w >= 1, h >= 1, w <= 16384, h <= 16384 else { return nil }
        return (Int(w), Int(h))
    }

    /// Makes `canvas` (a backing image) draw in the coordinates of `bounds`.
    nonisolated static func drawInBoundsSpace(_ canvas: Canvas, _ bounds: Rect, scale: Double) {
        canvas.scaleBy(x: scale, y: scale)
        canvas.translateBy(x: -bounds.minX, y: -bounds.minY)
    }

    func setContentsWithoutAction(_ image: Image?) {
        state.contents = image
        contentsVersion += 1
        markDirty()
    }
}

extension LayerProperties {
    // MARK: Display

    /// Whether the contents will be redrawn at the next commit.
    @_disfavoredOverload public var needsDisplay: Bool { needsDisplayFlag }

    /// Asks for the contents to be redrawn (`display()`) at the next commit:
    /// once, however many times this is called before it.
    @_disfavoredOverload public func setNeedsDisplay() {
        requestedDisplay()
        needsDisplayRect = nil
        guard !needsDisplayFlag else { return }
        needsDisplayFlag = true
        markDirty()
    }

    /// Asks for a part of the contents (in bounds coordinates) to be redrawn.
    /// Requests made before the next display add up; `drawContents()` then
    /// keeps the rest of the backing image and has `draw(in:)` draw only
    /// inside their union (the canvas is clipped to it, and it starts cleared
    /// there). An empty, null or non-finite rectangle asks for nothing.
    @_disfavoredOverload public func setNeedsDisplay(in rect: Rect) {
        let r = rect.standardized
        guard !r.isEmpty, !r.isNull, r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else { return }
        requestedDisplay()
        if needsDisplayFlag {
            // Already asked for: the whole (nil) stays whole.
            if let partial = needsDisplayRect { needsDisplayRect = partial.union(r) }
            return
        }
        needsDisplayRect = r
        needsDisplayFlag = true
        markDirty()
    }

    /// Redraws now if a redraw was asked for.
    @_disfavoredOverload public func displayIfNeeded() {
        guard needsDisplayFlag else { return }
        needsDisplayFlag = false
        display()
    }

    /// Draws `draw(in:)` into a new backing image of the bounds' size times
    /// `contentsScale`, and makes it the contents (without animation). An empty
    /// or huge size (over 16384 pixels a side) leaves no contents.
    ///
    /// After `setNeedsDisplay(in:)` alone, and when the contents are still the
    /// backing image this method made, at this size, only that part is
    /// redrawn over a copy of it.
    @_disfavoredOverload public func drawContents() {
        let partial = needsDisplayRect
        needsDisplayRect = nil
        let scale = state.contentsScale, b = state.bounds
        guard let (w, h) = Layer.backingSize(b, scale: scale), let canvas = try? Canvas(width: w, height: h) else {
            setContentsWithoutAction(nil)
            return
        }
        if let partial, contentsVersion == backingVersion, let old = state.contents, old.width == w, old.height == h {
            canvas.draw(old, in: canvas.bounds)
            Layer.drawInBoundsSpace(canvas, b, scale: scale)
            // Out to whole pixels, so that no pixel is half old and half new.
            func snap(_ v: Double, _ origin: Double, _ rule: FloatingPointRoundingRule) -> Double {
                ((v - origin) * scale).rounded(rule) / scale + origin
            }
            let x0 = snap(partial.minX, b.minX, .down), y0 = snap(partial.minY, b.minY, .down)
            let area = Rect(x: x0, y: y0, width: snap(partial.maxX, b.minX, .up) - x0, height: snap(partial.maxY, b.minY, .up) - y0)
            canvas.clip(to: area)
            canvas.clear(area)
        } else {
            Layer.drawInBoundsSpace(canvas, b, scale: scale)
        }
        draw(in: canvas)
        setContentsWithoutAction(canvas.makeImage())
        backingVersion = contentsVersion
    }

    // MARK: Layout

    /// Whether `layoutSublayers()` will run at the next layout pass.
    @_disfavoredOverload public var needsLayout: Bool { needsLayoutFlag }

    @_disfavoredOverload public func setNeedsLayout() {
        guard !needsLayoutFlag else { return }
        needsLayoutFlag = true
        markDirty()
    }

    /// Lays out this layer and, below it, every layer that needs it, now.
    @_disfavoredOverload public func layoutIfNeeded() {
        if needsLayoutFlag {
            needsLayoutFlag = false
            layoutSublayers()
        }
        for sub in sublayers { sub.layoutIfNeeded() }
    }
}
