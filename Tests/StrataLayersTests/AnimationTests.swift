import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

@Suite struct TimingFunctionTests {
    @Test func namedCurvesHitKnownValues() {
        #expect(TimingFunction.linear.value(at: 0.3) == 0.3)
        for f in [TimingFunction.easeIn, .easeOut, .easeInEaseOut, .default] {
            #expect(f.value(at: 0) == 0 && f.value(at: 1) == 1)
            #expect(f.value(at: -1) == 0 && f.value(at: 2) == 1)
        }
        // Symmetric curve: halfway in time is halfway in value.
        #expect(near(TimingFunction.easeInEaseOut.value(at: 0.5), 0.5, 1e-9))
        // Ease-in starts slow, ease-out starts fast.
        #expect(TimingFunction.easeIn.value(at: 0.25) < 0.25)
        #expect(TimingFunction.easeOut.value(at: 0.25) > 0.25)
        // The curve's own parametric point: at s = 0.5 the Bézier of ease-in is
        // at x = 3·0.42·0.25·0.5 + 3·1·0.5·0.25 + 0.125, y = 3·0.5·0.25 + 0.125.
        let x = 3 * 0.42 * 0.25 * 0.5 + 3 * 0.5 * 0.25 + 0.125, y = 3 * 0.5 * 0.25 * 0 + 3 * 0.25 * 0.5 + 0.125
        #expect(near(TimingFunction.easeIn.value(at: x), y, 1e-9))
    }

    @Test func badControlPointsAreLinearOrClamped() {
        #expect(TimingFunction(controlPoints: .nan, 0, 1, 1) == .linear)
        let f = TimingFunction(controlPoints: -3, 0, 7, 1)
        #expect(f.c1.x == 0 && f.c2.x == 1)
        // Overshoot in y is allowed.
        let back = TimingFunction(controlPoints: 0.3, 1.6, 0.6, 1)
        #expect((0...20).map { back.value(at: Double($0) / 20) }.max()! > 1)
    }
}

@Suite struct MediaTimingTests {
    @Test func repeatsReversesAndFills() {
        var t = MediaTiming()
        t.beginTime = 10
        #expect(t.progress(at: 9, duration: 2) == nil)
        #expect(t.progress(at: 11, duration: 2)! == (0, 0.5))
        #expect(t.progress(at: 12, duration: 2) == nil)  // removed at the end
        t.fillMode = .both
        #expect(t.progress(at: 9, duration: 2)! == (0, 0))
        #expect(t.progress(at: 13, duration: 2)! == (0, 1))
        t.repeatCount = 2.5
        #expect(t.progress(at: 13, duration: 2)! == (1, 0.5))
        #expect(t.progress(at: 20, duration: 2)! == (2, 0.5))  // held at 2.5 iterations
        t.repeatCount = 2
        #expect(t.progress(at: 20, duration: 2)! == (1, 1))
        t.autoreverses = true
        t.repeatCount = 1
        #expect(t.progress(at: 11, duration: 2)! == (0, 0.5))
        #expect(t.progress(at: 13, duration: 2)! == (0, 0.5))  // on the way back
        #expect(t.progress(at: 14.5, duration: 2)! == (0, 0))  // ended where it began
        t.speed = 2
        t.autoreverses = false
        #expect(t.progress(at: 10.5, duration: 2)! == (0, 0.5))
        t.speed = 0
        t.timeOffset = 1.5
        #expect(t.progress(at: 1000, duration: 2)! == (0, 0.75))
    }

    @Test func repeatDurationWinsOverCount() {
        var t = MediaTiming()
        t.repeatDuration = 3
        t.repeatCount = 10
        #expect(t.activeDuration(1) == 3)
        #expect(t.endTime(duration: 1) == 3)
        t.repeatDuration = 0
        t.repeatCount = .infinity
        #expect(t.endTime(duration: 1) == .infinity)
    }
}

@Suite struct AnimationValueTests {
    private func state() -> LayerState {
        var s = LayerState()
        s.position = Point(x: 10, y: 20)
        s.opacity = 0.5
        return s
    }

    @Test func basicFromToByCombinations() {
        var a = BasicAnimation(keyPath: "position.x", from: 0.0, to: 100.0, duration: 1)
        a.beginTime = 1
        var s = state()
        a.apply(at: 1.25, to: &s)
        #expect(s.position.x == 25)
        // from + by; to − by; to only (from the current value); by only.
        for (anim, want) in [
            (BasicAnimation(keyPath: "position.x", from: 0.0, by: 40.0, duration: 1), 10.0),
            (BasicAnimation(keyPath: "position.x", to: 100.0, by: 40.0, duration: 1), 70.0),
            (BasicAnimation(keyPath: "position.x", to: 110.0, duration: 1), 35.0),
            (BasicAnimation(keyPath: "position.x", by: 8.0, duration: 1), 12.0),
            (BasicAnimation(keyPath: "position.x", from: 50.0, duration: 1), 40.0),
        ] {
            var b = anim
            b.beginTime = 1
            var t = state()
            b.apply(at: 1.25, to: &t)
            #expect(t.position.x == want, "\(anim.fromValue as Any) \(anim.toValue as Any) \(anim.byValue as Any)")
        }
    }

