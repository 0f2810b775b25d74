import Foundation
import StrataCharts
import StrataControls
import StrataGraphics
import StrataLayers
import StrataTestSupport
import Testing

@testable import StrataAccessibility
@testable import StrataDemos

/// A session bus of the test's own with the accessibility bus turned on:
/// `dbus-daemon`, which starts Debian's `at-spi-bus-launcher` (and the
/// registry on the accessibility bus) when asked, as on a desktop.
final class AccessibilityDesktop {
    private let bus: PrivateSessionBus
    var environment: [String: String] { bus.environment }
    var sessionBus: String { bus.address }

    static var isInstalled: Bool {
        PrivateSessionBus.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/pyatspi/__init__.py")
    }
    static let requirement: Comment = "needs dbus-daemon, at-spi2-core and python3-pyatspi, which scripts/install-deps.sh installs"

    @MainActor
    init() throws {
        bus = try PrivateSessionBus("a11y")
        do {
            // As the desktop's settings do when a screen reader is turned on.
            try AccessibilityBridge.setEnabled(true, sessionBus: bus.address)
        } catch {
            bus.stop()
            throw error
        }
    }

    func stop() { bus.stop() }
}

@MainActor
@Suite(.serialized) struct AccessibilityBridgeTests {
    /// A window's worth of controls.
    func scene() throws -> (View, Button, TextField, RulerView, () -> Int) {
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        var saves = 0
        let save = Button(title: "Save", frame: Rect(x: 20, y: 20, width: 100, height: 32)) { saves += 1 }
        let field = TextField(frame: Rect(x: 140, y: 20, width: 200, height: 32), text: "Ada")
        field.placeholder = "Name"
        let ruler = RulerView(frame: Rect(x: 0, y: 100, width: 400, height: 80), scale: try RulerScale(step: 0.1, minimum: 0, maximum: 300))
        try ruler.setValue(72.5, animated: false)
        ruler.unit = "kg"
        ruler.accessibilityLabel = "Weight"
        ruler.accessibilityIdentifier = "weight"
        let hidden = Button(title: "Hidden", frame: Rect(x: 0, y: 200, width: 50, height: 20))
        hidden.isHidden = true
        // A chart of 500 readings: a view over a chart layer, no code.
        let chartLayer = LineChartLayer()
        chartLayer.title = "Heart rate today"
        chartLayer.data = LineChartData([
            LineChartSeries(name: "Heart rate", x: (0..<500).map(Double.init), y: (0..<500).map { 60 + 20 * sin(Double($0) / 40) })
        ])
        let chart = View(frame: Rect(x: 0, y: 230, width: 400, height: 160), layer: chartLayer)
        chartLayer.layoutIfNeeded()
        for v in [save, field, ruler, hidden, chart] { root.addSubview(v) }
        return (root, save, field, ruler, { saves })
    }

