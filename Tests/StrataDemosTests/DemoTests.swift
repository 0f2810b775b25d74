import Foundation
import StrataCharts
import StrataControls
import StrataGraphics
import StrataLayers
import StrataX11Testing
import Testing

@testable import StrataDemos
@testable import StrataX11

/// Whether an image has more than one colour.
func hasDetail(_ image: Image) -> Bool {
    image.pixels.withUnsafeBytes { b in
        let words = b.bindMemory(to: UInt32.self)
        return words.contains { $0 != words[0] }
    }
}

/// The Xvfb of this module's window tests (started on first use).
let testDisplay = WindowTestDisplay()

@MainActor
@Suite(.serialized) struct DemoTests {
    @Test(arguments: Demo.Name.allCases)
    func everyDemoRunsHeadlessWithItsScript(_ name: Demo.Name) throws {
        let demo = try Demo(name, size: nil, scale: 1, feedPosts: 300)
        let host = try LayerHost(width: Int(demo.size.width), height: Int(demo.size.height))
        let clock = host.clock as! ManualClock
        let dispatcher = InputDispatcher(rootView: demo.rootView, host: host)
        demo.start()
        for frame in 0..<20 {
            demo.scriptedInput(frame: frame, at: clock.now) { dispatcher.send($0) }
            clock.advance(by: 1.0 / 60)
            host.renderFrame()
        }
        #expect(hasDetail(host.makeImage()), "\(name) drew nothing")
    }

    @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement), arguments: Demo.Name.allCases)
    func everyDemoShowsInAWindow(_ name: Demo.Name) async throws {
        let display = try #require(testDisplay.name)
        let demo = try Demo(name, size: nil, scale: 1, feedPosts: 300)
        let window = try Window(title: name.rawValue, size: demo.size, scale: 1, display: display)
        defer { window.close() }
        window.rootView = demo.rootView
        demo.start()
        _ = await pump(window, timeout: 0.4) { false }
        window.presentFrame()
        let shown = try window.readPixels()
        let frame = window.host.makeImage()
        let same = shown == frame
        if !same {
            try? shown.writePNG(to: "/tmp/demo-shown-\(name).png")
            try? frame.writePNG(to: "/tmp/demo-frame-\(name).png")
        }
        #expect(same, "\(name): the window does not show the last frame")
        #expect(hasDetail(shown))
    }

    @Test func demoSizesThatAreNotSizesThrowAndScalesAreHeld() throws {
        for bad in [
            Size(width: .nan, height: 100), Size(width: 100, height: .infinity), Size(width: 0, height: 100),
            Size(width: -10, height: 100), Size(width: 1e30, height: 100), Size(width: 100, height: 40_000),
        ] {
            #expect(throws: DemoError.self) { _ = try Demo(.ruler, size: bad) }
        }
        #expect(DemoError.invalidSize(width: 0, height: 1).description.contains("1 to 32,767"))
        for scale in [Double.nan, -1, 0, .infinity, 1e30] {
            let demo = try Demo(.feed, size: Size(width: 200, height: 300), scale: scale, feedPosts: 50)
            #expect(demo.size == Size(width: 200, height: 300))
        }
    }

    @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func theChartDemoSelectsByPointerAndZoomsByWheel() async throws {
        let display = try #require(testDisplay.name)
        let demo = try Demo(.chart)
        let view = try #require(demo.rootView as? ChartDemoView)
        let window = try Window(size: demo.size, scale: 1, display: display)
        defer { window.close() }
        window.rootView = demo.rootView
        #expect(await pump(window) { !window.needsFrame })
        #expect(view.chart.highlightedPoint == nil)
        let input = try SyntheticInput(display: display)
        let o = window.screenOrigin
        input.move(toX: o.x + 480, y: o.y + 240)
        input.button(1, down: true)
        input.button(1, down: false)
        input.sync()
        #expect(await pump(window) { view.chart.highlightedPoint != nil })
        let all = view.chart.shownXRange
        input.wheel(-3)
        input.sync()
        #expect(await pump(window) { view.chart.shownXRange != all && !window.needsFrame })
        let zoomed = view.chart.shownXRange
        #expect(zoomed.upperBound - zoomed.lowerBound < all.upperBound - all.lowerBound)
        // Zoomed around the pointer: the x under it stays inside.
        #expect(zoomed.contains(all.lowerBound + (all.upperBound - all.lowerBound) * 0.5))
    }
}
