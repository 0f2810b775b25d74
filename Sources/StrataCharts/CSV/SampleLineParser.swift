/// Rows of samples from lines of text, as `strata stream --stdin` reads them:
/// numbers separated by spaces, tabs or commas, one sample per series.
public enum SampleLineParser {
    /// One row from `line` (line number `lineNumber`, counted from 1): a word
    /// that is not a finite number (a typo, `nan`, `inf`) is a gap, and a
    /// line with fewer numbers than `series` has gaps in the rest (an empty
    /// line is a gap in every series). Each problem comes back as a message
    /// naming the line and the word. Words past `series` are ignored.
    public static func parse(_ line: some StringProtocol, lineNumber: Int, series: Int) -> (row: [Double], problems: [String]) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" })
        let n = max(1, series)
        var row: [Double] = [], problems: [String] = []
        for (k, word) in words.prefix(n).enumerated() {
            if let v = Double(word), v.isFinite {
                row.append(v)
            } else {
                let shown = word.count > 40 ? String(word.prefix(40)) + "…" : String(word)
                problems.append("line \(lineNumber): '\(shown)' (value \(k + 1)) is not a finite number; drawn as a gap")
                row.append(.nan)
            }
        }
        if words.isEmpty {
            problems.append("line \(lineNumber): no numbers; drawn as a gap")
        } else if words.count < n {
            problems.append("line \(lineNumber): \(words.count) of \(n) values; the rest drawn as gaps")
        }
        while row.count < n { row.append(.nan) }
        return (row, problems)
    }
}

/// Lines from a stream of bytes arriving in pieces, each at most
/// `maximumLength` bytes kept: the rest of a longer line is dropped as it
/// arrives (the line is marked `isTruncated`), so a line without end never
/// holds more than that in memory. `\n` ends a line; a final line without
/// one comes from `finish()`.
public struct LineSplitter: Sendable {
    public let maximumLength: Int
    private var pending: [UInt8] = []
    private var truncated = false

    /// A splitter keeping at most `maximumLength` bytes of a line (at least 1).
    public init(maximumLength: Int = 1 << 20) {
        self.maximumLength = max(1, maximumLength)
    }

    /// The lines `bytes` completes, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [(text: String, isTruncated: Bool)] {
        var lines: [(String, Bool)] = []
        for b in bytes {
            if b == UInt8(ascii: "\n") {
                lines.append((String(decoding: pending, as: UTF8.self), truncated))
                pending.removeAll(keepingCapacity: true)
                truncated = false
            } else if pending.count < maximumLength {
                pending.append(b)
            } else {
                truncated = true
            }
        }
        return lines
    }

    /// The last line, when the bytes ended without a line feed.
    public mutating func finish() -> (text: String, isTruncated: Bool)? {
        guard !pending.isEmpty || truncated else { return nil }
        defer {
            pending.removeAll()
            truncated = false
        }
        return (String(decoding: pending, as: UTF8.self), truncated)
    }
}
