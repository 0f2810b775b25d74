public import CoreGraphics
public import Foundation
internal import StrataGraphics

// UIKit's stack of current contexts: one per thread, as on iOS, so that
// views draw on the main thread while images are made on others.

/// The contexts pushed on one thread, the current one last, and which of
/// them are image contexts (made by `UIGraphicsBeginImageContext…`).
final class ContextStack {
    var contexts: [(context: CGContext, isImage: Bool, scale: CGFloat)] = []

    static let key = "org.strata.UIGraphicsContextStack"

    /// This thread's stack.
    static var current: ContextStack {
        let dictionary = Thread.current.threadDictionary
        if let stack = dictionary[key] as? ContextStack { return stack }
        let stack = ContextStack()
        dictionary[key] = stack
        return stack
    }
}

/// The context UIKit draws into on this thread: the one a view's
/// `draw(_:)` or an image renderer's block draws into, y down; nil when
/// there is none.
public func UIGraphicsGetCurrentContext() -> CGContext? { ContextStack.current.contexts.last?.context }

/// Makes `context` the current one until `UIGraphicsPopContext()`.
public func UIGraphicsPushContext(_ context: CGContext) {
    ContextStack.current.contexts.append((context, false, 1))
}

/// Restores the context current before the last push (nothing when none was pushed).
public func UIGraphicsPopContext() {
    let stack = ContextStack.current
    if !stack.contexts.isEmpty { stack.contexts.removeLast() }
}

/// A bitmap context for UIKit drawing: `size` points at `scale` pixels a
/// point, with the origin at the top left and y going down. Nil for a size
/// that is empty, not finite or too large.
func makeUIKitContext(size: CGSize, scale: CGFloat, opaque: Bool) -> CGContext? {
    guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0, scale.isFinite, scale > 0 else { return nil }
    let w = Int((size.width * scale).rounded(.up)), h = Int((size.height * scale).rounded(.up))
    guard w >= 1, h >= 1, w <= 32768, h <= 32768,
        let ctx = CGContext(
            data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: opaque ? CGImageAlphaInfo.noneSkipLast.rawValue : CGImageAlphaInfo.premultipliedLast.rawValue)
    else { return nil }
    ctx.concatenate(CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: 0, ty: CGFloat(h)))
    ctx.shadowsGoDown = true
    if opaque {
        ctx.setFillColor(CGColor(gray: 1, alpha: 1))
        ctx.fill(CGRect(origin: .zero, size: size))
        ctx.setFillColor(CGColor(gray: 0, alpha: 1))
    }
    return ctx
}

/// Starts an image context of `size` points at scale 1 and makes it current.
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// Starts an image context of `size` points at `scale` pixels a point (0:
/// the main screen's scale) and makes it current. A size that is empty or
/// not finite makes no context: `UIGraphicsGetCurrentContext()` stays what
/// it was (UIKit logs an error and does the same).
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    let s = scale > 0 && scale.isFinite ? scale : mainScreenScale()
    guard let ctx = makeUIKitContext(size: size, scale: s, opaque: opaque) else { return }
    ContextStack.current.contexts.append((ctx, true, s))
}

/// The current image context's picture as an image (nil when the current
/// context is not an image context).
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let top = ContextStack.current.contexts.last, top.isImage, let image = top.context.makeImage() else { return nil }
    return UIImage(cgImage: image, scale: top.scale, orientation: .up)
}

/// Ends the current image context (nothing when the current context is not one).
public func UIGraphicsEndImageContext() {
    let stack = ContextStack.current
    if let top = stack.contexts.last, top.isImage { stack.contexts.removeLast() }
}

/// Fills `rect` in the current context with its fill colour.
public func UIRectFill(_ rect: CGRect) { UIGraphicsGetCurrentContext()?.fill(rect) }

/// Strokes a one-point frame inside `rect` in the current context.
public func UIRectFrame(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    ctx.saveGState()
    ctx.setLineWidth(1)
    ctx.stroke(rect.insetBy(dx: 0.5, dy: 0.5))
    ctx.restoreGState()
}

/// The main screen's scale, read on any thread.
func mainScreenScale() -> CGFloat {
    Thread.isMainThread ? MainActor.assumeIsolated { UIScreen.main.scale } : UIScreen.environmentScale
}

// MARK: Image renderers