    func read(_ bridge: AccessibilityBridge, _ desktop: AccessibilityDesktop, _ actions: [String] = []) throws -> [String: Any] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi_read.py").path
        let (output, status) = try runProgram("/usr/bin/python3", [script, bridge.name] + actions, environment: desktop.environment) {
            bridge.answerPendingCalls()
        }
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let json = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        return try #require(json, "the reader printed (exit status \(status)): \(output)")
    }

    func children(_ node: [String: Any]) -> [[String: Any]] { node["children"] as? [[String: Any]] ?? [] }

    @Test(.enabled(if: AccessibilityDesktop.isInstalled, AccessibilityDesktop.requirement))
    func aScreenReaderReadsTheControlsAndOperatesThem() throws {
        let desktop = try AccessibilityDesktop()
        defer { desktop.stop() }
        #expect(AccessibilityBridge.isEnabled(sessionBus: desktop.sessionBus))
        let (root, _, field, ruler, saves) = try scene()
        let bridge = try AccessibilityBridge(rootView: root, name: "Strata accessibility test", sessionBus: desktop.sessionBus)
        defer { bridge.close() }
        bridge.screenGeometry = { (Point(x: 100, y: 50), 2) }
        let result = try read(bridge, desktop, ["increment", "slider", "increment", "slider", "click", "push button"])
        #expect(result["toolkit"] as? String == "Strata")
        let tree = try #require(result["tree"] as? [String: Any])
        #expect(tree["role"] as? String == "application")
        let frame = try #require(children(tree).first)
        #expect(frame["role"] as? String == "frame" && frame["name"] as? String == "Strata accessibility test")
        let controls = children(frame)
        // The hidden button is not shown to the reader.
        #expect(controls.map { $0["role"] as? String ?? "" } == ["push button", "entry", "slider", "chart"], "\(controls)")
        guard controls.count == 4 else { return }
        let (button, entry, slider, chart) = (controls[0], controls[1], controls[2], controls[3])
        // The chart: its title, a summary, and its points to step through.
        #expect(chart["name"] as? String == "Heart rate today")
        let summary = chart["description"] as? String ?? ""
        #expect(summary.hasPrefix("1 series: Heart rate. X from 0 to 499. Y from 40") && summary.contains(" to 80"), "\(summary)")
        let points = children(chart)
        #expect(points.count == LineChartLayer.maximumAccessibilityPointsPerSeries)
        // 60 + 20 sin(499 / 40) = 58.18 (four significant digits, as the chart labels values).
        #expect(points.first?["name"] as? String == "Heart rate, 0, 60" && points.last?["name"] as? String == "Heart rate, 499, 58.18")
        let firstExtents = points.first?["extents"] as? [Int] ?? []
        #expect(firstExtents.count == 4 && firstExtents[2] == 8 && firstExtents[1] >= 50 + 230 * 2, "\(firstExtents)")
        #expect(button["name"] as? String == "Save" && button["actions"] as? [String] == ["click"])
        #expect((button["states"] as? [String] ?? []).contains("focusable"))
        // Extents on the screen: the window's origin plus the frame in pixels.
        #expect(button["extents"] as? [Int] == [140, 90, 200, 64])
        #expect(entry["name"] as? String == "Name" && entry["text"] as? String == "Ada" && entry["caret"] as? Int == 3)
        #expect(Set(entry["states"] as? [String] ?? []).isSuperset(of: ["editable", "single line", "enabled"]))
        #expect(slider["name"] as? String == "Weight" && slider["actions"] as? [String] == ["increment", "decrement"])
        // The reader saw the value after its two increments.
        let value = slider["value"] as? [Double] ?? []
        #expect(value.count == 4 && abs(value[0] - 72.7) < 1e-9 && value[1] == 0 && value[2] == 300 && abs(value[3] - 0.1) < 1e-12)
        #expect(result["done"] as? [[Any]] != nil)
        // And the actions happened in the app.
        #expect(abs(ruler.value - 72.7) < 1e-9 && saves() == 1)
    }

    @Test(.enabled(if: AccessibilityDesktop.isInstalled, AccessibilityDesktop.requirement))
    func focusMovesAreEventsAScreenReaderFollows() throws {
        let desktop = try AccessibilityDesktop()
        defer { desktop.stop() }
        let (root, save, field, _, _) = try scene()
        let dispatcher = InputDispatcher(rootView: root)
        let bridge = try AccessibilityBridge(rootView: root, name: "Strata focus test", sessionBus: desktop.sessionBus)
        defer { bridge.close() }
        var focused: View?
        dispatcher.onFocusChange = { new in
            bridge.focusDidMove(from: focused, to: new)
            focused = new
        }
        #expect(save.becomeFirstResponder())
        // The reader asks the field to take focus and hears it did.
        let result = try read(bridge, desktop, ["--focus", "entry"])
        let focus = try #require(result["focus"] as? [String: Any])
        #expect(focus["grabbed"] as? Bool == true && field.isFirstResponder)
        let events = focus["events"] as? [[Any]] ?? []
        #expect(events.contains { $0.count == 3 && $0[0] as? String == "Name" && $0[1] as? String == "entry" && $0[2] as? Int == 1 }, "\(events)")
        let states = (children(children(try #require(result["tree"] as? [String: Any]))[0])[1]["states"] as? [String]) ?? []
        #expect(states.contains("focused"))
        // Closed (twice), the bridge sends and reads nothing, and says so.
        bridge.close()
        bridge.close()
        bridge.focusDidMove(from: field, to: save)
        bridge.post(.announcement("gone"))
        bridge.answerPendingCalls()
        // A connection closed (twice) refuses calls with a reason.
        let connection = try DBusConnection(address: desktop.sessionBus)
        connection.close()
        connection.close()
        connection.pump()
        #expect(!connection.isOpen)
        #expect(throws: AccessibilityBusError.callFailed(method: "org.freedesktop.DBus.GetId", reason: "the connection is closed")) {
            try connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetId")
        }
    }

    @Test(.enabled(if: AccessibilityDesktop.isInstalled, AccessibilityDesktop.requirement))
    func tabMovesFocusAndTheReaderHearsIt() throws {
        let desktop = try AccessibilityDesktop()
        defer { desktop.stop() }
        let (root, save, field, _, _) = try scene()
        let dispatcher = InputDispatcher(rootView: root)
        let bridge = try AccessibilityBridge(rootView: root, name: "Strata tab test", sessionBus: desktop.sessionBus)
        defer { bridge.close() }
        var focused: View?
        dispatcher.windowFocusObserver = { from, to in
            bridge.focusDidMove(from: from, to: to)
            focused = to
        }
        #expect(save.becomeFirstResponder())
        let ready = NSTemporaryDirectory() + "strata-a11y-tab-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { unlink(ready) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi_read.py").path
        var pressed = false
        let (output, _) = try runProgram(
            "/usr/bin/python3", [script, bridge.name, "--text", ready], environment: desktop.environment
        ) {
            bridge.answerPendingCalls()
            // Once the reader listens: Tab, from the button to the field.
            guard !pressed, FileManager.default.fileExists(atPath: ready) else { return }
            pressed = true
            dispatcher.send(.key(KeyEvent(.down, key: .tab, timestamp: 0)))
        }
        #expect(pressed && field.isFirstResponder && focused === field)
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(output)")
        let events = json["text"] as? [[Any]] ?? []
        func heard(_ role: String, _ on: Int) -> Bool {
            events.contains {
                ($0.first as? String)?.hasPrefix("object:state-changed:focused") == true && $0[1] as? String == role && $0[2] as? Int == on
            }
        }
        #expect(heard("push button", 0) && heard("entry", 1), "\(events)")
    }

    @Test(.enabled(if: AccessibilityDesktop.isInstalled, AccessibilityDesktop.requirement))
    func typingIsHeardAsTextAndCaretEvents() throws {
        let desktop = try AccessibilityDesktop()
        defer { desktop.stop() }
        let (root, _, field, _, _) = try scene()
        let dispatcher = InputDispatcher(rootView: root)
        let bridge = try AccessibilityBridge(rootView: root, name: "Strata text test", sessionBus: desktop.sessionBus)
        defer { bridge.close() }
        #expect(field.becomeFirstResponder())
        let ready = NSTemporaryDirectory() + "strata-a11y-ready-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { unlink(ready) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi_read.py").path
        var typed = false
        let (output, _) = try runProgram(
            "/usr/bin/python3", [script, bridge.name, "--text", ready], environment: desktop.environment
        ) {
            bridge.answerPendingCalls()
            // Once the reader listens: type "!" after "Ada", then delete the "A".
            guard !typed, FileManager.default.fileExists(atPath: ready) else { return }
            typed = true
            dispatcher.send(.key(KeyEvent(.down, key: .character("!"), characters: "!", timestamp: 0)))
            field.selectedRange = 1..<1
            dispatcher.send(.key(KeyEvent(.down, key: .backspace, timestamp: 0)))
        }
        #expect(typed && field.text == "da!")
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(output)")
        let events = json["text"] as? [[Any]] ?? []
        func has(_ type: String, _ one: Int, _ two: Int, _ data: String) -> Bool {
            events.contains {
                $0.count == 5 && ($0[0] as? String)?.hasPrefix(type) == true && $0[1] as? String == "entry" && $0[2] as? Int == one
                    && $0[3] as? Int == two && $0[4] as? String == data
            }
        }
        #expect(has("object:text-changed:insert", 3, 1, "!"), "\(events)")
        #expect(has("object:text-changed:delete", 0, 1, "A"), "\(events)")
        #expect(events.contains { ($0.first as? String)?.hasPrefix("object:text-caret-moved") == true && $0[2] as? Int == 0 }, "\(events)")
    }

    @Test(.enabled(if: AccessibilityDesktop.isInstalled, AccessibilityDesktop.requirement))
    func aListAndATextViewAreReadAndOperated() throws {
        let desktop = try AccessibilityDesktop()
        defer { desktop.stop() }
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 400, height: 200))
        let rows = LabelledRows(count: 50)
        list.rowHeight = 40
        list.register({ ListCell(reuseIdentifier: "row") }, forCellReuseIdentifier: "row")
        list.dataSource = rows
        list.delegate = rows
        let notes = TextView(frame: Rect(x: 0, y: 220, width: 400, height: 160), text: "Hello world\nSecond line")
        notes.accessibilityLabel = "Notes"
        root.addSubview(list)
        root.addSubview(notes)
        list.reloadData()
        let bridge = try AccessibilityBridge(rootView: root, name: "Strata list test", sessionBus: desktop.sessionBus)
        defer { bridge.close() }
        let result = try read(bridge, desktop, ["scroll down", "list", "click", "list item", "--select", "text", "6", "11"])
        #expect(list.contentOffset.y == 180 && rows.selected == [4], "\(result["done"] ?? "")")
        #expect(notes.selectedRange == 6..<11)
        let tree = try #require(result["tree"] as? [String: Any])
        let frame = try #require(children(tree).first)
        let (listNode, textNode) = (children(frame).first ?? [:], children(frame).last ?? [:])
        #expect(listNode["role"] as? String == "list" && listNode["description"] as? String == "Rows 5 to 10 of 50")
        #expect(listNode["actions"] as? [String] == ["scroll up", "scroll down"])
        let items = children(listNode)
        #expect(items.first?["role"] as? String == "list item" && items.first?["name"] as? String == "Row 5", "\(items.first ?? [:])")
        #expect((items.first?["attributes"] as? [String: String]) == ["posinset": "5", "setsize": "50"])
        #expect(items.first?["actions"] as? [String] == ["click"])
        #expect(textNode["role"] as? String == "text" && textNode["name"] as? String == "Notes")
        #expect(Set(textNode["states"] as? [String] ?? []).isSuperset(of: ["editable", "multi line"]))
        #expect(textNode["selections"] as? [[Int]] == [[6, 11]])
        #expect(textNode["word_at_1"] as? [AnyHashable] == ["Hello ", 0, 6])
        #expect(textNode["line_at_1"] as? [AnyHashable] == ["Hello world\n", 0, 12])
    }

    @Test(.enabled(if: AccessibilityDesktop.isInstalled, AccessibilityDesktop.requirement))
    func theFeedDemoIsReadPostByPost() async throws {
        let desktop = try AccessibilityDesktop()
        defer { desktop.stop() }
        let d = try FeedDriver(posts: 200, scale: 1)
        // Frames until the first screen's posts are laid out.
        for _ in 0..<5000 where !(d.list.visibleRows.count >= 2 && d.list.visibleRows.allSatisfy { d.controller.store.layout($0) != nil }) {
            d.frame()
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        let bridge = try AccessibilityBridge(rootView: d.root, name: "Strata feed", sessionBus: desktop.sessionBus)
        defer { bridge.close() }
        let result = try read(bridge, desktop)
        let tree = try #require(result["tree"] as? [String: Any])
        let frame = try #require(children(tree).first)
        let list = try #require(children(frame).first)
        let visible = d.list.visibleRows
        #expect(list["role"] as? String == "list" && list["name"] as? String == "Feed")
        #expect(list["description"] as? String == "Rows 1 to \(visible.upperBound) of 200")
        #expect(list["actions"] as? [String] == ["scroll down"] || list["actions"] as? [String] == ["scroll up", "scroll down"])
        let items = children(list)
        #expect(items.count == visible.count)
        for (n, item) in items.enumerated() {
            let post = d.controller.store.layout(n)?.post
            let name = item["name"] as? String ?? ""
            #expect(item["role"] as? String == "list item" && item["actions"] as? [String] == ["click"])
            #expect(post.map { name.hasPrefix($0.author + ", ") && name.contains($0.text) && name.hasSuffix(" likes.") } == true, "\(name)")
            #expect((item["attributes"] as? [String: String])?["posinset"] == String(n + 1))
        }
    }

    @Test(.enabled(if: AccessibilityDesktop.isInstalled, AccessibilityDesktop.requirement))
    func theStreamingGraphIsALiveValue() throws {
        let desktop = try AccessibilityDesktop()
        defer { desktop.stop() }
        let demo = try Demo(.graph, size: Size(width: 400, height: 200), scale: 1, feedPosts: 0)
        let graph = try #require((demo.rootView as? GraphDemoView)?.graph)
        graph.append(0.25)
        let bridge = try AccessibilityBridge(rootView: demo.rootView, name: "Strata graph", sessionBus: desktop.sessionBus)
        defer { bridge.close() }
        let ready = NSTemporaryDirectory() + "strata-a11y-live-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { unlink(ready) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("atspi_read.py").path
        var appended = 0
        let (output, _) = try runProgram(
            "/usr/bin/python3", [script, bridge.name, "--text", ready], environment: desktop.environment
        ) {
            bridge.answerPendingCalls()
            // Once the reader listens, samples keep arriving.
            guard FileManager.default.fileExists(atPath: ready), appended < 400 else { return }
            appended += 1
            graph.append(Double(appended) / 100)
        }
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(output)")
        // The reader heard the latest value without moving to the graph.
        let events = json["text"] as? [[Any]] ?? []
        #expect(
            events.contains {
                ($0.first as? String)?.hasPrefix("object:property-change:accessible-description") == true
                    && ($0.last as? String)?.hasPrefix("Latest: ECG ") == true
            }, "\(events)")
        let tree = try #require(json["tree"] as? [String: Any])
        let frame = try #require(children(tree).first)
        let node = try #require(children(frame).first)
        #expect(node["role"] as? String == "chart" && node["name"] as? String == "ECG, 250 samples a second")
        #expect((node["description"] as? String)?.hasPrefix("Latest: ECG ") == true)
        #expect((node["attributes"] as? [String: String])?["live"] == "polite")
        #expect((node["states"] as? [String] ?? []).contains("showing"))
    }

    @Test func aLiveValueIsToldAtMostOnceASecondAndOnlyToListeners() async throws {
        let graph = StreamingGraphLayer(series: [GraphSeriesStyle(color: .black, name: "Flow"), GraphSeriesStyle(color: .black)])
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 50), layer: graph)
        #expect(view.accessibilityValue == "No data" && view.accessibilityRole == .chart)
        #expect(view.accessibilityTraits == .updatesFrequently && view.accessibilityAttributes["live"] == "polite")
        graph.append(1.5, .nan)
        #expect(view.accessibilityValue == "Latest: Flow 1.5, Series 2 no value.")
        var heard = 0
        let token = AccessibilityCenter.addListener(for: view) { n, _ in if n == .valueChanged { heard += 1 } }
        for i in 0..<50 { graph.append(Double(i)) }
        #expect(heard == 1)
        // The last change is told when the second is up (waited for by
        // polls, since other suites can hold the main actor for seconds).
        for _ in 0..<1_000 where heard < 2 { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(heard == 2)
        AccessibilityCenter.removeListener(token)
        graph.append(3)
        #expect(heard == 2)
        #expect(View().accessibilityAttributes.isEmpty)
    }

    @Test func extentsThatAreNotNumbersOrTooLargeAreHeld() {
        let px = AccessibilityBridge.pixels
        #expect(px(.nan) == 0 && px(.infinity) == 0 && px(-.infinity) == 0)
        #expect(px(1e30) == Int32.max && px(-1e30) == Int32.min && px(-5.6) == -6 && px(0) == 0 && px(2.5) == 3)
    }

    @Test func withoutABusTheBridgeSaysWhy() {
        #expect(!AccessibilityBridge.isEnabled(sessionBus: "unix:path=/nonexistent/strata-bus"))
        #expect(throws: AccessibilityBusError.self) {
            try AccessibilityBridge(rootView: View(), name: "x", sessionBus: "unix:path=/nonexistent/strata-bus")
        }
    }
}

/// Fifty rows named "Row 1" to "Row 50", noting which are selected.
@MainActor
final class LabelledRows: ListViewDataSource, ListViewDelegate {
    let count: Int
    var selected: [Int] = []
    init(count: Int) { self.count = count }
    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { count }
    func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
        let cell = listView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.accessibilityLabel = "Row \(indexPath.row + 1)"
        return cell
    }
    func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath.row) }
}
