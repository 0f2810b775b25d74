internal import CX11
import Foundation
import StrataControls

/// The X11 clipboard: the `CLIPBOARD` selection (copy and paste) and the
/// `PRIMARY` selection (what is selected, pasted with the middle button),
/// served and asked for through the window, as every X client does (ICCCM).
///
/// Copying makes the window the selection's owner and keeps the text; the
/// server sends other programs' requests to it, answered in UTF-8
/// (`UTF8_STRING`, and `STRING`/`TEXT` for old programs) with `TARGETS`
/// listing them. Pasting asks the owner to convert the selection to
/// `UTF8_STRING` onto a property of the window, read when the server says
/// it is there; a paste no program answers within a second gives nil.
/// Text larger than the server takes in one request (its maximum request
/// size: 16 MB with BIG-REQUESTS, 256 KB without) is refused to the asking
/// program rather than sent in increments (INCR): it pastes nothing.
@MainActor
final class X11Clipboard: Clipboard {
    private weak var owner: Window?
    /// The text this window owns, by selection atom.
    private var owned: [Atom: String] = [:]
    /// How long a paste waits for the owner's answer, in seconds.
    var answerTimeout: Double = 1
    /// Pastes waiting for the owner's answer, by selection atom.
    private var waiting: [Atom: [(deadline: Double, done: @MainActor (String?) -> Void)]] = [:]
    private let clipboardAtom: Atom, primaryAtom: Atom, utf8: Atom, targets: Atom, text: Atom, property: Atom

    init(window: Window) {
        owner = window
        let d = window.display
        clipboardAtom = XInternAtom(d, "CLIPBOARD", 0)
        primaryAtom = Atom(XA_PRIMARY)
        utf8 = XInternAtom(d, "UTF8_STRING", 0)
        targets = XInternAtom(d, "TARGETS", 0)
        text = XInternAtom(d, "TEXT", 0)
        property = XInternAtom(d, "STRATA_SELECTION", 0)
    }

    private func atom(primary: Bool) -> Atom { primary ? primaryAtom : clipboardAtom }

    func writeString(_ string: String, primary: Bool) {
        guard let window = owner, window.isOpen else { return }
        let selection = atom(primary: primary)
        owned[selection] = string
        XSetSelectionOwner(window.display, selection, window.xWindow, UInt(CurrentTime))
        // Another program may have taken it at once: then it is not ours.
        if XGetSelectionOwner(window.display, selection) != window.xWindow { owned[selection] = nil }
        XFlush(window.display)
    }

    func readString(primary: Bool, _ done: @escaping @MainActor (String?) -> Void) {
        guard let window = owner, window.isOpen else { return done(nil) }
        let selection = atom(primary: primary)
        // Ours: no round trip.
        if let mine = owned[selection], XGetSelectionOwner(window.display, selection) == window.xWindow { return done(mine) }
        guard XGetSelectionOwner(window.display, selection) != 0 else { return done(nil) }
        waiting[selection, default: []].append((window.host.clock.now + answerTimeout, done))
        XConvertSelection(window.display, selection, utf8, property, window.xWindow, UInt(CurrentTime))
        XFlush(window.display)
        DispatchQueue.main.asyncAfter(deadline: .now() + answerTimeout + 0.05) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, let window = self.owner, window.isOpen else { return }
                self.expire(at: window.host.clock.now)
            }
        }
    }

    /// Gives up on pastes no program answered in time.
    func expire(at now: Double) {
        for (selection, list) in waiting {
            let (late, pending) = (list.filter { $0.deadline <= now }, list.filter { $0.deadline > now })
            waiting[selection] = pending.isEmpty ? nil : pending
            for w in late { w.done(nil) }
        }
    }

    /// Whether pastes are waiting for an answer.
    var isWaiting: Bool { !waiting.isEmpty }

    /// Handles the selection events; returns whether `event` was one.
    func handle(_ event: inout XEvent) -> Bool {
        switch event.type {
        case SelectionRequest:
            answer(event.xselectionrequest)
            return true
        case SelectionClear:
            owned[event.xselectionclear.selection] = nil
            return true
        case SelectionNotify:
            received(event.xselection)
            return true
        default:
            return false
        }
    }

    /// Another program asks for a selection this window owns.
    private func answer(_ request: XSelectionRequestEvent) {
        guard let window = owner else { return }
        let d = window.display
        var reply = XEvent()
        reply.xselection.type = SelectionNotify
        reply.xselection.display = request.display
        reply.xselection.requestor = request.requestor
        reply.xselection.selection = request.selection
        reply.xselection.target = request.target
        reply.xselection.time = request.time
        // Old clients name no property: the target's name is the property.
        let destination = request.property != 0 ? request.property : request.target
        reply.xselection.property = 0
        if let string = owned[request.selection] {
            if request.target == targets {
                var list: [Atom] = [targets, utf8, Atom(XA_STRING), text]
                let count = Int32(list.count)
                list.withUnsafeMutableBytes { b in
                    _ = XChangeProperty(
                        d, request.requestor, destination, Atom(XA_ATOM), 32, PropModeReplace, b.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        count)
                }
                reply.xselection.property = destination
            } else if request.target == utf8 || request.target == text || request.target == Atom(XA_STRING) {
                // STRING is Latin-1: characters outside it become "?".
                let bytes: [UInt8] =
                    request.target == Atom(XA_STRING)
                    ? string.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : 0x3F } : Array(string.utf8)
                // The request size is counted in 4-byte units; room is left for the request's header.
                let units = XExtendedMaxRequestSize(d) > 0 ? XExtendedMaxRequestSize(d) : XMaxRequestSize(d)
                let limit = max(0, Int(units) * 4 - 1024)
                if bytes.count <= limit {
                    let type = request.target == Atom(XA_STRING) ? Atom(XA_STRING) : utf8
                    bytes.withUnsafeBufferPointer { b in
                        _ = XChangeProperty(d, request.requestor, destination, type, 8, PropModeReplace, b.baseAddress, Int32(b.count))
                    }
                    reply.xselection.property = destination
                }
            }
        }
        XSendEvent(d, request.requestor, 0, 0, &reply)
        XFlush(d)
    }

    /// The owner answered a paste this window asked for.
    private func received(_ notify: XSelectionEvent) {
        guard let window = owner, let list = waiting.removeValue(forKey: notify.selection) else { return }
        var result: String?
        if notify.property != 0 {
            var type: Atom = 0
            var format: Int32 = 0
            var count: UInt = 0, after: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let ok = XGetWindowProperty(
                window.display, window.xWindow, notify.property, 0, 1 << 24, 1, Atom(AnyPropertyType), &type, &format, &count, &after, &data)
            if ok == Success, let data, format == 8 {
                let bytes = UnsafeBufferPointer(start: data, count: Int(count))
                result =
                    type == Atom(XA_STRING)
                    ? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) : String(decoding: bytes, as: UTF8.self)
            }
            if let data { XFree(data) }
        }
        for w in list { w.done(result) }
    }
}
