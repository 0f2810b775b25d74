import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataX11Testing
import Testing

@testable import StrataX11

/// The suites that use the display, one at a time: XTest moves the one
/// pointer there is, so two of them at once would disturb each other.
@Suite(.serialized) enum X11Tests {}

/// One Xvfb for this module's window tests, started on first use; where
/// it cannot run, the tests that need it are skipped, saying why, never
/// passed. `scripts/install-deps.sh` installs Xvfb, so on a machine set up
/// by it none is skipped.
let testDisplay = WindowTestDisplay()

/// A small tree with colours, an edge on half pixels and a rounded corner.
@MainActor
func buildTree(in root: Layer) {
    let a = Layer()
    a.frame = Rect(x: 10, y: 10, width: 60, height: 40)
    a.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1)
    a.cornerRadius = 8
    root.addSublayer(a)
    let b = Layer()
    b.frame = Rect(x: 40.5, y: 30.25, width: 70, height: 50)
    b.backgroundColor = Color(red: 0.1, green: 0.4, blue: 0.9, alpha: 0.6)
    root.addSublayer(b)
}

extension X11Tests {
    @MainActor
    @Suite struct WindowTests {
        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func aWindowShowsWhatTheHeadlessHostRenders() async throws {
            let name = try #require(testDisplay.name)
            for shm in [true, false] {
                let window = try Window(title: "t", size: Size(width: 160, height: 100), scale: 2, display: name, usesSharedMemory: shm)
                defer { window.close() }
                #expect(window.usesSharedMemory == shm)
                buildTree(in: window.rootLayer)
                #expect(await pump(window) { !window.needsFrame })
                let shown = try window.readPixels()
                let headless = try LayerHost(width: 320, height: 200, scale: 2)
                buildTree(in: headless.rootLayer)
                headless.renderFrame()
                let expected = headless.makeImage()
                #expect(shown.width == 320 && shown.height == 200)
                let same = shown == expected
                if !same {
                    print("presentation error", window.presenter?.lastError ?? -1)
                    try? shown.writePNG(to: "/tmp/window-shown-\(shm).png")
                    try? expected.writePNG(to: "/tmp/window-expected-\(shm).png")
                }
                #expect(same, "window pixels differ from the headless frame (shared memory \(shm))")
            }
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func aServerWithoutSharedMemoryGetsThePixelsOverTheConnection()
            async throws
        {
            _ = try #require(testDisplay.name)
            let server = try VirtualDisplay(width: 320, height: 240, arguments: ["-extension", "MIT-SHM"])
            defer { server.stop() }
            // Shared memory asked for, and not there: the window falls back.
            let window = try Window(size: Size(width: 160, height: 100), scale: 1, display: server.name)
            defer { window.close() }
            #expect(!window.usesSharedMemory)
            buildTree(in: window.rootLayer)
            #expect(await pump(window) { !window.needsFrame })
            let shown = try window.readPixels()
            let same = shown == window.host.makeImage()
            #expect(same)
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func badRectanglesAndRatesAreHeldNotFatal() async throws {
            let name = try #require(testDisplay.name)
            let window = try Window(size: Size(width: 80, height: 60), scale: 1, display: name)
            defer { window.close() }
            buildTree(in: window.rootLayer)
            #expect(await pump(window) { !window.needsFrame })
            let bad = [
                Rect(x: .nan, y: 0, width: 10, height: 10), Rect(x: 0, y: 0, width: .infinity, height: 10),
                Rect(x: -1e30, y: -1e30, width: 2e30, height: 2e30), Rect(x: 1e30, y: 5, width: 10, height: 10),
                Rect(x: -50, y: -50, width: 10, height: 10), Rect(x: 10, y: 10, width: 0, height: 0),
            ]
            window.presentFrame(rects: bad)
            window.presentFrame(rects: [])
            let same = try window.readPixels() == window.host.makeImage()
            #expect(same)
            for (rate, held) in [(Double.nan, 60.0), (.infinity, 60), (0, 60), (-5, 60), (1e30, 1000), (144, 144)] {
                let w = try Window(size: Size(width: 10, height: 10), display: name, framesPerSecond: rate)
                #expect(w.framesPerSecond == held)
                w.close()
            }
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func anIdleWindowStopsRendering() async throws {
            let name = try #require(testDisplay.name)
            let window = try Window(size: Size(width: 100, height: 100), scale: 1, display: name)
            defer { window.close() }
            buildTree(in: window.rootLayer)
            #expect(await pump(window) { !window.needsFrame })
            let frames = window.host.statistics.framesRendered
            // Nothing changes: no frame is due and none is rendered.
            for _ in 0..<10 {
                window.processEvents()
                #expect(!window.renderFrameIfNeeded())
            }
            #expect(window.host.statistics.framesRendered == frames)
            // A change is a frame again.
            window.rootLayer.sublayers[0].backgroundColor = .black
            #expect(await pump(window) { window.host.statistics.framesRendered > frames })
        }

        @Test func withoutADisplayTheWindowThrowsAClearError() throws {
            #expect(throws: WindowError.noDisplay(":987")) {
                _ = try Window(size: Size(width: 100, height: 100), display: ":987")
            }
            #expect(WindowError.noDisplay(":987").description.contains(":987"))
            #expect(WindowError.noDisplay("").description.contains("DISPLAY"))
            #expect(!displayIsAvailable(":987"))
            for bad in [Size(width: 0, height: 10), Size(width: .nan, height: 10), Size(width: -5, height: 10), Size(width: 1e9, height: 1)] {
                #expect(throws: WindowError.self) { _ = try Window(size: bad, display: ":987") }
            }
        }

        @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func aServerThatGoesAwayClosesTheWindowWithoutEndingTheProcess()
            async throws
        {
            _ = try #require(testDisplay.name)
            let server = try VirtualDisplay(width: 320, height: 240)
            let window = try Window(size: Size(width: 100, height: 80), display: server.name)
            var closed = false
            window.onClose = { closed = true }
            buildTree(in: window.rootLayer)
            #expect(await pump(window) { !window.needsFrame })
            server.stop()
            window.rootLayer.sublayers[0].backgroundColor = .black
            #expect(await pump(window) { !window.isOpen })
            #expect(closed && window.connectionLost)
            #expect(!window.renderFrameIfNeeded())
        }

        @Test func theScaleComesFromXftDpi() {
            #expect(scale(fromResources: "Xft.dpi:\t192\nXft.antialias:\t1\n") == 2)
            #expect(scale(fromResources: "Xft.antialias: 1\nXft.dpi: 144") == 1.5)
            #expect(scale(fromResources: "Xft.dpi: 120") == 1.25)
            #expect(scale(fromResources: "") == 1)
            #expect(scale(fromResources: "Xft.dpi: nan") == 1)
            #expect(scale(fromResources: "Xft.dpi: -96") == 1)
            #expect(scale(fromResources: "Xft.dpi: 96000") == 4)
        }
    }
}
