import ArgumentParser
import Foundation
import StrataDemos
import StrataGraphics
import StrataText

/// Strata's rasterizer against FreeType's for glyph masks: time per mask and how
/// far apart their coverage is, over the glyphs of TEXT.md's paragraph.
struct GlyphBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glyphs",
        abstract: "Times glyph masks from Strata's rasterizer and from FreeType's, and compares them.")

    @Option(help: "Pixel size.")
    var size = 16.0

    @Option(help: "The paragraph's file.")
    var file = "../shared/bench/TEXT.md"

    func run() throws {
        let markdown = try String(contentsOfFile: file, encoding: .utf8)
        let body = markdown.components(separatedBy: "```text\n")[1].components(separatedBy: "\n```")[0]
        let font = Font(family: "DejaVu Sans", size: size)
        var glyphs: [(FontFace, UInt32)] = []
        var seen = Set<String>()
        for scalar in body.unicodeScalars {
            guard let (face, glyph) = font.face(for: scalar), seen.insert("\(face.path)#\(glyph)").inserted else { continue }
            glyphs.append((face, glyph))
        }
        func time(_ body: () -> Void) -> Double {
            var best = Double.infinity
            for _ in 0..<5 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                body()
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e3)
            }
            return best
        }
        var strataMasks: [CoverageMask] = [], freeTypeMasks: [CoverageMask] = []
        let strata = time {
            strataMasks = glyphs.map { face, glyph in
                let s = size / face.unitsPerEm
                return CoverageMask(path: face.glyphData(glyph).path, transform: Transform(a: s, b: 0, c: 0, d: s, tx: 0.25, ty: 0))
            }
        }
        let freeType = time {
            freeTypeMasks = glyphs.map { FontLibrary.shared.freeTypeMask(face: $0.0, glyph: $0.1, size: size, shift: 0.25) }
        }
        // Coverage difference where both masks overlap, over all glyphs.
        var total = 0, count = 0, worst = 0
        for (a, b) in zip(strataMasks, freeTypeMasks) {
            let x0 = min(a.left, b.left), y0 = min(a.top, b.top)
            let x1 = max(a.left + a.width, b.left + b.width), y1 = max(a.top + a.height, b.top + b.height)
            guard x1 > x0, y1 > y0 else { continue }
            for y in y0..<y1 {
                for x in x0..<x1 {
                    func value(_ m: CoverageMask) -> Int {
                        let u = x - m.left, v = y - m.top
                        return u >= 0 && u < m.width && v >= 0 && v < m.height ? Int(m.coverage[v * m.width + u]) : 0
                    }
                    let d = abs(value(a) - value(b))
                    total += d; count += 1; worst = max(worst, d)
                }
            }
        }
        print(String(format: "glyphs %d at %.0f px", glyphs.count, size))
        print(String(format: "strata-rasterizer %.2f µs a glyph", strata / Double(glyphs.count)))
        print(String(format: "freetype-rasterizer %.2f µs a glyph", freeType / Double(glyphs.count)))
        print(String(format: "coverage difference: mean %.2f levels, largest %d", Double(total) / Double(max(1, count)), worst))
    }
}
