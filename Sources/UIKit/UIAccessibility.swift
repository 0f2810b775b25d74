public import CoreGraphics
public import Foundation
package import StrataControls

/// What an accessibility element is and does (`UIAccessibilityTraits`).
public struct UIAccessibilityTraits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let none = UIAccessibilityTraits([])
    public static let button = UIAccessibilityTraits(rawValue: 1 << 0)
    public static let link = UIAccessibilityTraits(rawValue: 1 << 1)
    public static let image = UIAccessibilityTraits(rawValue: 1 << 2)
    public static let selected = UIAccessibilityTraits(rawValue: 1 << 3)
    public static let playsSound = UIAccessibilityTraits(rawValue: 1 << 4)
    public static let keyboardKey = UIAccessibilityTraits(rawValue: 1 << 5)
    public static let staticText = UIAccessibilityTraits(rawValue: 1 << 6)
    public static let summaryElement = UIAccessibilityTraits(rawValue: 1 << 7)
    public static let notEnabled = UIAccessibilityTraits(rawValue: 1 << 8)
    public static let updatesFrequently = UIAccessibilityTraits(rawValue: 1 << 9)
    public static let searchField = UIAccessibilityTraits(rawValue: 1 << 10)
    public static let startsMediaSession = UIAccessibilityTraits(rawValue: 1 << 11)
    public static let adjustable = UIAccessibilityTraits(rawValue: 1 << 12)
    public static let allowsDirectInteraction = UIAccessibilityTraits(rawValue: 1 << 13)
    public static let causesPageTurn = UIAccessibilityTraits(rawValue: 1 << 14)
    public static let header = UIAccessibilityTraits(rawValue: 1 << 16)
    public static let tabBar = UIAccessibilityTraits(rawValue: 1 << 15)

    /// Strata's traits for these (the ones it has).
    var strata: AccessibilityTraits {
        var t: AccessibilityTraits = []
        let pairs: [(UIAccessibilityTraits, AccessibilityTraits)] = [
            (.button, .button), (.link, .link), (.image, .image), (.selected, .selected), (.keyboardKey, .keyboardKey),
            (.staticText, .staticText), (.summaryElement, .summaryElement), (.notEnabled, .notEnabled),
            (.updatesFrequently, .updatesFrequently), (.searchField, .searchField), (.adjustable, .adjustable), (.header, .header),
        ]
        for (ui, s) in pairs where contains(ui) { t.insert(s) }
        return t
    }
}

/// An action an assistive tool can perform on an element besides
/// activating it (`UIAccessibilityCustomAction`). Strata has no
/// Objective-C selectors: the handler form only.
@MainActor
open class UIAccessibilityCustomAction {
    open var name: String
    open var actionHandler: ((UIAccessibilityCustomAction) -> Bool)?

    public init(name: String, actionHandler: ((UIAccessibilityCustomAction) -> Bool)?) {
        self.name = name
        self.actionHandler = actionHandler
    }
}

/// What an app tells assistive tools, and what it can ask of them (`UIAccessibility`).
@MainActor
public enum UIAccessibility {
    /// A notification to post (`UIAccessibility.Notification`).
    public struct Notification: Hashable, Sendable, RawRepresentable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let screenChanged = Notification(rawValue: 1000)
        public static let layoutChanged = Notification(rawValue: 1001)
        public static let announcement = Notification(rawValue: 1008)
        public static let pageScrolled = Notification(rawValue: 1009)
    }

    /// Tells assistive tools about a change: an announcement's argument is
    /// the text to speak; the others may name the element to move to.
    public static func post(notification: Notification, argument: Any?) {
        let strata: AccessibilityNotification
        switch notification {
        case .announcement: strata = .announcement((argument as? String) ?? (argument as? NSAttributedString)?.string ?? "")
        case .screenChanged: strata = .screenChanged
        case .pageScrolled: strata = .pageScrolled((argument as? String) ?? "")
        default: strata = .layoutChanged
        }
        AccessibilityCenter.post(strata, from: (argument as? UIView)?.node)
    }

    /// Whether a screen reader is on (AT-SPI's `ScreenReaderEnabled`, as
    /// the windows found it).
    public static var isVoiceOverRunning: Bool { AccessibilityCenter.isScreenReaderRunning }
}