    @Test func additiveAndCumulative() {
        var a = BasicAnimation(keyPath: "position", from: Point(x: 0, y: 0), to: Point(x: 10, y: -10), duration: 1)
        a.isAdditive = true
        a.beginTime = 0
        a.timing.beginTime = 0.0001  // not "now"
        var s = state()
        a.apply(at: 0.5001, to: &s)
        #expect(near(s.position.x, 15) && near(s.position.y, 15))
        var c = BasicAnimation(keyPath: "opacity", from: 0.0, to: 0.25, duration: 1)
        c.timing.beginTime = 1
        c.isCumulative = true
        c.repeatCount = 3
        var t = state()
        c.apply(at: 3.5, to: &t)  // third iteration, halfway: 2·0.25 + 0.125
        #expect(near(t.opacity, 0.625))
    }

    @Test func timingFunctionShapesProgress() {
        var a = BasicAnimation(keyPath: "opacity", from: 0.0, to: 1.0, duration: 2)
        a.timing.beginTime = 1
        a.timingFunction = .easeIn
        var s = state()
        a.apply(at: 2, to: &s)
        #expect(near(s.opacity, TimingFunction.easeIn.value(at: 0.5)))
    }

    @Test func keyframesLinearDiscretePacedCubic() {
        var k = KeyframeAnimation(keyPath: "position.y", values: [0.0, 10.0, 40.0], keyTimes: [0, 0.5, 1], duration: 1)
        k.timing.beginTime = 1
        var s = state()
        k.apply(at: 1.25, to: &s)
        #expect(near(s.position.y, 5))
        k.apply(at: 1.75, to: &s)
        #expect(near(s.position.y, 25))
        // Per-segment timing.
        k.timingFunctions = [.easeIn, .linear]
        k.apply(at: 1.25, to: &s)
        #expect(near(s.position.y, 10 * TimingFunction.easeIn.value(at: 0.5)))
        // Discrete: n + 1 key times for n values.
        k.calculationMode = .discrete
        k.keyTimes = [0, 0.2, 0.9, 1]
        k.apply(at: 1.5, to: &s)
        #expect(s.position.y == 10)
        k.apply(at: 1.95, to: &s)
        #expect(s.position.y == 40)
        // Paced: equal speed, so the 10-long first leg takes a quarter of the time.
        k.calculationMode = .paced
        k.apply(at: 1.25, to: &s)
        #expect(near(s.position.y, 10))
        k.apply(at: 1.625, to: &s)
        #expect(near(s.position.y, 25))
        // Cubic (Catmull–Rom) passes through every value and is smooth between.
        k.calculationMode = .cubic
        k.keyTimes = nil
        k.timingFunctions = nil
        k.apply(at: 1.5, to: &s)
        #expect(near(s.position.y, 10))
        k.apply(at: 1.25, to: &s)
        // p0 = p1 = 0 (the first value repeats), p2 = 10, p3 = 40 at t = 0.5.
        let w2 = -1.5 * 0.125 + 2 * 0.25 + 0.25, w3 = 0.5 * 0.125 - 0.5 * 0.25
        #expect(near(s.position.y, 10 * w2 + 40 * w3))
    }

