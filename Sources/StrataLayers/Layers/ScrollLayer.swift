public import Foundation
import StrataGraphics

/// A layer that shows part of its sublayers and scrolls them
/// (`CAScrollLayer`): scrolling moves the origin of its bounds, so sublayers
/// placed in its coordinates slide under it. It clips to its bounds
/// (`masksToBounds` starts `true`) and has no scroll bars or gestures of its
/// own; a bounds change is animated as any is, unless actions are disabled.
open class ScrollLayer: Layer, ScrollingLayer {
    /// Which way a scroll layer may scroll (`CAScrollLayerScrollMode`).
    public enum ScrollMode: Hashable, Sendable {
        case none, vertically, horizontally, both
    }

    /// The axes `scroll(to:)` and `scroll(toRect:)` may move (default `both`).
    public var scrollMode = ScrollMode.both

    public override init() {
        super.init()
        masksToBounds = true
    }

    public required init?(coder: NSCoder) {
        let layer = LayerCopyCoder.model(of: coder)
        super.init(coder: coder)
        if let scroll = layer as? ScrollLayer { scrollMode = scroll.scrollMode }
    }

    /// Scrolls so that `point` (in this layer's coordinates) is the top left
    /// of the bounds, on the axes `scrollMode` allows. Points that are not
    /// finite are ignored.
    public func scroll(to point: Point) { scrollOrigin(to: point) }

    /// Scrolls as little as possible so that `rect` (in this layer's
    /// coordinates) is visible: on each allowed axis, a rect that fits is
    /// brought wholly inside the bounds, one larger than the bounds is aligned
    /// to its minimum edge. Rects that are null or not finite are ignored.
    public func scroll(toRect rect: Rect) { scrollOrigin(toShow: rect) }

    package var scrollAxes: ScrollMode { scrollMode }
}

/// A layer that scrolls its sublayers by its bounds' origin: a `ScrollLayer`,
/// or QuartzCore's `CAScrollLayer`, which is a `Layer` but not a `ScrollLayer`.
@MainActor
package protocol ScrollingLayer: Layer {
    /// The axes the layer may scroll along.
    var scrollAxes: ScrollLayer.ScrollMode { get }
}

extension ScrollingLayer {
    /// Scrolls so that `point` is the bounds' origin, on the allowed axes.
    package func scrollOrigin(to point: Point) {
        let mode = scrollAxes
        var origin = bounds.origin
        if mode == .horizontally || mode == .both, point.x.isFinite { origin.x = point.x }
        if mode == .vertically || mode == .both, point.y.isFinite { origin.y = point.y }
        guard origin != bounds.origin else { return }
        bounds.origin = origin
    }

    /// Scrolls as little as possible to show `rect`.
    package func scrollOrigin(toShow rect: Rect) {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return }
        let b = bounds
        func axis(_ lo: Double, _ hi: Double, _ vLo: Double, _ size: Double) -> Double {
            if hi - lo >= size || lo < vLo { return lo }
            if hi > vLo + size { return hi - size }
            return vLo
        }
        scrollOrigin(to: Point(x: axis(rect.minX, rect.maxX, b.minX, b.width), y: axis(rect.minY, rect.maxY, b.minY, b.height)))
    }
}

extension Layer {
    /// The nearest scroll layer above this one.
    var enclosingScrollLayer: (any ScrollingLayer)? {
        var p = superlayer
        while let q = p {
            if let s = q as? any ScrollingLayer { return s }
            p = q.superlayer
        }
        return nil
    }
}

extension LayerProperties {
    /// Scrolls the nearest enclosing scroll layer so that `point` (in this
    /// layer's coordinates) is at its top left (`CALayer.scroll(_:)`). Does
    /// nothing outside a scroll layer.
    @_disfavoredOverload public func scroll(point: Point) {
        guard let s = enclosingScrollLayer else { return }
        s.scrollOrigin(to: s.convert(point, from: self))
    }

    /// Scrolls the nearest enclosing scroll layer as little as possible to
    /// show `rect` (in this layer's coordinates). Does nothing outside a
    /// scroll layer.
    @_disfavoredOverload public func scrollRectToVisible(_ rect: Rect) {
        guard let s = enclosingScrollLayer, !rect.isNull else { return }
        s.scrollOrigin(toShow: s.convert(rect, from: self))
    }

    /// The part of the bounds the nearest enclosing scroll layer shows, in
    /// this layer's coordinates: the bounds when there is no scroll layer,
    /// `Rect.null` when the layer is scrolled out of sight.
    @_disfavoredOverload public var visibleRect: Rect {
        guard let s = enclosingScrollLayer else { return bounds }
        let shown = s.convert(s.bounds, to: self)
        return shown.intersection(bounds)
    }
}
