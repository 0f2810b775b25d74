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
    times.sort()
    return times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
}
