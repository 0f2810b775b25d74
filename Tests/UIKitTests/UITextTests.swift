import Foundation
import StrataGraphics
import StrataTestSupport
import Testing
import UIKit

@MainActor
@Suite("Strings, labels and view controllers")
struct UITextTests {
    @Test("Measuring strings: bigger fonts are bigger, wrapping makes taller rectangles")
    func measuring() {
        let small = "Hello, world".size(withAttributes: [.font: UIFont.systemFont(ofSize: 12)])
        let large = "Hello, world".size(withAttributes: [.font: UIFont.systemFont(ofSize: 24)])
        #expect(small.width > 40 && small.height > 12)
        #expect(abs(large.width / small.width - 2) < 0.2)
        #expect("".size(withAttributes: nil).width == 0)
        let text = "The quick brown fox jumps over the lazy dog again and again"
        let attributes: [NSAttributedString.Key: Any] = [.font: UIFont.systemFont(ofSize: 14)]
        let one = text.boundingRect(
            with: CGSize(width: 100, height: CGFloat.greatestFiniteMagnitude), options: [], attributes: attributes, context: nil)
        let wrapped = text.boundingRect(
            with: CGSize(width: 100, height: CGFloat.greatestFiniteMagnitude), options: .usesLineFragmentOrigin, attributes: attributes, context: nil)
        #expect(one.width > 100)
        #expect(wrapped.width <= 100 && wrapped.height > one.height * 3)
        let context = NSStringDrawingContext()
        _ = (text as NSString).boundingRect(
            with: CGSize(width: CGFloat.nan, height: -1), options: .usesLineFragmentOrigin, attributes: attributes, context: context)
        #expect(context.totalBounds.width.isFinite)
    }

    @Test("Drawing strings in an image context: colour, position, y down")
    func drawing() throws {
        let image = UIGraphicsImageRenderer(size: CGSize(width: 80, height: 40)).image { _ in
            "Hi".draw(at: CGPoint(x: 4, y: 2), withAttributes: [.font: UIFont.boldSystemFont(ofSize: 20), .foregroundColor: UIColor.red])
        }
        let p = try pixels(image)
        var inkRows: [Int] = [], redInk = true
        for y in 0..<p.height {
            for x in 0..<p.width where p[x, y].a > 128 {
                inkRows.append(y)
                if p[x, y].g > 40 { redInk = false }
            }
        }
        #expect(!inkRows.isEmpty && redInk)
        #expect(inkRows.min()! >= 2 && inkRows.max()! < 28)
    }

    @Test("Labels size to their text, truncate one line, wrap with numberOfLines 0")
    func labels() throws {
        let label = UILabel(frame: .zero)
        label.text = "Strata"
        label.font = UIFont.systemFont(ofSize: 20)
        label.sizeToFit()
        #expect(label.frame.width > 40 && label.frame.height >= 20)
        #expect(label.frame.width == label.frame.width.rounded(.up))
        #expect(label.intrinsicContentSize == label.frame.size)
        #expect(!label.isUserInteractionEnabled)
        let long = UILabel(frame: CGRect(x: 0, y: 0, width: 60, height: 30))
        long.text = "A long line that cannot fit in sixty points"
        #expect(long.textRect(forBounds: long.bounds, limitedToNumberOfLines: 1).width <= 60)
        long.numberOfLines = 0
        let tall = long.sizeThatFits(CGSize(width: 60, height: 0))
        #expect(tall.width <= 60 && tall.height > 3 * 20)
        let empty = UILabel()
        empty.text = nil
        #expect(empty.sizeThatFits(CGSize(width: 100, height: 100)) == .zero)
        let styled = UILabel()
        styled.attributedText = NSAttributedString(string: "x", attributes: [.foregroundColor: UIColor.green])
        #expect(styled.text == "x")
        // Drawn centred vertically.
        let shown = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
        shown.text = "—"
        shown.textColor = .black
        let w = window(CGSize(width: 100, height: 60), holding: shown)
        let p = try pixels(try #require(w.snapshotImage()))
        var rows: [Int] = []
        for y in 0..<60 where (0..<100).contains(where: { p[$0, y].r < 128 }) { rows.append(y) }
        #expect(!rows.isEmpty && abs(Double(rows.min()! + rows.max()!) / 2 - 30) < 8)
    }

    @Test("A view controller loads its view when asked, and hears it appear and lay out")
    func viewControllerLifeCycle() {
        final class Controller: UIViewController {
            var calls: [String] = []
            override func loadView() {
                calls.append("loadView")
                view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            }
            override func viewDidLoad() { calls.append("viewDidLoad") }
            override func viewWillAppear(_ animated: Bool) { calls.append("viewWillAppear") }
            override func viewDidAppear(_ animated: Bool) { calls.append("viewDidAppear") }
            override func viewWillLayoutSubviews() { calls.append("viewWillLayoutSubviews") }
            override func viewDidLayoutSubviews() { calls.append("viewDidLayoutSubviews") }
        }
        let controller = Controller()
        #expect(!controller.isViewLoaded)
        let w = UIWindow(frame: CGRect(x: 0, y: 0, width: 120, height: 90))
        w.rootViewController = controller
        #expect(controller.calls == ["loadView", "viewDidLoad"])
        w.makeKeyAndVisible()
        #expect(Array(controller.calls.prefix(4)) == ["loadView", "viewDidLoad", "viewWillAppear", "viewDidAppear"])
        #expect(controller.calls.contains("viewDidLayoutSubviews"))
        #expect(controller.view.frame == w.bounds)
        #expect(controller.view.next === controller)
        #expect(w.isKeyWindow && UIApplication.shared.keyWindow === w)
    }

    @Test("UIApplicationMain renders a delegate's window headless, and says why it cannot run")
    func applicationMain() throws {
        let folder = try temporaryFolder("uiapplication")
        let code = UIApplication.shared.run(
            delegateClassName: NSStringFromClass(TestAppDelegate.self),
            environment: ["STRATA_HEADLESS_OUTPUT": folder, "STRATA_HEADLESS_FRAMES": "2"])
        #expect(code == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/frame-0001.png"))
        #expect(FileManager.default.fileExists(atPath: folder + "/frame-0002.png"))
        let frame = try Image(contentsOfPNGFile: folder + "/frame-0002.png")
        #expect(frame.width == 64 && frame[10, 10] == Pixel(r: 0, g: 0, b: 255, a: 255))
        #expect(UIApplication.shared.run(delegateClassName: "NoSuchModule.NoSuchDelegate", environment: ["STRATA_HEADLESS_OUTPUT": folder]) == 1)
        #expect(UIApplication.shared.run(delegateClassName: NSStringFromClass(TestAppDelegate.self), environment: [:]) == 1)
    }
}

@MainActor
final class TestAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let w = UIWindow(frame: CGRect(x: 0, y: 0, width: 64, height: 48))
        let controller = UIViewController()
        controller.view.backgroundColor = .blue
        w.rootViewController = controller
        window = w
        w.makeKeyAndVisible()
        return true
    }
}
