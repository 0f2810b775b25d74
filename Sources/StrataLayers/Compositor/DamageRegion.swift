import StrataGraphics

/// Damaged rectangles of a frame, kept few: rectangles that overlap (or nearly
/// touch) merge when their union adds little area, and past a dozen
/// everything becomes one bounding box.
struct DamageRegion {
    let bounds: Rect
    private(set) var rects: [Rect] = []

    init(bounds: Rect) { self.bounds = bounds }

    mutating func add(_ r: Rect) {
        let r = r.intersection(bounds)
        guard !r.isNull, r.width > 0, r.height > 0 else { return }
        // Whole pixels.
        var merged = Rect(
            x: r.minX.rounded(.down), y: r.minY.rounded(.down),
            width: r.maxX.rounded(.up) - r.minX.rounded(.down), height: r.maxY.rounded(.up) - r.minY.rounded(.down))
        var i = 0
        while i < rects.count {
            let grown = rects[i].insetBy(dx: -8, dy: -8)
            let union = merged.union(rects[i])
            // Merged only when that adds little area: two bands at a corner
            // (a diagonal scroll's) stay two.
            if grown.intersects(merged),
                union.width * union.height <= 1.25 * (merged.width * merged.height + rects[i].width * rects[i].height) + 1024
            {
                merged = merged.union(rects.remove(at: i))
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(merged)
        if rects.count > 12 {
            rects = [rects.dropFirst().reduce(rects[0]) { $0.union($1) }]
        }
    }
}
