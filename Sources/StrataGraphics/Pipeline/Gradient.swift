internal import CPixels

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
        // Stops already in order within 0...1 (nearly always): kept as given,
        // without the arrays the general case makes (a gradient made for
        // each small shape spent more on them than on its pixels).
        var inOrder = true
        var previous = 0.0
        for stop in stops {
            let l = stop.location
            guard l >= previous, l <= 1 else {  // also NaN
                inOrder = false
                break
            }
            previous = l
        }
        if inOrder {
            self.stops = stops
            return
        }
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
        let plan = GradientTablePlan(self, alpha: alpha)
        return [UInt32](unsafeUninitializedCapacity: 256) { out, count in
            plan.fill(out.baseAddress!, 0..<256)
            count = 256
        }
    }
}

/// How a gradient's 256 table entries are made, run by run: the first colour
/// before the first stop, a ramp per segment, the last colour after the
/// last stop. Any entry can be made alone, with the same bytes as making them
/// all in order, so a shader makes only the entries its pixels use (an
/// eight-pixel shape uses a handful of the 256).
///
/// It walks the stops once, with the same arithmetic as `color(at:)` and
/// `Color.premultipliedPixel` (the same bytes), and makes no `Color` on the
/// way: each ramp is a start and a step per entry in 16.16 fixed point of
/// 0...255 (alpha times the canvas's), then premultiplied as
/// `Pixel.multiply` does; entry `k` of a ramp is its start plus `k` steps,
/// exactly what adding a step per entry gives.
struct GradientTablePlan {
    enum Run {
        case constant(UInt32)
        /// Fixed-point r, g, b, a at the run's first entry, and their steps.
        case ramp(start: (Int, Int, Int, Int), step: (Int, Int, Int, Int))
    }

    /// The runs, in order: run `i` (below `runCount`) covers entries
    /// `bounds[i] ..< bounds[i + 1]`. The arrays only grow: a plan made
    /// again overwrites them in place.
    private(set) var runs: [Run] = []
    private(set) var bounds: [Int] = [0]
    private(set) var runCount = 0

    init(_ gradient: Gradient, alpha: Double) {
        replan(gradient, alpha: alpha)
    }

    /// A plan of no runs yet (`replan` makes one).
    init() {}

    /// The first entry j in 0 ... 256 whose t = j/255 is above `location`
    /// (at or above it, with `orAt`), 256 where none is; `location` within
    /// 0...1. The nearest entry, moved a step either way where it needs.
    /// (No search loop: the compiler made one vector code whose set-up cost
    /// more than the rest of the plan.)
    @inline(__always)
    private static func firstEntry(after location: Double, orAt: Bool) -> Int {
        @inline(__always) func past(_ j: Int) -> Bool {
            let t = Self.places[j]
            return orAt ? t >= location : t > location
        }
        var j = Int(location * 255)
        if j > 0 && past(j - 1) { j -= 1 }
        if j < 256 && !past(j) { j += 1 }
        if (j > 0 && past(j - 1)) || (j < 256 && !past(j)) { return searchEntry(after: location, orAt: orAt) }
        return j
    }

    /// j/255 for j in 0 ... 256, worked out once: the divisions were a
    /// third of a plan's time, and a small gradient shape makes a plan a call.
    private static let places: [Double] = (0...256).map { Double($0) / 255 }

    /// `firstEntry` by a search from 0 (never needed: the nearest entry is
    /// at most a step off).
    @inline(never)
    private static func searchEntry(after location: Double, orAt: Bool) -> Int {
        var j = 0
        while j < 256 && !(orAt ? Double(j) / 255 >= location : Double(j) / 255 > location) { j += 1 }
        return j
    }

