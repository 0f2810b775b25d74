// The graph as an app: `swift run --package-path Examples SeedLiveGraph`
// opens a window on the X11 display where a random sample arrives ten
// times a second; with STRATA_HEADLESS_OUTPUT=DIR it writes frames there.
import UIKit

final class GraphViewController: UIViewController {
    let graph = GraphView(frame: CGRect(x: 0, y: 0, width: 320, height: 120))
    var link: CADisplayLink?

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .black
        graph.frame = CGRect(x: 0, y: 20, width: view.bounds.width, height: 120)
        view.addSubview(graph)
        // A sample every sixth frame: ten a second.
        var frame = 0
        let link = CADisplayLink { [graph] _ in
            frame += 1
            if frame % 6 == 0 { graph.addRandomSample() }
        }
        link.add(to: .main, forMode: .common)
        self.link = link
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 160))
        window?.rootViewController = GraphViewController()
        window?.makeKeyAndVisible()
        return true
    }
}
