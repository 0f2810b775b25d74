import StrataGraphics
import StrataLayers
import Testing

@testable import StrataControls

/// A view that can take focus and notes what happens to it.
@MainActor
final class FocusableView: View {
    var log: [String] = []
    var takesTab = false
    var takesFocus = true
    override var canBecomeFirstResponder: Bool { takesFocus }
    override func didBecomeFirstResponder() { log.append("became") }
    override func didResignFirstResponder() { log.append("resigned") }
    override func keyEvent(_ event: KeyEvent) -> Bool { takesTab && event.key == .tab }
}

@MainActor
@Suite struct FocusTests {
    func key(_ k: Key, _ modifiers: KeyModifiers = [], repeating: Bool = false) -> InputEvent {
        .key(KeyEvent(.down, key: k, modifiers: modifiers, isRepeat: repeating, timestamp: 0))
    }

    func pointer(_ phase: PointerEvent.Phase, _ x: Double, _ y: Double) -> InputEvent {
        .pointer(PointerEvent(phase, at: Point(x: x, y: y), timestamp: 0))
    }

    /// A window's worth of controls, out of reading order in the subview
    /// list: Tab must visit them top to bottom, left to right.
    func form() -> (InputDispatcher, View, [String: View]) {
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let d = InputDispatcher(rootView: root)
        let bottom = Button(title: "OK", frame: Rect(x: 10, y: 200, width: 80, height: 30))
        let topLeft = FocusableView(frame: Rect(x: 10, y: 10, width: 100, height: 30))
        let topRight = FocusableView(frame: Rect(x: 200, y: 10, width: 100, height: 30))
        let group = View(frame: Rect(x: 0, y: 100, width: 400, height: 60))
        let inGroup = FocusableView(frame: Rect(x: 300, y: 10, width: 50, height: 20))
        let hidden = FocusableView(frame: Rect(x: 0, y: 50, width: 10, height: 10))
        let disabled = Button(title: "No", frame: Rect(x: 100, y: 60, width: 50, height: 20))
        let plain = View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
        hidden.isHidden = true
        disabled.isEnabled = false
        for v in [bottom, topRight, group, hidden, disabled, topLeft, plain] { root.addSubview(v) }
        group.addSubview(inGroup)
        return (d, root, ["bottom": bottom, "topLeft": topLeft, "topRight": topRight, "inGroup": inGroup, "hidden": hidden])
    }

    @Test func tabVisitsTheControlsInReadingOrderAndShiftTabGoesBack() {
        let (d, _, v) = form()
        #expect(d.focusOrder.map { ObjectIdentifier($0) } == ["topLeft", "topRight", "inGroup", "bottom"].map { ObjectIdentifier(v[$0]!) })
        var seen: [View?] = []
        d.onFocusChange = { seen.append($0) }
        for name in ["topLeft", "topRight", "inGroup", "bottom", "topLeft"] {
            #expect(d.send(key(.tab)))
            #expect(d.firstResponder === v[name], "\(name)")
        }
        #expect(d.send(key(.tab, .shift)))
        #expect(d.firstResponder === v["bottom"])
        #expect(seen.count == 6 && seen.last! === v["bottom"])
        // Each change tells the view leaving and the view arriving.
        let topLeft = v["topLeft"] as! FocusableView
        #expect(topLeft.log == ["became", "resigned", "became", "resigned"])
        // Control-Tab is left to the views (and moves nothing here).
        #expect(!d.send(key(.tab, .control)))
        #expect(d.firstResponder === v["bottom"])
    }

    @Test func aViewThatTakesTabKeepsIt() {
        let (d, _, v) = form()
        let topLeft = v["topLeft"] as! FocusableView
        topLeft.takesTab = true
        #expect(topLeft.becomeFirstResponder())
        #expect(d.send(key(.tab)))
        #expect(d.firstResponder === topLeft)
    }

    @Test func theRingShowsForKeyboardFocusAndHidesForThePointer() throws {
        let (d, root, v) = form()
        // Focus set by code (a click) shows no ring.
        #expect(v["topRight"]!.becomeFirstResponder())
        #expect(!d.focusRing.isShown)
        d.send(key(.tab))
        #expect(d.firstResponder === v["inGroup"] && d.focusRing.isShown)
        let ring = try #require(d.focusRing.layer)
        #expect(ring.superlayer === root.layer && root.layer.sublayers.last === ring)
        // Around the view (300, 110, 50 × 20 in the root), just outside it.
        let box = ring.path.boundingBox
        #expect(box.minX < 300 && box.minX > 295 && box.maxX > 350 && box.maxX < 355)
        #expect(box.minY < 110 && box.minY > 105 && box.maxY > 130 && box.maxY < 135)
        // The view moves: the ring follows at the next frame.
        v["inGroup"]!.frame = Rect(x: 20, y: 10, width: 50, height: 20)
        d.frame(at: 1)
        #expect(abs(ring.path.boundingBox.minX - 17.5) < 1.01)
        d.send(pointer(.down, 390, 290))
        d.send(pointer(.up, 390, 290))
        #expect(!d.focusRing.isShown && d.firstResponder === v["inGroup"])
        // The focused view leaving the tree takes focus and ring with it.
        d.send(key(.tab))
        #expect(d.focusRing.isShown)
        let bottom = try #require(d.firstResponder)
        bottom.removeFromSuperview()
        #expect(d.firstResponder == nil && !d.focusRing.isShown)
    }

