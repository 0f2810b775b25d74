public import CoreGraphics
public import Foundation
internal import StrataGraphics

/// An image (`UIImage`): a `CGImage` and the scale its pixels are meant
/// for. Immutable; PNG and JPEG files are read and written.
open class UIImage: @unchecked Sendable {
    // @unchecked: every stored property is a `let` of a Sendable type.

    /// The pixels (nil only for an empty `UIImage()`).
    public let cgImage: CGImage?
    /// Pixels a point.
    public let scale: CGFloat
    public let imageOrientation: Orientation

    /// Which way up the pixels are meant to be shown (`UIImage.Orientation`).
    /// Strata draws every orientation as `.up`.
    public enum Orientation: Int, Sendable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    /// An empty image (size zero).
    public init() {
        cgImage = nil
        scale = 1
        imageOrientation = .up
    }

    init(optionalCGImage image: CGImage?, scale: CGFloat) {
        cgImage = image
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        imageOrientation = .up
    }

    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.cgImage = cgImage
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        imageOrientation = orientation
    }

    public convenience init(cgImage: CGImage) { self.init(cgImage: cgImage, scale: 1, orientation: .up) }

    /// A PNG or JPEG file's image; nil for data that is neither, or is
    /// damaged.
    public convenience init?(data: Data, scale: CGFloat) {
        guard let image = try? Image(data: [UInt8](data)) else { return nil }
        self.init(cgImage: CGImage(image), scale: scale, orientation: .up)
    }

    public convenience init?(data: Data) { self.init(data: data, scale: 1) }

    /// The image in the file at `path` (PNG or JPEG); a name ending in
    /// `@2x` or `@3x` (before the extension) gives that scale.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let stem = (path as NSString).deletingPathExtension
        let scale: CGFloat = stem.hasSuffix("@3x") ? 3 : stem.hasSuffix("@2x") ? 2 : 1
        self.init(data: data, scale: scale)
    }

    /// The image named `name` among the main bundle's resources (or the
    /// working directory): `name`, then `name@2x.png`, `name.png`,
    /// `name.jpg`.
    public convenience init?(named name: String) {
        var folders = [FileManager.default.currentDirectoryPath]
        if let resources = Bundle.main.resourcePath { folders.insert(resources, at: 0) }
        let hasExtension = !(name as NSString).pathExtension.isEmpty
        let candidates = hasExtension ? [name] : ["\(name)@3x.png", "\(name)@2x.png", "\(name).png", "\(name).jpg", "\(name).jpeg"]
        for folder in folders {
            for candidate in candidates {
                let path = (folder as NSString).appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: path) {
                    self.init(contentsOfFile: path)
                    return
                }
            }
        }
        return nil
    }

    /// The size in points: pixels over `scale`.
    public var size: CGSize {
        guard let cgImage else { return .zero }
        return CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
    }

    /// Draws the image with its top left at `point` in the current context.
    open func draw(at point: CGPoint) { draw(in: CGRect(origin: point, size: size)) }

    /// Draws the image scaled into `rect` in the current context, upright
    /// under UIKit's flip.
    open func draw(in rect: CGRect) {
        guard let cgImage, let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.drawUnflipped(cgImage.image, in: rect)
    }

    /// Draws the image into `rect` with `blendMode` and `alpha`.
    open func draw(in rect: CGRect, blendMode: CGBlendMode, alpha: CGFloat) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.saveGState()
        ctx.setBlendMode(blendMode)
        ctx.setAlpha(alpha)
        draw(in: rect)
        ctx.restoreGState()
    }

    /// The image as a PNG file (nil for an empty image).
    public func pngData() -> Data? {
        guard let cgImage, let bytes = try? cgImage.image.pngData() else { return nil }
        return Data(bytes)
    }

    /// The image as a JPEG file at `compressionQuality` (0...1).
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        guard let cgImage else { return nil }
        let q = compressionQuality.isFinite ? Swift.min(Swift.max(Double(compressionQuality), 0), 1) : 0.9
        guard let bytes = try? cgImage.image.jpegData(quality: q) else { return nil }
        return Data(bytes)
    }

    /// The same image, its rendering mode ignored (Strata does not tint templates).
    open func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage { self }

    public enum RenderingMode: Int, Sendable {
        case automatic, alwaysOriginal, alwaysTemplate
    }
}
