/// Where a vector canvas's drawing goes instead of pixels: a page of a
/// document (PDF, SVG), as Core Graphics' PDF context and Cairo's vector
/// surfaces take the same calls as their bitmap ones.
///
/// A canvas made with `Canvas(device:)` keeps its graphics state (the
/// transform, the clips, alpha, blend mode, colours, the stroke style) as
/// it always does, and hands each fill and stroke to the device with the
/// state it is drawn in: the path as the user gave it, the transform from
/// user space to the page (points, y down, origin at the top left), and
/// every clip in force. The device writes them as vectors.
///
/// What reaches a device: fills and strokes of paths, rectangles and
/// ellipses with their paints (colours, and gradients as paints), clips to
/// rectangles, paths and image masks (`VectorClip.mask`), alpha and blend
/// modes, images, the canvas's own gradient calls (`drawLinearGradient`
/// and its kin), and transparency layers as groups (`beginGroup()` …
/// `endGroup(state:)`). (StrataText draws text on a vector canvas as text
/// where the device takes glyphs, and as outlines elsewhere.) What a device
/// cannot express the canvas draws as an image of its area at the device's
/// `rasterScale`: shadows (a transparency layer's shadow included, with
/// the layer), the paints `canPaint` declines, and sprites (a particle
/// system's thousands of tinted copies are one image).
public protocol VectorDevice: AnyObject {
    /// The page's size, in points.
    var size: Size { get }
    /// Fills `path` (user space) under `rule` with `paint`.
    func fill(_ path: Path, rule: FillRule, paint: Paint, state: VectorState)
    /// Fills `rect` (user space; finite, not empty) with `paint`: `fill(_:rule:paint:state:)`
    /// of the rectangle's path unless the device writes rectangles its own way.
    func fill(_ rect: Rect, paint: Paint, state: VectorState)
    /// Fills the ellipse in `rect` (user space; finite, not empty) with
    /// `paint`: `fill(_:rule:paint:state:)` of `Path(ellipseIn:)` unless the
    /// device writes ellipses its own way.
    func fill(ellipseIn rect: Rect, paint: Paint, state: VectorState)
    /// Strokes `path` (user space) with `style` (its widths in user space,
    /// so the transform stretches the pen) and `paint`.
    func stroke(_ path: Path, style: StrokeStyle, paint: Paint, state: VectorState)
    /// Draws `image` stretched over `rect` (user space, finite, not
    /// empty), its first row at the rectangle's top, sampled as
    /// `interpolation` says.
    func draw(_ image: Image, in rect: Rect, interpolation: InterpolationQuality, state: VectorState)
    /// Fills the clip with the gradient `paint` (linear, radial or conic,
    /// in user space), its end colours continuing beyond the start and the
    /// end only where `extendStart` and `extendEnd` say
    /// (`drawLinearGradient` and its kin).
    func drawGradient(_ paint: Paint, extendStart: Bool, extendEnd: Bool, state: VectorState)
    /// Whether the device draws `paint` as vectors; the canvas draws what it
    /// does not as an image of its area.
    func canPaint(_ paint: Paint) -> Bool
    /// Pixels a point for what is drawn as an image: shadows, and paints
    /// the device cannot express (2 by default: 144 pixels an inch).
    var rasterScale: Double { get }
    /// Starts a group (a transparency layer): what is drawn until the
    /// matching `endGroup(state:)` is composited as one picture. Groups nest.
    func beginGroup()
    /// Ends the innermost group and composites it onto what is below with
    /// `state`'s clips, alpha and blend mode (its transform plays no part:
    /// the group's contents were placed on the page as they were drawn).
    func endGroup(state: VectorState)
}

extension VectorDevice {
    public var rasterScale: Double { 2 }

    public func fill(_ rect: Rect, paint: Paint, state: VectorState) {
        fill(Path(rect: rect), rule: .winding, paint: paint, state: state)
    }

