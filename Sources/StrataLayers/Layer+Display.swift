import StrataGraphics

extension Layer {
    // MARK: Display

    /// Whether the contents will be redrawn at the next commit.
    public var needsDisplay: Bool { needsDisplayFlag }

    /// Asks for the contents to be redrawn (`display()`) at the next commit:
    /// once, however many times this is called before it.
    public func setNeedsDisplay() {
        guard !needsDisplayFlag else { return }
        needsDisplayFlag = true
        markDirty()
    }

    /// Asks for a part of the contents to be redrawn. Strata redraws the whole
    /// backing store (it is drawn once per request, not once per frame); the
    /// compositor's damage is still only what changed on screen.
    public func setNeedsDisplay(in rect: Rect) {
        guard !rect.isEmpty else { return }
        setNeedsDisplay()
    }

    /// Redraws now if a redraw was asked for.
    public func displayIfNeeded() {
        guard needsDisplayFlag else { return }
        needsDisplayFlag = false
        display()
    }

    func defaultDisplay() {
        if let delegate {
            delegate.display(self)
        } else {
            drawContents()
        }
    }

    /// Draws `draw(in:)` into a new backing image of the bounds' size times
    /// `contentsScale`, and makes it the contents (without animation). An empty
    /// or huge size (over 16384 pixels a side) leaves no contents.
    public func drawContents() {
        let scale = state.contentsScale
        let w = (state.bounds.width * scale).rounded(.up), h = (state.bounds.height * scale).rounded(.up)
        guard w >= 1, h >= 1, w <= 16384, h <= 16384, let canvas = try? Canvas(width: Int(w), height: Int(h)) else {
            setContentsWithoutAction(nil)
            return
        }
        canvas.scaleBy(x: scale, y: scale)
        canvas.translateBy(x: -state.bounds.minX, y: -state.bounds.minY)
        draw(in: canvas)
        setContentsWithoutAction(canvas.makeImage())
    }

    func setContentsWithoutAction(_ image: Image?) {
        state.contents = image
        contentsVersion += 1
        markDirty()
    }


    // MARK: Layout

    /// Whether `layoutSublayers()` will run at the next layout pass.
    public var needsLayout: Bool { needsLayoutFlag }

    public func setNeedsLayout() {
        guard !needsLayoutFlag else { return }
        needsLayoutFlag = true
        markDirty()
    }

    /// Lays out this layer and, below it, every layer that needs it, now.
    public func layoutIfNeeded() {
        if needsLayoutFlag {
            needsLayoutFlag = false
            layoutSublayers()
        }
        for sub in sublayers { sub.layoutIfNeeded() }
    }
}
