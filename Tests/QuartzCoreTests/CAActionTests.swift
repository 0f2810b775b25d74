import CoreText
import Foundation
import QuartzCore
import StrataLayers
import Testing

@MainActor
final class ActionDelegate: CALayerDelegate {
    var asked: [String] = []
    var answer: (any CAAction)?
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
        asked.append(event)
        return answer
    }
}

/// A layer class that refuses the implicit animation of `opacity` and
/// slows `position`'s, by overriding, as iOS code does.
@MainActor
final class QuietOpacityLayer: CALayer {
    override func action(forKey event: String) -> (any CAAction)? {
        event == "opacity" ? NSNull() : super.action(forKey: event)
    }

    override class func defaultAction(forKey event: String) -> (any CAAction)? {
        guard event == "position" else { return super.defaultAction(forKey: event) }
        let slow = CABasicAnimation()
        slow.duration = 2
        return slow
    }
}

@MainActor
@Suite("Actions")
struct CAActionTests {
    func committed(_ layer: CALayer) throws -> LayerHost {
        let host = try LayerHost(width: 20, height: 20, backgroundColor: .white)
        host.rootLayer.addSublayer(layer.strata)
        CATransaction.flush()
        return host
    }

    @Test("A committed layer animates a change implicitly; NSNull in actions stops it")
    func implicitAndNull() throws {
        let layer = CALayer()
        let host = try committed(layer)
        layer.position = CGPoint(x: 5, y: 5)
        #expect(layer.animationKeys()?.contains("position") == true)
        layer.actions = ["opacity": NSNull()]
        layer.opacity = 0.5
        #expect(layer.animationKeys()?.contains("opacity") != true)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.bounds = CGRect(x: 0, y: 0, width: 3, height: 3)
        CATransaction.commit()
        #expect(layer.animationKeys()?.contains("bounds") != true)
        // Without actions the change animates again; with a delegate alone
        // the delegate is asked.
        layer.actions = nil
        layer.opacity = 0.25
        #expect(layer.animationKeys()?.contains("opacity") == true)
        let delegate = ActionDelegate()
        delegate.answer = NSNull()
        layer.delegate = delegate
        layer.zPosition = 2
        #expect(delegate.asked == ["zPosition"] && layer.animationKeys()?.contains("zPosition") != true)
        layer.delegate = nil
        layer.zPosition = 3
        #expect(delegate.asked == ["zPosition"] && layer.animationKeys()?.contains("zPosition") == true)
        _ = host
    }

    @Test("A subclass's own action(forKey:) and defaultAction(forKey:) are asked, with no delegate or actions")
    func subclassActions() throws {
        let layer = QuietOpacityLayer()
        let host = try committed(layer)
        layer.opacity = 0.5
        #expect(layer.animationKeys()?.contains("opacity") != true)
        // Half way through two seconds, not done as a quarter second would be.
        layer.position = CGPoint(x: 10, y: 10)
        host.advance(by: 1)
        let x = try #require(layer.presentation()?.position.x)
        #expect(x > 0 && x < 10)
        // A plain layer animates both, for a quarter second.
        let plain = CALayer()
        let other = try committed(plain)
        plain.opacity = 0.5
        plain.position = CGPoint(x: 10, y: 10)
        #expect(plain.animationKeys()?.contains("opacity") == true)
        other.advance(by: 1)
        #expect(plain.presentation()?.position.x == 10)
        _ = (host, other)
    }

