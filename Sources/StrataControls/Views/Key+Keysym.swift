extension Key {
    /// The key for an X keysym (the numbers X11 and xkbcommon share), given
    /// the text it typed: a character key is named by its text, so a
    /// shifted "a" is "A".
    public init(keysym: UInt32, text: String) {
        switch keysym {
        case 0xFF51, 0xFF96: self = .left  // Left, KP_Left
        case 0xFF53, 0xFF98: self = .right
        case 0xFF52, 0xFF97: self = .up
        case 0xFF54, 0xFF99: self = .down
        case 0xFF55, 0xFF9A: self = .pageUp  // Prior, KP_Prior
        case 0xFF56, 0xFF9B: self = .pageDown
        case 0xFF50, 0xFF95: self = .home
        case 0xFF57, 0xFF9C: self = .end
        case 0xFF0D, 0xFF8D: self = .enter  // Return, KP_Enter
        case 0xFF1B: self = .escape
        case 0xFF09, 0xFE20: self = .tab  // Tab, ISO_Left_Tab
        case 0xFF08: self = .backspace
        case 0xFFFF, 0xFF9F: self = .delete
        case 0x0020, 0xFF80: self = .space  // space, KP_Space
        case 0xFFBE...0xFFD5: self = .function(Int(keysym) - 0xFFBE + 1)  // F1 … F24
        default:
            if let c = text.first, text.count == 1 {
                self = .character(c)
            } else if (0x20...0x7E).contains(keysym) || (0xA0...0xFF).contains(keysym), let u = Unicode.Scalar(keysym) {
                // Latin-1 keysyms are their characters.
                self = .character(Character(u))
            } else if keysym & 0xFF00_0000 == 0x0100_0000, let u = Unicode.Scalar(keysym & 0x00FF_FFFF) {
                // Unicode keysyms (0x01000000 + code), for keys without text
                // (pressed with Control).
                self = .character(Character(u))
            } else {
                self = .other(Int(keysym))
            }
        }
    }
}
