public import CoreGraphics
public import Foundation
internal import StrataGraphics
package import StrataLayers

/// What a layer runs when one of its properties changes (`CAAction`): an
/// animation (every `CAAnimation` is one), `NSNull()` for nothing, or an
/// object of your own.
@MainActor
public protocol CAAction: AnyObject {
    /// Runs the action for the change of `event` on `anObject` (the layer).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension CAAnimation: CAAction {
    /// Adds the animation to the layer under `event`, its key path set to
    /// `event` where it has none.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer else { return }
        if let p = self as? CAPropertyAnimation, p.keyPath == nil { p.keyPath = event }
        layer.add(self, forKey: event)
    }
}

/// `NSNull()` as an action: nothing happens, and the search for an action stops.
extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

extension CALayerDelegate {
    public func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { nil }
}

extension CALayer {
    /// The image of this layer and its sublayers drawn into `ctx`, in the
    /// context's current user space taken as the layer's own (its bounds;
    /// its position and transform play no part), at the context's pixel
    /// density. Under UIKit's flip the layer comes out upright.
    public func render(in ctx: CGContext) {
        let m = ctx.canvas.transform
        let scale = Swift.max(1, (m.a * m.a + m.b * m.b).squareRoot())
        guard let image = strata.renderImage(scale: scale) else { return }
        ctx.drawUnflipped(image, in: bounds)
    }
}

/// What `presentation()` makes copies with: `init?(coder:)` is the one
/// initializer every `CALayer` subclass has.
final class PresentationCoder: NSCoder {}

extension CALayer {
    /// A copy of the layer as it is on screen now (`presentation()`): the
    /// model values with the running animations applied. Nil before the
    /// layer has been committed to a tree on screen, as in Core Animation.
    /// The copy is made with the class's `init?(coder:)`; it has no
    /// sublayers, and changing it changes nothing on screen.
    public func presentation() -> Self? {
        guard strata.wasCommitted, let copy = type(of: self).init(coder: PresentationCoder()) else { return nil }
        copy.strata.adoptPresentation(of: strata)
        copy.takePresentedValues(from: self)
        return copy
    }

    /// The model layer: this layer itself (`model()` of a presentation copy
    /// is the copy, as nothing links it back here).
    public func model() -> Self { self }

    /// The Strata action for a change of `key`, from `action(forKey:)`; nil
    /// leaves Strata's own (the implicit animation). Asked by the engine,
    /// before its own lookup, while `bridgeFlag` is set.
    package func frontEndAction(forKey key: String) -> LayerAction? {
        guard let action = action(forKey: key) else { return nil }
        if action is NSNull { return .noAction }
        if let basic = action as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil {
            // From the old value to the new, as an implicit animation: Strata's
            // action fills in the values it finds at the change.
            let copy = CABasicAnimation(copying: basic)
            copy.keyPath = key
            if let animation = copy.makeStrata() { return .animation(animation) }
            return .noAction
        }
        return .run { [action] layer, key in
            guard let owner = layer as? CALayer else { return }
            action.run(forKey: key, object: owner, arguments: nil)
        }
    }
}
