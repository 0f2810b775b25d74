package import StrataGraphics

/// A colour space. Strata draws in sRGB: every RGB space is taken as sRGB,
/// and grey as sRGB's neutral axis.
public final class CGColorSpace: Sendable {
    /// How a space's colours are given.
    public enum Model: Int32, Sendable {
        case unknown = -1
        case monochrome = 0
        case rgb = 1
    }

    /// The space's name (`CGColorSpace.sRGB`, …; a `String` here, where
    /// Apple's is a `CFString`).
    public let name: String?
    public let model: Model

    init(name: String?, model: Model) {
        self.name = name
        self.model = model
    }

    /// A space by its name: the RGB spaces and the grey ones; nil for a name
    /// Strata does not know.
    public convenience init?(name: String) {
        switch name {
        case CGColorSpace.sRGB, CGColorSpace.extendedSRGB, CGColorSpace.linearSRGB, CGColorSpace.displayP3, CGColorSpace.genericRGBLinear:
            self.init(name: name, model: .rgb)
        case CGColorSpace.genericGrayGamma2_2, CGColorSpace.linearGray, CGColorSpace.extendedGray:
            self.init(name: name, model: .monochrome)
        default:
            return nil
        }
    }

    /// Colour components a colour in this space has, alpha not counted.
    public var numberOfComponents: Int { model == .monochrome ? 1 : 3 }

    public static let sRGB = "kCGColorSpaceSRGB"
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    public static let linearSRGB = "kCGColorSpaceLinearSRGB"
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearGray = "kCGColorSpaceLinearGray"
    public static let extendedGray = "kCGColorSpaceExtendedGray"

    static let rgb = CGColorSpace(name: sRGB, model: .rgb)
    static let gray = CGColorSpace(name: genericGrayGamma2_2, model: .monochrome)
}

/// The device RGB space (sRGB here).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { .rgb }
/// The device grey space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { .gray }

/// A colour: components in a colour space and an alpha, immutable.
///
/// One object, the colour as Strata draws it first: code that sets a
/// different `CGColor` for each shape reads one cache line a colour, and
/// the components are made from it when asked for.
public final class CGColor: Sendable, Equatable {
    /// The colour as Strata draws it: red, green, blue and alpha, each
    /// within 0...1. `@usableFromInline` so that `CGContext.setFillColor(_:)`
    /// and `setStrokeColor(_:)`, inlined where they are called, read these
    /// four numbers out of a colour held in an array without retaining it.
    @usableFromInline let rgba: (red: Double, green: Double, blue: Double, alpha: Double)
    /// The colour as Strata draws it.
    package var strata: Color { Color(red: rgba.red, green: rgba.green, blue: rgba.blue, alpha: rgba.alpha) }
    public let colorSpace: CGColorSpace?
    /// Components of a number that is neither grey and alpha nor red,
    /// green, blue and alpha (drawn black); nil for those two.
    private let otherComponents: [CGFloat]?
    private let isGray: Bool

    init(space: CGColorSpace, components: [CGFloat]) {
        colorSpace = space
        let c = components.map { $0.isNaN ? 0 : Swift.min(Swift.max($0, 0), 1) }
        if c.count == 2 {
            rgba = (Double(c[0]), Double(c[0]), Double(c[0]), Double(c[1]))
            isGray = true
            otherComponents = nil
        } else if c.count == 4 {
            rgba = (Double(c[0]), Double(c[1]), Double(c[2]), Double(c[3]))
            isGray = false
            otherComponents = nil
        } else {
            rgba = c.count > 4 ? (Double(c[0]), Double(c[1]), Double(c[2]), Double(c[3])) : (0, 0, 0, 1)
            isGray = false
            otherComponents = c
        }
    }

    /// A grey or RGB colour straight from its values (no array to make).
    private init(space: CGColorSpace, color: Color, isGray: Bool) {
        colorSpace = space
        rgba = (color.red, color.green, color.blue, color.alpha)
        self.isGray = isGray
        otherComponents = nil
    }

    /// The components, alpha last (red, green, blue, alpha; or grey, alpha).
    public var components: [CGFloat]? {
        if let otherComponents { return otherComponents }
        return isGray ? [rgba.red, rgba.alpha] : [rgba.red, rgba.green, rgba.blue, rgba.alpha]
    }

    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: .rgb, color: Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha)), isGray: false)
    }

    /// sRGB components, as on macOS and iOS 13 and later.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(space: .gray, color: Color(white: Double(gray), alpha: Double(alpha)), isGray: true)
    }

    /// A colour in `space` from its components (alpha last); nil when their
    /// number is not the space's plus one.
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        self.init(space: space, components: Array(UnsafeBufferPointer(start: components, count: n)))
    }

    public var alpha: CGFloat { otherComponents.map { $0.last ?? 1 } ?? rgba.alpha }
    public var numberOfComponents: Int { otherComponents?.count ?? (isGray ? 2 : 4) }

    /// The same colour with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard var c = components, let space = colorSpace else { return nil }
        c[c.count - 1] = alpha
        return CGColor(space: space, components: c)
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    public static func == (l: CGColor, r: CGColor) -> Bool {
        guard l.colorSpace?.model == r.colorSpace?.model else { return false }
        if l.otherComponents != nil || r.otherComponents != nil { return l.components == r.components }
        return l.isGray == r.isGray && l.rgba == r.rgba
    }

    /// The device space this colour is in, when it is one of them
    /// (`CGColorSpaceCreateDeviceRGB()`'s or `CGColorSpaceCreateDeviceGray()`'s)
    /// with its usual components: then `init(deviceRGB:)` or
    /// `init(deviceGray:)` makes an equal colour from `strata` alone.
    package var deviceSpace: CGColorSpace.Model? {
        guard otherComponents == nil else { return nil }
        if isGray { return colorSpace === CGColorSpace.gray ? .monochrome : nil }
        return colorSpace === CGColorSpace.rgb ? .rgb : nil
    }

    /// `color` in the device RGB space.
    package convenience init(deviceRGB color: Color) { self.init(space: .rgb, color: color, isGray: false) }

    /// `color`'s red as a grey in the device grey space.
    package convenience init(deviceGray color: Color) {
        self.init(space: .gray, color: Color(white: color.red, alpha: color.alpha), isGray: true)
    }

    package convenience init(_ c: Color) { self.init(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha) }
}

/// Whether two colours are the same (both nil counts as the same).
public func CGColorEqualToColor(_ color1: CGColor?, _ color2: CGColor?) -> Bool { color1 == color2 }
