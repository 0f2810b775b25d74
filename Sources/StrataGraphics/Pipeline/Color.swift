/// A colour in sRGB with straight (not premultiplied) components in 0...1.
///
/// Components are clamped to 0...1 whenever a colour is made or changed, and a
/// NaN component becomes 0, so every colour is a valid one and equal to itself
/// (colours key dictionaries: a text layout groups its glyphs by colour, and a
/// NaN component, never equal to itself, used to crash it).
@frozen
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double { didSet { red = Color.clamp(red) } }
    public var green: Double { didSet { green = Color.clamp(green) } }
    public var blue: Double { didSet { blue = Color.clamp(blue) } }
    public var alpha: Double { didSet { alpha = Color.clamp(alpha) } }

    @inlinable
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Color.clamp(red); self.green = Color.clamp(green)
        self.blue = Color.clamp(blue); self.alpha = Color.clamp(alpha)
    }

    /// `v` within 0...1; NaN is 0.
    @inlinable static func clamp(_ v: Double) -> Double {
        v > 0 ? (v < 1 ? v : 1) : 0
    }

    /// A colour from 8-bit sRGB components, 0...255, straight alpha.
    @inlinable
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha8: UInt8 = 255) {
        self.init(
            red: Double(red8) / 255, green: Double(green8) / 255,
            blue: Double(blue8) / 255, alpha: Double(alpha8) / 255)
    }

    /// A grey level with alpha.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 1, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)

    /// The same colour with its alpha replaced by `alpha` (`CGColor.copy(alpha:)`).
    public func withAlphaComponent(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The colour as an 8-bit premultiplied pixel: each channel rounded to the
    /// nearest byte, then multiplied by alpha with rounding.
    ///
    /// (The components are within 0...1, never NaN: each byte is
    /// `roundedByte(_:)`, without `byte(_:)`'s guards. Every solid fill
    /// converts its colour, and the guards and 8-bit conversion checks were
    /// an eighth of a small rectangle's instructions.)
    public var premultipliedPixel: Pixel {
        let a = Color.roundedByte(alpha)
        return Pixel(
            r: Pixel.multiply(Color.roundedByte(red), a), g: Pixel.multiply(Color.roundedByte(green), a),
            b: Pixel.multiply(Color.roundedByte(blue), a), a: a)
    }

    // (Always inlined: called four times a fill, out of line, it cost an
    // 8-pixel solid rectangle a twenty-fifth of its instructions.)
    @inlinable @inline(__always) static func byte(_ v: Double) -> UInt8 {
        guard v > 0 else { return 0 }  // also NaN
        if v >= 1 { return 255 }
        return roundedByte(v)
    }

    /// v·255 rounded half away from zero, as `rounded()`, for `v` within
    /// 0...1, without its libm call or a conversion: x + 2⁵² holds x rounded
    /// to the nearest integer (ties to even) in its low bits, and a tie so
    /// rounded down is taken one up. (Through `Int(_:)`, each byte was a
    /// chain of conversions and their checks: the four of a colour were a
    /// seventh of an 8-pixel solid square's time.)
    @inlinable @inline(__always) static func roundedByte(_ v: Double) -> UInt8 {
        let x = v * 255
        let t = x + 0x1p52
        let tie = x - (t - 0x1p52) == 0.5
        return UInt8(truncatingIfNeeded: t.bitPattern) &+ (tie ? 1 : 0)
    }

    public var description: String { "Color(r: \(red), g: \(green), b: \(blue), a: \(alpha))" }
}

/// One 8-bit premultiplied RGBA pixel, in memory order R, G, B, A.
@frozen
public struct Pixel: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    public static let transparent = Pixel(r: 0, g: 0, b: 0, a: 0)

    /// The pixel packed into a `UInt32` as it lies in memory on a little-endian
    /// machine: R in the low byte, A in the high byte.
    @inlinable public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    @inlinable public init(packed v: UInt32) {
        self.init(
            r: UInt8(truncatingIfNeeded: v), g: UInt8(truncatingIfNeeded: v >> 8),
            b: UInt8(truncatingIfNeeded: v >> 16), a: UInt8(truncatingIfNeeded: v >> 24))
    }

    /// The straight (unpremultiplied) colour of this pixel.
    public var color: Color {
        guard a > 0 else { return .clear }
        let a = Double(self.a)
        return Color(red: Double(r) / a, green: Double(g) / a, blue: Double(b) / a, alpha: a / 255)
    }

    /// `x·y/255`, rounded to nearest, exact for all bytes.
    @inlinable public static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        let t = UInt32(x) * UInt32(y) + 128
        return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
    }

    public var description: String { "Pixel(\(r), \(g), \(b), \(a))" }
}
