import Foundation
import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

@Suite @MainActor struct LayerGeometryTests {
    @Test func frameFollowsBoundsPositionAnchorAndTransform() {
        let l = Layer()
        l.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        l.position = Point(x: 200, y: 100)
        #expect(l.frame == Rect(x: 150, y: 75, width: 100, height: 50))
        l.anchorPoint = .zero
        #expect(l.frame == Rect(x: 200, y: 100, width: 100, height: 50))
        l.transform = Transform3D(scaleX: 2, y: 2)
        #expect(l.frame == Rect(x: 200, y: 100, width: 200, height: 100))
        l.transform = .identity
        l.frame = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(l.bounds.size == Size(width: 30, height: 40) && l.position == Point(x: 10, y: 20))
        // Negative sizes are normalised, non-finite frames ignored.
        l.frame = Rect(x: 10, y: 20, width: -30, height: 40)
        #expect(l.frame == Rect(x: -20, y: 20, width: 30, height: 40))
        l.frame = Rect(x: .nan, y: 0, width: 1, height: 1)
        #expect(l.frame == Rect(x: -20, y: 20, width: 30, height: 40))
    }

    @Test func transform3DBasics() {
        let r = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let p = r.apply(x: 1, y: 0)
        #expect(near(p.x, 0) && near(p.y, 1))  // as CGAffineTransform(rotationAngle:)
        #expect(Transform3D(Transform(rotationAngle: 0.3)).isAffine)
        let t = Transform3D(translationX: 5, y: 0).rotated(by: .pi / 2, x: 0, y: 0, z: 1)
        let q = t.apply(x: 1, y: 0)  // rotated first, then moved
        #expect(near(q.x, 5) && near(q.y, 1))
        let inv = t.inverted()!
        let back = inv.apply(x: q.x, y: q.y)
        #expect(near(back.x, 1) && near(back.y, 0))
        #expect(Transform3D(scaleX: 0, y: 1).inverted() == nil)
        let persp = Transform3D.perspective(distance: 500)
        #expect(persp.m34 == -1.0 / 500 && !persp.isAffine)
        // A point 100 units towards the viewer looks 500/400 times as far out.
        let closer = Transform3D(translationX: 0, y: 0, z: 100).concatenating(persp).apply(x: 40, y: 0)
        #expect(near(closer.x / closer.w, 50))
        #expect(Transform3D(rotationAngle: 1, x: 0, y: 0, z: 0) == .identity)
    }

    @Test func hitTestingThroughTransforms() {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 400, height: 400)
        let a = Layer()
        a.frame = Rect(x: 100, y: 100, width: 100, height: 100)
        a.transform = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        root.addSublayer(a)
        let b = Layer()
        b.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        a.addSublayer(b)
        // The centre of a is (150, 150); its corner (100, 100) has turned away.
        #expect(root.hitTest(Point(x: 150, y: 150)) === a)
        #expect(root.hitTest(Point(x: 103, y: 103)) === root)
        // b sits at a's top-left corner, which the rotation carries to (150, 79.3).
        #expect(root.hitTest(Point(x: 150, y: 82)) === b)
        #expect(root.hitTest(Point(x: 500, y: 500)) == nil)
        b.isHidden = true
        #expect(root.hitTest(Point(x: 150, y: 82)) === a)
        // Conversion between layers round-trips.
        let p = a.convert(Point(x: 10, y: 10), to: root)
        #expect(near(root.convert(p, to: a), Point(x: 10, y: 10), 1e-9))
        #expect(near(p, Point(x: 150, y: 150 - 40 * 2.0.squareRoot()), 1e-9))
        #expect(near(b.convert(Point(x: 0, y: 0), to: a), .zero))
    }

    @Test func zPositionOrdersSiblingsForHitTesting() {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let back = Layer(), front = Layer()
        back.frame = root.bounds
        front.frame = root.bounds
        root.addSublayer(front)
        root.addSublayer(back)
        front.zPosition = 1
        #expect(root.hitTest(Point(x: 50, y: 50)) === front)
    }

    @Test func sublayerManagement() {
        let root = Layer()
        let (a, b, c, d) = (Layer(), Layer(), Layer(), Layer())
        root.addSublayer(a)
        root.addSublayer(b)
        root.insertSublayer(c, at: 1)
        #expect(root.sublayers.map(\.id) == [a.id, c.id, b.id])
        root.insertSublayer(d, below: a)
        #expect(root.sublayers.map(\.id) == [d.id, a.id, c.id, b.id])
        root.insertSublayer(d, above: b)
        #expect(root.sublayers.map(\.id) == [a.id, c.id, b.id, d.id])
        root.replaceSublayer(c, with: d)
        #expect(root.sublayers.map(\.id) == [a.id, d.id, b.id] && c.superlayer == nil)
        b.removeFromSuperlayer()
        #expect(root.sublayers.count == 2 && b.superlayer == nil)
        // A layer cannot become its own ancestor.
        a.addSublayer(root)
        #expect(root.superlayer == nil)
        root.insertSublayer(a, at: 99)
        #expect(root.sublayers.last === a)
        // Moving to another parent takes it out of the first.
        b.addSublayer(a)
        #expect(!root.sublayers.contains { $0 === a } && a.superlayer === b)
    }
}

@Suite @MainActor struct TransactionTests {
    private func host() -> LayerHost { try! LayerHost(width: 64, height: 64) }

