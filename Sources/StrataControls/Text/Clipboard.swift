/// Where copied text goes and pasted text comes from: the window system's
/// clipboard (X11's `CLIPBOARD` selection, Wayland's data device), or
/// `LocalClipboard` within the process.
///
/// Reading is asynchronous, as on X11 and Wayland, where the text comes
/// from another program: `readString` calls back on the main actor, with
/// nil when there is no text.
@MainActor
public protocol Clipboard: AnyObject {
    /// Puts `string` on the clipboard (`primary`: X11's `PRIMARY`
    /// selection, what selecting text sets and a middle click pastes).
    func writeString(_ string: String, primary: Bool)
    /// Asks for the clipboard's text (or the primary selection's).
    func readString(primary: Bool, _ done: @escaping @MainActor (String?) -> Void)
}

/// A clipboard inside the process: what a dispatcher uses until a window
/// gives it the system's.
@MainActor
public final class LocalClipboard: Clipboard {
    private var clipboard: String?
    private var primary: String?

    public init() {}

    public func writeString(_ string: String, primary: Bool) {
        if primary { self.primary = string } else { clipboard = string }
    }

    public func readString(primary: Bool, _ done: @escaping @MainActor (String?) -> Void) {
        done(primary ? self.primary : clipboard)
    }
}
