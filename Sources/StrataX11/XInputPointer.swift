internal import CX11
import StrataControls

/// The pointer through XInput 2 (2.1 and later), when the server has it:
/// buttons, motion and smooth scrolling from the devices' scroll
/// valuators. The server makes wheel-button presses up from smooth
/// scrolling, and smooth scrolling up from wheel buttons, for clients that
/// want the other form; its copies carry the `XIPointerEmulated` flag
/// (which core events do not), so each turn is taken once, in its real form.
///
/// X's smooth scrolling has no phases: a scroll after a pause of
/// `gestureGap` seconds begins a gesture, later ones change it, and the
/// window ends it when `gestureGap` passes without one (`endIfIdle`).
final class XInputPointer {
    let opcode: Int32
    /// Scroll valuators by device: valuator number → (vertical?, increment).
    private var scrollClasses: [Int32: [Int32: (vertical: Bool, increment: Double)]] = [:]
    /// The last value of each scroll valuator, by device and number.
    private var lastValues: [Int32: [Int32: Double]] = [:]
    private(set) var lastScrollTime: Double?
    static let gestureGap = 0.15

    enum Event {
        case button(number: UInt32, down: Bool, x: Double, y: Double, state: UInt32, time: UInt, emulated: Bool)
        case motion(x: Double, y: Double, state: UInt32, time: UInt)
        /// Lines scrolled (fractions of a wheel step).
        case scroll(dx: Double, dy: Double, x: Double, y: Double, state: UInt32, time: UInt)
    }

    /// Selects XInput 2 pointer events on `window`, or returns nil when the
    /// server has no XInput 2.1.
    init?(display: OpaquePointer, window: CX11.Window) {
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &opcode, &event, &error) != 0 else { return nil }
        var major: Int32 = 2, minor: Int32 = 2
        guard XIQueryVersion(display, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 1) else { return nil }
        self.opcode = opcode
        var bits = [UInt8](repeating: 0, count: 4)
        for e in [XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_DeviceChanged] { strata_xi_set_mask(&bits, e) }
        bits.withUnsafeMutableBufferPointer { b in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(b.count), mask: b.baseAddress)
            _ = XISelectEvents(display, window, &mask, 1)
        }
        readScrollClasses(display)
    }

    /// The scroll valuators of every device.
    private func readScrollClasses(_ display: OpaquePointer) {
        scrollClasses.removeAll()
        lastValues.removeAll()
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return }
        defer { XIFreeDeviceInfo(devices) }
        for i in 0..<Int(count) {
            let device = devices[i]
            var classes: [Int32: (Bool, Double)] = [:]
            for c in 0..<Int(device.num_classes) {
                guard let info = device.classes[c], info.pointee.type == XIScrollClass else { continue }
                let scroll = UnsafeMutableRawPointer(info).assumingMemoryBound(to: XIScrollClassInfo.self).pointee
                let increment = scroll.increment != 0 && scroll.increment.isFinite ? scroll.increment : 1
                classes[scroll.number] = (scroll.scroll_type == XIScrollTypeVertical, increment)
            }
            if !classes.isEmpty { scrollClasses[device.deviceid] = classes }
        }
    }

    /// Turns an XInput 2 event into the pointer's event, or nil (another
    /// extension's event, or nothing to report).
    func handle(_ event: inout XEvent, display: OpaquePointer) -> Event? {
        guard event.xcookie.extension == opcode, XGetEventData(display, &event.xcookie) != 0 else { return nil }
        defer { XFreeEventData(display, &event.xcookie) }
        let type = event.xcookie.evtype
        if type == XI_DeviceChanged {
            readScrollClasses(display)
            return nil
        }
        guard let data = event.xcookie.data else { return nil }
        let e = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
        let state = UInt32(bitPattern: e.mods.effective) | buttonState(e.buttons)
        switch type {
        case XI_ButtonPress, XI_ButtonRelease:
            return .button(
                number: UInt32(e.detail), down: type == XI_ButtonPress, x: e.event_x, y: e.event_y, state: state, time: e.time,
                emulated: e.flags & XIPointerEmulated != 0)
        case XI_Motion:
            if let (dx, dy) = scrollDelta(e) {
                // Each turn has one real form: smooth motion from a device
                // with scroll valuators, or a wheel button from one without;
                // the server's copies of either (flagged) are dropped.
                if dx != 0 || dy != 0, e.flags & XIPointerEmulated == 0 {
                    return .scroll(dx: dx, dy: dy, x: e.event_x, y: e.event_y, state: state, time: e.time)
                }
                return nil
            }
            return .motion(x: e.event_x, y: e.event_y, state: state, time: e.time)
        default:
            return nil
        }
    }

    /// The core button mask (Button1Mask …) of an XInput 2 button state.
    private func buttonState(_ b: XIButtonState) -> UInt32 {
        guard let mask = b.mask, b.mask_len > 0 else { return 0 }
        var state: UInt32 = 0
        for button in 1...5 where button / 8 < Int(b.mask_len) && strata_xi_mask_is_set(mask, Int32(button)) != 0 {
            state |= UInt32(Button1Mask) << UInt32(button - 1)
        }
        return state
    }

    /// How far the event's scroll valuators moved, in wheel steps; nil when
    /// it moved none of them (a plain motion).
    private func scrollDelta(_ e: XIDeviceEvent) -> (Double, Double)? {
        guard let classes = scrollClasses[e.sourceid] ?? scrollClasses[e.deviceid], let mask = e.valuators.mask,
            let values = e.valuators.values
        else { return nil }
        var dx = 0.0, dy = 0.0, touched = false
        var index = 0
        let key = scrollClasses[e.sourceid] != nil ? e.sourceid : e.deviceid
        for bit in 0..<(Int(e.valuators.mask_len) * 8) where strata_xi_mask_is_set(mask, Int32(bit)) != 0 {
            let value = values[index]
            index += 1
            guard let c = classes[Int32(bit)] else { continue }
            touched = true
            let last = lastValues[key]?[Int32(bit)]
            lastValues[key, default: [:]][Int32(bit)] = value
            // The first value after a device change is a position, not a move.
            guard let last, value.isFinite else { continue }
            let steps = (value - last) / c.increment
            guard steps.isFinite, abs(steps) < 1000 else { continue }
            if c.vertical { dy += steps } else { dx += steps }
        }
        return touched ? (dx, dy) : nil
    }

    /// The phase for a scroll at host time `t`, and notes it.
    func phase(at t: Double) -> ScrollEvent.Phase {
        let began = lastScrollTime.map { t - $0 > XInputPointer.gestureGap } ?? true
        lastScrollTime = t
        return began ? .began : .changed
    }

    /// Whether a scroll gesture is open and `gestureGap` has passed since
    /// its last scroll at host time `now`: then it is over (forgotten here).
    func endIfIdle(at now: Double) -> Bool {
        guard let last = lastScrollTime, now - last > XInputPointer.gestureGap else { return false }
        lastScrollTime = nil
        return true
    }

    var isScrolling: Bool { lastScrollTime != nil }
}
