// The chapter's tiled layer: listing 6.11 cuts a large picture into
// 256 × 256 JPEG tiles, and listing 6.12 shows them in a scroll view
// through a CATiledLayer whose delegate loads each tile as it is needed,
// on the layer's drawing threads. The article's 2048 × 2048 snowman
// photograph is not ours to ship: `Snowman.makePicture()` draws one.
import UIKit

/// Listing 6.11: the tile cutter, a command-line program (AppKit's `NSImage`
/// reads the picture there; `UIImage` here). Returns the exit status.
func tileCutter(_ arguments: [String]) -> Int32 {
    // handle incorrect arguments
    if arguments.count < 2 {
        print("TileCutter arguments: inputfile")
        return 0
    }
    // input file
    let inputFile = arguments[1]
    // tile size
    let tileSize: CGFloat = 256
    // output path
    let outputPath = (inputFile as NSString).deletingPathExtension
    // load image
    guard let image = UIImage(contentsOfFile: inputFile), let imageRef = image.cgImage else { return 1 }
    var size = image.size
    size.width = CGFloat(imageRef.width)
    size.height = CGFloat(imageRef.height)
    // calculate rows and columns
    let rows = Int(ceil(size.height / tileSize))
    let cols = Int(ceil(size.width / tileSize))
    // generate tiles
    for y in 0..<rows {
        for x in 0..<cols {
            // extract tile image
            let tileRect = CGRect(x: CGFloat(x) * tileSize, y: CGFloat(y) * tileSize, width: tileSize, height: tileSize)
            guard let tileImage = imageRef.cropping(to: tileRect) else { continue }
            // convert to jpeg data
            guard let data = UIImage(cgImage: tileImage).jpegData(compressionQuality: 0.9) else { continue }
            // save file
            let path = outputPath + String(format: "_%02i_%02i.jpg", x, y)
            try? data.write(to: URL(fileURLWithPath: path))
        }
    }
    return 0
}

