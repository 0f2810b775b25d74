import Foundation
import StrataGraphics
import StrataQueues
import Testing

@testable import StrataLayers

/// An animation kind an app defines: opacity off for the first half of each
/// iteration, on for the second.
struct Blink: Animation {
    var timing = MediaTiming()
    var timingFunction: TimingFunction?
    var isRemovedOnCompletion = true
    var completion: (@MainActor @Sendable (Bool) -> Void)?
    var animatedKeys: [String] { ["opacity"] }
    func apply(at parentTime: Double, to state: inout LayerState) {
        guard let (_, fraction) = progress(at: parentTime) else { return }
        state.opacity = fraction < 0.5 ? 0 : 1
    }
}

@MainActor
@Suite(.serialized) struct AnimationAPITests {
    @Test func anAppsOwnAnimationKindIsEvaluated() {
        let clock = ManualClock()
        let host = try! LayerHost(width: 8, height: 8, clock: clock)
        let l = Layer()
        host.rootLayer.addSublayer(l)
        host.renderFrame()
        var blink = Blink()
        blink.duration = 1
        blink.beginTime = clock.now
        l.add(blink, forKey: "blink")
        clock.advance(by: 0.25)
        #expect(l.presentation().opacity == 0)
        clock.advance(by: 0.5)
        #expect(l.presentation().opacity == 1)
        #expect(blink.affects(keyPath: "opacity") && !blink.affects(keyPath: "position"))
        // Past its end (no fill) the model value shows again.
        clock.advance(by: 1)
        host.renderFrame()
        #expect(l.presentation().opacity == 1 && l.animationKeys.isEmpty)
    }

    @Test func keyPathsAndValuesThatDoNotFitAreReportedAndChangeNothing() {
        let reports = Locked<[String]>([])
        KeyPathDiagnostics.handler.withLock { $0 = { m in reports.withLock { $0.append(m) } } }
        defer { KeyPathDiagnostics.handler.withLock { $0 = nil } }

        var state = LayerState()
        let set = state.setValue(0.5, forKeyPath: "opacity")
        #expect(set && state.opacity == 0.5 && reports.value.isEmpty)
        let misspelt = state.setValue(0.25, forKeyPath: "opactiy")
        let wrongType = state.setValue(Point(x: 1, y: 2), forKeyPath: "opacity")
        let otherKind = state.setValue(0.5, forKeyPath: "strokeEnd")  // not a shape layer
        #expect(!misspelt && !wrongType && !otherKind)
        #expect(state.opacity == 0.5)
        #expect(reports.value.count == 3)
        #expect(reports.value[0].contains("'opactiy' is not an animatable key path"))
        #expect(reports.value[1].contains("holds Double, not Point"))
        #expect(reports.value[2].contains("not a property of this layer"))

        let l = Layer()
        l.name = "card"
        l.add(BasicAnimation(keyPath: "positon.x", to: 10.0, duration: 1), forKey: "a")
        l.add(BasicAnimation(keyPath: "position", to: 10.0, duration: 1), forKey: "b")
        l.add(BasicAnimation(keyPath: "position.x", to: 10.0, duration: 1), forKey: "c")
        #expect(reports.value.count == 5)
        #expect(reports.value[3].contains("layer 'card'") && reports.value[3].contains("positon.x"))
        #expect(reports.value[4].contains("holds Point, not Double"))
        // Added all the same (as Core Animation does), and harmless.
        #expect(l.animationKeys.count == 3)
        #expect(l.presentation().position == l.position || l.presentation().position.y == l.position.y)
    }
}
