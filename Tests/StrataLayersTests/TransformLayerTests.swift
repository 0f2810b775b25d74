import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

/// The transforms that place the six 100-point faces of a cube about its
/// centre (the Core Animation books' arrangement), in the order front,
/// right, top, bottom, left, back. Each face is a 100 × 100 layer
/// positioned at (50, 50) in a 100 × 100 container.
let cubeFaceTransforms: [Transform3D] = [
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
func cubeLayer(
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

/// The six face colours of the test cube: front, right, top, bottom, left, back.
let faceColors: [Color] = [
    Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0.8, blue: 0), Color(red: 0, green: 0, blue: 1),
    Color(red: 1, green: 1, blue: 0), Color(red: 0, green: 1, blue: 1), Color(red: 1, green: 0, blue: 1),
]

/// A cube of six 100-point faces about its centre (the book's arrangement),
/// the front face first in the sublayers, so that array order alone would
/// put it at the back.
@MainActor
func cube(
    in container: Layer, at position: Point, transform: Transform3D, singleSided: Bool = false,
    flattening: Bool = false
) -> Layer {
    let c = cubeLayer(flattening ? Layer() : TransformLayer(), at: position, transform: transform) { i, face in
        face.backgroundColor = faceColors[i]
        face.isDoubleSided = !singleSided
    }
    container.addSublayer(c)
    return c
}

@MainActor
func perspectiveContainer(_ root: Layer) -> Layer {
    let container = Layer()
    container.frame = root.bounds
    container.sublayerTransform = .perspective(distance: 500)
    root.addSublayer(container)
    return container
}

/// The face colours present in a frame (pixels that are exactly a face colour
/// or nearly so), with their counts.
func faceCounts(_ b: Bitmap) -> [Int] {
    var counts = [Int](repeating: 0, count: faceColors.count)
    let targets = faceColors.map { Pixel(r: UInt8($0.red * 255), g: UInt8($0.green * 255), b: UInt8($0.blue * 255), a: 255) }
    for y in 0..<b.height {
        for x in 0..<b.width {
            let p = b[x, y]
            if let i = targets.firstIndex(where: { near($0, p, 3) }) { counts[i] += 1 }
        }
    }
    return counts
}

@MainActor
@Suite struct TransformLayerTests {
    @Test func theNearFaceHidesTheOthersWhateverTheArrayOrder() {
        let (_, b) = render(200) { root in
            _ = cube(in: perspectiveContainer(root), at: Point(x: 100, y: 100), transform: .identity)
        }
        // Seen square on, from its centre: only the front face (first in the
        // array), larger than 100 points because it is 50 points nearer.
        #expect(near(b[100, 100], red, 2))
        #expect(near(b[48, 100], red, 2) && near(b[151, 100], red, 2))
        let counts = faceCounts(b)
        #expect(counts[0] >= 110 * 110)
        #expect(counts[1...].allSatisfy { $0 == 0 })
    }

    @Test func aCubeBesideTheEyeShowsItsSideButNotItsTopOrBottom() {
        // Left of the vanishing point, at eye height: the front and the right
        // face show. The top and bottom faces have centres as deep as the
        // right face's and come after it in the array; sorting by centre
        // alone let their edges show past the front face.
        let (_, b) = render(300) { root in
            _ = cube(in: perspectiveContainer(root), at: Point(x: 60, y: 150), transform: .identity)
        }
        let counts = faceCounts(b)
        #expect(counts[0] > 100 * 100)
        #expect(counts[1] > 300)
        #expect(counts[2] == 0 && counts[3] == 0 && counts[4] == 0 && counts[5] == 0)
    }

    @Test func aFlatteningLayerDrawsItsFacesInArrayOrder() {
        // The same cube under a plain layer: the faces are flattened into its
        // plane, and the back face, last in the array, covers the front one.
        let (_, b) = render(200) { root in
            _ = cube(in: perspectiveContainer(root), at: Point(x: 100, y: 100), transform: .identity, flattening: true)
        }
        #expect(near(b[100, 100], Pixel(r: 255, g: 0, b: 255, a: 255), 2))
    }

    @Test func aTurnedCubeShowsThreeFacesSortedByDepth() {
        let turn = Transform3D(rotationAngle: -.pi / 4, x: 1, y: 0, z: 0).rotated(by: -.pi / 4, x: 0, y: 1, z: 0)
        let (_, b) = render(240) { root in
            _ = cube(in: perspectiveContainer(root), at: Point(x: 120, y: 120), transform: turn)
        }
        // Turned 45° about x and y: the front, one side and the top or bottom
        // show; the three faces behind are hidden entirely.
        let counts = faceCounts(b)
        let shown = counts.indices.filter { counts[$0] > 200 }
        #expect(shown.count == 3)
        #expect(shown.contains(0))
        #expect(counts[5] == 0)
    }

    @Test func singleSidedFacesTurnedAwayAreCulled() {
        // A single layer turned half a turn about y shows its back: drawn when
        // double-sided, not at all when single-sided.
        for doubleSided in [true, false] {
            let (_, b) = render(100) { root in
                let l = layer(Rect(x: 20, y: 20, width: 60, height: 60), .red)
                l.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
                l.isDoubleSided = doubleSided
                root.addSublayer(l)
            }
            #expect(near(b[50, 50], doubleSided ? red : white, 2))
        }
        // In a cube of single-sided faces the back faces are culled; the near
        // ones draw as before.
        let (_, b) = render(200) { root in
            _ = cube(in: perspectiveContainer(root), at: Point(x: 100, y: 100), transform: .identity, singleSided: true)
        }
        #expect(near(b[100, 100], red, 2))
    }

    @Test func aTransformLayerDrawsNoContentsOfItsOwnAndItsOpacityReachesEachMember() {
        let (_, b) = render(100) { root in
            let t = TransformLayer()
            t.frame = Rect(x: 0, y: 0, width: 100, height: 100)
            t.backgroundColor = .blue
            t.borderWidth = 5
            t.opacity = 0.5
            let a = layer(Rect(x: 10, y: 10, width: 40, height: 40), .red)
            let c = layer(Rect(x: 30, y: 30, width: 40, height: 40), .red)
            t.addSublayer(a)
            t.addSublayer(c)
            root.addSublayer(t)
        }
        // No background or border; each member at half opacity on its own, so
        // where they overlap the red is stronger (no group).
        #expect(near(b[90, 90], white, 2))
        #expect(near(b[2, 2], white, 2))
        #expect(near(b[20, 20], Pixel(r: 255, g: 128, b: 128, a: 255), 2))
        #expect(near(b[40, 40], Pixel(r: 255, g: 64, b: 64, a: 255), 2))
    }

    @Test func nestedTransformLayersShareOneDepthOrder() {
        // Two transform layers, each with one face; the face of the first
        // (nearer, z +40) must cover the second's (z −40) although the second
        // comes later in the array.
        let (host, b) = render(100) { root in
            let container = perspectiveContainer(root)
            let outer = TransformLayer()
            outer.frame = Rect(x: 0, y: 0, width: 100, height: 100)
            for (z, color) in [(40.0, Color.red), (-40.0, Color.blue)] {
                let inner = TransformLayer()
                inner.frame = Rect(x: 0, y: 0, width: 100, height: 100)
                inner.zPosition = z
                inner.addSublayer(layer(Rect(x: 30, y: 30, width: 40, height: 40), color))
                outer.addSublayer(inner)
            }
            container.addSublayer(outer)
        }
        #expect(near(b[50, 50], red, 2))
        // Hit testing sees the same order.
        let hit = host.rootLayer.hitTest(Point(x: 50, y: 50))
        #expect(hit?.backgroundColor == .red)
        #expect(matchesAFullRedraw(host))
    }

    @Test func turningACubeRedrawsCorrectly() {
        let (host, _) = render(200) { root in
            _ = cube(in: perspectiveContainer(root), at: Point(x: 100, y: 100), transform: .identity)
        }
        let c = host.rootLayer.sublayers[0].sublayers[0]
        for step in 1...6 {
            Transaction.begin()
            Transaction.disableActions = true
            c.transform = Transform3D(rotationAngle: Double(step) * 0.5, x: 1, y: 1, z: 0)
            Transaction.commit()
            host.renderFrame()
            #expect(matchesAFullRedraw(host))
        }
    }
}
