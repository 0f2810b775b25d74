import Foundation
import StrataGraphics
import StrataText

/// Small pictures that show what the drawing engine does, each drawn with the
/// public API only.
public enum GalleryPictures {
    public static let all: [(String, @Sendable (Canvas) -> Void)] = [
        ("shapes", shapes),
        ("fill-rules", fillRules),
        ("arcs", arcs),
        ("transforms", transforms),
        ("strokes", strokes),
        ("gradients", gradients),
        ("compositing", compositing),
        ("text", text),
        ("text-scripts", textScripts),
        ("images-and-masks", imagesAndMasks),
    ]

    static func background(_ canvas: Canvas) {
        canvas.fillColor = Color(white: 0.97)
        canvas.fill(canvas.bounds)
    }

    /// Rectangles, rounded rectangles, ellipses and a curved blob, half transparent.
    static func shapes(_ canvas: Canvas) {
        background(canvas)
        canvas.fillColor = Color(red: 0.20, green: 0.47, blue: 0.96, alpha: 0.85)
        canvas.fill(Rect(x: 30.5, y: 30.25, width: 140, height: 100))
        canvas.fillColor = Color(red: 1.0, green: 0.23, blue: 0.19, alpha: 0.6)
        canvas.fill(Path(roundedRect: Rect(x: 110, y: 80, width: 160, height: 110), cornerWidth: 24, cornerHeight: 24))
        canvas.fillColor = Color(red: 0.2, green: 0.78, blue: 0.35, alpha: 0.7)
        canvas.fillEllipse(in: Rect(x: 290, y: 40, width: 150, height: 100))
        var blob = Path()
        blob.move(to: Point(x: 60, y: 280))
        blob.addCurve(to: Point(x: 240, y: 250), control1: Point(x: 90, y: 180), control2: Point(x: 200, y: 330))
        blob.addQuadCurve(to: Point(x: 420, y: 290), control: Point(x: 330, y: 150))
        blob.addLine(to: Point(x: 420, y: 310))
        blob.addLine(to: Point(x: 60, y: 310))
        blob.closeSubpath()
        canvas.fillColor = Color(red: 0.69, green: 0.32, blue: 0.87, alpha: 0.75)
        canvas.fill(blob)
    }

    /// A five-pointed star and two nested rings under each fill rule.
    static func fillRules(_ canvas: Canvas) {
        background(canvas)
        canvas.fillColor = Color(red: 0.95, green: 0.6, blue: 0.1)
        canvas.fill(pentagram(center: Point(x: 120, y: 110), radius: 90), rule: .winding)
        canvas.fill(pentagram(center: Point(x: 360, y: 110), radius: 90), rule: .evenOdd)
        var rings = Path(ellipseIn: Rect(x: 40, y: 210, width: 160, height: 100))
        rings.addEllipse(in: Rect(x: 80, y: 230, width: 80, height: 60))
        canvas.fillColor = Color(red: 0.1, green: 0.55, blue: 0.75)
        canvas.fill(rings, rule: .winding)
        canvas.fill(rings.applying(Transform(translationX: 240, y: 0)), rule: .evenOdd)
    }

