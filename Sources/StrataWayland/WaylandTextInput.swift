internal import CWaylandClient
internal import CWaylandProtocols
import StrataControls
import StrataGraphics

/// Input methods on Wayland (`text-input-unstable-v3`): the compositor
/// relays an input method's composition and commits to the window whose
/// surface has text-input focus, and the window tells it where the caret
/// is (for the candidate window), the text around it (for prediction)
/// and what kind of text it is (a password takes no suggestions).
///
/// The window enables text input while a text client (`TextInputClient`:
/// a `TextField`, a `TextView`) has keyboard focus and its surface has
/// text-input focus, and disables it otherwise. A `done` event applies
/// what came before it in the protocol's order: the composition is taken
/// away, surrounding text deleted, the commit typed, and the new
/// composition shown with its caret.
@MainActor
final class WaylandTextInput {
    private let object: WaylandObject
    /// The focused text client (the window's dispatcher's first responder).
    var client: () -> (any TextInputClient)?
    /// Hands the input method's events to the client.
    var deliver: (TextInputEvent) -> Void
    /// The focused client's caret in surface coordinates, if any.
    var caret: () -> Rect?

    /// Whether the window's surface has text-input focus (between enter and leave).
    private(set) var hasFocus = false
    /// Whether text input is enabled, as last committed.
    private(set) var isEnabled = false
    /// Commits sent: the serial a `done` that answers the latest carries.
    private var commits: UInt32 = 0
    /// What the next `done` applies.
    private var pendingPreedit: (text: String, begin: Int32, end: Int32)?
    private var pendingCommit: String?
    private var pendingDelete: (before: UInt32, after: UInt32)?
    /// Whether a composition is shown now.
    private var composing = false
    /// What the compositor was last told.
    private var sentCaret: Rect?
    private var sentSurrounding: TextInputSurrounding?
    /// The surrounding text as sent (the stretch cut to fit a message), with
    /// the caret's byte offset in it: what delete lengths count in.
    private var sentSurroundingBytes: (text: String, caret: Int)?
    /// Whether the change now being told came from the input method.
    private var changeFromInputMethod = false

    init?(manager: WaylandObject, seat: WaylandObject) {
        // get_text_input(id, seat)
        guard let made = manager.send(1, [.newID, .object(seat.proxy)], creating: strata_zwp_text_input_v3_interface()) else { return nil }
        object = WaylandObject(made)
        client = { nil }
        deliver = { _ in }
        caret = { nil }
        object.onEvent = { [unowned self] opcode, args in self.event(opcode, args) }
    }

    func destroy() { object.destroy(request: 0) }

    private func event(_ opcode: UInt32, _ args: UnsafeMutablePointer<wl_argument>) {
        switch opcode {
        case 0:  // enter(surface)
            hasFocus = true
            update()
        case 1:  // leave(surface)
            hasFocus = false
            if composing { deliver(.preedit("", caret: 0)) }
            composing = false
            if isEnabled {
                object.send(2)  // disable
                commit()
            }
            isEnabled = false
        case 2:  // preedit_string(text?, cursor_begin, cursor_end)
            pendingPreedit = (args.string(0), args.int(1), args.int(2))
        case 3:  // commit_string(text?)
            pendingCommit = args.string(0)
        case 4:  // delete_surrounding_text(before_length, after_length)
            pendingDelete = (args.uint(0), args.uint(1))
        case 5:  // done(serial)
            apply(serial: args.uint(0))
        default:
            break
        }
    }

    /// Applies what came since the last `done`, in the protocol's order;
    /// tells the compositor the new state when the `done` answers the
    /// latest commit (`serial`), as the protocol asks.
    private func apply(serial: UInt32) {
        let preedit = pendingPreedit, commitText = pendingCommit, delete = pendingDelete
        pendingPreedit = nil
        pendingCommit = nil
        pendingDelete = nil
        changeFromInputMethod = true
        defer { changeFromInputMethod = false }
        if let delete, delete.before > 0 || delete.after > 0 {
            composing = false
            let (before, after) = Self.characters(beforeBytes: Int(delete.before), afterBytes: Int(delete.after), in: sentSurroundingBytes)
            deliver(.deleteSurrounding(before: before, after: after))
        }
        if let commitText, !commitText.isEmpty {
            // Typed in place of the composition.
            deliver(.commit(commitText))
            composing = false
        } else if composing, preedit == nil || preedit?.text.isEmpty == true {
            deliver(.preedit("", caret: 0))
            composing = false
        }
        if let preedit, !preedit.text.isEmpty {
            deliver(.preedit(preedit.text, caret: Self.characterOffset(ofByte: Int(preedit.begin), in: preedit.text)))
            composing = true
        }
        if serial == commits { update() }
    }

