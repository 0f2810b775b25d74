internal import CoreGraphics
public import Foundation
package import StrataControls
internal import StrataGraphics
package import StrataLayers
internal import StrataWindow

/// A window (`UIWindow`): the root of a view tree on screen. Shown by
/// `makeKeyAndVisible()`: in an X11 window when the application runs on a
/// display (`UIApplicationMain`), otherwise in an offscreen frame that
/// renders the same way (for tests and headless rendering).
@MainActor
open class UIWindow: UIView {
    open var rootViewController: UIViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            if let old = oldValue, old.isViewLoaded, old.view.superview === self {
                if isVisible { old.beginAppearance(false) }
                old.view.removeFromSuperview()
                if isVisible { old.endAppearance(false) }
            }
            installRootView()
        }
    }

    public private(set) var isKeyWindow = false
    /// The X11 display this window opens on when shown (a Strata addition);
    /// nil, the default, takes the application's `displayName`.
    public var displayName: String?
    open var windowLevel: CGFloat = 0
    open var screen: UIScreen = .main
    private var isVisible = false
    /// The offscreen frame showing the window (no X11 window).
    package private(set) var host: LayerHost?
    /// The dispatcher its input goes through.
    package private(set) var dispatcher: InputDispatcher?
    /// The X11 window showing it.
    var platformWindow: StrataWindow.Window?

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isHidden = true
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isHidden = true
    }

    /// A window the size of the main screen.
    public convenience init() { self.init(frame: UIScreen.main.bounds) }

    private func installRootView() {
        guard let vc = rootViewController else { return }
        let outer = UIViewController.loadingFrame
        UIViewController.loadingFrame = bounds
        let v = vc.view!
        UIViewController.loadingFrame = outer
        v.frame = bounds
        v.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        if isVisible { vc.beginAppearance(true) }
        addSubview(v)
        if isVisible { vc.endAppearance(true) }
    }

    /// Shows the window and makes it the key window.
    open func makeKeyAndVisible() {
        makeKey()
        isHidden = false
        guard !isVisible else { return }
        if bounds.width <= 0 || bounds.height <= 0 { frame = UIScreen.main.bounds }
        attach()
        isVisible = true
        rootViewController?.beginAppearance(true)
        rootViewController?.endAppearance(true)
        layoutIfNeeded()
    }

    open func makeKey() {
        for w in UIApplication.shared.windows where w !== self { w.isKeyWindow = false }
        isKeyWindow = true
        UIApplication.shared.register(self)
    }

    /// Shows the window's tree in a window on the desktop (Wayland or X11,
    /// as the display's name says) when the application runs on one, else
    /// in an offscreen frame.
    private func attach() {
        let size = bounds.size
        let scale = Double(screen.scale)
        if let display = displayName ?? UIApplication.shared.displayName,
            let w = try? StrataWindow.Window(
                title: rootViewController?.title ?? ProcessInfo.processInfo.processName,
                size: Size(width: Double(size.width), height: Double(size.height)), scale: scale, display: display)
        {
            platformWindow = w
            w.rootView = node
            dispatcher = w.dispatcher
            w.onResize = { [weak self] newSize in
                guard let self else { return }
                let s = CGSize(width: newSize.width, height: newSize.height)
                self.rootViewController?.viewWillTransition(to: s, with: ImmediateTransition())
                self.frame = CGRect(origin: .zero, size: s)
            }
            w.onClose = { UIApplication.shared.windowClosed() }
            return
        }
        let w = Swift.max(1, Int((Double(size.width) * scale).rounded(.up)))
        let h = Swift.max(1, Int((Double(size.height) * scale).rounded(.up)))
        guard let host = try? LayerHost(width: w, height: h, scale: scale) else { return }
        self.host = host
        dispatcher = InputDispatcher(rootView: node, host: host)
        frame = CGRect(origin: .zero, size: size)
    }

    /// The window's picture as it is now: commits pending changes, renders
    /// a frame and returns it (nil before `makeKeyAndVisible()`).
    public func snapshotImage() -> UIImage? {
        CATransaction.flush()
        if let host {
            _ = host.renderFrame()
            host.finishRendering()
            return UIImage(cgImage: CGImage(host.makeImage()), scale: CGFloat(host.scale), orientation: .up)
        }
        if let platformWindow {
            _ = platformWindow.renderFrameIfNeeded()
            platformWindow.host.finishRendering()
            return UIImage(cgImage: CGImage(platformWindow.host.makeImage()), scale: CGFloat(platformWindow.scale), orientation: .up)
        }
        return nil
    }

    /// Moves the window's frame on by `seconds` of its clock and renders
    /// (offscreen windows; an X11 window runs on its own clock).
    public func advance(by seconds: TimeInterval) {
        CATransaction.flush()
        _ = host?.advance(by: seconds)
    }

    /// Sends the window a touch as its window system would send the
    /// pointer's (a Strata addition, for tests and scripted input): `.began`
    /// presses the primary button at `location` (in the window's points),
    /// `.moved` drags, `.ended` releases, `.cancelled` cancels. It is hit
    /// tested, watched by gesture recognizers and delivered to
    /// `touchesBegan(_:with:)` and the rest exactly as real input is;
    /// pending changes are committed after it. `timestamp` defaults to the
    /// time of the last event plus 1/60 s.
    public func sendTouch(_ phase: UITouch.Phase, at location: CGPoint, timestamp: TimeInterval? = nil) {
        guard let dispatcher else { return }
        let p: PointerEvent.Phase =
            switch phase {
            case .began: .down
            case .moved, .stationary: .moved
            case .ended: .up
            case .cancelled: .cancelled
            }
        let t = timestamp ?? dispatcher.now + 1.0 / 60
        _ = dispatcher.send(.pointer(PointerEvent(p, at: location.strata, timestamp: t)))
        CATransaction.flush()
    }

    /// Where the window's top left is on its X11 screen, in pixels (a Strata
    /// addition, for synthetic input in tests); nil for an offscreen window.
    public var screenOrigin: CGPoint? {
        platformWindow.map { CGPoint(x: $0.screenOrigin.x, y: $0.screenOrigin.y) }
    }

    /// Closes the window's X11 window, if it has one (a Strata addition).
    public func close() {
        platformWindow?.close()
    }

    open override var next: UIResponder? { UIApplication.shared }
}