    /// A five-pointed star in one stroke, each point joined to the one two
    /// along, so that it crosses itself; the first point straight up.
    static func pentagram(center: Point, radius: Double) -> Path {
        let corners = (0..<5).map { k in
            let angle = Double(k) * 0.8 * .pi - .pi / 2
            return Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
        var star = Path()
        star.addLines(between: corners)
        star.closeSubpath()
        return star
    }

    /// Arcs by angle and by tangents: a pie chart and a rounded speech bubble.
    static func arcs(_ canvas: Canvas) {
        background(canvas)
        let center = Point(x: 130, y: 160)
        let shares = [0.35, 0.25, 0.2, 0.2]
        let colors = [
            Color(red: 0.2, green: 0.47, blue: 0.96), Color(red: 1, green: 0.58, blue: 0),
            Color(red: 0.2, green: 0.78, blue: 0.35), Color(red: 0.9, green: 0.2, blue: 0.4),
        ]
        var start = -Double.pi / 2
        for (share, color) in zip(shares, colors) {
            var slice = Path()
            slice.move(to: center)
            slice.addArc(center: center, radius: 100, startAngle: start, endAngle: start + share * 2 * Double.pi, clockwise: false)
            slice.closeSubpath()
            canvas.fillColor = color
            canvas.fill(slice)
            start += share * 2 * Double.pi
        }
        var bubble = Path()
        bubble.move(to: Point(x: 300, y: 60))
        bubble.addArc(tangent1End: Point(x: 450, y: 60), tangent2End: Point(x: 450, y: 220), radius: 30)
        bubble.addArc(tangent1End: Point(x: 450, y: 220), tangent2End: Point(x: 260, y: 220), radius: 30)
        bubble.addLine(to: Point(x: 320, y: 220))
        bubble.addLine(to: Point(x: 280, y: 270))
        bubble.addLine(to: Point(x: 290, y: 220))
        bubble.addArc(tangent1End: Point(x: 260, y: 220), tangent2End: Point(x: 260, y: 60), radius: 30)
        bubble.addArc(tangent1End: Point(x: 260, y: 60), tangent2End: Point(x: 450, y: 60), radius: 30)
        bubble.closeSubpath()
        canvas.fillColor = Color(red: 0.35, green: 0.35, blue: 0.4)
        canvas.fill(bubble)
    }

    /// The same rounded square rotated and scaled around a point, with fading alpha.
    static func transforms(_ canvas: Canvas) {
        background(canvas)
        let square = Path(roundedRect: Rect(x: -40, y: -40, width: 80, height: 80), cornerWidth: 14, cornerHeight: 14)
        for i in 0..<12 {
            canvas.withSavedGState {
                canvas.translateBy(x: 240, y: 160)
                canvas.rotate(by: Double(i) * Double.pi / 12)
                canvas.scaleBy(x: 1 + Double(i) * 0.12, y: 1 + Double(i) * 0.12)
                canvas.alpha = 0.25
                canvas.fillColor = Color(red: Double(i) / 12, green: 0.3, blue: 1 - Double(i) / 12)
                canvas.fill(square)
            }
        }
        canvas.clip(to: Rect(x: 20, y: 20, width: 100, height: 60))
        canvas.fillColor = .black
        canvas.fillEllipse(in: Rect(x: 0, y: 0, width: 150, height: 150))
    }

    /// Every cap with every join, a miter cut to a bevel by its limit, dashes along
    /// a curve, a cusp, and hairlines down to a tenth of a pixel.
    static func strokes(_ canvas: Canvas) {
        background(canvas)
        let caps: [LineCap] = [.butt, .round, .square]
        let joins: [LineJoin] = [.miter, .round, .bevel]
        for (i, cap) in caps.enumerated() {
            for (j, join) in joins.enumerated() {
                var p = Path()
                let x = 30 + Double(j) * 100, y = 30 + Double(i) * 70
                p.move(to: Point(x: x, y: y + 40))
                p.addLine(to: Point(x: x + 30, y: y))
                p.addLine(to: Point(x: x + 60, y: y + 40))
                canvas.strokeColor = Color(red: 0.2, green: 0.47, blue: 0.96)
                canvas.strokeStyle = StrokeStyle(lineWidth: 14, lineCap: cap, lineJoin: join)
                canvas.stroke(p)
                canvas.strokeColor = .white
                canvas.strokeStyle = StrokeStyle(lineWidth: 1)
                canvas.stroke(p)
            }
        }
        // A sharp corner whose miter (3.2 widths) exceeds the limit of 3: bevelled.
        var sharp = Path()
        sharp.move(to: Point(x: 340, y: 40))
        sharp.addLine(to: Point(x: 400, y: 60))
        sharp.addLine(to: Point(x: 340, y: 80))
        canvas.strokeColor = Color(red: 0.9, green: 0.3, blue: 0.2)
        canvas.strokeStyle = StrokeStyle(lineWidth: 10, lineJoin: .miter, miterLimit: 3)
        canvas.stroke(sharp)
        // Dashes with a phase along a curve, round caps.
        var wave = Path()
        wave.move(to: Point(x: 330, y: 120))
        wave.addCurve(to: Point(x: 460, y: 130), control1: Point(x: 370, y: 60), control2: Point(x: 420, y: 200))
        canvas.strokeColor = Color(red: 0.2, green: 0.7, blue: 0.4)
        canvas.strokeStyle = StrokeStyle(lineWidth: 6, lineCap: .round, dashPhase: 5, dashLengths: [14, 10])
        canvas.stroke(wave)
        // A cubic with a cusp: stays round.
        var cusp = Path()
        cusp.move(to: Point(x: 330, y: 230))
        cusp.addCurve(to: Point(x: 450, y: 230), control1: Point(x: 470, y: 170), control2: Point(x: 310, y: 170))
        canvas.strokeColor = Color(red: 0.55, green: 0.3, blue: 0.8)
        canvas.strokeStyle = StrokeStyle(lineWidth: 8, lineJoin: .miter)
        canvas.stroke(cusp)
        // Hairlines: widths 1, 0.5, 0.25 and 0.1 at half-pixel offsets.
        for (k, w) in [1.0, 0.5, 0.25, 0.1].enumerated() {
            var line = Path()
            line.move(to: Point(x: 30, y: 250.5 + Double(k) * 12))
            line.addLine(to: Point(x: 300, y: 240.5 + Double(k) * 18))
            canvas.strokeColor = .black
            canvas.strokeStyle = StrokeStyle(lineWidth: w)
            canvas.stroke(line)
        }
    }

    /// Linear gradients with each spread mode, a two-circle radial gradient, a
    /// conic one, and a chart-style fill fading under a stroked line.
    static func gradients(_ canvas: Canvas) {
        background(canvas)
        let sunset = Gradient(
            colors: [
                Color(red: 1, green: 0.58, blue: 0), Color(red: 0.9, green: 0.2, blue: 0.4),
                Color(red: 0.35, green: 0.2, blue: 0.8),
            ], locations: [0, 0.5, 1])
        for (i, spread) in [GradientSpread.pad, .repeat, .reflect].enumerated() {
            let y = 20 + Double(i) * 40
            canvas.fill(
                Path(roundedRect: Rect(x: 20, y: y, width: 200, height: 30), cornerWidth: 8, cornerHeight: 8),
                with: .linearGradient(sunset, start: Point(x: 80, y: 0), end: Point(x: 140, y: 0), spread: spread))
        }
        canvas.fillEllipse(
            in: Rect(x: 250, y: 20, width: 100, height: 100),
            with: .radialGradient(
                Gradient(colors: [.white, Color(red: 0.2, green: 0.47, blue: 0.96)]),
                startCenter: Point(x: 280, y: 50), startRadius: 2,
                endCenter: Point(x: 300, y: 70), endRadius: 50))
        canvas.fillEllipse(
            in: Rect(x: 370, y: 20, width: 100, height: 100),
            with: .conicGradient(Gradient(colors: [.red, .green, .blue, .red]), center: Point(x: 420, y: 70), angle: 0))
        // A Health-style area: a fade under the line, then the line.
        var line = Path()
        let values = [0.2, 0.5, 0.4, 0.8, 0.6, 0.9, 0.7, 0.75, 0.5, 0.65]
        for (i, v) in values.enumerated() {
            let p = Point(x: 20 + Double(i) * 48, y: 300 - v * 140)
            if i == 0 { line.move(to: p) } else { line.addLine(to: p) }
        }
        var area = line
        area.addLine(to: Point(x: 20 + 9 * 48, y: 300))
        area.addLine(to: Point(x: 20, y: 300))
        area.closeSubpath()
        let tint = Color(red: 1, green: 0.23, blue: 0.19)
        canvas.fill(
            area,
            with: .linearGradient(
                Gradient(colors: [tint.withAlphaComponent(0.8), tint.withAlphaComponent(0)]),
                start: Point(x: 0, y: 160), end: Point(x: 0, y: 300)))
        canvas.strokeColor = tint
        canvas.strokeStyle = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round)
        canvas.stroke(line)
    }

