import StrataQueues

/// Draws pictures into one bitmap on several threads at once, with the same
/// pixels, bit for bit, as one canvas drawing them.
///
/// The bitmap's rows are cut into as many horizontal bands as there are
/// threads (at least 16 rows each). `draw(_:)` calls the picture once for
/// each band, with that band's canvas, which draws only the band's rows
/// (`Canvas.limitRows(to:)`): on the calling thread and on the shared
/// `QueuePool`'s queues, the same pool asynchronous layers draw on, so no
/// thread is started beyond it. The canvases are kept from one picture to
/// the next, as a canvas keeps its buffers.
///
/// The picture must draw the same thing each time it is called (not depend
/// on which band it draws) and may run on several threads at once, hence
/// `@Sendable`. Each call makes all the picture's drawing calls: a shape
/// outside the band is passed over once its bounds are known, and a shape
/// across bands is taken apart (flattened, stroked) in each of them, with
/// only its rows in the band filled, except a long stroke (thousands of
/// segments, a chart's line), whose pieces the bands share: each piece is
/// stroked once, by whichever band gets to it first, and every band reads
/// its edges. Large fills, images and long strokes gain the most; many
/// small shapes less. A shape's cells are added for the band's rows alone,
/// with the values the whole shape gives them.
///
/// Every band runs the picture's own code too: a picture that copies one
/// shared object per drawing call (an image or a polygon's points out of
/// an array all the bands read) retains that object in every band, an
/// atomic count that the cores take turns at. With many small calls on
/// many cores that can cost more than the drawing; give each band its own
/// copy, or read shared storage through an unsafe buffer.
///
/// A picture takes as long as its slowest band, and pictures are seldom
/// even down the rows (a chart's filled area is heavier below its line). So
/// a renderer times each band's work (the thread's CPU time) and moves the
/// bands' edges before the next picture towards where each band's share of
/// that time would be equal, taking the time as spread evenly over a band's
/// rows: for the next picture drawn alike, which a renderer kept from frame
/// to frame mostly draws. Where the bands' edges are changes no pixel.
///
/// A renderer is used from one thread at a time (it is not `Sendable`), and
/// that thread must not use the bitmap while `draw(_:)` runs.
public final class BandRenderer {
    /// What the pictures are drawn into.
    public let bitmap: Bitmap
    /// The most threads a picture is drawn on (1 ... 64).
    public let threadCount: Int
    private let crew: BandCanvases
    private let share = StrokeShare()

    /// A renderer drawing into `bitmap` on up to `threadCount` threads (held
    /// to 1 ... 64, and to a band of at least 16 rows a thread).
    public init(bitmap: Bitmap, threadCount: Int) {
        self.bitmap = bitmap
        self.threadCount = min(64, max(1, threadCount))
        let count = min(self.threadCount, max(1, bitmap.height / 16))
        let rows = bitmap.height
        let share = self.share
        let even = (0...count).map { rows * $0 / count }
        edges = even
        crew = BandCanvases(
            (0..<count).map { band in
                let canvas = Canvas(bitmap: bitmap)
                if count > 1 {
                    canvas.limitRows(to: even[band]..<even[band + 1])
                    canvas.strokeShare = share
                }
                return canvas
            })
    }

    /// The rows where the bands meet: band i is rows `edges[i] ..< edges[i + 1]`.
    private var edges: [Int]

    /// The bands, as device rows: at first an even split, then moved by
    /// the time each band took (`draw(_:)`).
    public var bands: [Range<Int>] {
        (0..<crew.canvases.count).map { edges[$0]..<edges[$0 + 1] }
    }

    /// Moves the bands' edges towards an equal share of `costs` (band i's
    /// cost, spread evenly over its rows), half way from where they are, so
    /// that one uneven picture does not swing them; each band keeps 16 rows
    /// at least. Nothing moves where a cost is not finite or not positive,
    /// or where the slowest band is within 5 % of the mean.
    func rebalance(costs: [Double]) {
        let count = crew.canvases.count
        guard count > 1, costs.count == count, costs.allSatisfy({ $0.isFinite && $0 > 0 }) else { return }
        let total = costs.reduce(0, +)
        guard let slowest = costs.max(), slowest > 1.05 * total / Double(count) else { return }
        var moved = edges
        // Band i's cost per row, and where the running cost reaches each share.
        var band = 0, before = 0.0
        for k in 1..<count {
            let target = total * Double(k) / Double(count)
            while band < count - 1 && before + costs[band] < target {
                before += costs[band]
                band += 1
            }
            let rows = Double(edges[band + 1] - edges[band])
            let place = Double(edges[band]) + rows * min(1, max(0, (target - before) / costs[band]))
            moved[k] = Int(((Double(edges[k]) + place) / 2).rounded())
        }
        // 16 rows a band, the first and last rows fixed.
        let height = edges[count]
        for k in 1..<count { moved[k] = max(moved[k], moved[k - 1] + 16) }
        for k in stride(from: count - 1, through: 1, by: -1) { moved[k] = min(moved[k], moved[k + 1] - 16) }
        guard moved != edges, moved[1] >= 16, moved[count - 1] <= height - 16 else { return }
        edges = moved
        for (i, canvas) in crew.canvases.enumerated() { canvas.resetRowLimit(to: edges[i]..<edges[i + 1]) }
    }

    /// Draws `picture` into the bitmap, once for each band, and returns when
    /// every band is drawn. Each call starts from a canvas in its initial
    /// graphics state (identity transform, black paint, no clip but the band).
    public func draw(_ picture: @escaping @Sendable (Canvas) -> Void) {
        let crew = self.crew
        QueuePool.shared.perform(tasks: crew.canvases.count, workers: threadCount) { band, _ in
            let start = ThreadClock.cpuTime()
            defer { crew.times[band] = Double(ThreadClock.cpuTime() &- start) }
            let canvas = crew.canvases[band]
            canvas.strokeCount = 0
            canvas.saveGState()
            let depth = canvas.savedCount
            picture(canvas)
            // Whatever the picture left begun or saved is ended, so that the
            // next picture starts from the initial state.
            while canvas.layers.count > 0 { canvas.endTransparencyLayer() }
            while canvas.savedCount > depth { canvas.restoreGState() }
            canvas.restoreGState()
        }
        share.reset()
        rebalance(costs: Array(crew.times))
    }
}

extension Canvas {
    /// Draws one picture into `bitmap` on up to `threadCount` threads, with
    /// the same pixels as one canvas drawing it: a `BandRenderer` used once.
    public static func draw(into bitmap: Bitmap, threadCount: Int, _ picture: @escaping @Sendable (Canvas) -> Void) {
        BandRenderer(bitmap: bitmap, threadCount: threadCount).draw(picture)
    }
}

/// The canvases of a renderer's bands, one a band, all on one bitmap.
///
/// `@unchecked Sendable`: `Canvas` and `Bitmap` are not `Sendable`. Band `b`'s
/// canvas and time are used only by the task drawing band `b` (one at a
/// time: a renderer draws one picture at a time, and `perform` returns after
/// every band, before the renderer reads the times), and each canvas writes
/// only its own rows of the bitmap (`limitRows(to:)`), so no pixel, canvas
/// or time is touched by two threads at once.
private final class BandCanvases: @unchecked Sendable {
    let canvases: [Canvas]
    /// Each band's time for the last picture, in nanoseconds.
    let times: UnsafeMutableBufferPointer<Double>
    init(_ canvases: [Canvas]) {
        self.canvases = canvases
        times = .allocate(capacity: canvases.count)
        times.initialize(repeating: 0)
    }
    deinit { times.deallocate() }
}
