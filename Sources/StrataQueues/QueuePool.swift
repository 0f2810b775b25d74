import Dispatch
import Foundation
import Synchronization

/// How urgent background drawing is, from drawing the user is waiting on to
/// work nobody is looking at (the quality-of-service classes).
public enum DrawingPriority: Int, Sendable, CaseIterable {
    case userInteractive, userInitiated, utility, background

    /// How the queues' threads are scheduled (see `ThreadClass`).
    public var threadClass: ThreadClass {
        switch self {
        case .userInteractive: .interactive
        case .userInitiated: .initiated
        case .utility: .utility
        case .background: .background
        }
    }
}

/// A fixed set of serial queues per priority, as many as the processors
/// the process may run on (`availableProcessors`), handed out round-robin. All of Strata's background drawing goes through
/// the shared pool, so a burst of redraws waits its turn on a few queues
/// instead of spawning a burst of threads (which a concurrent queue would do
/// whenever its work blocks). Each queue is a `PoolQueue`, with a thread of its
/// own (started at its first task) that does not preempt the main actor when
/// woken (see `ThreadClass`).
///
/// `async` looks at the work outstanding on each queue (its own count of
/// tasks sent and not finished) and, starting from the next queue in turn,
/// takes the first idle one (or else the least loaded, and of those the one
/// whose latest task started last): one slow drawing
/// then holds up only its own queue, and work sent after it goes round the
/// others instead of waiting behind it. (A queue just finishing a task can
/// still count it for a moment; the tie with a stuck queue, whose task
/// started long ago, goes to the one that moves.)
public final class QueuePool: Sendable {
    /// The pool Strata's asynchronous layers draw on.
    public static let shared = QueuePool()

    /// Serial queues per priority.
    public let queuesPerPriority: Int
    private let queues: [[PoolQueue]]
    private let turns: [Turn]
    private let loads: [[Load]]

    /// A round-robin position.
    private final class Turn: Sendable {
        let next = Atomic<Int>(0)
    }

    /// The pool's count of started tasks when a queue's latest task started
    /// (larger is more recent). A queue's outstanding work is its own count.
    private final class Load: Sendable {
        let lastStarted = Atomic<Int>(0)
    }
    /// Tasks started, per priority.
    private let started: [Turn]

    /// The processors this process may run on: on Linux those of its
    /// affinity mask (`Cpus_allowed` in `/proc/self/status`; a process
    /// started under `taskset -c 0` has one), at most the active processor
    /// count (the mask may name processors that are not online).
    public static var availableProcessors: Int {
        let active = ProcessInfo.processInfo.activeProcessorCount
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        return max(1, min(active, status.flatMap(allowedProcessorCount(status:)) ?? active))
    }

    /// The processors in the `Cpus_allowed` mask of a `/proc/PID/status`
    /// text (hexadecimal words separated by commas), or nil without one.
    static func allowedProcessorCount(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for c in line.dropFirst("Cpus_allowed:".count) where c != "," && !c.isWhitespace {
            guard let digit = c.hexDigitValue else { return nil }
            count += digit.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }

    /// A pool with `queuesPerPriority` serial queues for each priority
    /// (default: the processors available, `availableProcessors`; at least
    /// 1, at most 64).
    public init(queuesPerPriority: Int = QueuePool.availableProcessors) {
        let n = min(64, max(1, queuesPerPriority))
        self.queuesPerPriority = n
        queues = DrawingPriority.allCases.map { priority in
            (0..<n).map { PoolQueue(label: "strata.pool.\(priority).\($0)", class: priority.threadClass) }
        }
        turns = DrawingPriority.allCases.map { _ in Turn() }
        loads = DrawingPriority.allCases.map { _ in (0..<n).map { _ in Load() } }
        started = DrawingPriority.allCases.map { _ in Turn() }
    }

    /// The next queue of `priority`, in turn.
    public func queue(_ priority: DrawingPriority = .userInitiated) -> PoolQueue {
        let i = turns[priority.rawValue].next.wrappingAdd(1, ordering: .relaxed).oldValue
        let list = queues[priority.rawValue]
        return list[(i % list.count + list.count) % list.count]
    }

    /// Runs `work` on a queue of `priority`: the first idle one from the
    /// next in turn; when none is idle, the least loaded, and of equally
    /// loaded ones the one whose latest task started most recently.
    public func async(_ priority: DrawingPriority = .userInitiated, _ work: @escaping @Sendable () -> Void) {
        let list = queues[priority.rawValue], load = loads[priority.rawValue]
        let n = list.count
        let start = turns[priority.rawValue].next.wrappingAdd(1, ordering: .relaxed).oldValue
        var best = 0, bestLoad = Int.max, bestStarted = Int.min
        for k in 0..<n {
            let i = ((start + k) % n + n) % n
            let l = list[i].outstanding
            if l == 0 {
                best = i
                break
            }
            let t = load[i].lastStarted.load(ordering: .relaxed)
            if l < bestLoad || (l == bestLoad && t > bestStarted) {
                best = i
                bestLoad = l
                bestStarted = t
            }
        }
        let chosen = load[best], count = started[priority.rawValue]
        list[best].async {
            chosen.lastStarted.store(count.next.wrappingAdd(1, ordering: .relaxed).newValue, ordering: .relaxed)
            work()
        }
    }

    /// Work sent and not finished, per queue of `priority`.
    public func outstanding(_ priority: DrawingPriority = .userInitiated) -> [Int] {
        queues[priority.rawValue].map(\.outstanding)
    }
}