    /// Shadows, a transparency layer, a path clip and a few blend modes.
    static func compositing(_ canvas: Canvas) {
        background(canvas)
        // A card with a soft shadow.
        canvas.withSavedGState {
            canvas.setShadow(offset: Size(width: 0, height: 6), blur: 16, color: Color(white: 0, alpha: 0.35))
            canvas.fillColor = .white
            canvas.fill(Path(roundedRect: Rect(x: 24, y: 24, width: 180, height: 110), cornerWidth: 14, cornerHeight: 14))
        }
        // Two circles as one half-transparent group (no darker overlap).
        canvas.withSavedGState {
            canvas.alpha = 0.5
            canvas.beginTransparencyLayer()
            canvas.fillColor = Color(red: 0.2, green: 0.47, blue: 0.96)
            canvas.fillEllipse(in: Rect(x: 50, y: 45, width: 70, height: 70))
            canvas.fillEllipse(in: Rect(x: 100, y: 45, width: 70, height: 70))
            canvas.endTransparencyLayer()
        }
        // Stripes clipped to a star.
        canvas.withSavedGState {
            var star = Path()
            for i in 0..<10 {
                let a = -Double.pi / 2 + Double(i) * Double.pi / 5
                let r = i % 2 == 0 ? 70.0 : 30.0
                let p = Point(x: 340 + r * cos(a), y: 90 + r * sin(a))
                if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
            }
            star.closeSubpath()
            canvas.clip(to: star)
            for k in 0..<14 {
                canvas.fillColor = k % 2 == 0 ? Color(red: 1, green: 0.58, blue: 0) : Color(red: 0.9, green: 0.2, blue: 0.4)
                canvas.fill(Rect(x: 260 + Double(k) * 12, y: 10, width: 12, height: 160))
            }
        }
        // Blend modes over a gradient strip.
        canvas.fill(
            Rect(x: 24, y: 180, width: 432, height: 120),
            with: .linearGradient(
                Gradient(colors: [Color(red: 0.1, green: 0.2, blue: 0.5), Color(red: 0.95, green: 0.9, blue: 0.6)]),
                start: Point(x: 24, y: 0), end: Point(x: 456, y: 0)))
        let modes: [BlendMode] = [.normal, .multiply, .screen, .overlay, .difference, .colorDodge]
        for (i, mode) in modes.enumerated() {
            canvas.withSavedGState {
                canvas.blendMode = mode
                canvas.fillColor = Color(red: 0.9, green: 0.3, blue: 0.3)
                canvas.fillEllipse(in: Rect(x: 36 + Double(i) * 70, y: 205, width: 60, height: 60))
            }
        }
    }

