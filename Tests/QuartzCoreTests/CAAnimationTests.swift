import CoreGraphics
import Foundation
import QuartzCore
import StrataGraphics
import StrataLayers
import Testing

@testable import QuartzCore

/// Records the delegate's calls.
@MainActor
final class AnimationRecorder: CAAnimationDelegate {
    var started = 0
    var stopped: [Bool] = []
    func animationDidStart(_ anim: CAAnimation) { started += 1 }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stopped.append(flag) }
}

@MainActor
@Suite struct CAAnimationTests {
    /// A host with `layer` in it, its clock at 0.
    func host(_ layer: CALayer) throws -> LayerHost {
        let host = try LayerHost(width: 20, height: 20, backgroundColor: .white)
        host.rootLayer.addSublayer(layer.strata)
        host.renderFrame()
        return host
    }

    @Test func aBasicAnimationRunsFromItsValueToItsValue() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let h = try host(layer)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.toValue = Float(1)
        fade.duration = 1
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        let recorder = AnimationRecorder()
        fade.delegate = recorder
        layer.add(fade, forKey: "fade")
        #expect(recorder.started == 1)
        // The layer took a copy: changing the original changes nothing.
        fade.toValue = 0
        #expect(layer.animation(forKey: "fade") !== fade && layer.animationKeys() == ["fade"])
        h.advance(by: 0.5)
        let mid = h.makeImage()[10, 10]
        // Half faded in over white: red at about half strength.
        #expect(mid.g > 100 && mid.g < 155 && mid.r == 255)
        h.advance(by: 0.6)
        h.advance(by: 0.1)
        #expect(h.makeImage()[10, 10] == Pixel(r: 255, g: 0, b: 0, a: 255))
        #expect(recorder.stopped == [true] && layer.animationKeys() == nil)
    }

    @Test func keyframesAndGroupsAnimateTheirValues() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let h = try host(layer)
        let move = CAKeyframeAnimation(keyPath: "position")
        move.values = [CGPoint(x: 2, y: 2), CGPoint(x: 18, y: 2), CGPoint(x: 18, y: 18)]
        move.keyTimes = [0, 0.5, 1]
        let group = CAAnimationGroup()
        group.animations = [move]
        group.duration = 2
        group.timingFunction = CAMediaTimingFunction(name: .linear)
        move.duration = 2
        move.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(group, forKey: nil)
        h.advance(by: 1)
        // Half way: at the second keyframe, top right.
        #expect(h.makeImage()[18, 2] == Pixel(r: 0, g: 0, b: 255, a: 255) && h.makeImage()[2, 2] == whitePixel)
        layer.removeAllAnimations()
        h.advance(by: 0.1)
        #expect(h.makeImage()[2, 2] == Pixel(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func valuesAreReadAsThePropertiesTakeThem() {
        #expect(animatable(CGFloat(2)) as? Double == 2 && animatable(Float(0.5)) as? Double == 0.5 && animatable(3) as? Double == 3)
        #expect(animatable(NSNumber(value: 1.5)) as? Double == 1.5)
        #expect(animatable(CGPoint(x: 1, y: 2)) as? Point == Point(x: 1, y: 2))
        #expect(animatable(CGSize(width: 1, height: 2)) as? Size == Size(width: 1, height: 2))
        #expect(animatable(CGRect(x: 0, y: 1, width: 2, height: 3)) as? Rect == Rect(x: 0, y: 1, width: 2, height: 3))
        #expect(animatable(CGColor(gray: 1, alpha: 1)) as? Color == .white)
        #expect(animatable(CATransform3DMakeScale(2, 2, 1)) as? Transform3D == Transform3D(scaleX: 2, y: 2, z: 1))
        #expect(animatable(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)) is StrataGraphics.Path)
        #expect(animatable("two") == nil && animatable(nil) == nil)
        // An animation without a key path adds nothing.
        let layer = CALayer()
        layer.add(CABasicAnimation(), forKey: "none")
        #expect(layer.animationKeys() == nil && layer.animation(forKey: "none") == nil)
        let keyed = CABasicAnimation(keyPath: "opacity")
        layer.add(keyed, forKey: "k")
        layer.removeAnimation(forKey: "k")
        #expect(layer.animation(forKey: "k") == nil)
    }

    @Test func aSpringSettlesAtItsValue() throws {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let h = try host(layer)
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.fromValue = 2
        spring.toValue = 18
        spring.damping = 12
        spring.duration = spring.settlingDuration
        #expect(spring.settlingDuration > 0.3 && spring.settlingDuration < 5)
        layer.position = CGPoint(x: 18, y: 2)
        layer.add(spring, forKey: "spring")
        #expect(layer.animation(forKey: "spring") is CASpringAnimation)
        h.advance(by: 0.02)
        // Early on, still near where it started.
        #expect(h.makeImage()[3, 2] == Pixel(r: 0, g: 0, b: 255, a: 255))
        for _ in 0..<Int(spring.duration * 60) + 2 { h.advance(by: 1.0 / 60) }
        #expect(h.makeImage()[18, 2] == Pixel(r: 0, g: 0, b: 255, a: 255) && h.makeImage()[3, 2] == whitePixel)
    }
}