    @Test("The delegate is asked first; its animation, or NSNull, is what happens")
    func delegateFirst() throws {
        let layer = CALayer()
        let delegate = ActionDelegate()
        layer.delegate = delegate
        layer.actions = ["position": NSNull()]
        let host = try committed(layer)
        let slow = CABasicAnimation()
        slow.duration = 3
        delegate.answer = slow
        layer.position = CGPoint(x: 7, y: 7)
        #expect(delegate.asked == ["position"])
        // The delegate's animation wins over the NSNull in actions, keyed by the property.
        #expect(layer.animationKeys()?.contains("position") == true)
        delegate.answer = NSNull()
        layer.opacity = 0.2
        #expect(layer.animationKeys()?.contains("opacity") != true)
        // Nil from the delegate goes on to actions: NSNull there stops it.
        delegate.answer = nil
        layer.position = CGPoint(x: 9, y: 9)
        #expect(delegate.asked.last == "position")
        _ = host
    }

    @Test("A custom action runs with the layer and the key")
    func customAction() throws {
        final class Recorder: CAAction {
            var runs: [(String, Bool)] = []
            func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
                runs.append((event, anObject is CALayer))
            }
        }
        let layer = CALayer()
        let recorder = Recorder()
        layer.actions = ["backgroundColor": recorder]
        let host = try committed(layer)
        layer.backgroundColor = CGColor(gray: 0.5, alpha: 1)
        #expect(recorder.runs.count == 1 && recorder.runs.first?.0 == "backgroundColor" && recorder.runs.first?.1 == true)
        _ = host
    }
}

@MainActor
@Suite("Text layers with attributed strings")
struct CATextLayerRichTests {
    @Test("An attributed string draws with its own colours; the layer's colour is not used")
    func richText() throws {
        let layer = CATextLayer()
        layer.frame = CGRect(x: 0, y: 0, width: 120, height: 30)
        layer.foregroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let text = NSMutableAttributedString(
            string: "XXXX", attributes: [.font: CTFontCreateWithName("Helvetica-Bold" as CFString, 20, nil)])
        text.addAttribute(.foregroundColor, value: CGColor(red: 1, green: 0, blue: 0, alpha: 1), range: NSRange(location: 0, length: 2))
        layer.string = text
        #expect(layer.string as? NSAttributedString === text)
        let host = try LayerHost(width: 120, height: 30, backgroundColor: .white)
        host.rootLayer.addSublayer(layer.strata)
        CATransaction.flush()
        host.renderFrame()
        let image = host.makeImage()
        var red = 0, black = 0, blue = 0
        for y in 0..<30 {
            for x in 0..<120 {
                let p = image[x, y]
                if p.r > 200 && p.g < 60 && p.b < 60 { red += 1 }
                if p.r < 60 && p.g < 60 && p.b < 60 { black += 1 }
                if p.b > 200 && p.r < 60 { blue += 1 }
            }
        }
        // Red for the first two letters, Core Text's black for the rest, no blue.
        #expect(red > 20 && black > 20 && blue == 0)
    }
}

@MainActor
@Suite("Presentation copies")
struct CAPresentationTests {
    @Test("presentation() is nil before a commit, then the layer as shown, of its own class")
    func presentation() throws {
        let clock = ManualClock()
        let host = try LayerHost(width: 100, height: 100, clock: clock, backgroundColor: .white)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        shape.backgroundColor = CGColor(gray: 1, alpha: 1)
        #expect(shape.presentation() == nil)
        host.rootLayer.addSublayer(shape.strata)
        host.renderFrame()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        move.timingFunction = CAMediaTimingFunction(name: .linear)
        move.beginTime = clock.now
        shape.add(move, forKey: "move")
        shape.position = CGPoint(x: 100, y: 5)
        host.advance(by: 0.25)
        let shown = try #require(shape.presentation())
        #expect(type(of: shown) == CAShapeLayer.self)
        #expect(abs(shown.position.x - 25) < 1)
        #expect(shape.position.x == 100)
        #expect(shown.path?.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(shown.backgroundColor == CGColor(gray: 1, alpha: 1))
        #expect(shown.borderColor == shape.borderColor)
        // Changing the copy changes nothing on screen.
        shown.position = CGPoint(x: 3, y: 3)
        #expect(shape.position.x == 100)
        #expect(shape.model() === shape)
    }
}
