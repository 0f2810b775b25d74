internal import CoreGraphics
public import Foundation
internal import StrataGraphics
internal import StrataLayers
internal import StrataWindow

/// What the application tells its delegate (`UIApplicationDelegate`):
/// every method is optional.
@MainActor
public protocol UIApplicationDelegate: AnyObject {
    /// The window the app shows (set it in `application(_:didFinishLaunchingWithOptions:)`).
    var window: UIWindow? { get set }
    func application(_ application: UIApplication, willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    func applicationDidBecomeActive(_ application: UIApplication)
    func applicationWillResignActive(_ application: UIApplication)
    func applicationDidEnterBackground(_ application: UIApplication)
    func applicationWillEnterForeground(_ application: UIApplication)
    func applicationWillTerminate(_ application: UIApplication)
}

extension UIApplicationDelegate {
    public var window: UIWindow? {
        get { nil }
        set {}
    }
    public func application(_ application: UIApplication, willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?)
        -> Bool
    { true }
    public func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    { true }
    public func applicationDidBecomeActive(_ application: UIApplication) {}
    public func applicationWillResignActive(_ application: UIApplication) {}
    public func applicationDidEnterBackground(_ application: UIApplication) {}
    public func applicationWillEnterForeground(_ application: UIApplication) {}
    public func applicationWillTerminate(_ application: UIApplication) {}

    /// The entry point `@main` calls on an application delegate: makes the
    /// delegate (through `init?(coder:)`, which every `UIResponder` has)
    /// and runs `UIApplicationMain`.
    public static func main() {
        let code = UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(Self.self))
        exit(code)
    }
}

/// The running application (`UIApplication.shared`): its delegate and windows.
@MainActor
open class UIApplication: UIResponder {
    public static let shared = UIApplication()

    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let url = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsURLKey")
    }

    public enum State: Int, Sendable { case active, inactive, background }

    /// The delegate (held strongly here: `UIApplicationMain` makes it).
    open var delegate: (any UIApplicationDelegate)?
    /// The application's windows that exist (held weakly, as UIKit does:
    /// an app keeps its window in its delegate's `window`).
    public var windows: [UIWindow] { windowRefs.compactMap(\.window) }
    private var windowRefs: [WeakWindow] = []

    private struct WeakWindow {
        weak var window: UIWindow?
    }
    public private(set) var applicationState = State.inactive
    /// The X11 display windows open on when shown (a Strata addition):
    /// `UIApplicationMain` sets it from `DISPLAY`; nil, the default, shows
    /// windows offscreen (as tests and headless renderers want). Set it
    /// before `makeKeyAndVisible()` to put a window on a display yourself.
    public var displayName: String?
    var usesDisplay: Bool { displayName != nil }
    private var running = false

    private override init() { super.init() }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    open var keyWindow: UIWindow? { windows.first { $0.isKeyWindow } }

    func register(_ window: UIWindow) {
        windowRefs.removeAll { $0.window == nil }
        if !windowRefs.contains(where: { $0.window === window }) { windowRefs.append(WeakWindow(window: window)) }
    }

    func windowClosed() {
        if windows.allSatisfy({ $0.platformWindow?.isOpen != true }) { running = false }
    }

    /// Whether `UIApplicationMain` is running its loop.
    public var isRunning: Bool { running }

    /// Ends the run loop of `UIApplicationMain` (Strata's; UIKit apps do not quit).
    public func terminate() { running = false }

    /// Runs the application: makes the delegate, calls its launch methods,
    /// and runs the main loop while a window is open.
    ///
    /// - On a desktop, windows open on its Wayland compositor
    ///   (`WAYLAND_DISPLAY`) or its X11 display (`DISPLAY`), as
    ///   `WindowBackend.preferred(in:)` chooses (`STRATA_WINDOW_BACKEND`
    ///   forces one).
    /// - With `STRATA_HEADLESS_OUTPUT=DIR` (or without a display), windows
    ///   render offscreen; `STRATA_HEADLESS_FRAMES=N` (default 1) frames at
    ///   60 a second are written to DIR as `frame-0001.png`, … and the call
    ///   returns 0. Without a display and without a directory it prints why
    ///   and returns 1.
    package func run(delegateClassName: String?, environment env: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        let output = env["STRATA_HEADLESS_OUTPUT"]
        // The window system the environment has: Wayland's socket, or X's display.
        let display: String? =
            switch WindowBackend.preferred(in: env) {
            case .wayland?: env["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? "wayland-0"
            case .x11?: env["DISPLAY"]
            case nil: nil
            }
        displayName = output == nil ? display.flatMap { $0.isEmpty ? nil : $0 } : nil
        if let name = delegateClassName {
            guard let cls = NSClassFromString(name) as? UIResponder.Type, let made = cls.init(coder: NSCoder()),
                let delegate = made as? any UIApplicationDelegate
            else {
                FileHandle.standardError.write(Data("UIApplicationMain: no application delegate class named \(name)\n".utf8))
                return 1
            }
            self.delegate = delegate
        }
        guard let delegate else {
            FileHandle.standardError.write(Data("UIApplicationMain: no application delegate\n".utf8))
            return 1
        }
        guard usesDisplay || output != nil else {
            FileHandle.standardError.write(
                Data(
                    "UIApplicationMain: no X11 display (DISPLAY is empty); set DISPLAY, or STRATA_HEADLESS_OUTPUT=DIR to render frames offscreen\n"
                        .utf8))
            return 1
        }
        _ = delegate.application(self, willFinishLaunchingWithOptions: nil)
        _ = delegate.application(self, didFinishLaunchingWithOptions: nil)
        if let w = delegate.window, !w.isKeyWindow || w.isHidden { w.makeKeyAndVisible() }
        applicationState = .active
        delegate.applicationDidBecomeActive(self)
        if let output { return renderHeadless(to: output, frames: Int(env["STRATA_HEADLESS_FRAMES"] ?? "") ?? 1) }
        running = true
        while running && windows.contains(where: { $0.platformWindow?.isOpen == true }) {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.25))
        }
        applicationState = .background
        delegate.applicationWillResignActive(self)
        delegate.applicationDidEnterBackground(self)
        delegate.applicationWillTerminate(self)
        return 0
    }

    private func renderHeadless(to folder: String, frames: Int) -> Int32 {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard let window = keyWindow ?? windows.first else {
                FileHandle.standardError.write(Data("UIApplicationMain: the delegate showed no window\n".utf8))
                return 1
            }
            for i in 1...Swift.max(1, Swift.min(frames, 100_000)) {
                if i > 1 { window.advance(by: 1.0 / 60) }
                // Let work queued on the main queue (asynchronous drawing landing) run.
                _ = RunLoop.main.run(mode: .default, before: Date())
                guard let image = window.snapshotImage(), let data = image.pngData() else { return 1 }
                try data.write(to: URL(fileURLWithPath: folder).appendingPathComponent(String(format: "frame-%04d.png", i)))
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("UIApplicationMain: \(error)\n".utf8))
            return 1
        }
    }
}

/// Runs an application with the delegate class named `delegateClassName`
/// (`NSStringFromClass(AppDelegate.self)`): see `UIApplication` for
/// displays and headless runs. Returns the process's exit status.
@MainActor
@discardableResult
public func UIApplicationMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ principalClassName: String?,
    _ delegateClassName: String?
) -> Int32 {
    UIApplication.shared.run(delegateClassName: delegateClassName)
}
