import StrataGraphics
import StrataLayers

/// The ring an `InputDispatcher` draws around the view with keyboard
/// focus: a rounded outline 3 points wide, just outside the view, above
/// everything else in the root view's layer.
@MainActor
final class FocusRing {
    /// Whether the ring should show (focus last moved by the keyboard).
    var isWanted = false
    /// The ring's layer (nil until first shown).
    private(set) var layer: ShapeLayer?

    /// The ring's colour: the system accent blue, slightly translucent.
    static let color = Color(red: 0.10, green: 0.45, blue: 0.95, alpha: 0.9)
    static let width = 3.0

    /// Whether the ring is on screen.
    var isShown: Bool { layer.map { !$0.isHidden && $0.superlayer != nil } ?? false }

    /// Takes the ring away until focus moves by the keyboard again.
    func hide() {
        isWanted = false
        guard let layer, !layer.isHidden else { return }
        withoutActions { layer.isHidden = true }
    }

    /// Shows the ring around `frame` (the root's coordinates), on top of `root`.
    func show(around frame: Rect, in root: Layer) {
        guard frame.minX.isFinite, frame.minY.isFinite, frame.width.isFinite, frame.height.isFinite else { return hide() }
        let ring = layer ?? makeLayer()
        withoutActions {
            if ring.superlayer !== root || root.sublayers.last !== ring {
                ring.removeFromSuperlayer()
                root.addSublayer(ring)
            }
            let outset = FocusRing.width / 2 + 1
            let box = frame.insetBy(dx: -outset, dy: -outset)
            ring.frame = root.bounds
            ring.path = Path(roundedRect: box, cornerWidth: 4, cornerHeight: 4)
            ring.isHidden = false
        }
    }

    private func makeLayer() -> ShapeLayer {
        let ring = ShapeLayer()
        ring.fillColor = nil
        ring.strokeColor = FocusRing.color
        ring.lineWidth = FocusRing.width
        ring.anchorPoint = Point(x: 0, y: 0)
        layer = ring
        return ring
    }
}
