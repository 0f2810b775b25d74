import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How a queue's thread is scheduled next to the main actor's.
///
/// On Linux every class yields to the main thread: the threads run under
/// `SCHED_BATCH`, which never preempts a running thread when it is woken, so
/// the main actor's `async` calls finish their turn instead of handing their
/// core to the drawing they just asked for (under the default policy a woken
/// thread takes the waker's core for a whole time slice, milliseconds in the
/// middle of a commit). `SCHED_BATCH` stops only that wake-up preemption: a
/// thread still takes its share of the cores, by its nice value. Lower classes
/// take less: nice 2 above the main thread's for user-initiated work, 5 for
/// utility and 15 for background work (not `SCHED_IDLE`, whose share is so
/// small that a thread preempted while holding a lock the main actor wants,
/// malloc's among them, could keep it waiting). This is what the
/// quality-of-service classes do on Apple's systems, where the main thread's
/// priority is above all of them; unlike there, a thread waiting on a lower
/// class gives it no boost. Elsewhere the thread keeps its defaults.
public struct ThreadClass: Sendable, Equatable {
    let batch: Bool
    let idle: Bool
    let nice: Int32

    /// Drawing the user is watching happen; the renderer.
    public static let interactive = ThreadClass(batch: true, idle: false, nice: 0)
    /// Drawing the user asked for and is waiting on.
    public static let initiated = ThreadClass(batch: true, idle: false, nice: 2)
    /// Longer work the user knows about.
    public static let utility = ThreadClass(batch: true, idle: false, nice: 5)
    /// Work nobody is waiting for.
    public static let background = ThreadClass(batch: true, idle: false, nice: 15)

    /// The nice value the class's threads run at: the main thread's plus the
    /// class's own (at most 19). A thread can only raise its nice value, so
    /// one started by a thread niced further keeps that thread's.
    var niceValue: Int32 {
        #if os(Linux)
        errno = 0
        let process = getpriority(__priority_which_t(0), id_t(getpid()))
        return min(19, (errno == 0 ? process : 0) + nice)
        #else
        return nice
        #endif
    }

    /// Applies the class to the calling thread (once, as it starts).
    func apply() {
        #if os(Linux)
        var param = sched_param(sched_priority: 0)
        // SCHED_BATCH is 3 and SCHED_IDLE 5 (glibc hides the names behind
        // _GNU_SOURCE). Raising a thread's own nice value needs no privilege.
        if batch || idle { _ = sched_setscheduler(0, idle ? 5 : 3, &param) }
        // Relative to the main thread's (the process's) nice value.
        _ = setpriority(__priority_which_t(0), 0, niceValue)
        #endif
    }
}

extension ThreadClass {
    /// Whether the calling thread runs below the main thread: on a queue of a
    /// lower class (its nice value above the process's) or under `SCHED_IDLE`.
    /// Linux threads inherit their creator's policy and nice value, so work a
    /// thread like that hands to new threads (Dispatch's workers among them)
    /// would keep its low class, and could later hold up the main actor.
    public static var callerRunsBelowMainThread: Bool {
        #if os(Linux)
        errno = 0
        let thread = getpriority(__priority_which_t(0), 0)
        let process = getpriority(__priority_which_t(0), id_t(getpid()))
        return sched_getscheduler(0) == 5 || thread > process
        #else
        return false
        #endif
    }
}

/// A serial queue with a thread of its own, started at its first task: the
/// queues of `QueuePool` and the renderer's.
///
/// Unlike a Dispatch queue, whose work runs on Dispatch's shared threads at
/// Dispatch's priorities (on Linux, nice -2 for the user-interactive and
/// user-initiated classes where it may: above the main thread), its thread is
/// scheduled by its `ThreadClass` for all its life. Tasks run one at a time in
/// the order sent. When the queue is released, its thread finishes the tasks
/// already sent and ends.
///
/// Sending takes no lock: a task is pushed onto a lock-free stack with one
/// compare-and-swap, and the thread is woken (one semaphore signal) only if
/// it was asleep. With a lock, the main actor sending work could wait for the
/// lock while the queue's thread, holding it, waits for a core. (The first
/// task starts the thread; a thread inherits its creator's policy and nice
/// value, and one started from a thread of a lower class cannot rise above
/// it without privileges.)
public final class PoolQueue: Sendable {
    /// The queue's name, also its thread's.
    public let label: String
    /// How the thread is scheduled.
    public let threadClass: ThreadClass
    private let state: State

    /// One task on the stack.
    private final class Node {
        let task: @Sendable () -> Void
        var next: Unmanaged<Node>?
        init(_ task: @escaping @Sendable () -> Void) { self.task = task }
    }

    /// What the queue and its thread share (the thread does not keep the
    /// queue alive).
    private final class State: @unchecked Sendable {
        // Safe to share: `head`, `sent`, `finished`, `syncWaiters`, `syncReady`, `asleep`,
        // `started`, `ending` and `thread` are atomics; a node's fields are
        // written before the releasing push and read only by the thread after
        // its acquiring exchange; `runLock` and `idle` are locks.
        /// Tasks sent, newest first.
        let head = Atomic<Unmanaged<Node>?>(nil)
        /// Tasks sent, and tasks finished (they finish in the order sent).
        let sent = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        /// `sync` callers waiting for `finished` to reach their count.
        let syncWaiters = Atomic<Int>(0)
        /// `sync` callers whose earlier tasks have all run, about to take
        /// `runLock`: the thread lets them in before its next task.
        let syncReady = Atomic<Int>(0)
        /// The queue's thread (`pthread_self`), 0 until it starts.
        let thread = Atomic<UInt>(0)
        let asleep = Atomic<Bool>(false)
        let started = Atomic<Bool>(false)
        let ending = Atomic<Bool>(false)
        let wake = DispatchSemaphore(value: 0)
        /// Held while a task or a `sync` body runs.
        let runLock = NSLock()
        /// Broadcast after each task while someone waits in `sync`.
        let idle = NSCondition()

