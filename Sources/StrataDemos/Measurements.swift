import Foundation

// The measurements the feed and stream commands print and the benchmarks
// report, written once.

/// The median time of `body` in milliseconds over `repeat` runs, after two
/// warm-up runs that are not counted.
public func medianMilliseconds(repeat count: Int, _ body: () -> Void) -> Double {
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
public func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// The value below which a fraction `q` of `values` lie, by nearest rank
/// (as `FrameStatistics.percentile`); 0 when empty.
public func percentile(_ values: [Double], _ q: Double) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s[max(0, min(s.count - 1, Int((q * Double(s.count)).rounded(.up)) - 1))]
}

/// The resident memory of this process in bytes (from /proc/self/statm; 0
/// where it cannot be read).
public func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The resident memory of this process in MB.
public func residentMB() -> Double { Double(residentBytes()) / 1_048_576 }

/// CPU time this process has used (user and system), in seconds.
public func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}
