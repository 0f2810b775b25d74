import Foundation
import StrataCharts
import StrataGraphics
import StrataLayers
import StrataText

/// The layer system's pictures for `strata gallery`: each is a layer tree
/// rendered by a headless host, some after animations have run
/// (`Gallery.pictures`).
@MainActor
public enum LayerGallery {
    static let red = Color(red: 1, green: 0.23, blue: 0.19)

    /// The pictures, by name, each built in a host of 480 × 320 points.
    static let builders: [(String, @MainActor @Sendable (LayerHost) throws -> Void)] = [
        ("layers-health-card", healthCard), ("layers-replicator-ring", replicatorRing),
        ("layers-shadows-and-masks", shadowsAndMasks), ("layers-perspective-card", perspectiveCard),
        ("layers-cubes", cubes), ("layers-fire-and-snow", fireAndSnow),
        ("layers-tiled-snowman", tiledSnowman),
    ]

    /// The picture `build` makes, in a host of its own.
    static func host(_ build: @MainActor (LayerHost) throws -> Void) throws -> LayerHost {
        let host = try LayerHost(width: 480, height: 320, scale: 1, backgroundColor: Color(white: 0.95))
        try build(host)
        return host
    }

    /// A Health-style card: a `LineChartLayer` in the Health theme (a
    /// monotone line whose stroke draws itself in, a gradient masked by the
    /// area under it, hollow nodes the line stops at, times of day along the
    /// bottom, the average dashed) under a title and the latest value.
    static func healthCard(_ host: LayerHost) throws {
        let card = Layer()
        card.frame = Rect(x: 20, y: 20, width: 440, height: 280)
        card.backgroundColor = .white
        card.cornerRadius = 18
        card.shadowOpacity = 0.18
        card.shadowRadius = 10
        card.shadowOffset = Size(width: 0, height: 4)
        host.rootLayer.addSublayer(card)
        let title = TextLayer()
        title.frame = Rect(x: 20, y: 14, width: 300, height: 24)
        title.string = "Heart Rate"
        title.fontSize = 18
        title.foregroundColor = red
        card.addSublayer(title)
        let value = TextLayer()
        value.frame = Rect(x: 20, y: 38, width: 300, height: 34)
        value.attributedString = {
            var t = AttributedText("72", attributes: TextAttributes(font: Font(size: 28, weight: .bold), foregroundColor: .black))
            t.append(" BPM", attributes: TextAttributes(font: Font(size: 16), foregroundColor: Color(white: 0.5)))
            return t
        }()
        card.addSublayer(value)
        // A day of readings, every 100 minutes from 5 AM.
        let utc = Calendar.gregorianUTC
        let morning = utc.date(from: DateComponents(year: 2026, month: 3, day: 14, hour: 5))!
        let samples = [62.0, 70, 66, 81, 76, 90, 84, 73, 79, 68, 72]
        let chart = LineChartLayer()
        chart.frame = Rect(x: 8, y: 78, width: 424, height: 190)
        chart.apply(.health)
        chart.calendar = utc
        chart.xIsDate = true
        chart.data = LineChartData([
            LineChartSeries(name: "Heart rate", dates: samples.indices.map { morning.addingTimeInterval(Double($0) * 6000) }, y: samples)
        ])
        chart.yRange = 50...100
        chart.gridColor = Color(white: 0.93)
        chart.showsAverageLine = true
        chart.averageLineLabel = "avg"
        chart.averageLabelPosition = .end
        chart.averageLabelBackgroundColor = .white
        chart.layoutMargins = EdgeInsets(top: 4, left: 4, bottom: 4, right: 12)
        chart.xLabelFormatter = { t in
            let h = utc.component(.hour, from: Date(timeIntervalSinceReferenceDate: t))
            return h == 0 ? "12 AM" : h < 12 ? "\(h) AM" : h == 12 ? "12 PM" : "\(h - 12) PM"
        }
        card.addSublayer(chart)
        // The line draws itself in over half a second.
        host.renderFrame()
        chart.animateEntrance(.drawIn, duration: 0.5)
        for _ in 0..<40 { host.advance() }
    }

