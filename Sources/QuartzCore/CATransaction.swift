internal import StrataLayers

/// Groups layer changes and sets how they animate (`CATransaction`), over
/// Strata's transactions.
@MainActor
public enum CATransaction {
    public static func begin() { Transaction.begin() }
    public static func commit() { Transaction.commit() }
    public static func flush() { Transaction.flush() }

    public static func disableActions() -> Bool { Transaction.disableActions }
    public static func setDisableActions(_ flag: Bool) { Transaction.disableActions = flag }

    public static func animationDuration() -> CFTimeInterval { Transaction.animationDuration }
    public static func setAnimationDuration(_ duration: CFTimeInterval) { Transaction.animationDuration = duration }

    /// Called when the transaction's animations have finished.
    public static func setCompletionBlock(_ block: (@MainActor () -> Void)?) {
        guard let block else { return }
        Transaction.setCompletionBlock(block)
    }
}

/// Seconds, as Core Foundation counts them.
public typealias CFTimeInterval = Double
