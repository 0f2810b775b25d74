import Testing

extension Tag {
    /// Takes seconds rather than milliseconds (fuzzing, large images, long
    /// paths, many rounds).
    @Tag public static var slow: Self
    /// Depends on how threads are scheduled, though not on the clock (a
    /// count or an order that a loaded machine could still upset): run it
    /// alone before suspecting the code.
    @Tag public static var timing: Self
}