    /// Twelve squares around a ring, each fading more than the last, from one
    /// sublayer of a replicator.
    static func replicatorRing(_ host: LayerHost) throws {
        for (i, count) in [12, 24].enumerated() {
            let ring = ReplicatorLayer()
            ring.frame = Rect(x: 40 + Double(i) * 220, y: 60, width: 180, height: 180)
            ring.instanceCount = count
            ring.instanceTransform = Transform3D(rotationAngle: 2 * .pi / Double(count), x: 0, y: 0, z: 1)
            ring.instanceAlphaOffset = -1 / Double(count)
            ring.instanceColor = i == 0 ? Color(red: 0.2, green: 0.45, blue: 0.95) : red
            let square = Layer()
            square.frame = Rect(x: 80, y: 0, width: 20, height: 20)
            square.backgroundColor = .white
            square.cornerRadius = i == 0 ? 4 : 10
            ring.addSublayer(square)
            host.rootLayer.addSublayer(ring)
        }
        host.renderFrame()
    }

    /// Shadows with and without a shadow path, rounded corners with chosen
    /// corners, a border over its sublayers, and mask layers.
    static func shadowsAndMasks(_ host: LayerHost) throws {
        let a = Layer()
        a.frame = Rect(x: 30, y: 30, width: 120, height: 100)
        a.backgroundColor = Color(red: 0.3, green: 0.7, blue: 0.45)
        a.cornerRadius = 20
        a.shadowOpacity = 0.5
        a.shadowRadius = 8
        a.shadowOffset = Size(width: 6, height: 8)
        host.rootLayer.addSublayer(a)
        let b = Layer()
        b.frame = Rect(x: 180, y: 30, width: 120, height: 100)
        b.backgroundColor = Color(red: 0.95, green: 0.75, blue: 0.2)
        b.cornerRadius = 30
        b.maskedCorners = [.minXMinY, .maxXMaxY]
        b.borderWidth = 5
        b.borderColor = Color(red: 0.5, green: 0.3, blue: 0)
        let inner = Layer()
        inner.frame = Rect(x: -20, y: 40, width: 160, height: 30)
        inner.backgroundColor = Color(red: 0.2, green: 0.45, blue: 0.95)
        b.addSublayer(inner)
        b.masksToBounds = true
        host.rootLayer.addSublayer(b)
        let c = Layer()
        c.frame = Rect(x: 330, y: 30, width: 120, height: 100)
        c.backgroundColor = red
        c.shadowOpacity = 0.6
        c.shadowRadius = 5
        c.shadowOffset = Size(width: 0, height: 10)
        c.shadowPath = Path(ellipseIn: Rect(x: 10, y: 80, width: 100, height: 20))
        host.rootLayer.addSublayer(c)
        // A gradient masked by text-like stripes and a circle.
        let g = GradientLayer()
        g.frame = Rect(x: 30, y: 170, width: 200, height: 120)
        g.colors = [Color(red: 0.2, green: 0.45, blue: 0.95), red, Color(red: 0.95, green: 0.75, blue: 0.2)]
        g.startPoint = Point(x: 0, y: 0)
        g.endPoint = Point(x: 1, y: 1)
        let mask = ShapeLayer()
        mask.frame = g.bounds
        var stripes = Path(ellipseIn: Rect(x: 10, y: 10, width: 100, height: 100))
        for i in 0..<5 { stripes.addRect(Rect(x: 120, y: 12 + Double(i) * 20, width: 70, height: 12)) }
        mask.path = stripes
        g.mask = mask
        host.rootLayer.addSublayer(g)
        // Group opacity against per-layer opacity.
        for (i, group) in [true, false].enumerated() {
            let parent = Layer()
            parent.frame = Rect(x: 260 + Double(i) * 100, y: 170, width: 90, height: 120)
            parent.opacity = 0.5
            parent.allowsGroupOpacity = group
            for j in 0..<2 {
                let s = Layer()
                s.frame = Rect(x: Double(j) * 30, y: Double(j) * 40, width: 60, height: 70)
                s.backgroundColor = Color(red: 0.2, green: 0.45, blue: 0.95)
                s.cornerRadius = 8
                parent.addSublayer(s)
            }
            host.rootLayer.addSublayer(parent)
        }
        host.renderFrame()
    }

