import StrataGraphics
import StrataLayers
import Testing

@testable import StrataControls

@MainActor
@Suite struct AccessibilityTests {
    @Test func theBuiltInControlsDescribeThemselves() throws {
        var saved = 0
        let button = Button(title: "Save", frame: Rect(x: 10, y: 10, width: 80, height: 30)) { saved += 1 }
        #expect(button.isAccessibilityElement && button.accessibilityLabel == "Save")
        #expect(button.accessibilityTraits == .button && button.accessibilityRole == .pushButton)
        #expect(button.accessibilityActivate() && saved == 1)
        button.isEnabled = false
        #expect(button.accessibilityTraits.contains(.notEnabled) && !button.accessibilityActivate())
        button.accessibilityLabel = "Save the file"
        #expect(button.accessibilityLabel == "Save the file")

        let field = TextField(frame: Rect(x: 0, y: 0, width: 100, height: 30), text: "Ada")
        field.placeholder = "Name"
        #expect(field.isAccessibilityElement && field.accessibilityRole == .entry)
        #expect(field.accessibilityLabel == "Name" && field.accessibilityValue == "Ada")
        field.isSecureTextEntry = true
        #expect(field.accessibilityRole == .passwordText && field.accessibilityValue == nil)

        let ruler = RulerView(frame: Rect(x: 0, y: 0, width: 320, height: 80), scale: try RulerScale(step: 0.1, minimum: 0, maximum: 300))
        try ruler.setValue(72.5, animated: false)
        ruler.unit = "kg"
        #expect(ruler.isAccessibilityElement && ruler.accessibilityRole == .slider && ruler.accessibilityTraits == .adjustable)
        #expect(ruler.accessibilityValue == "72.5 kg")
        ruler.accessibilityIncrement()
        ruler.accessibilityIncrement()
        #expect(ruler.accessibilityValue == "72.7 kg")
        ruler.accessibilityDecrement()
        #expect(abs(ruler.value - 72.6) < 1e-9)
        ruler.labelFormatter = { "\(Int($0.rounded())) pounds" }
        #expect(ruler.accessibilityValue == "73 pounds")

        let list = ListView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(list.accessibilityRole == .list && !list.isAccessibilityElement)
        #expect(ScrollView(frame: Rect(x: 0, y: 0, width: 10, height: 10)).accessibilityRole == .scrollPane)
    }

    @Test func aPlainViewIsAPanelUntilToldOtherwise() {
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(!view.isAccessibilityElement && view.accessibilityRole == .panel && view.accessibilityLabel == nil)
        view.accessibilityTraits = [.header]
        #expect(view.accessibilityRole == .heading)
        view.accessibilityRole = .image
        #expect(view.accessibilityRole == .image)
        view.isAccessibilityElement = true
        view.accessibilityLabel = "Logo"
        view.accessibilityHint = "Opens the home page"
        view.accessibilityIdentifier = "logo"
        #expect(view.isAccessibilityElement && view.accessibilityHint == "Opens the home page" && view.accessibilityIdentifier == "logo")
        // Nothing to activate by default.
        #expect(!view.accessibilityActivate())
        var done = false
        view.accessibilityCustomActions = [
            AccessibilityCustomAction(name: "Share") {
                done = true
                return true
            }
        ]
        #expect(view.accessibilityCustomActions[0].perform() && done)
    }

    @Test func childrenAreElementsThenShownSubviewsInRootCoordinates() {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 200))
        let chart = View(frame: Rect(x: 20, y: 30, width: 200, height: 100))
        let hidden = View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
        hidden.isHidden = true
        let legend = View(frame: Rect(x: 0, y: 90, width: 200, height: 10))
        root.addSubview(chart)
        root.addSubview(hidden)
        chart.addSubview(legend)
        let point = AccessibilityElement(container: chart, label: "Monday", value: "72", frame: Rect(x: 10, y: 5, width: 4, height: 4))
        point.traits = .image
        chart.accessibilityElements = [point]
        let kids = root.accessibilityChildren
        #expect(kids.count == 1)
        guard case .view(let v) = kids[0] else { Issue.record("not a view"); return }
        #expect(v === chart)
        let inner = chart.accessibilityChildren
        #expect(inner.count == 2)
        if case .element(let e) = inner[0] {
            #expect(e.frameInRoot == Rect(x: 30, y: 35, width: 4, height: 4) && e.resolvedRole == .image)
        } else {
            Issue.record("the element comes first")
        }
        #expect(chart.accessibilityFrame == Rect(x: 20, y: 30, width: 200, height: 100))
        #expect(legend.accessibilityFrame == Rect(x: 20, y: 120, width: 200, height: 10))
        chart.accessibilityElementsHidden = true
        #expect(chart.accessibilityChildren.isEmpty)
    }
}
