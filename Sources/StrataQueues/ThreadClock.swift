import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Clocks for timing work on one thread.
public enum ThreadClock {
    /// The calling thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`):
    /// its own work, without the time the scheduler gives other threads on
    /// the same cores.
    public static func cpuTime() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// The monotonic wall clock in nanoseconds.
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
