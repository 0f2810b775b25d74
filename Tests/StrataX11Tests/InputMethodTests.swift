import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataX11Testing
import Testing

@testable import StrataX11

/// ibus with its pinyin engine, on the test display: a session bus of its
/// own, `ibus-daemon` with its XIM server, the engine chosen; stopped with
/// `stop()`. Each test that starts one gets fresh configuration and user
/// dictionaries (in a temporary folder).
final class PinyinInputMethod {
    let folder: String
    let environment: [String: String]
    private var busPID: pid_t = 0

    /// Whether ibus and its libpinyin engine are installed
    /// (`scripts/install-deps.sh` installs them).
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/ibus-daemon")
            && FileManager.default.fileExists(atPath: "/usr/share/ibus/component/libpinyin.xml")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }
    static let requirement: Comment = "needs ibus and ibus-libpinyin, which scripts/install-deps.sh installs"

    init(display: String) throws {
        folder = NSTemporaryDirectory() + "strata-ibus-\(getpid())-\(UUID().uuidString.prefix(8))"
        for sub in ["config", "cache", "data"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
        }
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["XDG_CONFIG_HOME"] = "\(folder)/config"
        env["XDG_CACHE_HOME"] = "\(folder)/cache"
        env["XDG_DATA_HOME"] = "\(folder)/data"
        env["GSETTINGS_BACKEND"] = "memory"
        // ibus-x11 is a GTK program: no accessibility bus for it.
        env["NO_AT_BRIDGE"] = "1"
        env["LANG"] = "C.UTF-8"
        env["IBUS_ADDRESS"] = "unix:path=\(folder)/ibus"
        let bus = try Self.run("/usr/bin/dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"], env)
        let lines = bus.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let pid = pid_t(lines[1]) else { throw PinyinError.failed("dbus-daemon said: \(bus)") }
        busPID = pid
        env["DBUS_SESSION_BUS_ADDRESS"] = lines[0]
        environment = env
        do {
            _ = try Self.run(
                "/usr/bin/ibus-daemon",
                ["--xim", "--daemonize", "--replace", "--panel=disable", "--emoji-extension=disable", "--address=\(env["IBUS_ADDRESS"]!)"],
                env)
            // The engine can be chosen once the daemon answers. `ibus engine
            // NAME` exits with 1 where it cannot set the keyboard layout
            // (no setxkbmap), having chosen the engine: the query says.
            let deadline = Date().addingTimeInterval(15)
            while true {
                _ = try? Self.run("/usr/bin/ibus", ["engine", "libpinyin"], env)
                if (try? Self.run("/usr/bin/ibus", ["engine"], env)) == "libpinyin" { break }
                guard Date() < deadline else { throw PinyinError.failed("ibus did not take the libpinyin engine") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        _ = try? Self.run("/usr/bin/ibus", ["exit"], environment)
        if busPID > 0 { kill(busPID, SIGTERM) }
        busPID = 0
        try? FileManager.default.removeItem(atPath: folder)
    }

    enum PinyinError: Error { case failed(String) }

    /// Runs `path` with `arguments` and `environment`, waiting (up to 20
    /// s) for it to exit; its output, or an error when it fails. Spawned
    /// with `posix_spawn` and its output through a file: `Process` waits
    /// for its child on the main queue, which a main-actor test holds, and
    /// a daemon that forks keeps a pipe open after the command returns.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], _ environment: [String: String]) throws -> String {
        let file = NSTemporaryDirectory() + "strata-run-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { unlink(file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for a in argv + envp { free(a) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw PinyinError.failed("\(path): posix_spawn error \(spawned)") }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(20)
        while waitpid(child, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
                throw PinyinError.failed("\(path) \(arguments) did not finish")
            }
            usleep(20_000)
        }
        let text = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Exited with 0 (WIFEXITED and WEXITSTATUS, macros Swift cannot call).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw PinyinError.failed("\(path) \(arguments): status \(status) \(text)")
        }
        return text
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
            for keysym: UInt in [0x6E, 0x69, 0x68, 0x61, 0x6F] {
                input.key(keysym, down: true)
                input.key(keysym, down: false)
                input.sync()
                let before = preedits.count
                _ = await pump(win, timeout: 3) {
                    if let marked = field.editableText.markedRange {
                        let text = field.editableText.text(in: marked)
                        if preedits.last != text { preedits.append(text) }
                    }
                    return preedits.count > before
                }
            }
            #expect(preedits.count >= 3, "pre-edits seen: \(preedits)")
            #expect(preedits.last.map { $0.contains("你好") || $0.filter(\.isLetter).hasPrefix("nihao") } ?? false, "pre-edits seen: \(preedits)")
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
        }
    }
}
