import StrataGraphics

/// Damaged rectangles of a frame, kept few: rectangles that overlap (or nearly
/// touch) merge, and past a dozen everything becomes one bounding box.
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
            if grown.intersects(merged) {
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
