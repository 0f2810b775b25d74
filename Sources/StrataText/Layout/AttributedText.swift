import StrataGraphics

/// A line drawn under, over or through text.
public struct TextDecoration: Sendable, Hashable {
    public enum Style: Sendable, Hashable { case single, double, thick }
    public var style: Style
    /// nil: the text's own colour.
    public var color: Color?

    public init(_ style: Style = .single, color: Color? = nil) {
        self.style = style
        self.color = color
    }
}

/// What a tappable range of text stands for: any `Hashable & Sendable` value
/// (a URL string, a user id, an enum case).
public struct TextLink: Sendable, Hashable {
    public let payload: any Hashable & Sendable

    public init(_ payload: some Hashable & Sendable) { self.payload = payload }

    public static func == (a: TextLink, b: TextLink) -> Bool { AnyHashable(a.payload) == AnyHashable(b.payload) }
    public func hash(into hasher: inout Hasher) { AnyHashable(payload).hash(into: &hasher) }
}

/// The attributes of a run of text (`NSAttributedString.Key` values as one struct).
public struct TextAttributes: Sendable, Hashable {
    public var font: Font
    public var foregroundColor: Color
    public var backgroundColor: Color?
    public var underline: TextDecoration?
    public var strikethrough: TextDecoration?
    /// Extra space after each character, in points (`.kern`). Not added
    /// between the joined letters of cursive scripts (Arabic, Syriac,
    /// Mongolian, N'Ko); optional ligatures (`liga`, `clig`, `dlig`, `hlig`)
    /// are turned off when it is not zero, unless `features` sets them, so
    /// the spacing is even. Held within ±`maximumOffset`; NaN and infinities
    /// are 0.
    public var kern: Double { didSet { kern = Self.held(kern) } }
    /// Points the text is raised above the baseline (`.baselineOffset`).
    /// Held within ±`maximumOffset`; NaN and infinities are 0.
    public var baselineOffset: Double { didSet { baselineOffset = Self.held(baselineOffset) } }
    public var link: TextLink?
    /// OpenType feature settings the text is shaped with, over the face's
    /// defaults (`kCTFontFeatureSettingsAttribute`): `FontFeature("tnum")`
    /// for tabular figures, `FontFeature("smcp")` for small capitals,
    /// `FontFeature("liga", 0)` for no standard ligatures. A tag that is
    /// not four ASCII letters is ignored.
    public var features: [FontFeature]

    public init(
        font: Font = Font(size: 16), foregroundColor: Color = .black, backgroundColor: Color? = nil,
        underline: TextDecoration? = nil, strikethrough: TextDecoration? = nil,
        kern: Double = 0, baselineOffset: Double = 0, link: TextLink? = nil, features: [FontFeature] = []
    ) {
        self.font = font
        self.foregroundColor = foregroundColor
        self.backgroundColor = backgroundColor
        self.underline = underline
        self.strikethrough = strikethrough
        self.kern = Self.held(kern)
        self.baselineOffset = Self.held(baselineOffset)
        self.link = link
        self.features = features
    }

    /// The largest kern and baseline offset, in points (±10⁵): far beyond
    /// any page, and small enough that a line of a million characters so
    /// spaced still has positions exact in a `Double` and within the pixel
    /// range drawing checks against.
    public static let maximumOffset = 100_000.0

    /// `v` within ±`maximumOffset`, NaN and infinities as 0.
    static func held(_ v: Double) -> Double { v.isFinite ? Swift.max(-maximumOffset, Swift.min(maximumOffset, v)) : 0 }
}

/// Text with attribute runs (`NSAttributedString`), a `Sendable` value.
///
/// Positions in it are counted in `Character`s (extended grapheme clusters), so
/// an index never falls inside an emoji or a letter with its accents.
///
/// ### Basic usage
/// ```swift
/// var text = AttributedText("Hello ", attributes: TextAttributes(font: Font(size: 16)))
/// text.append("@strata", attributes: TextAttributes(foregroundColor: .blue, link: TextLink("user:42")))
/// ```
public struct AttributedText: Sendable, Hashable {
    public struct Run: Sendable, Hashable {
        /// Character offsets.
        public var range: Range<Int>
        public var attributes: TextAttributes
    }

    public private(set) var string: String
    public private(set) var runs: [Run]
    /// The number of characters.
    public private(set) var count: Int

    public init() {
        string = ""
        runs = []
        count = 0
    }

    public init(_ string: String, attributes: TextAttributes = TextAttributes()) {
        self.init()
        append(string, attributes: attributes)
    }

    /// Adds `string` with `attributes` at the end.
    public mutating func append(_ string: String, attributes: TextAttributes) {
        guard !string.isEmpty else { return }
        let old = count
        self.string += string
        let total = self.string.count
        // Text that joins onto the last character (a combining mark, a zero-width
        // joiner) merges with it into one cluster, which then belongs to the new
        // run. Only that last character can merge.
        let start = total == old + string.count ? old : max(0, old - 1)
        if start < old, !runs.isEmpty {
            runs[runs.count - 1].range = runs[runs.count - 1].range.lowerBound..<start
            if runs[runs.count - 1].range.isEmpty { runs.removeLast() }
        }
        if let last = runs.last, last.attributes == attributes, last.range.upperBound == start {
            runs[runs.count - 1].range = last.range.lowerBound..<total
        } else {
            runs.append(Run(range: start..<total, attributes: attributes))
        }
        count = total
    }

    public mutating func append(_ other: AttributedText) {
        for run in other.runs {
            let start = other.string.index(other.string.startIndex, offsetBy: run.range.lowerBound)
            let end = other.string.index(start, offsetBy: run.range.count)
            append(String(other.string[start..<end]), attributes: run.attributes)
        }
    }

    /// The attributes at character `offset` (those of the last run past the end).
    public func attributes(at offset: Int) -> TextAttributes? {
        runs.first { $0.range.contains(offset) }?.attributes ?? runs.last?.attributes
    }
}
