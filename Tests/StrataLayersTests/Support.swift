import StrataGraphics
import Testing

@testable import StrataLayers

// Helpers shared by the layer test suites.

/// Builds a tree under a headless host's root, renders one frame and returns
/// the host and the frame.
@MainActor
func render(_ size: Int = 100, _ build: (Layer) -> Void) -> (LayerHost, Bitmap) {
    let host = try! LayerHost(width: size, height: size, backgroundColor: .white)
    build(host.rootLayer)
    host.renderFrame()
    return (host, Bitmap(image: host.makeImage()))
}

let white = Pixel(r: 255, g: 255, b: 255, a: 255)
let red = Pixel(r: 255, g: 0, b: 0, a: 255)
let blue = Pixel(r: 0, g: 0, b: 255, a: 255)

/// A plain layer with a frame and a background.
@MainActor
func layer(_ frame: Rect, _ color: Color?) -> Layer {
    let l = Layer()
    l.frame = frame
    l.backgroundColor = color
    return l
}

/// Whether the host's last (partly redrawn) frame equals a full drawing of
/// its render tree. A Bool, so that a failed expectation does not print pixels.
@MainActor
func matchesAFullRedraw(_ host: LayerHost, background: Color = .white) -> Bool {
    let fresh = try! Compositor(width: host.width, height: host.height, backgroundColor: background)
    fresh.render(host.renderTree, at: host.clock.now)
    return fresh.frame.makeImage() == host.makeImage()
}