    /// A card turned about the y axis under perspective, with contents and a
    /// border, next to a flat copy.
    static func perspectiveCard(_ host: LayerHost) throws {
        let container = Layer()
        container.frame = host.rootLayer.bounds
        container.sublayerTransform = .perspective(distance: 600)
        host.rootLayer.addSublayer(container)
        for (i, angle) in [0.0, -0.9].enumerated() {
            let card = Layer()
            card.frame = Rect(x: 30 + Double(i) * 230, y: 70, width: 190, height: 180)
            card.backgroundColor = .white
            card.cornerRadius = 16
            card.borderWidth = 3
            card.borderColor = Color(red: 0.2, green: 0.45, blue: 0.95)
            card.transform = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
            let g = GradientLayer()
            g.frame = Rect(x: 15, y: 15, width: 160, height: 100)
            g.colors = [red, Color(red: 0.95, green: 0.75, blue: 0.2)]
            g.type = .radial
            g.startPoint = Point(x: 0.5, y: 0.5)
            g.endPoint = Point(x: 1, y: 1)
            g.cornerRadius = 10
            g.masksToBounds = true
            card.addSublayer(g)
            let t = TextLayer()
            t.frame = Rect(x: 15, y: 130, width: 160, height: 30)
            t.string = angle == 0 ? "Flat" : "Turned 0.9 rad"
            t.fontSize = 18
            t.foregroundColor = .black
            card.addSublayer(t)
            container.addSublayer(card)
        }
        host.renderFrame()
    }

    /// A transform layer of 100 × 100 points at `position`, turned by
    /// `transform`, holding six faces: each face is turned to its side of the
    /// cube and then pushed out 50 points along its own z axis. Faces are
    /// front, right, top, bottom, left, back; `face(i, layer)` styles each.
    static func cubeLayer(at position: Point, transform: Transform3D, face: (Int, Layer) -> Void) -> Layer {
        let container = TransformLayer()
        container.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        container.position = position
        container.transform = transform
        let turns: [(angle: Double, x: Double, y: Double)] = [
            (0, 0, 1), (.pi / 2, 0, 1), (.pi / 2, 1, 0), (-.pi / 2, 1, 0), (-.pi / 2, 0, 1), (.pi, 0, 1),
        ]
        for (i, turn) in turns.enumerated() {
            let side = Layer()
            side.bounds = container.bounds
            side.position = Point(x: 50, y: 50)
            side.transform = Transform3D(rotationAngle: turn.angle, x: turn.x, y: turn.y, z: 0).translatedBy(x: 0, y: 0, z: 50)
            face(i, side)
            container.addSublayer(side)
        }
        return container
    }

    /// The two cubes of the Core Animation books: six coloured, numbered faces
    /// in a transform layer each, under a perspective of 500 points; the right
    /// cube turned 45° about x and y.
    static func cubes(_ host: LayerHost) throws {
        let container = Layer()
        container.frame = host.rootLayer.bounds
        container.sublayerTransform = .perspective(distance: 500)
        host.rootLayer.addSublayer(container)
        let colors = [
            Color(red: 0.95, green: 0.3, blue: 0.3), Color(red: 0.3, green: 0.75, blue: 0.35),
            Color(red: 0.3, green: 0.5, blue: 0.95), Color(red: 0.95, green: 0.8, blue: 0.25),
            Color(red: 0.3, green: 0.8, blue: 0.85), Color(red: 0.75, green: 0.4, blue: 0.9),
        ]
        let turned = Transform3D(rotationAngle: -.pi / 4, x: 1, y: 0, z: 0).rotated(by: -.pi / 4, x: 0, y: 1, z: 0)
        for (x, transform) in [(140.0, Transform3D.identity), (340.0, turned)] {
            let cube = cubeLayer(at: Point(x: x, y: 160), transform: transform) { i, face in
                face.backgroundColor = colors[i]
                face.borderWidth = 2
                face.borderColor = Color(white: 1, alpha: 0.8)
                let label = TextLayer()
                label.frame = Rect(x: 0, y: 28, width: 100, height: 44)
                label.string = "\(i + 1)"
                label.fontSize = 36
                label.alignmentMode = .center
                label.foregroundColor = .white
                face.addSublayer(label)
            }
            container.addSublayer(cube)
        }
        host.renderFrame()
    }