    /// Plans `gradient` at `alpha` afresh, keeping the arrays' storage.
    mutating func replan(_ gradient: Gradient, alpha: Double) {
        let stops = gradient.stops
        runCount = 0
        guard let first = stops.first, let last = stops.last else {
            add(.constant(0), to: 256)
            return
        }
        @inline(__always) func packed(_ color: Color) -> UInt32 {
            // `premultipliedPixel` of the colour with its alpha times `alpha`.
            let a = Color.byte(Color.clamp(color.alpha * alpha))
            return Pixel(
                r: Pixel.multiply(Color.byte(color.red), a), g: Pixel.multiply(Color.byte(color.green), a),
                b: Pixel.multiply(Color.byte(color.blue), a), a: a
            ).packed
        }
        // Before the first stop (t ≤ its location), the first colour.
        var i = Self.firstEntry(after: first.location, orAt: false)
        if i > 0 { add(.constant(packed(first.color)), to: i) }
        // Entries from the last stop's location on take the last colour.
        let lastEntry = Self.firstEntry(after: last.location, orAt: true)
        let scale = 255.0 * 65536
        // Rounded half away from zero, as `rounded()`, without its libm
        // call (as `Color.byte`): |x| + ½ truncated, less one where the
        // addition itself rounded up past |x| + ½.
        @inline(__always) func fixed(_ v: Double) -> Int {
            let x = v * scale, m = Swift.abs(x)
            // A segment a few ulps long has steps past any integer:
            // held at 2⁵⁰ (its entries after the first take the end's
            // colour), where converting them trapped.
            guard m < 0x1p50 else { return x.isNaN ? 0 : (x < 0 ? -(1 << 50) : 1 << 50) }
            var r = Int(m + 0.5)
            if Double(r) - m > 0.5 { r -= 1 }
            return x < 0 ? -r : r
        }
        var segment = 1
        while segment < stops.count && i < lastEntry {
            let a = stops[segment - 1], b = stops[segment]
            segment += 1
            // This segment's entries: t = j / 255 in (a, b], below the last stop.
            let end = Swift.min(Self.firstEntry(after: b.location, orAt: false), lastEntry)
            guard end > i else { continue }
            let span = b.location - a.location
            let (r0, g0, b0, a0) = (a.color.red, a.color.green, a.color.blue, a.color.alpha * alpha)
            let (dr, dg, db, da) = (b.color.red - r0, b.color.green - g0, b.color.blue - b0, b.color.alpha * alpha - a0)
            let f0 = span > 0 ? (Self.places[i] - a.location) / span : 1
            let df = span > 0 ? 1 / (255 * span) : 0
            add(
                .ramp(
                    start: (
                        fixed(r0 + dr * f0) + 32768, fixed(g0 + dg * f0) + 32768, fixed(b0 + db * f0) + 32768,
                        fixed(a0 + da * f0) + 32768
                    ),
                    step: (fixed(dr * df), fixed(dg * df), fixed(db * df), fixed(da * df))), to: end)
            i = end
        }
        // From the last stop on, the last colour.
        if i < 256 { add(.constant(packed(last.color)), to: 256) }
    }

    /// A ramp's start at entry `k` and its steps as 32-bit values, when
    /// every sum over `count` entries stays inside 32 bits (always, for
    /// colours within 0...1); nil otherwise.
    @inline(__always)
    private static func kernelValues(
        _ start: (Int, Int, Int, Int), _ step: (Int, Int, Int, Int), from k: Int, count: Int
    ) -> (start: SIMD4<Int32>, step: SIMD4<Int32>)? {
        let limit = 1 << 30
        guard count <= 256 else { return nil }
        let s = SIMD4(start.0 &+ k &* step.0, start.1 &+ k &* step.1, start.2 &+ k &* step.2, start.3 &+ k &* step.3)
        let d = SIMD4(step.0, step.1, step.2, step.3)
        for c in 0..<4 where s[c].magnitude >= limit || d[c].magnitude >= limit / 256 { return nil }
        return (SIMD4(truncatingIfNeeded: s), SIMD4(truncatingIfNeeded: d))
    }

    private mutating func add(_ run: Run, to end: Int) {
        if runCount < runs.count {
            runs[runCount] = run
            bounds[runCount + 1] = end
        } else {
            runs.append(run)
            bounds.append(end)
        }
        runCount += 1
    }

    /// Makes entries `range` (within 0 ..< 256) at `out[k]`.
    func fill(_ out: UnsafeMutablePointer<UInt32>, _ range: Range<Int>) {
        @inline(__always) func level(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: min(max(v >> 16, 0), 255)) }
        for n in 0..<runCount {
            let run = runs[n]
            let lo = max(range.lowerBound, bounds[n]), hi = min(range.upperBound, bounds[n + 1])
            guard lo < hi else { continue }
            switch run {
            case .constant(let v):
                (out + lo).update(repeating: v, count: hi - lo)
            case .ramp(let start, let step):
                // Entry k: the run's start plus (k − first) steps, wrapping as
                // a sum of steps would.
                let k = lo - bounds[n]
                if SolidBlitter.usesAVX2, let s = Self.kernelValues(start, step, from: k, count: hi - lo) {
                    // Eight entries at a time; the same bytes (every sum fits
                    // in 32 bits, so no wrapping differs).
                    withUnsafePointer(to: s.start) { s0 in
                        withUnsafePointer(to: s.step) { d in
                            s0.withMemoryRebound(to: Int32.self, capacity: 4) { s0 in
                                d.withMemoryRebound(to: Int32.self, capacity: 4) { d in
                                    strata_gradient_ramp_avx2(out + lo, hi - lo, s0, d)
                                }
                            }
                        }
                    }
                    continue
                }
                var fr = start.0 &+ k &* step.0, fg = start.1 &+ k &* step.1
                var fb = start.2 &+ k &* step.2, fa = start.3 &+ k &* step.3
                for j in lo..<hi {
                    let a8 = level(fa)
                    out[j] =
                        Pixel(r: Pixel.multiply(level(fr), a8), g: Pixel.multiply(level(fg), a8), b: Pixel.multiply(level(fb), a8), a: a8)
                        .packed
                    fr &+= step.0
                    fg &+= step.1
                    fb &+= step.2
                    fa &+= step.3
                }
            }
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
