// Long strokes in pieces.
//
// A path of many verbs is stroked as pieces of about `StrokePieces.size`
// verbs each, so that the pieces can be taken apart on several threads at
// once (`StrokeShare`) and their edges read by every band of a frame, in the
// pieces' order. Every canvas strokes such a path in the same pieces, whether
// it draws on one thread or many, so the edges, and the pixels, are the same
// bit for bit.
//
// Where a piece ends inside a subpath (a seam), the next piece begins one
// verb earlier. Most seams are exact: where the verb before the seam (P to Q),
// the one after it (Q to R) and the one before those (ending at P) are lines
// that each move, the first piece runs on to R and stops there without
// sending the last segment's sides or an end cap, and the second starts at P,
// works out its corner at Q without sending it (`Stroker.primeLine`) and
// goes on from there with no start cap. The first sends the corner at Q and
// the sides up to it, the second everything after: together, exactly the
// edges the whole path's stroke sends, so a stroke in pieces is the whole
// stroke bit for bit. That holds where both segments lie wholly in the
// rectangle the stroke is cut to (`StrokeCutter`), which both pieces check
// alike; elsewhere, and at a seam beside a curve, the seam is butt: the first
// piece ends with a butt cap, the second starts with one, and the verbs
// stroked by both lie inside both outlines, whose union is the stroke of the
// whole (each piece's flat end lies inside the other piece's stroke, and the
// rasterizer that strokes go to counts overlaps once), the same but for the
// rounding where the outlines run along each other. Closed subpaths and
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
    /// The seam at the piece's start, and at its end, may be exact (see
    /// above): its three verbs are lines that move, and the piece before
    /// the seam runs one verb past it.
    var startsExactly: Bool
    var endsExactly: Bool

    init(
        verbs: Range<Int>, firstPoint: Int, start: Point?, endsAtSeam: Bool, startsExactly: Bool = false,
        endsExactly: Bool = false
    ) {
        self.verbs = verbs
        self.firstPoint = firstPoint
        self.start = start
        self.endsAtSeam = endsAtSeam
        self.startsExactly = startsExactly
        self.endsExactly = endsExactly
    }

    /// The whole path as one piece: stroked as the path is stroked whole.
    init(whole path: Path) {
        self.init(verbs: 0..<path.verbs.count, firstPoint: 0, start: nil, endsAtSeam: false)
    }
}

enum StrokePieces {
    /// Verbs a piece at most: large enough that a seam's extra verbs cost
    /// nothing measurable, small enough that a chart line of 100,000 points
    /// is two dozen pieces for threads to share.
    static let size = 4096

    /// Verbs a piece of a path of `verbs` verbs: an eighth of them, from 256
    /// to `size`, so that a path of 512 verbs and more is in pieces that
    /// several threads can take apart at once (an area chart's line of 2,000
    /// points, stroked by the one band that got to it while the other
    /// waited, had kept two threads from drawing it in much under two
    /// thirds of one thread's time). Seams are mostly exact, so the pixels
    /// are the whole stroke's.
    static func size(verbs: Int) -> Int { min(size, max(256, verbs / 8)) }

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
        // Far enough apart that the flattener keeps both points (`StrokeSource.epsilon`).
        @inline(__always) func moves(_ a: Point, _ b: Point) -> Bool {
            max(abs(b.x - a.x), abs(b.y - a.y)) >= 2 * StrokeSource.epsilon
        }
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
        var beginExact = false
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
                pieces.append(
                    StrokePiece(
                        verbs: begin..<k, firstPoint: beginPoint, start: beginStart, endsAtSeam: false,
                        startsExactly: beginExact))
                begin = k
                beginPoint = pointAt
                beginStart = nil
                beginExact = false
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
            guard moves(s, e) else { continue }
            // Exact where the verbs k − 2, k − 1 and k are lines that move (so
            // that the stroker is handed P, Q and R as they are, in both
            // pieces): the piece runs on through verb k.
            let exact =
                verbs[k] == .line && verbs[k - 1] == .line && moves(e, points[pointAt]) && k >= 2
                && (verbs[k - 2] == .move || verbs[k - 2] == .line && moves(points[previousPoint - 2], s))
            pieces.append(
                StrokePiece(
                    verbs: begin..<(exact ? k + 1 : k), firstPoint: beginPoint, start: beginStart, endsAtSeam: true,
                    startsExactly: beginExact, endsExactly: exact))
            begin = k - 1
            beginPoint = previousPoint
            beginStart = s
            beginExact = exact
        }
        guard !pieces.isEmpty else { return nil }
        pieces.append(
            StrokePiece(
                verbs: begin..<n, firstPoint: beginPoint, start: beginStart, endsAtSeam: false, startsExactly: beginExact))
        return pieces
    }
}
