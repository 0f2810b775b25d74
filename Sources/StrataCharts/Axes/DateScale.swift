import Foundation

/// Ticks for a time axis on calendar boundaries: every 15 minutes, every
/// 6 hours, each Monday, the first of every third month, every fifth year.
///
/// Ticks fall on the wall clock of `calendar`'s time zone, as a reader
/// counts time, not on multiples of seconds: 6-hour ticks are at 00:00,
/// 06:00, 12:00 and 18:00 local time even on the day the clocks change (the
/// two ticks around the change are then 5 or 7 hours apart), days start at
/// local midnight (23 or 25 hours apart around a change), months at their
/// first day whatever their length, and a local time that does not exist
/// that day (02:30 when the clocks jump from 02:00 to 03:00) moves to the
/// next one that does.
public struct DateScale: Sendable, Equatable {
    /// A calendar unit of a step.
    public enum Unit: Int, Sendable, Hashable, CaseIterable {
        case second, minute, hour, day, week, month, year

        /// Roughly how long one is, in seconds (for choosing a step).
        var seconds: Double {
            switch self {
            case .second: 1
            case .minute: 60
            case .hour: 3600
            case .day: 86_400
            case .week: 7 * 86_400
            case .month: 30.436_875 * 86_400
            case .year: 365.242_5 * 86_400
            }
        }
    }

    /// A distance between ticks: `count` of `unit`.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        public var unit: Unit
        public var count: Int

        /// `count` is held to 1…1,000,000,000.
        public init(_ count: Int, _ unit: Unit) {
            self.unit = unit
            self.count = Swift.min(1_000_000_000, Swift.max(1, count))
        }

        /// Roughly how long the step is, in seconds.
        public var seconds: Double { Double(count) * unit.seconds }

