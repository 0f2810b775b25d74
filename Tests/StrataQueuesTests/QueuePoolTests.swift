import Dispatch
import Foundation
import StrataTestSupport
import Synchronization
import Testing

@testable import StrataQueues

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tasks running now and the most seen at once.
struct Pair: Sendable {
    var now = 0
    var most = 0
}

@Suite struct QueuePoolTests {
    @Test func queuesAreHandedOutInTurn() {
        let pool = QueuePool(queuesPerPriority: 3)
        #expect(pool.queuesPerPriority == 3)
        let first = (0..<3).map { _ in pool.queue(.utility) }
        #expect(Set(first.map(\.label)).count == 3)
        // The fourth is the first again; other priorities have queues of their own.
        #expect(pool.queue(.utility) === first[0])
        #expect(pool.queue(.background).label != first[0].label)
        #expect(QueuePool(queuesPerPriority: 0).queuesPerPriority == 1)
        #expect(QueuePool(queuesPerPriority: 1000).queuesPerPriority == 64)
    }

    /// A burst of 400 tasks that block never has more of them running at once
    /// than the pool has queues, and the tasks of one queue never overlap.
    @Test func aBurstUsesOnlyThePoolsThreads() {
        let pool = QueuePool(queuesPerPriority: 2)
        let concurrency = Locked<Pair>(Pair())
        let running = Locked<[String: Int]>([:])
        let overlapped = Atomic<Bool>(false)
        let group = DispatchGroup()
        for _ in 0..<400 {
            let q = pool.queue(.userInitiated)
            let label = q.label
            group.enter()
            q.async {
                let n = running.withLock {
                    $0[label, default: 0] += 1; return $0[label]!
                }
                if n > 1 { overlapped.store(true, ordering: .relaxed) }
                concurrency.withLock {
                    $0.now += 1; $0.most = max($0.most, $0.now)
                }
                usleep(50)
                concurrency.withLock { $0.now -= 1 }
                running.withLock { $0[label]! -= 1 }
                group.leave()
            }
        }
        group.wait()
        let most = concurrency.withLock { $0.most }
        #expect(most >= 1 && most <= 2)
        let anyOverlap = overlapped.load(ordering: .relaxed)
        #expect(!anyOverlap)
    }

    /// Work sent while one queue is held up by a slow task goes to the others.
    @Test func workGoesRoundABlockedQueue() {
        let pool = QueuePool(queuesPerPriority: 3)
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        pool.async(.utility) {
            started.signal()
            gate.wait()
        }
        started.wait()
        #expect(pool.outstanding(.utility).sorted() == [0, 0, 1])
        // Sent one after another, each to an idle queue: all 50 finish while
        // the first task still blocks its queue (round robin alone would put
        // every third behind it).
        var finished = 0
        for _ in 0..<50 {
            let done = DispatchSemaphore(value: 0)
            pool.async(.utility) { done.signal() }
            if done.wait(timeout: .now() + 2) == .success { finished += 1 }
        }
        #expect(finished == 50)
        gate.signal()
    }
}

@Suite struct PoolQueueTests {
    /// Tasks run one at a time, in the order sent, off the calling thread;
    /// `sync` waits for them and runs its body on the caller's thread.
    @Test func tasksRunInOrderAndSyncWaitsForThem() {
        let queue = PoolQueue(label: "test.order", class: .initiated)
        let order = Locked<[Int]>([])
        let onCaller = Locked<[Bool]>([])
        let caller = pthread_self()
        for i in 0..<200 {
            queue.async {
                onCaller.withLock { $0.append(pthread_equal(pthread_self(), caller) != 0) }
                order.withLock { $0.append(i) }
            }
        }
        let seen = queue.sync { (order.value.count, pthread_equal(pthread_self(), caller) != 0) }
        #expect(seen.0 == 200 && seen.1)
        #expect(order.value == Array(0..<200))
        #expect(!onCaller.value.contains(true))
    }

