import StrataGraphics
import StrataText

/// What an accessibility element is and does, as UIKit's
/// `UIAccessibilityTraits` says it: screen readers announce a button as a
/// button, let an adjustable element be stepped, skip what is not enabled.
public struct AccessibilityTraits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let button = AccessibilityTraits(rawValue: 1 << 0)
    public static let link = AccessibilityTraits(rawValue: 1 << 1)
    public static let image = AccessibilityTraits(rawValue: 1 << 2)
    public static let selected = AccessibilityTraits(rawValue: 1 << 3)
    public static let staticText = AccessibilityTraits(rawValue: 1 << 6)
    public static let summaryElement = AccessibilityTraits(rawValue: 1 << 7)
    public static let notEnabled = AccessibilityTraits(rawValue: 1 << 8)
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 9)
    public static let searchField = AccessibilityTraits(rawValue: 1 << 10)
    public static let adjustable = AccessibilityTraits(rawValue: 1 << 12)
    public static let header = AccessibilityTraits(rawValue: 1 << 16)
    public static let keyboardKey = AccessibilityTraits(rawValue: 1 << 5)
}

/// The kind of thing an element is, as desktop accessibility (AT-SPI's
/// roles, GTK's and Qt's) names it: what a screen reader says before an
/// element's name. A view's role follows from its traits unless it says
/// otherwise (`View.accessibilityRole`).
public enum AccessibilityRole: String, Sendable, Hashable, CaseIterable {
    /// A container with no role of its own.
    case panel
    case application
    /// A window's contents.
    case frame
    case pushButton = "push button"
    case link
    case label
    /// Editable text on one line.
    case entry
    /// Editable text hidden as it is typed.
    case passwordText = "password text"
    /// Editable text on many lines.
    case text
    case slider
    case scrollPane = "scroll pane"
    case list
    case listItem = "list item"
    case image
    case heading
    /// A chart: an image with a summary and its points as children.
    case chart
}

/// An action an assistive tool can perform on an element besides
/// activating it (`UIAccessibilityCustomAction`).
@MainActor
public final class AccessibilityCustomAction {
    public let name: String
    let handler: @MainActor () -> Bool

    /// An action called `name`; `handler` returns whether it did something.
    public init(name: String, handler: @escaping @MainActor () -> Bool) {
        self.name = name
        self.handler = handler
    }

    /// Performs the action.
    @discardableResult
    public func perform() -> Bool { handler() }
}

/// An element that is not a view: a chart's point, a part of a custom
/// drawing (`UIAccessibilityElement`). Its frame is in its container
/// view's coordinates.
@MainActor
public final class AccessibilityElement {
    public weak var container: View?
    public var label: String?
    public var value: String?
    public var hint: String?
    public var traits: AccessibilityTraits = []
    public var role: AccessibilityRole?
    /// In the container's coordinates.
    public var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    /// What activating the element does; nil: nothing.
    public var activate: (@MainActor () -> Bool)?

    public init(container: View, label: String? = nil, value: String? = nil, frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0)) {
        self.container = container
        self.label = label
        self.value = value
        self.frame = frame
    }

    /// The role: `role`, else what the traits say.
    public var resolvedRole: AccessibilityRole { role ?? AccessibilityRole(traits: traits, fallback: .label) }

    /// The frame in the root view's coordinates.
    public var frameInRoot: Rect {
        guard let container else { return frame }
        return container.rectInRoot(frame)
    }
}

extension AccessibilityRole {
    /// The role `traits` describe, or `fallback`.
    public init(traits: AccessibilityTraits, fallback: AccessibilityRole) {
        if traits.contains(.button) {
            self = .pushButton
        } else if traits.contains(.link) {
            self = .link
        } else if traits.contains(.adjustable) {
            self = .slider
        } else if traits.contains(.searchField) {
            self = .entry
        } else if traits.contains(.header) {
            self = .heading
        } else if traits.contains(.image) {
            self = .image
        } else if traits.contains(.staticText) {
            self = .label
        } else {
            self = fallback
        }
    }
}

/// A value on a range, for an adjustable element (AT-SPI's Value
/// interface: what a screen reader reads as a slider's position).
public struct AccessibilityNumericValue: Sendable, Hashable {
    public var current: Double
    public var minimum: Double
    public var maximum: Double
    /// The smallest step (0: any).
    public var increment: Double

    public init(current: Double, minimum: Double, maximum: Double, increment: Double) {
        self.current = current
        self.minimum = minimum
        self.maximum = maximum
        self.increment = increment
    }
}

/// The text of an editable element as assistive tools read it (AT-SPI's
/// Text interface): the characters (a secure field's as bullets), the
/// caret's and the selection's character offsets, and the lines as laid
/// out (each a range of characters; one line per paragraph when not
/// given).
public struct AccessibilityTextContent: Sendable, Hashable {
    public var text: String
    public var caret: Int
    /// The selection (empty at the caret when nothing is selected).
    public var selection: Range<Int>
    /// The lines on screen, in order, covering the text.
    public var lines: [Range<Int>]

    public init(text: String, caret: Int, selection: Range<Int>? = nil, lines: [Range<Int>]? = nil) {
        self.text = text
        self.caret = caret
        self.selection = selection ?? caret..<caret
        self.lines = lines ?? Self.paragraphs(text)
    }

