internal import CWaylandClient
internal import CWaylandProtocols
import StrataControls
import StrataGraphics
import StrataLayers

/// The pointer's state between the events of one `wl_pointer.frame`.
struct PointerFrame {
    /// Where the pointer is, in surface coordinates (points).
    var location = Point(x: 0, y: 0)
    /// The buttons held, by Linux button code.
    var held: Set<UInt32> = []
    /// Scroll gathered since the last frame: continuous values (surface
    /// units) and wheel steps, per axis (0 vertical, 1 horizontal).
    var value: (vertical: Double, horizontal: Double) = (0, 0)
    var steps: (vertical: Double, horizontal: Double) = (0, 0)
    /// What is scrolling (wl_pointer.axis_source): 0 wheel, 1 finger,
    /// 2 continuous, 3 wheel tilt; nil when the compositor did not say.
    var source: UInt32?
    /// An axis_stop came: the fingers lifted.
    var stopped = false
    /// A finger or continuous scroll is under way (its `began` was sent).
    var scrolling = false
    /// Events of this frame, sent at its `frame` (or at once for a
    /// compositor before wl_pointer version 5, which has no frames).
    var pending: [InputEvent] = []
}

extension WaylandWindow {
    /// Linux's button codes (input-event-codes.h).
    static let leftButton: UInt32 = 0x110, rightButton: UInt32 = 0x111, middleButton: UInt32 = 0x112

    /// Asks the seat for its pointer, keyboard and touch screen as it
    /// has them, and lets them go when it no longer does.
    func wireSeat() {
        guard let seat = connection.seat else { return }
        seat.onEvent = { [unowned self] opcode, args in
            // capabilities: 1 pointer, 2 keyboard, 4 touch.
            guard opcode == 0 else { return }
            let caps = args.uint(0)
            self.pointer = Self.seatDevice(
                self.pointer, present: caps & 1 != 0, seat: seat, request: 0, interface: strata_wl_pointer_interface()
            ) { [unowned self] opcode, args in self.pointerEvent(opcode, args) }
            if caps & 2 == 0 { self.keyboard.leave() }
            self.keyboardObject = Self.seatDevice(
                self.keyboardObject, present: caps & 2 != 0, seat: seat, request: 1, interface: strata_wl_keyboard_interface()
            ) { [unowned self] opcode, args in self.keyboardEvent(opcode, args) }
            self.touch = Self.seatDevice(
                self.touch, present: caps & 4 != 0, seat: seat, request: 2, interface: strata_wl_touch_interface()
            ) { [unowned self] opcode, args in self.touchEvent(opcode, args) }
        }
    }

    /// The seat's device `current` as the seat's capabilities say: made
    /// with the seat's request `opcode` when `present` and not made yet,
    /// its events to `events`; released when not `present`.
    static func seatDevice(
        _ current: WaylandObject?, present: Bool, seat: WaylandObject, request opcode: UInt32,
        interface: UnsafePointer<wl_interface>, events: @escaping (UInt32, UnsafeMutablePointer<wl_argument>) -> Void
    ) -> WaylandObject? {
        guard present else {
            current.map(release)
            return nil
        }
        guard current == nil, let made = seat.send(opcode, [.newID], creating: interface) else { return current }
        let device = WaylandObject(made)
        device.onEvent = events
        return device
    }

    /// Lets a seat device go: its `release` request (opcode 0, from
    /// version 3), else the proxy alone.
    static func release(_ device: WaylandObject) { device.destroy(request: device.version >= 3 ? 0 : nil) }

    func pointerEvent(_ opcode: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        let now = host.clock.now
        // The pointer over libdecor's title bar and borders (its own
        // surfaces) is libdecor's: only the content's events go on.
        if opcode != 0 && opcode != 5 && !pointerIsOnContent { return }
        switch opcode {
        case 0:  // enter(serial, surface, x, y)
            pointerIsOnContent = args.object(1) == surface.proxy
            guard pointerIsOnContent else { return }
            pointerEnterSerial = args.uint(0)
            pointerState.location = Point(x: args.fixed(2), y: args.fixed(3))
            cursors.reset()
            updateCursor()
        case 1:  // leave: a press under way is taken away.
            guard pointerIsOnContent, args.object(1) == nil || args.object(1) == surface.proxy else { return }
            pointerIsOnContent = false
            if let button = pointerState.held.min() {
                pointerState.pending.append(
                    .pointer(PointerEvent(.cancelled, at: pointerState.location, button: Self.button(button), timestamp: now)))
            }
            pointerState.held.removeAll()
        case 2:  // motion(time, x, y)
            pointerState.location = Point(x: args.fixed(1), y: args.fixed(2))
            updateCursor()
            if let button = pointerState.held.min() {
                pointerState.pending.append(
                    .pointer(PointerEvent(.moved, at: pointerState.location, button: Self.button(button), timestamp: now)))
            }
        case 3:  // button(serial, time, button, state)
            inputSerial = args.uint(0)
            let code = args.uint(2), down = args.uint(3) == 1
            if down { pointerState.held.insert(code) } else { pointerState.held.remove(code) }
            pointerState.pending.append(
                .pointer(PointerEvent(down ? .down : .up, at: pointerState.location, button: Self.button(code), timestamp: now)))
        case 4:  // axis(time, axis, value)
            if args.uint(1) == 0 { pointerState.value.vertical += args.fixed(2) } else { pointerState.value.horizontal += args.fixed(2) }
        case 6:  // axis_source
            pointerState.source = args.uint(0)
        case 7:  // axis_stop
            pointerState.stopped = true
        case 8:  // axis_discrete(axis, discrete)
            if args.uint(0) == 0 {
                pointerState.steps.vertical += Double(args.int(1))
            } else {
                pointerState.steps.horizontal += Double(args.int(1))
            }
        default:
            break
        }
        // Before version 5 there are no frames: each event stands alone.
        if opcode == 5 || (pointer?.version ?? 5) < 5 { endPointerFrame(at: now) }
    }

