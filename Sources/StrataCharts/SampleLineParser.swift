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
