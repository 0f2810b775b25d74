import Foundation
import StrataGraphics
import StrataText
import Testing

@testable import StrataCharts

/// Axis labels never overlap and never stick out of the axis.
@Suite struct AxisLabelsTests {
    let font = Font(size: 12)

    func boxesApart(_ labels: [AxisLabel], _ length: Double) -> Bool {
        for (i, l) in labels.enumerated() {
            if l.start < 0 || l.end > length + 1e-9 { return false }
            if i > 0 && labels[i - 1].end > l.start { return false }
        }
        return true
    }

    @Test func valueLabelsFitFrom100To4000Points() {
        for length in stride(from: 100.0, through: 4000, by: 97) {
            for (lo, hi) in [(0.0, 123_456.7), (-0.004, 0.0031), (1e9, 1e9 + 5e7), (0, 1)] {
                let labels = AxisLabels.values(lo, hi, length: length, font: font, maximumTicks: 25)
                #expect(!labels.isEmpty, "\(length) \(lo)…\(hi)")
                #expect(boxesApart(labels, length), "\(length) \(lo)…\(hi): \(labels.map(\.text))")
                // The labels are a nice scale's (evenly stepped), not every other one of a finer one.
                if labels.count >= 3 {
                    let steps = zip(labels, labels.dropFirst()).map { $1.value - $0.value }
                    #expect(steps.allSatisfy { abs($0 - steps[0]) <= 1e-9 * max(1, abs(steps[0])) })
                }
            }
        }
        // Room for many on a wide axis, few on a narrow one.
        #expect(AxisLabels.values(0, 100, length: 4000, font: font, maximumTicks: 20).count >= 10)
        // (0, 50K, 100K: short labels, three at most in 100 points.)
        #expect(AxisLabels.values(0, 123_456.7, length: 100, font: font, maximumTicks: 20).count <= 3)
    }

    @Test func dateLabelsFitFrom100To4000Points() {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        c.locale = Locale(identifier: "en_US_POSIX")
        let a = c.date(from: DateComponents(year: 2024, month: 1, day: 1))!
        let spans: [TimeInterval] = [3600, 86_400 * 3, 86_400 * 365, 86_400 * 365 * 30]
        for span in spans {
            for length in stride(from: 100.0, through: 4000, by: 131) {
                let labels = AxisLabels.dates(a, a.addingTimeInterval(span), length: length, font: font, calendar: c, maximumTicks: 30)
                #expect(!labels.isEmpty)
                #expect(boxesApart(labels, length), "\(span) s over \(length): \(labels.map(\.text))")
            }
        }
    }

    @Test func theEndsStayInsideTheAxis() {
        let labels = AxisLabels.values(0, 1000, length: 300, font: font, maximumTicks: 3)
        let first = try! #require(labels.first), last = try! #require(labels.last)
        // The first tick is at 0 and its label starts there, not half outside.
        #expect(first.position == 0 && first.start == 0)
        #expect(last.position == 300 && abs(last.end - 300) < 1e-9)
        // Vertical axes measure the height.
        let v = AxisLabels.values(0, 1000, length: 300, font: font, maximumTicks: 3, vertical: true)
        #expect(v.allSatisfy { $0.length < 20 })
    }

    @Test func hostileLengthsGiveNoLabels() {
        #expect(AxisLabels.values(0, 1, length: 0, font: font).isEmpty)
        #expect(AxisLabels.values(0, 1, length: -5, font: font).isEmpty)
        #expect(AxisLabels.values(0, 1, length: .nan, font: font).isEmpty)
        // Too narrow for any label: none rather than one sticking out.
        #expect(AxisLabels.values(0, 123_456, length: 5, font: font).isEmpty)
        // A range of NaN: the scale's defaults, still fitted.
        let n = AxisLabels.values(.nan, .nan, length: 200, font: font)
        #expect(AxisLabels.fits(n, length: 200, gap: 6))
    }
}