    #if os(Linux)
    /// Each class's thread runs under its policy and nice value: batch
    /// (which never preempts the main thread when woken) at 0, 2, 5 and 15
    /// above the process's nice value.
    @Test(arguments: [(ThreadClass.interactive, 3, 0), (.initiated, 3, 2), (.utility, 3, 5), (.background, 3, 15)])
    func threadsRunInTheirClass(threadClass: ThreadClass, policy: Int32, nice: Int32) {
        let queue = PoolQueue(label: "test.class", class: threadClass)
        let seen = Locked<(Int32, Int32)>((-1, -1))
        let done = DispatchSemaphore(value: 0)
        queue.async {
            errno = 0
            seen.withLock { $0 = (sched_getscheduler(0), getpriority(__priority_which_t(0), 0)) }
            done.signal()
        }
        done.wait()
        #expect(seen.value.0 == policy)
        errno = 0
        let process = getpriority(__priority_which_t(0), id_t(getpid()))
        #expect(seen.value.1 == min(19, process + nice))
    }
    #endif

    /// `sync` waits for the tasks sent before it, not for the queue to run
    /// dry: once the ten tasks sent before it have run, it goes before any
    /// task the queue has not started. Here the first task sent after it
    /// holds the queue until `sync` is ready (has seen its tasks run) or done,
    /// so its body must run before the two hundred behind. Checked by
    /// order, not by the clock. (Before the queue let a ready `sync` in ahead
    /// of its next task, a stream of later tasks could take the run lock
    /// every time: under the full suite's load all two hundred ran first.)
    @Test func syncWaitsOnlyForEarlierTasks() {
        let queue = PoolQueue(label: "test.stream", class: .initiated)
        let order = Locked<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        for i in 1...10 { queue.async { order.withLock { $0.append(i) } } }
        let seen = Locked<[Int]?>(nil)
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            queue.sync { seen.withLock { $0 = order.value } }
            returned.signal()
        }
        while queue.syncWaiterCount == 0 { usleep(100) }
        // (Or until it has already run: it may get in before this task starts.)
        queue.async { while queue.syncReadyCount == 0 && seen.value == nil { usleep(50) } }
        for i in 11...210 {
            queue.async {
                usleep(100)
                order.withLock { $0.append(i) }
            }
        }
        gate.signal()
        #expect(returned.wait(timeout: .now() + 30) == .success)
        #expect(seen.value == Array(1...10))
        queue.sync {}
        #expect(order.value == Array(1...210))
    }

    #if os(Linux)
    /// `sync` from the queue's own task stops the program instead of waiting
    /// for itself forever.
    @Test func syncFromItsOwnQueueStops() async {
        await #expect(processExitsWith: .failure) {
            let queue = PoolQueue(label: "test.self", class: .initiated)
            let done = DispatchSemaphore(value: 0)
            queue.async {
                queue.sync {}
                done.signal()
            }
            done.wait()
        }
    }
    #endif

    /// A queue let go with tasks still to run finishes them, and its thread
    /// ends.
    @Test func aReleasedQueueFinishesItsTasks() {
        let ran = Atomic<Int>(0)
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        do {
            let queue = PoolQueue(label: "test.release", class: .utility)
            queue.async { gate.wait() }
            for _ in 0..<10 { queue.async { ran.wrappingAdd(1, ordering: .relaxed) } }
            queue.async { done.signal() }
        }
        gate.signal()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(ran.load(ordering: .relaxed) == 10)
    }
}

