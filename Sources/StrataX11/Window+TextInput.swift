internal import CX11
import Foundation
import StrataAccessibility
import StrataControls
import StrataGraphics

// Input methods through XIM: Xlib's protocol to ibus, fcitx and the other
// input method servers. The pre-edit is drawn by the window (on-the-spot):
// the server reports its composition through callbacks, and the focused
// text client (a `TextField`) shows it underlined at its caret; commits
// arrive as key presses of keycode 0 with their text. The server places
// its candidate window at the spot the window gives it, under the caret.
extension Window {
    /// Opens the input method and an input context on the window, with
    /// pre-edit callbacks when the method offers them.
    ///
    /// Xlib decodes an input method's text in the process's character
    /// locale and picks a server for its language: a process still in the
    /// "C" locale (Swift programs are, until they call `setlocale`) has its
    /// `LC_CTYPE` set from the environment, and to C.UTF-8 where that is
    /// not UTF-8. Only `LC_CTYPE` changes.
    func openInputMethod() {
        Self.useUTF8Characters()
        guard XSupportsLocale() != 0 else { return }
        XSetLocaleModifiers(inputMethodModifiers ?? "")
        guard let im = XOpenIM(display, nil, nil, nil) else { return }
        inputMethod = im
        if strata_x_im_supports_style(im, UInt(XIMPreeditCallbacks | XIMStatusNothing)) != 0 {
            let target = UnsafeMutablePointer<strata_preedit_target>.allocate(capacity: 1)
            target.initialize(to: strata_preedit_target())
            // Unretained: the context (and so its callbacks) goes before the window.
            target.pointee.context = Unmanaged.passUnretained(self).toOpaque()
            target.pointee.report = { context, kind, caret, first, length, text in
                guard let context else { return }
                let window = Unmanaged<Window>.fromOpaque(context).takeUnretainedValue()
                let changed = text.map { String(cString: $0) }
                MainActor.assumeIsolated {
                    window.preeditChanged(kind: Int(kind), caret: Int(caret), first: Int(first), length: Int(length), text: changed)
                }
            }
            if let ic = strata_x_create_ic_preedit_callbacks(im, xWindow, target) {
                inputContext = ic
                preeditTarget = target
            } else {
                target.deallocate()
            }
        }
        if inputContext == nil { inputContext = strata_x_create_ic(im, xWindow) }
        guard let ic = inputContext else { return }
        // The events the input method needs, besides the window's own.
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, xWindow, &attributes)
        XSelectInput(display, xWindow, attributes.your_event_mask | strata_x_ic_filter_events(ic))
    }

    /// Whether the window's input context draws its pre-edit through the
    /// window (on-the-spot), as with ibus and fcitx.
    public var drawsInputMethodPreedit: Bool { preeditTarget != nil && inputContext != nil }

    static func useUTF8Characters() {
        let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        guard current == "C" || current == "POSIX" else { return }
        let chosen = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? ""
        let isUTF8 = chosen.lowercased().replacingOccurrences(of: "-", with: "").contains("utf8")
        if !isUTF8 { setlocale(LC_CTYPE, "C.UTF-8") }
    }

    /// A change the input method reports in its composition.
    func preeditChanged(kind: Int, caret: Int, first: Int, length: Int, text: String?) {
        switch kind {
        case 0:
            preedit = []
            preeditCaret = 0
            return
        case 1:
            // Done: the composition ended (a commit follows as a key press).
            guard !preedit.isEmpty else { return }
            preedit = []
            preeditCaret = 0
        case 2:
            let lower = min(max(first, 0), preedit.count)
            let upper = min(max(lower + max(length, 0), lower), preedit.count)
            preedit.replaceSubrange(lower..<upper, with: Array((text ?? "").unicodeScalars))
            preeditCaret = min(max(caret, 0), preedit.count)
        default:
            preeditCaret = min(max(caret, 0), preedit.count)
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: preedit)
        let string = String(scalars)
        // The caret, from characters as XIM counts them (code points) to
        // characters as Swift does.
        var head = String.UnicodeScalarView()
        head.append(contentsOf: preedit[..<preeditCaret])
        dispatcher?.sendTextInput(.preedit(string, caret: String(head).count))
        updateInputMethodSpot()
    }

    /// Gives the input context focus while a text client has keyboard
    /// focus, and takes it (dropping any composition) otherwise, so that
    /// an input method never takes keys meant for other views.
    func updateInputContextFocus() {
        guard let ic = inputContext else { return }
        let wants = dispatcher?.firstResponder is any TextInputClient
        guard wants != inputContextFocused else { return }
        inputContextFocused = wants
        if wants {
            XSetICFocus(ic)
            inputMethodSpot = nil
            updateInputMethodSpot()
        } else {
            XUnsetICFocus(ic)
            strata_x_reset_ic(ic)
            preedit = []
        }
    }

    /// Tells the input method where the focused client's caret is, when
    /// it moved: its candidate window opens under it.
    func updateInputMethodSpot() {
        guard let ic = inputContext, inputContextFocused, let caret = dispatcher?.textInputCaret else { return }
        // Window pixels as XPoint holds them: numbers beyond its range are held, others dropped.
        func pixel(_ v: Double) -> Int16? { v.isFinite ? Int16(max(-32768, min(32767, (v * scale).rounded()))) : nil }
        guard let x = pixel(caret.minX), let y = pixel(caret.maxY) else { return }
        guard inputMethodSpot.map({ $0.x != x || $0.y != y }) ?? true else { return }
        inputMethodSpot = (x, y)
        strata_x_set_ic_spot(ic, x, y)
    }
}

// Accessibility: the window's views on the desktop's accessibility bus,
// when assistive technology is on.
extension Window {
    /// Whether assistive technology was on when the first window looked
    /// (asked once: a D-Bus round trip).
    @MainActor static let assistiveTechnologyIsOn = AccessibilityBridge.isEnabled()

    /// Shows the root view to assistive tools, when they are on.
    func startAccessibility() {
        accessibilityBridge?.close()
        accessibilityBridge = nil
        guard let rootView, Self.assistiveTechnologyIsOn else { return }
        do {
            let bridge = try AccessibilityBridge(rootView: rootView, name: title)
            bridge.screenGeometry = { [weak self] in
                guard let self else { return (Point(x: 0, y: 0), 1) }
                let o = self.screenOrigin
                return (Point(x: Double(o.x), y: Double(o.y)), self.scale)
            }
            accessibilityBridge = bridge
            AccessibilityCenter.isScreenReaderRunning = true
        } catch {
            // Assistive tools are on but their bus is not answering: the
            // window works without them, and says why once.
            FileHandle.standardError.write(Data("strata: accessibility is off: \(error)\n".utf8))
        }
    }
}
