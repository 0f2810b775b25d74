import Foundation
import StrataX11Testing
import SwiftChart
import Testing
import UIKit

/// This module's own Xvfb, so that its synthetic pointer moves no other
/// module's windows.
let testDisplay = WindowTestDisplay(width: 800, height: 600)

@MainActor
@Suite("SwiftChart in an X11 window")
struct SwiftChartWindowTests {
    /// Lets the window's events, frames and the main queue run until
    /// `condition` holds or five seconds pass.
    func wait(until condition: () -> Bool) async throws -> Bool {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        return condition()
    }

    @Test(
        "The window's pointer selects values on the chart and moves its highlight line",
        .enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement))
    func pointerSelection() async throws {
        let display = try #require(testDisplay.name)
        let chart = Chart(frame: chartFrame)
        configureBasic(chart, case: 1)
        let log = TouchLog()
        chart.delegate = log
        let window = show(chart, onDisplay: display)
        defer { window.close() }
        let origin = try #require(window.screenOrigin)
        let input = try SyntheticInput(display: display)
        // Drag across x = 3 (at 3 × 375 / 8 points) and x = 6.
        let left = 3 * 375.0 / 8 + 2
        input.move(toX: Int(origin.x + left), y: Int(origin.y + 100))
        input.button(1, down: true)
        input.sync()
        #expect(try await wait { log.touched.last?.indexes == [3, 3, 3] })
        input.move(toX: Int(origin.x + 6 * 375.0 / 8 + 2), y: Int(origin.y + 110))
        input.sync()
        // The third series ends at x = 5: no value of its at 6.
        #expect(try await wait { log.touched.last?.indexes == [6, 6, nil] })
        input.button(1, down: false)
        input.sync()
        #expect(try await wait { log.ended == 1 })
        #expect(chart.valueForSeries(0, atIndex: log.touched.last?.indexes[0]) == 3)
    }
}