/// `QueuePool.perform`: every task once, on at most the workers asked for,
/// and never waiting for a queue that has not started.
@Suite struct QueuePoolPerformTests {
    @Test func everyTaskRunsOnceOnTheWorkersAsked() {
        let pool = QueuePool(queuesPerPriority: 3)
        for (tasks, workers) in [(0, 4), (1, 4), (7, 1), (40, 2), (40, 4), (100, 64)] {
            let counts = Locked([Int](repeating: 0, count: tasks))
            let seen = Locked(Set<Int>())
            pool.perform(tasks: tasks, workers: workers) { task, worker in
                counts.withLock { $0[task] += 1 }
                seen.withLock { _ = $0.insert(worker) }
            }
            #expect(counts.withLock { $0 } == [Int](repeating: 1, count: tasks), "\(tasks) tasks, \(workers) workers")
            // Workers are numbered from 0 (the caller) to at most the pool's
            // queues, and never more than asked.
            let workersSeen = seen.withLock { $0 }
            #expect(workersSeen.allSatisfy { $0 >= 0 && $0 < min(workers, 4) })
            if tasks > 0 && workers == 1 { #expect(workersSeen == [0]) }
        }
    }

    /// What the tasks wrote is there when `perform` returns, and each
    /// worker's tasks run one after another.
    @Test func aWorkersTasksDoNotOverlapAndTheirWritesAreSeen() {
        let pool = QueuePool(queuesPerPriority: 2)
        final class Slots: @unchecked Sendable {
            // Each task writes only its own slot of the memory; the test
            // reads them after `perform` returns.
            let values = UnsafeMutableBufferPointer<Int>.allocate(capacity: 500)
            init() { values.initialize(repeating: 0) }
            deinit { values.deallocate() }
        }
        let slots = Slots()
        let overlaps = Atomic<Int>(0)
        let active = Locked([Int: Int]())
        pool.perform(tasks: 500, workers: 3) { task, worker in
            let n = active.withLock {
                $0[worker, default: 0] += 1; return $0[worker]!
            }
            if n > 1 { overlaps.wrappingAdd(1, ordering: .relaxed) }
            slots.values[task] = task * 3 + 1
            active.withLock { $0[worker]! -= 1 }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(Array(slots.values) == (0..<500).map { $0 * 3 + 1 })
    }

    /// Called from the pool's only queue (so the worker it sends waits
    /// behind the caller itself), `perform` does every task on the calling
    /// thread instead of waiting for ever.
    @Test func aBusyQueueDoesNotHoldTheCallUp() {
        let pool = QueuePool(queuesPerPriority: 1)
        let done = DispatchSemaphore(value: 0)
        let callers = Locked(Set<Int>())
        pool.async(.userInteractive) {
            pool.perform(tasks: 20, workers: 2) { _, worker in callers.withLock { _ = $0.insert(worker) } }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(callers.withLock { $0 } == [0])
    }
}

@Suite struct AvailableProcessorsTests {
    /// The affinity mask's processors, as `/proc/self/status` lists them:
    /// a process under `taskset -c 0` has one.
    @Test func theAffinityMaskCounts() {
        #expect(QueuePool.availableProcessors >= 1)
        #expect(QueuePool.allowedProcessorCount(status: "Name:\tx\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n") == 1)
        #expect(QueuePool.allowedProcessorCount(status: "Cpus_allowed:\tff\n") == 8)
        #expect(QueuePool.allowedProcessorCount(status: "Cpus_allowed:\t00000000,00000003,80000000\n") == 3)
        // No mask, an empty one or a malformed one: nil (the active count is used).
        #expect(QueuePool.allowedProcessorCount(status: "Name:\tx\n") == nil)
        #expect(QueuePool.allowedProcessorCount(status: "Cpus_allowed:\t0\n") == nil)
        #expect(QueuePool.allowedProcessorCount(status: "Cpus_allowed:\tzz\n") == nil)
    }

    /// A child pinned to one processor counts one.
    @Test func aPinnedChildCountsOne() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        child.arguments = ["-c", "0", "cat", "/proc/self/status"]
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        #expect(QueuePool.allowedProcessorCount(status: String(decoding: data, as: UTF8.self)) == 1)
    }
}
