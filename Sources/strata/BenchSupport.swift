import Foundation

/// The median time of `body` in milliseconds over `repeat` runs, after two
/// warm-up runs that are not counted.
func medianMilliseconds(repeat count: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for i in 0..<(max(1, count) + 2) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        body()
        let t1 = DispatchTime.now().uptimeNanoseconds
        if i >= 2 { times.append(Double(t1 - t0) / 1e6) }
    }
    return median(times)
}

/// The median of `values` (the mean of the middle two for an even count; 0 when empty).
func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// The value below which a fraction `q` of `values` lie, by nearest rank
/// (as `FrameStatistics.percentile`); 0 when empty.
func percentile(_ values: [Double], _ q: Double) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s[max(0, min(s.count - 1, Int((q * Double(s.count)).rounded(.up)) - 1))]
}

/// The cases a `--cases A,B` option picks: whether each name is to run
/// (every name when the option is absent), and a reporter that prints
/// `strata CASE VALUE` for the chosen ones.
struct CaseSelection {
    let wanted: Set<String>?

    init(_ cases: String?) { wanted = cases.map { Set($0.split(separator: ",").map(String.init)) } }

    func runs(_ name: String) -> Bool { wanted?.contains(name) ?? true }

    var report: (String, Double) -> Void {
        { name, value in
            if runs(name) { print("strata \(name) \(String(format: "%.3f", value))") }
        }
    }
}
