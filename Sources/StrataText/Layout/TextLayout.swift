import StrataGraphics

/// How lines sit between the layout's edges (`NSTextAlignment`).
public enum TextAlignment: Sendable, Hashable {
    case left, right, center
    /// Both edges, by widening spaces (or, in text without spaces, the gaps
    /// between characters); a paragraph's last line stays left-aligned.
    case justified
    /// Left for a left-to-right paragraph, right for a right-to-left one
    /// (by its base direction, `ParagraphStyle.baseWritingDirection`).
    case natural
}

/// The base direction of a paragraph (`NSWritingDirection`).
public enum WritingDirection: Sendable, Hashable {
    /// By the paragraph's first strong character (UAX #9, rules P2–P3):
    /// right to left when it is Hebrew or Arabic, else left to right.
    case natural
    case leftToRight
    case rightToLeft
}

/// How strictly lines break around CJK punctuation (CSS `line-break`).
public enum LineBreakStrictness: Sendable, Hashable {
    /// UAX #14 as ICU's root locale tailors it: a line may begin with small
    /// kana and the prolonged sound mark.
    case normal
    /// The strict Japanese rules too (ICU's `lb=strict`): small kana, ー and
    /// iteration marks stay with what comes before them.
    case strict
}

/// Where a layout cut short by its line limit or height shows an ellipsis.
public enum TruncationMode: Sendable, Hashable {
    case none
    /// "…" then the end of the text, on the last line that fits.
    case head
    /// The start and the end of the rest of the text around "…".
    case middle
    /// "…" at the end of the last line that fits.
    case tail
}

/// Paragraph-level settings (`NSParagraphStyle`).
public struct ParagraphStyle: Sendable, Hashable {
    public var alignment: TextAlignment
    /// Extra points between lines, held within 0 … `maximumSpacing` (NaN
    /// and infinities are 0).
    public var lineSpacing: Double { didSet { lineSpacing = Self.held(lineSpacing) } }
    /// Extra points after each paragraph (after each newline), held as
    /// `lineSpacing` is.
    public var paragraphSpacing: Double { didSet { paragraphSpacing = Self.held(paragraphSpacing) } }
    /// The most lines laid out; 0 for no limit.
    public var maximumLines: Int
    public var truncation: TruncationMode
    /// The direction of each paragraph (a newline starts a new one); with
    /// `.natural`, each paragraph's own.
    public var baseWritingDirection: WritingDirection
    public var lineBreakStrictness: LineBreakStrictness

    public init(
        alignment: TextAlignment = .natural, lineSpacing: Double = 0, paragraphSpacing: Double = 0,
        maximumLines: Int = 0, truncation: TruncationMode = .none, baseWritingDirection: WritingDirection = .natural,
        lineBreakStrictness: LineBreakStrictness = .normal
    ) {
        self.alignment = alignment
        self.lineSpacing = Self.held(lineSpacing)
        self.paragraphSpacing = Self.held(paragraphSpacing)
        self.maximumLines = max(0, maximumLines)
        self.truncation = truncation
        self.baseWritingDirection = baseWritingDirection
        self.lineBreakStrictness = lineBreakStrictness
    }

    /// The largest line or paragraph spacing, in points (10⁵).
    public static let maximumSpacing = 100_000.0

    static func held(_ v: Double) -> Double { v.isFinite ? Swift.max(0, Swift.min(maximumSpacing, v)) : 0 }
}

/// Glyphs of one face, size, colour, script and direction, side by side on one line,
/// in visual order (left to right on screen, whatever the direction).
public struct GlyphRun: Sendable {
    public let face: FontFace
    public let size: Double
    public let attributes: TextAttributes
    public let glyphs: [UInt32]
    /// Each glyph's origin, relative to the line's origin.
    public let positions: [Point]
    /// Each glyph's advance.
    public let advances: [Double]
    /// The character each glyph belongs to.
    public let characters: [Int]
    /// The run's horizontal extent, relative to the line's origin.
    public let minX: Double, maxX: Double
    /// Whether the run's text reads right to left (an odd bidirectional level).
    public let isRightToLeft: Bool
    /// The run's script, an ISO 15924 tag ("Latn", "Arab", "Hani"); spaces,
    /// digits, punctuation and emoji take the script of the text around them.
    public let script: String
}

/// Where one character sits on its line: for hit testing, carets and selection.
struct CharacterBox: Sendable {
    var index: Int
    var minX: Double
    var maxX: Double
    var isRightToLeft: Bool
}

/// One laid-out line.
public struct TextLine: Sendable {
    /// Where the line's baseline starts (after alignment), relative to the
    /// layout's origin (its top left).
    public let origin: Point
    /// The width of the line, trailing spaces excluded (justification included).
    public let width: Double
    public let ascent: Double
    public let descent: Double
    /// The characters on the line (a newline ending it included; for a truncated
    /// last line, every character from its start on).
    public let characters: Range<Int>
    /// The line's glyph runs, left to right on screen.
    public let runs: [GlyphRun]
    /// The direction of the line's paragraph.
    public let baseDirection: TextDirection
    /// The characters drawn on the line, left to right on screen, relative to
    /// the line's origin.
    let boxes: [CharacterBox]
}

/// Text laid out in a width (`CTFrame`): lines of positioned glyphs, immutable and
/// `Sendable`, so it can be made on a background thread and drawn on any.
public struct TextLayout: Sendable {
    public let text: AttributedText
    public let width: Double
    public let lines: [TextLine]
    /// The size the text needs: the widest line and the lines' total height.
    public let size: Size
    /// True when lines were dropped for the line limit or the height.
    public let isTruncated: Bool
    /// Composed line masks from earlier drawings, shared by copies of this layout.
    let renderCache = LayoutRenderCache()
    /// Whether any run has a background colour, underline or strikethrough.
    let hasRunDecorations: Bool
    /// The largest font size of any run (0 with no runs).
    let largestFontSize: Double

    /// Drops the composed line masks the layout keeps from its drawings
    /// (about a byte per pixel of its area at the drawn scale, for the last
    /// two sub-pixel phases): for a layout drawn once into an image that is
    /// then kept, as a list cell's is, so held layouts do not hold masks too.
    /// The next drawing composes them again.
    public func removeComposedLines() { renderCache.removeAll() }

    /// Bytes of composed line masks the layout keeps now.
    public var composedLinesByteCount: Int { renderCache.byteCount }

    /// The first line's baseline, from the top (0 when there are no lines).
    public var firstBaseline: Double { lines.first?.origin.y ?? 0 }

    /// Lays `text` out in lines no wider than `width` (wider only where a single
    /// character is, as it cannot be split) and, when `height` is given, only
    /// the lines that fit in it.
    ///
    /// A width that is not positive, or NaN, lays out one character per line;
    /// infinity lays out without wrapping.
    public init(_ text: AttributedText, width: Double, height: Double? = nil, style: ParagraphStyle = ParagraphStyle()) {
        self.text = text
        self.width = width
        let result = LayoutEngine(text: text, width: width.isNaN ? 0 : width, height: height, style: style).run()
        lines = result.lines
        size = result.size
        isTruncated = result.truncated
        var decorated = false, largest = 0.0
        for line in lines {
            for run in line.runs {
                let a = run.attributes
                decorated = decorated || a.backgroundColor != nil || a.underline != nil || a.strikethrough != nil
                largest = max(largest, run.size)
            }
        }
        hasRunDecorations = decorated
        largestFontSize = largest
    }
}
