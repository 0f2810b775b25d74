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
    ///
    /// Every call to fill with a gradient makes one, so it walks the stops
    /// once, segment by segment, with the same arithmetic as
    /// `color(at:)` and `Color.premultipliedPixel` (the same bytes), and
    /// makes no `Color` on the way.
    func lookupTable(alpha: Double) -> [UInt32] {
        guard let first = stops.first, let last = stops.last else { return [UInt32](repeating: 0, count: 256) }
        return [UInt32](unsafeUninitializedCapacity: 256) { out, count in
            // The end colours, premultiplied as every entry is.
            @inline(__always) func packed(_ color: Color) -> UInt32 {
                var c = color
                c.alpha *= alpha
                return c.premultipliedPixel.packed
            }
            let before = packed(first.color), after = packed(last.color)
            var i = 0
            // Before the first stop, the first colour.
            while i < 256, !(Double(i) / 255 > first.location) {
                out[i] = before
                i += 1
            }
            // Segment by segment: each entry's straight colour is the
            // segment's start plus a step per entry, in 16.16 fixed point of
            // 0...255 (alpha times the canvas's), with no division per
            // entry; then premultiplied as `Pixel.multiply` does.
            for segment in stops.indices.dropFirst() where i < 256 {
                let a = stops[segment - 1], b = stops[segment]
                let span = b.location - a.location
                // The entries of this segment: t = i / 255 in (a, b], below the last stop.
                @inline(__always) func inSegment(_ j: Int) -> Bool {
                    let t = Double(j) / 255
                    return t < last.location && !(b.location < t)
                }
                // Found from the stop's place, then checked as each entry is.
                var end = min(256, max(i, Int(min(max(b.location, 0), 1) * 255) + 1))
                while end < 256, inSegment(end) { end += 1 }
                while end > i, !inSegment(end - 1) { end -= 1 }
                guard end > i else { continue }
                let scale = 255.0 * 65536
                let (r0, g0, b0, a0) = (a.color.red, a.color.green, a.color.blue, a.color.alpha * alpha)
                let (dr, dg, db, da) = (b.color.red - r0, b.color.green - g0, b.color.blue - b0, b.color.alpha * alpha - a0)
                let f0 = span > 0 ? (Double(i) / 255 - a.location) / span : 1
                let df = span > 0 ? 1 / (255 * span) : 0
                @inline(__always) func fixed(_ v: Double) -> Int { Int((v * scale).rounded()) }
                var fr = fixed(r0 + dr * f0) + 32768, fg = fixed(g0 + dg * f0) + 32768
                var fb = fixed(b0 + db * f0) + 32768, fa = fixed(a0 + da * f0) + 32768
                let sr = fixed(dr * df), sg = fixed(dg * df), sb = fixed(db * df), sa = fixed(da * df)
                @inline(__always) func level(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: min(max(v >> 16, 0), 255)) }
                while i < end {
                    let a8 = level(fa)
                    out[i] =
                        Pixel(r: Pixel.multiply(level(fr), a8), g: Pixel.multiply(level(fg), a8), b: Pixel.multiply(level(fb), a8), a: a8)
                        .packed
                    fr &+= sr
                    fg &+= sg
                    fb &+= sb
                    fa &+= sa
                    i += 1
                }
            }
            // From the last stop on, the last colour.
            while i < 256 {
                out[i] = after
                i += 1
            }
            count = 256
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
