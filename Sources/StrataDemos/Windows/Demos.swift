import Foundation
import StrataCharts
import StrataControls
import StrataGraphics
import StrataLayers

/// The components in views a window shows (`strata demo NAME`): each demo
/// is a root view of a given size with its own behaviour (a stream that
/// keeps coming, a chart to scrub and zoom) and a script of input that a
/// headless run feeds it instead of a user.
@MainActor
public final class Demo {
    public enum Name: String, CaseIterable, Sendable {
        /// A live streaming graph of a synthetic ECG at 250 samples a second.
        case graph
        /// The Health chart: the pointer selects a point, the wheel zooms.
        case chart
        /// The weight ruler.
        case ruler
        /// The 10,000-post feed.
        case feed
        /// The layer gallery, animated: a chart drawing in, turning rings,
        /// fire and snow, shadows and masks.
        case gallery
    }

    public let name: Name
    /// The view to make a window's root view (or a headless host's).
    public let rootView: View
    /// The size the demo is made for, in points.
    public let size: Size
    private var started: (@MainActor () -> Void)?
    /// What the scripted run sends at each frame (headless runs).
    private let script: @MainActor (_ frame: Int, _ time: Double, _ send: (InputEvent) -> Void) -> Void
    /// What keeps objects alive with the view (a data source).
    private var retained: [AnyObject] = []

    /// The size each demo is made for, in points.
    public static func defaultSize(_ name: Name) -> Size {
        switch name {
        case .graph: Size(width: 960, height: 320)
        case .chart: Size(width: 960, height: 480)
        case .ruler: Size(width: 480, height: 200)
        case .feed: Size(width: 360, height: 640)
        case .gallery: Size(width: 960, height: 640)
        }
    }

    /// Makes demo `name` for `size` points (1 to 32,767 each way) drawn at
    /// `scale` pixels per point (held to 0.25…8; 1 for values that are not
    /// numbers or not above 0).
    /// - Throws: `DemoError.invalidSize` for other sizes.
    public convenience init(_ name: Name, size: Size? = nil, scale: Double = 1) throws {
        try self.init(name, size: size, scale: scale, feedPosts: 10_000)
    }

    /// The same, with the feed's post count (tests use a few hundred: the
    /// layouts of 10,000 posts keep the queue pool busy for seconds in a
    /// debug build, and other tests share it).
    init(_ name: Name, size: Size?, scale: Double, feedPosts: Int) throws {
        self.name = name
        let size = size ?? Demo.defaultSize(name)
        guard size.width.isFinite, size.height.isFinite, (1...32767).contains(size.width), (1...32767).contains(size.height) else {
            throw DemoError.invalidSize(width: size.width, height: size.height)
        }
        let scale = scale.isFinite && scale > 0 ? min(8, max(0.25, scale)) : 1
        self.size = size
        let bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        switch name {
        case .graph:
            let view = GraphDemoView(frame: bounds, scale: scale)
            rootView = view
            started = { view.needsFrames = true }
            script = { _, _, _ in }
        case .chart:
            let view = ChartDemoView(frame: bounds)
            rootView = view
            script = { frame, time, send in
                // Scrub across, then zoom in around the middle and out again.
                let p = Point(x: 60 + Double(frame % 240) * (size.width - 120) / 240, y: size.height / 2)
                if frame % 240 == 0 { send(.pointer(PointerEvent(.down, at: p, timestamp: time))) }
                if frame % 240 == 200 { send(.pointer(PointerEvent(.up, at: p, timestamp: time))) }
                if frame % 240 > 0, frame % 240 < 200 { send(.pointer(PointerEvent(.moved, at: p, timestamp: time))) }
                if frame % 240 == 210 || frame % 240 == 220 {
                    send(.scroll(.wheel(lines: Size(width: 0, height: frame / 240 % 2 == 0 ? -3 : 3), at: p, timestamp: time)))
                }
            }
        case .ruler:
            let view = RulerDemoView(frame: bounds)
            rootView = view
            try view.ruler.setValue(72.5, animated: false)
            script = { frame, time, send in
                // A flick every two seconds, alternating direction.
                let phase = frame % 120
                guard phase < 8 else { return }
                let dx = frame / 120 % 2 == 0 ? -40.0 : 40.0
                let p = Point(x: size.width / 2 + dx * Double(phase), y: size.height - 60)
                send(.pointer(PointerEvent(phase == 0 ? .down : phase == 7 ? .up : .moved, at: p, timestamp: time)))
            }
        case .feed:
            let root = View(frame: bounds)
            let list = ListView(frame: bounds)
            list.contentsScale = scale
            list.backgroundColor = Color(white: 0.93)
            root.addSubview(list)
            let controller = FeedController(posts: feedPosts, width: size.width)
            controller.attach(to: list)
            retained.append(controller)
            rootView = root
            script = { frame, time, send in
                // A drag of 300 points in a tenth of a second (a fling) every 90 frames.
                let phase = frame % 90
                guard phase < 7 else { return }
                let dy = frame / 90 % 4 == 3 ? 50.0 : -50.0
                let p = Point(x: size.width / 2, y: size.height / 2 + dy * Double(phase - 3))
                send(.pointer(PointerEvent(phase == 0 ? .down : phase == 6 ? .up : .moved, at: p, timestamp: time)))
            }
        case .gallery:
            rootView = try GalleryDemoView(frame: bounds)
            script = { _, _, _ in }
        }
    }

