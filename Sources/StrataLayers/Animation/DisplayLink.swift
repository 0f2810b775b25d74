/// A callback at every frame of a host, before the frame's transaction is
/// committed (`CADisplayLink`): for what changes every frame but is not a
/// layer property, such as a chart's visible range being moved.
///
/// ```swift
/// let link = DisplayLink { link in chart.visibleXRange = range(at: link.timestamp) }
/// link.add(to: host)
/// ...
/// link.invalidate()
/// ```
@MainActor
public final class DisplayLink {
    /// The frame's media time (the host clock's `now`) at the last call.
    public private(set) var timestamp = 0.0
    /// The time between frames the host aims at.
    public private(set) var duration = 1.0 / 60
    /// A paused link is not called (and keeps its place in the host).
    public var isPaused = false
    private let callback: @MainActor (DisplayLink) -> Void
    weak var host: LayerHost?

    public init(_ callback: @escaping @MainActor (DisplayLink) -> Void) {
        self.callback = callback
    }

    /// Starts calling back at `host`'s frames (moving from another host).
    public func add(to host: LayerHost) {
        invalidate()
        self.host = host
        host.displayLinks.append(self)
    }

    /// Stops the calls for good; the host lets go of the link.
    public func invalidate() {
        host?.displayLinks.removeAll { $0 === self }
        host = nil
    }

    /// Whether the link is in a host.
    public var isValid: Bool { host != nil }

    func fire(at time: Double, frameDuration: Double) {
        guard !isPaused else { return }
        timestamp = time
        duration = frameDuration
        callback(self)
    }
}

extension Layer {
    /// The host of the tree this layer is in, if any.
    public var treeHost: LayerHost? {
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner { layer = parent }
        return layer.host
    }
}
