public import CoreGraphics
public import Foundation

// Core Text's own attribute names (`kCTFontAttributeName`, …): `CFString`s
// whose values are the attribute keys' raw values, so
// `NSAttributedString.Key(kCTFontAttributeName as String)` is `.font`.

public var kCTFontAttributeName: CFString { "NSFont" }
/// Core Text's foreground colour key (a `CGColor`), read as `.foregroundColor`.
public var kCTForegroundColorAttributeName: CFString { "CTForegroundColor" }
public var kCTParagraphStyleAttributeName: CFString { "NSParagraphStyle" }
public var kCTKernAttributeName: CFString { "NSKern" }
public var kCTUnderlineStyleAttributeName: CFString { "NSUnderline" }
public var kCTBaselineOffsetAttributeName: CFString { "NSBaselineOffset" }

extension NSAttributedString.Key {
    /// `kCTForegroundColorAttributeName` as a key.
    static let coreTextForegroundColor = NSAttributedString.Key("CTForegroundColor")
}

/// How Core Text aligns a paragraph (`CTTextAlignment`).
public enum CTTextAlignment: UInt8, Sendable {
    case left = 0
    case right = 1
    case center = 2
    case justified = 3
    case natural = 4
}

/// How Core Text breaks lines (`CTLineBreakMode`).
public enum CTLineBreakMode: UInt8, Sendable {
    case byWordWrapping = 0
    case byCharWrapping = 1
    case byClipping = 2
    case byTruncatingHead = 3
    case byTruncatingTail = 4
    case byTruncatingMiddle = 5
}

/// Which value a paragraph style setting sets (`CTParagraphStyleSpecifier`).
public enum CTParagraphStyleSpecifier: UInt32, Sendable {
    case alignment = 0
    case firstLineHeadIndent = 1
    case headIndent = 2
    case tailIndent = 3
    case tabStops = 4
    case defaultTabInterval = 5
    case lineBreakMode = 6
    case lineHeightMultiple = 7
    case maximumLineHeight = 8
    case minimumLineHeight = 9
    case lineSpacing = 10
    case paragraphSpacing = 11
    case paragraphSpacingBefore = 12
    case baseWritingDirection = 13
    case maximumLineSpacing = 14
    case minimumLineSpacing = 15
    case lineSpacingAdjustment = 16
    case lineBoundsOptions = 17
}

/// One setting: a specifier and a pointer to its value, `valueSize` bytes
/// (`CTParagraphStyleSetting`).
public struct CTParagraphStyleSetting {
    public var spec: CTParagraphStyleSpecifier
    public var valueSize: Int
    public var value: UnsafeRawPointer
    public init(spec: CTParagraphStyleSpecifier, valueSize: Int, value: UnsafeRawPointer) {
        (self.spec, self.valueSize, self.value) = (spec, valueSize, value)
    }
}

/// A paragraph style made from settings (`CTParagraphStyle`): read by the
/// framesetter as an `NSParagraphStyle` with the same values.
public final class CTParagraphStyle: Sendable {
    let paragraphStyle: NSParagraphStyle

    init(_ style: NSParagraphStyle) { paragraphStyle = style }
}

