import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

@MainActor
final class TouchRecorder: UIView {
    var events: [String] = []
    var locations: [CGPoint] = []
    var tapCounts: [Int] = []
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        events.append("began")
        record(touches)
    }
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        events.append("moved")
        record(touches)
    }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        events.append("ended")
        record(touches)
    }
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { events.append("cancelled") }
    private func record(_ touches: Set<UITouch>) {
        guard let t = touches.first else { return }
        locations.append(t.location(in: self))
        tapCounts.append(t.tapCount)
    }
}

@MainActor
@Suite("Touches, controls and gesture recognizers")
struct UITouchTests {
    @Test("The view hit gets the touch's moves and end, even outside it, in its own coordinates")
    func touchSequence() {
        let target = TouchRecorder(frame: CGRect(x: 20, y: 10, width: 40, height: 40))
        let w = window(holding: target)
        w.sendTouch(.began, at: CGPoint(x: 30, y: 20), timestamp: 1)
        w.sendTouch(.moved, at: CGPoint(x: 90, y: 70), timestamp: 1.1)
        w.sendTouch(.ended, at: CGPoint(x: 95, y: 75), timestamp: 1.2)
        #expect(target.events == ["began", "moved", "ended"])
        #expect(target.locations == [CGPoint(x: 10, y: 10), CGPoint(x: 70, y: 60), CGPoint(x: 75, y: 65)])
        // A second press soon after, near the first, is a double tap.
        w.sendTouch(.began, at: CGPoint(x: 31, y: 21), timestamp: 1.3)
        w.sendTouch(.ended, at: CGPoint(x: 31, y: 21), timestamp: 1.35)
        // (Far from where the first ended: a new first tap.)
        #expect(target.tapCounts == [1, 1, 1, 1, 1])
        w.sendTouch(.began, at: CGPoint(x: 31, y: 21), timestamp: 1.45)
        #expect(target.tapCounts.last == 2)
        w.sendTouch(.cancelled, at: CGPoint(x: 31, y: 21), timestamp: 1.5)
        #expect(target.events.last == "cancelled")
    }

    @Test("Touches a view does not handle go up the responder chain")
    func responderChain() {
        let parent = TouchRecorder(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
        let child = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        parent.addSubview(child)
        let w = window(holding: parent)
        #expect(child.next === parent)
        w.sendTouch(.began, at: CGPoint(x: 15, y: 15))
        w.sendTouch(.ended, at: CGPoint(x: 15, y: 15))
        #expect(parent.events == ["began", "ended"])
        // In the parent's coordinates, though the child was hit.
        #expect(parent.locations.first == CGPoint(x: 15, y: 15))
    }

    @Test("A control sends touch down, touch up inside and its primary action; outside, touch up outside")
    func controlEvents() {
        let control = UIControl(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        var sent: [String] = []
        control.addAction(UIAction { _ in sent.append("down") }, for: .touchDown)
        control.addAction(UIAction { _ in sent.append("inside") }, for: .touchUpInside)
        control.addAction(UIAction { _ in sent.append("outside") }, for: .touchUpOutside)
        let primary = UIAction(title: "Go") { action in sent.append("primary \((action.sender as? UIControl) === control)") }
        control.addAction(primary, for: .primaryActionTriggered)
        let w = window(CGSize(width: 300, height: 300), holding: control)
        w.sendTouch(.began, at: CGPoint(x: 10, y: 10))
        #expect(control.isHighlighted && control.isTracking)
        #expect(control.state == .highlighted)
        w.sendTouch(.ended, at: CGPoint(x: 12, y: 12))
        #expect(sent == ["down", "inside", "primary true"])
        #expect(!control.isHighlighted)
        sent = []
        // Released far away (more than 70 points out): outside.
        w.sendTouch(.began, at: CGPoint(x: 10, y: 10))
        w.sendTouch(.moved, at: CGPoint(x: 200, y: 200))
        w.sendTouch(.ended, at: CGPoint(x: 200, y: 200))
        #expect(sent == ["down", "outside"])
        control.removeAction(primary, for: .primaryActionTriggered)
        control.isEnabled = false
        sent = []
        w.sendTouch(.began, at: CGPoint(x: 10, y: 10))
        w.sendTouch(.ended, at: CGPoint(x: 10, y: 10))
        #expect(sent.isEmpty)
        #expect(control.state == .disabled)
    }

    @Test("Tap and pan recognizers run their closures from the window's touches")
    func recognizers() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
        let w = window(holding: view)
        var taps = 0
        let tap = UITapGestureRecognizer { recognizer in
            if recognizer.state == .ended { taps += 1 }
        }
        view.addGestureRecognizer(tap)
        #expect(tap.view === view)
        w.sendTouch(.began, at: CGPoint(x: 10, y: 10), timestamp: 1)
        w.sendTouch(.ended, at: CGPoint(x: 11, y: 10), timestamp: 1.05)
        #expect(taps == 1)
        view.removeGestureRecognizer(tap)
        #expect(view.gestureRecognizers == nil)
        var translations: [CGPoint] = []
        var states: [UIGestureRecognizer.State] = []
        let pan = UIPanGestureRecognizer()
        pan.addTarget { recognizer in
            states.append(recognizer.state)
            translations.append((recognizer as! UIPanGestureRecognizer).translation(in: view))
        }
        view.addGestureRecognizer(pan)
        w.sendTouch(.began, at: CGPoint(x: 10, y: 10), timestamp: 2)
        w.sendTouch(.moved, at: CGPoint(x: 30, y: 10), timestamp: 2.05)
        w.sendTouch(.moved, at: CGPoint(x: 50, y: 20), timestamp: 2.1)
        w.sendTouch(.ended, at: CGPoint(x: 50, y: 20), timestamp: 2.15)
        #expect(states.first == .began && states.last == .ended)
        #expect(translations.last == CGPoint(x: 40, y: 10))
        #expect(pan.location(in: view) == CGPoint(x: 50, y: 20))
    }

    @Test("UIView.animate animates inside the block only, and calls its completion")
    func animations() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let w = window(holding: view)
        _ = w.snapshotImage()
        view.alpha = 0.5
        #expect(view.layer.animationKeys() == nil)
        var finished: Bool?
        UIView.animate(withDuration: 0.3, animations: { view.alpha = 1 }, completion: { finished = $0 })
        #expect(view.layer.animationKeys() == ["opacity"])
        #expect(view.alpha == 1)
        w.advance(by: 0.15)
        #expect(finished == nil)
        w.advance(by: 0.2)
        w.advance(by: 0.02)
        #expect(finished == true)
        UIView.animate(withDuration: 0.3) {
            UIView.performWithoutAnimation { view.center = CGPoint(x: 40, y: 40) }
        }
        #expect(view.layer.animation(forKey: "position") == nil)
        UIView.animate(
            withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.6, initialSpringVelocity: 0, options: [],
            animations: { view.center = CGPoint(x: 60, y: 40) })
        #expect(view.layer.animation(forKey: "position") != nil || view.layer.animationKeys()?.contains("position") == true)
    }
}
