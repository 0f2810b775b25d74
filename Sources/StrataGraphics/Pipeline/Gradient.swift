#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Colours at locations along 0...1 (`CGGradient`).
///
/// Between stops, colours are interpolated on their straight (unpremultiplied)
/// components and premultiplied afterwards, as Skia does by default: a fade from
/// opaque red to transparent stays red all the way instead of darkening.
///
/// Stops are sorted by location; locations are clamped to 0...1. A stop whose
/// location is NaN is dropped; colour components are clamped to 0...1, NaN
/// counting as 0. A gradient with no stops draws nothing; with one
/// stop it is that colour everywhere.
public struct Gradient: Sendable, Hashable {
    public struct Stop: Sendable, Hashable {
        public var color: Color
        public var location: Double

        public init(color: Color, location: Double) {
            self.color = color
            self.location = location
        }
    }

    /// The stops, sorted by location, all within 0...1.
    public let stops: [Stop]

    public init(stops: [Stop]) {
        // (Colours are already within 0...1, NaN as 0: `Color` clamps them, so one
        // bad stop cannot spread NaN along the ramp.) Sorted by location, ties
        // kept in the order given (a hard edge between two stops at one location).
        self.stops = stops.enumerated().filter { !$0.element.location.isNaN }
            .map { (index, stop) in (index, Stop(color: stop.color, location: min(1, max(0, stop.location)))) }
            .sorted { ($0.1.location, $0.0) < ($1.1.location, $1.0) }
            .map(\.1)
    }

    /// Colours spread evenly over 0...1, or placed at `locations` (which must
    /// then have one entry per colour; extra entries on either side are ignored).
    public init(colors: [Color], locations: [Double]? = nil) {
        let n = colors.count
        let places = locations ?? (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
        self.init(stops: zip(colors, places).map { Stop(color: $0.0, location: $0.1) })
    }

    /// The straight colour at `t` in 0...1.
    public func color(at t: Double) -> Color {
        guard let first = stops.first, let last = stops.last else { return .clear }
        if !(t > first.location) { return first.color }
        if t >= last.location { return last.color }
        var i = 1
        while stops[i].location < t { i += 1 }
        let a = stops[i - 1], b = stops[i]
        let span = b.location - a.location
        let f = span > 0 ? (t - a.location) / span : 1
        @inline(__always) func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        return Color(
            red: mix(a.color.red, b.color.red), green: mix(a.color.green, b.color.green),
            blue: mix(a.color.blue, b.color.blue), alpha: mix(a.color.alpha, b.color.alpha))
    }

    /// 256 premultiplied pixels sampling 0...1, entry i at t = i / 255, each
    /// multiplied by `alpha`: what the shaders look up, so a pixel costs one load.
    func lookupTable(alpha: Double) -> [UInt32] {
        (0..<256).map { i in
            var c = color(at: Double(i) / 255)
            c.alpha *= alpha
            return c.premultipliedPixel.packed
        }
    }
}

/// What a gradient does beyond its ends, and an image pattern beyond its edges.
public enum GradientSpread: Sendable, Hashable {
    /// The end colours continue outward.
    case pad
    /// The gradient starts over.
    case `repeat`
    /// The gradient runs back and forth.
    case reflect
}

/// Whether a gradient drawn with `Canvas.drawLinearGradient` and its siblings
/// extends its end colours beyond its ends (`CGGradientDrawingOptions`). Without
/// them, nothing is drawn outside the gradient.
public struct GradientDrawingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let drawsBeforeStartLocation = GradientDrawingOptions(rawValue: 1)
    public static let drawsAfterEndLocation = GradientDrawingOptions(rawValue: 2)
}