/// A paragraph style from `settingCount` settings; a setting whose
/// `valueSize` does not match its specifier's type is ignored.
public func CTParagraphStyleCreate(_ settings: UnsafePointer<CTParagraphStyleSetting>?, _ settingCount: Int) -> CTParagraphStyle {
    let style = NSMutableParagraphStyle()
    guard let settings, settingCount > 0 else { return CTParagraphStyle(style) }
    for i in 0..<settingCount {
        let s = settings[i]
        func float() -> CGFloat? {
            guard s.valueSize == MemoryLayout<CGFloat>.size else { return nil }
            let v = s.value.loadUnaligned(as: CGFloat.self)
            return v.isFinite ? v : nil
        }
        switch s.spec {
        case .alignment:
            guard s.valueSize == 1, let a = CTTextAlignment(rawValue: s.value.load(as: UInt8.self)) else { continue }
            style.alignment =
                switch a {
                case .left: .left
                case .right: .right
                case .center: .center
                case .justified: .justified
                case .natural: .natural
                }
        case .lineBreakMode:
            guard s.valueSize == 1, let m = CTLineBreakMode(rawValue: s.value.load(as: UInt8.self)) else { continue }
            style.lineBreakMode = NSLineBreakMode(rawValue: Int(m.rawValue)) ?? .byWordWrapping
        case .lineSpacing, .maximumLineSpacing, .minimumLineSpacing, .lineSpacingAdjustment:
            if let v = float() { style.lineSpacing = Swift.max(0, v) }
        case .paragraphSpacing: if let v = float() { style.paragraphSpacing = Swift.max(0, v) }
        case .paragraphSpacingBefore: if let v = float() { style.paragraphSpacingBefore = Swift.max(0, v) }
        case .minimumLineHeight: if let v = float() { style.minimumLineHeight = Swift.max(0, v) }
        case .maximumLineHeight: if let v = float() { style.maximumLineHeight = Swift.max(0, v) }
        case .lineHeightMultiple: if let v = float() { style.lineHeightMultiple = Swift.max(0, v) }
        case .firstLineHeadIndent: if let v = float() { style.firstLineHeadIndent = v }
        case .headIndent: if let v = float() { style.headIndent = v }
        case .tailIndent: if let v = float() { style.tailIndent = v }
        default: continue
        }
    }
    return CTParagraphStyle(style)
}

/// Copies the value of `spec` into `valueBuffer` (`valueBufferSize` bytes):
/// false when the size is not the value's or the specifier is not one
/// Strata keeps.
public func CTParagraphStyleGetValueForSpecifier(
    _ paragraphStyle: CTParagraphStyle, _ spec: CTParagraphStyleSpecifier, _ valueBufferSize: Int, _ valueBuffer: UnsafeMutableRawPointer
) -> Bool {
    let p = paragraphStyle.paragraphStyle
    func store(_ v: CGFloat) -> Bool {
        guard valueBufferSize == MemoryLayout<CGFloat>.size else { return false }
        valueBuffer.storeBytes(of: v, as: CGFloat.self)
        return true
    }
    switch spec {
    case .alignment:
        guard valueBufferSize == 1 else { return false }
        let a: CTTextAlignment =
            switch p.alignment {
            case .left: .left
            case .right: .right
            case .center: .center
            case .justified: .justified
            case .natural: .natural
            }
        valueBuffer.storeBytes(of: a.rawValue, as: UInt8.self)
        return true
    case .lineBreakMode:
        guard valueBufferSize == 1 else { return false }
        valueBuffer.storeBytes(of: UInt8(p.lineBreakMode.rawValue), as: UInt8.self)
        return true
    case .lineSpacing, .maximumLineSpacing, .minimumLineSpacing, .lineSpacingAdjustment: return store(p.lineSpacing)
    case .paragraphSpacing: return store(p.paragraphSpacing)
    case .paragraphSpacingBefore: return store(p.paragraphSpacingBefore)
    case .minimumLineHeight: return store(p.minimumLineHeight)
    case .maximumLineHeight: return store(p.maximumLineHeight)
    case .lineHeightMultiple: return store(p.lineHeightMultiple)
    case .firstLineHeadIndent: return store(p.firstLineHeadIndent)
    case .headIndent: return store(p.headIndent)
    case .tailIndent: return store(p.tailIndent)
    default: return false
    }
}

/// How Core Text underlines (`CTUnderlineStyle`): the value of
/// `kCTUnderlineStyleAttributeName`, as a number (`.single.rawValue`).
public struct CTUnderlineStyle: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let single = CTUnderlineStyle(rawValue: 0x01)
    public static let thick = CTUnderlineStyle(rawValue: 0x02)
    public static let double = CTUnderlineStyle(rawValue: 0x09)
}