    /// A feed cell's rich text: mixed Chinese and English with a mention, a topic
    /// and a link, wrapped in a width, the link's rectangles from hit testing.
    static func text(_ canvas: Canvas) {
        background(canvas)
        let font = Font(family: "DejaVu Sans", size: 15, cascadeList: ["WenQuanYi Micro Hei"])
        let body = TextAttributes(font: font, foregroundColor: Color(white: 0.12))
        var linkStyle = body
        linkStyle.foregroundColor = Color(red: 0.1, green: 0.4, blue: 0.9)
        var text = AttributedText("长按 ", attributes: body)
        linkStyle.link = TextLink("user:strata_dev")
        text.append("@strata_dev", attributes: linkStyle)
        text.append(" 的名字可以查看资料，点击 ", attributes: body)
        linkStyle.link = TextLink("topic:流畅界面")
        text.append("#流畅界面", attributes: linkStyle)
        text.append(" 话题可以看到更多讨论。Numbers such as 1,234.56 kg and 2026-11-21 stay whole; the full guide is at ", attributes: body)
        linkStyle.link = TextLink("https://example.org/strata/guide")
        linkStyle.underline = TextDecoration()
        text.append("example.org/strata/guide", attributes: linkStyle)
        text.append("。", attributes: body)
        let layout = TextLayout(text, width: 440, style: ParagraphStyle(lineSpacing: 4))
        let origin = Point(x: 20, y: 20)
        canvas.fillColor = Color(red: 0.88, green: 0.93, blue: 1)
        for (range, _) in layout.linkRanges {
            for r in layout.rects(forCharacters: range) { canvas.fill(r.offsetBy(dx: origin.x, dy: origin.y)) }
        }
        canvas.draw(layout, at: origin)
        let title = TextLayout(
            AttributedText(
                "Strata 文字",
                attributes: TextAttributes(
                    font: Font(family: "DejaVu Sans", size: 44, weight: .bold, cascadeList: ["WenQuanYi Micro Hei"]),
                    foregroundColor: Color(red: 0.9, green: 0.3, blue: 0.2))),
            width: 440, style: ParagraphStyle(alignment: .center))
        canvas.setShadow(offset: Size(width: 0, height: 3), blur: 6, color: Color(white: 0, alpha: 0.3))
        canvas.draw(title, at: Point(x: 20, y: 220))
    }

