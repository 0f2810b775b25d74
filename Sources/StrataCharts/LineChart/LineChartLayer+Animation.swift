import Foundation
import StrataGraphics
import StrataLayers
import StrataText

// The shapes of a series (line, area, nodes) and how a change of data or
// an entrance animates them.
extension LineChartLayer {
    // MARK: Shapes and animations

    /// A duration held to 0…60 seconds (NaN: 0).
    static func clampedDuration(_ d: Double) -> Double { d.isNaN ? 0 : Swift.min(60, Swift.max(0, d)) }

    /// The line, the area under it, and the nodes and their holes, for runs
    /// of points in plot coordinates.
    static func shapes(
        _ runs: [[Point]], look: LineChartSeriesStyle, baseY: Double, plotWidth: Double, nodes: Bool, band: [[Point]]? = nil,
        padTo lengths: [Int]? = nil
    ) -> (line: Path, area: Path, dots: Path, holes: Path) {
        var line = Path(), area = Path(), dots = Path(), holes = Path()
        if look.fillColor != nil, let band {
            // A band: along this series, back along the other (gaps bridged).
            let mine = runs.flatMap { $0 }, theirs = band.flatMap { $0 }
            if let first = mine.first, let back = theirs.last {
                area.move(to: first)
                LineChartMode.add(look.mode.segments(through: mine), to: &area)
                area.addLine(to: back)
                LineChartMode.add(LineChartMode.reversed(look.mode.segments(through: theirs), from: theirs[0]), to: &area)
                area.closeSubpath()
            }
        }
        for (k, run) in runs.enumerated() {
            guard let first = run.first, let last = run.last else { continue }
            // The run's curve, once, for the line and the area, padded (for
            // an animation) with its last point repeated.
            let extra = lengths.map { k < $0.count ? Swift.max(0, $0[k] - run.count) : 0 } ?? 0
            let segments = look.mode.segments(through: run) + look.mode.padding(extra, at: last)
            line.move(to: first)
            LineChartMode.add(segments, to: &line)
            if run.count == 1 { line.addLine(to: first) }
            if look.fillColor != nil, band == nil {
                area.move(to: Point(x: first.x, y: baseY))
                area.addLine(to: first)
                LineChartMode.add(segments, to: &area)
                area.addLine(to: Point(x: last.x, y: baseY))
                area.closeSubpath()
            }
            guard nodes else { continue }
            // Only the points inside the plot (not the one beyond each end).
            for p in run + Array(repeating: last, count: extra) where p.x >= -1e-9 && p.x <= plotWidth + 1e-9 {
                let r = look.nodeRadius, h = look.nodeHoleRadius
                dots.addEllipse(in: Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                if h > 0 { holes.addEllipse(in: Rect(x: p.x - h, y: p.y - h, width: 2 * h, height: 2 * h)) }
            }
        }
        return (line, area, dots, holes)
    }

    /// Nodes in `nodeColors`: one shape layer per colour, each with the
    /// circles of the points whose index picks that colour.
    func layoutColoredNodes(_ host: Layer, runs: [[Point]], indices: [[Int]], look: LineChartSeriesStyle, show: Bool, width: Double) {
        let colors = look.nodeColors
        var paths = [Path](repeating: Path(), count: colors.count)
        if show, !colors.isEmpty {
            let r = look.nodeRadius
            for (run, ids) in zip(runs, indices) {
                for (p, i) in zip(run, ids) where p.x >= -1e-9 && p.x <= width + 1e-9 {
                    paths[i % colors.count].addEllipse(in: Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
                }
            }
        }
        while host.sublayers.count < colors.count {
            let l = ShapeLayer()
            l.anchorPoint = .zero
            host.addSublayer(l)
        }
        for (k, l) in host.sublayers.enumerated() {
            guard let shape = l as? ShapeLayer else { continue }
            shape.isHidden = k >= colors.count
            guard k < colors.count else { continue }
            shape.frame = host.bounds
            shape.path = paths[k]
            shape.fillColor = colors[k]
        }
    }

    /// Whether two paths have the same elements in the same order (so one
    /// can be moved into the other point by point).
    static func sameElements(_ a: Path, _ b: Path) -> Bool {
        var ka: [Int] = [], kb: [Int] = []
        a.forEach { ka.append(Self.kind($0)) }
        b.forEach { kb.append(Self.kind($0)) }
        return !ka.isEmpty && ka == kb
    }

    static func kind(_ e: Path.Element) -> Int {
        switch e {
        case .move: 0
        case .line: 1
        case .quadCurve: 2
        case .curve: 3
        case .closeSubpath: 4
        }
    }

    /// How a chart comes in.
    public enum Entrance: Sendable, Hashable {
        /// The lines draw themselves from left to right (`strokeEnd` from 0
        /// to 1); fills and nodes fade in.
        case drawIn
        /// The values grow from the baseline to their places.
        case grow
    }

    /// Animates the chart in over `duration` seconds (held to 0…60; none
    /// for 0 or NaN).
    public func animateEntrance(_ entrance: Entrance = .drawIn, duration: Double = 0.6) {
        let duration = Self.clampedDuration(duration)
        guard duration > 0 else { return }
        layoutIfNeeded()
        for (s, layers) in seriesLayers.enumerated() where s < data.series.count {
            switch entrance {
            case .drawIn:
                var draw = BasicAnimation(keyPath: "strokeEnd", from: 0.0, to: 1.0)
                draw.timing.duration = duration
                draw.timingFunction = .easeOut
                layers.line.add(draw, forKey: "entrance")
                layers.shadeMask.add(draw, forKey: "entrance")
                for l in [layers.fill, layers.nodes, layers.holes, layers.colored] as [Layer] {
                    var fade = BasicAnimation(keyPath: "opacity", from: 0.0, to: 1.0)
                    fade.timing.duration = duration
                    fade.timingFunction = .easeIn
                    l.add(fade, forKey: "entrance")
                }
            case .grow:
                guard let g = geometry[s] else { continue }
                let flat = g.runs.map { $0.map { Point(x: $0.x, y: g.baseY) } }
                let flatBand = g.band.map { $0.map { $0.map { Point(x: $0.x, y: g.baseY) } } }
                let from = Self.shapes(flat, look: style(s), baseY: g.baseY, plotWidth: g.width, nodes: g.nodes, band: flatBand)
                for (layer, path) in [
                    (layers.line, from.line), (layers.mask, from.area), (layers.nodes, from.dots), (layers.holes, from.holes),
                    (layers.shadeMask, from.line),
                ] {
                    var grow = BasicAnimation(keyPath: "path", from: path, to: layer.path)
                    grow.timing.duration = duration
                    grow.timingFunction = .easeOut
                    layer.add(grow, forKey: "entrance")
                }
            }
        }
    }
}