    /// Tells the compositor what changed: text input on or off as a text
    /// client has focus, its caret, its surrounding text and its kind.
    func update() {
        let focused = client()
        let wants = hasFocus && focused != nil
        if wants != isEnabled {
            isEnabled = wants
            guard wants, let focused else {
                object.send(2)  // disable
                composing = false
                return commit()
            }
            // enable resets everything: all of it is sent again.
            object.send(1)
            sentCaret = nil
            sentSurrounding = nil
            sendContentType(focused)
            sendState(focused)
            return commit()
        }
        guard isEnabled, let focused else { return }
        if sendState(focused) { commit() }
    }

    /// Sends the caret and surrounding text where they changed; whether it sent any.
    @discardableResult
    private func sendState(_ client: any TextInputClient) -> Bool {
        var sent = false
        if let r = caret(), r != sentCaret, let x = Self.coordinate(r.minX), let y = Self.coordinate(r.minY) {
            sentCaret = r
            // set_cursor_rectangle(x, y, width, height), surface coordinates.
            object.send(6, [.int(x), .int(y), .int(Self.coordinate(r.width) ?? 1), .int(Self.coordinate(r.height) ?? 1)])
            sent = true
        }
        let surrounding = client.surroundingText
        if surrounding != sentSurrounding, let surrounding {
            sentSurrounding = surrounding
            let (text, caretByte, anchorByte) = Self.bytes(of: surrounding)
            sentSurroundingBytes = (text, caretByte)
            // set_surrounding_text(text, cursor, anchor) in bytes; then why it changed.
            object.send(3, [.string(text), .int(Int32(caretByte)), .int(Int32(anchorByte))])
            object.send(4, [.uint(changeFromInputMethod ? 0 : 1)])
            sent = true
        }
        return sent
    }

    /// set_content_type(hint, purpose): a password's purpose and hints, a
    /// text view's multi-line hint.
    private func sendContentType(_ client: any TextInputClient) {
        let hiddenText: UInt32 = 0x40, sensitiveData: UInt32 = 0x80, multiline: UInt32 = 0x200
        let passwordPurpose: UInt32 = 8
        if client.isSecureTextEntry {
            object.send(5, [.uint(hiddenText | sensitiveData), .uint(passwordPurpose)])
        } else {
            object.send(5, [.uint(client.acceptsLineBreaks ? multiline : 0), .uint(0)])
        }
    }

    private func commit() {
        object.send(7)
        commits &+= 1
    }

    // MARK: Units

    /// A surface coordinate as the protocol's integer, nil when not a number.
    static func coordinate(_ v: Double) -> Int32? {
        v.isFinite ? Int32(max(-1_000_000, min(1_000_000, v.rounded()))) : nil
    }

    /// The surrounding text cut to fit a message (whole characters, at most
    /// `WaylandArgument.maximumStringBytes` bytes, kept around the caret),
    /// with the caret's and anchor's byte offsets in it.
    static func bytes(of s: TextInputSurrounding) -> (String, Int, Int) {
        var characters = Array(s.text)
        var caret = min(max(s.caret, 0), characters.count), anchor = min(max(s.anchor, 0), characters.count)
        // Drop characters from the end further from the caret until it fits.
        var size = characters.reduce(0) { $0 + $1.utf8.count }
        while size > WaylandArgument.maximumStringBytes, !characters.isEmpty {
            if characters.count - caret > caret {
                size -= characters.removeLast().utf8.count
            } else {
                size -= characters.removeFirst().utf8.count
                caret -= 1
                anchor -= 1
            }
        }
        caret = max(0, caret)
        anchor = min(max(anchor, 0), characters.count)
        func byteOffset(_ i: Int) -> Int { characters[..<i].reduce(0) { $0 + $1.utf8.count } }
        return (String(characters), byteOffset(caret), byteOffset(anchor))
    }

    /// The characters before and after the caret that `beforeBytes` and
    /// `afterBytes` cover in the surrounding text sent (a length ending
    /// inside a character takes that character); without any sent, none.
    static func characters(beforeBytes: Int, afterBytes: Int, in sent: (text: String, caret: Int)?) -> (Int, Int) {
        guard let sent else { return (0, 0) }
        var before = 0, after = 0, bytes = 0
        var head: [Character] = [], tail: [Character] = []
        for c in sent.text {
            if bytes < sent.caret { head.append(c) } else { tail.append(c) }
            bytes += c.utf8.count
        }
        var n = 0
        for c in head.reversed() where n < beforeBytes {
            n += c.utf8.count
            before += 1
        }
        n = 0
        for c in tail where n < afterBytes {
            n += c.utf8.count
            after += 1
        }
        return (before, after)
    }

    /// The character offset in `text` at byte `offset` (a negative offset,
    /// the protocol's hidden caret: the end).
    static func characterOffset(ofByte offset: Int, in text: String) -> Int {
        guard offset >= 0 else { return text.count }
        var bytes = 0, characters = 0
        for c in text {
            if bytes >= offset { break }
            bytes += c.utf8.count
            characters += 1
        }
        return characters
    }
}