    /// Shows the shape the view under the pointer asks for.
    func updateCursor() {
        guard pointerIsOnContent else { return }
        let wanted = rootView?.resolvedCursor(at: pointerState.location) ?? .arrow
        if wanted != cursors.shown { setCursor(wanted) }
    }

    /// Shows `cursor` while the pointer is over the window's content.
    public func setCursor(_ cursor: Cursor) {
        guard isOpen else { return }
        self.cursor = cursor
        guard pointerIsOnContent, let pointer else { return }
        cursors.show(cursor, pointer: pointer, serial: pointerEnterSerial, scale: scale)
    }

    /// Sends what one pointer frame gathered: buttons and motion as they
    /// came, then one scroll event for the frame's axes.
    func endPointerFrame(at now: Double) {
        var events = pointerState.pending
        pointerState.pending.removeAll()
        let location = pointerState.location
        let value = pointerState.value, steps = pointerState.steps
        let hasSteps = steps.vertical != 0 || steps.horizontal != 0
        let hasScroll = value.vertical != 0 || value.horizontal != 0 || hasSteps
        let precise = pointerState.source == 1 || pointerState.source == 2
        if hasScroll && !precise {
            // A wheel: its steps (or its value in tens of units a step).
            let lines =
                hasSteps
                ? Size(width: steps.horizontal, height: steps.vertical)
                : Size(width: value.horizontal / 10, height: value.vertical / 10)
            events.append(.scroll(.wheel(lines: lines, at: location, timestamp: now)))
        } else if hasScroll {
            let phase: ScrollEvent.Phase = pointerState.scrolling ? .changed : .began
            pointerState.scrolling = true
            events.append(
                .scroll(.precise(Size(width: value.horizontal, height: value.vertical), phase: phase, at: location, timestamp: now)))
        }
        if pointerState.stopped && pointerState.scrolling {
            events.append(.scroll(.precise(Size(width: 0, height: 0), phase: .ended, at: location, timestamp: now)))
            pointerState.scrolling = false
        }
        pointerState.value = (0, 0)
        pointerState.steps = (0, 0)
        pointerState.source = nil
        pointerState.stopped = false
        for e in events { deliver(e) }
    }

    func keyboardEvent(_ opcode: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        switch opcode {
        case 0: keyboard.takeKeymap(format: args.uint(0), fd: args.fd(1), size: args.uint(2))
        case 1: inputSerial = args.uint(0)  // enter(serial, surface, keys)
        case 2: keyboard.leave()
        case 3:  // key(serial, time, key, state)
            inputSerial = args.uint(0)
            keyboard.key(args.uint(2), down: args.uint(3) == 1)
        case 4: keyboard.updateModifiers(depressed: args.uint(1), latched: args.uint(2), locked: args.uint(3), group: args.uint(4))
        case 5: keyboard.setRepeat(rate: args.int(0), delay: args.int(1))
        default: break
        }
    }

    /// A touch screen's events as pointer events with their touch's id.
    /// The first finger down is the pointer until it lifts: the views see
    /// it go down, move and up (or be cancelled by the compositor); fingers
    /// that come down while it is held are not sent on yet.
    func touchEvent(_ opcode: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        let now = host.clock.now
        switch opcode {
        case 0:  // down(serial, time, surface, id, x, y)
            inputSerial = args.uint(0)
            guard activeTouch == nil else { return }
            let id = Int(args.int(3))
            activeTouch = id
            touchLocation = Point(x: args.fixed(4), y: args.fixed(5))
            deliver(.pointer(PointerEvent(.down, at: touchLocation, timestamp: now, touchID: id)))
        case 1:  // up(serial, time, id)
            guard let id = activeTouch, Int(args.int(2)) == id else { return }
            activeTouch = nil
            deliver(.pointer(PointerEvent(.up, at: touchLocation, timestamp: now, touchID: id)))
        case 2:  // motion(time, id, x, y)
            guard let id = activeTouch, Int(args.int(1)) == id else { return }
            touchLocation = Point(x: args.fixed(2), y: args.fixed(3))
            deliver(.pointer(PointerEvent(.moved, at: touchLocation, timestamp: now, touchID: id)))
        case 4:  // cancel: the compositor took the touches (a gesture of its own).
            guard let id = activeTouch else { return }
            activeTouch = nil
            deliver(.pointer(PointerEvent(.cancelled, at: touchLocation, timestamp: now, touchID: id)))
        default:
            break
        }
    }

    static func button(_ code: UInt32) -> PointerButton {
        switch code {
        case leftButton: .primary
        case rightButton: .secondary
        case middleButton: .middle
        default: .other(Int(code))
        }
    }

    func deliver(_ event: InputEvent) {
        inputCount += 1
        if framePresented != nil { eventsSinceFrame.append(host.clock.now) }
        if let eventObserver, !eventObserver(event) { return }
        dispatcher?.send(event)
        // The caret may have moved: the input method hears where.
        textInput?.update()
        scheduleFrame()
    }
}
