// The special layers of the second seed article (../shared/seeds/001, the
// sixth chapter of "iOS Core Animation: Advanced Techniques"), each
// listing's view controller ported from Objective-C line by line to Swift
// with Apple's names. A listing's `containerView` outlet (Interface
// Builder) is a view the listing's controller makes in code. The chapter's
// tiled layer (6.11, 6.12) is in TiledListings.swift.
import UIKit

/// A listing's controller: its view holds the container its code fills.
class ListingViewController: UIViewController {
    let containerView = UIView(frame: CGRect(x: 20, y: 20, width: 200, height: 200))

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = UIColor(white: 0.92, alpha: 1)
        containerView.backgroundColor = .white
        view.addSubview(containerView)
    }
}

/// Listing 6.3: rich text in a CATextLayer, through Core Text's attributes.
final class RichTextViewController: ListingViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        // create a text layer
        let textLayer = CATextLayer()
        textLayer.frame = containerView.bounds
        textLayer.contentsScale = UIScreen.main.scale
        containerView.layer.addSublayer(textLayer)
        // set text attributes
        textLayer.alignmentMode = .justified
        textLayer.isWrapped = true
        // choose a font
        let font = UIFont.systemFont(ofSize: 15)
        // choose some text
        let text = """
            Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel varius in, \
            facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque.
            """
        // create attributed string
        let string = NSMutableAttributedString(string: text)
        // convert UIFont to a CTFont
        let fontName = font.fontName as CFString
        let fontSize = font.pointSize
        let fontRef = CTFontCreateWithName(fontName, fontSize, nil)
        // set text attributes
        var attribs: [NSAttributedString.Key: Any] = [
            NSAttributedString.Key(kCTForegroundColorAttributeName as String): UIColor.black.cgColor,
            NSAttributedString.Key(kCTFontAttributeName as String): fontRef,
        ]
        string.setAttributes(attribs, range: NSRange(location: 0, length: (text as NSString).length))
        attribs = [
            NSAttributedString.Key(kCTForegroundColorAttributeName as String): UIColor.red.cgColor,
            NSAttributedString.Key(kCTUnderlineStyleAttributeName as String): CTUnderlineStyle.single.rawValue,
            NSAttributedString.Key(kCTFontAttributeName as String): fontRef,
        ]
        string.setAttributes(attribs, range: NSRange(location: 6, length: 5))
        // set layer text
        textLayer.string = string
    }
}

/// Listing 6.5: two cubes of six faces, each a CATransformLayer.
final class CubesViewController: ListingViewController {
    /// The listing's rand(): a fixed sequence here, so the picture can be compared.
    private var seed: UInt32 = 7

    private func rand() -> Double {
        seed = seed &* 1_103_515_245 &+ 12345
        return Double((seed >> 16) & 0x7FFF) / Double(0x7FFF)
    }

    func face(withTransform transform: CATransform3D) -> CALayer {
        // create cube face layer
        let face = CALayer()
        face.frame = CGRect(x: -50, y: -50, width: 100, height: 100)
        // apply a random color
        let red = CGFloat(rand())
        let green = CGFloat(rand())
        let blue = CGFloat(rand())
        face.backgroundColor = UIColor(red: red, green: green, blue: blue, alpha: 1.0).cgColor
        // apply the transform and return
        face.transform = transform
        return face
    }

