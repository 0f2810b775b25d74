internal import CX11
import Dispatch
import Foundation
import StrataControls
import StrataGraphics
import StrataLayers

// X11 events translated into Strata's input: pointer and XInput 2 smooth
// scrolling, keys through the input method, focus, exposure, resizes and the
// close message, each delivered to the root view's dispatcher.
extension Window {
    // MARK: Events

    /// Reads every event the server has sent and handles it: input goes to
    /// the root view's dispatcher, sizes and exposures to the frame, the
    /// close message to `close()`. Returns how many events were handled.
    @discardableResult
    public func processEvents() -> Int {
        guard isOpen else { return 0 }
        var count = 0
        var event = XEvent()
        while isOpen, !connectionLost, XPending(display) > 0 {
            XNextEvent(display, &event)
            count += 1
            handle(&event)
        }
        if connectionLost { close() }
        if count > 0 { updateInputMethodSpot() }
        return count
    }

    func handle(_ event: inout XEvent) {
        if presenter?.handle(&event) == true { return }
        if XFilterEvent(&event, 0) != 0 { return }
        if selections?.handle(&event) == true { return }
        switch event.type {
        case Expose:
            needsFullPresent = true
        case ConfigureNotify:
            let c = event.xconfigure
            let w = Int(c.width), h = Int(c.height)
            if w != host.width || h != host.height {
                pendingSize = (w, h, SystemClock.shared.now)
            } else {
                pendingSize = nil
            }
        case ClientMessage:
            let m = event.xclient
            if m.message_type == protocolsAtom, Atom(m.data.l.0) == deleteAtom {
                if shouldClose?() ?? true { close() }
            }
        case ButtonPress, ButtonRelease:
            let b = event.xbutton
            button(b.button, down: event.type == ButtonPress, at: point(Double(b.x), Double(b.y)), state: b.state, time: b.time)
        case MotionNotify:
            let m = event.xmotion
            motion(to: point(Double(m.x), Double(m.y)), state: m.state, time: m.time)
        case KeyPress, KeyRelease:
            key(&event, down: event.type == KeyPress)
        case GenericEvent:
            switch xinput?.handle(&event, display: display) {
            case .button(let number, let down, let x, let y, let state, let t, let emulated):
                // Wheel buttons the server made up from smooth scrolling.
                if emulated, (4...7).contains(number) { return }
                button(number, down: down, at: point(x, y), state: state, time: t)
            case .motion(let x, let y, let state, let t):
                motion(to: point(x, y), state: state, time: t)
            case .scroll(let dx, let dy, let x, let y, let state, let t):
                let location = point(x, y), when = time(t)
                guard let xinput else { return }
                let phase = xinput.phase(at: when)
                deliver(
                    .scroll(
                        ScrollEvent(
                            delta: Size(width: dx * ScrollEvent.pointsPerLine, height: dy * ScrollEvent.pointsPerLine),
                            lines: Size(width: dx, height: dy), isPrecise: true, phase: phase, location: location,
                            modifiers: modifiers(state), timestamp: when)))
                lastPointer = location
            case nil:
                break
            }
        case FocusIn:
            updateInputContextFocus()
        case FocusOut:
            keysDown.removeAll()
            if inputContextFocused, let ic = inputContext {
                XUnsetICFocus(ic)
                inputContextFocused = false
            }
        default:
            break
        }
    }

    func point(_ x: Double, _ y: Double) -> Point { Point(x: x / scale, y: y / scale) }

    func motion(to location: Point, state: UInt32, time server: UInt) {
        lastPointer = location
        updateCursor(at: location)
        guard state & UInt32(Button1Mask | Button2Mask | Button3Mask) != 0 else { return }
        deliver(
            .pointer(
                PointerEvent(.moved, at: location, button: heldButton(state), modifiers: modifiers(state), timestamp: time(server))))
    }

    /// Ends a smooth-scroll gesture that has had no scroll for a while.
    func endScrollGesture(at now: Double) {
        guard let xinput, xinput.endIfIdle(at: now) else { return }
        deliver(
            .scroll(
                ScrollEvent(
                    delta: Size(width: 0, height: 0), lines: Size(width: 0, height: 0), isPrecise: true, phase: .ended,
                    location: lastPointer, modifiers: [], timestamp: now)))
    }

    /// Server time (ms, wrapping at 2³²) on the host's clock: the first
    /// event anchors the two, later ones keep their spacing.
    func time(_ server: UInt) -> Double {
        let now = host.clock.now
        guard let anchor = timeAnchor else {
            timeAnchor = (server, now)
            return now
        }
        let elapsed = Double(UInt32(truncatingIfNeeded: server &- anchor.server)) / 1000
        let t = anchor.host + elapsed
        // Ahead of now (the anchor came late): re-anchor.
        if t > now + 0.001 || t < now - 10 {
            timeAnchor = (server, now)
            return now
        }
        return t
    }

