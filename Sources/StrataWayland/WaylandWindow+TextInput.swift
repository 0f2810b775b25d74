import Foundation
import StrataAccessibility
import StrataControls
import StrataGraphics

// Input methods, the clipboard and accessibility on a Wayland window.
extension WaylandWindow {
    /// Makes the input-method relay and the clipboard on the seat, where
    /// the compositor offers them.
    func wireTextInputAndClipboard() {
        guard let seat = connection.seat else { return }
        if let manager = connection.textInputManager, let input = WaylandTextInput(manager: manager, seat: seat) {
            input.client = { [unowned self] in self.dispatcher?.firstResponder as? any TextInputClient }
            input.caret = { [unowned self] in self.dispatcher?.textInputCaret }
            input.deliver = { [unowned self] event in
                self.dispatcher?.sendTextInput(event)
                self.scheduleFrame()
            }
            textInput = input
        }
        if let board = WaylandClipboard(connection: connection, seat: seat) {
            board.serial = { [unowned self] in self.inputSerial }
            clipboard = board
        }
    }

    /// Whether the compositor relays input methods to the window
    /// (`text-input-unstable-v3`): sway, KWin, Mutter and the other
    /// desktops' compositors do; weston relays only its older protocol.
    public var hasInputMethodRelay: Bool { textInput != nil }

    /// Whether the views copy and paste through the compositor's
    /// clipboard (`wl_data_device`), and whether it has a primary
    /// selection too (`zwp_primary_selection_v1`).
    public var hasSystemClipboard: Bool { clipboard != nil }
    public var hasPrimarySelection: Bool { clipboard?.hasPrimarySelection ?? false }

    /// Whether assistive technology was on when the first window looked
    /// (asked once: a D-Bus round trip).
    @MainActor static let assistiveTechnologyIsOn = AccessibilityBridge.isEnabled()

    /// Shows the root view to assistive tools, when they are on. Wayland
    /// tells a window nothing of where it is on the screen: extents are
    /// the window's own coordinates, in points, as AT-SPI's window
    /// coordinates are read.
    func startAccessibility() {
        accessibilityBridge?.close()
        accessibilityBridge = nil
        guard let rootView, Self.assistiveTechnologyIsOn else { return }
        startAccessibility(sessionBus: nil, rootView: rootView)
    }

    /// The same on the session bus at `sessionBus` (tests).
    func startAccessibility(sessionBus: String?, rootView: View) {
        do {
            let bridge = try AccessibilityBridge(rootView: rootView, name: title, sessionBus: sessionBus)
            bridge.screenGeometry = { (Point(x: 0, y: 0), 1) }
            accessibilityBridge = bridge
            AccessibilityCenter.isScreenReaderRunning = true
        } catch {
            // Assistive tools are on but their bus is not answering: the
            // window works without them, and says why once.
            FileHandle.standardError.write(Data("strata: accessibility is off: \(error)\n".utf8))
        }
    }
}
