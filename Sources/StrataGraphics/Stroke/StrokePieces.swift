// Long strokes in pieces.
//
// A path of many thousands of verbs is stroked as pieces of about
// `StrokePieces.size` verbs each, so that the pieces can be taken apart on
// several threads at once (`StrokeShare`) and their edges read by every band
// of a frame, in the pieces' order. Every canvas strokes such a path in the
// same pieces, whether it draws on one thread or many, so the edges, and the
// pixels, are the same bit for bit.
//
// Where a piece ends inside a subpath (a seam), it ends with a butt cap, and
// the next piece begins one verb earlier, with a butt cap at that verb's
// start: the verb before the seam is stroked by both, and the corner at the
// seam by the second. The two outlines' union is the stroke of the whole:
// each piece's flat end lies inside the other piece's stroke, and the
// rasterizer that strokes go to counts overlaps once. Closed subpaths and
// dashed strokes are not cut (a closed subpath's corner at its start, and a
// dash pattern, run over its whole length).

/// A run of a path's verbs stroked on its own.
struct StrokePiece: Equatable {
    /// The verbs stroked: the piece's own, and, after a seam, the verb
    /// before it.
    var verbs: Range<Int>
    /// The index in the path's points of the first point of `verbs.first`.
    var firstPoint: Int
    /// Where the piece starts after a seam (the start of its first verb),
    /// or nil where it starts at a verb that begins a subpath.
    var start: Point?
    /// The piece ends inside a subpath, where the next one starts.
    var endsAtSeam: Bool

    init(verbs: Range<Int>, firstPoint: Int, start: Point?, endsAtSeam: Bool) {
        self.verbs = verbs
        self.firstPoint = firstPoint
        self.start = start
        self.endsAtSeam = endsAtSeam
    }

    /// The whole path as one piece: stroked as the path is stroked whole.
    init(whole path: Path) {
        self.init(verbs: 0..<path.verbs.count, firstPoint: 0, start: nil, endsAtSeam: false)
    }
}

enum StrokePieces {
    /// Verbs a piece: large enough that a seam's extra verb and caps cost
    /// nothing measurable, small enough that a chart line of 100,000 points
    /// is two dozen pieces for threads to share.
    static let size = 4096

    /// Verbs from which a stroke not cut in pieces is still shared by the
    /// bands of a frame that all draw it, as one piece (`StrokeShare`):
    /// below, stroking it costs a band less than taking the shared edges.
    static let sharedWhole = 256

    /// The pieces `path` is stroked in, or nil when it is stroked whole:
    /// under twice `size` verbs, or no place to cut it.
    static func plan(_ path: Path, size: Int = StrokePieces.size) -> [StrokePiece]? {
        let verbs = path.verbs, points = path.points
        let n = verbs.count
        guard size > 0, n / 2 >= size else { return nil }
        @inline(__always) func draws(_ v: Path.Verb) -> Bool { v == .line || v == .quad || v == .cubic }
        @inline(__always) func count(_ v: Path.Verb) -> Int {
            switch v {
            case .move, .line: 1
            case .quad: 2
            case .cubic: 3
            case .close: 0
            }
        }
        var pieces: [StrokePiece] = []
        var begin = 0, beginPoint = 0
        var beginStart: Point? = nil
        var pointAt = 0  // the index of verb k's first point
        var previousPoint = 0  // the index of verb k − 1's first point
        // The verb that ends the subpath last looked at, and whether it is a close.
        var subpathEnd = 0, subpathClosed = false
        for k in 0..<n {
            defer {
                previousPoint = pointAt
                pointAt += count(verbs[k])
            }
            guard k - begin >= size, k + 1 < n else { continue }
            if verbs[k] == .move {
                // A subpath begins here: no seam.
                pieces.append(StrokePiece(verbs: begin..<k, firstPoint: beginPoint, start: beginStart, endsAtSeam: false))
                begin = k
                beginPoint = pointAt
                beginStart = nil
                continue
            }
            // A seam before verb k: k and the verb before draw, the subpath is
            // open, and the verb before moves far enough that both pieces keep
            // it (`StrokeSource.epsilon`).
            guard draws(verbs[k]), draws(verbs[k - 1]), previousPoint >= 1 else { continue }
            // Whether the subpath is closed: found once a subpath, on the
            // way to its end.
            if k >= subpathEnd {
                subpathEnd = k
                while subpathEnd < n && verbs[subpathEnd] != .move && verbs[subpathEnd] != .close { subpathEnd += 1 }
                subpathClosed = subpathEnd < n && verbs[subpathEnd] == .close
            }
            guard !subpathClosed else { continue }
            let s = points[previousPoint - 1], e = points[pointAt - 1]
            guard max(abs(e.x - s.x), abs(e.y - s.y)) >= 2 * StrokeSource.epsilon else { continue }
            pieces.append(StrokePiece(verbs: begin..<k, firstPoint: beginPoint, start: beginStart, endsAtSeam: true))
            begin = k - 1
            beginPoint = previousPoint
            beginStart = s
        }
        guard !pieces.isEmpty else { return nil }
        pieces.append(StrokePiece(verbs: begin..<n, firstPoint: beginPoint, start: beginStart, endsAtSeam: false))
        return pieces
    }
}
