import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

/// Hostile layer values: every setter keeps its value finite and in range, and
/// the compositor draws whatever an animation makes without trapping.
@Suite @MainActor struct LayerValueTests {
    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e30, -1e30, .greatestFiniteMagnitude]

    @Test func shadowsWithHostileOffsetsAndRadiiComposite() {
        // These trapped converting to Int in the compositor's shadow spread.
        // (Radii past the limit all blur by 1000 points, which is slow in a debug
        // build: one of them is enough.)
        for (i, v) in LayerValueTests.hostile.enumerated() {
            let radius = [.nan, -.infinity, 1e30][i % 3]
            let (_, b) = render { root in
                let card = layer(Rect(x: 20, y: 20, width: 40, height: 40), .red)
                card.shadowOpacity = 1
                card.shadowOffset = Size(width: v, height: v)
                card.shadowRadius = i < 3 ? radius : 2
                root.addSublayer(card)
                let other = layer(Rect(x: 60, y: 60, width: 20, height: 20), .blue)
                other.shadowOpacity = 0.5
                other.shadowRadius = i < 3 ? radius : 2
                other.shadowPath = Path(rect: other.bounds)
                root.addSublayer(other)
            }
            #expect(near(b[40, 40], red, 2), "\(v)")
        }
    }

    @Test func settersKeepValuesFiniteAndInRange() {
        let l = Layer()
        l.position = Point(x: .nan, y: .infinity)
        #expect(l.position == Point(x: 0, y: LayerLimits.coordinate))
        l.bounds = Rect(x: -.infinity, y: .nan, width: 1e30, height: -.infinity)
        #expect(l.bounds.origin == Point(x: -1e9, y: 0) && l.bounds.width == 1e9 && l.bounds.height == -1e9)
        l.anchorPoint = Point(x: .nan, y: .nan)
        #expect(l.anchorPoint == Point(x: 0.5, y: 0.5))
        l.zPosition = -.infinity
        l.anchorPointZ = .nan
        #expect(l.zPosition == -1e9 && l.anchorPointZ == 0)
        var t = Transform3D.identity
        t.m41 = .nan
        l.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        l.transform = t
        #expect(l.transform == .identity)
        var huge = Transform3D.identity
        huge.m11 = 1e300
        l.sublayerTransform = huge
        #expect(l.sublayerTransform == .identity)
        l.shadowRadius = 1e30
        #expect(l.shadowRadius == LayerLimits.shadowRadius)
        l.shadowRadius = -5
        #expect(l.shadowRadius == 0)
        l.shadowOffset = Size(width: .nan, height: .infinity)
        #expect(l.shadowOffset == Size(width: 0, height: 1e9))
        l.cornerRadius = .infinity
        l.borderWidth = .nan
        #expect(l.cornerRadius == 1e9 && l.borderWidth == 0)
        l.contentsRect = Rect(x: .nan, y: 0, width: .infinity, height: 1)
        #expect(l.contentsRect == Rect(x: 0, y: 0, width: 1e9, height: 1))
        l.contentsScale = 1e300
        #expect(l.contentsScale == LayerLimits.contentsScale)
        l.contentsScale = .nan
        #expect(l.contentsScale == 1)
        l.opacity = .infinity
        #expect(l.opacity == 1)
        l.frame = Rect(x: .nan, y: 0, width: 10, height: 10)  // ignored, as before
        #expect(l.bounds.width == 1e9)
    }

    @Test func specialLayersCleanTheirValues() {
        let shape = ShapeLayer()
        shape.lineWidth = .infinity
        shape.lineDashPhase = -.infinity
        #expect(shape.lineWidth == 1e9 && shape.lineDashPhase == -1e9)
        let gradient = GradientLayer()
        gradient.startPoint = Point(x: .nan, y: .nan)
        #expect(gradient.startPoint == Point(x: 0.5, y: 0))
        let replicator = ReplicatorLayer()
        var t = Transform3D.identity
        t.m42 = .infinity
        replicator.instanceTransform = t
        #expect(replicator.instanceTransform == .identity)
        let emitter = EmitterLayer()
        emitter.birthRate = .nan
        emitter.emitterPosition = Point(x: .infinity, y: .nan)
        #expect(emitter.birthRate == 1 && emitter.emitterPosition == Point(x: 1e9, y: 0))
    }

    @Test func hostileAnimatedValuesCompositeWithoutTrapping() {
        // Animations write presentation values straight into the render state,
        // past the setters: the compositor must stand any value.
        for (i, v) in LayerValueTests.hostile.enumerated() {
            let clock = ManualClock()
            let host = try! LayerHost(width: 80, height: 80, clock: clock)
            let card = layer(Rect(x: 10, y: 10, width: 40, height: 40), .red)
            card.shadowOpacity = 1
            host.rootLayer.addSublayer(card)
            host.renderFrame()
            if i < 3 { card.add(BasicAnimation(keyPath: "shadowRadius", from: v, to: v, duration: 10), forKey: "r") }
            card.add(
                BasicAnimation(keyPath: "shadowOffset", from: Size(width: v, height: v), to: Size(width: v, height: -v), duration: 10), forKey: "o")
            card.add(BasicAnimation(keyPath: "position.x", from: v, to: 0.0, duration: 10), forKey: "x")
            clock.advance(by: 1)
            host.renderFrame()
            clock.advance(by: 1)
            host.renderFrame()
            _ = host.makeImage()
        }
    }

    @Test func frameStatisticsWithANaNPercentile() {
        var stats = FrameStatistics(budget: 1.0 / 60)
        stats.record(duration: 0.01, at: 0)
        stats.record(duration: 0.02, at: 0.016)
        #expect(stats.percentile(.nan) >= 0)
    }

    @Test func saturatingConversions() {
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: 1e300) == 1 << 52 && Int(saturating: -.infinity) == -(1 << 52))
        #expect(Int(saturating: 12.9) == 12 && Int(saturating: -12.9) == -12)
    }
}