    /// The 2048 × 2048 snowman of the Core Animation books, drawn by a tiled
    /// layer in 256-pixel tiles: on the left the whole picture at about a
    /// seventh of its size (drawn from a coarse level of detail), on the right
    /// the face at full size. Each tile outlines itself, so the tiles and
    /// their levels show.
    static func tiledSnowman(_ host: LayerHost) throws {
        host.rootLayer.backgroundColor = Color(white: 0.2)
        let whole = SnowmanTiles(), face = SnowmanTiles()
        for layer in [whole, face] {
            layer.bounds = Rect(x: 0, y: 0, width: 2048, height: 2048)
            layer.levelsOfDetail = 4
            layer.fadeDuration = 0
        }
        whole.position = Point(x: 150, y: 160)
        whole.transform = Transform3D(scaleX: 0.14, y: 0.14, z: 1)
        host.rootLayer.addSublayer(whole)
        let window = Layer()
        window.frame = Rect(x: 300, y: 10, width: 170, height: 300)
        window.masksToBounds = true
        window.borderWidth = 2
        window.borderColor = .white
        // The face (about x 1024, y 600 in the picture) in the middle.
        face.position = Point(x: 85 + 1024 - 1024, y: 150 + 1024 - 620)
        window.addSublayer(face)
        host.rootLayer.addSublayer(window)
        host.renderFrame()
        // Until every tile is in (two minutes at most: the pool runs below
        // the main thread, and a busy machine can hold it back for long).
        let deadline = DispatchTime.now().uptimeNanoseconds + 120_000_000_000
        while whole.pendingTileCount + face.pendingTileCount > 0, DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(2000)
            host.renderFrame()
        }
        host.renderFrame()
    }

    /// A soft round spark: white, fading out from the centre.
    public static func spark(_ size: Int) throws -> Image {
        let c = try Canvas(width: size, height: size)
        let r = Double(size) / 2
        c.drawRadialGradient(
            Gradient(
                colors: [Color(white: 1, alpha: 1), Color(white: 1, alpha: 0.5), Color(white: 1, alpha: 0)],
                locations: [0, 0.35, 1]),
            startCenter: Point(x: r, y: r), startRadius: 0, endCenter: Point(x: r, y: r), endRadius: r, options: [])
        return c.makeImage()
    }

    /// A fire (additive, rising from a line) and snow (falling from a line
    /// across the top, spinning), two seconds after they began.
    static func fireAndSnow(_ host: LayerHost) throws {
        host.rootLayer.backgroundColor = Color(red: 0.05, green: 0.06, blue: 0.12)
        let fire = EmitterLayer()
        fire.frame = host.rootLayer.bounds
        fire.emitterPosition = Point(x: 150, y: 290)
        fire.emitterSize = Size(width: 60, height: 0)
        fire.emitterShape = .line
        fire.emitterMode = .outline
        fire.renderMode = .additive
        fire.seed = 7
        var flame = EmitterCell()
        flame.contents = try spark(32)
        flame.birthRate = 500
        flame.lifetime = 1.3
        flame.lifetimeRange = 0.4
        flame.velocity = 90
        flame.velocityRange = 30
        flame.emissionLongitude = -.pi / 2
        flame.emissionRange = 0.35
        flame.yAcceleration = -40
        flame.scale = 1.5
        flame.scaleSpeed = -1.0
        flame.color = Color(red: 1, green: 0.4, blue: 0.1, alpha: 0.22)
        flame.greenRange = 0.15
        flame.alphaSpeed = -0.22
        fire.emitterCells = [flame]
        host.rootLayer.addSublayer(fire)

        let snow = EmitterLayer()
        snow.frame = host.rootLayer.bounds
        snow.emitterPosition = Point(x: 360, y: -10)
        snow.emitterSize = Size(width: 260, height: 0)
        snow.emitterShape = .line
        snow.emitterMode = .surface
        snow.renderMode = .oldestFirst
        snow.seed = 3
        var flake = EmitterCell()
        flake.contents = try spark(16)
        flake.birthRate = 30
        flake.lifetime = 8
        flake.velocity = 35
        flake.velocityRange = 15
        flake.emissionLongitude = .pi / 2
        flake.emissionRange = 0.6
        flake.yAcceleration = 8
        flake.scale = 0.5
        flake.scaleRange = 0.3
        flake.spin = 0.5
        flake.spinRange = 1
        flake.color = Color(red: 0.9, green: 0.95, blue: 1, alpha: 0.9)
        flake.alphaRange = 0.1
        snow.emitterCells = [flake]
        host.rootLayer.addSublayer(snow)
        host.renderFrame()
        host.advance(by: 6)
    }
}