        public var description: String { "\(count) \(unit)" }
    }

    /// The steps ticks may take, shortest first: the divisions readers know
    /// (5, 15 and 30 minutes; 3, 6 and 12 hours; quarters and halves of a
    /// year). Beyond a year, 1, 2 and 5 times powers of ten years.
    public static let steps: [Step] = [
        Step(1, .second), Step(2, .second), Step(5, .second), Step(10, .second), Step(15, .second), Step(30, .second),
        Step(1, .minute), Step(2, .minute), Step(5, .minute), Step(10, .minute), Step(15, .minute), Step(30, .minute),
        Step(1, .hour), Step(2, .hour), Step(3, .hour), Step(6, .hour), Step(12, .hour),
        Step(1, .day), Step(2, .day), Step(1, .week),
        Step(1, .month), Step(2, .month), Step(3, .month), Step(6, .month),
        Step(1, .year), Step(2, .year), Step(5, .year),
    ]

    /// The range covered.
    public let lower: Date
    public let upper: Date
    /// The distance between ticks.
    public let step: Step
    /// The ticks inside the range, in order.
    public let ticks: [Date]
    /// The calendar (and so the time zone) the ticks follow.
    public let calendar: Calendar

    /// A scale over `lower ... upper` (swapped if reversed) with the shortest
    /// step that gives at most about `ticks` ticks (at least 2). A range of
    /// no length, or not finite, has one tick at `lower`.
    public init(covering lower: Date, _ upper: Date, ticks desired: Int = 6, calendar: Calendar = .current) {
        let (a, b) = lower <= upper ? (lower, upper) : (upper, lower)
        let span = b.timeIntervalSince(a)
        let n = Double(Swift.max(2, Swift.min(1000, desired)))
        var chosen = Self.steps[0]
        if span.isFinite, span > 0 {
            if let s = Self.steps.first(where: { $0.seconds * n >= span }) {
                chosen = s
            } else {
                // Years: 1, 2 or 5 times a power of ten.
                let years = span / n / Unit.year.seconds
                let magnitude = Foundation.pow(10, (Foundation.log10(years)).rounded(.down))
                let m = [1.0, 2, 5, 10].first { $0 * magnitude >= years } ?? 10
                chosen = Step(Int(Swift.min(1e9, m * magnitude)), .year)
            }
        }
        self.init(a, b, step: chosen, calendar: calendar)
    }

    /// The most ticks a scale makes.
    public static let maximumTicks = 10_000
    @available(*, deprecated, renamed: "maximumTicks")
    public static var maxTicks: Int { maximumTicks }
    /// How far from 2001 (in seconds, about 3 million years) dates get ticks.
    public static let dateLimit = 1e14

    /// A scale over `lower ... upper` with ticks every `step`. At most
    /// `maximumTicks` ticks are made: a step far too small for its range is
    /// lengthened until it fits, and the ticks stop there. A range not finite,
    /// or reaching further than `dateLimit` from 2001, has one tick at `lower`.
    public init(_ lower: Date, _ upper: Date, step: Step, calendar: Calendar = .current) {
        let (a, b) = lower <= upper ? (lower, upper) : (upper, lower)
        self.lower = a
        self.upper = b
        self.calendar = calendar
        var step = step
        let span = b.timeIntervalSince(a)
        let excess = span / step.seconds / Double(Self.maximumTicks)
        if span.isFinite, excess > 1 {
            step = Step(Int(Swift.min(1e9, excess.rounded(.up) * Double(step.count))), step.unit)
        }
        self.step = step
        guard span.isFinite, abs(a.timeIntervalSinceReferenceDate) < Self.dateLimit,
            abs(b.timeIntervalSinceReferenceDate) < Self.dateLimit
        else {
            ticks = [a]
            return
        }
        ticks = Self.ticks(a, b, step: step, calendar: calendar)
    }

    /// The ticks of `step` in `a ... b`.
    private static func ticks(_ a: Date, _ b: Date, step: Step, calendar: Calendar) -> [Date] {
        let c = step.count
        var out: [Date] = []
        func keep(_ d: Date?) {
            guard let d, d >= a, d <= b, d > (out.last ?? .distantPast) else { return }
            out.append(d)
        }
        var full: Bool { out.count >= maximumTicks }
        let start = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: a)
        switch step.unit {
        case .second, .minute:
            // Whole minutes (hours) are whole in every time zone in use but a few,
            // so these step by elapsed time from an aligned start.
            let unit = step.unit == .second ? 1.0 : 60
            var comps = start
            if step.unit == .second {
                comps.second = (start.second ?? 0) / c * c
            } else {
                comps.second = 0
                comps.minute = (start.minute ?? 0) / c * c
            }
            guard var t = calendar.date(from: comps) else { return [] }
            while t <= b, !full {
                keep(t)
                t = t.addingTimeInterval(Double(c) * unit)
            }
        case .hour:
            // Wall-clock hours that are multiples of the step, day by day.
            guard var day = calendar.date(from: DateComponents(year: start.year, month: start.month, day: start.day)) else { return [] }
            while day <= b, !full {
                let d = calendar.dateComponents([.year, .month, .day], from: day)
                for h in stride(from: 0, to: 24, by: c) {
                    keep(calendar.date(from: DateComponents(year: d.year, month: d.month, day: d.day, hour: h)))
                }
                guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
                day = next
            }
        case .day:
            // Local midnights; every other day counts days of the month (1, 3, 5, …).
            guard var day = calendar.date(from: DateComponents(year: start.year, month: start.month, day: start.day)) else { return [] }
            while day <= b, !full {
                let dom = calendar.component(.day, from: day)
                if (dom - 1) % c == 0 { keep(day) }
                guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
                day = next
            }
        case .week:
            // The calendar's first weekday, every `count` weeks from the first one in range.
            guard var day = calendar.dateInterval(of: .weekOfYear, for: a)?.start else { return [] }
            while day <= b, !full {
                keep(day)
                guard let next = calendar.date(byAdding: .weekOfYear, value: c, to: day) else { break }
                day = next
            }
        case .month:
            // First days of the months that are multiples of the step in the year (January first).
            var year = start.year ?? 1, month = ((start.month ?? 1) - 1) / c * c + 1
            while !full {
                guard let d = calendar.date(from: DateComponents(year: year, month: month, day: 1)), d <= b else { break }
                keep(d)
                month += c
                year += (month - 1) / 12
                month = (month - 1) % 12 + 1
            }
        case .year:
            var year = Int((Double(start.year ?? 1) / Double(c)).rounded(.down)) * c
            while !full {
                guard let d = calendar.date(from: DateComponents(year: year, month: 1, day: 1)), d <= b else { break }
                keep(d)
                year += c
            }
        }
        return out
    }

    /// The label of a tick on its own: the time for steps under a day
    /// (with seconds under a minute), day and month for days and weeks, the
    /// month's name for months (the year too in January), the year for
    /// years. Formatted in the calendar's time zone and locale. An axis
    /// uses `labels(for:)`, which also says the year.
    public func label(for date: Date) -> String {
        let f = formatter()
        switch step.unit {
        case .second: f.dateFormat = "HH:mm:ss"
        case .minute, .hour: f.dateFormat = "HH:mm"
        case .day, .week: f.dateFormat = "d MMM"
        case .month: f.dateFormat = calendar.component(.month, from: date) == 1 ? "MMM yyyy" : "MMM"
        case .year: f.dateFormat = "yyyy"
        }
        return f.string(from: date)
    }

    /// The labels of a row of ticks (in order), each as short as its step
    /// allows, with the context a reader needs on the first label and where
    /// it changes (as Swift Charts and matplotlib's concise date formatter
    /// do), so the year always shows:
    /// - months: `Jul 2003`, `Aug`, `Sep`, …, `Jan 2004`;
    /// - days and weeks: `28 Dec 2003`, `4 Jan 2004`, `11 Jan`, …;
    /// - hours and minutes: `31 Dec 2003 18:00`, `21:00`, `1 Jan 2004 00:00`,
    ///   `03:00`, … (the date again where the day changes);
    /// - seconds: as hours, with seconds (`14:05:30`);
    /// - years: `2003`, `2004`, ….
    public func labels(for dates: [Date]) -> [String] {
        let f = formatter()
        var out: [String] = []
        out.reserveCapacity(dates.count)
        var previous: DateComponents? = nil
        for date in dates {
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            let newYear = previous == nil || previous?.year != c.year
            let newDay = newYear || previous?.month != c.month || previous?.day != c.day
            let time = step.unit == .second ? "HH:mm:ss" : "HH:mm"
            switch step.unit {
            case .second, .minute, .hour:
                f.dateFormat = newYear ? "d MMM yyyy \(time)" : newDay ? "d MMM \(time)" : time
            case .day, .week: f.dateFormat = newYear ? "d MMM yyyy" : "d MMM"
            case .month: f.dateFormat = newYear ? "MMM yyyy" : "MMM"
            case .year: f.dateFormat = "yyyy"
            }
            out.append(f.string(from: date))
            previous = c
        }
        return out
    }

    private func formatter() -> DateFormatter {
        let f = DateFormatter()
        f.calendar = calendar
        f.timeZone = calendar.timeZone
        f.locale = calendar.locale ?? Locale(identifier: "en_US_POSIX")
        return f
    }
}