    @Test func spaceAndReturnPressTheFocusedButton() {
        let (d, _, v) = form()
        let ok = v["bottom"] as! Button
        var presses = 0
        ok.action = { presses += 1 }
        #expect(ok.becomeFirstResponder())
        #expect(d.send(key(.space)) && d.send(key(.enter)))
        #expect(presses == 2)
        // A held key does not press again; nor does Control-Return.
        #expect(!d.send(key(.space, repeating: true)) && !d.send(key(.enter, .control)))
        #expect(presses == 2)
        // A view that does nothing on activation leaves the key unhandled.
        #expect(v["topLeft"]!.becomeFirstResponder())
        #expect(!d.send(key(.enter)))
    }

    @Test func aButtonRunsItsActionWhenReleasedInside() {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 200))
        let d = InputDispatcher(rootView: root)
        var presses = 0
        let button = Button(title: "Go", frame: Rect(x: 50, y: 50, width: 100, height: 40)) { presses += 1 }
        root.addSubview(button)
        d.send(pointer(.down, 60, 60))
        #expect(button.isHighlighted)
        d.send(pointer(.moved, 250, 150))
        #expect(!button.isHighlighted)
        d.send(pointer(.moved, 100, 70))
        #expect(button.isHighlighted)
        d.send(pointer(.up, 100, 70))
        #expect(presses == 1 && !button.isHighlighted)
        // Released outside: nothing.
        d.send(pointer(.down, 60, 60))
        d.send(pointer(.up, 250, 150))
        #expect(presses == 1)
        // Disabled: no press, no focus, and it gives focus up.
        #expect(button.becomeFirstResponder())
        button.isEnabled = false
        #expect(d.firstResponder == nil && !button.becomeFirstResponder())
        d.send(pointer(.down, 60, 60))
        d.send(pointer(.up, 60, 60))
        #expect(presses == 1 && !button.activate())
        #expect(button.layer.opacity < 0.5)
        button.isEnabled = true
        button.title = "Again"
        #expect(button.activate() && presses == 2)
    }

    @Test func theButtonAndTheRingAreDrawn() throws {
        let host = try LayerHost(width: 240, height: 100)
        let root = View(frame: Rect(x: 0, y: 0, width: 240, height: 100))
        root.backgroundColor = .white
        let d = InputDispatcher(rootView: root, host: host)
        let first = Button(title: "Cancel", frame: Rect(x: 20, y: 30, width: 90, height: 36))
        let second = Button(title: "Save", frame: Rect(x: 130, y: 30, width: 90, height: 36))
        root.addSubview(first)
        root.addSubview(second)
        d.send(key(.tab))
        d.send(key(.tab))
        host.renderFrame()
        let image = host.makeImage()
        try? image.writePNG(to: "/tmp/strata-focus-ring.png")
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let i = y * image.bytesPerRow + x * 4
            return Array(image.pixels[i..<(i + 4)])
        }
        // Both buttons' blue; the ring (drawn 1 to 4 points outside the
        // focused one) around the second only.
        let inside = pixel(135, 35)
        #expect(inside[2] > 200 && inside[0] < 60, "\(inside)")
        let ring = pixel(128, 48), noRing = pixel(17, 48)
        #expect(ring[2] > 180 && ring[0] < 120, "ring \(ring)")
        #expect(noRing == [255, 255, 255, 255], "\(noRing)")
        // The title is drawn: white pixels inside the button's middle row.
        let row = (140..<210).map { pixel($0, 48) }
        #expect(row.contains { $0[0] > 200 && $0[1] > 200 }, "no title")
    }

    @Test func withNothingFocusableTabIsNotHandled() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let d = InputDispatcher(rootView: root)
        root.addSubview(View(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(d.focusOrder.isEmpty && !d.send(key(.tab)) && !d.moveFocus(backward: true))
        #expect(d.firstResponder == nil)
    }
}