    /// Text from many scripts in one paragraph: English with ligatures,
    /// Chinese, Arabic with numbers, Devanagari conjuncts, stacked marks and
    /// emoji sequences (a family, flags, skin tones, a keycap), shaped by
    /// HarfBuzz and ordered by ICU's bidirectional algorithm; a selection
    /// runs from English into Arabic, in two pieces on screen, with carets at
    /// its ends; below, a right-to-left paragraph aligned by its direction.
    static func textScripts(_ canvas: Canvas) {
        background(canvas)
        let font = Font(
            family: "DejaVu Sans", size: 15,
            cascadeList: ["WenQuanYi Micro Hei", "Noto Sans Arabic", "Noto Sans Devanagari", "Noto Color Emoji"])
        let body = TextAttributes(font: font, foregroundColor: Color(white: 0.12))
        let paragraph =
            "The office offers efficient workflows: first, find the file. 流畅的界面从每一帧开始。 "
            + "The word \"سلام\" means peace; مرحبا بالعالم، الرقم 2026 والنسبة 98.6% في وسطه. "
            + "नमस्ते दुनिया, क्षत्रिय और श्री। Zalgo: ȁ̴̡̛ é̵̢ ḯ̷ ò̶̧. "
            + "Emoji: 👨‍👩‍👧‍👦 🇨🇳 🇺🇸 👍🏽 👋🏿 1️⃣ ❤️"
        let layout = TextLayout(AttributedText(paragraph, attributes: body), width: 440, style: ParagraphStyle(lineSpacing: 5))
        let origin = Point(x: 20, y: 18)
        // Select from "word" to the middle of سلام: logically one range,
        // on screen two pieces, as the Arabic reads from the right.
        let chars = Array(paragraph)
        let start = (0..<chars.count).first { String(chars[$0..<($0 + 4)]) == "word" }!
        let arabic = chars.firstIndex(of: "س")!
        let selection = start..<(arabic + 2)
        canvas.fillColor = Color(red: 0.72, green: 0.84, blue: 1)
        for r in layout.rects(forCharacters: selection) { canvas.fill(r.offsetBy(dx: origin.x, dy: origin.y)) }
        canvas.draw(layout, at: origin)
        canvas.fillColor = Color(red: 0.1, green: 0.4, blue: 0.9)
        for index in [selection.lowerBound, selection.upperBound] {
            let caret = layout.caretRect(forCharacterAt: index)
            canvas.fill(Rect(x: origin.x + caret.minX - 1, y: origin.y + caret.minY, width: 2, height: caret.height))
        }
        // A right-to-left paragraph: natural alignment puts it on the right.
        let rtl = TextLayout(
            AttributedText(
                "مساء الخير! الاجتماع في 12:30 مع فريق Strata 👋",
                attributes: TextAttributes(font: font, foregroundColor: Color(red: 0.55, green: 0.2, blue: 0.1))),
            width: 440, style: ParagraphStyle(alignment: .natural))
        canvas.draw(rtl, at: Point(x: 20, y: origin.y + layout.size.height + 16))
    }