    @Test func implicitAnimationAfterTheFirstCommit() {
        let h = host()
        let l = Layer()
        l.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        h.rootLayer.addSublayer(l)
        l.opacity = 0.5  // before the first commit: no animation
        #expect(l.animationKeys.isEmpty)
        h.renderFrame()
        l.opacity = 1
        #expect(l.animationKeys == ["opacity"])
        let a = l.animation(forKey: "opacity") as! BasicAnimation
        #expect(a.fromValue as? Double == 0.5 && a.duration == 0.25 && a.timingFunction == .default)
        h.advance(by: 0.125)
        let mid = l.presentation().opacity
        #expect(mid > 0.5 && mid < 1)
        #expect(l.opacity == 1)  // the model has the new value at once
        h.advance(by: 0.2)
        #expect(l.animationKeys.isEmpty)
        #expect(l.presentation().opacity == 1)
    }

    @Test func disableActionsAndNullActions() {
        let h = host()
        let l = Layer()
        h.rootLayer.addSublayer(l)
        h.renderFrame()
        Transaction.begin()
        Transaction.disableActions = true
        l.position = Point(x: 5, y: 5)
        Transaction.commit()
        #expect(l.animationKeys.isEmpty)
        // `.noAction` in the dictionary (written as an app would, without the
        // type name) is kept and stops the search for the class default.
        l.actions["position"] = .noAction
        #expect(l.actions["position"] != nil)
        l.position = Point(x: 6, y: 6)
        #expect(l.animationKeys.isEmpty)
        // A custom action in the dictionary runs instead.
        var ran: [String] = []
        l.actions["opacity"] = .run { _, key in MainActor.assumeIsolated { ran.append(key) } }
        l.opacity = 0.3
        #expect(ran == ["opacity"] && l.animationKeys.isEmpty)
        // The delegate comes first.
        final class Delegate: LayerDelegate {
            func action(for layer: Layer, forKey key: String) -> LayerAction? {
                .animation(BasicAnimation(keyPath: key, duration: 2))
            }
        }
        let d = Delegate()
        l.delegate = d
        l.opacity = 0.9
        #expect((l.animation(forKey: "opacity") as? BasicAnimation)?.duration == 2)
        Transaction.flush()
    }

    @Test func durationsAndTimingFunctionsNest() {
        let h = host()
        let l = Layer()
        h.rootLayer.addSublayer(l)
        h.renderFrame()
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .linear
        Transaction.begin()
        #expect(Transaction.animationDuration == 1)  // inherited
        l.position = Point(x: 100, y: 0)
        Transaction.commit()
        Transaction.commit()
        let a = l.animation(forKey: "position") as! BasicAnimation
        #expect(a.duration == 1 && a.timingFunction == .linear)
        h.advance(by: 0.25)
        #expect(near(l.presentation().position.x, 25))
        #expect(Transaction.animationDuration == 0.25)
    }

    @Test func completionBlocksRunWhenTheirAnimationsFinish() {
        let h = host()
        let l = Layer()
        h.rootLayer.addSublayer(l)
        h.renderFrame()
        var order: [String] = []
        Transaction.begin()
        Transaction.setCompletionBlock { order.append("long") }
        Transaction.animationDuration = 0.5
        l.opacity = 0
        Transaction.begin()
        Transaction.setCompletionBlock { order.append("short") }
        Transaction.animationDuration = 0.1
        l.position = Point(x: 9, y: 9)
        Transaction.commit()
        Transaction.commit()
        Transaction.begin()
        Transaction.setCompletionBlock { order.append("empty") }
        Transaction.commit()
        #expect(order == ["empty"])  // no animations: at its commit
        h.advance(by: 0.2)
        #expect(order == ["empty", "short"])
        h.advance(by: 0.4)
        #expect(order == ["empty", "short", "long"])
    }

    @Test func removedAndReplacedAnimationsReportUnfinished() {
        let h = host()
        let l = Layer()
        h.rootLayer.addSublayer(l)
        h.renderFrame()
        var results: [Bool] = []
        var a = BasicAnimation(keyPath: "opacity", from: 0.0, to: 1.0, duration: 1)
        a.completion = { results.append($0) }
        l.add(a, forKey: "fade")
        l.add(a, forKey: "fade")  // replaces the first
        #expect(results == [false])
        l.removeAnimation(forKey: "fade")
        #expect(results == [false, false])
        l.add(a, forKey: "fade")
        h.advance(by: 1.5)
        #expect(results == [false, false, true])
        // Kept on completion with a forwards fill: the end value stays.
        var keep = BasicAnimation(keyPath: "opacity", from: 0.0, to: 0.2, duration: 0.5)
        keep.isRemovedOnCompletion = false
        keep.fillMode = .forwards
        l.add(keep, forKey: "keep")
        h.advance(by: 1)
        #expect(l.animationKeys == ["keep"] && near(l.presentation().opacity, 0.2))
    }

    @Test func presentationAndModel() {
        let h = host()
        let l = ShapeLayer()
        h.rootLayer.addSublayer(l)
        h.renderFrame()
        var a = BasicAnimation(keyPath: "strokeEnd", from: 0.0, to: 1.0, duration: 1)
        a.timingFunction = .linear
        l.add(a, forKey: "draw")
        h.advance(by: 0.5)
        let p = l.presentation()
        #expect(near(p.strokeEnd, 0.5))
        #expect(l.strokeEnd == 1 && l.model() === l)
    }
}
