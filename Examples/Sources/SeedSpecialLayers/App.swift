// The chapter's special layers as an app: `swift run --package-path
// Examples SeedSpecialLayers` shows every listing in one window on the X11
// display (drag the scroll layer's grid); with STRATA_HEADLESS_OUTPUT=DIR
// it writes the window's picture there.
import UIKit

/// Every listing's controller, side by side, four to a row.
final class GalleryViewController: UIViewController {
    let listings: [ListingViewController] = [
        RichTextViewController(), CubesViewController(), GradientViewController(), GradientLocationsViewController(),
        ReplicatorViewController(), ReflectionViewController(), ScrollLayerViewController(), TiledLayerViewController(),
    ]

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .white
        for (i, listing) in listings.enumerated() {
            addChild(listing)
            listing.view.frame = CGRect(x: (i % 4) * 240, y: (i / 4) * 240, width: 240, height: 240)
            view.addSubview(listing.view)
            listing.didMove(toParent: self)
        }
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: CGRect(x: 0, y: 0, width: 960, height: 480))
        window?.rootViewController = GalleryViewController()
        window?.makeKeyAndVisible()
        return true
    }
}
