public import CoreGraphics
internal import CoreText
internal import StrataGraphics

/// A colour (`UIColor`): immutable, in sRGB, components held to 0...1.
open class UIColor: @unchecked Sendable, Hashable, CustomStringConvertible {
    // @unchecked: every stored property is a `let` of a Sendable type; the
    // class is open only so that apps may subclass it, as on iOS.

    /// The colour as Core Graphics takes it.
    public let cgColor: CGColor

    public init(cgColor: CGColor) { self.cgColor = cgColor }

    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(cgColor: CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// Display P3 components, taken as sRGB (Strata draws in sRGB).
    public convenience init(displayP3Red red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(cgColor: CGColor(gray: white, alpha: alpha))
    }

    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = hue.isFinite ? (hue - hue.rounded(.down)) * 6 : 0
        let s = Swift.min(Swift.max(saturation.isNaN ? 0 : saturation, 0), 1)
        let v = Swift.min(Swift.max(brightness.isNaN ? 0 : brightness, 0), 1)
        let i = Int(h) % 6, f = h - CGFloat(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat) =
            switch i {
            case 0: (v, t, p)
            case 1: (q, v, p)
            case 2: (p, v, t)
            case 3: (p, q, v)
            case 4: (t, p, v)
            default: (v, p, q)
            }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// The same colour with `alpha` in place of its own.
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(cgColor: cgColor.copy(alpha: alpha) ?? cgColor)
    }

    /// The red, green, blue and alpha components (always true: every
    /// colour here converts to RGB).
    @discardableResult
    open func getRed(
        _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?, blue: UnsafeMutablePointer<CGFloat>?,
        alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        let c = cgColor.strata
        red?.pointee = CGFloat(c.red)
        green?.pointee = CGFloat(c.green)
        blue?.pointee = CGFloat(c.blue)
        alpha?.pointee = CGFloat(c.alpha)
        return true
    }

    /// The grey level and alpha: true only for a grey colour.
    @discardableResult
    open func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = cgColor.strata
        guard c.red == c.green, c.green == c.blue else { return false }
        white?.pointee = CGFloat(c.red)
        alpha?.pointee = CGFloat(c.alpha)
        return true
    }

    @discardableResult
    open func getHue(
        _ hue: UnsafeMutablePointer<CGFloat>?, saturation: UnsafeMutablePointer<CGFloat>?, brightness: UnsafeMutablePointer<CGFloat>?,
        alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        let c = cgColor.strata
        let maxC = Swift.max(c.red, c.green, c.blue), minC = Swift.min(c.red, c.green, c.blue), d = maxC - minC
        var h = 0.0
        if d > 0 {
            if maxC == c.red {
                h = (c.green - c.blue) / d
            } else if maxC == c.green {
                h = (c.blue - c.red) / d + 2
            } else {
                h = (c.red - c.green) / d + 4
            }
            h /= 6
            if h < 0 { h += 1 }
        }
        hue?.pointee = CGFloat(h)
        saturation?.pointee = CGFloat(maxC > 0 ? d / maxC : 0)
        brightness?.pointee = CGFloat(maxC)
        alpha?.pointee = CGFloat(c.alpha)
        return true
    }

    /// Sets the current context's fill and stroke colour.
    open func set() {
        setFill()
        setStroke()
    }

    open func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }
    open func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }

    public static func == (a: UIColor, b: UIColor) -> Bool { a.cgColor.strata == b.cgColor.strata }
    public func hash(into hasher: inout Hasher) { hasher.combine(cgColor.strata) }

    open var description: String {
        let c = cgColor.strata
        return "UIColor(red: \(c.red), green: \(c.green), blue: \(c.blue), alpha: \(c.alpha))"
    }

    // MARK: Named colours (UIKit's values)

    open class var black: UIColor { UIColor(white: 0, alpha: 1) }
    open class var darkGray: UIColor { UIColor(white: 1.0 / 3, alpha: 1) }
    open class var lightGray: UIColor { UIColor(white: 2.0 / 3, alpha: 1) }
    open class var white: UIColor { UIColor(white: 1, alpha: 1) }
    open class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    open class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    open class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    open class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    open class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    open class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    open class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    open class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    open class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    open class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    open class var clear: UIColor { UIColor(white: 0, alpha: 0) }

    // The system colours, in their light appearance.
    open class var systemRed: UIColor { rgb(255, 59, 48) }
    open class var systemOrange: UIColor { rgb(255, 149, 0) }
    open class var systemYellow: UIColor { rgb(255, 204, 0) }
    open class var systemGreen: UIColor { rgb(52, 199, 89) }
    open class var systemMint: UIColor { rgb(0, 199, 190) }
    open class var systemTeal: UIColor { rgb(48, 176, 199) }
    open class var systemCyan: UIColor { rgb(50, 173, 230) }
    open class var systemBlue: UIColor { rgb(0, 122, 255) }
    open class var systemIndigo: UIColor { rgb(88, 86, 214) }
    open class var systemPurple: UIColor { rgb(175, 82, 222) }
    open class var systemPink: UIColor { rgb(255, 45, 85) }
    open class var systemBrown: UIColor { rgb(162, 132, 94) }
    open class var systemGray: UIColor { rgb(142, 142, 147) }
    open class var systemGray2: UIColor { rgb(174, 174, 178) }
    open class var systemGray3: UIColor { rgb(199, 199, 204) }
    open class var systemGray4: UIColor { rgb(209, 209, 214) }
    open class var systemGray5: UIColor { rgb(229, 229, 234) }
    open class var systemGray6: UIColor { rgb(242, 242, 247) }
    open class var label: UIColor { .black }
    open class var secondaryLabel: UIColor { UIColor(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.6) }
    open class var tertiaryLabel: UIColor { UIColor(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.3) }
    open class var placeholderText: UIColor { UIColor(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.3) }
    open class var separator: UIColor { UIColor(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.29) }
    open class var systemBackground: UIColor { .white }
    open class var secondarySystemBackground: UIColor { rgb(242, 242, 247) }
    open class var tertiarySystemBackground: UIColor { .white }
    open class var systemGroupedBackground: UIColor { rgb(242, 242, 247) }
    open class var link: UIColor { rgb(0, 122, 255) }
    /// The tint colour views use by default (system blue).
    open class var tintColor: UIColor { rgb(0, 122, 255) }

    private static func rgb(_ r: Int, _ g: Int, _ b: Int) -> UIColor {
        UIColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: 1)
    }
}

extension UIColor: StrataColorConvertible {
    package var strataCGColor: CGColor { cgColor }
}
