internal import CoreGraphics
public import Foundation

/// Manages a view (`UIViewController`): loads it when first asked for,
/// and tells it of its life: loading, appearing, layout, disappearing.
@MainActor
open class UIViewController: UIResponder {
    private var loadedView: UIView?
    open var title: String?
    public private(set) var children: [UIViewController] = []
    public private(set) weak var parent: UIViewController?
    open var preferredContentSize: CGSize = .zero
    /// The nib name (there are no nibs here; kept for source compatibility).
    public let nibName: String?

    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        nibName = nibNameOrNil
        super.init()
    }

    public required init?(coder: NSCoder) {
        nibName = nil
        super.init(coder: coder)
    }

    public override convenience init() { self.init(nibName: nil, bundle: nil) }

    /// The view, loaded (`loadView()`, then `viewDidLoad()`) when first asked for.
    open var view: UIView! {
        get {
            if loadedView == nil { loadViewIfNeeded() }
            return loadedView
        }
        set {
            loadedView?.viewController = nil
            loadedView = newValue
            newValue?.viewController = self
        }
    }

    public var isViewLoaded: Bool { loadedView != nil }
    public var viewIfLoaded: UIView? { loadedView }

    /// The frame a view loaded now gets: the window's bounds while a window
    /// installs its root view controller (on iOS the screen's, which is the
    /// window's there), else the main screen's.
    static var loadingFrame: CGRect?

    /// Makes the view: a plain `UIView` the size of the window it is
    /// loaded for (the main screen's otherwise). Override to make your own
    /// (and set `view`).
    open func loadView() {
        view = UIView(frame: UIViewController.loadingFrame ?? UIScreen.main.bounds)
    }

    open func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { view = UIView(frame: UIViewController.loadingFrame ?? UIScreen.main.bounds) }
        viewDidLoad()
    }

    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func viewWillLayoutSubviews() {}
    open func viewDidLayoutSubviews() {}

    /// Called before the view's size changes with its window's: `size` is
    /// the new one. Call `super` (it forwards to the children).
    open func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {
        for c in children { c.viewWillTransition(to: size, with: coordinator) }
    }

    open override var next: UIResponder? { loadedView?.superview }

    // MARK: Children

    open func addChild(_ childController: UIViewController) {
        childController.removeFromParent()
        childController.willMove(toParent: self)
        children.append(childController)
        childController.parent = self
    }

    open func removeFromParent() {
        guard let p = parent else { return }
        p.children.removeAll { $0 === self }
        parent = nil
        didMove(toParent: nil)
    }

    open func willMove(toParent parent: UIViewController?) {}
    open func didMove(toParent parent: UIViewController?) {}

    // MARK: Appearance, driven by the window

    func beginAppearance(_ appearing: Bool) {
        if appearing { viewWillAppear(false) } else { viewWillDisappear(false) }
        for c in children { c.beginAppearance(appearing) }
    }

    func endAppearance(_ appearing: Bool) {
        if appearing { viewDidAppear(false) } else { viewDidDisappear(false) }
        for c in children { c.endAppearance(appearing) }
    }
}