/// What every renderer's format is (`UIGraphicsRendererFormat`): the
/// image renderers' and the PDF renderers' derive from it.
open class UIGraphicsRendererFormat: @unchecked Sendable {
    // @unchecked: set up before rendering and read by the renderer only, as
    // UIKit's format is (it is not thread-safe there either).
    public init() {}
}

/// The context a renderer's block draws in (`UIGraphicsRendererContext`):
/// its Core Graphics context and the drawing shortcuts every renderer's
/// context has.
open class UIGraphicsRendererContext {
    public let cgContext: CGContext
    private let rendererFormat: UIGraphicsRendererFormat

    init(cgContext: CGContext, format: UIGraphicsRendererFormat) {
        self.cgContext = cgContext
        rendererFormat = format
    }

    /// The renderer's format.
    open var format: UIGraphicsRendererFormat { rendererFormat }

    public func fill(_ rect: CGRect) { cgContext.fill(rect) }

    public func fill(_ rect: CGRect, blendMode: CGBlendMode) {
        cgContext.saveGState()
        cgContext.setBlendMode(blendMode)
        cgContext.fill(rect)
        cgContext.restoreGState()
    }

    public func stroke(_ rect: CGRect) { cgContext.stroke(rect) }

    public func stroke(_ rect: CGRect, blendMode: CGBlendMode) {
        cgContext.saveGState()
        cgContext.setBlendMode(blendMode)
        cgContext.stroke(rect)
        cgContext.restoreGState()
    }

    public func clip(to rect: CGRect) { cgContext.clip(to: rect) }
}

/// How an image renderer's images are made (`UIGraphicsImageRendererFormat`).
open class UIGraphicsImageRendererFormat: UIGraphicsRendererFormat, @unchecked Sendable {
    /// Pixels a point (the main screen's by default).
    open var scale: CGFloat
    /// Whether the images have no alpha (a white background).
    open var opaque = false
    /// The colour range (Strata draws standard range only).
    open var preferredRange = Range.standard

    public enum Range: Int, Sendable {
        case unspecified = -1
        case automatic = 0
        case extended = 1
        case standard = 2
    }

    public override init() {
        scale = mainScreenScale()
        super.init()
    }

    /// The main screen's format.
    open class func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
    /// The format that uses the most precise settings: the same here.
    open class func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// The context an image renderer's block draws in (`UIGraphicsImageRendererContext`).
open class UIGraphicsImageRendererContext: UIGraphicsRendererContext {
    private let imageFormat: UIGraphicsImageRendererFormat

    init(cgContext: CGContext, format: UIGraphicsImageRendererFormat) {
        imageFormat = format
        super.init(cgContext: cgContext, format: format)
    }

    open override var format: UIGraphicsImageRendererFormat { imageFormat }

    /// What has been drawn so far, as an image.
    public var currentImage: UIImage {
        UIImage(optionalCGImage: cgContext.makeImage(), scale: format.scale)
    }
}

/// Makes images from drawing blocks (`UIGraphicsImageRenderer`), on any thread.
open class UIGraphicsImageRenderer: @unchecked Sendable {
    // @unchecked: its values never change after init.
    public let format: UIGraphicsImageRendererFormat
    let bounds: CGRect

    public init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.format = format
        bounds = CGRect(origin: .zero, size: size)
    }

    public convenience init(size: CGSize) { self.init(size: size, format: .default()) }

    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {
        self.format = format
        self.bounds = bounds
    }

    public convenience init(bounds: CGRect) { self.init(bounds: bounds, format: .default()) }

    /// Whether the renderer makes images with alpha.
    public var allowsImageOutput: Bool { true }

    /// The image `actions` draws, in a context current for the block's run
    /// (y down, the bounds' origin at the top left). An empty or non-finite
    /// size makes an empty image.
    public func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        guard let ctx = makeUIKitContext(size: bounds.size, scale: format.scale, opaque: format.opaque) else {
            return UIImage()
        }
        ctx.translateBy(x: -bounds.minX, y: -bounds.minY)
        let rendererContext = UIGraphicsImageRendererContext(cgContext: ctx, format: format)
        UIGraphicsPushContext(ctx)
        actions(rendererContext)
        UIGraphicsPopContext()
        return UIImage(optionalCGImage: ctx.makeImage(), scale: format.scale)
    }

    /// The PNG file of the image `actions` draws.
    public func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        image(actions: actions).pngData() ?? Data()
    }

    /// The JPEG file of the image `actions` draws.
    public func jpegData(withCompressionQuality quality: CGFloat, actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        image(actions: actions).jpegData(compressionQuality: quality) ?? Data()
    }
}
