import StrataControls
import Testing
import UIKit

/// A view as iOS code makes one accessible: overriding the properties.
final class RatingView: UIView {
    var rating = 3
    override var isAccessibilityElement: Bool {
        get { true }
        set {}
    }
    override var accessibilityLabel: String? {
        get { "Rating" }
        set {}
    }
    override var accessibilityValue: String? {
        get { "\(rating) of 5" }
        set {}
    }
    override var accessibilityTraits: UIAccessibilityTraits {
        get { .adjustable }
        set {}
    }
    override func accessibilityIncrement() { rating = min(5, rating + 1) }
    override func accessibilityDecrement() { rating = max(0, rating - 1) }
}

@MainActor
@Suite struct UIAccessibilityTests {
    @Test func uikitPropertiesAreWhatAssistiveToolsRead() {
        let rating = RatingView(frame: CGRect(x: 10, y: 20, width: 100, height: 20))
        // What the bridge reads: the Strata view behind the UIView.
        let node = rating.node
        #expect(node.isAccessibilityElement && node.accessibilityLabel == "Rating" && node.accessibilityValue == "3 of 5")
        #expect(node.accessibilityTraits == .adjustable && node.accessibilityRole == .slider)
        node.accessibilityIncrement()
        #expect(rating.rating == 4 && node.accessibilityValue == "4 of 5")

        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
        label.text = "Heart rate"
        #expect(label.isAccessibilityElement && label.accessibilityLabel == "Heart rate" && label.accessibilityTraits == .staticText)
        #expect(label.node.accessibilityRole == .label)

        let plain = UIView(frame: .zero)
        #expect(!plain.isAccessibilityElement && plain.accessibilityLabel == nil && plain.accessibilityTraits == [])
        plain.isAccessibilityElement = true
        plain.accessibilityLabel = "Logo"
        plain.accessibilityTraits = [.image, .button]
        plain.accessibilityIdentifier = "logo"
        var ran = false
        plain.accessibilityCustomActions = [
            UIAccessibilityCustomAction(name: "Share") { _ in
                ran = true
                return true
            }
        ]
        #expect(plain.node.accessibilityLabel == "Logo" && plain.node.accessibilityIdentifier == "logo")
        #expect(plain.node.accessibilityRole == .pushButton)
        #expect(plain.node.accessibilityCustomActions.first?.perform() == true && ran)
    }

    @Test func postingWithoutAnAssistiveToolDoesNothing() {
        var heard: [AccessibilityNotification] = []
        let view = UIView(frame: .zero)
        let token = AccessibilityCenter.addListener(for: view.node) { n, _ in heard.append(n) }
        defer { AccessibilityCenter.removeListener(token) }
        UIAccessibility.post(notification: .announcement, argument: "Saved")
        UIAccessibility.post(notification: .layoutChanged, argument: view)
        #expect(heard == [.announcement("Saved"), .layoutChanged])
        AccessibilityCenter.removeListener(token)
        UIAccessibility.post(notification: .screenChanged, argument: nil)
        #expect(heard.count == 2)
        #expect(!UIAccessibility.isVoiceOverRunning)
    }
}