        deinit {
            var node = head.exchange(nil, ordering: .acquiring)
            while let n = node {
                node = n.takeUnretainedValue().next
                n.release()
            }
        }
    }

    public init(label: String, class threadClass: ThreadClass) {
        self.label = label
        self.threadClass = threadClass
        state = State()
    }

    /// Tasks sent and not yet finished.
    public var outstanding: Int {
        // Finished first: it never passes the count sent.
        let finished = state.finished.load(ordering: .sequentiallyConsistent)
        return state.sent.load(ordering: .sequentiallyConsistent) - finished
    }

    deinit {
        state.ending.store(true, ordering: .sequentiallyConsistent)
        if state.started.load(ordering: .acquiring) { state.wake.signal() }
    }

    /// Runs `work` on the queue's thread after the tasks sent before it.
    public func async(_ work: @escaping @Sendable () -> Void) {
        let state = self.state
        state.sent.wrappingAdd(1, ordering: .sequentiallyConsistent)
        let node = Unmanaged.passRetained(Node(work))
        var top = state.head.load(ordering: .relaxed)
        while true {
            node.takeUnretainedValue().next = top
            let (exchanged, now) = state.head.compareExchange(expected: top, desired: node, ordering: .sequentiallyConsistent)
            if exchanged { break }
            top = now
        }
        if !state.started.load(ordering: .acquiring),
            state.started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        {
            let threadClass = self.threadClass
            let thread = Thread { PoolQueue.run(state, threadClass) }
            thread.name = label
            thread.start()
        } else if state.asleep.exchange(false, ordering: .sequentiallyConsistent) {
            state.wake.signal()
        }
    }

    /// How many `sync` callers are waiting for earlier tasks, and how many
    /// have seen them run and wait for their turn (for tests).
    var syncWaiterCount: Int { state.syncWaiters.load(ordering: .sequentiallyConsistent) }
    var syncReadyCount: Int { state.syncReady.load(ordering: .sequentiallyConsistent) }

    /// Waits for the tasks sent before it was called, then runs `body` on the
    /// calling thread with the queue held (as `DispatchQueue.sync` does): tasks
    /// sent later wait for it, except the one that may already be running.
    /// Called from the queue's own tasks it stops the program, as Dispatch
    /// does, instead of waiting for itself.
    public func sync<R>(_ body: () throws -> R) rethrows -> R {
        let state = self.state
        precondition(
            UInt(pthread_self()) != state.thread.load(ordering: .relaxed),
            "PoolQueue.sync called from its own queue (\(label)): it would wait for itself")
        let target = state.sent.load(ordering: .sequentiallyConsistent)
        if state.finished.load(ordering: .sequentiallyConsistent) < target {
            state.syncWaiters.wrappingAdd(1, ordering: .sequentiallyConsistent)
            state.idle.lock()
            while state.finished.load(ordering: .sequentiallyConsistent) < target { state.idle.wait() }
            state.idle.unlock()
            state.syncWaiters.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        }
        // Ready: the thread will not start another task until this caller
        // holds the run lock (otherwise a stream of later tasks could win the
        // lock every time, and `sync` would wait for the queue to run dry).
        state.idle.lock()
        state.syncReady.wrappingAdd(1, ordering: .sequentiallyConsistent)
        state.idle.unlock()
        state.runLock.lock()
        state.idle.lock()
        state.syncReady.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        state.idle.broadcast()
        state.idle.unlock()
        defer { state.runLock.unlock() }
        return try body()
    }

    private static func run(_ state: State, _ threadClass: ThreadClass) {
        state.thread.store(UInt(pthread_self()), ordering: .relaxed)
        threadClass.apply()
        while true {
            guard var list = state.head.exchange(nil, ordering: .acquiring) else {
                if state.ending.load(ordering: .sequentiallyConsistent) { return }
                state.asleep.store(true, ordering: .sequentiallyConsistent)
                // A task sent since the exchange, or the end, may have
                // missed the flag: look again before sleeping.
                if state.head.load(ordering: .sequentiallyConsistent) != nil || state.ending.load(ordering: .sequentiallyConsistent) {
                    if state.asleep.exchange(false, ordering: .sequentiallyConsistent) { continue }
                }
                state.wake.wait()
                continue
            }
            // Newest first: reverse into the order sent.
            var ordered: Unmanaged<Node>?
            while true {
                let node = list.takeUnretainedValue()
                let next = node.next
                node.next = ordered
                ordered = list
                guard let n = next else { break }
                list = n
            }
            while let current = ordered {
                let node = current.takeUnretainedValue()
                ordered = node.next
                if state.syncReady.load(ordering: .sequentiallyConsistent) > 0 {
                    state.idle.lock()
                    while state.syncReady.load(ordering: .sequentiallyConsistent) > 0 { state.idle.wait() }
                    state.idle.unlock()
                }
                state.runLock.lock()
                node.task()
                state.runLock.unlock()
                current.release()
                state.finished.wrappingAdd(1, ordering: .sequentiallyConsistent)
                if state.syncWaiters.load(ordering: .sequentiallyConsistent) > 0 {
                    state.idle.lock()
                    state.idle.broadcast()
                    state.idle.unlock()
                }
            }
        }
    }
}
