import CoreGraphics
import Foundation
import QuartzCore
import StrataGraphics
import StrataLayers
import Testing

@testable import QuartzCore

/// Hostile numbers given to every layer and animation setter: the layer
/// renders, bounded, and nothing traps.
@MainActor
@Suite struct CAHostileValueTests {
    static let bad: [CGFloat] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0, -1]

    @Test func layersTakeHostileValues() throws {
        for v in Self.bad {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: v, y: v, width: v, height: v)
            shape.position = CGPoint(x: v, y: v)
            shape.anchorPoint = CGPoint(x: v, y: v)
            shape.zPosition = v
            shape.opacity = Float(v)
            shape.cornerRadius = v
            shape.borderWidth = v
            shape.shadowOpacity = Float(v)
            shape.shadowRadius = v
            shape.shadowOffset = CGSize(width: v, height: v)
            shape.contentsScale = v
            shape.transform = CATransform3DMakeRotation(v, v, 1, 0)
            shape.lineWidth = v
            shape.miterLimit = v
            shape.lineDashPattern = [NSNumber(value: Double(v)), 2]
            shape.lineDashPhase = v
            shape.strokeStart = v
            shape.strokeEnd = v
            let path = CGMutablePath()
            path.addEllipse(in: CGRect(x: 0, y: 0, width: v, height: 10))
            shape.path = path
            shape.strokeColor = CGColor(gray: 0, alpha: 1)
            root.addSublayer(shape)
            let text = CATextLayer()
            text.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            text.string = "x"
            text.fontSize = v
            root.addSublayer(text)
            let replicator = CAReplicatorLayer()
            replicator.instanceCount = v.isFinite ? Int(Swift.max(-1e6, Swift.min(1e6, v))) : Int.max
            replicator.instanceTransform = CATransform3DMakeTranslation(v, v, v)
            replicator.instanceDelay = Double(v)
            replicator.instanceAlphaOffset = Float(v)
            replicator.addSublayer(CALayer())
            root.addSublayer(replicator)
            let gradient = CAGradientLayer()
            gradient.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            gradient.colors = [CGColor(gray: v, alpha: 1), CGColor(gray: 0, alpha: v)]
            gradient.locations = [NSNumber(value: Double(v)), NSNumber(value: -Double(v))]
            gradient.startPoint = CGPoint(x: v, y: v)
            root.addSublayer(gradient)
            let emitter = CAEmitterLayer()
            emitter.frame = root.bounds
            let cell = CAEmitterCell()
            cell.birthRate = Float(v)
            cell.lifetime = Float(v)
            cell.velocity = v
            cell.scale = v
            emitter.emitterCells = [cell]
            emitter.birthRate = Float(v)
            emitter.emitterSize = CGSize(width: v, height: v)
            root.addSublayer(emitter)
            let host = try LayerHostForTests(root)
            host.advance(0.5)
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = v
            fade.toValue = v
            fade.duration = Double(v)
            fade.speed = Float(v)
            fade.repeatCount = Float(v)
            fade.timingFunction = CAMediaTimingFunction(controlPoints: Float(v), Float(v), Float(v), Float(v))
            root.add(fade, forKey: "fade")
            let spring = CASpringAnimation(keyPath: "position.x")
            spring.mass = v
            spring.stiffness = v
            spring.damping = v
            spring.fromValue = 0
            spring.toValue = v
            _ = spring.settlingDuration
            spring.duration = 1
            root.add(spring, forKey: "spring")
            host.advance(0.5)
        }
    }
}

/// A headless host with `root` in it.
@MainActor
struct LayerHostForTests {
    let host: StrataLayers.LayerHost
    init(_ root: CALayer) throws {
        host = try StrataLayers.LayerHost(width: 20, height: 20)
        host.rootLayer.addSublayer(root.strata)
        host.renderFrame()
    }
    func advance(_ seconds: Double) { _ = host.advance(by: seconds) }
}
