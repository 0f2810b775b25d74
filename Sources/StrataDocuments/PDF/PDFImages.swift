import StrataGraphics

/// The images a PDF document draws, each embedded once however often and
/// on however many pages it is drawn: an image XObject of its straight
/// RGB (FlateDecode), with a soft mask of its alpha when it has any. PDF's
/// `/Interpolate` belongs to the image, not the drawing, so an image drawn
/// both smoothed and with `.none` (nearest) is embedded once for each.
final class PDFImages {
    /// The images by the storage of their pixels (kept alive here, so an
    /// address is not reused while the document lives).
    private var indices: [Key: Int] = [:]
    private(set) var images: [Image] = []
    /// Whether each image is smoothed when scaled (`/Interpolate`).
    private(set) var smooth: [Bool] = []

    struct Key: Hashable {
        var address: UInt
        var width, height, bytesPerRow: Int
        var smooth: Bool
    }

    /// The index of `image` among the document's, added when new.
    func index(of image: Image, smooth smoothing: Bool) -> Int {
        let address = image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let key = Key(address: address, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow, smooth: smoothing)
        if let i = indices[key] { return i }
        images.append(image)
        smooth.append(smoothing)
        indices[key] = images.count - 1
        return images.count - 1
    }

    /// `image`'s straight colours, three bytes a pixel, and its alphas, one
    /// a pixel (nil when every pixel is opaque).
    static func planes(_ image: Image) -> (rgb: [UInt8], alpha: [UInt8]?) {
        let n = image.width * image.height
        var rgb = [UInt8](repeating: 0, count: n * 3)
        var alpha = [UInt8](repeating: 255, count: n)
        var opaque = true
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                let row = y * image.bytesPerRow
                for x in 0..<image.width {
                    let i = row + x * 4, o = y * image.width + x
                    let a = p[i + 3]
                    alpha[o] = a
                    if a == 255 {
                        rgb[o * 3] = p[i]
                        rgb[o * 3 + 1] = p[i + 1]
                        rgb[o * 3 + 2] = p[i + 2]
                    } else {
                        opaque = false
                        if a > 0 {
                            func straight(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a))) }
                            rgb[o * 3] = straight(p[i])
                            rgb[o * 3 + 1] = straight(p[i + 1])
                            rgb[o * 3 + 2] = straight(p[i + 2])
                        }
                    }
                }
            }
        }
        return (rgb, opaque ? nil : alpha)
    }
}