    func cube(withTransform transform: CATransform3D) -> CALayer {
        // create cube layer
        let cube = CATransformLayer()
        // add cube face 1
        var ct = CATransform3DMakeTranslation(0, 0, 50)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 2
        ct = CATransform3DMakeTranslation(50, 0, 0)
        ct = CATransform3DRotate(ct, .pi / 2, 0, 1, 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 3
        ct = CATransform3DMakeTranslation(0, -50, 0)
        ct = CATransform3DRotate(ct, .pi / 2, 1, 0, 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 4
        ct = CATransform3DMakeTranslation(0, 50, 0)
        ct = CATransform3DRotate(ct, -.pi / 2, 1, 0, 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 5
        ct = CATransform3DMakeTranslation(-50, 0, 0)
        ct = CATransform3DRotate(ct, -.pi / 2, 0, 1, 0)
        cube.addSublayer(face(withTransform: ct))
        // add cube face 6
        ct = CATransform3DMakeTranslation(0, 0, -50)
        ct = CATransform3DRotate(ct, .pi, 0, 1, 0)
        cube.addSublayer(face(withTransform: ct))
        // center the cube layer within the container
        let containerSize = containerView.bounds.size
        cube.position = CGPoint(x: containerSize.width / 2.0, y: containerSize.height / 2.0)
        // apply the transform and return
        cube.transform = transform
        return cube
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        // set up the perspective transform
        var pt = CATransform3DIdentity
        pt.m34 = -1.0 / 500.0
        containerView.layer.sublayerTransform = pt
        // set up the transform for cube 1 and add it
        var c1t = CATransform3DIdentity
        c1t = CATransform3DTranslate(c1t, -50, 0, 0)
        c1t = CATransform3DScale(c1t, 0.5, 0.5, 0.5)
        let cube1 = cube(withTransform: c1t)
        containerView.layer.addSublayer(cube1)
        // set up the transform for cube 2 and add it
        var c2t = CATransform3DIdentity
        c2t = CATransform3DTranslate(c2t, 50, 0, 0)
        c2t = CATransform3DScale(c2t, 0.5, 0.5, 0.5)
        c2t = CATransform3DRotate(c2t, -.pi / 4, 1, 0, 0)
        c2t = CATransform3DRotate(c2t, -.pi / 4, 0, 1, 0)
        let cube2 = cube(withTransform: c2t)
        containerView.layer.addSublayer(cube2)
    }
}

/// Listing 6.6: a diagonal gradient from red to blue.
final class GradientViewController: ListingViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        // create gradient layer and add it to our container view
        let gradientLayer = CAGradientLayer()
        gradientLayer.frame = containerView.bounds
        containerView.layer.addSublayer(gradientLayer)
        // set gradient colors
        gradientLayer.colors = [UIColor.red.cgColor, UIColor.blue.cgColor]
        // set gradient start and end points
        gradientLayer.startPoint = CGPoint(x: 0, y: 0)
        gradientLayer.endPoint = CGPoint(x: 1, y: 1)
    }
}

/// Listing 6.7: red, yellow and green, squeezed into the top left by `locations`.
final class GradientLocationsViewController: ListingViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let gradientLayer = CAGradientLayer()
        gradientLayer.frame = containerView.bounds
        containerView.layer.addSublayer(gradientLayer)
        gradientLayer.colors = [UIColor.red.cgColor, UIColor.yellow.cgColor, UIColor.green.cgColor]
        // set locations
        gradientLayer.locations = [0.0, 0.25, 0.5]
        gradientLayer.startPoint = CGPoint(x: 0, y: 0)
        gradientLayer.endPoint = CGPoint(x: 1, y: 1)
    }
}

/// Listing 6.8: ten copies of a square around a circle, fading to red.
final class ReplicatorViewController: ListingViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        containerView.backgroundColor = .darkGray
        // create a replicator layer and add it to our view
        let replicator = CAReplicatorLayer()
        replicator.frame = containerView.bounds
        containerView.layer.addSublayer(replicator)
        // configure the replicator
        replicator.instanceCount = 10
        // apply a transform for each instance (relative to the replicator's
        // centre, as Core Animation applies it: the listing's 200 points put
        // the ring's centre below a larger container's; 0 keeps it in this one)
        var transform = CATransform3DIdentity
        transform = CATransform3DTranslate(transform, 0, 0, 0)
        transform = CATransform3DRotate(transform, .pi / 5.0, 0, 0, 1)
        transform = CATransform3DTranslate(transform, 0, -0, 0)
        replicator.instanceTransform = transform
        // apply a color shift for each instance
        replicator.instanceBlueOffset = -0.1
        replicator.instanceGreenOffset = -0.1
        // create a sublayer and place it inside the replicator
        let layer = CALayer()
        layer.frame = CGRect(x: 85.0, y: 15.0, width: 30.0, height: 30.0)
        layer.backgroundColor = UIColor.white.cgColor
        replicator.addSublayer(layer)
    }
}

