// The ruler as an app: `swift run --package-path Examples SeedWeightRuler`
// opens a window on the X11 display (drag the ruler); with
// STRATA_HEADLESS_OUTPUT=DIR it writes the window's picture there.
import UIKit

final class RulerViewController: UIViewController, DTRulerViewDelegate {
    let weightLabel = UILabel()
    var ruler: DTRulerView!

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = DTTheme.temporaryViewBackgroundColor
        weightLabel.frame = CGRect(x: 0, y: 30, width: view.bounds.width, height: 40)
        weightLabel.font = UIFont.boldSystemFont(ofSize: 32)
        weightLabel.textColor = .white
        weightLabel.textAlignment = .center
        view.addSubview(weightLabel)
        ruler = DTRulerView(frame: CGRect(x: 0, y: 90, width: view.bounds.width, height: 64), weight: 72.5)
        ruler.rulerViewDelegate = self
        view.addSubview(ruler)
        // The arrow at the middle that points at the weight.
        let arrow = CAShapeLayer()
        let path = CGMutablePath()
        path.move(to: CGPoint(x: view.bounds.midX - 8, y: 80))
        path.addLine(to: CGPoint(x: view.bounds.midX + 8, y: 80))
        path.addLine(to: CGPoint(x: view.bounds.midX, y: 92))
        path.closeSubpath()
        arrow.path = path
        arrow.fillColor = UIColor.white.cgColor
        view.layer.addSublayer(arrow)
        weightLabel.text = String(format: "%.1f kg", 72.5)
    }

    func rulerViewDidChange(_ rulerView: DTRulerView, weight: Float) {
        weightLabel.text = String(format: "%.1f kg", weight)
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: CGRect(x: 0, y: 0, width: 375, height: 180))
        window?.rootViewController = RulerViewController()
        window?.makeKeyAndVisible()
        return true
    }
}
