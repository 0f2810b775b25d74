import Foundation
import StrataGraphics
import StrataLayers

/// Shapes the gallery, the benchmarks and the tests all draw, written once.
public enum Shapes {
    /// A five-pointed star drawn in one stroke (each point joined to the one
    /// two along), so that it crosses itself: its centre is inside under the
    /// non-zero rule and outside under even-odd. The first point is straight
    /// up from `center`.
    public static func star(center: Point, radius: Double) -> Path {
        var p = Path()
        for i in 0..<5 {
            let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
            let pt = Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
            if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        return p
    }

    /// The transforms that place the six 100-point faces of a cube about its
    /// centre (the Core Animation books' arrangement), in the order front,
    /// right, top, bottom, left, back. Each face is a 100 × 100 layer
    /// positioned at (50, 50) in a 100 × 100 container.
    public static let cubeFaceTransforms: [Transform3D] = [
        Transform3D(translationX: 0, y: 0, z: 50),
        Transform3D(translationX: 50, y: 0, z: 0).rotated(by: .pi / 2, x: 0, y: 1, z: 0),
        Transform3D(translationX: 0, y: -50, z: 0).rotated(by: .pi / 2, x: 1, y: 0, z: 0),
        Transform3D(translationX: 0, y: 50, z: 0).rotated(by: -.pi / 2, x: 1, y: 0, z: 0),
        Transform3D(translationX: -50, y: 0, z: 0).rotated(by: -.pi / 2, x: 0, y: 1, z: 0),
        Transform3D(translationX: 0, y: 0, z: -50).rotated(by: .pi, x: 0, y: 1, z: 0),
    ]

    /// A cube: `container` (100 × 100 points, at `position`, turned by
    /// `transform`) holding six face layers placed by `cubeFaceTransforms`,
    /// the front face first in the sublayers (so array order alone would put
    /// it at the back). `face(i, layer)` styles face `i`.
    @MainActor
    public static func cube(
        _ container: Layer, at position: Point, transform: Transform3D,
        face: (Int, Layer) -> Void
    ) -> Layer {
        container.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        container.position = position
        container.transform = transform
        for (i, t) in cubeFaceTransforms.enumerated() {
            let layer = Layer()
            layer.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
            layer.position = Point(x: 50, y: 50)
            layer.transform = t
            face(i, layer)
            container.addSublayer(layer)
        }
        return container
    }
}