    /// Starts what runs by itself (the graph's stream); call once the view
    /// is in a window or host with a dispatcher.
    public func start() {
        started?()
        started = nil
    }

    /// Sends the scripted input for frame `frame` at time `time`.
    public func scriptedInput(frame: Int, at time: Double, send: (InputEvent) -> Void) {
        script(frame, time, send)
    }
}

/// Why a demo could not be made.
public enum DemoError: Error, CustomStringConvertible, Equatable {
    /// A size that is not a number, or below 1 or above 32,767 points.
    case invalidSize(width: Double, height: Double)

    public var description: String {
        switch self {
        case .invalidSize(let w, let h): "invalid demo size \(w) × \(h) points (each must be 1 to 32,767)"
        }
    }
}

/// A streaming graph fed from a synthetic ECG at the clock's pace.
@MainActor
final class GraphDemoView: View {
    let graph: StreamingGraphLayer
    let graphView: View
    private var generator = StreamSignalGenerator(.ecg, rate: 250)
    private var lastTime: Double?
    private var owed = 0.0

    init(frame: Rect, scale: Double) {
        graph = StreamingGraphLayer(
            series: [GraphSeriesStyle(color: Color(red: 0.1, green: 0.75, blue: 0.35), lineWidth: 2, name: "ECG")], capacity: 250 * 600)
        graph.accessibilityTitle = "ECG, 250 samples a second"
        // A view over the graph reads it to assistive tools, its latest
        // sample as a live value.
        graphView = View(frame: Rect(x: 0, y: 0, width: frame.width, height: frame.height), layer: graph)
        super.init(frame: frame)
        backgroundColor = .white
        graph.contentsScale = scale
        graph.sampleRate = 250
        graph.pointsPerSample = (frame.width - 40) / (4 * 250)
        addSubview(graphView)
    }

    override func sizeDidChange() {
        super.sizeDidChange()
        graphView.frame = bounds
        graph.pointsPerSample = max(0.05, (bounds.width - 40) / (4 * 250))
    }

    override func frame(at time: Double) {
        defer { lastTime = time }
        guard let last = lastTime else { return }
        // The samples the signal made since the last frame (at most a second's).
        owed += min(1, max(0, time - last)) * 250
        let count = Int(owed)
        owed -= Double(count)
        guard count > 0 else { return }
        graph.append(contentsOf: (0..<count).map { _ in generator.next() })
    }
}

/// The Health chart over two weeks of heart rate: the pointer scrubs the
/// highlight, the wheel zooms around the pointer.
@MainActor
final class ChartDemoView: View {
    let chart = LineChartLayer()

