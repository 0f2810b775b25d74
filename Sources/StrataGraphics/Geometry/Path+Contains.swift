extension Path {
    /// Whether `point` lies inside the path under `rule`, the path's open
    /// subpaths closed as a fill closes them (`CGPath.contains`). Curves are
    /// flattened first, to within a hundredth of a unit or a ten-millionth
    /// of the path's size, whichever is larger (so a path millions of units
    /// across costs no more than a small one); a point exactly on an edge
    /// may count either way. A point, or a path, with a coordinate that is
    /// not finite: outside.
    public func contains(_ point: Point, rule: FillRule = .winding) -> Bool {
        guard point.x.isFinite, point.y.isFinite, !isEmpty else { return false }
        let box = boundingBox
        guard box.minX.isFinite, box.minY.isFinite, box.width.isFinite, box.height.isFinite else { return false }
        let size = Swift.max(Swift.abs(box.minX), Swift.abs(box.minY), Swift.abs(box.maxX), Swift.abs(box.maxY))
        let tolerance = Swift.max(0.01, size * 1e-7)
        var winding = 0
        var start: Point?, last: Point?
        // Edges crossing the horizontal line through the point, right of it.
        func edge(_ a: Point, _ b: Point) {
            guard a.y != b.y else { return }
            let up = a.y < b.y
            let (lo, hi) = up ? (a, b) : (b, a)
            guard point.y >= lo.y, point.y < hi.y else { return }
            let x = lo.x + (point.y - lo.y) / (hi.y - lo.y) * (hi.x - lo.x)
            if x > point.x { winding += up ? 1 : -1 }
        }
        func close() {
            if let s = start, let l = last { edge(l, s) }
        }
        flattened(tolerance: tolerance).forEach { element in
            switch element {
            case .move(let p):
                close()
                start = p
                last = p
            case .line(let p):
                if let l = last { edge(l, p) }
                last = p
            case .closeSubpath:
                close()
                last = start
            case .quadCurve(let p, _), .curve(let p, _, _):
                // Not produced by flattening; taken as a line to be safe.
                if let l = last { edge(l, p) }
                last = p
            }
        }
        close()
        return rule == .winding ? winding != 0 : winding % 2 != 0
    }
}