    /// The paragraphs of `text`: character ranges, each with its line break.
    static func paragraphs(_ text: String) -> [Range<Int>] {
        var out: [Range<Int>] = [], start = 0, i = 0
        for c in text {
            i += 1
            if c.isNewline {
                out.append(start..<i)
                start = i
            }
        }
        if start < i || out.isEmpty { out.append(start..<i) }
        return out
    }

    /// The piece of the text of `granularity` at character `offset`: the
    /// character, the word (with the spaces and punctuation after it, as
    /// ATK's word-start boundaries have it), the sentence, the line, or
    /// the paragraph. An offset past the end gives the last piece; an
    /// empty text, an empty range.
    public func range(of granularity: AccessibilityTextGranularity, at offset: Int) -> Range<Int> {
        let count = text.count
        guard count > 0 else { return 0..<0 }
        let i = min(max(offset, 0), count - 1)
        switch granularity {
        case .character:
            return i..<(i + 1)
        case .line:
            return lines.first { $0.contains(i) } ?? lines.last ?? 0..<count
        case .paragraph:
            return Self.paragraphs(text).first { $0.contains(i) } ?? 0..<count
        case .word, .sentence:
            let units = EditableText(text)
            let pieces: [Range<Int>]
            if granularity == .sentence {
                pieces = TextBoundaries.sentenceRanges(text).map { units.characterRange(utf16: $0) }
            } else {
                // Each word with what follows it, up to the next word.
                let segments = TextBoundaries.wordSegments(text).map { (range: units.characterRange(utf16: $0.range), isWord: $0.isWord) }
                var starts = segments.filter(\.isWord).map(\.range.lowerBound)
                if starts.first != 0 { starts.insert(0, at: 0) }
                pieces = zip(starts, starts.dropFirst() + [count]).map { $0..<$1 }
            }
            return pieces.first { $0.contains(i) } ?? 0..<count
        }
    }
}

/// Which way an assistive tool scrolls (`UIAccessibilityScrollDirection`):
/// `.down` shows the content below, as Page Down does; `.right` the
/// content to the right.
public enum AccessibilityScrollDirection: Sendable, Hashable {
    case up, down, left, right
}

/// How much text an assistive tool asks for at an offset (AT-SPI's
/// granularities).
public enum AccessibilityTextGranularity: Sendable, Hashable {
    case character, word, sentence, line, paragraph
}

/// What an app tells assistive tools (`UIAccessibility.Notification`).
public enum AccessibilityNotification: Sendable, Hashable {
    /// Much of the screen changed (a new page).
    case screenChanged
    /// Part of the screen changed.
    case layoutChanged
    /// Text to speak now.
    case announcement(String)
    /// An element's value changed (a live value: the streaming graph's latest).
    case valueChanged
    /// Text was typed or pasted into an editable element: `text` at
    /// character `offset`.
    case textInserted(offset: Int, text: String)
    /// Text was deleted from an editable element: `text`, which stood at
    /// character `offset`.
    case textRemoved(offset: Int, text: String)
    /// An editable element's caret moved to character `offset`.
    case caretMoved(offset: Int)
    /// An editable element's selection changed.
    case textSelectionChanged
    /// A scroll view scrolled by a page; `status` says where it is now
    /// ("Rows 21 to 40 of 300"), for a screen reader to speak.
    case pageScrolled(String)
    /// Keyboard focus moved to the posting view inside the first
    /// responder, which keeps it (a list's keys moving to a row's cell).
    case focusMoved
}

extension View {
    /// `rect` (this view's coordinates) in the root view's.
    public func rectInRoot(_ rect: Rect) -> Rect {
        let a = convert(Point(x: rect.minX, y: rect.minY), to: nil)
        let b = convert(Point(x: rect.maxX, y: rect.maxY), to: nil)
        return Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
}

/// A child in the accessibility tree: a view or an element that is not one.
@MainActor
public enum AccessibilityChild {
    case view(View)
    case element(AccessibilityElement)
}

/// Where accessibility notifications go (`UIAccessibility.post`): to the
/// assistive-technology bridge of the window whose tree the view is in,
/// or to every window's for a notification from no view. With no bridge
/// (no assistive tool on), posting does nothing.
@MainActor
public enum AccessibilityCenter {
    /// Whether a screen reader is on, as the windows found it.
    public static var isScreenReaderRunning = false

    private struct Listener {
        weak var root: View?
        let token: Int
        let handler: @MainActor (AccessibilityNotification, View?) -> Void
    }
    private static var listeners: [Listener] = []
    private static var nextToken = 0

    /// Sends notifications from `root`'s tree (and from no view) to
    /// `handler` until `removeListener` is called with the token returned.
    public static func addListener(for root: View, _ handler: @escaping @MainActor (AccessibilityNotification, View?) -> Void) -> Int {
        nextToken += 1
        listeners.append(Listener(root: root, token: nextToken, handler: handler))
        return nextToken
    }

    public static func removeListener(_ token: Int) { listeners.removeAll { $0.token == token || $0.root == nil } }

    /// Whether any bridge listens (an assistive tool is on): what views
    /// check before working out what to post.
    public static var hasListeners: Bool { !listeners.isEmpty }

    /// Tells assistive tools about `notification`, from `view` if any.
    public static func post(_ notification: AccessibilityNotification, from view: View? = nil) {
        guard !listeners.isEmpty else { return }
        let root = view?.rootView
        for l in listeners where root == nil || l.root === root { l.handler(notification, view) }
    }
}
