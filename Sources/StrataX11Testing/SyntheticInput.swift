internal import CX11
internal import CXTest
import Foundation

/// Pointer, wheel and key input made up with XTest, through a connection
/// of its own, as a real device's would arrive: what the window tests and
/// the latency benchmark drive windows with.
public final class SyntheticInput {
    private let display: OpaquePointer
    private let screen: Int32

    /// Connects to `display`; throws when it cannot be opened or has no XTest.
    public init(display name: String) throws {
        guard let d = XOpenDisplay(name) else { throw VirtualDisplayError.failed("cannot open \(name)") }
        var event: Int32 = 0, error: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XTestQueryExtension(d, &event, &error, &major, &minor) != 0 else {
            XCloseDisplay(d)
            throw VirtualDisplayError.failed("\(name) has no XTest")
        }
        display = d
        screen = strata_x_default_screen(d)
    }

    deinit { XCloseDisplay(display) }

    /// Moves the pointer to screen pixel (`x`, `y`).
    public func move(toX x: Int, y: Int) {
        XTestFakeMotionEvent(display, screen, Int32(x), Int32(y), 0)
        XFlush(display)
    }

    /// Presses (or releases) pointer button `button` (1 left, 2 middle, 3
    /// right, 4/5 wheel up/down, 6/7 left/right).
    public func button(_ button: Int, down: Bool) {
        XTestFakeButtonEvent(display, UInt32(button), down ? 1 : 0, 0)
        XFlush(display)
    }

    /// Turns the wheel `steps` notches (positive: toward the user, content down).
    public func wheel(_ steps: Int, horizontal: Bool = false) {
        let b = horizontal ? (steps > 0 ? 7 : 6) : (steps > 0 ? 5 : 4)
        for _ in 0..<abs(steps) {
            button(b, down: true)
            button(b, down: false)
        }
    }

    /// Presses (or releases) the key that types keysym `keysym` (X's
    /// `XK_` values: 0xFF51 left, 0x61 "a").
    public func key(_ keysym: UInt, down: Bool) {
        let code = XKeysymToKeycode(display, KeySym(keysym))
        guard code != 0 else { return }
        XTestFakeKeyEvent(display, UInt32(code), down ? 1 : 0, 0)
        XFlush(display)
    }

    /// Sends the window manager's close request (`WM_DELETE_WINDOW`) to
    /// window `id`, as the close button of a title bar does.
    public func requestClose(window id: UInt) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = CX11.Window(id)
        event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(XInternAtom(display, "WM_DELETE_WINDOW", 0))
        event.xclient.data.l.1 = Int(CurrentTime)
        XSendEvent(display, CX11.Window(id), 0, 0, &event)
        XFlush(display)
    }

    /// Waits until the server has handled everything sent.
    public func sync() { XSync(display, 0) }
}
