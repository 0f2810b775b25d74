package import StrataGraphics

/// How a stroke's open ends are drawn.
public enum CGLineCap: Int32, Sendable {
    case butt = 0
    case round, square
    package var strata: LineCap { self == .butt ? .butt : self == .round ? .round : .square }
}

/// How a stroke's corners are drawn.
public enum CGLineJoin: Int32, Sendable {
    case miter = 0
    case round, bevel
    package var strata: LineJoin { self == .miter ? .miter : self == .round ? .round : .bevel }
}

/// Which points a self-crossing path holds.
public enum CGPathFillRule: Int, Sendable {
    case winding = 0
    case evenOdd
    package var strata: FillRule { self == .winding ? .winding : .evenOdd }
}

/// What `drawPath(using:)` does.
public enum CGPathDrawingMode: Int32, Sendable {
    case fill = 0
    case eoFill, stroke, fillStroke, eoFillStroke
}

/// How images are sampled when scaled.
public enum CGInterpolationQuality: Int32, Sendable {
    case `default` = 0
    case none, low, medium, high
    package var strata: InterpolationQuality {
        switch self {
        case .none: .none
        case .low: .low
        case .medium: .medium
        case .default: .default
        case .high: .high
        }
    }
}

/// How drawn colour combines with what is there: the separable and
/// Porter-Duff modes Strata draws. `hue`, `saturation`, `color`,
/// `luminosity` and `plusDarker`, which Strata does not draw, draw as
/// `normal`.
public enum CGBlendMode: Int32, Sendable {
    case normal = 0
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut, destinationAtop
    case xor, plusDarker, plusLighter

    package var strata: BlendMode {
        switch self {
        case .normal, .hue, .saturation, .color, .luminosity, .plusDarker: .normal
        case .multiply: .multiply
        case .screen: .screen
        case .overlay: .overlay
        case .darken: .darken
        case .lighten: .lighten
        case .colorDodge: .colorDodge
        case .colorBurn: .colorBurn
        case .softLight: .softLight
        case .hardLight: .hardLight
        case .difference: .difference
        case .exclusion: .exclusion
        case .clear: .clear
        case .copy: .copy
        case .sourceIn: .sourceIn
        case .sourceOut: .sourceOut
        case .sourceAtop: .sourceAtop
        case .destinationOver: .destinationOver
        case .destinationIn: .destinationIn
        case .destinationOut: .destinationOut
        case .destinationAtop: .destinationAtop
        case .xor: .xor
        case .plusLighter: .plusLighter
        }
    }
}

/// Whether a gradient continues past its ends.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)

    package var strata: GradientDrawingOptions {
        var o: GradientDrawingOptions = []
        if contains(.drawsBeforeStartLocation) { o.insert(.drawsBeforeStartLocation) }
        if contains(.drawsAfterEndLocation) { o.insert(.drawsAfterEndLocation) }
        return o
    }
}

/// A bitmap's pixel layout. Strata's bitmaps are 8-bit premultiplied RGBA
/// (`premultipliedLast` with the default byte order); other layouts are
/// refused by `CGContext(data:…)`.
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
}

/// Where a pixel's alpha is, and whether its colour is premultiplied.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0
    case premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}
