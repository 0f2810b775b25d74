public import Foundation

// Core Foundation's names that Core Graphics' and Core Text's functions
// take, which Foundation on Linux does not export: each is the Foundation
// type Core Foundation's is toll-free bridged to, so `"Name" as CFString`,
// `colors as CFArray` and `CTFrameGetLines(frame) as! [CTLine]` read as
// they do on Apple's systems.

/// A count or an index (`CFIndex`).
public typealias CFIndex = Int
/// A string (`CFString`): Foundation's `NSString`.
public typealias CFString = NSString
/// An attributed string (`CFAttributedString`): `NSAttributedString`.
public typealias CFAttributedString = NSAttributedString
/// An array (`CFArray`): `NSArray`.
public typealias CFArray = NSArray
/// A dictionary (`CFDictionary`): `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// A URL (`CFURL`): `NSURL`.
public typealias CFURL = NSURL
/// Bytes (`CFData`): `NSData`.
public typealias CFData = NSData
/// Bytes that grow (`CFMutableData`): `NSMutableData`.
public typealias CFMutableData = NSMutableData

/// A range of a string's UTF-16 code units (`CFRange`); a length of 0 in
/// a range given to Core Text means "to the end".
public struct CFRange: Hashable, Sendable {
    public var location: CFIndex
    public var length: CFIndex
    public init() { (location, length) = (0, 0) }
    public init(location: CFIndex, length: CFIndex) { (self.location, self.length) = (location, length) }
}

public func CFRangeMake(_ loc: CFIndex, _ len: CFIndex) -> CFRange { CFRange(location: loc, length: len) }
