import Foundation
import StrataAccessibility
import StrataControls
import StrataGraphics
import StrataLayers
import StrataTestSupport
import StrataX11Testing
import Testing

@testable import StrataX11

/// ibus with its pinyin engine, on the test display: a session bus of its
/// own, `ibus-daemon` with its XIM server, the engine chosen; stopped with
/// `stop()`. Each test that starts one gets fresh configuration and user
/// dictionaries (the bus's folders).
final class PinyinInputMethod {
    private let bus: PrivateSessionBus

    /// Whether ibus and its libpinyin engine are installed
    /// (`scripts/install-deps.sh` installs them).
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ibus-daemon")
            && FileManager.default.fileExists(atPath: "/usr/share/ibus/component/libpinyin.xml") && PrivateSessionBus.isInstalled
    }
    static let requirement: Comment = "needs ibus and ibus-libpinyin, which scripts/install-deps.sh installs"

    init(display: String) throws {
        bus = try PrivateSessionBus("ibus", extra: ["DISPLAY": display])
        bus.set("IBUS_ADDRESS", "unix:path=\(bus.folder)/ibus")
        let env = bus.environment
        do {
            let daemon = try runProgram(
                "/usr/bin/ibus-daemon",
                ["--xim", "--daemonize", "--replace", "--panel=disable", "--emoji-extension=disable", "--address=\(env["IBUS_ADDRESS"]!)"],
                environment: env)
            guard daemon.status == 0 else { throw ProgramFailure(description: "ibus-daemon: \(daemon.output)") }
            // The engine can be chosen once the daemon answers. `ibus engine
            // NAME` exits with 1 where it cannot set the keyboard layout
            // (no setxkbmap), having chosen the engine: the query says.
            let deadline = Date().addingTimeInterval(45)
            while true {
                _ = try? runProgram("/usr/bin/ibus", ["engine", "libpinyin"], environment: env)
                let current = try? runProgram("/usr/bin/ibus", ["engine"], environment: env)
                if current?.output.trimmingCharacters(in: .whitespacesAndNewlines) == "libpinyin" { break }
                guard Date() < deadline else { throw ProgramFailure(description: "ibus did not take the libpinyin engine") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        } catch {
            bus.stop()
            throw error
        }
    }

    func stop() {
        _ = try? runProgram("/usr/bin/ibus", ["exit"], environment: bus.environment)
        bus.stop()
    }
}

extension X11Tests {
    @MainActor
    @Suite struct InputMethodTests {
        @Test(
            .enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement),
            .enabled(if: PinyinInputMethod.isInstalled, PinyinInputMethod.requirement))
        func pinyinTypedThroughIbusGivesChineseWithThePreeditShown() async throws {
            let name = try #require(testDisplay.name)
            let ime = try PinyinInputMethod(display: name)
            defer { ime.stop() }
            let root = View(frame: Rect(x: 0, y: 0, width: 320, height: 60))
            let field = TextField(frame: Rect(x: 10, y: 10, width: 300, height: 36))
            root.addSubview(field)
            // The XIM server registers itself a moment after the engine is set.
            var window: Window?
            for _ in 0..<30 {
                let w = try Window(title: "ime", size: Size(width: 320, height: 60), scale: 1, display: name, inputMethod: "@im=ibus")
                if w.drawsInputMethodPreedit {
                    window = w
                    break
                }
                w.close()
                try await Task.sleep(nanoseconds: 200_000_000)
            }
            let win = try #require(window, "ibus's XIM server never answered")
            defer { win.close() }
            win.rootView = root
            _ = await pump(win) { !win.needsFrame }
            #expect(field.becomeFirstResponder())
            let input = try SyntheticInput(display: name)
            let o = win.screenOrigin
            input.move(toX: o.x + 100, y: o.y + 30)
            input.sync()
            _ = await pump(win, timeout: 0.5) { false }
            // n i h a o, a key at a time as a typist sends them: the
            // pre-edit changes with each (libpinyin shows its best
            // conversion so far), underlined, nothing committed.
            var preedits: [String] = []
            /// Notes the pre-edit when it changed.
            func note() {
                guard let marked = field.editableText.markedRange else { return }
                let text = field.editableText.text(in: marked)
                if preedits.last != text { preedits.append(text) }
            }
            func composed() -> Bool { preedits.last.map { $0.contains("你好") || $0.filter(\.isLetter).hasPrefix("nihao") } ?? false }
            for keysym: UInt in [0x6E, 0x69, 0x68, 0x61, 0x6F] {
                input.key(keysym, down: true)
                input.key(keysym, down: false)
                input.sync()
                let before = preedits.count
                _ = await pump(win, timeout: 3) {
                    note()
                    return preedits.count > before
                }
            }
            // On a busy machine the engine's last answer can come later than a key's wait.
            _ = await pump(win, timeout: 10) {
                note()
                return composed()
            }
            #expect(preedits.count >= 3, "pre-edits seen: \(preedits)")
            #expect(composed(), "pre-edits seen: \(preedits)")
            #expect(field.editableText.markedRange != nil)
            let shown = try win.readPixels()
            try? shown.writePNG(to: "/tmp/strata-ibus-preedit.png")
            // Space takes the first candidate.
            input.key(0x20, down: true)
            input.key(0x20, down: false)
            input.sync()
            #expect(
                await pump(win, timeout: 10) { field.text == "你好" && field.editableText.markedRange == nil },
                "text \(field.text), marked \(String(describing: field.editableText.markedRange))")
            #expect(field.selectedRange == 2..<2)
            _ = await pump(win, timeout: 0.3) { false }
            try? win.readPixels().writePNG(to: "/tmp/strata-ibus-committed.png")
            // A screen reader reads what the input method committed, and the caret after it.
            let reader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("StrataAccessibilityTests/atspi_read.py").path
            guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher") else { return }
            let a11y = try PrivateSessionBus("ime-a11y")
            defer { a11y.stop() }
            try AccessibilityBridge.setEnabled(true, sessionBus: a11y.address)
            let bridge = try AccessibilityBridge(rootView: root, name: "Strata IME test", sessionBus: a11y.address)
            defer { bridge.close() }
            let (output, _) = try runProgram("/usr/bin/python3", [reader, bridge.name], environment: a11y.environment) {
                bridge.answerPendingCalls()
            }
            let entry = output.range(of: "\"text\": \"\\u4f60\\u597d\", \"caret\": 2")
            #expect(entry != nil, "the reader printed: \(output)")
        }
    }
}
