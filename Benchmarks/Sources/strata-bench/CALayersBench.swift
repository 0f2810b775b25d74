import Foundation
import UIKit

import func StrataDemos.medianMilliseconds

/// The layers benchmark's cases built through Core Animation's names
/// (`CALayer`, `CATransaction`, `CABasicAnimation`), in an offscreen
/// `UIWindow`, as iOS code builds them: what the QuartzCore front end costs
/// over the native layer API, case for case.
@MainActor
enum CALayersBench {
    static func run(repeat count: Int, wanted: (String) -> Bool, report: (String, @autoclosure () -> Double) -> Void) {
        if wanted("commit-10k") || wanted("commit-10k-animated") { commit10k(count, report) }
        if wanted("animate-1k") { animate1k(count, report) }
    }

    static func window() -> UIWindow {
        let w = UIWindow(frame: CGRect(x: 0, y: 0, width: 1920, height: 1080))
        w.makeKeyAndVisible()
        return w
    }

    /// commit-10k (and -animated): 10,000 layers move in one transaction.
    static func commit10k(_ count: Int, _ report: (String, @autoclosure () -> Double) -> Void) {
        let w = window()
        var layers: [CALayer] = []
        for i in 0..<10_000 {
            let l = CALayer()
            l.frame = CGRect(x: Double(i % 100) * 19, y: Double(i / 100) * 10, width: 16, height: 8)
            l.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.5, blue: 0.8, alpha: 1)
            w.layer.addSublayer(l)
            layers.append(l)
        }
        _ = w.snapshotImage()
        var step = 0.0
        func move(animated: Bool) {
            step += 1
            CATransaction.begin()
            CATransaction.setDisableActions(!animated)
            let dx: CGFloat = step.truncatingRemainder(dividingBy: 2) == 0 ? 1 : -1
            for l in layers { l.position = CGPoint(x: l.position.x + dx, y: l.position.y) }
            CATransaction.commit()
        }
        report("commit-10k", medianMilliseconds(repeat: count) { move(animated: false) })
        report("commit-10k-animated", medianMilliseconds(repeat: count) { move(animated: true) })
        w.close()
    }

    /// animate-1k: one frame of 1,000 layers with running animations.
    static func animate1k(_ count: Int, _ report: (String, @autoclosure () -> Double) -> Void) {
        let w = window()
        for i in 0..<1_000 {
            let l = CALayer()
            l.frame = CGRect(x: Double(i % 40) * 48, y: Double(i / 40) * 43, width: 40, height: 36)
            l.backgroundColor = CGColor(red: 0.3, green: Double(i % 10) / 10, blue: 0.9, alpha: 1)
            l.cornerRadius = 6
            w.layer.addSublayer(l)
            let move = CABasicAnimation(keyPath: "position.x")
            move.byValue = 40.0
            move.duration = 2
            move.repeatCount = .infinity
            move.autoreverses = true
            l.add(move, forKey: "move")
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1.0
            fade.toValue = 0.3
            fade.duration = 1.5
            fade.repeatCount = .infinity
            fade.autoreverses = true
            l.add(fade, forKey: "fade")
        }
        _ = w.snapshotImage()
        report("animate-1k", medianMilliseconds(repeat: count) { w.advance(by: 1.0 / 60) })
    }
}