    public func fill(ellipseIn rect: Rect, paint: Paint, state: VectorState) {
        fill(Path(ellipseIn: rect), rule: .winding, paint: paint, state: state)
    }
}

/// A clip in force on a vector canvas: the inside of `path` under `rule`,
/// the path in the user space of `transform` (to the page), and where
/// `mask` is set, that mask's coverage within it
/// (`Canvas.clip(to:mask:channel:)`).
public struct VectorClip: Hashable, Sendable {
    public var path: Path
    public var transform: Transform
    public var rule: FillRule
    /// An image whose alpha is the coverage, stretched over `mask.rect`
    /// (user space of `transform`); `path` is that rectangle.
    public var mask: VectorMask?

    public init(path: Path, transform: Transform, rule: FillRule, mask: VectorMask? = nil) {
        self.path = path
        self.transform = transform
        self.rule = rule
        self.mask = mask
    }
}

/// The image of a mask clip: white, its alpha the coverage the clip lets
/// through (the mask's alpha or luminance, as the clip's channel chose),
/// over `rect`. Two are equal when they share the same pixels' storage and
/// rectangle (the image is never compared pixel by pixel).
public struct VectorMask: Hashable, Sendable {
    public let image: Image
    public let rect: Rect
    public let interpolation: InterpolationQuality

    public init(image: Image, rect: Rect, interpolation: InterpolationQuality) {
        self.image = image
        self.rect = rect
        self.interpolation = interpolation
    }

    private var storage: UInt {
        image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    public static func == (a: VectorMask, b: VectorMask) -> Bool {
        a.storage == b.storage && a.image.width == b.image.width && a.image.height == b.image.height
            && a.rect == b.rect && a.interpolation == b.interpolation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
        hasher.combine(image.width)
        hasher.combine(rect.minX)
        hasher.combine(rect.minY)
    }
}

/// The graphics state a vector drawing call is made in.
public struct VectorState: Hashable, Sendable {
    /// User space to the page (points, y down).
    public var transform: Transform
    /// Every clip in force, outermost first; drawing shows only where all
    /// of them let it through.
    public var clips: [VectorClip]
    /// The canvas's alpha, 0 … 1, which multiplies the paint's.
    public var alpha: Double
    public var blendMode: BlendMode

    public init(transform: Transform, clips: [VectorClip], alpha: Double, blendMode: BlendMode) {
        self.transform = transform
        self.clips = clips
        self.alpha = alpha
        self.blendMode = blendMode
    }
}

extension Canvas {
    /// A canvas whose drawing goes to `device` (a document's page) as
    /// vectors; its bounds are the page's, in points. Its `bitmap` is an
    /// empty placeholder of one pixel: nothing is rasterized.
    public convenience init(device: any VectorDevice) {
        // One transparent pixel cannot fail to be made.
        self.init(bitmap: try! Bitmap(width: 1, height: 1), device: device)
    }

    /// The state vector drawing calls are made in now (for the drawing
    /// calls of other modules, text's among them).
    public var vectorState: VectorState {
        VectorState(transform: state.transform, clips: state.vectorClips, alpha: state.alpha, blendMode: state.blendMode)
    }

    /// Records a clip on a vector canvas, narrowing the clip box to its
    /// bounds on the page (so `clipBoundingBox` and the empty-clip checks
    /// hold as on a bitmap).
    func vectorClip(_ path: Path, rule: FillRule, mask: VectorMask? = nil) {
        guard let (x0, y0, x1, y1) = Canvas.deviceBounds(path, state.transform) else {
            clipEverything()
            return
        }
        let area = Canvas.pixelBox(x0.rounded(.down), y0.rounded(.down), x1.rounded(.up), y1.rounded(.up), within: state.vectorBox)
        guard !area.isEmpty else {
            clipEverything()
            return
        }
        // The clip is made before `state` is modified: reading it inside
        // the append's access would overlap that access.
        let clip = VectorClip(path: path, transform: state.transform, rule: rule, mask: mask)
        state.vectorBox = area
        state.vectorClips.append(clip)
    }
}
