import Foundation
import UIKit

import func StrataDemos.median
import func StrataDemos.medianMilliseconds

/// The layers benchmark's cases built through Core Animation's names
/// (`CALayer`, `CATransaction`, `CABasicAnimation`), in an offscreen
/// `UIWindow`, as iOS code builds them: what the QuartzCore front end costs
/// over the native layer API, case for case.
@MainActor
enum CALayersBench {
    static func run(repeat count: Int, wanted: (String) -> Bool, report: (String, @autoclosure () -> Double) -> Void) {
        if wanted("commit-10k") || wanted("commit-10k-animated") {
            let (move, window) = commitScene()
            report("commit-10k", medianMillisecondsSettled(repeat: count) { move(false) })
            report("commit-10k-animated", medianMillisecondsSettled(repeat: count) { move(true) })
            window.close()
        }
        if wanted("animate-1k") {
            let (frame, window) = animateScene()
            report("animate-1k", medianMilliseconds(repeat: count) { frame() })
            window.close()
        }
    }

    /// Both front ends in one process, their rounds alternated: each case's
    /// native scene and Core Animation scene are built side by side, then
    /// `rounds` times a run of `count / rounds` native frames is followed by
    /// as many Core Animation ones. The medians over all of each side's
    /// frames are reported as `strata` and `strata-ca` lines. Separate
    /// processes differ by more than the facade costs: the commit's
    /// allocations run at speeds that depend on the heap each process was
    /// dealt (the same native commit ran from 3 to 8 ms process to process),
    /// so the comparison is made within one heap.
    static func runBoth(
        repeat count: Int, rounds: Int, wanted: (String) -> Bool, report: (String, String, @autoclosure () -> Double) -> Void
    ) throws {
        let perRound = max(1, count / max(1, rounds))
        func alternate(_ settled: Bool, _ native: () -> Void, _ ca: () -> Void) -> (Double, Double) {
            var a: [Double] = [], b: [Double] = []
            for _ in 0..<max(1, rounds) {
                a += timedRuns(perRound, settled: settled, native)
                b += timedRuns(perRound, settled: settled, ca)
            }
            return (median(a), median(b))
        }
        if wanted("commit-10k") || wanted("commit-10k-animated") {
            let native = try LayersBench.commitScene()
            let (ca, window) = commitScene()
            for animated in [false, true] {
                let name = animated ? "commit-10k-animated" : "commit-10k"
                guard wanted(name) else { continue }
                let (n, c) = alternate(true, { native(animated) }, { ca(animated) })
                report("strata", name, n)
                report("strata-ca", name, c)
            }
            window.close()
        }
        if wanted("animate-1k") {
            let native = try LayersBench.animateScene()
            let (ca, window) = animateScene()
            let (n, c) = alternate(false, native, ca)
            report("strata", "animate-1k", n)
            report("strata-ca", "animate-1k", c)
            window.close()
        }
    }

    static func window() -> UIWindow {
        let w = UIWindow(frame: CGRect(x: 0, y: 0, width: 1920, height: 1080))
        w.makeKeyAndVisible()
        return w
    }

    /// commit-10k's scene through `CALayer`: 10,000 layers on screen.
    /// Returns one round (all moved in one `CATransaction`, with implicit
    /// animations when passed true) and the window.
    static func commitScene() -> ((_ animated: Bool) -> Void, UIWindow) {
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
        let move = { (animated: Bool) in
            step += 1
            CATransaction.begin()
            CATransaction.setDisableActions(!animated)
            let dx: CGFloat = step.truncatingRemainder(dividingBy: 2) == 0 ? 1 : -1
            for l in layers { l.position = CGPoint(x: l.position.x + dx, y: l.position.y) }
            CATransaction.commit()
        }
        return (move, w)
    }

    /// animate-1k's scene through `CABasicAnimation`: 1,000 layers with
    /// running animations. Returns one round (a frame) and the window.
    static func animateScene() -> (() -> Void, UIWindow) {
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
        return ({ w.advance(by: 1.0 / 60) }, w)
    }
}
