import Foundation
import Testing

@testable import StrataCharts

/// Time-axis ticks on calendar boundaries, against lists worked out by hand.
@Suite struct DateScaleTests {
    func calendar(_ zone: String) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: zone)!
        c.locale = Locale(identifier: "en_US_POSIX")
        c.firstWeekday = 2  // Monday
        return c
    }

    func date(_ c: Calendar, _ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date {
        c.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    }

    /// The ticks as local "yyyy-MM-dd HH:mm:ss" strings.
    func local(_ ticks: [Date], _ c: Calendar) -> [String] {
        let f = DateFormatter()
        f.calendar = c
        f.timeZone = c.timeZone
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return ticks.map { f.string(from: $0) }
    }

    @Test func theStepIsTheShortestThatFits() {
        let c = calendar("UTC")
        let t0 = date(c, 2024, 5, 1)
        func step(_ seconds: Double, _ ticks: Int = 6) -> DateScale.Step {
            DateScale(covering: t0, t0.addingTimeInterval(seconds), ticks: ticks, calendar: c).step
        }
        #expect(step(50) == DateScale.Step(10, .second))
        #expect(step(3600) == DateScale.Step(10, .minute))
        #expect(step(86_400) == DateScale.Step(6, .hour))
        #expect(step(7 * 86_400) == DateScale.Step(2, .day))
        #expect(step(40 * 86_400) == DateScale.Step(1, .week))
        // A year in six: two months (60.9 days) cover it; a year in four, three.
        #expect(step(365 * 86_400) == DateScale.Step(2, .month))
        #expect(step(365 * 86_400, 4) == DateScale.Step(3, .month))
        #expect(step(29 * 365.25 * 86_400) == DateScale.Step(5, .year))
        #expect(step(200 * 365.25 * 86_400) == DateScale.Step(50, .year))
        // No length: one tick.
        #expect(DateScale(covering: t0, t0, calendar: c).ticks == [t0])
    }

    @Test func hoursFollowTheWallClockWhenTheClocksGoForward() {
        // Berlin, 31 March 2024: 02:00 becomes 03:00.
        let c = calendar("Europe/Berlin")
        let s = DateScale(date(c, 2024, 3, 30, 22), date(c, 2024, 3, 31, 10), step: .init(3, .hour), calendar: c)
        #expect(
            local(s.ticks, c) == [
                "2024-03-31 00:00:00", "2024-03-31 03:00:00", "2024-03-31 06:00:00", "2024-03-31 09:00:00",
            ])
        // 00:00 to 03:00 that night is two hours.
        #expect(s.ticks[1].timeIntervalSince(s.ticks[0]) == 2 * 3600)
        // Hourly: 02:00 does not exist that day and is not repeated as 03:00.
        let h = DateScale(date(c, 2024, 3, 31, 0, 30), date(c, 2024, 3, 31, 4, 30), step: .init(1, .hour), calendar: c)
        #expect(local(h.ticks, c) == ["2024-03-31 01:00:00", "2024-03-31 03:00:00", "2024-03-31 04:00:00"])
    }

    @Test func daysStartAtLocalMidnightWhenTheClocksGoBack() {
        // New York, 3 November 2024: 02:00 becomes 01:00 again.
        let c = calendar("America/New_York")
        let s = DateScale(date(c, 2024, 11, 2, 12), date(c, 2024, 11, 5, 12), step: .init(1, .day), calendar: c)
        #expect(local(s.ticks, c) == ["2024-11-03 00:00:00", "2024-11-04 00:00:00", "2024-11-05 00:00:00"])
        #expect(s.ticks[1].timeIntervalSince(s.ticks[0]) == 25 * 3600)
        #expect(s.ticks[2].timeIntervalSince(s.ticks[1]) == 24 * 3600)
    }

    @Test func leapDaysAndMonthEnds() {
        let c = calendar("UTC")
        // Every other day counts days of the month: 27, 29 (2024 is a leap year), then 1 March.
        let d = DateScale(date(c, 2024, 2, 26), date(c, 2024, 3, 4), step: .init(2, .day), calendar: c)
        #expect(
            local(d.ticks, c) == [
                "2024-02-27 00:00:00", "2024-02-29 00:00:00", "2024-03-01 00:00:00", "2024-03-03 00:00:00",
            ])
        let e = DateScale(date(c, 2023, 2, 26), date(c, 2023, 3, 2), step: .init(2, .day), calendar: c)
        #expect(local(e.ticks, c) == ["2023-02-27 00:00:00", "2023-03-01 00:00:00"])
        // Months start on their first day from 31 January on, whatever their length.
        let m = DateScale(date(c, 2024, 1, 31), date(c, 2024, 6, 30), step: .init(1, .month), calendar: c)
        #expect(
            local(m.ticks, c) == [
                "2024-02-01 00:00:00", "2024-03-01 00:00:00", "2024-04-01 00:00:00", "2024-05-01 00:00:00",
                "2024-06-01 00:00:00",
            ])
        // Quarters are January, April, July, October, across a year's end.
        let q = DateScale(date(c, 2023, 8, 15), date(c, 2024, 9, 1), step: .init(3, .month), calendar: c)
        #expect(
            local(q.ticks, c) == [
                "2023-10-01 00:00:00", "2024-01-01 00:00:00", "2024-04-01 00:00:00", "2024-07-01 00:00:00",
            ])
    }

    @Test func weeksYearsMinutesAndSeconds() {
        let c = calendar("UTC")
        // Mondays (the calendar's first weekday): 1 January 2024 was one.
        let w = DateScale(date(c, 2024, 1, 3), date(c, 2024, 1, 31), step: .init(1, .week), calendar: c)
        #expect(local(w.ticks, c) == ["2024-01-08 00:00:00", "2024-01-15 00:00:00", "2024-01-22 00:00:00", "2024-01-29 00:00:00"])
        let y = DateScale(date(c, 1987, 6, 1), date(c, 2011, 1, 1), step: .init(5, .year), calendar: c)
        #expect(local(y.ticks, c).map { String($0.prefix(4)) } == ["1990", "1995", "2000", "2005", "2010"])
        let m = DateScale(date(c, 2024, 5, 1, 9, 7), date(c, 2024, 5, 1, 10, 2), step: .init(15, .minute), calendar: c)
        #expect(local(m.ticks, c) == ["2024-05-01 09:15:00", "2024-05-01 09:30:00", "2024-05-01 09:45:00", "2024-05-01 10:00:00"])
        let s = DateScale(date(c, 2024, 5, 1, 9, 0, 3), date(c, 2024, 5, 1, 9, 0, 31), step: .init(10, .second), calendar: c)
        #expect(local(s.ticks, c) == ["2024-05-01 09:00:10", "2024-05-01 09:00:20", "2024-05-01 09:00:30"])
    }

    @Test func labelsSayWhatTheStepCounts() {
        let c = calendar("UTC")
        let t = date(c, 2024, 1, 1, 6, 30, 15)
        func label(_ step: DateScale.Step, _ d: Date = t) -> String { DateScale(t, t, step: step, calendar: c).label(for: d) }
        #expect(label(.init(10, .second)) == "06:30:15")
        #expect(label(.init(30, .minute)) == "06:30")
        #expect(label(.init(1, .day)) == "1 Jan")
        #expect(label(.init(1, .month)) == "Jan 2024")
        #expect(label(.init(1, .month), date(c, 2024, 3, 1)) == "Mar")
        #expect(label(.init(5, .year)) == "2024")
    }

    @Test func hostileStepsAndFarDatesAreBounded() {
        let c = calendar("UTC")
        let a = date(c, 2024, 1, 1)
        // Counts are held to 1…1e9: no overflow stepping years.
        #expect(DateScale.Step(Int.max, .year).count == 1_000_000_000 && DateScale.Step(-5, .day).count == 1)
        let huge = DateScale(a, a.addingTimeInterval(86_400 * 365 * 50), step: .init(Int.max, .year), calendar: c)
        #expect(huge.ticks.count <= 1)
        // A step longer than a year of months wraps into the next years: every 18 months from January.
        let m = DateScale(date(c, 2020, 1, 1), date(c, 2025, 1, 1), step: .init(18, .month), calendar: c)
        #expect(local(m.ticks, c) == ["2020-01-01 00:00:00", "2021-07-01 00:00:00", "2023-01-01 00:00:00", "2024-07-01 00:00:00"])
        // Spans of 1e12 to 1e30 seconds: one tick past the date limit, at most maximumTicks before it, quickly.
        for span in [1e12, 3e13, 1e20, 1e30, -1e30] {
            let s = DateScale(covering: a, a.addingTimeInterval(span), calendar: c)
            #expect(s.ticks.count >= 1 && s.ticks.count <= DateScale.maximumTicks, "\(span)")
            let t = DateScale(a, a.addingTimeInterval(span), step: .init(1, .second), calendar: c)
            #expect(t.ticks.count >= 1 && t.ticks.count <= DateScale.maximumTicks, "\(span)")
        }
        // NaN: one tick.
        #expect(DateScale(covering: a, Date(timeIntervalSinceReferenceDate: .nan), calendar: c).ticks.count == 1)
    }

    @Test func hostileRangesAreSafe() {
        let c = calendar("UTC")
        let a = date(c, 2024, 1, 1)
        // Reversed: swapped.
        let r = DateScale(a.addingTimeInterval(3 * 86_400), a, step: .init(1, .day), calendar: c)
        #expect(r.ticks.count == 4 && r.lower == a)
        // A step far too small for the range is lengthened: at most 10,000 ticks.
        let big = DateScale(a, a.addingTimeInterval(100 * 365 * 86_400), step: .init(1, .second), calendar: c)
        #expect(big.ticks.count <= 10_001 && big.ticks.count > 1000)
        // Not finite: one tick.
        let inf = DateScale(covering: a, Date(timeIntervalSinceReferenceDate: .infinity), calendar: c)
        #expect(inf.ticks.count == 1)
    }
}