    @Test func keyframesAlongAPath() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: 100, y: 0))
        path.addLine(to: Point(x: 100, y: 100))
        var k = KeyframeAnimation(keyPath: "position", duration: 2)
        k.path = path
        k.timing.beginTime = 1
        var s = state()
        k.apply(at: 2.5, to: &s)  // three quarters of 200
        #expect(near(s.position.x, 100, 1e-6) && near(s.position.y, 50, 1e-6))
    }

    @Test func springSettlesAndOvershoots() {
        var spring = SpringAnimation(keyPath: "position.x", from: 0.0, to: 100.0)
        // Underdamped: ζ = 10 / (2·√100) = 0.5.
        let w0 = 10.0, zeta = 0.5, wd = w0 * (1 - zeta * zeta).squareRoot()
        let t = 0.3
        let want = 1 - exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
        #expect(near(spring.fraction(at: t), want, 1e-12))
        #expect((1...100).map { spring.fraction(at: Double($0) / 100) }.max()! > 1)
        let settle = spring.settlingDuration
        #expect(settle > 0.5 && settle < 2)
        #expect(abs(1 - spring.fraction(at: settle)) <= 0.001)
        // Critically damped and overdamped springs never overshoot.
        spring.damping = 20
        #expect((1...300).allSatisfy { spring.fraction(at: Double($0) / 100) <= 1 })
        spring.damping = 60
        #expect((1...300).allSatisfy { spring.fraction(at: Double($0) / 100) <= 1 })
        #expect(near(spring.fraction(at: 0), 0))
        spring.timing.beginTime = 1
        spring.duration = settle
        var s = LayerState()
        spring.apply(at: 1 + 0.3, to: &s)
        #expect(near(s.position.x, 100 * spring.fraction(at: 0.3)))
        // Bad parameters fall back to defaults.
        var bad = SpringAnimation(keyPath: "opacity", from: 0.0, to: 1.0)
        bad.mass = .nan
        bad.stiffness = -1
        #expect(bad.fraction(at: 0.3) == SpringAnimation(keyPath: "opacity").fraction(at: 0.3))
    }

    @Test func groupsRunChildrenOnTheirTime() {
        var move = BasicAnimation(keyPath: "position.x", from: 0.0, to: 10.0, duration: 1)
        move.timing.beginTime = 1  // one second into the group
        move.fillMode = .both
        let fade = BasicAnimation(keyPath: "opacity", from: 1.0, to: 0.0, duration: 2)
        var group = AnimationGroup([move, fade], duration: 2)
        group.timing.beginTime = 5
        var s = state()
        group.apply(at: 6.5, to: &s)
        #expect(near(s.position.x, 5) && near(s.opacity, 0.25))
        var t = state()
        group.apply(at: 5.5, to: &t)
        #expect(t.position.x == 0)  // before the child starts, its backwards fill
        var u = state()
        group.apply(at: 7.5, to: &u)
        #expect(u.position.x == 10 && u.opacity == 0.5)  // the group has ended: nothing
    }

    @Test func colorsTransformsPathsAndArraysInterpolate() {
        let c = Color.red.interpolated(to: .blue, fraction: 0.25)
        #expect(near(c.red, 0.75) && near(c.blue, 0.25))
        let rot = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let half = Transform3D.identity.interpolated(to: rot, fraction: 0.5)
        let want = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        for (a, b) in zip(matrix(half), matrix(want)) { #expect(near(a, b, 1e-9)) }
        let moved = Transform3D(translationX: 10, y: 0).interpolated(to: Transform3D(translationX: 30, y: 8).scaledBy(x: 3, y: 3), fraction: 0.5)
        #expect(near(moved.m41, 20) && near(moved.m42, 4) && near(moved.m11, 2))
        var p = Path()
        p.move(to: .zero)
        p.addLine(to: Point(x: 10, y: 0))
        var q = Path()
        q.move(to: Point(x: 0, y: 10))
        q.addLine(to: Point(x: 20, y: 10))
        #expect(p.interpolated(to: q, fraction: 0.5).elements == [.move(to: Point(x: 0, y: 5)), .line(to: Point(x: 15, y: 5))])
        var r = q
        r.closeSubpath()
        #expect(p.interpolated(to: r, fraction: 0.4) == p)
        #expect(p.interpolated(to: r, fraction: 0.6) == r)
        #expect([0.0, 1].interpolated(to: [1, 3], fraction: 0.5) == [0.5, 2])
        #expect([0.0].interpolated(to: [1, 3], fraction: 0.5) == [1, 3])
    }

    @Test func transformDecompositionRoundTrips() {
        let samples = [
            Transform3D.identity,
            Transform3D(rotationAngle: 0.7, x: 1, y: 2, z: 3).translatedBy(x: 5, y: -3, z: 2),
            Transform3D(scaleX: 2, y: 3, z: 0.5).rotated(by: 1.1, x: 0, y: 1, z: 0),
            Transform3D(rotationAngle: 2.5, x: 0, y: 0, z: 1).concatenating(.perspective(distance: 500)),
            Transform3D(scaleX: -1, y: 1).translatedBy(x: 4, y: 4),
        ]
        for m in samples {
            let d = DecomposedTransform(m)
            #expect(d != nil)
            guard let d else { continue }
            for (a, b) in zip(matrix(d.recomposed()), matrix(m)) { #expect(near(a, b, 1e-9), "\(m)") }
        }
        let singular = Transform3D(scaleX: 0, y: 1)
        #expect(DecomposedTransform(singular) == nil)
        #expect(singular.interpolated(to: .identity, fraction: 0.4) == singular)
    }

    private func matrix(_ t: Transform3D) -> [Double] {
        [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
    }
}
