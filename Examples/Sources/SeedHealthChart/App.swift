// The seed chart as an app: `swift run --package-path Examples
// SeedHealthChart` opens a window on the X11 display; with
// `STRATA_HEADLESS_OUTPUT=DIR` it writes the window's picture there as
// frame-0001.png instead.
import UIKit

final class ChartViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        // Health's orange.
        view.backgroundColor = UIColor(red: 0.99, green: 0.45, blue: 0.22, alpha: 1)
        let chart = LineChartView(frame: view.bounds.insetBy(dx: 10, dy: 60))
        chart.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        view.addSubview(chart)
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: CGRect(x: 0, y: 0, width: 375, height: 320))
        window?.rootViewController = ChartViewController()
        window?.makeKeyAndVisible()
        return true
    }
}
