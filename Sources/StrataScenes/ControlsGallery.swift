import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataText

/// The controls' pictures for `strata gallery`.
@MainActor
public enum ControlsGallery {
    /// Renders every picture into `out`; returns the files written.
    public static func render(into out: String) throws -> [String] {
        let path = "\(out)/controls-ruler.png"
        try rulers().writePNG(to: path)
        return [path]
    }

    /// Three weight rulers (0.1 kg a tick, 0 to 300 kg): at rest on 72.5,
    /// mid-fling a third of a second after a 2,400 pt/s flick, and dragged
    /// past its minimum (stretched, the value held at 0).
    public static func rulers() throws -> Image {
        let host = try LayerHost(width: 480, height: 330, scale: 1, backgroundColor: Color(white: 0.93))
        let root = View(frame: Rect(x: 0, y: 0, width: 480, height: 330))
        let dispatcher = InputDispatcher(rootView: root, host: host)
        let clock = host.clock as! ManualClock
        var rulers: [RulerView] = []
        for (i, title) in ["At rest", "Mid-fling", "Past the minimum"].enumerated() {
            let label = TextLayer()
            label.anchorPoint = .zero
            label.frame = Rect(x: 16, y: 10 + Double(i) * 106, width: 300, height: 18)
            label.string = title
            label.fontSize = 13
            label.foregroundColor = Color(white: 0.35)
            root.layer.addSublayer(label)
            let r = RulerView(
                frame: Rect(x: 16, y: 30 + Double(i) * 106, width: 448, height: 80),
                scale: try RulerScale(step: 0.1, minimum: 0, maximum: 300))
            r.backgroundColor = .white
            r.layer.cornerRadius = 10
            r.unit = "kg"
            r.showsHorizontalScrollIndicator = true
            root.addSubview(r)
            rulers.append(r)
        }
        try rulers[0].setValue(72.5, animated: false)
        try rulers[1].setValue(72.5, animated: false)
        try rulers[2].setValue(1.2, animated: false)
        host.renderFrame()
        // A flick to the left on the second ruler (larger values come in).
        func drag(_ y: Double, from x0: Double, by dx: Double, in duration: Double, release: Bool) {
            let t0 = clock.now
            dispatcher.send(.pointer(PointerEvent(.down, at: Point(x: x0, y: y), timestamp: t0)))
            let steps = Int(duration / 0.008)
            for s in 1...steps {
                let f = Double(s) / Double(steps)
                dispatcher.send(.pointer(PointerEvent(.moved, at: Point(x: x0 + dx * f, y: y), timestamp: t0 + duration * f)))
            }
            clock.set(t0 + duration)
            if release { dispatcher.send(.pointer(PointerEvent(.up, at: Point(x: x0 + dx, y: y), timestamp: t0 + duration))) }
        }
        drag(176, from: 300, by: -192, in: 0.08, release: true)
        for _ in 0..<20 { host.advance() }
        // The third held past its minimum.
        drag(282, from: 150, by: 260, in: 0.4, release: false)
        host.renderFrame()
        return host.makeImage()
    }
}