    override init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), layer: Layer = Layer()) {
        super.init(frame: frame, layer: layer)
        backgroundColor = .white
        var random = SplitMix64(seed: 72)
        var rate = 68.0
        let rates = (0..<(14 * 24)).map { _ in
            rate = min(150, max(48, rate + Double(random.next() % 1000) / 100 - 5 + (68 - rate) * 0.05))
            return rate.rounded()
        }
        chart.data = LineChartData([LineChartSeries(name: "Heart rate", y: rates)])
        chart.apply(.health)
        chart.title = "Heart Rate"
        chart.showsAverageLine = true
        chart.layoutMargins = EdgeInsets(top: 16, left: 12, bottom: 12, right: 16)
        chart.frame = bounds
        layer.addSublayer(chart)
    }

    override func sizeDidChange() {
        super.sizeDidChange()
        chart.frame = bounds
    }

    override func pointerEvent(_ event: PointerEvent) -> Bool {
        let p = convert(event.location, from: nil)
        switch event.phase {
        case .down, .moved: chart.highlight(at: p)
        case .up, .cancelled: break
        }
        return true
    }

    override func scrollEvent(_ event: ScrollEvent) -> Bool {
        let steps = event.isPrecise ? event.delta.height / ScrollEvent.pointsPerLine : event.lines.height
        guard steps.isFinite, steps != 0 else { return false }
        // A step toward the user zooms out by a fifth, away zooms in.
        chart.zoom(by: pow(1.2, -steps), aroundX: chart.xValue(at: convert(event.location, from: nil)))
        return true
    }

    override func cursor(at point: Point) -> Cursor? { chart.plotRect.contains(point) ? .crosshair : nil }
}

/// The weight ruler with its value above it.
@MainActor
final class RulerDemoView: View {
    let ruler: RulerView
    let label = TextLayer()

    override init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), layer: Layer = Layer()) {
        ruler = RulerView(
            frame: Rect(x: 0, y: max(0, frame.height - 100), width: frame.width, height: 100),
            scale: try! RulerScale(step: 0.1, minimum: 0, maximum: 300))
        super.init(frame: frame, layer: layer)
        backgroundColor = .white
        ruler.backgroundColor = .white
        addSubview(ruler)
        label.frame = Rect(x: 0, y: 20, width: frame.width, height: 60)
        label.fontSize = 40
        label.alignmentMode = .center
        label.foregroundColor = Color(red: 0.1, green: 0.1, blue: 0.15)
        layer.addSublayer(label)
        ruler.onValueChanged = { [weak self] change in
            self?.label.string = String(format: "%.1f kg", change.value)
        }
        label.string = "72.5 kg"
    }

    override func sizeDidChange() {
        super.sizeDidChange()
        ruler.frame = Rect(x: 0, y: max(0, bounds.height - 100), width: bounds.width, height: 100)
        label.frame = Rect(x: 0, y: 20, width: bounds.width, height: 60)
    }

    override func cursor(at point: Point) -> Cursor? { point.y > bounds.height - 100 ? .resizeLeftRight : nil }
}

/// Four panels of the layer gallery, alive: the Health card's line draws
/// in, the replicator rings turn, fire and snow fall.
@MainActor
final class GalleryDemoView: View {
    init(frame: Rect) throws {
        super.init(frame: frame)
        backgroundColor = Color(white: 0.95)
        let builders: [(LayerHost) throws -> Void] = [
            LayerGallery.healthCard, LayerGallery.replicatorRing, LayerGallery.shadowsAndMasks, LayerGallery.fireAndSnow,
        ]
        for (i, build) in builders.enumerated() {
            // Each panel is built in a host of its own, then moved here.
            let source = try LayerHost(width: 480, height: 320, scale: 1, backgroundColor: Color(white: 0.95))
            try build(source)
            let panel = Layer()
            panel.frame = Rect(x: Double(i % 2) * 480, y: Double(i / 2) * 320, width: 480, height: 320)
            panel.backgroundColor = source.rootLayer.backgroundColor ?? Color(white: 0.95)
            panel.masksToBounds = true
            for l in source.rootLayer.sublayers {
                l.removeFromSuperlayer()
                panel.addSublayer(l)
                if let ring = l as? ReplicatorLayer {
                    var spin = BasicAnimation(keyPath: "transform.rotation.z", from: 0.0, to: 2 * Double.pi)
                    spin.duration = 6
                    spin.repeatCount = .infinity
                    ring.add(spin, forKey: "spin")
                }
            }
            layer.addSublayer(panel)
        }
    }
}
