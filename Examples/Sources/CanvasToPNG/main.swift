// Draws shapes, a gradient and text on a canvas and writes it to a PNG file:
// swift run --package-path Examples CanvasToPNG [out.png]
import Foundation
import StrataGraphics
import StrataText

let canvas = try Canvas(width: 480, height: 240)
canvas.fillColor = .white
canvas.fill(Rect(x: 0, y: 0, width: 480, height: 240))

// A rounded card filled with a gradient.
let card = Path(roundedRect: Rect(x: 20, y: 20, width: 440, height: 200), cornerWidth: 16, cornerHeight: 16)
let gradient = Gradient(colors: [Color(red: 0.98, green: 0.18, blue: 0.33), Color(red: 1, green: 0.6, blue: 0.2)])
canvas.fill(card, with: .linearGradient(gradient, start: Point(x: 20, y: 20), end: Point(x: 460, y: 220)))

// A stroked wave across it.
var wave = Path()
wave.move(to: Point(x: 40, y: 160))
for x in stride(from: 40.0, through: 440, by: 4) {
    wave.addLine(to: Point(x: x, y: 160 - 30 * sin((x - 40) / 40)))
}
canvas.strokeColor = .white
canvas.strokeStyle = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round)
canvas.stroke(wave)

// Text, shaped by HarfBuzz and drawn from the glyph cache.
let title = AttributedText(
    "Hello from Strata", attributes: TextAttributes(font: Font(family: "DejaVu Sans", size: 28, weight: .bold), foregroundColor: .white))
canvas.draw(TextLayout(title, width: 400), at: Point(x: 40, y: 40))

let out = CommandLine.arguments.dropFirst().first ?? "canvas.png"
try canvas.makeImage().writePNG(to: out)
print("wrote \(out)")
