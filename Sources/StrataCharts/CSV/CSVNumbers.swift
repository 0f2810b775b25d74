import Foundation

/// Numbers and ISO 8601 dates parsed from bytes in place (what
/// `CSVColumnReader` reads cells with).
public enum CSVNumbers {
    /// Powers of ten exactly representable as `Double`.
    private static let exactPowers: [Double] = (0...22).map { pow(10, Double($0)) }

    /// The decimal number in `q[a..<b]` (optional sign, digits, a point,
    /// an exponent; also `inf`/`infinity`, which come back infinite), or nil
    /// when the bytes are not one. Correctly rounded: numbers of at most 19
    /// significant digits whose scale is within 10^±22 are computed exactly
    /// from an integer and an exact power of ten (Clinger's fast path);
    /// the rest go to `strtod`. Bytes longer than `maximumNumberLength` are
    /// not a number, whatever they hold.
    public static func parseDouble(_ q: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int) -> Double? {
        guard a < b, b - a <= maximumNumberLength else { return nil }
        var p = a
        var negative = false
        if q[p] == UInt8(ascii: "-") || q[p] == UInt8(ascii: "+") {
            negative = q[p] == UInt8(ascii: "-")
            p += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0, significant = 0, scale = 0
        var overflowed = false
        while p < b, q[p] &- 48 < 10 {
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(q[p] &- 48)
                if mantissa > 0 { significant += 1 }
            } else {
                overflowed = true
                scale += 1
            }
            digits += 1
            p += 1
        }
        if p < b, q[p] == UInt8(ascii: ".") {
            p += 1
            while p < b, q[p] &- 48 < 10 {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(q[p] &- 48)
                    if mantissa > 0 { significant += 1 }
                    scale -= 1
                } else {
                    overflowed = true
                }
                digits += 1
                p += 1
            }
        }
        guard digits > 0 else { return infinity(q, p, b, negative) }
        if p < b, q[p] | 0x20 == UInt8(ascii: "e") {
            p += 1
            var expNegative = false
            if p < b, q[p] == UInt8(ascii: "-") || q[p] == UInt8(ascii: "+") {
                expNegative = q[p] == UInt8(ascii: "-")
                p += 1
            }
            var e = 0, expDigits = 0
            while p < b, q[p] &- 48 < 10 {
                if e < 100_000 { e = e * 10 + Int(q[p] &- 48) }
                expDigits += 1
                p += 1
            }
            guard expDigits > 0 else { return nil }
            scale += expNegative ? -e : e
        }
        guard p == b else { return nil }
        if !overflowed, mantissa < (1 << 53), abs(scale) <= 22 {
            let m = Double(mantissa)
            let v = scale >= 0 ? m * exactPowers[scale] : m / exactPowers[-scale]
            return negative ? -v : v
        }
        if mantissa == 0, !overflowed { return negative ? -0.0 : 0 }
        return slowParse(q, a, b)
    }

    /// The longest cell read as a number, in bytes (what `strtod` is given
    /// a copy of at most): more digits than any number in a file needs.
    public static let maximumNumberLength = 511

    /// `strtod` on a copy ending in NUL (C locale: the point is a point).
    private static func slowParse(_ q: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int) -> Double? {
        let length = b - a
        guard length <= maximumNumberLength else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { t -> Double? in
            for i in 0..<length { t[i] = CChar(bitPattern: q[a + i]) }
            t[length] = 0
            var endPointer: UnsafeMutablePointer<CChar>?
            let v = strtod(t.baseAddress!, &endPointer)
            guard let endPointer, endPointer - t.baseAddress! == length else { return nil }
            return v
        }
    }

    private static func infinity(_ q: UnsafeBufferPointer<UInt8>, _ p: Int, _ b: Int, _ negative: Bool) -> Double? {
        let word = String(decoding: UnsafeBufferPointer(rebasing: q[p..<b]), as: UTF8.self).lowercased()
        guard word == "inf" || word == "infinity" else { return nil }
        return negative ? -.infinity : .infinity
    }

    /// What a cell's text reads as.
    public enum CellValue: Sendable, Hashable {
        case number, missing, isoDate, text
    }

    /// What `text` reads as, spaces and tabs around it aside (`parseDouble`,
    /// then `isMissing`, then `parseISODate`); nil when it is empty.
    public static func classify(_ text: some StringProtocol) -> CellValue? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 32 || last == 9 { bytes.removeLast() }
        let first = bytes.firstIndex { $0 != 32 && $0 != 9 } ?? bytes.count
        return bytes.withUnsafeBufferPointer { q -> CellValue? in
            if first == q.count { return nil }
            if parseDouble(q, first, q.count) != nil { return .number }
            if isMissing(q, first, q.count) { return .missing }
            if parseISODate(q, first, q.count) != nil { return .isoDate }
            return .text
        }
    }

    /// A `DateFormatter` for the pattern `format`, in UTC unless the
    /// pattern has a zone, with the POSIX locale (what CSV dates in a format
    /// are read with).
    public static func dateFormatter(_ format: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = format
        return f
    }

    /// Whether `q[a..<b]` spells a missing value: NaN, NA, N/A, null,
    /// none, or a spreadsheet's `#N/A`, `#NA` and `<NA>` (any case).
    public static func isMissing(_ q: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int) -> Bool {
        guard b - a <= 4 else { return false }
        let word = String(decoding: UnsafeBufferPointer(rebasing: q[a..<b]), as: UTF8.self).lowercased()
        return ["nan", "-nan", "na", "n/a", "null", "none", "#n/a", "#na", "<na>"].contains(word)
    }

    /// The ISO 8601 date in `q[a..<b]` as seconds since the reference date
    /// (2001-01-01 00:00:00 UTC), or nil. Accepted: `YYYY-MM-DD`, then
    /// optionally `T` or a space and `hh:mm`, `hh:mm:ss` or
    /// `hh:mm:ss.fraction`, then optionally `Z` or `±hh:mm` (`±hhmm`,
    /// `±hh`). Without a zone the time is UTC. Fields are checked (month
    /// 1…12, the day within its month in the proleptic Gregorian
    /// calendar, hour 0…23 or 24:00:00, minute 0…59, second 0…60).
    public static func parseISODate(_ q: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int) -> Double? {
        var p = a
        @inline(__always) func number(_ count: Int) -> Int? {
            guard p + count <= b else { return nil }
            var v = 0
            for i in 0..<count {
                let d = q[p + i] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            p += count
            return v
        }
        @inline(__always) func expect(_ c: UInt8) -> Bool {
            guard p < b, q[p] == c else { return false }
            p += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month, year) else { return nil }
        var seconds = 0.0
        var hour = 0, minute = 0, second = 0
        if p < b, q[p] == UInt8(ascii: "T") || q[p] == UInt8(ascii: "t") || q[p] == 32 {
            p += 1
            guard let h = number(2), expect(58), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(58) {
                guard let s = number(2) else { return nil }
                second = s
                if p < b, q[p] == UInt8(ascii: ".") || q[p] == UInt8(ascii: ",") {
                    p += 1
                    var scale = 0.1
                    let first = p
                    while p < b, q[p] &- 48 < 10 {
                        seconds += Double(q[p] &- 48) * scale
                        scale /= 10
                        p += 1
                    }
                    guard p > first else { return nil }
                }
            }
            guard hour < 24 || (hour == 24 && minute == 0 && second == 0 && seconds == 0), minute < 60, second <= 60 else { return nil }
        }
        var offset = 0
        if p < b {
            if q[p] == UInt8(ascii: "Z") || q[p] == UInt8(ascii: "z") {
                p += 1
            } else if q[p] == UInt8(ascii: "+") || q[p] == UInt8(ascii: "-") {
                let sign = q[p] == UInt8(ascii: "-") ? -1 : 1
                p += 1
                guard let oh = number(2), oh <= 23 else { return nil }
                var om = 0
                if p < b {
                    _ = expect(58)
                    guard let m = number(2), m < 60 else { return nil }
                    om = m
                }
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard p == b else { return nil }
        let days = daysFromCivil(year, month, day) - daysFromCivil(2001, 1, 1)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + seconds
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
    /// `days_from_civil` algorithm, written from its published description).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
