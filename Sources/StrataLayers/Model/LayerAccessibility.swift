import StrataGraphics

/// What a layer that draws its own content (a chart) tells assistive
/// tools: a name, a summary to read, and the parts a user can move
/// through (a chart's points), each with its frame in the layer. A view
/// over such a layer (`View(layer:)`) reads it, so a chart in a window is
/// accessible with no code.
public struct LayerAccessibility: Sendable, Hashable {
    /// A part: what a screen reader reads for it, and where it is.
    public struct Item: Sendable, Hashable {
        public var label: String
        public var value: String
        /// In the layer's coordinates.
        public var frame: Rect

        public init(label: String, value: String, frame: Rect) {
            self.label = label
            self.value = value
            self.frame = frame
        }
    }

    public var label: String
    public var summary: String
    /// Whether the layer is a chart (its role), not a picture.
    public var isChart: Bool
    public var items: [Item]
    /// Whether the summary is a live value (a streaming graph's latest
    /// samples), which a screen reader reads as it changes, politely
    /// (ARIA's `aria-live="polite"`), without the user moving to it.
    public var isLive: Bool

    public init(label: String, summary: String, isChart: Bool, items: [Item], isLive: Bool = false) {
        self.label = label
        self.summary = summary
        self.isChart = isChart
        self.items = items
        self.isLive = isLive
    }
}

/// A layer that describes itself to assistive tools (charts do).
@MainActor
public protocol AccessibilityDescribingLayer: AnyObject {
    /// The description now; nil when there is nothing to describe.
    var layerAccessibility: LayerAccessibility? { get }
}

/// A layer whose description changes by itself (a streaming graph as
/// samples arrive): it calls `accessibilityValueDidChange` when it does,
/// which a view over it (`View(layer:)`) sets, to tell assistive tools
/// (at most once a second, and only while one listens).
@MainActor
public protocol AccessibilityLiveLayer: AccessibilityDescribingLayer {
    var accessibilityValueDidChange: (@MainActor () -> Void)? { get set }
}
