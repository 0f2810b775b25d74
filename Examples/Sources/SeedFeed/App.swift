// The feed as an app: `swift run --package-path Examples SeedFeed` opens a
// window on the X11 display (fling it); with STRATA_HEADLESS_OUTPUT=DIR it
// writes the window's picture there.
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        window?.rootViewController = FeedViewController()
        window?.makeKeyAndVisible()
        return true
    }
}
