import Dispatch
import Glibc

/// Runs `handler` on `queue` whenever a file descriptor can be read (or
/// written), through a duplicate of the descriptor that lives until the
/// watch's cancellation has run: its owner may close the descriptor at once
/// after `cancel()`.
///
/// libdispatch forgets a descriptor only when its source's cancellation
/// runs, later, on its own queue. A source whose descriptor was closed
/// before that (the usual `cancel(); close(fd)`) leaves its registration
/// under the number, and the next file given that number (another
/// window's socket, a paste's pipe) can lose its events to it: a paste
/// never finished in tests that opened and closed windows meanwhile. The
/// duplicate keeps the number taken until the registration is gone.
public final class DescriptorWatch {
    public enum Event: Sendable { case readable, writable }

    private let source: any DispatchSourceProtocol

    /// Watches `fd` for `event`; nil when the descriptor cannot be
    /// duplicated (not open, or no descriptors left).
    public init?(_ fd: Int32, for event: Event, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return nil }
        let made: any DispatchSourceProtocol =
            event == .readable
            ? DispatchSource.makeReadSource(fileDescriptor: copy, queue: queue)
            : DispatchSource.makeWriteSource(fileDescriptor: copy, queue: queue)
        made.setEventHandler(handler: handler)
        made.setCancelHandler { close(copy) }
        made.resume()
        source = made
    }

    /// Stops the watch; the duplicate is closed when the cancellation runs.
    public func cancel() { source.cancel() }

    deinit { source.cancel() }
}