/// The picture the listings tile, and its tiles, made once per process.
@MainActor
enum Snowman {
    /// The folder holding `Snowman.jpg` and its 64 tiles, cut by listing 6.11.
    static let tileDirectory: String = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-snowman-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/Snowman.jpg"
        try? makePicture().jpegData(compressionQuality: 0.9)?.write(to: URL(fileURLWithPath: file))
        _ = tileCutter(["TileCutter", file])
        return directory
    }()

    /// A 2048 × 2048 snowman in the snow, under a night sky with a moon.
    static func makePicture() -> UIImage {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        return UIGraphicsImageRenderer(size: CGSize(width: 2048, height: 2048), format: format).image { context in
            let ctx = context.cgContext
            // The sky, darker at the top.
            let sky = CGGradient(
                colorsSpace: CGColorSpaceCreateDeviceRGB(),
                colors: [
                    UIColor(red: 0.05, green: 0.08, blue: 0.25, alpha: 1).cgColor, UIColor(red: 0.35, green: 0.45, blue: 0.75, alpha: 1).cgColor,
                ]
                    as CFArray,
                locations: [0, 1])!
            ctx.drawLinearGradient(sky, start: .zero, end: CGPoint(x: 0, y: 1500), options: [])
            // The moon and the stars.
            UIColor(red: 1, green: 0.97, blue: 0.8, alpha: 1).setFill()
            ctx.fillEllipse(in: CGRect(x: 180, y: 160, width: 260, height: 260))
            var seed: UInt32 = 11
            for _ in 0..<160 {
                seed = seed &* 1_103_515_245 &+ 12345
                let x = CGFloat(seed >> 16 & 0x7FF)
                seed = seed &* 1_103_515_245 &+ 12345
                let y = CGFloat(seed >> 16 & 0x3FF)
                UIColor(white: 1, alpha: 0.9).setFill()
                ctx.fillEllipse(in: CGRect(x: x, y: y, width: 7, height: 7))
            }
            // The snow.
            UIColor(white: 0.96, alpha: 1).setFill()
            ctx.fill(CGRect(x: 0, y: 1500, width: 2048, height: 548))
            // The snowman: three balls, a hat, eyes, a carrot and a scarf.
            UIColor.white.setFill()
            UIColor(white: 0.7, alpha: 1).setStroke()
            for ball in [
                CGRect(x: 674, y: 1080, width: 700, height: 600), CGRect(x: 774, y: 640, width: 500, height: 480),
                CGRect(x: 864, y: 330, width: 320, height: 320),
            ] {
                let path = UIBezierPath(ovalIn: ball)
                path.lineWidth = 8
                path.fill()
                path.stroke()
            }
            UIColor(white: 0.1, alpha: 1).setFill()
            ctx.fill(CGRect(x: 894, y: 300, width: 260, height: 40))
            ctx.fill(CGRect(x: 934, y: 120, width: 180, height: 190))
            ctx.fillEllipse(in: CGRect(x: 944, y: 430, width: 40, height: 40))
            ctx.fillEllipse(in: CGRect(x: 1064, y: 430, width: 40, height: 40))
            for i in 0..<3 {
                ctx.fillEllipse(in: CGRect(x: 1004, y: 760 + CGFloat(i) * 110, width: 40, height: 40))
            }
            UIColor.orange.setFill()
            let nose = UIBezierPath()
            nose.move(to: CGPoint(x: 1024, y: 490))
            nose.addLine(to: CGPoint(x: 1200, y: 525))
            nose.addLine(to: CGPoint(x: 1024, y: 545))
            nose.close()
            nose.fill()
            UIColor(red: 0.8, green: 0.1, blue: 0.15, alpha: 1).setFill()
            UIBezierPath(roundedRect: CGRect(x: 860, y: 620, width: 330, height: 60), cornerRadius: 30).fill()
            ctx.fill(CGRect(x: 1100, y: 640, width: 60, height: 200))
        }
    }
}

/// Listing 6.12: a scroll view of the snowman's tiles, loaded on demand by
/// a CATiledLayer's delegate. The delegate's drawing is `nonisolated`, as
/// Swift 6 code declares it on iOS: Core Animation calls it on background
/// threads, several tiles at once.
final class TiledLayerViewController: ListingViewController {
    let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    /// Where the tiles are (the app bundle's resources in the listing).
    let tileDirectory = Snowman.tileDirectory

    override func viewDidLoad() {
        super.viewDidLoad()
        containerView.addSubview(scrollView)
        // add the tiled layer
        let tileLayer = CATiledLayer()
        tileLayer.frame = CGRect(x: 0, y: 0, width: 2048, height: 2048)
        tileLayer.delegate = self
        scrollView.layer.addSublayer(tileLayer)
        // configure the scroll view
        scrollView.contentSize = tileLayer.frame.size
        // draw layer
        tileLayer.setNeedsDisplay()
        // (Not in the listing: start at the snowman's face, as the figure does.)
        scrollView.contentOffset = CGPoint(x: 900, y: 290)
    }
}

extension TiledLayerViewController: CALayerDelegate {
    nonisolated func draw(_ layer: CALayer, in ctx: CGContext) {
        guard let layer = layer as? CATiledLayer else { return }
        // determine tile coordinate
        let bounds = ctx.boundingBoxOfClipPath
        let x = Int(floor(bounds.origin.x / layer.tileSize.width))
        let y = Int(floor(bounds.origin.y / layer.tileSize.height))
        // load tile image
        let imageName = String(format: "Snowman_%02i_%02i", x, y)
        let imagePath = tileDirectory + "/" + imageName + ".jpg"
        let tileImage = UIImage(contentsOfFile: imagePath)
        // draw tile
        UIGraphicsPushContext(ctx)
        tileImage?.draw(in: bounds)
        UIGraphicsPopContext()
    }
}
