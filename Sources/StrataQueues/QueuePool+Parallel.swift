import Dispatch
import Synchronization

extension QueuePool {
    /// Runs `body(task, worker)` once for every task in `0 ..< tasks`, on
    /// up to `workers` threads, and returns when all have run: one frame's
    /// bands drawn on several cores.
    ///
    /// Worker 0 is the calling thread; workers 1 and up are tasks sent to
    /// the pool's queues of `priority` (no more than the pool has queues;
    /// `async` picks the least loaded, so when all are busy two may wait on
    /// one queue, and the caller takes their tasks). Every worker
    /// takes the next task not yet taken until none is left, so one worker
    /// runs its tasks one after another, and what a worker keeps for itself
    /// (a canvas, a cache) needs no lock.
    ///
    /// The caller waits only for tasks that have started. A queue busy
    /// with other work (or the one the caller itself runs on) never holds
    /// the call up: the caller takes the tasks it has not begun, and the
    /// worker sent there finds nothing left when it starts and returns
    /// without calling `body`. With `workers` of 1, or a single task, every
    /// task runs on the calling thread and nothing is sent.
    ///
    /// Memory written by the tasks is visible to the caller when this
    /// returns.
    public func perform(
        tasks: Int, workers: Int, priority: DrawingPriority = .userInteractive,
        _ body: @escaping @Sendable (_ task: Int, _ worker: Int) -> Void
    ) {
        guard tasks > 0 else { return }
        let helpers = min(max(1, workers), queuesPerPriority + 1, tasks) - 1
        guard helpers > 0 else {
            for t in 0..<tasks { body(t, 0) }
            return
        }
        let run = ParallelRun(tasks: tasks)
        for w in 1...helpers {
            async(priority) {
                if run.work(body, worker: w) { run.done.signal() }
            }
        }
        if !run.work(body, worker: 0) { run.done.wait() }
    }
}

/// The tasks of one `perform` call, shared by its workers.
private final class ParallelRun: Sendable {
    let tasks: Int
    /// The next task to take.
    let next = Atomic<Int>(0)
    /// Tasks finished.
    let finished = Atomic<Int>(0)
    /// Signalled by the helper that finishes the last task, when the caller
    /// did not.
    let done = DispatchSemaphore(value: 0)

    init(tasks: Int) { self.tasks = tasks }

    /// Runs tasks until none is left; returns whether this worker finished
    /// the last one.
    func work(_ body: @Sendable (Int, Int) -> Void, worker: Int) -> Bool {
        var last = false
        while true {
            let t = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard t < tasks else { return last }
            body(t, worker)
            // Releasing: what the task wrote is seen by whoever sees the count.
            last = finished.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == tasks
        }
    }
}
