// iOS code on Linux: a view that draws itself, a label and a button in a
// window, through Strata's UIKit. `swift run --package-path Examples
// UIKitCard` opens the window on the desktop (Wayland or X11); with
// STRATA_HEADLESS_OUTPUT=DIR it writes the window's picture to DIR instead.
import UIKit

final class CardView: UIView {
    override func draw(_ rect: CGRect) {
        let card = UIBezierPath(roundedRect: bounds.insetBy(dx: 10, dy: 10), cornerRadius: 16)
        UIColor.systemBlue.setFill()
        card.fill()
        "Hello from UIKit on Linux".draw(
            at: CGPoint(x: 30, y: 30), withAttributes: [.font: UIFont.boldSystemFont(ofSize: 22), .foregroundColor: UIColor.white])
    }
}

final class CardViewController: UIViewController {
    let taps = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        let card = CardView(frame: CGRect(x: 20, y: 20, width: 400, height: 140))
        view.addSubview(card)

        taps.frame = CGRect(x: 40, y: 180, width: 300, height: 30)
        taps.text = "Tap the card"
        view.addSubview(taps)

        // A closure where iOS code may use #selector.
        var count = 0
        card.addGestureRecognizer(
            UITapGestureRecognizer { [taps] _ in
                count += 1
                taps.text = "Tapped \(count) times"
            })
    }
}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: CGRect(x: 0, y: 0, width: 440, height: 240))
        window?.rootViewController = CardViewController()
        window?.makeKeyAndVisible()
        return true
    }
}

exit(UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self)))