/// Listing 6.9: a view whose layer, a CAReplicatorLayer, draws its
/// contents again below, flipped and faded: a reflection.
final class ReflectionView: UIView {
    override class var layerClass: AnyClass { CAReplicatorLayer.self }

    func setUp() {
        // configure replicator
        let layer = self.layer as! CAReplicatorLayer
        layer.instanceCount = 2
        // move reflection instance below original and flip vertically
        var transform = CATransform3DIdentity
        let verticalOffset = bounds.size.height + 2
        transform = CATransform3DTranslate(transform, 0, verticalOffset, 0)
        transform = CATransform3DScale(transform, 1, -1, 0)
        layer.instanceTransform = transform
        // reduce alpha of reflection layer
        layer.instanceAlphaOffset = -0.6
    }

    override init(frame: CGRect) {
        // this is called when view is created in code
        super.init(frame: frame)
        setUp()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUp()
    }
}

final class ReflectionViewController: ListingViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let reflection = ReflectionView(frame: CGRect(x: 50, y: 10, width: 100, height: 90))
        let card = UIView(frame: reflection.bounds)
        card.backgroundColor = .systemBlue
        card.layer.cornerRadius = 12
        let label = UILabel(frame: card.bounds)
        label.text = "Strata"
        label.textColor = .white
        label.font = .boldSystemFont(ofSize: 22)
        label.textAlignment = .center
        card.addSubview(label)
        reflection.addSubview(card)
        containerView.addSubview(reflection)
    }
}

/// Listing 6.10: a scroll view made of a CAScrollLayer and a pan recognizer.
final class ScrollView: UIView {
    override class var layerClass: AnyClass { CAScrollLayer.self }

    func setUp() {
        // enable clipping
        layer.masksToBounds = true
        // attach pan gesture recognizer (a closure where the listing has a selector)
        let recognizer = UIPanGestureRecognizer { [weak self] in self?.pan($0 as! UIPanGestureRecognizer) }
        addGestureRecognizer(recognizer)
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUp()
    }

    func pan(_ recognizer: UIPanGestureRecognizer) {
        // get the offset by subtracting the pan gesture
        // translation from the current bounds origin
        var offset = bounds.origin
        offset.x -= recognizer.translation(in: self).x
        offset.y -= recognizer.translation(in: self).y
        // scroll the layer
        (layer as! CAScrollLayer).scroll(to: offset)
        // reset the pan gesture translation
        recognizer.setTranslation(.zero, in: self)
    }
}

final class ScrollLayerViewController: ListingViewController {
    let scrollView = ScrollView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))

    override func viewDidLoad() {
        super.viewDidLoad()
        // The listing scrolls an image larger than the view: a drawn one here.
        let image = UIGraphicsImageRenderer(size: CGSize(width: 600, height: 600)).image { context in
            for row in 0..<6 {
                for column in 0..<6 {
                    let hue = CGFloat(row * 6 + column) / 36
                    UIColor(hue: hue, saturation: 0.6, brightness: 0.95, alpha: 1).setFill()
                    context.fill(CGRect(x: column * 100, y: row * 100, width: 100, height: 100))
                    "\(row * 6 + column)".draw(
                        at: CGPoint(x: column * 100 + 38, y: row * 100 + 36), withAttributes: [.font: UIFont.boldSystemFont(ofSize: 22)])
                }
            }
        }
        scrollView.addSubview(UIImageView(image: image))
        containerView.addSubview(scrollView)
    }
}
