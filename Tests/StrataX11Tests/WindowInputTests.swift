import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataX11Testing
import Testing

@testable import StrataX11

/// A view that takes the keyboard and keeps what it is sent.
@MainActor
final class KeyRecorder: View {
    var keys: [KeyEvent] = []
    override var canBecomeFirstResponder: Bool { true }
    override func keyEvent(_ event: KeyEvent) -> Bool {
        keys.append(event)
        return true
    }
}

/// A view that shows a pointing hand over its right half.
@MainActor
final class LinkArea: View {
    override func cursor(at point: Point) -> Cursor? { point.x > bounds.width / 2 ? .pointingHand : nil }
}

/// Two hundred striped rows of the default 44 points: a list to scroll.
@MainActor
final class StripedRows: ListViewDataSource {
    func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { 200 }
    func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
        let cell = listView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.backgroundColor = indexPath.row.isMultiple(of: 2) ? .white : Color(white: 0.85)
        return cell
    }
}

extension X11Tests {
    @MainActor
    @Suite struct WindowInputTests {
        /// A window with `root` as its root view, settled.
        func open(_ name: String, _ size: Size, _ root: View) async throws -> Window {
            let window = try Window(size: size, scale: 1, display: name)
            window.rootView = root
            _ = await pump(window) { !window.needsFrame }
            return window
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func aDragThroughXTestMovesTheRuler() async throws {
            let name = try #require(testDisplay.name)
            let root = View(frame: Rect(x: 0, y: 0, width: 320, height: 80))
            let ruler = RulerView(frame: root.bounds, scale: try RulerScale(step: 0.1, minimum: 0, maximum: 300))
            ruler.backgroundColor = .white
            root.addSubview(ruler)
            try ruler.setValue(72.5, animated: false)
            let window = try await open(name, Size(width: 320, height: 80), root)
            defer { window.close() }
            let input = try SyntheticInput(display: name)
            let o = window.screenOrigin
            input.move(toX: o.x + 250, y: o.y + 40)
            input.button(1, down: true)
            for i in 1...12 {
                input.move(toX: o.x + 250 - i * 10, y: o.y + 40)
                input.sync()
                _ = await pump(window, timeout: 0.02) { false }
            }
            // Held still, then let go: no fling.
            _ = await pump(window, timeout: 0.15) { false }
            input.button(1, down: false)
            input.sync()
            // A loaded machine (the module's other suites run beside this
            // one) can deliver the moves late and together, which reads as a
            // fling: `pump`'s long default gives its deceleration time to end.
            #expect(await pump(window) { ruler.value != 72.5 && !window.needsFrame })
            // Content dragged left by 120 points brings larger values to the centre.
            #expect(ruler.value > 72.5, "ruler at \(ruler.value)")
            // What the window shows is the tree's frame.
            let shown = try window.readPixels()
            let frame = window.host.makeImage()
            let same = shown == frame
            #expect(same)
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func theWheelScrollsAList() async throws {
            let name = try #require(testDisplay.name)
            let root = View(frame: Rect(x: 0, y: 0, width: 360, height: 400))
            let list = ListView(frame: root.bounds)
            list.backgroundColor = Color(white: 0.93)
            root.addSubview(list)
            let rows = StripedRows()
            list.register({ ListCell(reuseIdentifier: "row") }, forCellReuseIdentifier: "row")
            list.dataSource = rows
            list.reloadData()
            let window = try await open(name, Size(width: 360, height: 400), root)
            defer { window.close() }
            #expect(await pump(window) { list.numberOfRows > 0 })
            #expect(list.contentOffset.y == 0)
            let input = try SyntheticInput(display: name)
            let o = window.screenOrigin
            input.move(toX: o.x + 180, y: o.y + 200)
            input.wheel(3)
            input.sync()
            // Three steps of 40 points, as wheel steps or as smooth scrolling.
            #expect(await pump(window) { list.contentOffset.y >= 120 && !window.needsFrame })
            #expect(abs(list.contentOffset.y - 120) < 1, "offset \(list.contentOffset.y)")
            input.wheel(-1)
            input.sync()
            #expect(await pump(window) { abs(list.contentOffset.y - 80) < 1 && !window.needsFrame })
            _ = rows
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func smoothScrollsGetPhasesFromTheirTiming() async throws {
            let name = try #require(testDisplay.name)
            let window = try Window(size: Size(width: 50, height: 50), display: name)
            defer { window.close() }
            // Xvfb has XInput 2.2.
            #expect(window.usesXInput2)
            let pointer = try #require(window.xinput)
            #expect(!pointer.isScrolling && !pointer.endIfIdle(at: 0))
            #expect(pointer.phase(at: 10) == .began)
            #expect(pointer.phase(at: 10.05) == .changed)
            #expect(pointer.phase(at: 10.15) == .changed)
            #expect(!pointer.endIfIdle(at: 10.2))
            #expect(pointer.isScrolling)
            #expect(pointer.endIfIdle(at: 10.31))
            #expect(!pointer.isScrolling && !pointer.endIfIdle(at: 11))
            // A scroll after a pause begins a new gesture.
            #expect(pointer.phase(at: 12) == .began)
            #expect(pointer.phase(at: 12.5) == .began)
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func keysGoToTheFirstResponder() async throws {
            let name = try #require(testDisplay.name)
            let root = KeyRecorder(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            let window = try await open(name, Size(width: 100, height: 100), root)
            defer { window.close() }
            window.dispatcher?.firstResponder = root
            let input = try SyntheticInput(display: name)
            let o = window.screenOrigin
            input.move(toX: o.x + 50, y: o.y + 50)
            for (keysym, down) in [(0x61 as UInt, true), (0x61, false), (0xFF51, true), (0xFF51, false), (0xFFBE, true), (0xFFBE, false)] {
                input.key(keysym, down: down)
            }
            input.sync()
            #expect(await pump(window) { root.keys.count == 6 })
            let downs = root.keys.filter { $0.phase == .down }
            #expect(downs.map(\.key) == [.character("a"), .left, .function(1)])
            #expect(downs.first?.characters == "a")
            #expect(downs.dropFirst().allSatisfy { $0.characters.isEmpty })
            #expect(root.keys.allSatisfy { !$0.isRepeat && $0.timestamp.isFinite })
            // Shift makes the text (and the key) upper case.
            root.keys.removeAll()
            input.key(0xFFE1, down: true)
            input.key(0x61, down: true)
            input.key(0x61, down: false)
            input.key(0xFFE1, down: false)
            input.sync()
            #expect(await pump(window) { root.keys.filter { $0.phase == .down }.count == 2 })
            let typed = root.keys.first { $0.phase == .down && $0.characters == "A" }
            #expect(typed?.key == .character("A") && typed?.modifiers.contains(.shift) == true)
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func theCloseMessageClosesTheWindowUnlessRefused() async throws {
            let name = try #require(testDisplay.name)
            let window = try Window(size: Size(width: 80, height: 60), display: name)
            var asked = 0, closed = 0
            window.shouldClose = {
                asked += 1
                return asked > 1
            }
            window.onClose = { closed += 1 }
            let input = try SyntheticInput(display: name)
            input.requestClose(window: window.windowID)
            input.sync()
            #expect(await pump(window) { asked == 1 })
            #expect(window.isOpen && closed == 0)
            input.requestClose(window: window.windowID)
            input.sync()
            #expect(await pump(window) { !window.isOpen })
            #expect(asked == 2 && closed == 1)
            // A closed window does nothing and throws where it must.
            #expect(window.processEvents() == 0)
            #expect(!window.renderFrameIfNeeded())
            #expect(throws: WindowError.self) { _ = try window.readPixels() }
            window.close()
            #expect(closed == 1)
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func aResizedWindowRedrawsAtItsNewSize() async throws {
            let name = try #require(testDisplay.name)
            let root = View(frame: Rect(x: 0, y: 0, width: 120, height: 90))
            root.backgroundColor = Color(red: 0.2, green: 0.6, blue: 0.3)
            let inner = View(frame: Rect(x: 10, y: 10, width: 50, height: 30))
            inner.backgroundColor = .black
            root.addSubview(inner)
            let window = try await open(name, Size(width: 120, height: 90), root)
            defer { window.close() }
            var resized: [Size] = []
            window.onResize = { resized.append($0) }
            window.setSize(Size(width: 200, height: 150))
            // A window manager-less Xvfb answers at once, but a loaded machine may not.
            #expect(await pump(window, timeout: 120) { window.size == Size(width: 200, height: 150) && !window.needsFrame })
            #expect(resized == [Size(width: 200, height: 150)])
            #expect(window.host.width == 200 && window.host.height == 150)
            #expect(root.frame.size == Size(width: 200, height: 150))
            let shown = try window.readPixels()
            let headless = try LayerHost(width: 200, height: 150)
            let copy = View(frame: Rect(x: 0, y: 0, width: 200, height: 150))
            copy.backgroundColor = root.backgroundColor
            let copyInner = View(frame: inner.frame)
            copyInner.backgroundColor = .black
            copy.addSubview(copyInner)
            headless.rootLayer.addSublayer(copy.layer)
            headless.renderFrame()
            let same = shown == headless.makeImage()
            #expect(same)
            // Bad sizes are ignored.
            window.setSize(Size(width: .nan, height: 10))
            window.setSize(Size(width: 0, height: 10))
            _ = await pump(window, timeout: 0.3) { false }
            #expect(window.size == Size(width: 200, height: 150))
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func theCursorFollowsTheViewUnderThePointer() async throws {
            let name = try #require(testDisplay.name)
            let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 100))
            root.addSubview(LinkArea(frame: Rect(x: 0, y: 0, width: 200, height: 100)))
            let window = try await open(name, Size(width: 200, height: 100), root)
            defer { window.close() }
            let input = try SyntheticInput(display: name)
            let o = window.screenOrigin
            input.move(toX: o.x + 150, y: o.y + 50)
            input.sync()
            #expect(await pump(window) { window.cursor == .pointingHand })
            input.move(toX: o.x + 20, y: o.y + 50)
            input.sync()
            #expect(await pump(window) { window.cursor == .arrow })
        }
    }
}
