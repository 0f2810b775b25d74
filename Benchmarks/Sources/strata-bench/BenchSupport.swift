import Foundation
import StrataDemos
import StrataQueues

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

/// The median time of `body` in milliseconds over `count` runs (after two
/// warm-ups), with the pool's utility queues left to finish between runs,
/// untimed: a commit lets its old render tree go there, and in an app the
/// idle rest of the frame lets that finish. Back to back, with no idle time,
/// each commit's allocations would race the last one's frees for the
/// allocator's lock, and the figures would measure that race (they varied
/// from 2 to 8 ms run to run for the same 10,000-layer commit).
func medianMillisecondsSettled(repeat count: Int, _ body: () -> Void) -> Double {
    median(timedRuns(max(1, count), settled: true, body))
}

/// `count` timings of `body` in milliseconds, after `warmUps` untimed runs;
/// with `settled`, the pool's utility queues finish before each run
/// (see `medianMillisecondsSettled`).
func timedRuns(_ count: Int, warmUps: Int = 2, settled: Bool = false, _ body: () -> Void) -> [Double] {
    var times: [Double] = []
    for i in 0..<(count + warmUps) {
        if settled { settlePool() }
        let t0 = DispatchTime.now().uptimeNanoseconds
        body()
        let t1 = DispatchTime.now().uptimeNanoseconds
        if i >= warmUps { times.append(Double(t1 - t0) / 1e6) }
    }
    return times
}

/// Waits until the pool's utility queues have no work left.
func settlePool() {
    while QueuePool.shared.outstanding(.utility).contains(where: { $0 > 0 }) { usleep(50) }
}