    /// A small image enlarged three ways (nearest, bilinear, bicubic); an image
    /// pattern repeated, reflected and padded; a photo clipped to a soft mask;
    /// a star with and without anti-aliasing; a dashed rounded rectangle whose
    /// last dash runs on into the first through its start.
    static func imagesAndMasks(_ canvas: Canvas) {
        background(canvas)
        // A 6 × 6 tile: a diagonal colour ramp with a dark ring.
        var tile: [UInt8] = []
        for y in 0..<6 {
            for x in 0..<6 {
                let ring = (x == 1 || x == 4) && (1...4).contains(y) || (y == 1 || y == 4) && (1...4).contains(x)
                let r = ring ? 40 : 60 + 30 * x, g = ring ? 40 : 120 + 20 * y, b = ring ? 90 : 230 - 25 * (x + y) / 2
                tile += [UInt8(r), UInt8(g), UInt8(b), 255]
            }
        }
        let small = try! Image(width: 6, height: 6, premultipliedPixels: tile)
        let label = TextAttributes(
            font: Font(family: "DejaVu Sans", size: 11, cascadeList: ["WenQuanYi Micro Hei"]), foregroundColor: Color(white: 0.25))
        for (i, (quality, name)) in [(InterpolationQuality.none, "none"), (.default, "bilinear"), (.high, "bicubic")].enumerated() {
            let x = 20 + Double(i) * 100
            canvas.saveGState()
            canvas.interpolationQuality = quality
            canvas.draw(small, in: Rect(x: x, y: 14, width: 84, height: 84))
            canvas.restoreGState()
            canvas.draw(TextLayout(AttributedText(name, attributes: label), width: 84), at: Point(x: x, y: 102))
        }
        // Patterns of an asymmetric tile (a ramp with a dot at its top left), three
        // times its size, placed at x = 395: repeated, reflected, padded.
        var arrow: [UInt8] = []
        for y in 0..<6 {
            for x in 0..<8 {
                let dot = x < 2 && y < 2
                arrow += dot ? [220, 50, 40, 255] : [UInt8(30 + 28 * x), UInt8(60 + 22 * x), UInt8(150 + 10 * y), 255]
            }
        }
        let pattern = try! Image(width: 8, height: 6, premultipliedPixels: arrow)
        for (i, (spread, name)) in [(GradientSpread.repeat, "repeat"), (.reflect, "reflect"), (.pad, "pad")].enumerated() {
            let y = 14 + Double(i) * 34
            let place = Transform(scaleX: 3, y: 3).concatenating(Transform(translationX: 395, y: y + 6))
            canvas.fill(Rect(x: 370, y: y, width: 95, height: 30), with: .pattern(pattern, transform: place, spread: spread))
            canvas.draw(TextLayout(AttributedText(name, attributes: label), width: 60), at: Point(x: 322, y: y + 8))
        }
        // A soft mask (a radial fade, opaque grey, so its luminance is the mask)
        // over a sunset gradient with a sun.
        let maskCanvas = try! Canvas(width: 64, height: 64)
        maskCanvas.fillColor = .black
        maskCanvas.fill(maskCanvas.bounds)
        maskCanvas.drawRadialGradient(
            Gradient(colors: [.white, .white, .black], locations: [0, 0.45, 1]),
            startCenter: Point(x: 32, y: 32), startRadius: 0,
            endCenter: Point(x: 32, y: 32), endRadius: 32, options: [])
        canvas.saveGState()
        canvas.clip(to: Rect(x: 20, y: 130, width: 150, height: 150), mask: maskCanvas.makeImage())
        canvas.drawLinearGradient(
            Gradient(colors: [Color(red: 1, green: 0.6, blue: 0.1), Color(red: 0.5, green: 0.1, blue: 0.5)]),
            start: Point(x: 0, y: 130), end: Point(x: 0, y: 280), options: [])
        canvas.fillColor = Color(red: 1, green: 0.95, blue: 0.6)
        canvas.fillEllipse(in: Rect(x: 70, y: 180, width: 50, height: 50))
        canvas.restoreGState()
        // A star, anti-aliased and aliased.
        var star = Path()
        for k in 0..<10 {
            let a = Double(k) * Double.pi / 5 - Double.pi / 2, r = k % 2 == 0 ? 44.0 : 19.0
            let p = Point(x: r * cos(a), y: r * sin(a))
            if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        for (i, smooth) in [true, false].enumerated() {
            canvas.saveGState()
            canvas.translateBy(x: 232 + Double(i) * 100, y: 200)
            canvas.rotate(by: 0.1)
            canvas.shouldAntialias = smooth
            canvas.fillColor = Color(red: 0.95, green: 0.7, blue: 0.1)
            canvas.fill(star)
            canvas.strokeColor = Color(red: 0.6, green: 0.3, blue: 0)
            canvas.lineWidth = 1.5
            canvas.stroke(star)
            canvas.restoreGState()
            canvas.draw(
                TextLayout(AttributedText(smooth ? "anti-aliased" : "aliased", attributes: label), width: 90),
                at: Point(x: 200 + Double(i) * 100, y: 250))
        }
        // Dashes joined through the start of a closed path.
        canvas.strokeColor = Color(red: 0.2, green: 0.47, blue: 0.96)
        canvas.strokeStyle = StrokeStyle(lineWidth: 5, lineCap: .butt, lineJoin: .round, dashPhase: 9, dashLengths: [22, 9])
        canvas.stroke(Path(roundedRect: Rect(x: 405, y: 150, width: 60, height: 140), cornerWidth: 10, cornerHeight: 10))
    }
}
