import Dispatch

/// Batches layer changes and sets how they animate (`CATransaction`).
///
/// Every change to a layer belongs to a transaction. Without an explicit one,
/// the first change opens an implicit transaction that commits at the end of
/// the current turn of the main loop (or at the next `flush()`, which hosts call
/// before each frame). Explicit transactions nest with `begin()`/`commit()`;
/// the changes reach the screen when the outermost one commits. Settings
/// (`disableActions`, `animationDuration`, `animationTimingFunction`) apply to
/// the changes made while they are set, and nested transactions inherit them.
@MainActor
public enum Transaction {
    /// The implicit animation duration when no transaction sets one.
    nonisolated public static let defaultDuration = 0.25

    /// One open transaction. Its settings start as the enclosing one's, so
    /// reading the one in force is one look at the innermost frame.
    final class Frame {
        let isImplicit: Bool
        var disableActions: Bool
        var animationDuration: Double
        var timingFunction: TimingFunction?
        var completion: CompletionGroup?

        init(isImplicit: Bool, inside outer: Frame?) {
            self.isImplicit = isImplicit
            disableActions = outer?.disableActions ?? false
            animationDuration = outer?.animationDuration ?? Transaction.defaultDuration
            timingFunction = outer?.timingFunction
        }
    }

    static var stack: [Frame] = []
    static var implicitScheduled = false
    /// Hosts with changes to commit.
    static var dirtyHosts: [ObjectIdentifier: LayerHost] = [:]

    /// Opens an explicit transaction.
    public static func begin() {
        stack.append(Frame(isImplicit: false, inside: stack.last))
    }

    /// Closes the innermost explicit transaction; when it is the outermost
    /// (apart from an implicit one), its changes are committed to the hosts.
    public static func commit() {
        guard let index = stack.lastIndex(where: { !$0.isImplicit }) else { return }
        let frame = stack.remove(at: index)
        frame.completion?.seal()
        if !stack.contains(where: { !$0.isImplicit }) {
            commitToHosts()
        }
    }

    /// Commits everything outstanding now: the implicit transaction and any
    /// explicit ones left open (as Core Animation's flush does at the end of a turn).
    public static func flush() {
        while let frame = stack.popLast() { frame.completion?.seal() }
        commitToHosts()
    }

    /// Runs `body` in an explicit transaction.
    public static func perform<R>(_ body: () throws -> R) rethrows -> R {
        begin()
        defer { commit() }
        return try body()
    }

    /// Whether property changes skip their implicit animations.
    public static var disableActions: Bool {
        get { stack.last?.disableActions ?? false }
        set { current.disableActions = newValue }
    }

    /// The duration of implicit animations (default 0.25 s).
    public static var animationDuration: Double {
        get { stack.last?.animationDuration ?? defaultDuration }
        set { current.animationDuration = newValue.isFinite && newValue >= 0 ? newValue : defaultDuration }
    }

    /// The timing function of implicit animations (nil: Core Animation's default curve).
    public static var animationTimingFunction: TimingFunction? {
        get { stack.last?.timingFunction }
        set { current.timingFunction = newValue }
    }

    /// Sets the block called when every animation added in this transaction has
    /// finished, or at its commit when it adds none. Replaces an earlier block
    /// of the same transaction.
    public static func setCompletionBlock(_ block: @escaping @MainActor () -> Void) {
        let frame = current
        if let group = frame.completion {
            group.block = block
        } else {
            frame.completion = CompletionGroup(block: block)
        }
    }

    /// The innermost transaction, opening an implicit one when none is open.
    static var current: Frame {
        if let frame = stack.last { return frame }
        let frame = Frame(isImplicit: true, inside: nil)
        stack.append(frame)
        scheduleImplicitCommit()
        return frame
    }

    /// Makes sure a transaction is open for a change.
    @inline(__always)
    static func noteChange() {
        if stack.isEmpty { _ = current }
    }

    /// The completion groups that animations added now belong to (every open
    /// transaction with a completion block).
    static var openCompletionGroups: [CompletionGroup] {
        stack.contains { $0.completion != nil } ? stack.compactMap(\.completion) : []
    }

    /// The implicit transaction commits at the end of this turn of the main loop.
    static func scheduleImplicitCommit() {
        guard !implicitScheduled else { return }
        implicitScheduled = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                implicitScheduled = false
                if stack.count == 1, stack[0].isImplicit {
                    flush()
                }
            }
        }
    }

    /// Whether hosts are committing now: a transaction committed during
    /// that (by layout or drawing code the commit runs) leaves its changes
    /// to the next commit instead of starting one inside this one, as Core
    /// Animation does.
    static var isCommittingHosts = false

    static func commitToHosts() {
        guard !dirtyHosts.isEmpty, !isCommittingHosts else { return }
        isCommittingHosts = true
        defer { isCommittingHosts = false }
        let hosts = dirtyHosts.values
        dirtyHosts.removeAll()
        for host in hosts { host.commit() }
    }
}

/// The animations of one transaction with a completion block, counted down as
/// they finish.
@MainActor
final class CompletionGroup {
    var block: (@MainActor () -> Void)?
    var pending = 0
    var sealed = false

    init(block: @escaping @MainActor () -> Void) { self.block = block }

    func add() { pending += 1 }

    func finishOne() {
        pending -= 1
        fireIfDone()
    }

    func seal() {
        sealed = true
        fireIfDone()
    }

    private func fireIfDone() {
        guard sealed, pending <= 0, let b = block else { return }
        block = nil
        b()
    }
}
