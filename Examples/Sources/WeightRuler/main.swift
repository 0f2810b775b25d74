// The weight ruler in a window (Wayland or X11): drag or fling it, and it settles on a
// tenth of a kilogram; the value shows above it.
// swift run --package-path Examples WeightRuler
import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataWindow

MainActor.assumeIsolated {
    do {
        let size = Size(width: 480, height: 200)
        let window = try Window(title: "Weight", size: size)
        let root = View(frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        root.backgroundColor = .white

        let ruler = RulerView(
            frame: Rect(x: 0, y: size.height - 100, width: size.width, height: 100),
            scale: try RulerScale(step: 0.1, minimum: 0, maximum: 300))
        root.addSubview(ruler)

        let label = TextLayer()
        label.frame = Rect(x: 0, y: 20, width: size.width, height: 60)
        label.fontSize = 40
        label.alignmentMode = .center
        label.foregroundColor = Color(white: 0.1)
        root.layer.addSublayer(label)

        ruler.onValueChanged = { change in label.string = String(format: "%.1f kg", change.value) }
        try ruler.setValue(72.5, animated: false)
        label.string = "72.5 kg"

        window.rootView = root
        window.run()
    } catch {
        // No display, say: a message, not a crash.
        print("WeightRuler: \(error)")
        exit(1)
    }
}
