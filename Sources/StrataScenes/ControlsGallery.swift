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
        // A flick to the left on the second ruler (larger values come in),
        // a third of a second of its motion.
        let flick = try GestureScript.fling(from: Point(x: 300, y: 176), velocity: Size(width: -2400, height: 0))
        var frames = 0
        try flick.play(
            on: dispatcher, host: host,
            settle: {
                frames += 1
                return frames >= 20
            })
        // The third held past its minimum.
        try GestureScript.drag(from: Point(x: 150, y: 282), to: Point(x: 410, y: 282), duration: 0.4, release: false)
            .play(on: dispatcher, host: host)
        host.renderFrame()
        return host.makeImage()
    }
}
