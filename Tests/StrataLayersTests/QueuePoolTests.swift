import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StrataLayers

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
                let n = running.withLock { $0[label, default: 0] += 1; return $0[label]! }
                if n > 1 { overlapped.store(true, ordering: .relaxed) }
                concurrency.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
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
