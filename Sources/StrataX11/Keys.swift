internal import CX11
import StrataControls

/// X keysyms as the controls' keys.
enum Keys {
    /// The key for `keysym`, given the text it typed (a character key is
    /// named by its text, so a shifted "a" is "A").
    static func key(for keysym: UInt, text: String) -> Key {
        switch Int32(truncatingIfNeeded: keysym) {
        case XK_Left, XK_KP_Left: return .left
        case XK_Right, XK_KP_Right: return .right
        case XK_Up, XK_KP_Up: return .up
        case XK_Down, XK_KP_Down: return .down
        case XK_Page_Up, XK_KP_Page_Up: return .pageUp
        case XK_Page_Down, XK_KP_Page_Down: return .pageDown
        case XK_Home, XK_KP_Home: return .home
        case XK_End, XK_KP_End: return .end
        case XK_Return, XK_KP_Enter: return .enter
        case XK_Escape: return .escape
        case XK_Tab, XK_ISO_Left_Tab: return .tab
        case XK_BackSpace: return .backspace
        case XK_Delete, XK_KP_Delete: return .delete
        case XK_space, XK_KP_Space: return .space
        case XK_F1...XK_F24: return .function(Int(keysym) - Int(XK_F1) + 1)
        default: break
        }
        if let c = text.first, text.count == 1 { return .character(c) }
        // Latin-1 keysyms are their characters; others without text (a
        // key pressed with Control) by their Unicode keysym (0x01000000 + code).
        if (0x20...0x7E).contains(keysym) || (0xA0...0xFF).contains(keysym), let u = Unicode.Scalar(UInt32(keysym)) {
            return .character(Character(u))
        }
        if keysym & 0xFF00_0000 == 0x0100_0000, let u = Unicode.Scalar(UInt32(keysym & 0x00FF_FFFF)) {
            return .character(Character(u))
        }
        return .other(Int(keysym))
    }
}