    func modifiers(_ state: UInt32) -> KeyModifiers {
        var m: KeyModifiers = []
        if state & UInt32(ShiftMask) != 0 { m.insert(.shift) }
        if state & UInt32(ControlMask) != 0 { m.insert(.control) }
        if state & UInt32(Mod1Mask) != 0 { m.insert(.option) }
        if state & UInt32(Mod4Mask) != 0 { m.insert(.command) }
        if state & UInt32(LockMask) != 0 { m.insert(.capsLock) }
        return m
    }

    func heldButton(_ state: UInt32) -> PointerButton {
        state & UInt32(Button1Mask) != 0 ? .primary : state & UInt32(Button3Mask) != 0 ? .secondary : .middle
    }

    func button(_ number: UInt32, down: Bool, at location: Point, state: UInt32, time server: UInt) {
        lastPointer = location
        let t = time(server), m = modifiers(state)
        switch number {
        case 4, 5, 6, 7:
            // Wheel steps come as presses (releases are ignored).
            guard down else { return }
            let lines: Size
            switch number {
            case 4: lines = Size(width: 0, height: -1)
            case 5: lines = Size(width: 0, height: 1)
            case 6: lines = Size(width: -1, height: 0)
            default: lines = Size(width: 1, height: 0)
            }
            deliver(.scroll(.wheel(lines: lines, at: location, modifiers: m, timestamp: t)))
        default:
            let button: PointerButton =
                switch number {
                case 1: .primary
                case 2: .middle
                case 3: .secondary
                default: .other(Int(number))
                }
            deliver(.pointer(PointerEvent(down ? .down : .up, at: location, button: button, modifiers: m, timestamp: t)))
            updateCursor(at: location)
        }
    }

    func key(_ event: inout XEvent, down: Bool) {
        let k = event.xkey
        var keysym: KeySym = 0
        var text = ""
        if down {
            var buffer = [CChar](repeating: 0, count: 64)
            var status: Int32 = 0
            var n: Int32
            if let inputContext {
                n = Xutf8LookupString(inputContext, &event.xkey, &buffer, Int32(buffer.count - 1), &keysym, &status)
                if status == XBufferOverflow {
                    // A long commit: asked again with room for all of it.
                    buffer = [CChar](repeating: 0, count: Int(n) + 1)
                    n = Xutf8LookupString(inputContext, &event.xkey, &buffer, n, &keysym, &status)
                }
            } else {
                n = XLookupString(&event.xkey, &buffer, Int32(buffer.count - 1), &keysym, nil)
            }
            if n > 0 {
                text = String(decoding: buffer[0..<min(Int(n), buffer.count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            // An input method's commit: a press of no key, with its text.
            if k.keycode == 0 {
                guard !text.isEmpty else { return }
                if dispatcher?.sendTextInput(.commit(text)) == true {
                    inputCount += 1
                    return
                }
            }
        } else {
            keysym = XLookupKeysym(&event.xkey, 0)
        }
        let isRepeat = down && k.keycode != 0 && keysDown.contains(k.keycode)
        if down, k.keycode != 0 { keysDown.insert(k.keycode) } else { keysDown.remove(k.keycode) }
        // Control characters are not text.
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { text = "" }
        let key = Key(keysym: UInt32(truncatingIfNeeded: keysym), text: text)
        deliver(
            .key(KeyEvent(down ? .down : .up, key: key, characters: text, modifiers: modifiers(k.state), isRepeat: isRepeat, timestamp: time(k.time)))
        )
    }

    func deliver(_ event: InputEvent) {
        inputCount += 1
        if let eventObserver, !eventObserver(event) { return }
        eventsSinceFrame.append(event.timestamp)
        dispatcher?.send(event)
    }

    // MARK: Cursors

    func updateCursor(at location: Point) {
        guard let rootView else { return }
        setCursor(rootView.resolvedCursor(at: location))
    }

    /// Shows `cursor` over the window.
    public func setCursor(_ cursor: StrataControls.Cursor) {
        guard isOpen, cursor != self.cursor else { return }
        self.cursor = cursor
        let shape: UInt32 =
            switch cursor {
            case .arrow: UInt32(XC_left_ptr)
            case .pointingHand: UInt32(XC_hand2)
            case .iBeam: UInt32(XC_xterm)
            case .crosshair: UInt32(XC_crosshair)
            case .openHand: UInt32(XC_hand1)
            case .closedHand: UInt32(XC_fleur)
            case .resizeLeftRight: UInt32(XC_sb_h_double_arrow)
            case .resizeUpDown: UInt32(XC_sb_v_double_arrow)
            }
        let c = cursors[cursor] ?? XCreateFontCursor(display, shape)
        cursors[cursor] = c
        XDefineCursor(display, xWindow, c)
        XFlush(display)
    }
}
