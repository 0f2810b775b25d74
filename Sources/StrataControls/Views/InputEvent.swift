import StrataGraphics

/// Modifier keys held during an event.
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let control = KeyModifiers(rawValue: 1 << 1)
    /// Alt on a PC keyboard.
    public static let option = KeyModifiers(rawValue: 1 << 2)
    /// The Super or Windows key under X11.
    public static let command = KeyModifiers(rawValue: 1 << 3)
    public static let capsLock = KeyModifiers(rawValue: 1 << 4)
}

/// A pointer button.
public enum PointerButton: Sendable, Hashable {
    /// The left button (or a touch).
    case primary
    /// The right button.
    case secondary
    /// The middle button or wheel press.
    case middle
    /// Any other button, by number.
    case other(Int)
}

/// A pointer (mouse, pen or touch) going down, moving, going up, or being
/// taken away by the system (`cancelled`).
public struct PointerEvent: Sendable, Hashable {
    public enum Phase: Sendable, Hashable { case down, moved, up, cancelled }

    public var phase: Phase
    /// Where the pointer is, in the root view's coordinates (points).
    public var location: Point
    public var button: PointerButton
    public var modifiers: KeyModifiers
    /// Seconds on the host's clock (`MediaClock.now`).
    public var timestamp: Double
    /// Which touch this is, as the window system numbers them (`wl_touch`
    /// ids); nil for a mouse.
    public var touchID: Int?

    public init(
        _ phase: Phase, at location: Point, button: PointerButton = .primary, modifiers: KeyModifiers = [], timestamp: Double,
        touchID: Int? = nil
    ) {
        self.phase = phase
        self.location = location
        self.button = button
        self.modifiers = modifiers
        self.timestamp = timestamp
        self.touchID = touchID
    }
}

/// A scroll wheel or trackpad scroll.
///
/// A wheel gives line steps (`lines`, with `delta` the points they are
/// worth, `isPrecise` false). A trackpad gives precise deltas in points
/// (`isPrecise` true) in phases: `began`, `changed` while the fingers move,
/// `ended` when they lift, then `momentum` events while the system coasts,
/// ending with `momentumEnded`. Positive deltas scroll the content toward
/// larger offsets (down and right), as a wheel turned toward the user does.
public struct ScrollEvent: Sendable, Hashable {
    public enum Phase: Sendable, Hashable { case none, began, changed, ended, cancelled, momentum, momentumEnded }

    public var delta: Size
    /// Line steps, for a wheel (0 for a trackpad).
    public var lines: Size
    public var isPrecise: Bool
    public var phase: Phase
    public var location: Point
    public var modifiers: KeyModifiers
    public var timestamp: Double

    /// How many points a wheel's line step scrolls.
    public static let pointsPerLine = 40.0

    /// A wheel's line steps at `location` (each worth `pointsPerLine`).
    public static func wheel(lines: Size, at location: Point, modifiers: KeyModifiers = [], timestamp: Double) -> ScrollEvent {
        ScrollEvent(
            delta: Size(width: lines.width * pointsPerLine, height: lines.height * pointsPerLine), lines: lines, isPrecise: false,
            phase: .none, location: location, modifiers: modifiers, timestamp: timestamp)
    }

    /// A trackpad's precise scroll of `delta` points in `phase`.
    public static func precise(
        _ delta: Size, phase: Phase, at location: Point, modifiers: KeyModifiers = [], timestamp: Double
    ) -> ScrollEvent {
        ScrollEvent(
            delta: delta, lines: Size(width: 0, height: 0), isPrecise: true, phase: phase, location: location, modifiers: modifiers,
            timestamp: timestamp)
    }

    public init(
        delta: Size, lines: Size, isPrecise: Bool, phase: Phase, location: Point, modifiers: KeyModifiers, timestamp: Double
    ) {
        func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
        self.delta = Size(width: finite(delta.width), height: finite(delta.height))
        self.lines = Size(width: finite(lines.width), height: finite(lines.height))
        self.isPrecise = isPrecise
        self.phase = phase
        self.location = location
        self.modifiers = modifiers
        self.timestamp = timestamp
    }
}

/// The pointer's shape (`NSCursor`): what a window shows over a view
/// (`View.cursor(at:)`).
public enum Cursor: Sendable, Hashable {
    case arrow
    /// Over something a click opens: a link.
    case pointingHand
    /// Text that can be selected.
    case iBeam
    case crosshair
    /// Over content that can be dragged, and while it is.
    case openHand, closedHand
    /// Resizing, or dragging along one axis (a ruler).
    case resizeLeftRight, resizeUpDown
}

/// A key on the keyboard, as controls care about it.
public enum Key: Sendable, Hashable {
    case left, right, up, down
    case pageUp, pageDown, home, end
    case enter, escape, tab, backspace, delete, space
    /// A key that types a character (letters, digits, punctuation).
    case character(Character)
    /// F1 … F24.
    case function(Int)
    /// Anything else, by the window system's code.
    case other(Int)
}

/// A key going down (again, when held: `isRepeat`) or up.
public struct KeyEvent: Sendable, Hashable {
    public enum Phase: Sendable, Hashable { case down, up }

    public var phase: Phase
    public var key: Key
    /// The text the key types with the modifiers held (empty for none).
    public var characters: String
    public var modifiers: KeyModifiers
    public var isRepeat: Bool
    public var timestamp: Double

    public init(
        _ phase: Phase, key: Key, characters: String = "", modifiers: KeyModifiers = [], isRepeat: Bool = false, timestamp: Double
    ) {
        self.phase = phase
        self.key = key
        self.characters = characters
        self.modifiers = modifiers
        self.isRepeat = isRepeat
        self.timestamp = timestamp
    }
}

/// Any input event.
public enum InputEvent: Sendable, Hashable {
    case pointer(PointerEvent)
    case scroll(ScrollEvent)
    case key(KeyEvent)

    public var timestamp: Double {
        switch self {
        case .pointer(let e): e.timestamp
        case .scroll(let e): e.timestamp
        case .key(let e): e.timestamp
        }
    }
}