/// The snowman, drawn tile by tile from several threads at once: every value
/// it reads is a constant.
final class SnowmanTiles: TiledLayer {
    nonisolated override func draw(in canvas: Canvas) {
        let tile = canvas.clipBoundingBox
        canvas.drawLinearGradient(
            Gradient(colors: [Color(red: 0.35, green: 0.55, blue: 0.85), Color(red: 0.75, green: 0.85, blue: 0.95)]),
            start: Point(x: 0, y: 0), end: Point(x: 0, y: 1500))
        canvas.fillColor = Color(white: 0.97)
        canvas.fill(Rect(x: 0, y: 1500, width: 2048, height: 548))
        // Body, belly and head.
        canvas.fillColor = .white
        canvas.strokeColor = Color(white: 0.55)
        canvas.lineWidth = 8
        for (x, y, r) in [(1024.0, 1560.0, 380.0), (1024.0, 1040.0, 270.0), (1024.0, 620.0, 190.0)] {
            let circle = Rect(x: x - r, y: y - r, width: 2 * r, height: 2 * r)
            canvas.fillEllipse(in: circle)
            canvas.strokeEllipse(in: circle)
        }
        // Eyes, buttons and a carrot nose.
        canvas.fillColor = Color(white: 0.1)
        for (x, y, r) in [
            (955.0, 570.0, 22.0), (1093.0, 570.0, 22.0), (1024.0, 950.0, 26.0), (1024.0, 1060.0, 26.0),
            (1024.0, 1170.0, 26.0),
        ] {
            canvas.fillEllipse(in: Rect(x: x - r, y: y - r, width: 2 * r, height: 2 * r))
        }
        var nose = Path()
        nose.move(to: Point(x: 1020, y: 610))
        nose.addLine(to: Point(x: 1180, y: 650))
        nose.addLine(to: Point(x: 1020, y: 660))
        nose.closeSubpath()
        canvas.fillColor = Color(red: 0.95, green: 0.5, blue: 0.1)
        canvas.fill(nose)
        // A smile of coal.
        canvas.fillColor = Color(white: 0.1)
        for i in 0..<7 {
            let a = Double.pi * (0.2 + 0.6 * Double(i) / 6)
            canvas.fillEllipse(in: Rect(x: 1024 + 110 * cos(a) - 9, y: 640 + 70 * sin(a) - 9, width: 18, height: 18))
        }
        // Arms.
        canvas.strokeColor = Color(red: 0.4, green: 0.25, blue: 0.1)
        canvas.lineWidth = 22
        canvas.lineCap = .round
        var arms = Path()
        arms.move(to: Point(x: 780, y: 980)); arms.addLine(to: Point(x: 480, y: 760)); arms.addLine(to: Point(x: 420, y: 640))
        arms.move(to: Point(x: 480, y: 760)); arms.addLine(to: Point(x: 380, y: 780))
        arms.move(to: Point(x: 1268, y: 980)); arms.addLine(to: Point(x: 1570, y: 760)); arms.addLine(to: Point(x: 1630, y: 640))
        arms.move(to: Point(x: 1570, y: 760)); arms.addLine(to: Point(x: 1670, y: 780))
        canvas.stroke(arms)
        // A hat.
        canvas.fillColor = Color(white: 0.12)
        canvas.fill(Rect(x: 850, y: 440, width: 348, height: 40))
        canvas.fill(Rect(x: 900, y: 230, width: 248, height: 220))
        canvas.fillColor = Color(red: 0.8, green: 0.15, blue: 0.15)
        canvas.fill(Rect(x: 900, y: 390, width: 248, height: 40))
        // Snowflakes, from a fixed sequence.
        canvas.fillColor = Color(white: 1, alpha: 0.85)
        var seed: UInt64 = 2048
        for _ in 0..<400 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = Double(seed >> 40) / Double(1 << 24) * 2048
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let y = Double(seed >> 40) / Double(1 << 24) * 1500
            canvas.fillEllipse(in: Rect(x: x - 7, y: y - 7, width: 14, height: 14))
        }
        // The tile's own outline, a device pixel wide.
        canvas.strokeColor = Color(red: 1, green: 0.2, blue: 0.6, alpha: 0.8)
        canvas.lineWidth = 1.5 / max(canvas.transform.a, 1e-9)
        canvas.stroke(tile.insetBy(dx: canvas.lineWidth / 2, dy: canvas.lineWidth / 2))
    }
}
